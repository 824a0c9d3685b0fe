//! REST-client request files (`.http`, `.rest`, `http` code blocks): requests separated by
//! `###`, each a request line, header lines, a blank line and a body. Lines starting with `#` or
//! `//` are comments.

use std::ops::Range;

use super::rest::{self, UrlCall};
use super::text;
use super::{CommentStyle, Document, Surface, Syntax};
use crate::migration_facts::{Body, Facts, HttpRequest};

pub fn parse(text: String) -> Document {
    let comments = text::comment_ranges(CommentStyle::LineStart, &text);
    let regions = super::treesitter::complement(text.len(), &comments);
    Document::whole(Surface::Http, text, Syntax::None, regions, 0)
}

const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// A line of the file: its range without the line break.
struct Line<'a> {
    range: Range<usize>,
    text: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let content = raw.trim_end_matches(['\n', '\r']);
        out.push(Line {
            range: at..at + content.len(),
            text: content,
        });
        at += raw.len();
    }
    out
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.starts_with("//")
}

/// The requests of the file.
pub fn facts(text: &str) -> Facts {
    let mut facts = Facts {
        comments: text::comment_ranges(CommentStyle::LineStart, text),
        ..Facts::default()
    };
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let lines = lines(text);
    let mut blocks: Vec<&[Line]> = Vec::new();
    let mut start = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.text.trim_start().starts_with("###") {
            blocks.push(&lines[start..i]);
            start = i + 1;
        }
    }
    blocks.push(&lines[start..]);
    for block in blocks {
        if let Some(request) = request(block, text, newline, &mut facts) {
            facts.http.push(request);
        }
    }
    facts
}

fn request(block: &[Line], text: &str, newline: &str, facts: &mut Facts) -> Option<HttpRequest> {
    // The request line: the first line that is not blank, a comment or a variable.
    let first = block.iter().position(|l| {
        let t = l.text.trim();
        !t.is_empty() && !is_comment(t) && !t.starts_with('@')
    })?;
    let request_line = &block[first];
    let mut words = request_line.text.split_whitespace();
    let word = words.next()?;
    let url_word = if METHODS.contains(&word) {
        words.next()?
    } else {
        word
    };
    let url_start = request_line.range.start + request_line.text.find(url_word)?;
    let url = url_start..url_start + url_word.len();
    let url_call = rest::url_call(text, url.clone());
    // Header lines up to the first blank line.
    let mut headers = Vec::new();
    let mut last_header = request_line.range.end;
    let mut body_start = None;
    for (i, line) in block.iter().enumerate().skip(first + 1) {
        if line.text.trim().is_empty() {
            body_start = Some(i + 1);
            break;
        }
        if is_comment(line.text) {
            continue;
        }
        if let Some((name, _)) = line.text.split_once(':') {
            headers.push(name.trim().to_string());
            last_header = line.range.end;
        }
    }
    let body_lines: Vec<&Line> = body_start
        .map(|s| block.get(s..).unwrap_or_default().iter().collect())
        .unwrap_or_default();
    let body_lines: Vec<&Line> = body_lines.into_iter().filter(|l| !is_comment(l.text)).collect();
    let body = match (
        body_lines.first(),
        body_lines.iter().rev().find(|l| !l.text.trim().is_empty()),
    ) {
        (Some(first), Some(last)) if first.text.trim_start().starts_with('{') => {
            let range = first.range.start..last.range.end;
            rest::json_body(range.clone(), vec![range], "", text, url_call.as_ref(), facts)
        }
        (Some(first), Some(_)) if first.text.trim_start().starts_with('<') => {
            Body::File(first.text.trim_start().trim_start_matches('<').trim().to_string())
        }
        (Some(_), Some(_)) => Body::Unknown("the body is not a JSON object".into()),
        _ => Body::None,
    };
    if url_call.is_none() && !rest::names_service(text, url.clone()) && !matches!(body, Body::Json(_)) {
        return None;
    }
    let model_value = url_call.as_ref().and_then(|u| model_value(u, text));
    Some(HttpRequest {
        range: request_line.range.start..block.last().map_or(request_line.range.end, |l| l.range.end),
        url: Some(url),
        headers,
        header_insert: Some((last_header, format!("{newline}{{name}}: {{value}}"))),
        body,
        model_value,
        url_edits: Vec::new(),
    })
}

/// The URL's model as a JSON value: an id, or a `{{variable}}` the client substitutes.
fn model_value(url: &UrlCall, text: &str) -> Option<String> {
    let model = text.get(url.predecessor.as_ref()?.model.clone())?;
    let variable = model.starts_with("{{") && model.ends_with("}}") && !model.contains('"');
    (rest::is_literal_id(model) || variable).then(|| format!("\"{model}\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migration_facts::CallKind;

    #[test]
    fn requests_headers_and_bodies() {
        let text = "@host = https://h\n### one\nPOST {{host}}/v1beta/models/{{model}}:generateContent?key={{k}} HTTP/1.1\nContent-Type: application/json\n\n{\"contents\": [{\"parts\": [{\"text\": \"{{q}}\"}]}]}\n\n###\nGET https://h/v1beta/models\n";
        let facts = facts(text);
        assert_eq!(facts.http.len(), 1);
        let request = &facts.http[0];
        assert_eq!(request.headers, ["Content-Type"]);
        assert_eq!(request.model_value.as_deref(), Some("\"{{model}}\""));
        let (at, insert) = request.header_insert.clone().unwrap();
        assert_eq!(&text[at - 5..at], "/json");
        assert_eq!(insert, "\n{name}: {value}");
        let Body::Json(body) = &request.body else {
            panic!("{:?}", request.body)
        };
        assert_eq!(facts.calls[body.call].kind, CallKind::Rest { stream: false });
    }
}
