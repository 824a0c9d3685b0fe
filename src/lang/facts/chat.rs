//! The migration unit of a chat: the chat a helper makes (`chat = client.chats.create(...)`) and
//! every turn it sends in the module. The chat is followed through the name it is bound to; each
//! read of that name must be a turn (`chat.send_message(...)`), else the unit records where the
//! chat goes instead. A turn's own result is followed like a request's (see [`super::unit`]).

use super::Analyzer;
use super::scope::{BindingKind, Resolution};
use super::unit::shorten;
use crate::lang::ir::{Kind, NodeId};
use crate::migration_facts::{ChatUnit, Turn, line_indent};

impl Analyzer<'_> {
    /// The chat made by the chat-helper call `call` (in `scope`) and its turns.
    pub(super) fn chat_unit(&self, call: NodeId, scope: usize) -> ChatUnit {
        let mut unit = ChatUnit::default();
        let Kind::Call(c) = self.kind(call) else {
            return unit;
        };
        // `client.chats.create`: the client is what `.chats` is read from.
        if let Kind::Member(m) = self.kind(self.look_through(c.callee))
            && let Kind::Member(chats) = self.kind(m.object)
        {
            unit.client = self.range(chats.object);
        }
        let top = self.climb(call);
        let Some((target, statement)) = self.bound_by_statement(top) else {
            let how = match self.parent(top).map(|p| self.kind(p)) {
                Some(Kind::Assign(a)) if a.value == Some(top) && !a.targets.is_empty() => {
                    let target = self.src(a.targets[0]).lines().next().unwrap_or_default();
                    format!("the chat is stored in `{}`", shorten(target.trim()))
                }
                Some(Kind::Field {
                    name: Some(field), ..
                }) => {
                    format!("the chat is stored in the field `{}`", field.name)
                }
                _ => "the chat is not bound to a name by a statement of its own".into(),
            };
            unit.blocked.push((self.range(call), how));
            return unit;
        };
        let Some(name) = self.tree.name(target) else {
            return unit;
        };
        unit.name = name.to_string();
        unit.statement = self.range(statement);
        let Some(binding) = self
            .scopes
            .names
            .all_bindings(name, scope)
            .iter()
            .find(|b| matches!(b.kind, BindingKind::Assign { value, .. } if value == top))
        else {
            unit.blocked.push((
                self.range(target),
                format!("`{name}` is bound in a way interlint does not follow"),
            ));
            return unit;
        };
        if binding.scope == 0 && self.elsewhere.contains(name) {
            unit.blocked.push((
                self.range(target),
                format!("other cells of the notebook read `{name}`"),
            ));
        }
        // A declaration another binding of the name relies on (`chat = ...` again later).
        if matches!(self.kind(statement), Kind::Declaration { .. })
            && self.scopes.names.all_bindings(name, scope).len() > 1
        {
            unit.blocked.push((
                self.range(target),
                format!("`{name}` is declared here and bound again elsewhere"),
            ));
        }
        let holder = self.holder(statement);
        let mut turns: Vec<(NodeId, Turn)> = Vec::new();
        let (reads, opaque) = self.reads_of_binding(name, binding, target);
        for load in opaque {
            unit.blocked.push((
                self.range(load),
                format!("`{name}` is read where another binding may hold it"),
            ));
        }
        for (load, _) in reads {
            match self.turn(load) {
                Some((turn_call, stream)) if self.function_of(load) == self.function_of(statement) => {
                    turns.push((turn_call, self.turn_of(turn_call, stream)))
                }
                Some(_) => unit.blocked.push((
                    self.range(load),
                    format!("`{name}` is used in another function than the one that makes it"),
                )),
                None => {
                    let around = self.parent(load).map_or(load, |p| self.climb(p));
                    let what = shorten(self.src(around).lines().next().unwrap_or_default().trim());
                    let history = matches!(self.kind(around), Kind::Member(m)
                        if matches!(&*m.name.name, "get_history" | "getHistory" | "history"));
                    unit.blocked.push((
                        self.range(around),
                        if history {
                            format!(
                                "`{what}` reads the history the chat keeps, which has no counterpart on an \
                                 interaction: the service keeps the history, and an interaction read by its id \
                                 holds its own steps alone"
                            )
                        } else {
                            format!("`{what}` uses the chat otherwise than to send a turn")
                        },
                    ));
                }
            }
        }
        turns.sort_by_key(|(node, _)| self.start(*node));
        // TypeScript types a name by its declaration: a turn's result assigned to a name that
        // also holds something else (another chat's turn, a response) would not fit it.
        if self.lang.typed_names() {
            let values: Vec<NodeId> = turns.iter().map(|(node, _)| self.climb(*node)).collect();
            for (node, turn) in &turns {
                let Some(result) = &turn.result else {
                    continue;
                };
                let bindings = self.scopes.names.all_bindings(result, binding.scope);
                // A name no declaration makes (a notebook-style script's `response = await
                // ...`, a global) has no declared type: each value read is its own.
                if !bindings.iter().any(|b| self.declares(b.kind)) {
                    continue;
                }
                let mut others = false;
                for b in bindings {
                    let value = match b.kind {
                        BindingKind::Assign { value, .. } => value,
                        // `let reply;` with no type: its type follows what is assigned.
                        BindingKind::Declared if !self.annotated(b.start, result) => continue,
                        _ => {
                            others = true;
                            continue;
                        }
                    };
                    if values.contains(&value) {
                        continue;
                    }
                    // An interaction already (a request migrated by an earlier pass), or the turn
                    // of another chat, migrated with this one.
                    let call = self.tree.unwrap(value);
                    match self.call_kind(call, binding.scope, 0).map(|shape| shape.0) {
                        Some(crate::migration_facts::CallKind::Interactions) => {}
                        Some(crate::migration_facts::CallKind::SendMessage) => {
                            match self.chat_of_turn(call, b.scope) {
                                Some(other) if other != top => {
                                    let range = self.range(other);
                                    if !unit.shares.contains(&range) {
                                        unit.shares.push(range);
                                    }
                                }
                                _ => others = true,
                            }
                        }
                        _ => others = true,
                    }
                }
                if others {
                    unit.blocked.push((
                        self.range(*node),
                        format!(
                            "`{result}` also holds other values, whose type an interaction would not fit"
                        ),
                    ));
                }
            }
        }
        // Straight: every turn a statement of the chat's own list, after it, none in a loop.
        unit.straight = turns.iter().all(|(node, _)| {
            self.enclosing_statement(*node)
                .is_some_and(|s| self.holder(s) == holder && self.start(s) > unit.statement.end)
        });
        for i in 1..turns.len() {
            let (node, _) = turns[i];
            let sees = match &turns[i - 1].1.result {
                Some(previous) => {
                    let previous_value = self.climb(turns[i - 1].0);
                    matches!(
                        self.scopes.names.resolve(previous, binding.scope, self.enclosing_statement(node).map_or(self.start(node), |s| self.start(s))),
                        Resolution::Bound(b, _) if matches!(b.kind, BindingKind::Assign { value, .. } if value == previous_value)
                    )
                }
                None => false,
            };
            turns[i].1.sees_previous = sees;
        }
        unit.turns = turns.into_iter().map(|(_, turn)| turn).collect();
        unit
    }

    /// Whether a binding comes from a declaration (`let`, `const`, `var`, a parameter, an
    /// import), not from an assignment to a name no declaration makes.
    fn declares(&self, kind: BindingKind) -> bool {
        match kind {
            BindingKind::Assign { value, .. } => self
                .parent(value)
                .and_then(|declarator| self.parent(declarator))
                .is_some_and(|statement| matches!(self.kind(statement), Kind::Declaration { .. })),
            _ => true,
        }
    }

    /// The name declared at `start` has a type written after it (`let reply: Response;`).
    fn annotated(&self, start: usize, name: &str) -> bool {
        self.text
            .get(start + name.len()..)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    }

    /// The chat-helper call (`ai.chats.create(...)`) whose chat the turn `call` is sent
    /// through: the name the turn is called on, bound once, by an assignment, to that call.
    fn chat_of_turn(&self, call: NodeId, scope: usize) -> Option<NodeId> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let Kind::Member(m) = self.kind(self.look_through(c.callee)) else {
            return None;
        };
        let name = self.tree.name(m.object)?;
        let Resolution::Bound(binding, _) = self.scopes.names.resolve(name, scope, self.start(m.object))
        else {
            return None;
        };
        let BindingKind::Assign { value, .. } = binding.kind else {
            return None;
        };
        let creation = self.tree.unwrap(value);
        let chat = matches!(
            self.call_kind(creation, binding.scope, 0).map(|shape| shape.0),
            Some(crate::migration_facts::CallKind::ChatCreate)
        );
        chat.then(|| self.climb(creation))
    }

    /// `chat.send_message(...)` around the read `load` of a chat: the call, and whether it
    /// streams.
    fn turn(&self, load: NodeId) -> Option<(NodeId, bool)> {
        let member = self.parent(load)?;
        let Kind::Member(m) = self.kind(member) else {
            return None;
        };
        if m.object != load {
            return None;
        }
        let name = &*m.name.name;
        if name != self.words.send && name != self.words.send_stream {
            return None;
        }
        let call = self.parent(member)?;
        match self.kind(call) {
            Kind::Call(c) if c.callee == member => {
                let stream = name == self.words.send_stream || self.lang.stream_keyword(self, call);
                Some((call, stream))
            }
            _ => None,
        }
    }

    /// A turn: the statement it stands in, and the name its result is bound to.
    fn turn_of(&self, call: NodeId, stream: bool) -> Turn {
        let top = self.climb(call);
        let (result, statement) = match self.bound_by_statement(top) {
            Some((target, statement)) => (self.tree.name(target).map(str::to_string), Some(statement)),
            None => match self.parent(top) {
                Some(p) if matches!(self.kind(p), Kind::Expr(_)) => (None, Some(p)),
                _ => (None, None),
            },
        };
        Turn {
            call: self.range(call),
            stream,
            result,
            statement: statement.map(|s| self.range(s)),
            indent: line_indent(self.text, self.start(call)),
            sees_previous: false,
        }
    }

    /// The name `value` is bound to by an assignment that is a statement of its own (a
    /// declaration of one name, in JavaScript), and that statement.
    fn bound_by_statement(&self, value: NodeId) -> Option<(NodeId, NodeId)> {
        let assign = self.parent(value)?;
        let Kind::Assign(a) = self.kind(assign) else {
            return None;
        };
        let [target] = a.targets.as_slice() else {
            return None;
        };
        if a.value != Some(value) || !matches!(self.kind(*target), Kind::Name(_)) {
            return None;
        }
        let statement = match self.parent(assign).map(|p| (p, self.kind(p))) {
            Some((p, Kind::Declaration { declarators, .. })) => (declarators.len() == 1).then_some(p)?,
            Some((p, Kind::Expr(_))) => p,
            _ if self.holder(assign).is_some() => assign,
            _ => return None,
        };
        Some((*target, statement))
    }

    /// The statement of a list `node` is part of, run once when that statement is (not from a
    /// loop's test, a comprehension or a function inside it).
    pub(super) fn enclosing_statement(&self, node: NodeId) -> Option<NodeId> {
        let mut child = node;
        loop {
            if self.holder(child).is_some() {
                return Some(child);
            }
            let parent = self.parent(child)?;
            match self.kind(parent) {
                Kind::Comprehension(_) | Kind::Function(_) => return None,
                Kind::While { test, .. } if *test == child => return None,
                _ => child = parent,
            }
        }
    }

    /// The function `node` is in, if any.
    fn function_of(&self, node: NodeId) -> Option<NodeId> {
        let mut node = self.parent(node)?;
        loop {
            if matches!(self.kind(node), Kind::Function(_)) {
                return Some(node);
            }
            node = self.parent(node)?;
        }
    }

    /// The statement list holding `statement`: its owner, and which of the owner's lists.
    pub(super) fn holder(&self, statement: NodeId) -> Option<(NodeId, usize)> {
        let owner = self.parent(statement)?;
        let lists: Vec<&[NodeId]> = match self.kind(owner) {
            Kind::Module(list) | Kind::Block(list) => vec![list],
            Kind::Function(f) if !f.expression => vec![&f.body],
            Kind::Class(c) => vec![&c.body],
            Kind::If(i) => vec![&i.body, &i.orelse],
            Kind::While { body, orelse, .. } => vec![body, orelse],
            Kind::For(f) => vec![&f.body, &f.orelse],
            Kind::With(w) => vec![&w.body],
            Kind::Try(t) => {
                let mut lists: Vec<&[NodeId]> = vec![&t.body, &t.orelse, &t.finally];
                lists.extend(t.handlers.iter().map(|h| h.body.as_slice()));
                lists
            }
            _ => return None,
        };
        lists
            .iter()
            .position(|list| list.contains(&statement))
            .map(|i| (owner, i))
    }
}
