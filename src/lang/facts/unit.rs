//! The migration unit of a request: what the program does with its result in the module. A
//! request is rewritten together with every read of its result, or not at all, so that a
//! migrated program never reads an interaction the old way.
//!
//! The result is followed through `await`, parentheses and casts, a name bound to it by a simple
//! assignment (each read of the name that sees that binding), and a loop over a stream's
//! chunks. Printing it (`print(response)`) or testing it (`if response:`) reads nothing of it;
//! anything else is recorded as a use the rewrite cannot follow, with where it is.

use super::Analyzer;
use super::scope::{BindingKind, Resolution};
use crate::api::{ReadKind, ResultUse, ResultUses, StreamLoop, line_indent};
use crate::lang::ir::{Kind, NodeId};

/// Functions whose argument is only shown: the value is not read as a response.
const SHOWN: &[&str] = &[
    "print",
    "display",
    "pprint",
    "pprint.pprint",
    "console.log",
    "console.info",
    "console.error",
    "console.warn",
    "console.debug",
    "console.dir",
];

/// Returns followed through at most this many functions.
const MAX_RETURNS: usize = 3;

/// At most this many characters of code are quoted in a use's description.
const QUOTE: usize = 60;

impl Analyzer<'_> {
    /// The uses of the result of the request `call` (in `scope`); `stream`: the result is a
    /// stream of chunks.
    pub(super) fn result_uses(&self, call: NodeId, scope: usize, stream: bool) -> ResultUses {
        let mut uses = ResultUses::default();
        let top = self.climb(call);
        self.use_of(top, scope, stream, true, &mut uses.uses);
        uses
    }

    /// `node` with the `await`, parentheses and casts around it.
    fn climb(&self, mut node: NodeId) -> NodeId {
        while let Some(parent) = self.parent(node) {
            match self.kind(parent) {
                Kind::Await(_) | Kind::Paren(_) | Kind::Cast(_) => node = parent,
                _ => break,
            }
        }
        node
    }

    /// What is done with the value `node` (the request itself when `direct`, else a read of a
    /// name holding its result).
    fn use_of(&self, node: NodeId, scope: usize, stream: bool, direct: bool, uses: &mut Vec<ResultUse>) {
        let Some(parent) = self.parent(node) else {
            return;
        };
        let what = self.quote(node);
        match self.kind(parent) {
            // Computed and dropped.
            Kind::Expr(_) => {}
            Kind::Member(m) if m.object == node => uses.push(self.member_use(parent, scope)),
            Kind::Assign(a) if direct && a.value == Some(node) => match a.targets.as_slice() {
                [target] if matches!(self.kind(*target), Kind::Name(_)) => {
                    self.name_uses(*target, node, scope, stream, uses)
                }
                targets => {
                    let target = targets
                        .first()
                        .map_or_else(|| self.quote(parent), |&t| self.quote(t));
                    uses.push(self.escape(parent, format!("the result is stored in `{target}`")));
                }
            },
            Kind::For(f) if f.iter == node && stream => uses.push(self.stream_loop(parent)),
            Kind::If(i) if i.test == node => {}
            Kind::While { test, .. } if *test == node => {}
            Kind::Template(_) => {}
            Kind::Call(c) if c.args.iter().any(|a| a.value == node) => {
                let callee = self.src(c.callee);
                if !SHOWN.contains(&callee) {
                    let callee = shorten(callee);
                    uses.push(self.escape(parent, format!("`{what}` is passed to `{callee}`")));
                }
            }
            Kind::Return(_) => self.returned(parent, &what, stream, uses),
            // A lambda's or an arrow function's expression body.
            Kind::Function(f) if f.expression && f.body.contains(&node) => {
                self.returned(node, &what, stream, uses)
            }
            _ => {
                let around = self.quote(parent);
                uses.push(self.escape(parent, format!("`{what}` is used in `{around}`")));
            }
        }
    }

    /// A result returned by the function around `node`: followed through the calls of the
    /// function in the module, when it is only called.
    fn returned(&self, node: NodeId, what: &str, stream: bool, uses: &mut Vec<ResultUse>) {
        let mut function = self.parent(node);
        while let Some(f) = function {
            if matches!(self.kind(f), Kind::Function(_)) {
                break;
            }
            function = self.parent(f);
        }
        let Some(function) = function else {
            uses.push(self.escape(node, format!("`{what}` is returned")));
            return;
        };
        let Some((name, calls)) = self.function_calls(function) else {
            uses.push(self.escape(
                node,
                format!("`{what}` is returned from a function interlint does not follow"),
            ));
            return;
        };
        if calls.is_empty() {
            uses.push(self.escape(
                node,
                format!("`{what}` is returned from `{name}`, which is not called in this module"),
            ));
            return;
        }
        if self.following.get() >= MAX_RETURNS {
            uses.push(self.escape(node, format!("`{what}` is returned from `{name}`")));
            return;
        }
        self.following.set(self.following.get() + 1);
        for (call, scope) in calls {
            match call {
                Ok(call) => self.use_of(self.climb(call), scope, stream, true, uses),
                Err(load) => uses.push(self.escape(
                    load,
                    format!("`{name}` returns the result and is used otherwise than called"),
                )),
            }
        }
        self.following.set(self.following.get() - 1);
    }

    /// A function's name and each of its uses in the module: a call (`Ok`), or another use
    /// (`Err`); `None` when the function has no name interlint resolves.
    #[allow(clippy::type_complexity)]
    fn function_calls(&self, function: NodeId) -> Option<(String, Vec<(Result<NodeId, NodeId>, usize)>)> {
        let Kind::Function(f) = self.kind(function) else {
            return None;
        };
        // `def name`/`function name`, or `const name = (...) => ...`.
        let (name, bound_here): (String, Box<dyn Fn(&BindingKind, usize) -> bool>) = match &f.name {
            Some(ident) if f.kind == crate::lang::ir::FunctionKind::Def => {
                let start = ident.span.start as usize;
                (
                    ident.name.to_string(),
                    Box::new(move |_: &BindingKind, b: usize| b == start),
                )
            }
            _ => {
                let parent = self.parent(function)?;
                let Kind::Assign(a) = self.kind(parent) else {
                    return None;
                };
                let [target] = a.targets.as_slice() else {
                    return None;
                };
                let name = self.tree.name(*target)?.to_string();
                (
                    name,
                    Box::new(
                        move |k: &BindingKind, _| matches!(k, BindingKind::Assign { value, .. } if *value == function),
                    ),
                )
            }
        };
        let mut calls = Vec::new();
        for &(load, scope) in self.scopes.loads_of(&name) {
            // A function bound once (its name is not followed as a value otherwise).
            let [b] = self.scopes.names.all_bindings(&name, scope) else {
                continue;
            };
            if !bound_here(&b.kind, b.start) {
                continue;
            }
            match self.parent(load) {
                Some(call) if matches!(self.kind(call), Kind::Call(c) if c.callee == load) => {
                    calls.push((Ok(call), scope))
                }
                // The name's own definition.
                Some(p) if p == function => {}
                _ => calls.push((Err(load), scope)),
            }
        }
        Some((name, calls))
    }

    /// The reads of the name `target` is bound to by the assignment of `value`.
    fn name_uses(
        &self,
        target: NodeId,
        value: NodeId,
        scope: usize,
        stream: bool,
        uses: &mut Vec<ResultUse>,
    ) {
        let Some(name) = self.tree.name(target) else {
            return;
        };
        let Some(binding) = self
            .scopes
            .names
            .all_bindings(name, scope)
            .iter()
            .find(|b| matches!(b.kind, BindingKind::Assign { value: v, .. } if v == value))
        else {
            uses.push(self.escape(
                target,
                format!("`{name}` is bound in a way interlint does not follow"),
            ));
            return;
        };
        if binding.scope == 0 && self.elsewhere.contains(name) {
            uses.push(self.escape(target, format!("other cells of the notebook read `{name}`")));
        }
        for &(load, load_scope) in self.scopes.loads_of(name) {
            if load == target {
                continue;
            }
            match self.scopes.names.resolve(name, load_scope, self.start(load)) {
                Resolution::Bound(b, _) if b.start == binding.start && b.scope == binding.scope => {}
                Resolution::Bound(..) | Resolution::Unbound => continue,
                // A function that may see this binding or another.
                Resolution::Opaque => {
                    if self.scopes.names.declaring_scope(name, load_scope) == Some(binding.scope) {
                        uses.push(self.escape(
                            load,
                            format!("`{name}` is read where another binding may hold it"),
                        ));
                    }
                    continue;
                }
            }
            // The assignment's own targets are not reads.
            if self
                .parent(load)
                .is_some_and(|p| matches!(self.kind(p), Kind::Assign(a) if a.targets.contains(&load)))
            {
                continue;
            }
            self.use_of(self.climb(load), load_scope, stream, false, uses);
        }
    }

    /// `result.name`: a read the old way, or another member.
    fn member_use(&self, member: NodeId, scope: usize) -> ResultUse {
        if let Some(read) = self.read_of(member, scope, true) {
            // The counts as a whole: their names differ on an interaction, so only shown.
            if read.kind == (ReadKind::Usage { member: None })
                && let Some(parent) = self.parent(member)
            {
                let shown = match self.kind(parent) {
                    Kind::Call(c) => SHOWN.contains(&self.src(c.callee)),
                    Kind::Template(_) | Kind::Expr(_) => true,
                    _ => false,
                };
                if !shown {
                    let what = self.quote(member);
                    return self.escape(
                        parent,
                        format!("`{what}` is used whole, and an interaction's counts are named otherwise"),
                    );
                }
            }
            return ResultUse::Read(read);
        }
        let name = match self.kind(member) {
            Kind::Member(m) => m.name.name.to_string(),
            _ => String::new(),
        };
        // The whole chain read from it, for the message: `r.candidates[0].finish_reason`.
        let mut top = member;
        while let Some(parent) = self.parent(top) {
            let continues = match self.kind(parent) {
                Kind::Member(m) => m.object == top,
                Kind::Index { object, .. } => *object == top,
                Kind::Cast(_) => true,
                _ => false,
            };
            if !continues {
                break;
            }
            top = parent;
        }
        ResultUse::Member {
            range: self.range(top),
            name,
        }
    }

    /// A loop over a stream's chunks: the chunk's name, where a guard goes, and its reads.
    fn stream_loop(&self, node: NodeId) -> ResultUse {
        let Kind::For(f) = self.kind(node) else {
            return self.escape(
                node,
                "the stream is iterated in a way interlint does not follow".into(),
            );
        };
        let Some(chunk) = self.tree.name(f.target).map(str::to_string) else {
            return self.escape(f.target, "each chunk is unpacked".into());
        };
        // Where the body's first statement is, on a line of its own.
        let (body_start, indent) = match f.body.as_slice() {
            [block] if !self.py() => match self.kind(*block) {
                Kind::Block(statements) => match statements.first() {
                    Some(&first) => (self.start(*block) + 1, line_indent(self.text, self.start(first))),
                    None => (self.start(*block) + 1, String::new()),
                },
                _ => return self.escape(node, "the loop's body is not a block".into()),
            },
            [first, ..] if self.py() => {
                let start = self.start(*first);
                let header = self.text.get(self.start(node)..start).unwrap_or_default();
                if !header.contains('\n') {
                    return self.escape(node, "the loop's body is on the line of its `for`".into());
                }
                (start, line_indent(self.text, start))
            }
            _ => return self.escape(node, "the loop's body is not a block".into()),
        };
        let mut reads = Vec::new();
        let mut other = Vec::new();
        for &(load, load_scope) in self.scopes.loads_of(&chunk) {
            let span = self.tree.span(node);
            let at = self.start(load);
            if load == f.target {
                continue;
            }
            if at < span.start as usize || at >= span.end as usize {
                // The last chunk read after the loop.
                if let Resolution::Bound(b, _) = self.scopes.names.resolve(&chunk, load_scope, at)
                    && matches!(b.kind, BindingKind::For { iter } if iter == f.iter)
                {
                    other.push(self.escape(load, format!("`{chunk}` is read after the loop")));
                }
                continue;
            }
            // A read that sees another binding of the name (bound again in the body).
            if let Resolution::Bound(b, _) = self.scopes.names.resolve(&chunk, load_scope, at)
                && !matches!(b.kind, BindingKind::For { .. })
            {
                other.push(self.escape(load, format!("`{chunk}` is bound again in the loop")));
                continue;
            }
            let load = self.climb(load);
            let Some(parent) = self.parent(load) else {
                continue;
            };
            match self.kind(parent) {
                Kind::Member(m) if m.object == load => match self.member_use(parent, load_scope) {
                    ResultUse::Read(read) => reads.push(read),
                    use_ => other.push(use_),
                },
                Kind::Call(c)
                    if c.args.iter().any(|a| a.value == load) && SHOWN.contains(&self.src(c.callee)) => {}
                Kind::Expr(_) | Kind::Template(_) => {}
                _ => {
                    let around = self.quote(parent);
                    other.push(self.escape(parent, format!("the chunk is used in `{around}`")));
                }
            }
        }
        ResultUse::Loop(StreamLoop {
            range: self.range(node),
            chunk,
            body_start,
            indent,
            reads,
            other,
        })
    }

    fn escape(&self, node: NodeId, how: String) -> ResultUse {
        ResultUse::Escape {
            range: self.range(node),
            how,
        }
    }

    /// The code of `node` for a message: its first line, shortened.
    fn quote(&self, node: NodeId) -> String {
        shorten(self.src(node).lines().next().unwrap_or_default().trim())
    }
}

fn shorten(code: &str) -> String {
    match code.char_indices().nth(QUOTE) {
        Some((end, _)) => format!("{}...", &code[..end]),
        None => code.to_string(),
    }
}
