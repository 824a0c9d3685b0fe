//! Python (`.py`, `.pyi`) with tree-sitter-python.

pub mod comment_runs;
pub mod facts;
pub mod lower;
pub mod mcp;
mod mcp_handler;

use super::treesitter::{self, Grammar};
use super::{Document, Surface};

/// Node kinds holding string data. A concatenation's parts are strings themselves.
const STRING_KINDS: &[&str] = &["string"];

pub fn parse(text: String) -> Document {
    treesitter::document(Surface::Python, Grammar::Python, text, STRING_KINDS)
}
