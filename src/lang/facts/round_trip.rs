//! Function-calling round trips: a request whose contents send back the turn another request's
//! result holds (`[user turn, R.candidates[0].content, function responses]`) continues that
//! request's interaction. The two are one migration unit: the turn read is the round trip's, not
//! a read the first request's rewrite must make, and neither is rewritten without the other.

use std::ops::Range;

use super::Analyzer;
use crate::migration_facts::{Call, CallKind, Continues, ReadKind, ResultUse, ValueKind};

/// The typed wrapper of a function response built by the current client's factory.
pub(crate) const FUNCTION_RESPONSE_FACTORY: &str = "Part.from_function_response";

/// Links each request whose contents send another request's turn back to that request
/// ([`ResultUses::continues`](crate::migration_facts::ResultUses::continues), the read becoming
/// [`ResultUse::Continued`]), and lists each in the other's `together`. Requests already joined
/// with others (their results reach one function) are left as they are.
pub(super) fn join_round_trips(a: &Analyzer<'_>, calls: &mut [Call]) {
    let mut links: Vec<(usize, usize, Continues)> = Vec::new();
    for (j, call) in calls.iter().enumerate() {
        if !matches!(call.kind, CallKind::Create | CallKind::CreateStream) || call.result.is_none() {
            continue;
        }
        let Some(contents) = call.arg("contents") else {
            continue;
        };
        let items = match &contents.value.kind {
            ValueKind::List(items) => items,
            ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
                Some(ValueKind::List(items)) => items,
                _ => continue,
            },
            _ => continue,
        };
        for item in items {
            let Some((i, receiver)) = calls.iter().enumerate().find_map(|(i, previous)| {
                let result = previous
                    .result
                    .as_ref()
                    .filter(|_| i != j && previous.kind == CallKind::Create)?;
                result.uses.iter().find_map(|u| match u {
                    ResultUse::Read(read)
                        if read.range == item.range
                            && read.kind == (ReadKind::Candidates { simple_text: false })
                            && a.text
                                .get(read.range.clone())
                                .is_some_and(|t| t.ends_with(".content")) =>
                    {
                        Some((
                            i,
                            a.text.get(read.receiver.clone()).unwrap_or_default().to_string(),
                        ))
                    }
                    _ => None,
                })
            }) else {
                continue;
            };
            let previous = &calls[i];
            let rebound =
                rebound_between(a, &receiver, item.range.end, call.range.start, call).or_else(|| {
                    // The previous request's contents, when a name: the user's turn sent back
                    // names the same value.
                    let name = match previous.arg("contents").map(|c| &c.value.kind) {
                        Some(ValueKind::Name(name)) => Some(name.name.clone()),
                        Some(ValueKind::List(one)) => match one.as_slice() {
                            [only] => match &only.kind {
                                ValueKind::Name(name) => Some(name.name.clone()),
                                _ => None,
                            },
                            _ => None,
                        },
                        _ => None,
                    }?;
                    rebound_between(a, &name, previous.range.start, item.range.start, previous)
                });
            links.push((
                j,
                i,
                Continues {
                    previous: previous.range.clone(),
                    turn: item.range.clone(),
                    receiver,
                    rebound,
                },
            ));
            break;
        }
    }
    for (j, i, continues) in links {
        let joined_elsewhere = |k: usize| calls[k].result.as_ref().is_some_and(|r| !r.together.is_empty());
        if joined_elsewhere(i) || joined_elsewhere(j) {
            continue;
        }
        let (request, previous) = (calls[j].range.clone(), calls[i].range.clone());
        if let Some(result) = calls[i].result.as_mut() {
            for use_ in &mut result.uses {
                if let ResultUse::Read(read) = use_
                    && read.range == continues.turn
                {
                    *use_ = ResultUse::Continued {
                        range: read.range.clone(),
                        request: request.clone(),
                    };
                }
            }
            result.together.push(request);
        }
        if let Some(result) = calls[j].result.as_mut() {
            result.together.push(previous);
            result.continues = Some(Box::new(continues));
        }
    }
}

/// The function responses built by the current client's factory, each with its keyword
/// arguments ([`Facts::function_responses`](crate::migration_facts::Facts::function_responses)).
pub(super) fn function_responses(a: &Analyzer<'_>) -> Vec<(Range<usize>, crate::migration_facts::MapValue)> {
    a.scopes
        .calls
        .iter()
        .filter_map(|&(node, scope)| {
            let name = a
                .wrapper_name(node, scope)
                .filter(|n| n == FUNCTION_RESPONSE_FACTORY)?;
            Some((a.range(node), a.keyword_map(node, scope, 0, Some(name))?))
        })
        .collect()
}

/// Where `name`, as `within` (a call) sees it, is bound again after `from` and before `to`.
/// When the call's scope is not known, nothing says the name is not bound again: where it is
/// read is given.
fn rebound_between(
    a: &Analyzer<'_>,
    name: &str,
    from: usize,
    to: usize,
    within: &Call,
) -> Option<(String, usize)> {
    let range = &within.range;
    let Some(scope) = a.call_scope_where(range.start, |n| a.range(n) == *range) else {
        return Some((name.to_string(), from));
    };
    a.scopes
        .names
        .all_bindings(name, scope)
        .iter()
        .find(|b| from < b.start && b.start < to)
        .map(|b| (name.to_string(), b.start))
}
