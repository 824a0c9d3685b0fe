//! What a name or an expression holds: a client, a response, a stream, a chat, a legacy model.

use super::scope::{BindingKind, Resolution};
use super::{Analyzer, Class, MAX_DEPTH};
use crate::api::{CallKind, ModelRef, Origin};
use crate::lang::ir::{ArgKind, Kind, NodeId};

impl Analyzer<'_> {
    pub(super) fn classify(&self, node: NodeId, scope: usize, depth: usize) -> Class {
        if depth > MAX_DEPTH {
            return Class::Unknown;
        }
        let node = self.unwrap_js(node);
        match self.kind(node) {
            Kind::Paren(inner) | Kind::Await(inner) => self.classify(*inner, scope, depth + 1),
            Kind::Str(s) => Class::Str(s.to_string()),
            Kind::Name(_) => self.classify_name(node, scope, depth),
            Kind::Member(_) if self.py() => self.classify_attribute(node, scope, depth),
            Kind::Member(_) => self.classify_member(node, scope, depth),
            // `response.functionCalls ?? []`: the fallback is only used when there is nothing.
            Kind::Logical(values) if !self.py() && self.logical_fallback(node) => match values.first() {
                Some(&left) => self.classify(left, scope, depth + 1),
                None => Class::Unknown,
            },
            Kind::Index { object, .. } => match self.classify(*object, scope, depth + 1) {
                Class::Parts if !self.py() => Class::Part,
                Class::Candidates(origin) => Class::Candidate(origin),
                _ => Class::Unknown,
            },
            Kind::Call(call) if call.new => Class::Unknown,
            Kind::Call(_) if self.py() => {
                if self.is_partial(node) {
                    return Class::Unknown;
                }
                // `loop.run_in_executor(None, lambda: request(...))` gives the lambda's result.
                if let Some((method, _)) = self.runner_method(node)
                    && let Kind::Function(f) = self.kind(method)
                    && f.kind == crate::lang::ir::FunctionKind::Lambda
                {
                    return match f.body.first() {
                        Some(&body) => self.classify(body, scope, depth + 1),
                        None => Class::Unknown,
                    };
                }
                match self.call_kind(node, scope, depth) {
                    Some((kind, ..)) => self.python_result(kind, node, scope, depth),
                    None => Class::Unknown,
                }
            }
            Kind::Call(_) => {
                if let Some(module) = self.required_module(node) {
                    return Class::Module(module);
                }
                match self.call_kind(node, scope, depth) {
                    Some((kind, ..)) => self.js_result(kind, node, scope, depth),
                    None => Class::Unknown,
                }
            }
            _ => Class::Unknown,
        }
    }

    /// `a ?? b`, `a || b` (not `a && b`).
    fn logical_fallback(&self, node: NodeId) -> bool {
        let Kind::Logical(values) = self.kind(node) else {
            return false;
        };
        let (Some(&left), Some(&right)) = (values.first(), values.get(1)) else {
            return false;
        };
        let between = self
            .text
            .get(self.end(left)..self.start(right))
            .unwrap_or_default();
        between.contains("??") || between.contains("||")
    }

    /// What a Python call of the API returns.
    fn python_result(&self, kind: CallKind, call: NodeId, scope: usize, depth: usize) -> Class {
        let flag = |name: &str| self.keyword(call, name).map(|v| self.src(v) == "True");
        match kind {
            CallKind::SendMessage if flag("stream") == Some(true) => Class::Stream,
            CallKind::Create | CallKind::LegacyCreate { stream: false } | CallKind::SendMessage => {
                Class::Response
            }
            CallKind::Interactions => match flag("stream") {
                None => Class::Interaction,
                // Its items are events, still not read with `.text`.
                Some(true) => Class::Stream,
                Some(false) => Class::Unknown,
            },
            CallKind::CreateStream | CallKind::LegacyCreate { stream: true } => Class::Stream,
            CallKind::ChatCreate | CallKind::StartChat => Class::Chat,
            CallKind::LegacyModel => Class::LegacyModel(self.legacy_model(call, scope, depth)),
            CallKind::Rest { .. } => Class::Unknown,
        }
    }

    /// What a JavaScript call of the API returns.
    fn js_result(&self, kind: CallKind, call: NodeId, scope: usize, depth: usize) -> Class {
        match kind {
            CallKind::Create => Class::Response,
            CallKind::CreateStream => Class::Stream,
            CallKind::LegacyCreate { stream: false } => Class::LegacyResult,
            CallKind::LegacyCreate { stream: true } => Class::LegacyStreamResult,
            CallKind::Interactions => match self.request_value(call, "stream") {
                None => Class::Interaction,
                // Its events are still not read with `.text`: the chunk reads keep their warning.
                Some(v) if self.src(v) == "true" => Class::Stream,
                Some(_) => Class::Unknown,
            },
            CallKind::ChatCreate => Class::Chat,
            CallKind::StartChat => Class::LegacyChat,
            CallKind::Rest { .. } => Class::Unknown,
            CallKind::SendMessage => {
                let Some((object, method)) = self.method_of(call) else {
                    return Class::Unknown;
                };
                let stream = method == self.words.send_stream;
                match (self.classify(object, scope, depth + 1), stream) {
                    (Class::Chat, false) => Class::Response,
                    (Class::Chat, true) => Class::Stream,
                    (Class::LegacyChat, false) => Class::LegacyResult,
                    (Class::LegacyChat, true) => Class::LegacyStreamResult,
                    _ => Class::Unknown,
                }
            }
            CallKind::LegacyModel => Class::LegacyModel(self.legacy_model(call, scope, depth)),
        }
    }

    /// The receiver and the name of a method call (`object.name(...)`).
    pub(super) fn method_of(&self, call: NodeId) -> Option<(NodeId, &str)> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        match self.kind(c.callee) {
            Kind::Member(m) => Some((m.object, &m.name.name)),
            _ => None,
        }
    }

    fn classify_name(&self, node: NodeId, scope: usize, depth: usize) -> Class {
        let Some(name) = self.tree.name(node) else {
            return Class::Unknown;
        };
        if !self.py() && matches!(name, "this" | "super") {
            return Class::Unknown;
        }
        match self.scopes.names.resolve(name, scope, self.start(node)) {
            Resolution::Bound(binding, _) => match binding.kind {
                BindingKind::Assign { value, .. } => self.classify(value, binding.scope, depth + 1),
                BindingKind::Destructure { value, key, entry } => {
                    let key = self.destructured_key(key, entry).unwrap_or_default();
                    match self.classify(value, binding.scope, depth + 1) {
                        // `const { models } = ai`.
                        _ if key == "models" => Class::Models,
                        class => self.member_of(class, key),
                    }
                }
                BindingKind::For { iter } => match self.classify(iter, binding.scope, depth + 1) {
                    Class::Stream => Class::StreamChunk,
                    Class::LegacyStream => Class::LegacyChunk,
                    Class::Parts => Class::Part,
                    Class::Candidates(origin) => Class::Candidate(origin),
                    _ => Class::Unknown,
                },
                BindingKind::Import { statement, index } => self.import_class(statement, index),
                BindingKind::Parameter { annotation }
                    if !self.own_package_type(annotation, binding.scope) =>
                {
                    annotation_class(self.src(annotation))
                }
                BindingKind::Parameter { .. } | BindingKind::Declared | BindingKind::Other => Class::Unknown,
            },
            Resolution::Opaque => Class::Unknown,
            Resolution::Unbound => self.env.get(name).cloned().unwrap_or(Class::Unknown),
        }
    }

    /// The key of entry `entry` of the object pattern `pattern`.
    pub(super) fn destructured_key(&self, pattern: NodeId, entry: u32) -> Option<&str> {
        match self.kind(pattern) {
            Kind::Dict(d) => d.items.get(entry as usize).and_then(|e| e.key.text()),
            _ => None,
        }
    }

    /// The annotation's type comes from a relative import (`from . import types`): the client
    /// package's own code, which implements the API rather than using it.
    fn own_package_type(&self, annotation: NodeId, scope: usize) -> bool {
        let mut root = annotation;
        for _ in 0..MAX_DEPTH {
            root = match self.kind(root) {
                Kind::Member(m) => m.object,
                Kind::Index { object, .. } => *object,
                Kind::Binary { left, .. } => *left,
                Kind::Paren(inner) => *inner,
                _ => break,
            };
        }
        let name = match self.kind(root) {
            Kind::Name(name) => name.to_string(),
            _ => String::new(),
        };
        match self.scopes.names.resolve(&name, scope, self.start(annotation)) {
            Resolution::Bound(binding, _) => match binding.kind {
                BindingKind::Import { statement, .. } => {
                    matches!(self.kind(statement), Kind::Import(import) if import.level > 0)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// What an imported name holds: Python's dotted path, JavaScript's `package#name`.
    pub(super) fn import_class(&self, statement: NodeId, index: u32) -> Class {
        let Kind::Import(import) = self.kind(statement) else {
            return Class::Unknown;
        };
        let Some(name) = import.names.get(index as usize) else {
            return Class::Unknown;
        };
        if self.py() {
            return match &import.module {
                _ if import.level > 0 || import.module.is_some() => {
                    let module = format!(
                        "{}{}",
                        ".".repeat(import.level as usize),
                        import.module.as_ref().map_or("", |m| &*m.name)
                    );
                    Class::Module(format!("{module}.{}", name.name.name))
                }
                // `import a.b as c` binds the whole path; `import a.b` binds `a`.
                _ if name.alias.is_some() => Class::Module(name.name.name.to_string()),
                _ => Class::Module(name.name.name.split('.').next().unwrap_or_default().to_string()),
            };
        }
        let Some(module) = &import.module else {
            return Class::Unknown;
        };
        match &*name.name.name {
            "default" | "*" => Class::Module(module.name.to_string()),
            imported => Class::Module(format!("{}#{imported}", module.name)),
        }
    }

    /// A Python attribute read.
    fn classify_attribute(&self, node: NodeId, scope: usize, depth: usize) -> Class {
        let Kind::Member(m) = self.kind(node) else {
            return Class::Unknown;
        };
        let (object, attr) = (m.object, &*m.name.name);
        if (attr == self.words.create || attr == self.words.create_stream) && self.is_models_member(object) {
            let kind = if attr == self.words.create {
                CallKind::Create
            } else {
                CallKind::CreateStream
            };
            let start = match self.kind(object) {
                Kind::Member(o) => o.name.span.start as usize,
                _ => self.start(node),
            };
            return Class::Method(kind, Some(start..self.end(node)));
        }
        if attr == "parts" && self.candidates_root(node, scope, depth).is_some() {
            return Class::Parts;
        }
        if attr == "candidates"
            && let Some(origin) = response_origin(&self.classify(object, scope, depth + 1))
        {
            return Class::Candidates(origin);
        }
        if self.src(object) == self.words.this {
            return self.self_attribute(attr, depth);
        }
        match self.classify(object, scope, depth + 1) {
            Class::Module(path) => Class::Module(format!("{path}.{attr}")),
            _ => Class::Unknown,
        }
    }

    /// A JavaScript member read.
    fn classify_member(&self, node: NodeId, scope: usize, depth: usize) -> Class {
        let Kind::Member(m) = self.kind(node) else {
            return Class::Unknown;
        };
        let (object, name) = (m.object, &*m.name.name);
        if name == "models" {
            return Class::Models;
        }
        if self.tree.name(object) == Some(self.words.this) {
            return self.self_attribute(name, depth);
        }
        if name == "parts" && self.candidates_root(node, scope, depth).is_some() {
            return Class::Parts;
        }
        let class = self.classify(object, scope, depth + 1);
        if name == "candidates"
            && let Some(origin) = response_origin(&class)
        {
            return Class::Candidates(origin);
        }
        match (&class, name) {
            (Class::Models, _) if name == self.words.create || name == self.words.create_stream => {
                let kind = if name == self.words.create {
                    CallKind::Create
                } else {
                    CallKind::CreateStream
                };
                let range = match self.kind(object) {
                    Kind::Member(o) => Some(o.name.span.start as usize..self.end(node)),
                    _ => None,
                };
                Class::Method(kind, range)
            }
            _ => self.member_of(class, name),
        }
    }

    /// `self.name` / `this.name`: what every value assigned to it holds, when they agree.
    fn self_attribute(&self, name: &str, depth: usize) -> Class {
        let values = self
            .scopes
            .self_attrs
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let classes: Vec<Class> = values.iter().map(|v| self.classify(*v, 0, depth + 1)).collect();
        match classes.first() {
            Some(first) if classes.iter().all(|c| c == first) => first.clone(),
            _ => Class::Unknown,
        }
    }

    /// A property of an object of a known class.
    pub(super) fn member_of(&self, class: Class, name: &str) -> Class {
        match (class, name) {
            (Class::Module(path), _) if self.py() => Class::Module(format!("{path}.{name}")),
            (Class::Module(path), _) => Class::Module(if path.contains('#') {
                format!("{path}.{name}")
            } else {
                format!("{path}#{name}")
            }),
            (Class::LegacyResult | Class::LegacyStreamResult, "response") => Class::LegacyResponse,
            (Class::LegacyStreamResult, "stream") => Class::LegacyStream,
            _ => Class::Unknown,
        }
    }

    /// `...models`: the models resource of a client, whatever the client is called (Python:
    /// as written; JavaScript: also through a name bound to it).
    pub(super) fn is_models_member(&self, node: NodeId) -> bool {
        matches!(self.kind(node), Kind::Member(m) if &*m.name.name == "models")
    }

    /// For `R.candidates[i].content.parts` (at `parts`), the class of `R` when it is a response.
    pub(super) fn candidates_root(&self, parts: NodeId, scope: usize, depth: usize) -> Option<Class> {
        let Kind::Member(parts) = self.kind(parts) else {
            return None;
        };
        let content = self.unwrap_js(parts.object);
        let Kind::Member(content) = self.kind(content) else {
            return None;
        };
        if &*content.name.name != "content" {
            return None;
        }
        let Kind::Index { object, .. } = self.kind(self.unwrap_js(content.object)) else {
            return None;
        };
        let Kind::Member(candidates) = self.kind(self.unwrap_js(*object)) else {
            return None;
        };
        if &*candidates.name.name != "candidates" {
            return None;
        }
        let class = self.classify(candidates.object, scope, depth + 1);
        is_response(&class).then_some(class)
    }

    /// The model of a legacy `GenerativeModel(...)` / `getGenerativeModel({ model })` call.
    pub(super) fn legacy_model(&self, call: NodeId, scope: usize, depth: usize) -> ModelRef {
        if !self.py() {
            return match self.request_value(call, "model") {
                Some(v) => self.model_ref(v, scope, depth),
                None => ModelRef::Absent,
            };
        }
        let Kind::Call(c) = self.kind(call) else {
            return ModelRef::Absent;
        };
        // A model made from a cache uses the cache's model.
        if matches!(self.kind(c.callee), Kind::Member(m) if &*m.name.name == "from_cached_content") {
            return ModelRef::Unresolved;
        }
        let value = self
            .keyword(call, "model_name")
            .or_else(|| self.keyword(call, "model"))
            .or_else(|| {
                c.args
                    .iter()
                    .find(|a| !matches!(a.kind, ArgKind::Keyword(_)))
                    .map(|a| a.value)
            });
        match value {
            Some(v) => self.model_ref(v, scope, depth),
            None => ModelRef::Absent,
        }
    }

    pub(super) fn model_ref(&self, value: NodeId, scope: usize, depth: usize) -> ModelRef {
        match self.classify(value, scope, depth + 1) {
            Class::Str(s) => ModelRef::Literal(s),
            _ => ModelRef::Unresolved,
        }
    }
}

/// What a response-like value is, as the origin of what is read from it.
pub(super) fn response_origin(class: &Class) -> Option<Origin> {
    match class {
        Class::Response | Class::LegacyResponse => Some(Origin::Response),
        Class::StreamChunk | Class::LegacyChunk => Some(Origin::StreamChunk),
        Class::Interaction => Some(Origin::Interaction),
        _ => None,
    }
}

fn is_response(class: &Class) -> bool {
    matches!(
        class,
        Class::Response
            | Class::LegacyResponse
            | Class::Interaction
            | Class::StreamChunk
            | Class::LegacyChunk
    )
}

/// What a parameter annotated `written` holds: a response when the annotation names the
/// response type (`GenerateContentResponse`, `types.GenerateContentResponse`, quoted, or
/// optional: `Optional[...]`, `... | None`).
fn annotation_class(written: &str) -> Class {
    let written = written.trim().trim_matches(['"', '\'']);
    let inner = written
        .strip_prefix("Optional[")
        .or_else(|| written.strip_prefix("typing.Optional["))
        .and_then(|rest| rest.strip_suffix(']'))
        .or_else(|| written.strip_suffix("| None").map(str::trim_end))
        .unwrap_or(written)
        .trim()
        .trim_matches(['"', '\'']);
    match inner.rsplit('.').next() {
        Some("GenerateContentResponse") => Class::Response,
        _ => Class::Unknown,
    }
}
