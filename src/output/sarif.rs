//! `sarif`: SARIF 2.1.0 as GitHub code scanning takes it: every rule with its help, relative
//! URIs under `%SRCROOT%` (absolute ones for files outside it), columns in Unicode code points (declared), fixes included.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::Located;
use crate::registry::{RuleMeta, all_rules};
use crate::source::Position;

pub fn write(out: &mut dyn Write, located: &[Located]) -> io::Result<()> {
    let rules = all_rules();
    let descriptors: Vec<Value> = rules.iter().map(|r| descriptor(r.meta())).collect();
    let results = located.iter().map(|l| {
        let index = rules.iter().position(|r| r.meta().code == l.diagnostic.rule.code);
        result(l, index)
    });
    let mut driver = json!({
        "name": "interlint",
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": descriptors,
    });
    // SARIF2005 asks for the tool's home page: the package's `repository`, once it has one
    // (an address is not made up).
    if !REPOSITORY.is_empty() {
        driver["informationUri"] = json!(REPOSITORY);
    }
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": driver
            },
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The folder interlint was run from."}}},
            "results": super::ARRAY_MARK,
        }],
    });
    super::write_streamed(out, &document, results)
}

/// `repository` of Cargo.toml (empty while the project has no public address).
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

fn descriptor(meta: &RuleMeta) -> Value {
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": what_it_does(meta.doc)},
        "help": {"text": meta.doc, "markdown": meta.doc},
        "properties": {"fix": meta.fix.as_str()},
    })
}

/// The "What it does" section of a rule's page.
fn what_it_does(doc: &str) -> String {
    let after = doc.split_once("## What it does").map_or(doc, |(_, rest)| rest);
    let section = after.split("\n## ").next().unwrap_or_default();
    section.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn region(start: Position, end: Position) -> Value {
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
    })
}

/// A relative path under `%SRCROOT%` (the folder interlint ran from); a path outside it (`../x`,
/// `/x`) as an absolute `file://` URI.
fn artifact(path: &str) -> Value {
    let outside = path.starts_with('/') || path == ".." || path.starts_with("../");
    if !outside {
        return json!({"uri": encode_uri(path), "uriBaseId": "%SRCROOT%"});
    }
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .map_or_else(|_| path.to_string(), |p| p.to_string_lossy().into_owned());
    json!({"uri": format!("file://{}", encode_uri(&absolute))})
}

/// Percent-encodes every byte of the UTF-8 path but unreserved characters and `/` (RFC 3986),
/// as SARIF requires of a URI (SARIF1002).
fn encode_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path.as_bytes() {
        match b {
            b'\\' => out.push('/'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn result(l: &Located, rule_index: Option<usize>) -> Value {
    let d = l.diagnostic;
    let mut result = json!({
        "ruleId": d.rule.code,
        "level": d.severity.as_str(),
        "message": {"text": d.message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": artifact(&l.path),
                "region": region(l.start, l.end),
            }
        }],
    });
    if let Some(index) = rule_index {
        result["ruleIndex"] = json!(index);
    }
    if let Some(fix) = &d.fix {
        let replacements: Vec<Value> = l
            .edits
            .iter()
            .map(|(start, end, content)| json!({"deletedRegion": region(*start, *end), "insertedContent": {"text": content}}))
            .collect();
        result["fixes"] = json!([{
            "description": {"text": format!("{} ({} fix)", fix.message, fix.applicability.as_str())},
            "artifactChanges": [{"artifactLocation": artifact(&l.path), "replacements": replacements}],
        }]);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(encode_uri("a b/c#.py"), "a%20b/c%23.py");
        assert_eq!(encode_uri("ü/x+y.py"), "%C3%BC/x%2By.py");
        assert_eq!(
            artifact("../x/y.py")["uri"]
                .as_str()
                .map(|u| u.starts_with("file:///")),
            Some(true)
        );
        assert!(artifact("../x/y.py").get("uriBaseId").is_none());
        assert_eq!(artifact("/x/y")["uri"], "file:///x/y");
        assert_eq!(artifact("x/y")["uriBaseId"], "%SRCROOT%");
    }
}
