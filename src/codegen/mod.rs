//! The language writer: the code interlint writes into a file, apart from the facts read from
//! it, which carry no finished code. The request rewriter ([`request`], with its contents,
//! fields, tools and structured output) writes an interactions request in the document's
//! language; [`unit`] rewrites the reads of a request's result with it; [`chat`] rewrites a chat
//! helper's turns; a legacy client's unit is rewritten as the current package's code by
//! [`legacy`]; [`stdout`] sends a tool server's write to standard output to standard error.
//!
//! Its modules import one way, each only from those before it: the writer kit ([`writer`]:
//! `Dialect` and its printing, imports, statement removal, placement, lines) < structured output
//! < contents, tools < fields < [`unit`] < [`request`] < [`chat`] < [`legacy`]; [`stdout`]
//! stands apart.
//!
//! It reads the facts (`migration_facts`, `lang`), the tables and the edits' type, and nothing of the rules:
//! a rule decides what to report and asks for the code here.

pub mod chat;
pub mod legacy;
pub mod request;
pub mod stdout;
pub mod unit;
pub mod writer;
