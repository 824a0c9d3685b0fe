//! JavaScript, TypeScript and TSX parsed by `oxc_parser`.

use oxc_allocator::Allocator;
use oxc_parser::Parser;
use oxc_span::SourceType;

use crate::lang::Surface;

/// The source type a surface's documents are parsed as: modules, JSX allowed in JavaScript
/// (React components are written in `.js` files too).
fn source_type(surface: Surface) -> SourceType {
    match surface {
        Surface::TypeScript => SourceType::ts(),
        Surface::Tsx => SourceType::tsx(),
        _ => SourceType::jsx(),
    }
}

/// The syntax errors oxc reports for a document (one more when it gave up).
pub fn errors(surface: Surface, text: &str) -> usize {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, text, source_type(surface)).parse();
    parsed.diagnostics.errors().count() + usize::from(parsed.panicked)
}
