//! Which calls are calls of the API, and what they pass.

use std::ops::Range;

use super::scope::Resolution;
use super::{Analyzer, Class, MAX_DEPTH};
use crate::api::{API_METHODS, Call, CallKind, ModelRef, line_indent};
use crate::lang::ir::{ArgKind, Key, Kind, NodeId};

/// A call's kind, the callee text to replace when rewriting it, and the alias it is called
/// through.
pub(super) type CallShape = (CallKind, Option<Range<usize>>, Option<String>);

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
        if self.py()
            && let Some((method, _)) = self.runner_method(call)
        {
            return self.method_reference(method, scope, depth);
        }
        let w = self.words;
        let function = self.unwrap_js(c.callee);
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
                    // The REST discovery client (`googleapis`: `generativelanguage.models.
                    // generateContent({ model, requestBody })`) is another library.
                    if !self.py() && self.request_value(call, "requestBody").is_some() {
                        return None;
                    }
                    if self.py() && self.is_models_member(object) {
                        return Some((create, method_range, None));
                    }
                    let class = self.classify(object, scope, depth + 1);
                    if !self.py() && class == Class::Models {
                        let method =
                            method_range.filter(|_| object_name.is_some_and(|o| &*o.name == "models"));
                        return Some((create, method, None));
                    }
                    if let Class::LegacyModel(_) = class {
                        let stream = stream || self.py() && self.flag(call, "stream");
                        return Some((CallKind::LegacyCreate { stream }, None, None));
                    }
                    // An unknown receiver called with a request naming its model; not the
                    // API's own implementation calling itself.
                    let request = if self.py() {
                        self.keyword(call, "model").is_some() || self.keyword(call, "contents").is_some()
                    } else {
                        self.request(call)?;
                        self.request_value(call, "model").is_some()
                    };
                    return (request && !self.implementation_call(call, object))
                        .then_some((create, None, None));
                }
                if name == "create" {
                    return match object_name.map(|o| &*o.name) {
                        Some("interactions") => Some((CallKind::Interactions, None, None)),
                        // Another library's `chats.create(name=...)` names no model.
                        Some("chats") => {
                            let model = if self.py() {
                                self.keyword(call, "model").is_some()
                            } else {
                                self.request_value(call, "model").is_some()
                            };
                            model.then_some((CallKind::ChatCreate, None, None))
                        }
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
                if self.py() {
                    self.python_legacy_call(call, object, name, scope, depth)
                } else {
                    self.js_legacy_call(call, name)
                }
            }
            Kind::Name(name) => {
                if self.py() && &**name == "GenerativeModel" {
                    return Some((CallKind::LegacyModel, None, None));
                }
                match self.classify(function, scope, depth + 1) {
                    Class::Method(..) => self.method_reference(function, scope, depth),
                    Class::Module(path) if self.py() && path.ends_with(".GenerativeModel") => {
                        Some((CallKind::LegacyModel, None, None))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The legacy Python client's model and its coroutine.
    fn python_legacy_call(
        &self,
        call: NodeId,
        object: NodeId,
        name: &str,
        scope: usize,
        depth: usize,
    ) -> Option<CallShape> {
        match name {
            // The legacy model's coroutine reports as its blocking method.
            "generate_content_async"
                if matches!(self.classify(object, scope, depth + 1), Class::LegacyModel(_)) =>
            {
                let stream = self.flag(call, "stream");
                Some((CallKind::LegacyCreate { stream }, None, None))
            }
            "GenerativeModel" => Some((CallKind::LegacyModel, None, None)),
            // `genai.GenerativeModel.from_cached_content(cached_content=...)`.
            "from_cached_content" => {
                let model_class = self.src(object) == "GenerativeModel"
                    || matches!(self.kind(object), Kind::Member(o) if &*o.name.name == "GenerativeModel")
                    || matches!(self.classify(object, scope, depth + 1), Class::Module(p) if p.ends_with(".GenerativeModel"));
                model_class.then_some((CallKind::LegacyModel, None, None))
            }
            _ => None,
        }
    }

    /// The legacy JavaScript client's model.
    fn js_legacy_call(&self, call: NodeId, name: &str) -> Option<CallShape> {
        match name {
            // The legacy client's method takes the model's parameters first; other SDKs'
            // functions of the same name take their own instance first.
            "getGenerativeModel" => self.request(call).map(|_| (CallKind::LegacyModel, None, None)),
            "getGenerativeModelFromCachedContent" => Some((CallKind::LegacyModel, None, None)),
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

    /// A call running a method it is given with the arguments after it: `asyncio.to_thread(f,
    /// ...)`, `functools.partial(f, ...)`, `loop.run_in_executor(executor, f, ...)`. The
    /// argument naming the method, and how many arguments come before the request's own.
    pub(super) fn runner_method(&self, call: NodeId) -> Option<(NodeId, usize)> {
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
        if self.py() {
            return self.keyword(call, name);
        }
        self.property(self.request(call)?, name)
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
            node = self.unwrap_js(node);
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
        let (function, skip) = match self.runner_method(node).filter(|_| self.py()) {
            Some((method, skip)) => (method, skip),
            None => (c.callee, 0),
        };
        let parens = c.parens.range();
        let mut args = Vec::new();
        let mut positional = Vec::new();
        let mut spread = false;
        let mut insert_at;
        let mut arg_indent = None;
        if self.py() {
            let elements: Vec<Range<usize>> = c.args.iter().map(|a| a.span.range()).collect();
            for (i, arg) in c.args.iter().enumerate().skip(skip) {
                match &arg.kind {
                    ArgKind::Keyword(_) => args.extend(self.keyword_entry(c, &elements, i, scope, 0)),
                    ArgKind::Spread | ArgKind::KeywordSpread => spread = true,
                    ArgKind::Positional => positional.push(self.value(arg.value, scope, 0)),
                }
            }
            insert_at = elements.last().map_or(parens.start + 1, |e| e.end);
            arg_indent = elements
                .first()
                .and_then(|first| self.own_line_indent(parens.start, first.start));
        } else {
            let request = self.request(node);
            insert_at = if parens.is_empty() {
                self.end(node)
            } else {
                parens.start + 1
            };
            for (i, arg) in c.args.iter().enumerate() {
                match (i, request) {
                    (0, Some(object)) => {
                        let map = self.dict_map(object, scope, 0);
                        spread |= !map.complete;
                        args = map.entries;
                        let Kind::Dict(d) = self.kind(object) else {
                            continue;
                        };
                        let object_start = self.start(object);
                        insert_at = d.items.last().map_or(object_start + 1, |p| p.span.end as usize);
                        arg_indent = d
                            .items
                            .first()
                            .and_then(|first| self.own_line_indent(object_start, first.span.start as usize));
                    }
                    _ if arg.kind == ArgKind::Spread => spread = true,
                    _ => positional.push(self.value(arg.value, scope, 0)),
                }
            }
        }
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
            // A legacy Python response reads as the current client's does; JavaScript's legacy
            // units follow their results themselves (`result.response.text()`).
            CallKind::LegacyCreate { stream } if self.py() => {
                Some(Box::new(self.result_uses(node, scope, stream)))
            }
            CallKind::SendMessage => {
                let stream = matches!(self.kind(function), Kind::Member(m) if *m.name.name == *self.words.send_stream)
                    || self.py() && self.flag(node, "stream");
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
    fn own_line_indent(&self, open: usize, first: usize) -> Option<String> {
        self.text
            .get(open..first)?
            .contains('\n')
            .then(|| line_indent(self.text, first))
    }
}
