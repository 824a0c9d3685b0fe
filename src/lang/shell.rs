//! Shell scripts (`.sh .bash .zsh`) with tree-sitter-bash: everything but comments is text.

use super::treesitter::{self, Grammar};
use super::{Document, Surface, Syntax};

pub fn parse(text: String) -> Document {
    match treesitter::parse(Grammar::Bash, &text) {
        Some(tree) => {
            let comments = treesitter::ranges_of_kinds(&tree, &["comment"]);
            let regions = treesitter::complement(text.len(), &comments);
            let errors = treesitter::count_errors(&tree);
            Document::whole(Surface::Shell, text, Syntax::TreeSitter(tree), regions, errors)
        }
        None => {
            let regions = std::iter::once(0..text.len()).collect();
            Document::whole(Surface::Shell, text, Syntax::None, regions, 0)
        }
    }
}
