//! Helpers over tree-sitter-javascript's nodes that the tool-server analyses use (the facts of
//! a document come from [`crate::lang::facts`]).

use tree_sitter::Node;

use crate::lang::treesitter::{children, text_of};

/// The value of a string literal, or of a template literal without substitutions; escapes
/// decoded simply.
pub fn string_value(node: Node, text: &str) -> Option<String> {
    if !matches!(node.kind(), "string" | "template_string") {
        return None;
    }
    let mut out = String::new();
    for child in children(node) {
        match child.kind() {
            "string_fragment" => out.push_str(text_of(child, text)),
            "escape_sequence" => {
                let escape = text_of(child, text);
                out.push_str(match escape {
                    "\\n" => "\n",
                    "\\t" => "\t",
                    _ => escape.get(1..).unwrap_or_default(),
                });
            }
            "template_substitution" => return None,
            _ => {}
        }
    }
    Some(out)
}
