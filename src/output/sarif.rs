//! `sarif`: SARIF 2.1.0 as GitHub code scanning takes it: every rule with its help, relative
//! URIs under `%SRCROOT%` (absolute ones for files outside it), columns in Unicode code points (declared), fixes included.
//! The run's messages (a file skipped or that could not be read) are its invocation's tool
//! execution notifications, and an error among them makes the execution unsuccessful (exit
//! status 2).

use std::io::{self, Write};

use serde_json::{Value, json};

use super::{Level, Located, Message};
use crate::registry::{RuleMeta, all_rules};
use crate::source::Position;

pub fn write(out: &mut dyn Write, located: &[Located], messages: &[Message]) -> io::Result<()> {
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
            "invocations": [invocation(messages)],
            "results": super::ARRAY_MARK,
        }],
    });
    super::write_streamed(out, &document, results)
}

/// The run's invocation: successful unless a message is an error (the run exits with status 2:
/// a file that cannot be read, a path that cannot be walked, a named file not checked), with
/// the messages as notifications.
fn invocation(messages: &[Message]) -> Value {
    let successful = !messages.iter().any(|m| m.level == Level::Error);
    let mut invocation = json!({"executionSuccessful": successful});
    let notifications: Vec<Value> = messages.iter().filter_map(notification).collect();
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = json!(notifications);
    }
    invocation
}

fn notification(m: &Message) -> Option<Value> {
    let level = match m.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => return None,
    };
    let mut notification = json!({"level": level, "message": {"text": m.text}});
    if let Some(path) = &m.path {
        notification["locations"] = json!([{"physicalLocation": {"artifactLocation": artifact(path)}}]);
    }
    Some(notification)
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
    fn messages_are_notifications_of_the_invocation() {
        let message = |level, path: Option<&str>| Message {
            level,
            path: path.map(str::to_string),
            text: "skipped: not valid UTF-8".into(),
        };
        let clean = invocation(&[message(Level::Note, Some("blob.bin"))]);
        assert_eq!(clean, json!({"executionSuccessful": true}));
        let warned = invocation(&[message(Level::Warning, Some("a b.txt"))]);
        assert_eq!(warned["executionSuccessful"], true);
        assert_eq!(
            warned["toolExecutionNotifications"],
            json!([{
                "level": "warning",
                "message": {"text": "skipped: not valid UTF-8"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a%20b.txt", "uriBaseId": "%SRCROOT%"}}}],
            }])
        );
        let failed = invocation(&[message(Level::Warning, Some("a")), message(Level::Error, None)]);
        assert_eq!(failed["executionSuccessful"], false);
        assert!(failed["toolExecutionNotifications"][1].get("locations").is_none());
    }

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
