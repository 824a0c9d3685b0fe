//! What a tool's handler returns and how it fails (source document sections 2.4 and 7): the
//! result object it writes with the keys it gets, the failures that escape it as exceptions,
//! and the text literals it returns when it catches one.

use std::ops::Range;

use super::{Language, Source};
use crate::lang::ir::{Key, Kind, NodeId};
use crate::tool_server_facts::Handler;

/// What the language's handlers write and how they fail.
pub struct Rules {
    /// A node that escapes the handler as an exception when no `try` is around it
    /// (`response.raise_for_status()`, `throw`).
    pub escapes: fn(&Source, NodeId) -> bool,
    /// The result object a node writes, if it writes one: a returned value
    /// (`return {...}`, `return json.dumps(page)`) or a serialised one (`JSON.stringify(page)`).
    pub result: fn(&Source, NodeId) -> Option<NodeId>,
    /// An entry's value that makes the object a page (a list, a slice, a comprehension).
    pub page_value: fn(&Source, NodeId) -> bool,
    /// A key that is neither a name nor a string (`{k: v}` in Python) hides the object's keys;
    /// else it is passed over (`{ [k]: v }`).
    pub computed_keys_hide: bool,
}

/// The nodes of a function's own body: not those of a nested function or class.
fn own_nodes(s: &Source, body: &[NodeId]) -> Vec<NodeId> {
    let mut out = Vec::new();
    for &statement in body {
        s.walk(statement, &mut |n| {
            if matches!(s.kind(n), Kind::Function(_) | Kind::Class(_)) {
                return false;
            }
            out.push(n);
            true
        });
    }
    out
}

/// The enclosing nodes of `node` up to (not including) `function`.
fn enclosing<'s>(s: &'s Source, node: NodeId, function: NodeId) -> impl Iterator<Item = NodeId> + 's {
    s.ancestors(node).take_while(move |&a| a != function)
}

/// Whether a node is in a `try` block (any part of it) of the function.
fn in_try(s: &Source, node: NodeId, function: NodeId) -> bool {
    enclosing(s, node, function).any(|a| matches!(s.kind(a), Kind::Try(_)))
}

/// Whether a node is in an `except` or `catch` clause of the function.
fn in_handler(s: &Source, node: NodeId, function: NodeId) -> bool {
    let span = s.tree.span(node);
    enclosing(s, node, function).any(|a| match s.kind(a) {
        Kind::Try(t) => t
            .handlers
            .iter()
            .any(|h| h.span.start <= span.start && span.end <= h.span.end),
        _ => false,
    })
}

/// The text of a string literal (`{...}` for each interpolation).
pub fn literal_text(s: &Source, language: &Language, id: NodeId) -> Option<String> {
    match s.kind(id) {
        Kind::Str(v) => Some(v.to_string()),
        Kind::Template(_) | Kind::Other(_) => (language.opaque_string)(s.text(id), true),
        Kind::Paren(inner) => match s.kind(*inner) {
            Kind::Str(v) => Some(v.to_string()),
            Kind::Template(_) | Kind::Other(_) => (language.opaque_string)(s.text(*inner), false),
            _ => None,
        },
        _ => None,
    }
}

/// The `text` of the first content item of a result object
/// (`{ content: [{ type: "text", text: ... }] }`).
fn result_text(s: &Source, object: NodeId) -> Option<NodeId> {
    let get = |dict: NodeId, key: &str| {
        s.entries(dict)
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    };
    let Kind::List(content) = s.kind(get(object, "content")?) else {
        return None;
    };
    let first = content
        .items
        .iter()
        .copied()
        .find(|&i| matches!(s.kind(i), Kind::Dict(_)))?;
    get(first, "text")
}

/// The handler facts of a tool's function.
pub fn handler(s: &Source, language: &Language, function: NodeId) -> Handler {
    let rules = &language.handler;
    let mut out = Handler::default();
    let Kind::Function(f) = s.kind(function) else {
        return out;
    };
    let own = own_nodes(s, &f.body);
    let paging: Vec<String> =
        crate::tool_server_facts::conventions().map_or_else(Vec::new, |c| c.result_fields.clone());
    let mut result: Option<(Range<usize>, Vec<String>)> = None;
    let mut unreadable = false;
    let mut looks_like_a_page = false;
    for &node in &own {
        if (rules.escapes)(s, node) && !in_try(s, node, function) {
            out.unhandled.push(s.range(node));
        }
        if let Kind::Return(Some(value)) = s.kind(node)
            && in_handler(s, node, function)
        {
            let shown = match s.kind(*value) {
                Kind::Dict(_) => result_text(s, *value),
                _ => Some(*value),
            };
            if let Some(shown) = shown
                && let Some(literal) = literal_text(s, language, shown)
            {
                out.error_texts.push((s.range(shown), literal));
            }
        }
        let Some(value) = (rules.result)(s, node) else {
            continue;
        };
        let (object, name) = match s.kind(value) {
            Kind::Dict(_) => (value, None),
            Kind::Name(name) => {
                let bound = own.iter().find_map(|&n| match s.kind(n) {
                    Kind::Assign(a)
                        if a.targets.last().is_some_and(|&t| s.tree.name(t) == Some(name))
                            && a.value.is_some_and(|v| matches!(s.kind(v), Kind::Dict(_))) =>
                    {
                        a.value
                    }
                    _ => None,
                });
                match bound {
                    Some(object) => (object, Some(&**name)),
                    None => continue,
                }
            }
            _ => continue,
        };
        let Kind::Dict(dict) = s.kind(object) else {
            continue;
        };
        let mut keys = Vec::new();
        for entry in &dict.items {
            let key = match &entry.key {
                Key::Name(k) | Key::Str(k) => Some(&*k.name),
                Key::Spread => {
                    unreadable = true;
                    continue;
                }
                Key::Computed(_) if rules.computed_keys_hide => {
                    unreadable = true;
                    None
                }
                Key::Computed(_) | Key::Method(_) => continue,
            };
            // A list's page holds a list (`"users": [...]`, a comprehension, a slice) or a
            // paging field; an object that holds neither is a record, not a page.
            looks_like_a_page |=
                key.is_some_and(|k| paging.iter().any(|p| p == k)) || (rules.page_value)(s, entry.value);
            keys.extend(key.map(str::to_string));
        }
        if let Some(name) = name {
            // Keys set later: `page["next_offset"] = ...`, `page.next_offset = ...`.
            for &n in &own {
                let targets: &[NodeId] = match s.kind(n) {
                    Kind::Assign(a) => &a.targets,
                    Kind::AssignExpr { target, .. } => std::slice::from_ref(target),
                    _ => continue,
                };
                for &target in targets {
                    let key = match s.kind(target) {
                        Kind::Index { object, index } if s.text(*object) == name => s.str(*index),
                        Kind::Member(m) if s.text(m.object) == name => Some(&*m.name.name),
                        _ => None,
                    };
                    keys.extend(key.map(str::to_string));
                }
            }
        }
        match &mut result {
            Some((_, all)) => all.extend(keys),
            None => result = Some((s.range(object), keys)),
        }
    }
    if !unreadable && looks_like_a_page {
        out.result = result;
    }
    out
}
