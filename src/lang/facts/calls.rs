//! Which calls are calls of the API, and what they pass.

use super::scope::Resolution;
use super::{Analyzer, Class, MAX_DEPTH};
use crate::lang::ir::{ArgKind, Key, Kind, NodeId};
use crate::migration_facts::{API_METHODS, Call, CallKind, ModelRef, line_indent};

/// A call's kind, the callee text to replace when rewriting it, and the alias it is called
/// through.
use super::language::CallShape;

impl Analyzer<'_> {
    /// The kind of an API call, the callee range to replace when rewriting it, and the alias
    /// it is called through.
    pub(super) fn call_kind(&self, call: NodeId, scope: usize, depth: usize) -> Option<CallShape> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        if c.new {
            return None;
        }
        if let Some((method, _)) = self.runner_method(call) {
            return self.method_reference(method, scope, depth);
        }
        let w = self.words;
        let function = self.look_through(c.callee);
        match self.kind(function) {
            Kind::Member(m) => {
                let object = m.object;
                let name = &*m.name.name;
                let object_name = match self.kind(object) {
                    Kind::Member(o) => Some(&o.name),
                    _ => None,
                };
                let method_range = object_name.map(|o| o.span.start as usize..self.end(function));
                if name == w.create || name == w.create_stream {
                    let stream = name == w.create_stream;
                    let create = if stream {
                        CallKind::CreateStream
                    } else {
                        CallKind::Create
                    };
                    if self.lang.other_library(self, call) {
                        return None;
                    }
                    // `client.models.generate_content` as written, or through a name bound to
                    // the client's `models` (`const { models } = ai`).
                    if self.is_models_member(object) {
                        return Some((create, method_range, None));
                    }
                    let class = self.classify(object, scope, depth + 1);
                    if class == Class::Models {
                        let method =
                            method_range.filter(|_| object_name.is_some_and(|o| &*o.name == "models"));
                        return Some((create, method, None));
                    }
                    if let Class::LegacyModel(_) = class {
                        let stream = stream || self.lang.stream_keyword(self, call);
                        return Some((CallKind::LegacyCreate { stream }, None, None));
                    }
                    // An unknown receiver called with a request naming its model; not the
                    // API's own implementation calling itself.
                    let request = self.lang.names_model(self, call)?;
                    return (request && !self.implementation_call(call, object))
                        .then_some((create, None, None));
                }
                if name == "create" {
                    return match object_name.map(|o| &*o.name) {
                        Some("interactions") => Some((CallKind::Interactions, None, None)),
                        // Another library's `chats.create(name=...)` names no model.
                        Some("chats") => self.request_value(call, "model").is_some().then_some((
                            CallKind::ChatCreate,
                            None,
                            None,
                        )),
                        _ => None,
                    };
                }
                if name == w.start_chat {
                    return match self.classify(object, scope, depth + 1) {
                        Class::LegacyModel(_) => Some((CallKind::StartChat, None, None)),
                        _ => None,
                    };
                }
                if name == w.send || name == w.send_stream {
                    return match self.classify(object, scope, depth + 1) {
                        Class::Chat | Class::LegacyChat => Some((CallKind::SendMessage, None, None)),
                        _ => None,
                    };
                }
                self.lang.legacy_call(self, call, object, name, scope, depth)
            }
            Kind::Name(name) => {
                // The legacy package's model class, called by its name.
                let legacy = self.legacy.words();
                if **name == *legacy.model_class {
                    return Some((CallKind::LegacyModel, None, None));
                }
                match self.classify(function, scope, depth + 1) {
                    Class::Method(..) => self.method_reference(function, scope, depth),
                    Class::Module(path) if legacy.is_model_class_path(&path) => {
                        Some((CallKind::LegacyModel, None, None))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The create-content method named by `node` (`client.models.generate_content`, or a name
    /// bound to it): its kind, the text to replace when rewriting the call, and the alias.
    fn method_reference(&self, node: NodeId, scope: usize, depth: usize) -> Option<CallShape> {
        let Class::Method(kind, range) = self.classify(node, scope, depth + 1) else {
            return None;
        };
        let Some(name) = self.tree.name(node) else {
            return Some((kind, range, None));
        };
        // Rewritten through the alias only when the alias is bound once in this scope and
        // this call is its only use.
        let local_single = matches!(
            self.scopes.names.resolve(name, scope, self.start(node)),
            Resolution::Bound(b, 1) if b.scope == scope
        ) && self.scopes.names.uses_in(scope, name) == 1;
        Some((kind, range.filter(|_| local_single), Some(name.to_string())))
    }

    /// A call running a method it is given ([`Language::runner_method`](super::Language::runner_method)).
    pub(super) fn runner_method(&self, call: NodeId) -> Option<(NodeId, usize)> {
        self.lang.runner_method(self, call)
    }

    /// A call running a method it is given with the arguments after it: `asyncio.to_thread(f,
    /// ...)`, `functools.partial(f, ...)`, `loop.run_in_executor(executor, f, ...)`. The
    /// argument naming the method, and how many arguments come before the request's own.
    pub(super) fn runner_of(&self, call: NodeId) -> Option<(NodeId, usize)> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let name = match self.kind(c.callee) {
            Kind::Member(m) => &*m.name.name,
            Kind::Name(n) => &**n,
            _ => return None,
        };
        let at = match name {
            "to_thread" | "partial" => 0,
            "run_in_executor" => 1,
            _ => return None,
        };
        let leading = c.args.get(..=at)?;
        if leading.iter().any(|a| a.kind != ArgKind::Positional) {
            return None;
        }
        Some((leading.last()?.value, at + 1))
    }

    /// `functools.partial(method, ...)`: the request is not made here but where the result is
    /// called.
    pub(super) fn is_partial(&self, call: NodeId) -> bool {
        let Kind::Call(c) = self.kind(call) else {
            return false;
        };
        match self.kind(c.callee) {
            Kind::Member(m) => &*m.name.name == "partial",
            _ => self.src(c.callee) == "partial",
        }
    }

    /// The value of the keyword argument `name` of a Python call.
    pub(super) fn keyword(&self, call: NodeId, name: &str) -> Option<NodeId> {
        match self.kind(call) {
            Kind::Call(c) => c.keyword(name),
            _ => None,
        }
    }

    /// `name=True` on a Python call.
    pub(super) fn flag(&self, call: NodeId, name: &str) -> bool {
        self.keyword(call, name).is_some_and(|v| self.src(v) == "True")
    }

    /// The request object of a JavaScript call: its first argument, when it is an object
    /// literal.
    pub(super) fn request(&self, call: NodeId) -> Option<NodeId> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let first = c.args.first()?;
        if first.kind != ArgKind::Positional {
            return None;
        }
        let object = self.tree.unwrap(first.value);
        matches!(self.kind(object), Kind::Dict(_)).then_some(object)
    }

    /// The value of the request's field `name`: a keyword argument in Python, a property of the
    /// request object in JavaScript.
    pub(super) fn request_value(&self, call: NodeId, name: &str) -> Option<NodeId> {
        self.lang.request_value(self, call, name)
    }

    /// The value of property `name` of an object literal (for `{ name }`, the name read).
    pub(super) fn property(&self, object: NodeId, name: &str) -> Option<NodeId> {
        let Kind::Dict(d) = self.kind(object) else {
            return None;
        };
        d.items.iter().find_map(|e| {
            let key = match &e.key {
                Key::Name(i) | Key::Str(i) => &*i.name,
                Key::Computed(k) if matches!(self.kind(*k), Kind::Int(_) | Kind::Number) => self.src(*k),
                _ => return None,
            };
            (key == name).then_some(e.value)
        })
    }

    /// `require("pkg")` (also through `await import("pkg")`): the package.
    pub(super) fn required_module(&self, call: NodeId) -> Option<String> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        if !matches!(self.tree.name(c.callee), Some("require" | "import")) {
            return None;
        }
        match c.args.as_slice() {
            [only] if only.kind == ArgKind::Positional => match self.kind(only.value) {
                Kind::Str(s) => Some(s.to_string()),
                _ => None,
            },
            _ => None,
        }
    }

    /// A call on `self`/`this` or one of its members (not its `models` resource) in a class
    /// that defines one of the API's methods (a client's chat, a CLI's content generator): the
    /// implementation calling itself.
    pub(super) fn implementation_call(&self, call: NodeId, receiver: NodeId) -> bool {
        let mut node = receiver;
        for _ in 0..MAX_DEPTH {
            node = self.look_through(node);
            node = match self.kind(node) {
                Kind::Member(m) => {
                    if &*m.name.name == "models" {
                        return false;
                    }
                    m.object
                }
                Kind::Call(c) => c.callee,
                Kind::Index { object, .. } => *object,
                _ => break,
            };
        }
        if self.tree.name(node) != Some(self.words.this) {
            return false;
        }
        let mut ancestor = self.parent(call);
        while let Some(a) = ancestor {
            if let Kind::Class(class) = self.kind(a) {
                return class.body.iter().any(|&member| match self.kind(member) {
                    Kind::Function(f) => f.name.as_ref().is_some_and(|n| API_METHODS.contains(&&*n.name)),
                    Kind::Field { name: Some(n), .. } => API_METHODS.contains(&&*n.name),
                    _ => false,
                });
            }
            ancestor = self.parent(a);
        }
        false
    }

    pub(super) fn call(&self, node: NodeId, scope: usize) -> Option<Call> {
        let (kind, method, alias) = self.call_kind(node, scope, 0)?;
        let Kind::Call(c) = self.kind(node) else {
            return None;
        };
        // A runner's call (`asyncio.to_thread(method, ...)`) is the method's: its callee is the
        // method, its arguments those after it.
        let (function, skip) = match self.runner_method(node) {
            Some((method, skip)) => (method, skip),
            None => (c.callee, 0),
        };
        let super::language::Arguments {
            args,
            positional,
            spread,
            insert_at,
            arg_indent,
        } = self.lang.arguments(self, node, skip, scope);
        let model = match kind {
            CallKind::LegacyCreate { .. } | CallKind::StartChat => match self.kind(function) {
                Kind::Member(m) => match self.classify(m.object, scope, 1) {
                    Class::LegacyModel(model) => model,
                    _ => ModelRef::Unresolved,
                },
                _ => ModelRef::Unresolved,
            },
            CallKind::LegacyModel => self.legacy_model(node, scope, 0),
            _ => match self.request_value(node, "model") {
                Some(v) => self.model_ref(v, scope, 0),
                None => ModelRef::Absent,
            },
        };
        let result = match kind {
            CallKind::Create => Some(Box::new(self.result_uses(node, scope, false))),
            CallKind::CreateStream => Some(Box::new(self.result_uses(node, scope, true))),
            // A legacy response that reads as the current client's (Python's); JavaScript's
            // legacy units follow their results themselves (`result.response.text()`).
            CallKind::LegacyCreate { stream } if self.legacy.responses_read_as_current() => {
                Some(Box::new(self.result_uses(node, scope, stream)))
            }
            CallKind::SendMessage => {
                let stream = matches!(self.kind(function), Kind::Member(m) if *m.name.name == *self.words.send_stream)
                    || self.lang.stream_keyword(self, node);
                Some(Box::new(self.result_uses(node, scope, stream)))
            }
            _ => None,
        };
        let chat = (kind == CallKind::ChatCreate).then(|| Box::new(self.chat_unit(node, scope)));
        Some(Call {
            kind,
            range: self.range(node),
            callee: self.range(function),
            method,
            callee_text: self.src(function).to_string(),
            alias,
            args,
            positional,
            spread,
            insert_at,
            arg_indent,
            model,
            result,
            chat,
        })
    }

    /// The indentation of the element at `first` when it does not sit on the line of the
    /// bracket at `open`.
    pub(super) fn own_line_indent(&self, open: usize, first: usize) -> Option<String> {
        self.text
            .get(open..first)?
            .contains('\n')
            .then(|| line_indent(self.text, first))
    }
}
