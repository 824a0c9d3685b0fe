//! Python (`.py`, `.pyi`) with tree-sitter-python.

use super::treesitter::{self, Grammar};
use super::{Document, Surface, Syntax};

/// Node kinds holding string data. A concatenation's parts are strings themselves.
const STRING_KINDS: &[&str] = &["string"];

pub fn parse(text: String) -> Document {
    match treesitter::parse(Grammar::Python, &text) {
        Some(tree) => {
            let regions = treesitter::ranges_of_kinds(&tree, STRING_KINDS);
            let errors = treesitter::count_errors(&tree);
            Document::whole(Surface::Python, text, Syntax::TreeSitter(tree), regions, errors)
        }
        None => Document::whole(Surface::Python, text, Syntax::None, Vec::new(), 0),
    }
}
