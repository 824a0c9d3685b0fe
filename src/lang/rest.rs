//! What the surfaces that write raw HTTP requests (shell, REST-client files, Rust) share: what a
//! URL says about the request, and how a JSON body written in the document is read.

use std::ops::Range;

use super::json;
use crate::endpoint::{MATCHER, PredecessorUrl};
use crate::migration_facts::{Body, CallKind, Facts, ModelRef};

/// What a request's URL says: the kind of call its body makes, the model the URL names, and
/// where the request's findings point.
#[derive(Clone, Debug)]
pub struct UrlCall {
    pub kind: CallKind,
    pub model: ModelRef,
    pub callee: Range<usize>,
    /// The predecessor URL, when it is one.
    pub predecessor: Option<PredecessorUrl>,
}

/// Whether a URL in `text[range]` names the service (the predecessor or the interactions
/// endpoint).
pub fn names_service(text: &str, range: Range<usize>) -> bool {
    !MATCHER.predecessor_urls(text, range.clone()).is_empty()
        || !MATCHER.interactions_urls(text, range).is_empty()
}

/// The call a URL written at `text[range]` makes; `None` for another service, and for a
/// platform-hosted URL (reported, never rewritten).
pub fn url_call(text: &str, range: Range<usize>) -> Option<UrlCall> {
    if let Some(url) = MATCHER.predecessor_urls(text, range.clone()).into_iter().next() {
        if url.platform {
            return None;
        }
        let model = text.get(url.model.clone()).unwrap_or_default();
        return Some(UrlCall {
            kind: CallKind::Rest { stream: url.stream },
            model: if is_literal_id(model) {
                ModelRef::Literal(model.to_string())
            } else {
                ModelRef::Unresolved
            },
            callee: url.path.clone(),
            predecessor: Some(url),
        });
    }
    MATCHER
        .interactions_urls(text, range.clone())
        .first()
        .map(|_| UrlCall {
            kind: CallKind::Interactions,
            model: ModelRef::Absent,
            callee: range,
            predecessor: None,
        })
}

/// A model written out in a URL (`gemini-2.0-flash`), not a variable or placeholder.
pub fn is_literal_id(model: &str) -> bool {
    !model.is_empty()
        && model
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// A body whose JSON text is `text[range]` where it lies in `literal`; the rest (expansions,
/// quotes between pieces) reads as filler inside the JSON, so a body splicing a variable into a
/// string still parses, and one splicing it where a value goes (`"file_uri": '$file_uri'`, the
/// variable holding a JSON string) reads it as a string. `forbidden` are the characters an edit may not write in the literal
/// ranges.
pub fn json_body(
    range: Range<usize>,
    literal: Vec<Range<usize>>,
    forbidden: &'static str,
    text: &str,
    url: Option<&UrlCall>,
    facts: &mut Facts,
) -> Body {
    let Some(written) = text.get(range.clone()) else {
        return Body::Unknown("the body is not text".into());
    };
    let mut masked = String::with_capacity(written.len());
    for (i, c) in written.char_indices() {
        let at = range.start + i;
        if literal.iter().any(|l| l.contains(&at)) {
            masked.push(c);
        } else {
            masked.extend(std::iter::repeat_n('x', c.len_utf8()));
        }
    }
    quote_value_holes(&mut masked);
    blank_trailing_commas(&mut masked);
    let parsed = json::scan::parse(&masked);
    match parsed.root_object() {
        Some(root) if !root.has_error => {
            let url = url.map(|u| (u.kind, u.model.clone(), u.callee.clone()));
            json::push_body(facts, root, &masked, range.start, url, Some(literal), forbidden)
                .unwrap_or_else(|| Body::Unknown("the body is not a request of the service".into()))
        }
        _ => Body::Unknown("the body is not a JSON object interlint can read".into()),
    }
}

/// Whether each byte of a JSON text is inside a string (its quotes included), so that a scan
/// over the text's tokens passes over what strings hold.
fn in_strings(bytes: &[u8]) -> Vec<bool> {
    let mut inside = vec![false; bytes.len()];
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        let quote = bytes[i] == b'"';
        inside[i] = in_string || quote;
        if in_string && bytes[i] == b'\\' && i + 1 < bytes.len() {
            inside[i + 1] = true;
            i += 2;
            continue;
        }
        if quote {
            in_string = !in_string;
        }
        i += 1;
    }
    inside
}

/// Each run of filler (`x`, see [`json_body`]) of at least two bytes that stands where a JSON
/// value goes (after `:`, `[` or `,`, before `,`, `]` or `}`) becomes a string of the same
/// length (`"xxxx"`), so that the body parses with the splice as a value.
fn quote_value_holes(masked: &mut String) {
    let bytes = masked.as_bytes();
    let inside = in_strings(bytes);
    let mut holes = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'x' || inside[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] == b'x' {
            i += 1;
        }
        let before = bytes[..start].iter().rev().find(|b| !b.is_ascii_whitespace());
        let after = bytes[i..].iter().find(|b| !b.is_ascii_whitespace());
        if i - start >= 2
            && matches!(before, Some(b':' | b'[' | b','))
            && matches!(after, Some(b',' | b']' | b'}'))
        {
            holes.push(start..i);
        }
    }
    for hole in holes {
        let quoted = format!("\"{}\"", "x".repeat(hole.len() - 2));
        masked.replace_range(hole, &quoted);
    }
}

/// A comma after a container's last item (`[{...},\n]`, `{"a": 1,}`), which the service's
/// request parser accepts (the client library's own REST samples send such bodies), reads as
/// whitespace: the body is read as the service reads it. The text keeps it.
fn blank_trailing_commas(masked: &mut String) {
    let bytes = masked.as_bytes();
    let inside = in_strings(bytes);
    let commas: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] == b',' && !inside[i])
        .filter(|&i| {
            matches!(
                bytes[i + 1..].iter().find(|b| !b.is_ascii_whitespace()),
                Some(b']' | b'}')
            )
        })
        .collect();
    for at in commas {
        masked.replace_range(at..at + 1, " ");
    }
}

#[cfg(test)]
mod tests {
    use super::{blank_trailing_commas, quote_value_holes};

    #[test]
    fn a_trailing_comma_reads_as_whitespace() {
        let mut body = "{\"a\": [1, 2,\n], \"b\": \",]\",}".to_string();
        blank_trailing_commas(&mut body);
        assert_eq!(body, "{\"a\": [1, 2 \n], \"b\": \",]\" }");
    }

    #[test]
    fn a_splice_where_a_value_goes_reads_as_a_string() {
        let mut body = r#"{"a": xxxxxxx, "b": ["x", xxxx], "c": "in xxx string", "d": xxxx}"#.to_string();
        quote_value_holes(&mut body);
        assert_eq!(
            body,
            r#"{"a": "xxxxx", "b": ["x", "xx"], "c": "in xxx string", "d": "xx"}"#
        );
        // A key, or a run too short to quote, stays.
        let mut key = r#"{xxxx: 1, "e": x}"#.to_string();
        quote_value_holes(&mut key);
        assert_eq!(key, r#"{xxxx: 1, "e": x}"#);
    }
}
