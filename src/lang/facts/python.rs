//! Python's answers to the questions of [`Language`]: keyword arguments name a request's
//! fields, a name belongs to its function, the client's `types` module builds typed wrappers,
//! and the legacy package is a module (`google.generativeai`). The bodies that only Python has
//! (its attribute reads, its calls' results) are here too.
//!
//! Imports: the analyzer of [`facts`](super), the shared form, the fact model, and Python's
//! comment runs ([`comment_runs`](crate::lang::python::comment_runs)).

use std::ops::Range;

use super::classify::response_origin;
use super::language::CallShape;
use super::language::{Arguments, Language, LoopBody, Scoping};
use super::{Analyzer, Class, Env, Words};
use crate::lang::ir::{self, ArgKind, Kind, NodeId, Tree};
use crate::migration_facts::{
    CallKind, Import, ModelRef, TopImports, ValueKind, Wrapper, WrapperKind, line_indent,
};

/// The facts of Python.
pub(crate) struct Python;

impl Language for Python {
    fn words(&self) -> &'static Words {
        &super::WORDS[0]
    }

    fn scoping(&self) -> Scoping {
        Scoping::Function
    }

    fn comments(&self, tree: &Tree, text: &str) -> Vec<Range<usize>> {
        tree.comments
            .iter()
            .flat_map(|c| {
                // A comment runs to the end of its line, `\r` included.
                let mut range = c.range();
                if text.as_bytes().get(range.end) == Some(&b'\r') {
                    range.end += 1;
                }
                crate::lang::python::comment_runs::comment_lines(range, text)
            })
            .collect()
    }

    fn import_binding<'i>(
        &self,
        import: &'i ir::Import,
        name: &'i ir::ImportName,
        statement_start: usize,
    ) -> Option<(&'i str, usize)> {
        if &*name.name.name == "*" {
            return None;
        }
        // `import google.genai` binds `google`.
        let bound = match (&name.alias, &import.module) {
            (None, None) => name.name.name.split('.').next().unwrap_or_default(),
            _ => name.bound(),
        };
        Some((bound, statement_start))
    }

    fn import_class(&self, import: &ir::Import, name: &ir::ImportName) -> Class {
        match &import.module {
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
        }
    }

    fn member_path(&self, path: &str, name: &str) -> String {
        format!("{path}.{name}")
    }

    /// `x = value`, with the last target of `a = b = value`.
    fn assigned_to(&self, a: &Analyzer<'_>, value: NodeId, parent: NodeId) -> Option<NodeId> {
        match a.kind(parent) {
            Kind::Assign(assign) => {
                (!assign.targets.contains(&value)).then(|| assign.targets.last().copied())?
            }
            _ => None,
        }
    }

    fn follows_assignment(&self, _: &Analyzer<'_>, _: NodeId) -> bool {
        true
    }

    fn formatted_strings(&self, tree: &Tree) -> Vec<Range<usize>> {
        (0..tree.nodes.len())
            .filter(|&id| matches!(tree.kind(id as NodeId), Kind::Template(_)))
            .map(|id| tree.range(id as NodeId))
            .collect()
    }

    fn imports(&self, a: &Analyzer<'_>, statement: NodeId, out: &mut Vec<Import>) {
        a.python_imports(statement, out);
    }

    fn top_imports(&self, a: &Analyzer<'_>) -> TopImports {
        a.top_imports()
    }

    fn exports(&self, a: &Analyzer<'_>) -> Env {
        a.exports()
    }

    fn look_through(&self, _: &Tree, node: NodeId) -> NodeId {
        node
    }

    fn classify_member(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> Class {
        a.classify_attribute(node, scope, depth)
    }

    fn classify_call(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> Class {
        if a.is_partial(node) {
            return Class::Unknown;
        }
        // `loop.run_in_executor(None, lambda: request(...))` gives the lambda's result.
        if let Some((method, _)) = a.runner_method(node)
            && let Kind::Function(f) = a.kind(method)
            && f.kind == crate::lang::ir::FunctionKind::Lambda
        {
            return match f.body.first() {
                Some(&body) => a.classify(body, scope, depth + 1),
                None => Class::Unknown,
            };
        }
        match a.call_kind(node, scope, depth) {
            Some((kind, ..)) => a.python_result(kind, node, scope, depth),
            None => Class::Unknown,
        }
    }

    fn call_value(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> ValueKind {
        let Kind::Call(c) = a.kind(node) else {
            return ValueKind::Other;
        };
        match a.wrapper_name(node, scope) {
            Some(name) if !name.contains('.') => match a.keyword_map(node, scope, depth, Some(name)) {
                Some(map) => ValueKind::Map(Box::new(map)),
                None => ValueKind::Other,
            },
            _ if a.src(c.callee) == "dict" => match a.keyword_map(node, scope, depth, None) {
                Some(map) => ValueKind::Map(Box::new(map)),
                None => ValueKind::Other,
            },
            _ => ValueKind::Other,
        }
    }

    fn length_function(&self) -> Option<&'static str> {
        Some("len")
    }

    fn list_growers(&self) -> &'static [&'static str] {
        &["append", "extend", "insert"]
    }

    fn loop_body(&self, a: &Analyzer<'_>, node: NodeId, body: &[NodeId]) -> LoopBody {
        let Some(first) = body.first() else {
            return Err(a.escape(node, "the loop's body is not a block".into()));
        };
        let start = a.start(*first);
        let header = a.text.get(a.start(node)..start).unwrap_or_default();
        if !header.contains('\n') {
            return Err(a.escape(node, "the loop's body is on the line of its `for`".into()));
        }
        Ok((start, line_indent(a.text, start)))
    }

    fn request_value(&self, a: &Analyzer<'_>, call: NodeId, name: &str) -> Option<NodeId> {
        a.keyword(call, name)
    }

    fn names_model(&self, a: &Analyzer<'_>, call: NodeId) -> Option<bool> {
        Some(a.keyword(call, "model").is_some() || a.keyword(call, "contents").is_some())
    }

    /// Keyword arguments; a new one goes after the last argument.
    fn arguments(&self, a: &Analyzer<'_>, node: NodeId, skip: usize, scope: usize) -> Arguments {
        let Kind::Call(c) = a.kind(node) else {
            return Arguments {
                args: Vec::new(),
                positional: Vec::new(),
                spread: false,
                insert_at: a.end(node),
                arg_indent: None,
            };
        };
        let parens = c.parens.range();
        let mut args = Vec::new();
        let mut positional = Vec::new();
        let mut spread = false;
        let elements: Vec<Range<usize>> = c.args.iter().map(|a| a.span.range()).collect();
        for (i, arg) in c.args.iter().enumerate().skip(skip) {
            match &arg.kind {
                ArgKind::Keyword(_) => args.extend(a.keyword_entry(c, &elements, i, scope, 0)),
                ArgKind::Spread | ArgKind::KeywordSpread => spread = true,
                ArgKind::Positional => positional.push(a.value(arg.value, scope, 0)),
            }
        }
        Arguments {
            args,
            positional,
            spread,
            insert_at: elements.last().map_or(parens.start + 1, |e| e.end),
            arg_indent: elements
                .first()
                .and_then(|first| a.own_line_indent(parens.start, first.start)),
        }
    }

    fn stream_keyword(&self, a: &Analyzer<'_>, call: NodeId) -> bool {
        a.flag(call, "stream")
    }

    fn runner_method(&self, a: &Analyzer<'_>, call: NodeId) -> Option<(NodeId, usize)> {
        a.runner_of(call)
    }

    /// The legacy model (`genai.GenerativeModel(...)`, `GenerativeModel.from_cached_content(...)`)
    /// and its coroutine.
    fn legacy_call(
        &self,
        a: &Analyzer<'_>,
        call: NodeId,
        object: NodeId,
        name: &str,
        scope: usize,
        depth: usize,
    ) -> Option<CallShape> {
        let w = a.legacy.words();
        match name {
            // The legacy model's coroutine reports as its blocking method.
            _ if name == w.create_async
                && matches!(a.classify(object, scope, depth + 1), Class::LegacyModel(_)) =>
            {
                let stream = a.flag(call, "stream");
                Some((CallKind::LegacyCreate { stream }, None, None))
            }
            _ if name == w.model_class => Some((CallKind::LegacyModel, None, None)),
            // `genai.GenerativeModel.from_cached_content(cached_content=...)`.
            _ if name == w.from_cache => {
                let model_class = a.src(object) == w.model_class
                    || matches!(a.kind(object), Kind::Member(o) if *o.name.name == *w.model_class)
                    || matches!(a.classify(object, scope, depth + 1), Class::Module(p) if w.is_model_class_path(&p));
                model_class.then_some((CallKind::LegacyModel, None, None))
            }
            _ => None,
        }
    }

    fn legacy_model(&self, a: &Analyzer<'_>, call: NodeId, scope: usize, depth: usize) -> ModelRef {
        let Kind::Call(c) = a.kind(call) else {
            return ModelRef::Absent;
        };
        // A model made from a cache uses the cache's model.
        if matches!(a.kind(c.callee), Kind::Member(m) if *m.name.name == *a.legacy.words().from_cache) {
            return ModelRef::Unresolved;
        }
        let value = a
            .keyword(call, "model_name")
            .or_else(|| a.keyword(call, "model"))
            .or_else(|| {
                c.args
                    .iter()
                    .find(|a| !matches!(a.kind, ArgKind::Keyword(_)))
                    .map(|a| a.value)
            });
        match value {
            Some(v) => a.model_ref(v, scope, depth),
            None => ModelRef::Absent,
        }
    }

    fn builds_wrapper(&self, a: &Analyzer<'_>, call: NodeId, scope: usize) -> bool {
        a.wrapper_name(call, scope).is_some()
    }

    /// `types.Part(...)`: its keyword arguments as its map, unless the object is used as one.
    fn wrapper(&self, a: &Analyzer<'_>, node: NodeId, scope: usize) -> Option<Wrapper> {
        let Kind::Call(c) = a.kind(node) else {
            return None;
        };
        let parens = c.parens.range();
        let name = a.wrapper_name(node, scope)?;
        let object = a.used_as_object(node, scope);
        let map = a
            .keyword_map(node, scope, 0, Some(name.clone()))
            .filter(|m| m.complete)
            .filter(|_| !object);
        let kind = if name.contains('.') {
            WrapperKind::Factory
        } else {
            WrapperKind::Class
        };
        Some(Wrapper {
            name,
            kind,
            module: None,
            callee: a.range(c.callee),
            range: a.range(node),
            map,
            open: parens.start..parens.start + 1,
            close: parens.end.saturating_sub(1)..parens.end,
            literal: None,
            flow: a.flow(node, scope, 0),
            object,
        })
    }

    fn carries(&self, parent: &Kind, child: NodeId) -> bool {
        match parent {
            Kind::Tuple(_) | Kind::Set(_) | Kind::Binary { plus: true, .. } => true,
            Kind::Comprehension(c) => c.sequence && c.elements.contains(&child),
            _ => false,
        }
    }

    fn follows_parameters(&self) -> bool {
        true
    }
}

/// What Python's calls and attribute reads hold.
impl Analyzer<'_> {
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
}
