//! JSON (`.json`, `.jsonc`, JSON code blocks) read by [`scan`], which keeps every span and
//! accepts comments.

pub mod scan;

use std::ops::Range;

use self::scan::{Json, Node};
use super::{Document, Surface, Syntax};
use crate::migration_facts::{
    Body, Call, CallKind, Entry, Facts, HttpRequest, MapValue, ModelRef, Siblings, Value, ValueKind,
};

/// A JSON document: its strings are where model ids and URLs are read.
pub fn parse(text: String) -> Document {
    let json = scan::parse(&text);
    let regions = json.strings.clone();
    let errors = json.errors;
    Document::whole(Surface::Json, text, Syntax::Json(json), regions, errors)
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
    /// The object that declares it (`dependencies`, `devDependencies`, ...).
    pub section: String,
    pub name: String,
    pub name_range: Range<usize>,
    pub version: String,
    pub version_range: Range<usize>,
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
    let Syntax::Json(json) = &doc.syntax else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let Some(root) = json.values.iter().find(|n| n.is_object()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (section, _, value) in pairs(root, text) {
        if !DEPENDENCY_SECTIONS.contains(&section.as_str()) || !value.is_object() {
            continue;
        }
        for (name, key, version) in pairs(value, text) {
            let (Some((_, name_range)), Some((version_text, version_range))) =
                (string_content(key, text), string_content(version, text))
            else {
                continue;
            };
            out.push(Dependency {
                section: section.clone(),
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
fn pairs<'t>(object: &'t Node, text: &str) -> Vec<(String, &'t Node, &'t Node)> {
    object
        .members()
        .iter()
        .filter_map(|m| {
            let (key, value) = m.pair()?;
            Some((string_content(key, text)?.0, key, value))
        })
        .collect()
}

/// A JSON string's raw content (escapes left as written) and its span, between the quotes.
fn string_content(node: &Node, text: &str) -> Option<(String, Range<usize>)> {
    if !node.is_string() {
        return None;
    }
    let range = node.range.start + 1..node.range.end.checked_sub(1)?;
    Some((text.get(range.clone())?.to_string(), range))
}

/// A string node's decoded value (`None` for another node, or a string JSON does not allow).
pub fn decoded(node: &Node, text: &str) -> Option<String> {
    serde_json::from_str::<String>(node.text(text)).ok()
}

/// The value of a JSON node whose text is `text`, with every range moved by `base` (where
/// `text` starts in the document).
pub fn value(node: &Node, text: &str, base: usize) -> Value {
    let range = node.range.start + base..node.range.end + base;
    let kind = match &node.kind {
        scan::Kind::String => decoded(node, text).map_or(ValueKind::Other, ValueKind::Str),
        scan::Kind::Number => node
            .text(text)
            .parse::<i64>()
            .map_or(ValueKind::Other, ValueKind::Int),
        scan::Kind::True => ValueKind::Bool(true),
        scan::Kind::False => ValueKind::Bool(false),
        scan::Kind::Object(_) => ValueKind::Map(Box::new(object(node, text, base))),
        scan::Kind::Array(items) => ValueKind::List(items.iter().map(|e| value(e, text, base)).collect()),
        scan::Kind::Null | scan::Kind::Error => ValueKind::Other,
    };
    Value { range, kind }
}

/// A JSON object's members; one that is not a string key with a value (an error) makes it
/// incomplete.
pub fn object(node: &Node, text: &str, base: usize) -> MapValue {
    object_with(node, text, base, |_| true)
}

/// The members of a JSON object whose key `keep` accepts.
fn object_with(node: &Node, text: &str, base: usize, keep: impl Fn(&str) -> bool) -> MapValue {
    let members = node.members();
    let mut map = MapValue {
        entries: Vec::new(),
        complete: !node.has_error,
        wrapper: None,
    };
    let ranges: Vec<Range<usize>> = members.iter().map(|m| m.range.clone()).collect();
    for (i, member) in members.iter().enumerate() {
        let Some((key, val, name)) = member
            .pair()
            .and_then(|(key, val)| Some((key, val, decoded(key, text)?)))
        else {
            map.complete = false;
            continue;
        };
        if !keep(&name) {
            continue;
        }
        let removal = removal(&ranges, i, &node.range);
        map.entries.push(Entry {
            key: name,
            key_range: key.range.start + base..key.range.end + base,
            range: member.range.start + base..member.range.end + base,
            value: value(val, text, base),
            keyword: false,
            removal: removal.start + base..removal.end + base,
            siblings: siblings(&ranges, i, &node.range).shifted(base),
        });
    }
    map
}

/// Between a container's brackets.
fn inner(container: &Range<usize>) -> Range<usize> {
    let open = container.start + 1;
    let close = container.end.saturating_sub(1).max(open);
    open..close
}

/// Where element `index` of a container's elements sits among its neighbours.
fn siblings(elements: &[Range<usize>], index: usize, container: &Range<usize>) -> Siblings {
    Siblings {
        previous_end: index.checked_sub(1).and_then(|p| elements.get(p)).map(|r| r.end),
        next_start: elements.get(index + 1).map(|r| r.start),
        inner: inner(container),
    }
}

/// Where element `index` of a container's elements can be deleted with its separator.
fn removal(elements: &[Range<usize>], index: usize, container: &Range<usize>) -> Range<usize> {
    let Some(element) = elements.get(index) else {
        return inner(container);
    };
    if let Some(next) = elements.get(index + 1) {
        return element.start..next.start;
    }
    if let Some(previous) = index.checked_sub(1).and_then(|p| elements.get(p)) {
        return previous.end..element.end;
    }
    // The only element: everything between the brackets.
    inner(container)
}

/// What a JSON object is as a request body of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyShape {
    /// `contents` made of parts, or a `generationConfig`: a body of the predecessor endpoint.
    Predecessor,
    /// A `model` and an `input`: a body of the interactions endpoint.
    Interactions,
    Other,
}

/// The top-level keys `body_shape` reads.
const SHAPE_KEYS: &[&str] = &[
    "contents",
    "generationConfig",
    "generation_config",
    "model",
    "input",
];

/// The shape of a body, from its top-level keys (`SHAPE_KEYS`). Strict, so a weather payload's `temperature`
/// or a document's `contents` is not taken for a request.
pub fn body_shape(map: &MapValue) -> BodyShape {
    let parts_items = |v: &Value| match &v.kind {
        ValueKind::List(items) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|i| i.as_map().is_some_and(|m| m.get("parts").is_some()))
        }
        _ => false,
    };
    let config = ["generationConfig", "generation_config"]
        .iter()
        .any(|k| map.get(k).is_some_and(|e| e.value.as_map().is_some()));
    if map.get("contents").is_some_and(|e| parts_items(&e.value)) || (config && map.get("input").is_none()) {
        return BodyShape::Predecessor;
    }
    let model = map
        .get("model")
        .is_some_and(|e| matches!(e.value.kind, ValueKind::Str(_)));
    if model && map.get("input").is_some() {
        return BodyShape::Interactions;
    }
    BodyShape::Other
}

/// What a body written on its own (no URL with it) is: the kind of its call and where its
/// finding points; `None` when it does not have the shape of a request body.
pub fn body_alone(map: &MapValue, start: usize) -> Option<(CallKind, std::ops::Range<usize>)> {
    let (kind, key) = match body_shape(map) {
        BodyShape::Predecessor => (CallKind::Rest { stream: false }, "contents"),
        BodyShape::Interactions => (CallKind::Interactions, "model"),
        BodyShape::Other => return None,
    };
    Some((
        kind,
        map.get(key).map_or(start..start + 1, |e| e.key_range.clone()),
    ))
}

/// The facts of a JSON document: a request body written on its own.
pub fn facts(json: &Json, text: &str) -> Facts {
    let mut facts = Facts {
        comments: json.comments.clone(),
        ..Facts::default()
    };
    // The shape is read from the few keys it depends on first: a data file of megabytes
    // (an API discovery document) is not copied into values to learn it is not a request.
    if let Some(root) = json.root_object()
        && body_shape(&object_with(root, text, 0, |k| SHAPE_KEYS.contains(&k))) != BodyShape::Other
        && let Some(body) = push_body(&mut facts, root, text, 0, None, None, "")
    {
        facts.http.push(HttpRequest::body_alone(root.range.clone(), body));
    }
    facts
}

/// Records a JSON object as the body of a request (of `url`'s kind and model, when the
/// request names a URL; else only if it has the shape of a request body) and returns the body.
/// `literal` are the document ranges where its text is written literally (the whole object
/// when `None`), and `forbidden` the characters an edit may not write there.
pub fn push_body(
    facts: &mut Facts,
    node: &Node,
    text: &str,
    base: usize,
    url: Option<(CallKind, ModelRef, Range<usize>)>,
    literal: Option<Vec<Range<usize>>>,
    forbidden: &'static str,
) -> Option<Body> {
    let map = object(node, text, base);
    let (kind, model, callee) = match url {
        Some(url) => url,
        None => {
            let (kind, at) = body_alone(&map, node.range.start + base)?;
            (kind, ModelRef::Absent, at)
        }
    };
    let braces = node.range.start + base..node.range.end + base;
    let call = Call::of_body(map, kind, model, callee, braces.clone(), text, base);
    Some(facts.push_body(call, literal.unwrap_or_else(|| vec![braces]), forbidden))
}
