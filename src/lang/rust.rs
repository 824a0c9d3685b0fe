//! Rust (`.rs`) with syn and proc-macro2 span locations.
//!
//! String literals are found on the token stream rather than the syntax tree, so literals
//! inside macro calls (`format!`, `json!`, `concat!`) are seen too. Doc comments arrive as
//! `#[doc = "..."]` literals whose span is the comment; those are skipped, like every comment.

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};

use super::text;
use super::{CommentStyle, Document, Surface, Syntax};

pub fn parse(text: String) -> Document {
    let regions = match text.parse::<TokenStream>() {
        Ok(stream) => {
            let mut regions = Vec::new();
            collect_string_literals(stream, &text, &mut regions);
            regions
        }
        // Not even tokens: fall back to the text outside comments.
        Err(_) => {
            let comments = text::comment_ranges(CommentStyle::Slash, &text);
            super::treesitter::complement(text.len(), &comments)
        }
    };
    let (syntax, errors) = match syn::parse_file(&text) {
        Ok(file) => (Syntax::Rust(Box::new(file)), 0),
        Err(_) => (Syntax::None, 1),
    };
    Document::whole(Surface::Rust, text, syntax, regions, errors)
}

/// Forgets the spans of this thread's earlier parses. proc-macro2 keeps every parsed text in a
/// thread-local map, so the engine calls this between files; no span of an earlier parse may
/// be used afterwards.
pub fn reset_thread_spans() {
    proc_macro2::extra::invalidate_current_thread_spans();
}

fn collect_string_literals(stream: TokenStream, text: &str, out: &mut Vec<Range<usize>>) {
    for tree in stream {
        match tree {
            TokenTree::Group(group) => collect_string_literals(group.stream(), text, out),
            TokenTree::Literal(literal) => {
                let range = literal.span().byte_range();
                if text.get(range.clone()).is_some_and(is_string_literal) {
                    out.push(range);
                }
            }
            TokenTree::Ident(_) | TokenTree::Punct(_) => {}
        }
    }
}

/// `"..."`, `r#"..."#`, `b"..."`, `c"..."`, `br"..."`: but not a doc comment's text.
fn is_string_literal(source: &str) -> bool {
    let body = source.trim_start_matches(['b', 'c', 'r']);
    body.starts_with('"') || (body.starts_with('#') && source.starts_with(['r', 'b', 'c']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_in_macros_and_not_in_comments() {
        let text = r###"/// doc "a"
// line "b"
fn f() { let _ = format!("c{}", r#"d"#); json!({"e": 1}); }
"###
        .to_string();
        reset_thread_spans();
        let doc = parse(text);
        let found: Vec<&str> = doc.scan_regions.iter().map(|r| &doc.text[r.clone()]).collect();
        assert_eq!(found, ["\"c{}\"", "r#\"d\"#", "\"e\""]);
        assert_eq!(doc.syntax_errors, 0);
    }
}
