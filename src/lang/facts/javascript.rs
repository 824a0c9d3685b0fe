//! JavaScript's and TypeScript's answers to the questions of [`Language`]: a request names its
//! fields in one object literal, a `const`/`let` belongs to its block, packages export
//! factories, classes and enums by name, and the legacy package is a class
//! (`GoogleGenerativeAI`). The bodies that only JavaScript has (its member reads, its calls'
//! results) are here too.
//!
//! Imports: the analyzer of [`facts`](super), the shared form and the fact model.

use std::ops::Range;

use super::classify::response_origin;
use super::language::CallShape;
use super::language::{Arguments, Language, LoopBody, Scoping};
use super::{Analyzer, Class, Words};
use crate::lang::ir::{self, ArgKind, Kind, NodeId, Tree};
use crate::migration_facts::{CallKind, Import, ModelRef, Wrapper, WrapperKind};

/// The facts of JavaScript and TypeScript.
pub(crate) struct JavaScript;

impl Language for JavaScript {
    fn words(&self) -> &'static Words {
        &super::WORDS[1]
    }

    fn reserved_names(&self) -> &'static [&'static str] {
        &["this", "super"]
    }

    fn comments(&self, tree: &Tree, _: &str) -> Vec<Range<usize>> {
        tree.comments.iter().map(|c| c.range()).collect()
    }

    fn scoping(&self) -> Scoping {
        Scoping::Block
    }

    fn import_binding<'i>(
        &self,
        _: &'i ir::Import,
        name: &'i ir::ImportName,
        _: usize,
    ) -> Option<(&'i str, usize)> {
        let local = name.alias.as_ref().unwrap_or(&name.name);
        Some((&local.name, local.span.start as usize))
    }

    fn import_class(&self, import: &ir::Import, name: &ir::ImportName) -> Class {
        let Some(module) = &import.module else {
            return Class::Unknown;
        };
        match &*name.name.name {
            "default" | "*" => Class::Module(module.name.to_string()),
            imported => Class::Module(format!("{}#{imported}", module.name)),
        }
    }

    /// `x = value` (not a declaration's `const x = value`), `(x = value)`.
    fn assigned_to(&self, a: &Analyzer<'_>, value: NodeId, parent: NodeId) -> Option<NodeId> {
        match a.kind(parent) {
            Kind::Assign(assign) => {
                let declared = a
                    .parent(parent)
                    .is_some_and(|p| matches!(a.kind(p), Kind::Declaration { .. }));
                (!declared && assign.value == Some(value)).then(|| assign.targets.first().copied())?
            }
            Kind::AssignExpr { target, value: v } if *v == value => Some(*target),
            _ => None,
        }
    }

    fn member_path(&self, path: &str, name: &str) -> String {
        if path.contains('#') {
            format!("{path}.{name}")
        } else {
            format!("{path}#{name}")
        }
    }

    fn follows_assignment(&self, a: &Analyzer<'_>, assignment: NodeId) -> bool {
        a.parent(assignment)
            .is_some_and(|p| matches!(a.kind(p), Kind::Declaration { .. }))
    }

    fn imports(&self, a: &Analyzer<'_>, statement: NodeId, out: &mut Vec<Import>) {
        out.extend(a.js_import(statement));
    }

    fn dynamic_import(&self, a: &Analyzer<'_>, call: NodeId) -> Option<Import> {
        if a.is_new(call) {
            return None;
        }
        a.dynamic_import(call)
    }

    fn fallback_operators(&self) -> &'static [&'static str] {
        &["??", "||"]
    }

    fn look_through(&self, tree: &Tree, node: NodeId) -> NodeId {
        tree.unwrap(node)
    }

    fn classify_member(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> Class {
        a.classify_js_member(node, scope, depth)
    }

    fn indexes_parts(&self) -> bool {
        true
    }

    fn classify_call(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> Class {
        if let Some(module) = a.required_module(node) {
            return Class::Module(module);
        }
        match a.call_kind(node, scope, depth) {
            Some((kind, ..)) => a.js_result(kind, node, scope, depth),
            None => Class::Unknown,
        }
    }

    fn numeric_keys_are_names(&self) -> bool {
        true
    }

    fn list_growers(&self) -> &'static [&'static str] {
        &["push", "unshift"]
    }

    fn length_member(&self) -> Option<&'static str> {
        Some("length")
    }

    fn loop_body(&self, a: &Analyzer<'_>, node: NodeId, body: &[NodeId]) -> LoopBody {
        match body {
            [block] => a.block_start(*block),
            _ => None,
        }
        .ok_or_else(|| a.escape(node, "the loop's body is not a block".into()))
    }

    fn empty_blocks(&self) -> bool {
        true
    }

    fn request_value(&self, a: &Analyzer<'_>, call: NodeId, name: &str) -> Option<NodeId> {
        a.property(a.request(call)?, name)
    }

    fn typed_names(&self) -> bool {
        true
    }

    fn names_model(&self, a: &Analyzer<'_>, call: NodeId) -> Option<bool> {
        a.request(call)?;
        Some(self.request_value(a, call, "model").is_some())
    }

    /// The REST discovery client (`googleapis`: `generativelanguage.models.
    /// generateContent({ model, requestBody })`) is another library.
    fn other_library(&self, a: &Analyzer<'_>, call: NodeId) -> bool {
        self.request_value(a, call, "requestBody").is_some()
    }

    /// One object literal; a new field goes after its last, else after the opening parenthesis.
    fn arguments(&self, a: &Analyzer<'_>, node: NodeId, _: usize, scope: usize) -> Arguments {
        let mut out = Arguments {
            args: Vec::new(),
            positional: Vec::new(),
            spread: false,
            insert_at: a.end(node),
            arg_indent: None,
        };
        let Kind::Call(c) = a.kind(node) else {
            return out;
        };
        let parens = c.parens.range();
        let request = a.request(node);
        if !parens.is_empty() {
            out.insert_at = parens.start + 1;
        }
        for (i, arg) in c.args.iter().enumerate() {
            match (i, request) {
                (0, Some(object)) => {
                    let map = a.dict_map(object, scope, 0);
                    out.spread |= !map.complete;
                    out.args = map.entries;
                    let Kind::Dict(d) = a.kind(object) else {
                        continue;
                    };
                    let object_start = a.start(object);
                    out.insert_at = d.items.last().map_or(object_start + 1, |p| p.span.end as usize);
                    out.arg_indent = d
                        .items
                        .first()
                        .and_then(|first| a.own_line_indent(object_start, first.span.start as usize));
                }
                _ if arg.kind == ArgKind::Spread => out.spread = true,
                _ => out.positional.push(a.value(arg.value, scope, 0)),
            }
        }
        out
    }

    /// The legacy client's model.
    fn legacy_call(
        &self,
        a: &Analyzer<'_>,
        call: NodeId,
        _: NodeId,
        name: &str,
        _: usize,
        _: usize,
    ) -> Option<CallShape> {
        match name {
            // The legacy client's method takes the model's parameters first; other SDKs'
            // functions of the same name take their own instance first.
            "getGenerativeModel" => a.request(call).map(|_| (CallKind::LegacyModel, None, None)),
            "getGenerativeModelFromCachedContent" => Some((CallKind::LegacyModel, None, None)),
            _ => None,
        }
    }

    fn legacy_model(&self, a: &Analyzer<'_>, call: NodeId, scope: usize, depth: usize) -> ModelRef {
        match self.request_value(a, call, "model") {
            Some(v) => a.model_ref(v, scope, depth),
            None => ModelRef::Absent,
        }
    }

    /// `new Content({...})`, `createUserContent(...)`: the object literal's range, no map.
    fn wrapper(&self, a: &Analyzer<'_>, node: NodeId, scope: usize) -> Option<Wrapper> {
        let Kind::Call(c) = a.kind(node) else {
            return None;
        };
        let parens = c.parens.range();
        let kind = if c.new {
            WrapperKind::Class
        } else {
            WrapperKind::Factory
        };
        let Class::Module(path) = a.classify(c.callee, scope, 0) else {
            return None;
        };
        let (module, name) = path.split_once('#')?;
        if name.contains('.') || parens.is_empty() {
            return None;
        }
        let literal = match c.args.as_slice() {
            [only] if kind == WrapperKind::Class && matches!(a.kind(only.value), Kind::Dict(_)) => {
                Some(a.range(only.value))
            }
            _ => None,
        };
        Some(Wrapper {
            name: name.to_string(),
            kind,
            module: Some(module.to_string()),
            callee: a.start(node)..a.end(c.callee),
            range: a.range(node),
            map: None,
            open: parens.start..parens.start + 1,
            close: parens.end.saturating_sub(1)..parens.end,
            literal,
            flow: a.flow(node, scope, 0),
            object: false,
        })
    }

    fn member_wrapper(&self, a: &Analyzer<'_>, member: NodeId, scope: usize) -> Option<Wrapper> {
        a.enum_member(member, scope)
    }

    fn carries(&self, parent: &Kind, _: NodeId) -> bool {
        matches!(parent, Kind::Cast(_))
    }

    fn builds_wrapper(&self, a: &Analyzer<'_>, call: NodeId, scope: usize) -> bool {
        self.wrapper(a, call, scope).is_some()
    }

    fn spread_entries_flow(&self) -> bool {
        true
    }
}

/// What JavaScript's calls and member reads hold.
impl Analyzer<'_> {
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

    /// A JavaScript member read.
    fn classify_js_member(&self, node: NodeId, scope: usize, depth: usize) -> Class {
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
}
