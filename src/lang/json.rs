//! JSON (`.json`, `.jsonc`) with tree-sitter-json, which keeps every span and accepts comments.

use super::treesitter::{self, Grammar};
use super::{Document, Surface};

pub fn parse(text: String) -> Document {
    treesitter::document(Surface::Json, Grammar::Json, text, &["string"])
}

/// Escapes text for the inside of a JSON string literal.
pub fn escape_string_content(text: &str) -> String {
    let quoted = serde_json::Value::String(text.to_string()).to_string();
    quoted[1..quoted.len() - 1].to_string()
}

/// Decodes the inside of a JSON string literal that starts at `file_start` in the file, and
/// records in `map` which decoded bytes are the file's own bytes (everything but escapes).
/// `doc_start` is where the decoded text goes in the document being built.
pub fn decode_string_content(
    raw: &str,
    file_start: usize,
    doc_start: usize,
    map: &mut super::OffsetMap,
) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    let mut run_start: Option<(usize, usize)> = None;
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            if run_start.is_none() {
                run_start = Some((i, doc_start + out.len()));
            }
            out.push(c);
            continue;
        }
        if let Some((raw_at, doc_at)) = run_start.take() {
            map.push(doc_at, file_start + raw_at, i - raw_at);
        }
        let decoded = match chars.next().map(|(_, e)| e) {
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some('u') => {
                let hex: String = (0..4).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                let unit = u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD);
                if (0xD800..0xDC00).contains(&unit) {
                    // A surrogate pair: the low half follows as another \uXXXX.
                    let low = if raw[chars.peek().map_or(raw.len(), |(j, _)| *j)..].starts_with("\\u") {
                        chars.next();
                        chars.next();
                        let hex: String = (0..4).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                        u32::from_str_radix(&hex, 16).unwrap_or(0)
                    } else {
                        0
                    };
                    let combined = 0x10000 + ((unit - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                    char::from_u32(combined).unwrap_or('\u{FFFD}')
                } else {
                    char::from_u32(unit).unwrap_or('\u{FFFD}')
                }
            }
            Some(other) => other,
            None => break,
        };
        out.push(decoded);
    }
    if let Some((raw_at, doc_at)) = run_start {
        map.push(doc_at, file_start + raw_at, raw.len() - raw_at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::OffsetMap;
    use super::*;
    use crate::diagnostic::Edit;

    #[test]
    fn decoding_maps_literal_runs() {
        let raw = r#"a\"b\n\u00e9c"#;
        let mut map = OffsetMap::new(true, false);
        let decoded = decode_string_content(raw, 10, 0, &mut map);
        assert_eq!(decoded, "a\"b\néc");
        assert_eq!(map.offset(0), 10);
        assert_eq!(map.offset(2), 13); // "b"
        let c = decoded.find('c').unwrap();
        assert_eq!(map.offset(c), 10 + raw.find('c').unwrap());
        let edit = map.edit(&Edit::replace(2..3, "\"x\"")).unwrap();
        assert_eq!(edit, Edit::replace(13..14, "\\\"x\\\""));
        // Across an escape: cannot be carried over.
        assert!(map.edit(&Edit::replace(0..3, "y")).is_none());
    }
}

/// A dependency of a `package.json`: the package's name and its version range, with the spans
/// of their string contents.
#[derive(Clone, Debug)]
pub struct Dependency {
    pub name: String,
    pub name_range: std::ops::Range<usize>,
    pub version: String,
    pub version_range: std::ops::Range<usize>,
}

/// The sections of a `package.json` that name dependencies.
const DEPENDENCY_SECTIONS: &[&str] = &[
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
];

/// The dependencies a `package.json` document declares.
pub fn package_dependencies(doc: &Document) -> Vec<Dependency> {
    let super::Syntax::TreeSitter(tree) = &doc.syntax else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let mut cursor = tree.root_node().walk();
    let Some(root) = tree
        .root_node()
        .named_children(&mut cursor)
        .find(|n| n.kind() == "object")
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (section, _, value) in pairs(root, text) {
        if !DEPENDENCY_SECTIONS.contains(&section.as_str()) || value.kind() != "object" {
            continue;
        }
        for (name, key, version) in pairs(value, text) {
            let (Some((_, name_range)), Some((version_text, version_range))) =
                (string_content(key, text), string_content(version, text))
            else {
                continue;
            };
            out.push(Dependency {
                name,
                name_range,
                version: version_text,
                version_range,
            });
        }
    }
    out
}

/// The pairs of an object whose key is a string: the key's content, the key and the value.
fn pairs<'t>(
    object: tree_sitter::Node<'t>,
    text: &str,
) -> Vec<(String, tree_sitter::Node<'t>, tree_sitter::Node<'t>)> {
    let mut cursor = object.walk();
    object
        .named_children(&mut cursor)
        .filter(|p| p.kind() == "pair")
        .filter_map(|p| {
            let key = p.child_by_field_name("key")?;
            let value = p.child_by_field_name("value")?;
            Some((string_content(key, text)?.0, key, value))
        })
        .collect()
}

/// A JSON string's raw content (escapes left as written) and its span, between the quotes.
fn string_content(node: tree_sitter::Node, text: &str) -> Option<(String, std::ops::Range<usize>)> {
    if node.kind() != "string" {
        return None;
    }
    let range = node.start_byte() + 1..node.end_byte().checked_sub(1)?;
    Some((text.get(range.clone())?.to_string(), range))
}
