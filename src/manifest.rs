//! Benchmark manifests (section 2.3 of the source document): which JSON files are manifests, and
//! their validation against the version-1 schema of `rules/schemas/v1/` by a JSON Schema
//! validator, with every violation located at the offending value through the JSON scanner's
//! spans. Which rule reports which violation is data (`rules/manifest.toml`).

use std::ops::Range;
use std::sync::OnceLock;

use crate::lang::json::{decoded, scan::Node};
use crate::lang::{Document, Surface, Syntax};
use serde::Deserialize;
use serde_json::Value as Json;

/// The version-1 benchmark-manifest schema, as `interlint schema benchmark-manifest` prints it.
pub const BENCHMARK_MANIFEST_SCHEMA: &str =
    include_str!("../rules/schemas/v1/benchmark-manifest.schema.json");

/// How a manifest declares its schema: the end of its `$schema`.
pub const SCHEMA_PATH_SUFFIX: &str = "schemas/v1/benchmark-manifest.schema.json";

/// The word a manifest's file name or `$schema` holds; the prefilter's trigger.
pub const MANIFEST_WORD: &str = "benchmark-manifest";

const CHECKS: &str = include_str!("../rules/manifest.toml");

/// The schemas `interlint schema` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaName {
    /// The version-1 benchmark manifest.
    BenchmarkManifest,
}

impl SchemaName {
    pub fn text(self) -> &'static str {
        match self {
            SchemaName::BenchmarkManifest => BENCHMARK_MANIFEST_SCHEMA,
        }
    }
}

/// One violated constraint of a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule that reports it (`MAN004`).
    pub code: String,
    /// The offending value, or the object that lacks a field (its key, or the root's `{`).
    pub range: Range<usize>,
    pub message: String,
    /// What to write instead, when there is no doubt: replace `range` with this text.
    pub fix: Option<String>,
    pub suggestion: String,
}

#[derive(Debug, Deserialize)]
struct CheckTable {
    missing: String,
    otherwise: String,
    check: Vec<CheckEntry>,
}

#[derive(Debug, Deserialize)]
struct CheckEntry {
    code: String,
    pointer: String,
    keywords: Option<Vec<String>>,
}

impl CheckTable {
    /// The rule for a violation of `keyword` at `place`.
    fn code(&self, place: &[Segment], keyword: &str) -> &str {
        if keyword == "required" {
            return &self.missing;
        }
        self.check
            .iter()
            .find(|c| {
                pointer_matches(&c.pointer, place)
                    && c.keywords.as_ref().is_none_or(|k| k.iter().any(|k| k == keyword))
            })
            .map_or(&self.otherwise, |c| &c.code)
    }
}

fn pointer_matches(pointer: &str, place: &[Segment]) -> bool {
    let parts: Vec<&str> = pointer.split('/').skip(1).collect();
    parts.len() == place.len()
        && parts.iter().zip(place).all(|(p, s)| match s {
            _ if *p == "*" => true,
            Segment::Key(k) => p == k,
            Segment::Index(i) => p.parse::<usize>().is_ok_and(|n| n == *i),
        })
}

/// A step into a JSON value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Segment {
    Key(String),
    Index(usize),
}

fn dotted(place: &[Segment]) -> String {
    let mut out = String::new();
    for s in place {
        match s {
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

struct Compiled {
    schema: Json,
    validator: jsonschema::Validator,
    checks: CheckTable,
}

/// The schema, its validator and the check table, built once; `None` only if the embedded data
/// is broken, which the unit tests rule out.
fn compiled() -> Option<&'static Compiled> {
    static COMPILED: OnceLock<Option<Compiled>> = OnceLock::new();
    COMPILED
        .get_or_init(|| {
            let schema: Json = serde_json::from_str(BENCHMARK_MANIFEST_SCHEMA).ok()?;
            let validator = jsonschema::draft202012::new(&schema).ok()?;
            let checks: CheckTable = toml::from_str(CHECKS).ok()?;
            Some(Compiled {
                schema,
                validator,
                checks,
            })
        })
        .as_ref()
}

/// Whether a file name says the file is a manifest: `*benchmark-manifest*.json`, but not the
/// schema itself (`*.schema.json`).
pub fn is_manifest_name(file_name: &str) -> bool {
    // Asked of every file the prefilter turns away, by each MAN rule: no allocation, and most
    // names stop at the extension.
    let name = file_name.as_bytes();
    let ends_with = |suffix: &str| {
        name.len() >= suffix.len()
            && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    ends_with(".json")
        && !ends_with(".schema.json")
        && name
            .windows(MANIFEST_WORD.len())
            .any(|w| w.eq_ignore_ascii_case(MANIFEST_WORD.as_bytes()))
}

/// Whether a document is a benchmark manifest: a whole JSON file named like one, or whose
/// top-level `$schema` ends in the version-1 schema's path. A schema document (whose `$schema`
/// is a metaschema) never is.
pub fn is_manifest(doc: &Document, file_name: &str) -> bool {
    if doc.surface != Surface::Json || doc.map.is_some() {
        return false;
    }
    match declared_schema(doc) {
        Some(schema) => schema.ends_with(SCHEMA_PATH_SUFFIX),
        None => is_manifest_name(file_name),
    }
}

/// The top-level `$schema` string, read from the syntax tree so a truncated file still says it.
fn declared_schema(doc: &Document) -> Option<String> {
    let Syntax::Json(json) = &doc.syntax else {
        return None;
    };
    let root = json.root_object()?;
    // Asked by each MAN rule of every JSON file: only a key that can spell `$schema` is decoded.
    let (_, value) = root
        .members()
        .iter()
        .filter_map(|m| m.pair())
        .rev()
        .find(|(key, _)| {
            let raw = key.text(&doc.text);
            (raw.contains("schema") || raw.contains('\\'))
                && decoded(key, &doc.text).is_some_and(|k| k == "$schema")
        })?;
    decoded(value, &doc.text)
}

/// The members of a JSON object node: decoded key, key node, value node.
fn members<'t>(object: &'t Node, text: &str) -> Vec<(String, &'t Node, &'t Node)> {
    object
        .members()
        .iter()
        .filter_map(|m| {
            let (key, value) = m.pair()?;
            Some((decoded(key, text)?, key, value))
        })
        .collect()
}

/// Every violated constraint of a manifest document, in the order of the document.
pub fn violations(doc: &Document) -> Vec<Violation> {
    let Some(compiled) = compiled() else {
        return Vec::new();
    };
    let instance: Json = match serde_json::from_str(&doc.text) {
        Ok(v) => v,
        Err(e) => return vec![invalid_json(&doc.text, &e)],
    };
    let root = match &doc.syntax {
        Syntax::Json(json) => json.values.first(),
        _ => None,
    };
    let mut seen: Vec<(Vec<Segment>, String)> = Vec::new();
    let mut out = Vec::new();
    for error in compiled.validator.iter_errors(&instance) {
        let place: Vec<Segment> = error
            .instance_path()
            .iter()
            .map(|s| match s {
                jsonschema::paths::LocationSegment::Property(p) => Segment::Key(p.to_string()),
                jsonschema::paths::LocationSegment::Index(i) => Segment::Index(i),
            })
            .collect();
        let keyword = error
            .schema_path()
            .iter()
            .last()
            .map(|s| s.to_string())
            .unwrap_or_default();
        let group = match (keyword.as_str(), error.kind()) {
            ("type" | "const" | "enum", _) => "value".to_string(),
            ("minItems" | "maxItems", _) => "count".to_string(),
            (_, jsonschema::error::ValidationErrorKind::Required { property }) => {
                format!("required:{}", property.as_str().unwrap_or_default())
            }
            _ => keyword.clone(),
        };
        if seen.contains(&(place.clone(), group.clone())) {
            continue;
        }
        seen.push((place.clone(), group.clone()));
        let code = compiled.checks.code(&place, &keyword).to_string();
        let found = pointer_get(&instance, &place);
        let node = root.and_then(|r| node_at(r, &place, &doc.text));
        let whole = node.map_or(0..doc.text.len().min(1), |n| n.range.clone());
        let subschema = schema_at(&compiled.schema, &place);
        let name = dotted(&place);
        let violation = match (group.as_str(), error.kind()) {
            (_, jsonschema::error::ValidationErrorKind::Required { property }) => {
                let field = property.as_str().unwrap_or_default().to_string();
                let mut full = place.clone();
                full.push(Segment::Key(field.clone()));
                let wanted = describe_schema(schema_at(&compiled.schema, &full));
                let range = match (root, place.is_empty()) {
                    (Some(r), false) => member_key(r, &place, &doc.text).unwrap_or(whole.clone()),
                    _ => whole.start..(whole.start + 1).min(doc.text.len()),
                };
                let within = if place.is_empty() {
                    "the manifest".to_string()
                } else {
                    format!("`{name}`")
                };
                Violation {
                    code,
                    range,
                    message: format!(
                        "Required field `{}` ({wanted}) is missing from {within}",
                        dotted(&full)
                    ),
                    fix: None,
                    suggestion: format!("Add `\"{field}\"` with {wanted}"),
                }
            }
            ("value", _) => {
                let wanted = describe_schema(subschema);
                let subject = if place.is_empty() {
                    "The manifest".to_string()
                } else {
                    format!("`{name}`")
                };
                let fix = obvious_fix(subschema, found);
                Violation {
                    code,
                    range: whole,
                    message: format!("{subject} must be {wanted}; found {}", describe_value(found)),
                    suggestion: format!("Write {wanted}"),
                    fix,
                }
            }
            ("count", _) => {
                let count = found.and_then(Json::as_array).map_or(0, Vec::len);
                let bounds = describe_count(subschema);
                Violation {
                    code,
                    range: whole,
                    message: format!("`{name}` must hold {bounds}; found {count}"),
                    fix: None,
                    suggestion: format!("Give `{name}` {bounds}"),
                }
            }
            ("uniqueItems", _) => {
                let items = found
                    .and_then(Json::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let duplicate = (1..items.len()).find(|&j| items[..j].contains(&items[j]));
                let (range, what) = match duplicate {
                    Some(j) => {
                        let mut at = place.clone();
                        at.push(Segment::Index(j));
                        let range = root
                            .and_then(|r| node_at(r, &at, &doc.text))
                            .map_or(whole.clone(), |n| n.range.clone());
                        (
                            range,
                            format!("{} appears more than once", describe_value(items.get(j))),
                        )
                    }
                    None => (whole.clone(), "an item appears more than once".to_string()),
                };
                Violation {
                    code,
                    range,
                    message: format!("The items of `{name}` must be unique; {what}"),
                    fix: None,
                    suggestion: "Remove or rename the repeated item".to_string(),
                }
            }
            _ => Violation {
                code,
                range: whole,
                message: format!("`{name}`: {error}"),
                fix: None,
                suggestion: format!("See `interlint schema benchmark-manifest` for `{name}`"),
            },
        };
        out.push(violation);
    }
    out.sort_by_key(|v| (v.range.start, v.range.end));
    out
}

/// MAN001: where the text stops being JSON, with the parser's reason.
fn invalid_json(text: &str, error: &serde_json::Error) -> Violation {
    let line_start = text
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let mut at = (line_start + error.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let line = text[..at].matches('\n').count() + 1;
    let column = text[line_start.min(at)..at].chars().count() + 1;
    let reason = error.to_string();
    let reason = reason
        .rsplit_once(" at line ")
        .map_or(reason.as_str(), |(r, _)| r);
    let truncated = if error.is_eof() {
        " (the file ends early: is it truncated?)"
    } else {
        ""
    };
    Violation {
        code: "MAN001".to_string(),
        range: at..end,
        message: format!(
            "The manifest is not valid JSON: {reason} at line {line}, column {column}{truncated}"
        ),
        fix: None,
        suggestion: "Make the file one JSON object; the schema's other checks run once it parses".to_string(),
    }
}

/// The value at a place of an instance.
fn pointer_get<'v>(value: &'v Json, place: &[Segment]) -> Option<&'v Json> {
    place.iter().try_fold(value, |v, s| match s {
        Segment::Key(k) => v.get(k.as_str()),
        Segment::Index(i) => v.get(*i),
    })
}

/// The subschema that applies at a place (through `properties` and `items`).
fn schema_at<'s>(schema: &'s Json, place: &[Segment]) -> Option<&'s Json> {
    place.iter().try_fold(schema, |s, seg| match seg {
        Segment::Key(k) => s.get("properties")?.get(k.as_str()),
        Segment::Index(_) => s.get("items"),
    })
}

/// The node of the value at a place. Of repeated keys the last counts, as for the JSON parser.
fn node_at<'t>(root: &'t Node, place: &[Segment], text: &str) -> Option<&'t Node> {
    place.iter().try_fold(root, |node, s| match s {
        Segment::Key(k) if node.is_object() => members(node, text)
            .into_iter()
            .rev()
            .find(|(name, _, _)| name == k)
            .map(|m| m.2),
        Segment::Index(i) if node.is_array() => node.items().get(*i),
        _ => None,
    })
}

/// The span that names the value at a non-empty place: its member's key, or the array item.
fn member_key(root: &Node, place: &[Segment], text: &str) -> Option<Range<usize>> {
    let (last, parent) = place.split_last()?;
    let parent = node_at(root, parent, text)?;
    match last {
        Segment::Key(k) => members(parent, text)
            .into_iter()
            .rev()
            .find(|(name, _, _)| name == k)
            .map(|m| m.1.range.clone()),
        Segment::Index(i) => parent.items().get(*i).map(|n| n.range.start..n.range.start + 1),
    }
}

/// The safe fix of a value that is the schema's constant number written as a string: `"1"` → `1`.
fn obvious_fix(schema: Option<&Json>, found: Option<&Json>) -> Option<String> {
    let constant = schema?.get("const")?;
    let written = found?.as_str()?;
    let number: Json = serde_json::from_str(written).ok()?;
    (constant.is_number() && number.is_number() && number.as_f64() == constant.as_f64())
        .then(|| constant.to_string())
}

/// The constraint of a subschema, in words: `the number 1`, `one of `a`, `b``, `a string`.
fn describe_schema(schema: Option<&Json>) -> String {
    let Some(schema) = schema else {
        return "a value".to_string();
    };
    if let Some(constant) = schema.get("const") {
        return describe_value(Some(constant));
    }
    if let Some(options) = schema.get("enum").and_then(Json::as_array) {
        let list: Vec<String> = options
            .iter()
            .map(|o| match o {
                Json::String(s) => format!("`{s}`"),
                other => format!("`{other}`"),
            })
            .collect();
        return format!("one of {}", list.join(", "));
    }
    match schema.get("type").and_then(Json::as_str) {
        Some("array") => {
            let items = schema
                .get("items")
                .and_then(|i| i.get("type"))
                .and_then(Json::as_str)
                .map_or("items".to_string(), |t| format!("{t}s"));
            let unique = if schema.get("uniqueItems") == Some(&Json::Bool(true)) {
                "unique "
            } else {
                ""
            };
            match count_bounds(schema) {
                (Some(a), Some(b)) if a == b => format!("an array of exactly {a} {unique}{items}"),
                _ => format!("an array of {unique}{items}"),
            }
        }
        Some("object") => "an object".to_string(),
        Some("integer") => "an integer".to_string(),
        Some(t) => format!("a {t}"),
        None => "a value".to_string(),
    }
}

fn count_bounds(schema: &Json) -> (Option<u64>, Option<u64>) {
    (
        schema.get("minItems").and_then(Json::as_u64),
        schema.get("maxItems").and_then(Json::as_u64),
    )
}

/// The item count an array schema asks for: `exactly 6 items (minItems 6, maxItems 6)`.
fn describe_count(schema: Option<&Json>) -> String {
    match schema.map(count_bounds) {
        Some((Some(a), Some(b))) if a == b => format!("exactly {a} items (minItems {a}, maxItems {b})"),
        Some((Some(a), Some(b))) => format!("{a} to {b} items"),
        Some((Some(a), None)) => format!("at least {a} items"),
        Some((None, Some(b))) => format!("at most {b} items"),
        _ => "a valid number of items".to_string(),
    }
}

/// A found value, in words: `the string "1"`, `the number 2`, `an array of 5 items`.
fn describe_value(value: Option<&Json>) -> String {
    match value {
        None => "nothing".to_string(),
        Some(Json::Null) => "`null`".to_string(),
        Some(Json::Bool(b)) => format!("`{b}`"),
        Some(Json::Number(n)) => format!("the number {n}"),
        Some(Json::String(s)) => {
            let shown: String = s.chars().take(60).collect();
            let more = if shown.len() < s.len() { "…" } else { "" };
            format!("the string {}{more}", Json::String(shown))
        }
        Some(Json::Array(items)) => match items.len() {
            0 => "an empty array".to_string(),
            1 => "an array of 1 item".to_string(),
            n => format!("an array of {n} items"),
        },
        Some(Json::Object(_)) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Vec<(String, String, String)> {
        let doc = crate::lang::json::parse(text.to_string());
        assert!(is_manifest(&doc, "x.benchmark-manifest.json"));
        violations(&doc)
            .into_iter()
            .map(|v| (v.code, text[v.range].to_string(), v.message))
            .collect()
    }

    #[test]
    fn embedded_data_compiles() {
        assert!(compiled().is_some());
    }

    #[test]
    fn each_constraint_has_its_code() {
        let found = check(
            r#"{"schemaVersion": "1", "benchmarkVersion": 2, "status": "draft",
                "intents": ["a", "b", "a"], "heldOut": {"casesPerIntent": 25, "index": 3},
                "abstention": {}}"#,
        );
        let codes: Vec<(&str, &str)> = found.iter().map(|(c, s, _)| (c.as_str(), s.as_str())).collect();
        assert_eq!(
            codes,
            [
                ("MAN002", "{"),
                ("MAN004", "\"1\""),
                ("MAN003", "2"),
                ("MAN005", "\"draft\""),
                ("MAN006", "[\"a\", \"b\", \"a\"]"),
                ("MAN006", "\"a\""),
                ("MAN002", "\"heldOut\""),
                ("MAN007", "25"),
                ("MAN007", "3"),
            ]
        );
        assert_eq!(
            found[1].2,
            "`schemaVersion` must be the number 1; found the string \"1\""
        );
        assert_eq!(
            found[4].2,
            "`intents` must hold exactly 6 items (minItems 6, maxItems 6); found 3"
        );
    }

    #[test]
    fn names_and_declarations() {
        assert!(is_manifest_name("benchmark-manifest.json"));
        assert!(is_manifest_name("eval.Benchmark-Manifest.v1.json"));
        assert!(!is_manifest_name("benchmark-manifest.schema.json"));
        assert!(!is_manifest_name("benchmark-manifest.yaml"));
        let declared = crate::lang::json::parse(
            r#"{"$schema": "https://example.org/schemas/v1/benchmark-manifest.schema.json"}"#.to_string(),
        );
        assert!(is_manifest(&declared, "anything.json"));
        let other = crate::lang::json::parse(
            r#"{"$schema": "https://json-schema.org/draft/2020-12/schema"}"#.to_string(),
        );
        assert!(!is_manifest(&other, "my-benchmark-manifest.json"));
    }

    #[test]
    fn truncated_text_is_invalid_json() {
        let found = check("{\"schemaVersion\": 1,\n  \"intents\": [\"a\",");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "MAN001");
        assert!(found[0].2.contains("line 2"), "{}", found[0].2);
    }
}
