//! Reads of API keys from the environment, and what stops the process when the key is missing:
//! an `if` on the read (or on a name it is bound or copied to) whose body raises, throws or
//! exits, anywhere in the file; or an exit in the read's own assignment
//! (`key = os.getenv(...) or sys.exit(...)`).

use super::{Language, Source};
use crate::lang::ir::{Call, Kind, NodeId};
use crate::tool_server_facts::{KeyCheck, KeyRead, mentions};

/// A read through a call: `os.getenv("X_API_KEY")`.
pub fn call_read(
    s: &Source,
    language: &Language,
    node: NodeId,
    call: &Call,
    suffix: &str,
) -> Option<KeyRead> {
    if !language.env_calls.contains(&s.callee(call)) {
        return None;
    }
    let first = *s.positional(call).first()?;
    let variable = s.str(first)?;
    if !variable.ends_with(suffix) {
        return None;
    }
    Some(KeyRead {
        range: s.range(node),
        variable: variable.to_string(),
        check: key_check(s, language, node, variable),
    })
}

/// A read of an item or member of the environment: `os.environ["X_API_KEY"]`,
/// `process.env.X_API_KEY`; not a write or a `delete`.
pub fn item_read(s: &Source, language: &Language, node: NodeId, suffix: &str) -> Option<KeyRead> {
    let (object, variable, item) = match s.kind(node) {
        Kind::Index { object, index } => (*object, s.str(*index)?, true),
        Kind::Member(m) if language.env_members => (m.object, &*m.name.name, false),
        _ => return None,
    };
    if !language.env_objects.contains(&s.text(object)) || !variable.ends_with(suffix) {
        return None;
    }
    let written = s.tree.parent(node).is_some_and(|p| match s.kind(p) {
        Kind::Assign(a) => a.targets.contains(&node),
        Kind::AssignExpr { target, .. } | Kind::AugAssign { target, .. } => *target == node,
        Kind::Other(_) => s.text(p).starts_with("del"),
        _ => false,
    });
    if written {
        return None;
    }
    // A KeyError at import names the variable and stops the process with status 1.
    let at_import = item
        && language.env_item_raises
        && !s.ancestors(node).any(|a| matches!(s.kind(a), Kind::Function(_)));
    let check = match at_import {
        true => KeyCheck::FailsFast,
        false => key_check(s, language, node, variable),
    };
    Some(KeyRead {
        range: s.range(node),
        variable: variable.to_string(),
        check,
    })
}

/// How a node stops the process: `Some(Ok(()))` with status 1 (a raise or throw, an exit with 1
/// or a message), `Some(Err(status))` with another status, `None` when it does not.
fn exit(s: &Source, language: &Language, node: NodeId) -> Option<Result<(), String>> {
    match s.kind(node) {
        Kind::Raise { .. } => Some(Ok(())),
        Kind::Call(call) if language.exit_calls.contains(&s.callee(call)) => {
            Some(match s.positional(call).first() {
                None => Err("0".to_string()),
                Some(&a) if matches!(s.kind(a), Kind::Int(_) | Kind::Number) && s.text(a) != "1" => {
                    Err(s.text(a).to_string())
                }
                Some(_) => Ok(()),
            })
        }
        _ => None,
    }
}

/// What the statements `body` do to stop the process when the credential `variable` is missing.
fn exit_in(s: &Source, language: &Language, body: &[NodeId], variable: &str) -> KeyCheck {
    let (Some(&first), Some(&last)) = (body.first(), body.last()) else {
        return KeyCheck::None;
    };
    let named = s
        .text
        .get(s.range(first).start..s.range(last).end)
        .is_some_and(|t| t.contains(variable));
    let mut found = KeyCheck::None;
    for &node in body {
        s.walk(node, &mut |n| match exit(s, language, n) {
            Some(Ok(())) => {
                let check = match named {
                    true => KeyCheck::FailsFast,
                    false => KeyCheck::Unnamed,
                };
                found = found.clone().better(check);
                false
            }
            Some(Err(status)) => {
                found = found.clone().better(KeyCheck::Status(status));
                false
            }
            None => true,
        });
    }
    found
}

/// What stops the process when the variable read at `read` is missing.
fn key_check(s: &Source, language: &Language, read: NodeId, variable: &str) -> KeyCheck {
    // The name the read is bound to, and the value bound, in the read's own statement.
    let mut binding = None;
    for p in s.ancestors(read) {
        match s.kind(p) {
            Kind::Assign(a) => {
                binding = a.targets.last().copied().zip(a.value);
                break;
            }
            Kind::AssignExpr { target, value } => {
                binding = Some((*target, *value));
                break;
            }
            Kind::Function(f) if !f.expression => break,
            Kind::Module(_) | Kind::Block(_) | Kind::If(_) | Kind::Try(_) => break,
            _ => {}
        }
    }
    let bound = binding
        .map(|(target, _)| target)
        .filter(|&t| matches!(s.kind(t), Kind::Name(_) | Kind::Member(_)))
        .map(|t| s.text(t));
    // `key = os.getenv(...) or sys.exit(...)` stops the process in the read's own statement.
    let inline = binding.map_or(KeyCheck::None, |(_, value)| {
        exit_in(s, language, &[value], variable)
    });
    // Names the value is copied to: `resolved = KEY`, `const key = KEY ?? other`.
    let mut names: Vec<&str> = bound.into_iter().collect();
    if let Some(first) = bound {
        for id in 0..s.tree.nodes.len() as NodeId {
            let (target, value) = match s.kind(id) {
                Kind::Assign(a) => match (a.targets.as_slice(), a.value) {
                    ([target], Some(value)) => (*target, value),
                    _ => continue,
                },
                Kind::AssignExpr { target, value } => (*target, *value),
                _ => continue,
            };
            if matches!(s.kind(target), Kind::Name(_)) && mentions(s.text(value), first) {
                names.push(s.text(target));
            }
        }
    }
    let read_text = s.text(read);
    let on_key = |condition: &str| {
        condition.contains(read_text)
            || condition.contains(variable)
            || names.iter().any(|b| mentions(condition, b))
    };
    // The best outcome of every `if` on the key (an `elif` is not one: its test is the
    // clause's own).
    let mut best = inline;
    for node in &s.tree.nodes {
        if let Kind::If(i) = &node.kind
            && !s
                .text
                .get(node.span.range())
                .is_some_and(|t| t.starts_with("elif"))
            && on_key(s.text(i.test))
        {
            best = best.better(exit_in(s, language, &i.body, variable));
        }
    }
    best
}
