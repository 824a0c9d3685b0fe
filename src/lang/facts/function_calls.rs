//! A response's function calls in a migration unit: `R.function_calls` (`functionCalls`) and
//! what the program reads of each call, so that the unit can read the interaction's
//! `function_call` steps instead. A call is followed from a loop over the calls (`for call in
//! R.function_calls:`), an index (`R.function_calls[0]`) and a name bound to an indexed call
//! (`call = R.function_calls[0]`); each member read of it is recorded, and anything else done
//! with a call (passed on, stored, unpacked) is a use the rewrite does not follow.

use super::Analyzer;
use crate::lang::ir::{Kind, NodeId};
use crate::migration_facts::{FunctionCallsRead, Read, ResultUse};

impl Analyzer<'_> {
    /// The read `read` of a response's function calls, at the member node `member` (in
    /// `scope`), with what is read of the calls.
    pub(super) fn function_calls_use(&self, member: NodeId, read: &Read, scope: usize) -> ResultUse {
        let mut calls = FunctionCallsRead {
            range: read.range.clone(),
            receiver: read.receiver.clone(),
            members: Vec::new(),
            other: Vec::new(),
        };
        let mut climbed = self.climb(member);
        let Some(mut parent) = self.parent(climbed) else {
            return ResultUse::FunctionCalls(calls);
        };
        // `R.function_calls or []`, `R.functionCalls ?? []`: the same list, never empty-less.
        if let Kind::Logical(operands) = self.kind(parent)
            && let [first, second] = operands.as_slice()
            && *first == climbed
            && matches!(self.kind(*second), Kind::List(l) if l.items.is_empty())
        {
            climbed = self.climb(parent);
            let Some(grand) = self.parent(climbed) else {
                return ResultUse::FunctionCalls(calls);
            };
            parent = grand;
        }
        match self.kind(parent) {
            // `R.function_calls[0]`: one call.
            Kind::Index { object, .. } if *object == climbed => {
                self.call_use(parent, scope, true, &mut calls)
            }
            // `R.function_calls.length` (the list's own member).
            Kind::Member(m) if m.object == climbed && self.lang.length_member() == Some(&*m.name.name) => {}
            Kind::Member(_) => {
                let around = self.quote(parent);
                calls.other.push(self.escape(
                    parent,
                    format!("`{around}` reads the calls in a way interlint does not rewrite"),
                ));
            }
            Kind::For(f) if f.iter == climbed && !f.keys && !f.is_async => {
                let Some(call) = self.tree.name(f.target).map(str::to_string) else {
                    calls
                        .other
                        .push(self.escape(f.target, "each function call is unpacked".into()));
                    return ResultUse::FunctionCalls(calls);
                };
                let mut other = Vec::new();
                for (load, load_scope) in self.loop_variable_reads(parent, f, &call, &mut other) {
                    self.call_use(load, load_scope, false, &mut calls);
                }
                calls.other.extend(other);
            }
            // Tested, or only shown: nothing is read of a call.
            Kind::If(i) if i.test == climbed => {}
            // `if R.function_calls and ...:`
            Kind::Logical(_)
                if self
                    .parent(self.climb(parent))
                    .is_some_and(|p| matches!(self.kind(p), Kind::If(i) if i.test == self.climb(parent))) => {
            }
            _ if self.shown(parent, climbed) => {}
            // `len(R.function_calls)`.
            Kind::Call(c) if self.lang.length_function() == Some(self.src(c.callee)) && c.args.len() == 1 => {
            }
            _ => calls.other.push(self.used_in(climbed, parent)),
        }
        ResultUse::FunctionCalls(calls)
    }

    /// What is done with `node`, one function call (a loop's variable, an indexed call, or a read
    /// of a name bound to one); `bind`: a statement binding it to a name is followed.
    fn call_use(&self, node: NodeId, scope: usize, bind: bool, calls: &mut FunctionCallsRead) {
        let climbed = self.climb(node);
        let Some(parent) = self.parent(climbed) else {
            return;
        };
        match self.kind(parent) {
            Kind::Member(m) if m.object == climbed => {
                let span = m.name.span;
                calls
                    .members
                    .push((m.name.name.to_string(), span.start as usize..span.end as usize));
            }
            Kind::Assign(a) if bind && a.value == Some(climbed) => {
                let [target] = a.targets.as_slice() else {
                    calls
                        .other
                        .push(self.escape(parent, "the function call is unpacked".into()));
                    return;
                };
                if self.tree.name(*target).is_none() {
                    let target = self.quote(*target);
                    calls
                        .other
                        .push(self.escape(parent, format!("the function call is stored in `{target}`")));
                    return;
                }
                for (load, load_scope) in self.follow_binding(*target, climbed, scope, &mut calls.other) {
                    self.call_use(load, load_scope, false, calls);
                }
            }
            _ if self.shown(parent, climbed) => {}
            _ => calls.other.push(self.used_in(climbed, parent)),
        }
    }
}
