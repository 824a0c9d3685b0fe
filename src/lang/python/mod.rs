//! Python (`.py`, `.pyi`), parsed by `ruff_python_parser` and lowered into the shared form.

pub mod comment_runs;
pub mod frameworks;
pub mod lower;

use super::{Document, Surface, Syntax, ir};

pub fn parse(text: String) -> Document {
    let tree = lower::lower(&text, false);
    document(text, tree)
}

/// A notebook cell read alone, in IPython mode (when its notebook's cells do not parse as one
/// module).
pub fn parse_cell(text: String) -> Document {
    let tree = lower::lower(&text, true);
    document(text, tree)
}

/// The document of a lowered text.
pub fn document(text: String, tree: ir::Tree) -> Document {
    let regions = tree.strings.iter().map(|s| s.range()).collect();
    // CPython also rejects a keyword argument repeated in one call, when it compiles.
    let errors = tree.errors + ir::repeated_keywords(&tree);
    Document::whole(
        Surface::Python,
        text,
        Syntax::Lowered(Box::new(tree)),
        regions,
        errors,
    )
}
