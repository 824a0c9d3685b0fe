//! JavaScript and TypeScript (`.js .mjs .cjs .jsx .ts .mts .cts .tsx`), parsed by `oxc_parser`
//! and lowered into the shared form.

pub mod frameworks;
pub mod lower;

use super::{Document, Surface, Syntax};

pub fn parse(surface: Surface, text: String) -> Document {
    let tree = lower::lower(surface, &text);
    let regions = tree.strings.iter().map(|s| s.range()).collect();
    let errors = tree.errors;
    Document::whole(surface, text, Syntax::Lowered(Box::new(tree)), regions, errors)
}
