//! Where values go: into a request, into a wrapper, or elsewhere.

use super::scope::{BindingKind, Resolution, exported};
use super::{Analyzer, Class, MAX_DEPTH};
use crate::lang::ir::{ArgKind, Key, Kind, NodeId, ParamKind};
use crate::migration_facts::Flow;

impl Analyzer<'_> {
    /// Where the value of the expression `node` goes: up through the lists, dicts and
    /// parentheses around it to the call taking it, or through the name it is bound to.
    pub(super) fn flow(&self, node: NodeId, scope: usize, depth: usize) -> Flow {
        if depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        let mut current = node;
        while let Some(parent) = self.parent(current) {
            match self.kind(parent) {
                Kind::List(_) | Kind::Paren(_) | Kind::Conditional { .. } => {}
                Kind::Spread { double: false, .. } => {}
                Kind::Dict(d) => {
                    // As an entry's value; a Python `**spread` goes elsewhere.
                    let entry = d.items.iter().find(|e| e.value == current);
                    match entry {
                        Some(e) if e.key != Key::Spread || self.lang.spread_entries_flow() => {}
                        _ => return Flow::Elsewhere,
                    }
                }
                Kind::Call(c) => {
                    let argument = c.args.iter().find(|a| a.value == current);
                    return match argument {
                        Some(a) if a.kind != ArgKind::KeywordSpread => {
                            self.argument_flow(parent, current, scope, depth)
                        }
                        _ => Flow::Elsewhere,
                    };
                }
                Kind::Assign(a) if a.value == Some(current) => {
                    let Some(&target) = a.targets.last() else {
                        return Flow::Elsewhere;
                    };
                    if !self.lang.follows_assignment(self, parent) {
                        return Flow::Elsewhere;
                    }
                    // A declaration's target is never a member.
                    return match self.kind(target) {
                        Kind::Name(_) => self.name_flow(target, scope, depth),
                        Kind::Member(_) => self.field_flow(target, scope),
                        _ => Flow::Elsewhere,
                    };
                }
                kind if self.lang.carries(kind, current) => {}
                _ => return Flow::Elsewhere,
            }
            current = parent;
        }
        Flow::Elsewhere
    }

    /// Where a value set as a field goes (`config.tool_config = ...`): into the wrapper the
    /// object's name is bound to, or elsewhere.
    fn field_flow(&self, target: NodeId, scope: usize) -> Flow {
        let Kind::Member(m) = self.kind(target) else {
            return Flow::Elsewhere;
        };
        let Some(object) = self.tree.name(m.object) else {
            return Flow::Elsewhere;
        };
        match self.scopes.names.resolve(object, scope, self.start(m.object)) {
            Resolution::Bound(binding, _) => match binding.kind {
                BindingKind::Assign { value, .. }
                    if matches!(self.kind(value), Kind::Call(_))
                        && self.wrapper_name(value, binding.scope).is_some() =>
                {
                    Flow::Inside(vec![self.range(value)])
                }
                _ => Flow::Elsewhere,
            },
            _ => Flow::Elsewhere,
        }
    }

    /// Where an argument goes: into a request (also one run by `asyncio.to_thread(method,
    /// ...)`), into a wrapper, into a list (`parts.append(x)`) that goes on by its name, into
    /// a parameter of a function of this module (or of an earlier notebook cell), or elsewhere.
    fn argument_flow(&self, call: NodeId, argument: NodeId, scope: usize, depth: usize) -> Flow {
        let Kind::Call(c) = self.kind(call) else {
            return Flow::Elsewhere;
        };
        if self.call_kind(call, scope, 0).is_some() {
            return Flow::Request(Some(vec![self.range(call)]));
        }
        if self.lang.builds_wrapper(self, call, scope) {
            return Flow::Inside(vec![self.range(call)]);
        }
        if let Some(list) = self.list_growth(call) {
            return self.name_flow(list, scope, depth + 1);
        }
        if !self.lang.follows_parameters() {
            return Flow::Elsewhere;
        }
        let runs_request = c.args.iter().any(|a| {
            a.kind == ArgKind::Positional && matches!(self.classify(a.value, scope, 0), Class::Method(..))
        });
        if runs_request {
            return Flow::Request(None);
        }
        let Some(function) = self.tree.name(c.callee) else {
            return Flow::Elsewhere;
        };
        // The parameter the argument binds: by its keyword, else by its position.
        let Some(index) = c.args.iter().position(|a| a.value == argument) else {
            return Flow::Elsewhere;
        };
        let keyword = match &c.args[index].kind {
            ArgKind::Keyword(k) => Some(k.name.to_string()),
            _ => None,
        };
        let position = c.args[..index].iter().try_fold(0, |n, a| match a.kind {
            ArgKind::Spread | ArgKind::KeywordSpread => None,
            ArgKind::Keyword(_) => Some(n),
            ArgKind::Positional => Some(n + 1),
        });
        let pick = |params: &[String]| -> Option<String> {
            match &keyword {
                Some(k) => params.contains(k).then(|| k.clone()),
                None => params.get(position?).cloned(),
            }
        };
        match self.scopes.names.all_bindings(function, scope) {
            [only] => match self.scopes.functions.get(&only.start) {
                Some(&(definition, inner)) => match pick(&self.parameters(definition)) {
                    Some(parameter) => self.parameter_flow(&parameter, inner, depth + 1),
                    None => Flow::Elsewhere,
                },
                None => Flow::Elsewhere,
            },
            [] => match self.env.get(function) {
                Some(Class::Function(params)) => {
                    let names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
                    let request = pick(&names).is_some_and(|p| params.iter().any(|(n, r)| *n == p && *r));
                    if request {
                        Flow::Request(None)
                    } else {
                        Flow::Elsewhere
                    }
                }
                _ => Flow::Elsewhere,
            },
            _ => Flow::Elsewhere,
        }
    }

    /// `xs.append(...)`, `xs.extend(...)`, `xs.insert(...)`; `xs.push(...)`, `xs.unshift(...)`:
    /// the list `xs` grown.
    fn list_growth(&self, call: NodeId) -> Option<NodeId> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        if c.new {
            return None;
        }
        let Kind::Member(m) = self.kind(c.callee) else {
            return None;
        };
        let grows = self.lang.list_growers().contains(&&*m.name.name);
        (grows && matches!(self.kind(m.object), Kind::Name(_))).then_some(m.object)
    }

    /// The names of a Python function's parameters that an argument can bind, in order (up to
    /// `*args`, a bare `*` or a `/`).
    pub(super) fn parameters(&self, function: NodeId) -> Vec<String> {
        let Kind::Function(f) = self.kind(function) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut after = f.params_span.start as usize;
        for p in &f.params {
            let between = self.text.get(after..p.span.start as usize).unwrap_or_default();
            if p.kind != ParamKind::Plain || between.contains(['*', '/']) {
                break;
            }
            match &p.name {
                Some(n) => out.push(n.name.to_string()),
                None => break,
            }
            after = p.span.end as usize;
        }
        out
    }

    /// Where a parameter's value goes: wherever every use of it in its function goes, when the
    /// function does not bind it again.
    pub(super) fn parameter_flow(&self, parameter: &str, function_scope: usize, depth: usize) -> Flow {
        let bound_once = self
            .scopes
            .names
            .bindings
            .get(&(function_scope, parameter.to_string()))
            .is_some_and(|list| list.len() == 1);
        if !bound_once || depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        self.uses_flow(parameter, function_scope, depth)
    }

    /// Where the value bound to `target` goes: wherever every use of the name goes, when the
    /// name is bound only here (in JavaScript, by a declaration that is not exported).
    fn name_flow(&self, target: NodeId, scope: usize, depth: usize) -> Flow {
        let Some(name) = self.tree.name(target) else {
            return Flow::Elsewhere;
        };
        let Some(declared) = self.scopes.names.declaring_scope(name, scope) else {
            return Flow::Elsewhere;
        };
        let bound_once = match self.scopes.names.bindings_in(declared, name) {
            Some([only]) => match only.kind {
                BindingKind::Assign { value, .. } => !self.exported_value(value),
                _ => false,
            },
            _ => false,
        };
        if !bound_once || depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        self.uses_flow(name, declared, depth)
    }

    /// The value of an exported declaration (`export const x = value`).
    fn exported_value(&self, value: NodeId) -> bool {
        self.parent(value)
            .and_then(|declarator| self.parent(declarator))
            .filter(|&d| matches!(self.kind(d), Kind::Declaration { .. }))
            .is_some_and(|d| exported(self.tree, self.text, d))
    }

    /// Where the uses of `name` bound in `declared` go. Growing a list (`xs.append(...)`) or
    /// measuring it (`len(xs)`) is not a use.
    fn uses_flow(&self, name: &str, declared: usize, depth: usize) -> Flow {
        let uses = self.scopes.loads.get(name).map(Vec::as_slice).unwrap_or_default();
        Flow::of_uses(
            uses.iter()
                .filter(|(_, s)| self.scopes.names.declaring_scope(name, *s) == Some(declared))
                .filter(|&&(use_node, _)| {
                    let grown = self
                        .parent(use_node)
                        .and_then(|member| self.parent(member))
                        .is_some_and(|call| self.list_growth(call) == Some(use_node));
                    let measured = self.lang.length_function().is_some_and(|len| {
                        self.parent(use_node).is_some_and(|call| {
                            matches!(self.kind(call), Kind::Call(c)
                                if c.callee != use_node && self.src(c.callee) == len)
                        })
                    });
                    !grown && !measured
                })
                .map(|&(use_node, s)| self.flow(use_node, s, depth + 1)),
        )
    }
}
