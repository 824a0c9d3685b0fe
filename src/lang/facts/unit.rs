//! The migration unit of a request: what the program does with its result in the module. A
//! request is rewritten together with every read of its result, or not at all, so that a
//! migrated program never reads an interaction the old way.
//!
//! The result is followed through `await`, parentheses and casts, a name bound to it by a simple
//! assignment (each read of the name that sees that binding), and a loop over a stream's
//! chunks. Printing it (`print(response)`) or testing it (`if response:`) reads nothing of it;
//! anything else is recorded as a use the rewrite cannot follow, with where it is.

use std::ops::Range;

use super::Analyzer;
use super::language::Scoping;
use super::scope::{BindingKind, Resolution};
use crate::lang::bindings::Binding;
use crate::lang::ir::{Kind, NodeId};
use crate::migration_facts::{
    PartRead, PartRole, PartsLoop, ReadKind, ResultUse, ResultUses, StreamLoop, line_indent,
};

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

/// How a result is being followed: whether it is a stream, and through how many returns.
#[derive(Clone, Copy)]
struct Follow {
    stream: bool,
    returns: usize,
}

/// A use of a function's name: a call of it, or anything else.
enum FunctionUse {
    Called(NodeId),
    Other(NodeId),
}

/// At most this many characters of code are quoted in a use's description.
const QUOTE: usize = 60;

impl Analyzer<'_> {
    /// The uses of the result of the request `call` (in `scope`); `stream`: the result is a
    /// stream of chunks.
    pub(super) fn result_uses(&self, call: NodeId, scope: usize, stream: bool) -> ResultUses {
        let mut uses = ResultUses::default();
        if let Some(use_) = self.old_error_handler(call) {
            uses.uses.push(use_);
        }
        let top = self.climb(call);
        let follow = Follow { stream, returns: 0 };
        self.use_of(top, scope, follow, true, &mut uses.uses);
        uses
    }

    /// A `try` around the request `call`, in its function, with a handler of the old client's
    /// errors (`except errors.APIError`): an interactions call raises others, which the handler
    /// would no longer catch.
    fn old_error_handler(&self, call: NodeId) -> Option<ResultUse> {
        let errors = self.words.errors;
        if errors.is_empty() {
            return None;
        }
        let mut child = call;
        while let Some(parent) = self.parent(child) {
            match self.kind(parent) {
                Kind::Function(_) | Kind::Class(_) => break,
                Kind::Try(t) if t.body.contains(&child) => {
                    for handler in &t.handlers {
                        let Some(types) = handler.types else {
                            continue;
                        };
                        let caught = self.src(types);
                        let old = caught
                            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .find(|word| errors.iter().any(|e| e == word));
                        if old.is_some() {
                            return Some(self.escape(
                                types,
                                format!(
                                    "the request's errors are caught as `{}` of the old client, which an \
                                     interactions call does not raise (it raises those of \
                                     `google.genai._interactions`)",
                                    self.quote(types)
                                ),
                            ));
                        }
                    }
                }
                _ => {}
            }
            child = parent;
        }
        // A test of a caught error (`isinstance(e, errors.APIError)`, as a retry predicate
        // does) anywhere in the module.
        let (range, written) = self
            .old_error_test
            .get_or_init(|| self.find_old_error_test())
            .clone()?;
        Some(ResultUse::Escape {
            range,
            how: format!(
                "the module tests errors as the old client's (`{})`), which an interactions call does \
                 not raise (it raises those of `google.genai._interactions`)",
                shorten(&written)
            ),
        })
    }

    /// The module's first `isinstance(e, X)` naming one of the old client's error classes, outside
    /// comments: its range and its text up to the closing parenthesis.
    fn find_old_error_test(&self) -> Option<(std::ops::Range<usize>, String)> {
        let errors = self.words.errors;
        self.text.match_indices("isinstance(").find_map(|(at, _)| {
            let line_end = self.text[at..].find('\n').map_or(self.text.len(), |i| at + i);
            let line = &self.text[at..line_end];
            let close = line.find(')')?;
            let args = &line[..close];
            let old = args
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| errors.iter().any(|e| e == word));
            let commented = self.scopes.comments.iter().any(|c| c.start <= at && at < c.end);
            (old && !commented).then(|| (at..at + close + 1, args.to_string()))
        })
    }

    /// `node` with the `await`, parentheses and casts around it.
    pub(super) fn climb(&self, mut node: NodeId) -> NodeId {
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
    fn use_of(&self, node: NodeId, scope: usize, follow: Follow, direct: bool, uses: &mut Vec<ResultUse>) {
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
                    self.name_uses(*target, node, scope, follow, uses)
                }
                targets => {
                    let target = targets
                        .first()
                        .map_or_else(|| self.quote(parent), |&t| self.quote(t));
                    uses.push(self.escape(parent, format!("the result is stored in `{target}`")));
                }
            },
            Kind::For(f) if f.iter == node && follow.stream => uses.push(self.stream_loop(parent)),
            Kind::If(i) if i.test == node => {}
            Kind::While { test, .. } if *test == node => {}
            // Tested for truth in a condition (`if response and response.text`): an interaction
            // is as true as the response was.
            Kind::Logical(items) if items.last() != Some(&node) && self.is_test(parent) => {}
            _ if self.is_negation(parent) && self.is_test(parent) => {}
            Kind::Template(_) => {}
            _ if self.shown(parent, node) => {}
            Kind::Call(c) if c.args.iter().any(|a| a.value == node) => {
                if !self.passed_into(parent, node, scope, follow, uses) {
                    let callee = shorten(self.src(c.callee));
                    uses.push(self.escape(parent, format!("`{what}` is passed to `{callee}`")));
                }
            }
            Kind::Return(_) => self.returned(parent, &what, follow, uses),
            // A lambda's or an arrow function's expression body.
            Kind::Function(_) if self.returns(parent, node) => self.returned(node, &what, follow, uses),
            _ => uses.push(self.used_in(node, parent)),
        }
    }

    /// `node` passed by `call` to a function defined once in the module (Python), as a plain
    /// parameter the function does not rebind: the reads of that parameter are followed as the
    /// result's, after a [`ResultUse::Through`] naming the function and its calls (the requests
    /// whose results reach it are rewritten together). `false` when the function is not one.
    fn passed_into(
        &self,
        call: NodeId,
        node: NodeId,
        scope: usize,
        follow: Follow,
        uses: &mut Vec<ResultUse>,
    ) -> bool {
        use crate::lang::ir::{ArgKind, ParamKind};
        if self.lang.scoping() == Scoping::Block || follow.returns >= MAX_RETURNS {
            return false;
        }
        let Kind::Call(c) = self.kind(call) else {
            return false;
        };
        let Some(callee) = self.tree.name(c.callee) else {
            return false;
        };
        let [binding] = self.scopes.names.all_bindings(callee, scope) else {
            return false;
        };
        let Some(&(function, inner)) = self.scopes.functions.get(&binding.start) else {
            return false;
        };
        let Kind::Function(f) = self.kind(function) else {
            return false;
        };
        // A decorator may wrap the function; a generator's body runs when it is iterated.
        if !f.decorators.is_empty() || f.is_async {
            return false;
        }
        let Some(index) = c.args.iter().position(|a| a.value == node) else {
            return false;
        };
        let param = match &c.args[index].kind {
            ArgKind::Positional if c.args[..index].iter().all(|a| a.kind == ArgKind::Positional) => {
                f.params.get(index)
            }
            ArgKind::Keyword(k) => f
                .params
                .iter()
                .find(|p| p.name.as_ref().is_some_and(|n| n.name == k.name)),
            _ => None,
        };
        let Some((param, name)) = param
            .filter(|p| p.kind == ParamKind::Plain && p.pattern.is_none())
            .and_then(|p| p.name.as_ref().map(|n| (p, n)))
        else {
            return false;
        };
        if f.params[..]
            .iter()
            .take_while(|p| !std::ptr::eq(*p, param))
            .any(|p| p.kind != ParamKind::Plain)
        {
            return false;
        }
        match self.scopes.names.bindings_in(inner, &name.name) {
            Some([b]) if b.start == name.span.start as usize => {}
            _ => return false,
        }
        let Some((function_name, calls)) = self.function_calls(function) else {
            return false;
        };
        let mut called = Vec::new();
        for (use_, _) in &calls {
            match use_ {
                FunctionUse::Called(c) => called.push(self.range(*c)),
                FunctionUse::Other(_) => return false,
            }
        }
        uses.push(ResultUse::Through {
            function: self.range(function),
            name: function_name,
            call: self.range(call),
            calls: called,
        });
        let follow = Follow {
            returns: follow.returns + 1,
            ..follow
        };
        for &(load, load_scope) in self.scopes.loads_of(&name.name) {
            if self.scopes.names.declaring_scope(&name.name, load_scope) == Some(inner) {
                self.use_of(self.climb(load), load_scope, follow, false, uses);
            }
        }
        true
    }

    /// Whether `node` is the condition of an `if`, a `while` or a conditional expression, or an
    /// operand of a logical expression that is (its value is only tested for truth).
    pub(super) fn is_test(&self, node: NodeId) -> bool {
        match self.parent(node).map(|p| (p, self.kind(p))) {
            Some((_, Kind::If(i))) => i.test == node,
            Some((_, Kind::While { test, .. })) => *test == node,
            Some((_, Kind::Conditional { test, .. })) => *test == node,
            Some((p, Kind::Logical(_))) => self.is_test(p),
            Some((p, Kind::Paren(_))) => self.is_test(p),
            Some((p, _)) if self.is_negation(p) => self.is_test(p),
            _ => false,
        }
    }

    /// Whether `node` negates its operand (`not x`, `!x`), which the shared form keeps as
    /// [`Kind::Other`].
    fn is_negation(&self, node: NodeId) -> bool {
        if !matches!(self.kind(node), Kind::Other(children) if children.len() == 1) {
            return false;
        }
        let src = self.src(node);
        src.starts_with('!')
            || src
                .strip_prefix("not")
                .is_some_and(|rest| rest.starts_with([' ', '(']))
    }

    /// `parent` returns `value`: a `return` statement, or a lambda's or an arrow function's
    /// expression body.
    pub(super) fn returns(&self, parent: NodeId, value: NodeId) -> bool {
        match self.kind(parent) {
            Kind::Return(_) => true,
            Kind::Function(f) => f.expression && f.body.contains(&value),
            _ => false,
        }
    }

    /// Where the statements of the braced block `block` start (after its `{`), and their
    /// indentation (none for an empty block); `None` when `block` is not a braced block.
    pub(super) fn block_start(&self, block: NodeId) -> Option<(usize, String)> {
        let Kind::Block(statements) = self.kind(block) else {
            return None;
        };
        let indent = statements
            .first()
            .map_or_else(String::new, |&first| line_indent(self.text, self.start(first)));
        Some((self.start(block) + 1, indent))
    }

    /// A result returned by the function around `node`: followed through the calls of the
    /// function in the module, when it is only called.
    fn returned(&self, node: NodeId, what: &str, follow: Follow, uses: &mut Vec<ResultUse>) {
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
        if follow.returns >= MAX_RETURNS {
            uses.push(self.escape(node, format!("`{what}` is returned from `{name}`")));
            return;
        }
        let follow = Follow {
            returns: follow.returns + 1,
            ..follow
        };
        for (use_, scope) in calls {
            match use_ {
                FunctionUse::Called(call) => self.use_of(self.climb(call), scope, follow, true, uses),
                FunctionUse::Other(load) => uses.push(self.escape(
                    load,
                    format!("`{name}` returns the result and is used otherwise than called"),
                )),
            }
        }
    }

    /// A function's name and each use of it in the module, with its scope; `None` when the
    /// function has no name interlint resolves.
    fn function_calls(&self, function: NodeId) -> Option<(String, Vec<(FunctionUse, usize)>)> {
        let Kind::Function(f) = self.kind(function) else {
            return None;
        };
        // `def name`/`function name` (bound where its name is), or `const name = (...) => ...`
        // (bound to the function).
        let (name, def_start) = match &f.name {
            Some(ident) if f.kind == crate::lang::ir::FunctionKind::Def => {
                (ident.name.to_string(), Some(ident.span.start as usize))
            }
            _ => {
                let parent = self.parent(function)?;
                let Kind::Assign(a) = self.kind(parent) else {
                    return None;
                };
                let [target] = a.targets.as_slice() else {
                    return None;
                };
                (self.tree.name(*target)?.to_string(), None)
            }
        };
        let mut calls = Vec::new();
        for &(load, scope) in self.scopes.loads_of(&name) {
            // A function bound once (its name is not followed as a value otherwise).
            let [b] = self.scopes.names.all_bindings(&name, scope) else {
                continue;
            };
            let bound_here = match def_start {
                Some(start) => b.start == start,
                None => matches!(b.kind, BindingKind::Assign { value, .. } if value == function),
            };
            if !bound_here {
                continue;
            }
            match self.parent(load) {
                Some(call) if matches!(self.kind(call), Kind::Call(c) if c.callee == load) => {
                    calls.push((FunctionUse::Called(call), scope))
                }
                // The name's own definition.
                Some(p) if p == function => {}
                _ => calls.push((FunctionUse::Other(load), scope)),
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
        follow: Follow,
        uses: &mut Vec<ResultUse>,
    ) {
        for (load, load_scope) in self.follow_binding(target, value, scope, uses) {
            self.use_of(self.climb(load), load_scope, follow, false, uses);
        }
    }

    /// The reads (with their scopes) of the name `target` that see its binding to `value` by an
    /// assignment in `scope`; what keeps a read from being followed (the name bound otherwise,
    /// read by other cells, or where another binding may hold it) goes into `blocked`.
    pub(super) fn follow_binding(
        &self,
        target: NodeId,
        value: NodeId,
        scope: usize,
        blocked: &mut Vec<ResultUse>,
    ) -> Vec<(NodeId, usize)> {
        let Some(name) = self.tree.name(target) else {
            return Vec::new();
        };
        let Some(binding) = self
            .scopes
            .names
            .all_bindings(name, scope)
            .iter()
            .find(|b| matches!(b.kind, BindingKind::Assign { value: v, .. } if v == value))
        else {
            blocked.push(self.escape(
                target,
                format!("`{name}` is bound in a way interlint does not follow"),
            ));
            return Vec::new();
        };
        if binding.scope == 0 && self.elsewhere.contains(name) {
            blocked.push(self.escape(target, format!("other cells of the notebook read `{name}`")));
        }
        let (reads, opaque) = self.reads_of_binding(name, binding, target);
        for load in opaque {
            blocked.push(self.escape(
                load,
                format!("`{name}` is read where another binding may hold it"),
            ));
        }
        reads
    }

    /// `node` used in `parent` in a way no rewrite follows.
    pub(super) fn used_in(&self, node: NodeId, parent: NodeId) -> ResultUse {
        let what = self.quote(node);
        let around = self.quote(parent);
        self.escape(parent, format!("`{what}` is used in `{around}`"))
    }

    /// The reads of `name` that see `binding` (its assignment targets and `target` left out),
    /// with their scopes; and the reads in a function that may see it or another binding.
    pub(super) fn reads_of_binding(
        &self,
        name: &str,
        binding: &Binding<BindingKind>,
        target: NodeId,
    ) -> (Vec<(NodeId, usize)>, Vec<NodeId>) {
        let mut reads = Vec::new();
        let mut opaque = Vec::new();
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
                        opaque.push(load);
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
            reads.push((load, load_scope));
        }
        (reads, opaque)
    }

    /// `result.name`: a read the old way, or another member.
    fn member_use(&self, member: NodeId, scope: usize) -> ResultUse {
        if let Some(read) = self.read_of(member, scope, true) {
            if read.kind == (ReadKind::Candidates { simple_text: false })
                && let Some(parts) = self.parts_loop(member, &read)
            {
                return parts;
            }
            if read.kind == ReadKind::FunctionCalls && self.range(member) == read.range {
                return self.function_calls_use(member, &read, scope);
            }
            // The counts as a whole: their names differ on an interaction, so only shown.
            if read.kind == (ReadKind::Usage { member: None })
                && let Some(parent) = self.parent(member)
                && !self.shown(parent, member)
            {
                let what = self.quote(member);
                return self.escape(
                    parent,
                    format!("`{what}` is used whole, and an interaction's counts are named otherwise"),
                );
            }
            return ResultUse::Read(read);
        }
        // `for part in response.parts:` (Python's getter of the first candidate's parts).
        if let Kind::Member(m) = self.kind(member)
            && self.words.parts == Some(&*m.name.name)
            && self.chain_top(member) == member
            && let Some(parts) = self.loop_over_parts(member, self.range(m.object))
        {
            return parts;
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
        let (body_start, indent) = match self.lang.loop_body(self, node, &f.body) {
            Ok(found) => found,
            Err(escape) => return escape,
        };
        let mut reads = Vec::new();
        let mut other = Vec::new();
        for (load, load_scope) in self.loop_variable_reads(node, f, &chunk, &mut other) {
            let load = self.climb(load);
            let Some(parent) = self.parent(load) else {
                continue;
            };
            match self.kind(parent) {
                Kind::Member(m) if m.object == load => match self.member_use(parent, load_scope) {
                    ResultUse::Read(read) => reads.push(read),
                    use_ => other.push(use_),
                },
                _ if self.shown(parent, load) => {}
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

    /// The reads of `name`, the variable of the loop `node`, in its body, with their scopes; a
    /// read of it after the loop, or in the body where another binding of the name holds it (a
    /// nested loop's, an assignment's), goes into `other`.
    pub(super) fn loop_variable_reads(
        &self,
        node: NodeId,
        f: &crate::lang::ir::For,
        name: &str,
        other: &mut Vec<ResultUse>,
    ) -> Vec<(NodeId, usize)> {
        let span = self.range(node);
        let mut reads = Vec::new();
        for &(load, load_scope) in self.scopes.loads_of(name) {
            let at = self.start(load);
            if load == f.target {
                continue;
            }
            let bound_here = matches!(
                self.scopes.names.resolve(name, load_scope, at),
                Resolution::Bound(b, _) if matches!(b.kind, BindingKind::For { iter } if iter == f.iter)
            );
            if !span.contains(&at) {
                if bound_here {
                    other.push(self.escape(load, format!("`{name}` is read after the loop")));
                }
                continue;
            }
            if !bound_here {
                other.push(self.escape(load, format!("`{name}` is bound again in the loop")));
                continue;
            }
            reads.push((load, load_scope));
        }
        reads
    }

    /// The chain of members and indexes read from `node`: its last link.
    fn chain_top(&self, node: NodeId) -> NodeId {
        let mut top = node;
        while let Some(parent) = self.parent(top) {
            let continues = match self.kind(parent) {
                Kind::Member(m) => m.object == top,
                Kind::Index { object, .. } => *object == top,
                _ => false,
            };
            if !continues {
                break;
            }
            top = parent;
        }
        top
    }

    /// `for part in R.candidates[0].content.parts:` (`for (const part of ...)`), where `member`
    /// is `R.candidates` and `read` its read: the loop, with what it reads of each part.
    fn parts_loop(&self, member: NodeId, read: &crate::migration_facts::Read) -> Option<ResultUse> {
        let top = self.chain_top(member);
        if self.range(top) != read.range {
            return None;
        }
        let chain: String = self
            .text
            .get(read.receiver.end..read.range.end)?
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '?')
            .collect();
        if chain != ".candidates[0].content.parts" {
            return None;
        }
        self.loop_over_parts(top, read.receiver.clone())
    }

    /// The loop iterating `iterated`, the parts of the response `receiver` holds, with what it
    /// reads of each part; `None` when `iterated` is not a loop's iterable.
    fn loop_over_parts(&self, iterated: NodeId, receiver: std::ops::Range<usize>) -> Option<ResultUse> {
        let top = iterated;
        let climbed = self.climb(top);
        let node = self.parent(climbed)?;
        let Kind::For(f) = self.kind(node) else {
            return None;
        };
        if f.iter != climbed || f.keys || f.is_async {
            return None;
        }
        let Some(part) = self.tree.name(f.target).map(str::to_string) else {
            return Some(self.escape(f.target, "each part is unpacked".into()));
        };
        let mut reads = Vec::new();
        let mut other = Vec::new();
        for (load, _) in self.loop_variable_reads(node, f, &part, &mut other) {
            let load = self.climb(load);
            let Some(parent) = self.parent(load) else {
                continue;
            };
            match self.kind(parent) {
                Kind::Member(m) if m.object == load => {
                    let attribute = self.parent(parent).and_then(|p| match self.kind(p) {
                        Kind::Member(a) if a.object == parent => {
                            Some((a.name.name.to_string(), self.range(p)))
                        }
                        _ => None,
                    });
                    reads.push(PartRead {
                        range: self.range(parent),
                        member: m.name.name.to_string(),
                        role: self.part_role(parent, &part, &m.name.name, &f.body),
                        attribute,
                    });
                }
                _ if self.shown(parent, load) => {}
                _ => {
                    let around = self.quote(parent);
                    other.push(self.escape(parent, format!("the part is used in `{around}`")));
                }
            }
        }
        Some(ResultUse::Parts(PartsLoop {
            iter: self.range(top),
            target: self.range(f.target),
            receiver,
            part,
            reads,
            other,
        }))
    }

    /// What `read` (`part.member`) does in its loop, whose statements are `body`.
    fn part_role(&self, read: NodeId, part: &str, member: &str, body: &[NodeId]) -> PartRole {
        let climbed = self.climb(read);
        if let Some(parent) = self.parent(climbed) {
            // `if part.member:`
            if let Kind::If(i) = self.kind(parent)
                && i.test == climbed
            {
                let only_continues = i.orelse.is_empty()
                    && matches!(i.body.as_slice(), [only] if self.src(*only).trim_end_matches(';').trim() == "continue");
                // The loop keeps a statement of its own where a block may not be empty.
                let skip = (only_continues && (self.lang.empty_blocks() || body.len() > 1))
                    .then(|| self.range(parent));
                return PartRole::Test {
                    test: self.range(read),
                    skip,
                };
            }
            // `if part.text and part.thought:`: an operand of a test's conjunction.
            if self.is_conjunction(parent)
                && let Some(grand) = self.parent(self.climb(parent))
                && matches!(self.kind(grand), Kind::If(i) if i.test == self.climb(parent))
            {
                return PartRole::Test {
                    test: self.range(read),
                    skip: None,
                };
            }
            // `if part.member is not None:`, `if (part.member !== undefined)`.
            if self.is_present_test(parent, climbed)
                && let Some(grand) = self.parent(self.climb(parent))
                && matches!(self.kind(grand), Kind::If(i) if i.test == self.climb(parent))
            {
                return PartRole::Test {
                    test: self.range(parent),
                    skip: None,
                };
            }
        }
        // In the body of an `if` testing the same member of the part.
        let mut child = read;
        while let Some(parent) = self.parent(child) {
            match self.kind(parent) {
                Kind::For(_) | Kind::Function(_) => break,
                Kind::If(i) if i.body.contains(&child) && self.tests_member(i.test, part, member) => {
                    return PartRole::Guarded;
                }
                _ => {}
            }
            child = parent;
        }
        PartRole::Unguarded
    }

    /// `node` is `a and b ...` (`a && b`): every operand holds when it does.
    fn is_conjunction(&self, node: NodeId) -> bool {
        let Kind::Logical(operands) = self.kind(node) else {
            return false;
        };
        operands.windows(2).all(|pair| {
            let between = self
                .text
                .get(self.range(pair[0]).end..self.start(pair[1]))
                .unwrap_or_default()
                .trim();
            matches!(between, "and" | "&&")
        })
    }

    /// `comparison` is `operand is not None` (`!== undefined`, `!= null`, ...).
    fn is_present_test(&self, comparison: NodeId, operand: NodeId) -> bool {
        let (left, right) = match self.kind(comparison) {
            Kind::Binary { left, right, .. } => (*left, *right),
            Kind::Other(children) if children.len() == 2 => (children[0], children[1]),
            _ => return false,
        };
        if left != operand {
            return false;
        }
        let operator = self
            .text
            .get(self.range(left).end..self.start(right))
            .unwrap_or_default()
            .trim();
        matches!(operator, "is not" | "!==" | "!=")
            && matches!(self.src(right), "None" | "undefined" | "null")
    }

    /// `test` is `part.member` (or `part.member is not None` and kin).
    fn tests_member(&self, test: NodeId, part: &str, member: &str) -> bool {
        let test = self.tree.unwrap(test);
        let is_read = |node: NodeId| {
            matches!(self.kind(node), Kind::Member(m)
                if &*m.name.name == member && self.tree.name(self.tree.unwrap(m.object)) == Some(part))
        };
        match self.kind(test) {
            Kind::Member(_) => is_read(test),
            Kind::Logical(operands) if self.is_conjunction(test) => operands
                .iter()
                .any(|&operand| self.tests_member(operand, part, member)),
            Kind::Binary { left, .. } => is_read(*left) && self.is_present_test(test, *left),
            Kind::Other(children) if children.len() == 2 => {
                is_read(children[0]) && self.is_present_test(test, children[0])
            }
            _ => false,
        }
    }

    /// Whether `parent` only shows the value `node`: an argument of `print(...)` and kin, an
    /// interpolation, or a statement of its own.
    pub(super) fn shown(&self, parent: NodeId, node: NodeId) -> bool {
        match self.kind(parent) {
            Kind::Call(c) => c.args.iter().any(|a| a.value == node) && SHOWN.contains(&self.src(c.callee)),
            Kind::Template(_) | Kind::Expr(_) => true,
            _ => false,
        }
    }

    pub(super) fn escape(&self, node: NodeId, how: String) -> ResultUse {
        ResultUse::Escape {
            range: self.range(node),
            how,
        }
    }

    /// The code of `node` for a message: its first line, shortened.
    pub(super) fn quote(&self, node: NodeId) -> String {
        shorten(self.src(node).lines().next().unwrap_or_default().trim())
    }
}

pub(super) fn shorten(code: &str) -> String {
    match code.char_indices().nth(QUOTE) {
        Some((end, _)) => format!("{}...", &code[..end]),
        None => code.to_string(),
    }
}

/// The requests whose results are passed to one function of the module are rewritten together
/// (each one's [`ResultUses::together`] names the others), when every call of the function
/// passes one of them; otherwise each is left, with the call that passes something else.
pub(super) fn join_through(calls: &mut [crate::migration_facts::Call]) {
    use std::collections::BTreeMap;
    /// A function reached: its name, every call of it, the calls passing a result, and the
    /// requests of those results.
    #[derive(Default)]
    struct Reached {
        name: String,
        all: Vec<Range<usize>>,
        passing: Vec<Range<usize>>,
        members: Vec<usize>,
    }
    let mut by_function: BTreeMap<(usize, usize), Reached> = BTreeMap::new();
    for (i, call) in calls.iter().enumerate() {
        let Some(result) = &call.result else {
            continue;
        };
        for use_ in &result.uses {
            if let ResultUse::Through {
                function,
                name,
                call: at,
                calls: all,
            } = use_
            {
                let entry = by_function
                    .entry((function.start, function.end))
                    .or_insert_with(|| Reached {
                        name: name.clone(),
                        all: all.clone(),
                        ..Reached::default()
                    });
                entry.passing.push(at.clone());
                if !entry.members.contains(&i) {
                    entry.members.push(i);
                }
            }
        }
    }
    if by_function.is_empty() {
        return;
    }
    let mut group: Vec<usize> = (0..calls.len()).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    let mut left: Vec<(usize, ResultUse)> = Vec::new();
    for Reached {
        name,
        all,
        passing,
        members,
    } in by_function.values()
    {
        if let Some(other) = all.iter().find(|c| !passing.contains(c)) {
            for &m in members {
                left.push((
                    m,
                    ResultUse::Escape {
                        range: other.clone(),
                        how: format!(
                            "`{name}`, which reads the result, is also called with a value that is not \
                             the result of a request interlint follows"
                        ),
                    },
                ));
            }
            continue;
        }
        for pair in members.windows(2) {
            let (a, b) = (root(&mut group, pair[0]), root(&mut group, pair[1]));
            group[a] = b;
        }
    }
    for (i, use_) in left {
        if let Some(result) = calls[i].result.as_mut() {
            result.uses.push(use_);
        }
    }
    let roots: Vec<usize> = (0..calls.len()).map(|i| root(&mut group, i)).collect();
    for i in 0..calls.len() {
        let together: Vec<Range<usize>> = (0..calls.len())
            .filter(|&j| j != i && roots[j] == roots[i])
            .map(|j| calls[j].range.clone())
            .collect();
        if let Some(result) = calls[i].result.as_mut() {
            result.together = together;
        }
    }
}
