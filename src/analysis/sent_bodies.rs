//! Request bodies of the predecessor endpoint written in code and the calls that send them, where
//! the URL is made elsewhere (a path table in another module, a base URL from the settings):
//! `const requestPayload = { contents, generationConfig, safetySettings }` sent by
//! `fetch(chatPath, { body: JSON.stringify(requestPayload) })` or
//! `requests.post(url, json=payload)`. The body's keys (`[sent-body]` of `rules/endpoint.toml`)
//! tell the endpoint; the call is where the request moves.

use std::ops::Range;

use crate::endpoint::MATCHER;
use crate::lang::{Document, Syntax, ir};

/// A call that sends a predecessor request body.
#[derive(Clone, Debug)]
pub struct SentBody {
    /// The sending call's callee.
    pub callee: Range<usize>,
    /// The call's first argument as written (the URL, or what holds it).
    pub url: String,
    /// The body's keys that are the predecessor's, as written.
    pub keys: Vec<String>,
    /// Where the body is written.
    pub body: Range<usize>,
}

/// How far a body is followed to the call that sends it (through a name, an object holding it,
/// a serialisation).
const MAX_STEPS: usize = 8;

/// The calls of `doc` that send a request body of the predecessor endpoint written in it, in a
/// module that imports no client package (a REST client of the service), outside a notebook.
pub fn sent_bodies(doc: &Document, imports_client: bool) -> Vec<SentBody> {
    let Syntax::Lowered(tree) = &doc.syntax else {
        return Vec::new();
    };
    let table = &MATCHER.endpoint.sent_body;
    if table.contents.is_empty() {
        return Vec::new();
    }
    let facts = doc.facts();
    // A module importing a client package sends its requests through it (its objects with
    // `contents` are the client's own arguments: a cache's, a wrapper's); a notebook's cell may
    // have its URL in another cell.
    if imports_client || doc.module.is_some() || doc.cell.is_some() {
        return Vec::new();
    }
    let mut found: Vec<SentBody> = Vec::new();
    for (id, node) in tree.nodes.iter().enumerate() {
        let ir::Kind::Dict(dict) = &node.kind else {
            continue;
        };
        let keys: Vec<&str> = dict
            .items
            .iter()
            .filter_map(|e| match &e.key {
                ir::Key::Name(k) | ir::Key::Str(k) => Some(&*k.name),
                _ => None,
            })
            .collect();
        if !keys.iter().any(|k| table.contents.iter().any(|c| c == k)) {
            continue;
        }
        let predecessor: Vec<String> = keys
            .iter()
            .filter(|k| table.with.iter().any(|w| w == *k))
            .map(|k| k.to_string())
            .collect();
        if predecessor.is_empty() {
            continue;
        }
        let body = node.span.range();
        if facts
            .calls
            .iter()
            .any(|c| c.range.start <= body.start && body.end <= c.range.end)
        {
            continue;
        }
        let mut senders = Vec::new();
        collect_senders(tree, id as ir::NodeId, MAX_STEPS, false, table, &mut senders);
        // A body is an HTTP request's when one of its ways out is serialised or handed over as
        // the request's body (`JSON.stringify`, `json=`, `body:`): an application's own wrapper
        // of the client takes the object as it is.
        if !senders.iter().any(|&(_, raw)| raw) {
            continue;
        }
        for (call, _) in senders {
            let ir::Kind::Call(c) = tree.kind(call) else {
                continue;
            };
            let callee = tree.range(c.callee);
            if found.iter().any(|f| f.callee == callee) {
                continue;
            }
            let url = c
                .args
                .first()
                .and_then(|a| doc.text.get(tree.range(a.value)))
                .unwrap_or_default()
                .to_string();
            let mut keys = vec!["contents".to_string()];
            keys.extend(predecessor.iter().cloned());
            found.push(SentBody {
                callee,
                url,
                keys,
                body: body.clone(),
            });
        }
    }
    found
}

/// The calls that send `node` on, each with whether the body was serialised or handed over as a
/// request's body on the way (`raw`): an argument of a call (through a serialisation such as
/// `JSON.stringify`), an entry of an object that is sent, or a name bound to it and read in the
/// same function.
fn collect_senders(
    tree: &ir::Tree,
    node: ir::NodeId,
    steps: usize,
    raw: bool,
    table: &crate::endpoint::SentBodyWords,
    out: &mut Vec<(ir::NodeId, bool)>,
) {
    if steps == 0 {
        return;
    }
    let Some(parent) = tree.parent(node) else { return };
    match tree.kind(parent) {
        ir::Kind::Paren(_) | ir::Kind::Await(_) | ir::Kind::Cast(_) => {
            collect_senders(tree, parent, steps, raw, table, out)
        }
        ir::Kind::Call(call) => {
            let Some(arg) = call.args.iter().find(|a| a.value == node) else {
                return;
            };
            let name = match tree.kind(call.callee) {
                ir::Kind::Member(m) => &*m.name.name,
                ir::Kind::Name(n) => &**n,
                _ => "",
            };
            let keyword_body =
                matches!(&arg.kind, ir::ArgKind::Keyword(k) if table.body_keys.iter().any(|b| *b == *k.name));
            if table.serialise.iter().any(|s| s == name) {
                collect_senders(tree, parent, steps - 1, true, table, out);
            } else if !table.not_sending.iter().any(|s| s == name) {
                out.push((parent, raw || keyword_body));
            }
        }
        ir::Kind::Dict(dict) => {
            let Some(entry) = dict.items.iter().find(|e| e.value == node) else {
                return;
            };
            let body_key = matches!(&entry.key, ir::Key::Name(k) | ir::Key::Str(k)
                if table.body_keys.iter().any(|b| *b == *k.name));
            collect_senders(tree, parent, steps - 1, raw || body_key, table, out)
        }
        ir::Kind::Assign(assign) if assign.value == Some(node) => {
            let [target] = assign.targets.as_slice() else {
                return;
            };
            let Some(name) = tree.name(*target) else { return };
            let function = enclosing_function(tree, parent);
            let after = tree.range(parent).end;
            for (id, n) in tree.nodes.iter().enumerate() {
                let id = id as ir::NodeId;
                if matches!(&n.kind, ir::Kind::Name(read) if **read == *name)
                    && n.span.start as usize >= after
                    && enclosing_function(tree, id) == function
                {
                    collect_senders(tree, id, steps - 1, raw, table, out);
                }
            }
        }
        _ => {}
    }
}

/// The function around `node`, if any.
fn enclosing_function(tree: &ir::Tree, mut node: ir::NodeId) -> Option<ir::NodeId> {
    while let Some(parent) = tree.parent(node) {
        if matches!(tree.kind(parent), ir::Kind::Function(_)) {
            return Some(parent);
        }
        node = parent;
    }
    None
}
