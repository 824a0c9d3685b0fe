//! What a name or an expression holds: a client, a response, a stream, a chat, a legacy model.

use super::scope::{BindingKind, Resolution};
use super::{Analyzer, Class, MAX_DEPTH};
use crate::lang::ir::{Kind, NodeId};
use crate::migration_facts::{ModelRef, Origin};

impl Analyzer<'_> {
    pub(super) fn classify(&self, node: NodeId, scope: usize, depth: usize) -> Class {
        if depth > MAX_DEPTH {
            return Class::Unknown;
        }
        let node = self.look_through(node);
        match self.kind(node) {
            Kind::Paren(inner) | Kind::Await(inner) => self.classify(*inner, scope, depth + 1),
            Kind::Str(s) => Class::Str(s.to_string()),
            Kind::Name(_) => self.classify_name(node, scope, depth),
            Kind::Member(_) => self.lang.classify_member(self, node, scope, depth),
            // `response.functionCalls ?? []`: the fallback is only used when there is nothing.
            Kind::Logical(values) if self.logical_fallback(node) => match values.first() {
                Some(&left) => self.classify(left, scope, depth + 1),
                None => Class::Unknown,
            },
            Kind::Index { object, .. } => match self.classify(*object, scope, depth + 1) {
                Class::Parts if self.lang.indexes_parts() => Class::Part,
                Class::Candidates(origin) => Class::Candidate(origin),
                _ => Class::Unknown,
            },
            Kind::Call(call) if call.new => Class::Unknown,
            Kind::Call(_) => self.lang.classify_call(self, node, scope, depth),
            _ => Class::Unknown,
        }
    }

    /// `a ?? b`, `a || b` (not `a && b`): [`Language::fallback_operators`](super::Language::fallback_operators).
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
        self.lang.fallback_operators().iter().any(|o| between.contains(o))
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
        if self.lang.reserved_names().contains(&name) {
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
        self.lang.import_class(import, name)
    }

    /// `self.name` / `this.name`: what every value assigned to it holds, when they agree.
    pub(super) fn self_attribute(&self, name: &str, depth: usize) -> Class {
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
            (Class::Module(path), _) => Class::Module(self.lang.member_path(&path, name)),
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
        let content = self.look_through(parts.object);
        let Kind::Member(content) = self.kind(content) else {
            return None;
        };
        if &*content.name.name != "content" {
            return None;
        }
        let Kind::Index { object, .. } = self.kind(self.look_through(content.object)) else {
            return None;
        };
        let Kind::Member(candidates) = self.kind(self.look_through(*object)) else {
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
        self.lang.legacy_model(self, call, scope, depth)
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
