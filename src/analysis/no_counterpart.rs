//! What a module depends on that the interactions API has no counterpart for
//! (`rules/no_counterpart.toml`): a read of a predecessor response (`finish_reason`,
//! `promptFeedback`) or a setting of a predecessor request (`safety_settings`, `candidate_count`
//! above one), anywhere in the module, in the shared form. A migration unit left alone is
//! reported with these first: they are what the team must decide, before any limit of the
//! analysis.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::lang::{Document, Syntax, ir};

const TABLE: &str = include_str!("../../rules/no_counterpart.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    item: Vec<Item>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Item {
    names: Vec<String>,
    what: String,
    #[serde(default)]
    read: bool,
    #[serde(default)]
    default: Option<i64>,
    #[serde(default)]
    off: Option<String>,
}

fn table() -> Option<&'static Table> {
    static PARSED: OnceLock<Option<Table>> = OnceLock::new();
    PARSED.get_or_init(|| toml::from_str(TABLE).ok()).as_ref()
}

/// One dependency of the module on something the interactions API lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The name as written (`finishReason`).
    pub name: String,
    /// What the application depends on (`why the answer ended`).
    pub what: &'static str,
    /// Read of a response (else set on a request).
    pub read: bool,
    /// Where the name is written.
    pub at: usize,
    /// `line 12` (`cell 3, line 2` in a notebook's cell).
    pub place: String,
}

impl Missing {
    /// ``reads `finish_reason`, why the answer ended (line 460)``.
    pub fn describe(&self) -> String {
        let verb = if self.read { "reads" } else { "sets" };
        format!("{verb} `{}`, {} ({})", self.name, self.what, self.place)
    }
}

/// The module's dependencies on what the interactions API lacks, in the order of the text.
pub fn missing(doc: &Document) -> Vec<Missing> {
    let Some(table) = table() else {
        return Vec::new();
    };
    let Syntax::Lowered(tree) = &doc.syntax else {
        return in_strings(doc, table);
    };
    let find = |name: &str| table.item.iter().find(|i| i.names.iter().any(|n| n == name));
    let mut found = Vec::new();
    let mut push = |name: &str, at: usize, value: Option<ir::NodeId>| {
        let Some(item) = find(name) else { return };
        if let Some(value) = value {
            match tree.kind(tree.unwrap(value)) {
                ir::Kind::Null => return,
                ir::Kind::Int(Some(n)) if Some(*n) == item.default => return,
                _ if item
                    .off
                    .as_deref()
                    .is_some_and(|off| turned_off(tree, value, off)) =>
                {
                    return;
                }
                _ => {}
            }
        }
        found.push(Missing {
            name: name.to_string(),
            what: item.what.as_str(),
            read: item.read,
            at,
            place: doc.place_of(at),
        });
    };
    for node in &tree.nodes {
        match &node.kind {
            ir::Kind::Member(member) => push(&member.name.name, member.name.span.start as usize, None),
            ir::Kind::Index { index, .. } => {
                if let ir::Kind::Str(key) = tree.kind(*index) {
                    push(key, tree.range(*index).start, None);
                }
            }
            ir::Kind::Dict(dict) => {
                for entry in &dict.items {
                    if let ir::Key::Name(key) | ir::Key::Str(key) = &entry.key {
                        push(&key.name, key.span.start as usize, Some(entry.value));
                    }
                }
            }
            ir::Kind::Call(call) => {
                for arg in &call.args {
                    if let ir::ArgKind::Keyword(key) = &arg.kind {
                        push(&key.name, key.span.start as usize, Some(arg.value));
                    }
                }
                // `getattr(x, "finish_reason", None)`, `hasattr(x, "prompt_feedback")`,
                // `data.get("promptFeedback")`.
                let key_at = match tree.kind(call.callee) {
                    ir::Kind::Name(callee) if matches!(&**callee, "getattr" | "hasattr") => 1,
                    ir::Kind::Member(member) if &*member.name.name == "get" => 0,
                    _ => usize::MAX,
                };
                if let Some(arg) = call.args.get(key_at)
                    && let ir::Kind::Str(key) = tree.kind(arg.value)
                {
                    push(key, tree.range(arg.value).start, None);
                }
            }
            _ => {}
        }
    }
    found.sort_by_key(|m| m.at);
    found.dedup_by_key(|m| m.at);
    found
}

/// A document not lowered into the shared form (Rust): the names written as whole string
/// literals of its scan regions (`v["finishReason"]`, `json!({"safetySettings": ...})`), as
/// reads of a response.
fn in_strings(doc: &Document, table: &'static Table) -> Vec<Missing> {
    let mut found = Vec::new();
    for region in &doc.scan_regions {
        let Some(literal) = doc.text.get(region.clone()) else {
            continue;
        };
        let value = literal.trim_matches(|c| c == '"' || c == '\'' || c == '`');
        if let Some(item) = table.item.iter().find(|i| i.names.iter().any(|n| n == value)) {
            found.push(Missing {
                name: value.to_string(),
                what: item.what.as_str(),
                read: item.read,
                at: region.start,
                place: doc.place_of(region.start),
            });
        }
    }
    found
}

/// Whether `value` is an object (a call with keywords, a dict) whose `off` is `True`.
fn turned_off(tree: &ir::Tree, value: ir::NodeId, off: &str) -> bool {
    let is_true = |id: ir::NodeId| matches!(tree.kind(tree.unwrap(id)), ir::Kind::Bool(true));
    match tree.kind(tree.unwrap(value)) {
        ir::Kind::Call(call) => call.keyword(off).is_some_and(is_true),
        ir::Kind::Dict(dict) => dict.items.iter().any(|e| {
            matches!(&e.key, ir::Key::Name(k) | ir::Key::Str(k) if &*k.name == off) && is_true(e.value)
        }),
        _ => false,
    }
}

/// The dependencies that block a unit at `at`, nearest first, one per kind, at most `limit`.
pub fn nearest(missing: &[Missing], at: usize, limit: usize) -> Vec<&Missing> {
    let mut by_distance: Vec<&Missing> = missing.iter().collect();
    by_distance.sort_by_key(|m| m.at.abs_diff(at));
    let mut chosen: Vec<&Missing> = Vec::new();
    for m in by_distance {
        if chosen.len() < limit && !chosen.iter().any(|c| c.what == m.what) {
            chosen.push(m);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses() {
        let table = table().expect("rules/no_counterpart.toml parses");
        assert!(
            table
                .item
                .iter()
                .any(|i| i.names.iter().any(|n| n == "finishReason"))
        );
    }
}
