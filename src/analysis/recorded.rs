//! Predecessor URLs written in a document's text, one per recorded request. A test replay or a
//! cassette records a call as one JSON object or YAML mapping that often names its URL twice
//! (`"url"` and the request line in `"request"`) next to its body: that is one request, and the
//! rules that report URLs in text (MIG007, MIG005) report it once, on its first URL.

use std::ops::Range;

use super::keys::{Key, yaml_mappings};
use crate::endpoint::{MATCHER, PredecessorUrl};
use crate::lang::json::scan::{Json, Step};
use crate::lang::{CommentStyle, Document, Surface, Syntax, json};

/// A predecessor URL of the text, with the recorded request it belongs to.
#[derive(Clone, Debug)]
pub struct TextUrl {
    pub url: PredecessorUrl,
    pub record: Option<Record>,
}

/// A JSON object or YAML mapping that holds a predecessor URL as one of its values.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// The whole object (JSON) or the URL's key (YAML).
    pub range: Range<usize>,
    /// The keys of the other members that name the same URL (reported no more).
    pub copies: Vec<String>,
    /// The key of a member that holds the body of the call, when one does.
    pub body: Option<String>,
}

impl Record {
    /// What the finding says about the recorded request, when it is one; `None` for a URL that
    /// is alone in its object.
    pub fn note(&self) -> Option<String> {
        let copies = match self.copies.as_slice() {
            [] => None,
            keys => Some(format!(
                "{} names the same call",
                keys.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        let body = self.body.as_ref().map(|b| format!("`{b}` holds its body"));
        let parts: Vec<String> = copies.into_iter().chain(body).collect();
        (!parts.is_empty()).then(|| {
            format!(
                "A recorded request ({}): record it again once the code that sends it is migrated",
                parts.join("; ")
            )
        })
    }
}

/// The predecessor URLs of the document's scan regions that are assembled from parts
/// ([`crate::endpoint::Matcher::assembled_urls`]), outside comments: in prose or a comment a
/// method name is a word; a string that is a method name alone, only in a document whose URL
/// template leaves the method to a placeholder.
pub fn assembled_urls(doc: &Document) -> Vec<PredecessorUrl> {
    let comments = &doc.facts().comments;
    let outside = |u: &PredecessorUrl| {
        !comments
            .iter()
            .any(|c| c.start <= u.path.start && u.path.start < c.end)
    };
    let mut urls: Vec<PredecessorUrl> = doc
        .scan_regions
        .iter()
        .flat_map(|region| MATCHER.assembled_urls(&doc.text, region.clone()))
        .filter(outside)
        .collect();
    // A template that leaves the method to a placeholder: the strings that are a method alone
    // are where it is chosen (`stream ? 'streamGenerateContent' : 'generateContent'`).
    let chosen_elsewhere = urls
        .iter()
        .any(|u| !MATCHER.is_method(doc.text.get(u.method.clone()).unwrap_or_default()));
    if chosen_elsewhere {
        urls.extend(
            doc.scan_regions
                .iter()
                .filter_map(|region| MATCHER.method_literal(&doc.text, region.clone()))
                .filter(outside),
        );
    }
    urls
}

/// Every predecessor URL of the document's scan regions, the copies of a recorded request's
/// URL left out.
pub fn predecessor_urls(doc: &Document) -> Vec<TextUrl> {
    let urls: Vec<PredecessorUrl> = doc
        .scan_regions
        .iter()
        .flat_map(|region| MATCHER.predecessor_urls(&doc.text, region.clone()))
        .collect();
    if urls.is_empty() {
        return Vec::new();
    }
    // Each URL's object (its range) and the key it is the value of.
    let owners: Vec<Option<(Range<usize>, String)>> = match (&doc.surface, &doc.syntax) {
        (Surface::Json, Syntax::Json(json)) => urls
            .iter()
            .map(|u| json_owner(json, &doc.text, u.path.clone()))
            .collect(),
        (Surface::Text(CommentStyle::Hash), _) => {
            let mappings = yaml_mappings(&doc.text);
            urls.iter().map(|u| yaml_owner(&mappings, u.path.start)).collect()
        }
        _ => vec![None; urls.len()],
    };
    let mut out: Vec<TextUrl> = Vec::new();
    for (url, owner) in urls.into_iter().zip(owners) {
        let Some((object, key)) = owner else {
            out.push(TextUrl { url, record: None });
            continue;
        };
        let path = doc.text.get(url.path.clone()).unwrap_or_default();
        let first = out.iter_mut().find(|t| {
            t.record.as_ref().is_some_and(|r| r.range == object)
                && doc.text.get(t.url.path.clone()) == Some(path)
        });
        match first {
            Some(first) => {
                if let Some(record) = &mut first.record
                    && !record.copies.contains(&key)
                {
                    record.copies.push(key);
                }
            }
            None => {
                let body = match (&doc.surface, &doc.syntax) {
                    (Surface::Json, Syntax::Json(json)) => json_body(json, &doc.text, &object),
                    _ => yaml_body(&doc.text, &object),
                };
                out.push(TextUrl {
                    url,
                    record: Some(Record {
                        range: object,
                        copies: Vec::new(),
                        body,
                    }),
                });
            }
        }
    }
    out
}

/// The object a URL is a member value of, and the member's key.
fn json_owner(parsed: &Json, text: &str, at: Range<usize>) -> Option<(Range<usize>, String)> {
    // The string holding the URL (a string holds no other node), as the value of a pair.
    let (node, step) = parsed.path(at).pop()?;
    let (Step::Value(object, member), true) = (step, node.is_string()) else {
        return None;
    };
    let (key, _) = member.pair()?;
    Some((object.range.clone(), json::decoded(key, text)?))
}

/// The member of a JSON object that holds a request body of the predecessor endpoint: an object
/// (or an array of objects, `bodySegments`) with its shape, or a string holding such JSON; or
/// `contents` when the object is the body itself.
fn json_body(parsed: &Json, text: &str, object: &Range<usize>) -> Option<String> {
    let node = parsed.object_at(object.clone())?;
    let map = json::object(node, text, 0);
    if json::body_shape(&map) == json::BodyShape::Predecessor {
        // The object is the body itself, with the URL among its members.
        return Some("contents".to_string());
    }
    let is_body = |value: &crate::migration_facts::Value| match &value.kind {
        crate::migration_facts::ValueKind::Map(m) => json::body_shape(m) == json::BodyShape::Predecessor,
        crate::migration_facts::ValueKind::List(items) => items.iter().any(|i| {
            i.as_map()
                .is_some_and(|m| json::body_shape(m) == json::BodyShape::Predecessor)
        }),
        crate::migration_facts::ValueKind::Str(s) => string_body(s),
        _ => false,
    };
    map.entries
        .iter()
        .find(|e| is_body(&e.value))
        .map(|e| e.key.clone())
}

/// Whether a string holds a JSON request body of the predecessor endpoint.
fn string_body(s: &str) -> bool {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(s.trim()) else {
        return false;
    };
    map.contains_key("contents") || map.contains_key("generationConfig")
}

/// The YAML key a URL at `at` is the value of (the last key before it), as the key's range
/// (which names its mapping's record) and text.
fn yaml_owner(mappings: &[Vec<Key>], at: usize) -> Option<(Range<usize>, String)> {
    let (group, _) = mappings
        .iter()
        .enumerate()
        .flat_map(|(g, keys)| keys.iter().map(move |k| (g, k)))
        .filter(|(_, k)| k.range.start <= at)
        .max_by_key(|(_, k)| k.range.start)?;
    let key = mappings[group]
        .iter()
        .filter(|k| k.range.start <= at)
        .max_by_key(|k| k.range.start)?;
    // The record is the mapping: named by its first key.
    let first = mappings[group].first()?;
    Some((first.range.clone(), key.text.clone()))
}

/// The key of the YAML mapping named by `first` whose value holds a predecessor body (a string
/// of JSON with `"contents"`, as cassettes record it).
fn yaml_body(text: &str, first: &Range<usize>) -> Option<String> {
    let mappings = yaml_mappings(text);
    let keys = mappings
        .iter()
        .find(|g| g.first().is_some_and(|k| k.range == *first))?;
    keys.iter().enumerate().find_map(|(i, key)| {
        let end = keys
            .get(i + 1)
            .map_or_else(|| line_end(text, key.range.end), |next| next.range.start);
        let value = text.get(key.range.end..end)?;
        (value.contains("\"contents\"") || value.contains("\"generationConfig\"")).then(|| key.text.clone())
    })
}

fn line_end(text: &str, from: usize) -> usize {
    text[from..].find('\n').map_or(text.len(), |p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notes(surface: Surface, text: &str) -> Vec<Option<String>> {
        let docs = crate::lang::documents(surface, text);
        predecessor_urls(&docs[0])
            .into_iter()
            .map(|t| t.record.and_then(|r| r.note()))
            .collect()
    }

    #[test]
    fn a_body_at_the_root_with_its_url() {
        let text = "{\"url\": \"https://x/v1beta/models/m:generateContent\", \"contents\": [{\"parts\": [{\"text\": \"Hi\"}]}]}\n";
        let found = notes(Surface::Json, text);
        let fixture = include_str!("../../fixtures/fix-safety/recorded_body_at_root.json");
        assert_eq!(notes(Surface::Json, fixture), found);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .as_deref()
                .is_some_and(|n| n.contains("`contents` holds its body")),
            "{found:?}"
        );
    }
}
