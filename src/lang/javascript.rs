//! JavaScript and TypeScript (`.js .mjs .cjs .jsx .ts .mts .cts .tsx`) with tree-sitter.

use super::treesitter::{self, Grammar};
use super::{Document, Surface, Syntax};

/// Node kinds holding string data: literals, template literals, and text between JSX tags.
const STRING_KINDS: &[&str] = &["string", "template_string", "jsx_text"];

pub fn parse(surface: Surface, text: String) -> Document {
    let grammar = match surface {
        Surface::TypeScript => Grammar::TypeScript,
        Surface::Tsx => Grammar::Tsx,
        _ => Grammar::JavaScript,
    };
    match treesitter::parse(grammar, &text) {
        Some(tree) => {
            let regions = treesitter::ranges_of_kinds(&tree, STRING_KINDS);
            let errors = treesitter::count_errors(&tree);
            Document::whole(surface, text, Syntax::TreeSitter(tree), regions, errors)
        }
        None => Document::whole(surface, text, Syntax::None, Vec::new(), 0),
    }
}
