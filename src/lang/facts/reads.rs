//! Reads of a result the old way: `response.text`, `response.candidates[0].content.parts`,
//! `response.usage_metadata`, ...

use std::ops::Range;

use super::classify::response_origin;
use super::{Analyzer, Class};
use crate::lang::ir::{Kind, NodeId};
use crate::migration_facts::{Origin, Read, ReadKind};

impl Analyzer<'_> {
    pub(super) fn read(&self, node: NodeId, scope: usize) -> Option<Read> {
        self.read_of(node, scope, false)
    }

    /// [`Self::read`], with the member's object taken as a response when `response` (a
    /// migration unit follows its result where classification does not: through a function's
    /// return).
    pub(super) fn read_of(&self, node: NodeId, scope: usize, response: bool) -> Option<Read> {
        let Kind::Member(m) = self.kind(node) else {
            return None;
        };
        let classify = |object: NodeId| {
            if response && object == m.object {
                Class::Response
            } else {
                self.classify(object, scope, 0)
            }
        };
        let w = self.words;
        let (object, name) = (m.object, &*m.name.name);
        let parent = self.parent(node);
        // `x.text = ...` writes.
        if let Some(p) = parent {
            let written = match self.kind(p) {
                Kind::Assign(a) => a.targets.contains(&node),
                Kind::AugAssign { target, .. } | Kind::AssignExpr { target, .. } => *target == node,
                _ => false,
            };
            if written {
                return None;
            }
        }
        let call = parent.filter(|&p| matches!(self.kind(p), Kind::Call(c) if !c.new && c.callee == node));
        // `x.text()` is some other API's method where even the legacy package's responses read
        // as the current client's (Python).
        if call.is_some() && self.legacy.responses_read_as_current() {
            return None;
        }
        // `response?.text` is read through `response?`.
        let receiver = self.receiver(node);
        let read = |kind, range: Range<usize>, receiver: Range<usize>, origin, all_interactions| Read {
            kind,
            range,
            receiver,
            origin,
            all_interactions,
            detached: false,
        };
        if name == "text" || name == w.function_calls {
            let kind = if name == "text" {
                ReadKind::Text
            } else {
                ReadKind::FunctionCalls
            };
            let class = classify(object);
            let (origin, range, receiver) = match (&class, call) {
                // The current client's getters.
                (Class::Response, None) => (Origin::Response, self.range(node), receiver),
                (Class::StreamChunk, None) => (Origin::StreamChunk, self.range(node), receiver),
                (Class::Interaction, None) => (Origin::Interaction, self.range(node), receiver),
                // The legacy client's methods; `result.response.text()` reads `result`.
                (Class::LegacyResponse, Some(call)) => {
                    let result = self.tree.unwrap(object);
                    let receiver = match self.kind(result) {
                        Kind::Member(r) => self.range(r.object),
                        _ => self.range(object),
                    };
                    (Origin::Response, self.range(call), receiver)
                }
                (Class::LegacyChunk, Some(call)) => {
                    (Origin::StreamChunk, self.range(call), self.range(object))
                }
                _ => return None,
            };
            let all = origin == Origin::Interaction && self.all_interactions(object, scope);
            return Some(read(kind, range, receiver, origin, all));
        }
        if call.is_some() && name != "candidates" {
            return None;
        }
        if name == w.function_call {
            // `...parts[0].functionCall` is the candidates chain's read.
            if matches!(self.kind(self.tree.unwrap(object)), Kind::Index { .. })
                || classify(object) != Class::Part
            {
                return None;
            }
            return Some(read(
                ReadKind::PartFunctionCall,
                self.range(node),
                self.range(object),
                Origin::Part,
                false,
            ));
        }
        if name == w.usage || w.parsed == Some(name) {
            let origin = response_origin(&classify(object))?;
            if !matches!(origin, Origin::Response | Origin::Interaction) {
                return None;
            }
            let kind = if name == "parsed" {
                let as_object = parent.is_some_and(|p| match self.kind(p) {
                    Kind::Member(pm) => pm.object == node,
                    Kind::Index { object, .. } => *object == node,
                    _ => false,
                });
                ReadKind::Parsed { as_object }
            } else {
                let member = parent.and_then(|p| match self.kind(p) {
                    Kind::Member(pm) if pm.object == node => {
                        Some((pm.name.span.start as usize, pm.name.span.end as usize))
                    }
                    _ => None,
                });
                ReadKind::Usage { member }
            };
            let all = origin == Origin::Interaction && self.all_interactions(object, scope);
            return Some(read(kind, self.range(node), receiver, origin, all));
        }
        // `R.data`: the first candidate's inline data, in base64.
        if w.inline_data == Some(name) {
            let origin = response_origin(&classify(object))?;
            if origin != Origin::Response {
                return None;
            }
            let kind = ReadKind::InlineData { data: true };
            return Some(read(kind, self.range(node), receiver, origin, false));
        }
        if name == w.executable_code || name == w.code_execution_result {
            let origin = response_origin(&classify(object))?;
            if origin != Origin::Response {
                return None;
            }
            let kind = ReadKind::Code {
                result: name == w.code_execution_result,
            };
            return Some(read(kind, self.range(node), receiver, origin, false));
        }
        if name == w.grounding {
            // `R.candidates[i].grounding_metadata` is the candidates chain's read.
            let chain = match self.kind(self.tree.unwrap(object)) {
                Kind::Index { object: inner, .. } => {
                    matches!(self.kind(self.tree.unwrap(*inner)), Kind::Member(c) if &*c.name.name == "candidates")
                }
                _ => false,
            };
            let origin = match classify(object) {
                _ if chain => return None,
                Class::Candidate(origin) => origin,
                class => response_origin(&class)?,
            };
            return Some(read(
                ReadKind::Grounding { shown: false },
                self.range(node),
                receiver,
                origin,
                false,
            ));
        }
        if name == "candidates" {
            let origin = response_origin(&classify(object))?;
            let (kind, range) = self.candidates_chain(node)?;
            let all = origin == Origin::Interaction && self.all_interactions(object, scope);
            return Some(read(kind, range, receiver, origin, all));
        }
        None
    }

    /// The receiver of a member read: its object, with the `?` of `object?.name`.
    fn receiver(&self, node: NodeId) -> Range<usize> {
        let Kind::Member(m) = self.kind(node) else {
            return self.range(node);
        };
        let object = self.range(m.object);
        if !m.optional {
            return object;
        }
        let between = self
            .text
            .get(object.end..m.name.span.start as usize)
            .unwrap_or_default();
        match between.find('?') {
            Some(q) => object.start..object.end + q + 1,
            None => object,
        }
    }

    /// From `R.candidates`, the read the whole chain makes: `R.candidates[0].content.parts...`.
    fn candidates_chain(&self, candidates: NodeId) -> Option<(ReadKind, Range<usize>)> {
        let (chain, top) = self.chain_after(candidates);
        // `?.` and `!` change nothing read: `output_text` is the answer or nothing, as the chain was.
        let kind = match self.is_test(top) {
            true => ReadKind::of_tested_candidates_chain(&chain)?,
            false => ReadKind::of_candidates_chain(&chain)?,
        };
        let kind = match kind {
            ReadKind::Grounding { .. } => ReadKind::Grounding {
                shown: self.parent(top).is_some_and(|p| self.shown(p, top)),
            },
            kind => kind,
        };
        Some((kind, self.start(candidates)..self.end(top)))
    }

    /// The steps read after `candidates` (`[0].content.parts`), up to a method call, and the
    /// node of the last.
    fn chain_after(&self, candidates: NodeId) -> (String, NodeId) {
        let mut top = candidates;
        let mut steps: Vec<String> = Vec::new();
        while let Some(parent) = self.parent(top) {
            let step = match self.kind(parent) {
                // `candidates![0]`: the assertion changes nothing read.
                Kind::Cast(_) if self.src(parent).ends_with('!') => String::new(),
                Kind::Index { object, index } if *object == top => format!("[{}]", self.src(*index)),
                Kind::Member(m) if m.object == top => {
                    // A method call ends the chain before the method.
                    if self
                        .parent(parent)
                        .is_some_and(|p| matches!(self.kind(p), Kind::Call(c) if c.callee == parent))
                    {
                        break;
                    }
                    format!(".{}", m.name.name)
                }
                _ => break,
            };
            steps.push(step);
            top = parent;
        }
        (steps.concat(), top)
    }

    /// Every binding the receiver can come from is an interactions result.
    fn all_interactions(&self, receiver: NodeId, scope: usize) -> bool {
        let receiver = self.look_through(receiver);
        let Some(name) = self.tree.name(receiver) else {
            return self.classify(receiver, scope, 0) == Class::Interaction;
        };
        let bindings = self.scopes.names.all_bindings(name, scope);
        if bindings.is_empty() {
            // Bound by an earlier notebook cell, as the cells run in order.
            return matches!(
                self.scopes.names.resolve(name, scope, self.start(receiver)),
                super::scope::Resolution::Unbound
            ) && self.env.get(name) == Some(&Class::Interaction);
        }
        bindings.iter().all(|b| match b.kind {
            super::scope::BindingKind::Assign { value, .. } => {
                self.classify(value, b.scope, 1) == Class::Interaction
            }
            // `let r;` then assigned.
            super::scope::BindingKind::Declared => true,
            _ => false,
        }) && bindings
            .iter()
            .any(|b| matches!(b.kind, super::scope::BindingKind::Assign { .. }))
    }
}
