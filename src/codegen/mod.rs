//! The language writer: the code interlint writes into a file, apart from the facts read from
//! it, which carry no finished code. The request rewriter ([`request`]) and structured output
//! ([`structured_output`]) write an interactions request in the document's language; a legacy
//! client's unit is rewritten as the current package's code by [`legacy`]; [`stdout`] sends a
//! tool server's write to standard output to standard error. At the bottom, the writer kit
//! ([`writer`]) prints the pieces of a request in the document's language, adds imports and
//! removes statements; it imports nothing else of codegen.
//!
//! It reads the facts (`api`, `lang`), the tables and the edits' type, and nothing of the rules:
//! a rule decides what to report and asks for the code here.

pub mod chat;
pub mod legacy;
pub mod request;
pub mod stdout;
pub mod structured_output;
pub mod unit;
pub mod writer;
