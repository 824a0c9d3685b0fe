//! Helpers over tree-sitter-python's nodes that the tool-server analyses use (the facts of a
//! document come from [`crate::lang::facts`]).

use tree_sitter::Node;

use crate::lang::treesitter::{children, text_of};

/// The value node of the keyword argument `name` in an argument list.
pub(super) fn keyword_in<'t>(arguments: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    children(arguments)
        .filter(|c| c.kind() == "keyword_argument")
        .find(|c| {
            c.child_by_field_name("name")
                .is_some_and(|n| text_of(n, text) == name)
        })?
        .child_by_field_name("value")
}

/// The value of a plain string literal (no f-string, no bytes); escapes decoded simply.
pub fn string_value(node: Node, text: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut out = String::new();
    let mut raw = false;
    for child in children(node) {
        match child.kind() {
            "string_start" => {
                let prefix = text_of(child, text).to_ascii_lowercase();
                if prefix.contains('f') || prefix.contains('b') {
                    return None;
                }
                raw = prefix.contains('r');
            }
            "string_content" => out.push_str(text_of(child, text)),
            "interpolation" => return None,
            _ => {}
        }
    }
    if !raw && out.contains('\\') {
        out = out
            .replace("\\n", "\n")
            .replace("\\t", "\t")
            .replace("\\'", "'")
            .replace("\\\"", "\"")
            .replace("\\\\", "\\");
    }
    Some(out)
}
