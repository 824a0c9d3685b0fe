//! JavaScript and TypeScript (`.js .mjs .cjs .jsx .ts .mts .cts .tsx`) with tree-sitter.

pub mod facts;
pub mod lower;
pub mod mcp;
mod mcp_handler;

use super::treesitter::{self, Grammar};
use super::{Document, Surface};

/// Node kinds holding string data: literals, template literals, and text between JSX tags.
const STRING_KINDS: &[&str] = &["string", "template_string", "jsx_text"];

pub fn parse(surface: Surface, text: String) -> Document {
    let grammar = match surface {
        Surface::TypeScript => Grammar::TypeScript,
        Surface::Tsx => Grammar::Tsx,
        _ => Grammar::JavaScript,
    };
    treesitter::document(surface, grammar, text, STRING_KINDS)
}
