//! Values as the rules read them (literals, maps, names bound to them), and the typed wrappers
//! of the client packages.

use std::ops::Range;

use super::scope::{BindingKind, Resolution};
use super::{Analyzer, Class, MAX_DEPTH, parse_int, removal, siblings};
use crate::lang::ir::{ArgKind, Key, Kind, NodeId};
use crate::migration_facts::{
    CallKind, Entry, MapValue, NameValue, SharedConfig, Value, ValueKind, Wrapper, WrapperKind,
};

impl Analyzer<'_> {
    pub(super) fn value(&self, node: NodeId, scope: usize, depth: usize) -> Value {
        let kind = if depth > MAX_DEPTH {
            ValueKind::Other
        } else {
            self.value_kind(self.look_through(node), scope, depth)
        };
        Value {
            range: self.range(node),
            kind,
        }
    }

    fn value_kind(&self, node: NodeId, scope: usize, depth: usize) -> ValueKind {
        match self.kind(node) {
            Kind::Str(s) => ValueKind::Str(s.to_string()),
            Kind::Int(_) | Kind::Number => parse_int(self.src(node)).map_or(ValueKind::Other, ValueKind::Int),
            Kind::Negative(operand) if matches!(self.kind(*operand), Kind::Int(_) | Kind::Number) => {
                parse_int(self.src(*operand)).map_or(ValueKind::Other, |n| ValueKind::Int(-n))
            }
            Kind::Bool(b) => ValueKind::Bool(*b),
            Kind::Dict(_) => ValueKind::Map(Box::new(self.dict_map(node, scope, depth))),
            Kind::List(l) => {
                ValueKind::List(l.items.iter().map(|&e| self.value(e, scope, depth + 1)).collect())
            }
            Kind::Call(_) => self.lang.call_value(self, node, scope, depth),
            Kind::Name(name) if !self.lang.reserved_names().contains(&&**name) => {
                ValueKind::Name(Box::new(self.name_value(node, scope, depth)))
            }
            _ => ValueKind::Other,
        }
    }

    fn name_value(&self, node: NodeId, scope: usize, depth: usize) -> NameValue {
        let name = self.tree.name(node).unwrap_or_default().to_string();
        let mut out = NameValue {
            name: name.clone(),
            value: None,
            statement: None,
            single_use: false,
            shared: None,
            grown: false,
            text_parameter: false,
        };
        // The binding this use sees, and how many the name has, found once for every question
        // below.
        let resolved = match self.scopes.names.resolve(&name, scope, self.start(node)) {
            Resolution::Bound(binding, count) => Some((binding, count)),
            _ => None,
        };
        // The binding's scope is the read's, or holds the blocks the read is nested in (a
        // JavaScript `if` or `try` block under a `let`).
        if let Some((binding, count)) = resolved
            && (binding.scope == scope || self.scopes.names.runs_in_place(scope, binding.scope))
            && let BindingKind::Assign { value, statement } = binding.kind
        {
            let nested = binding.scope != scope;
            let scope = binding.scope;
            out.value = Some(self.value(value, scope, depth + 1));
            out.statement = statement.map(|s| self.range(s));
            let list = matches!(
                out.value,
                Some(Value {
                    kind: ValueKind::List(_),
                    ..
                })
            );
            // Bound once and read once; or bound by a statement of the same statement list as
            // the read, before it (a notebook's cell rebinding `contents` for its own request):
            // then no other binding is between them (the read sees this one), and the reads
            // below say whether another sees it too.
            let only_here = statement.is_some_and(|s| {
                !nested && count == 1 && self.scopes.names.uses_in(scope, &name) == 1
                    || !nested && self.straight_before(s, node)
                    || self.runs_before(&name, scope, s, node)
            }) && !(scope == 0 && self.elsewhere.contains(&name));
            // The reads that see the binding, found once for both questions below.
            if list || only_here {
                let (reads, opaque) = self.reads_of_binding(&name, &binding, node);
                // A list changed after it is bound (`parts.append(part)`) holds what interlint
                // does not read: its items are not all known.
                out.grown = list && (!opaque.is_empty() || self.list_changed(&reads));
                // No other read sees the binding, in a nested block or function either
                // (`contents.push(part)` in an `if`).
                out.single_use = only_here && reads.is_empty() && opaque.is_empty();
            }
        }
        // A module's string constant read in a function (`PROMPT = "..."` bound once, at the top
        // level): its value, which the function cannot rebind without saying `global`.
        if out.value.is_none()
            && let Some((binding, 1)) = resolved
            && binding.scope == 0
            && scope != 0
            && let BindingKind::Assign { value, .. } = binding.kind
            && matches!(self.kind(self.look_through(value)), Kind::Str(_))
        {
            out.value = Some(self.value(value, 0, depth + 1));
        }
        // A file uploaded, then fetched again while the service processes it (`f =
        // client.files.get(name=f.name)`): still the file uploaded, whose path tells its kind.
        if let Some(upload) = self.refreshed_upload(&name, scope) {
            out.value = Some(self.value(upload, scope, depth + 1));
            out.statement = None;
            out.single_use = false;
        }
        // A parameter bound once (never assigned again) whose annotation says it is a string.
        if let Some((binding, 1)) = resolved
            && let BindingKind::Parameter { annotation } = binding.kind
        {
            out.text_parameter = matches!(self.src(annotation).trim(), "str" | "string");
        }
        // Only a `config=` keyword argument is looked at: Python's (difference 11).
        if !out.single_use && depth == 0 {
            out.shared = self.shared_config(&name, node, scope).map(Box::new);
        }
        out
    }

    /// Whether the binding `statement` of `name` runs each time before `read` does, with no
    /// other binding of the name between them: it stands in a statement list that holds, after
    /// it, a statement in which `read` is nested (in branches, loops or `with` blocks, not in a
    /// function), and that statement binds the name nowhere (a loop rebinding it after the
    /// read would be seen on its next round). A streamlit page's `config = ...` read in the
    /// `if` and `with` blocks under it.
    fn runs_before(&self, name: &str, scope: usize, statement: NodeId, read: NodeId) -> bool {
        let Some(held) = self.holder(statement) else {
            return false;
        };
        let mut reading = self.enclosing_statement(read);
        while let Some(current) = reading {
            if self.holder(current) == Some(held) {
                let span = self.range(current);
                return self.start(statement) < span.start
                    && self
                        .scopes
                        .names
                        .all_bindings(name, scope)
                        .iter()
                        // A binding takes effect where its statement ends: the end of the span too.
                        .all(|b| !(span.start..=span.end).contains(&b.start));
            }
            reading = self.parent(current).and_then(|p| self.enclosing_statement(p));
        }
        false
    }

    /// Whether `statement` stands in the statement list that holds the statement `read` is in,
    /// before it: it runs each time just before the read does, in a loop too.
    fn straight_before(&self, statement: NodeId, read: NodeId) -> bool {
        let Some(reading) = self.enclosing_statement(read) else {
            return false;
        };
        reading != statement
            && self.start(statement) < self.start(reading)
            && self
                .holder(statement)
                .is_some_and(|h| self.holder(reading) == Some(h))
    }

    /// The upload `name` is bound to in `scope` when every other binding of it there fetches the
    /// same file again by its name (`f = client.files.get(name=f.name)`, the legacy
    /// `genai.get_file(f.name)`, `await ai.files.get({ name: f.name })`).
    fn refreshed_upload(&self, name: &str, scope: usize) -> Option<NodeId> {
        let bindings = self.scopes.names.all_bindings(name, scope);
        if bindings.len() < 2 {
            return None;
        }
        let mut upload = None;
        for binding in bindings {
            let BindingKind::Assign { value, .. } = binding.kind else {
                return None;
            };
            let written = self.src(value);
            let call = written.strip_prefix("await").unwrap_or(written).trim_start();
            if crate::migration_facts::upload_call(written).is_some() {
                if upload.replace(value).is_some() {
                    return None;
                }
            } else if !((call.contains("files.get(") || call.contains("get_file("))
                && call.ends_with(')')
                && call.contains(&format!("{name}.name")))
            {
                return None;
            }
        }
        upload
    }

    /// Whether one of `reads` (of a name bound to a list) changes the list in place: a call of a
    /// list method that adds or replaces items, or an item assigned.
    fn list_changed(&self, reads: &[(NodeId, usize)]) -> bool {
        const CHANGES: &[&str] = &[
            "append",
            "extend",
            "insert",
            "push",
            "unshift",
            "splice",
            "__setitem__",
        ];
        reads.iter().any(|&(load, _)| {
            let Some(parent) = self.parent(load) else {
                return false;
            };
            match self.kind(parent) {
                Kind::Member(m) if m.object == load && CHANGES.contains(&&*m.name.name) => true,
                Kind::Index { object, .. } if *object == load => self
                    .parent(parent)
                    .is_some_and(|p| matches!(self.kind(p), Kind::Assign(a) if a.targets.contains(&parent))),
                _ => false,
            }
        })
    }

    /// `load` is the value of a `config=` keyword argument.
    fn is_config_argument(&self, load: NodeId) -> bool {
        let Some(call) = self.parent(load) else {
            return false;
        };
        let Kind::Call(c) = self.kind(call) else {
            return false;
        };
        c.args
            .iter()
            .any(|a| a.value == load && matches!(&a.kind, ArgKind::Keyword(k) if &*k.name == "config"))
    }

    /// The config `name` (read at `node`) when it is bound once, in this scope or the module's,
    /// to a config literal, and every read of it is the `config` argument of a create-content
    /// call that names the client's `models`.
    fn shared_config(&self, name: &str, node: NodeId, scope: usize) -> Option<SharedConfig> {
        if !self.is_config_argument(node) {
            return None;
        }
        let Resolution::Bound(binding, 1) = self.scopes.names.resolve(name, scope, self.start(node)) else {
            return None;
        };
        if binding.scope != scope && binding.scope != 0 || binding.scope == 0 && self.elsewhere.contains(name)
        {
            return None;
        }
        let BindingKind::Assign {
            value,
            statement: Some(statement),
        } = binding.kind
        else {
            return None;
        };
        let value = self.value(value, binding.scope, 1);
        if !value.as_map().is_some_and(|m| m.complete) {
            return None;
        }
        let mut calls = Vec::new();
        for &(load, load_scope) in self.scopes.loads.get(name)? {
            match self.scopes.names.resolve(name, load_scope, self.start(load)) {
                Resolution::Bound(b, _) if b.start == binding.start && b.scope == binding.scope => {}
                Resolution::Bound(..) | Resolution::Unbound => continue,
                Resolution::Opaque => return None,
            }
            if !self.is_config_argument(load) {
                return None;
            }
            let call = self.parent(load)?;
            match self.call_kind(call, load_scope, 0) {
                Some((CallKind::Create | CallKind::CreateStream, Some(_), _)) => calls.push(self.range(call)),
                _ => return None,
            }
        }
        (calls.len() > 1).then(|| SharedConfig {
            value,
            statement: self.range(statement),
            calls,
        })
    }

    /// A dict or object literal's entries; a spread, a method or a computed key makes it
    /// incomplete.
    pub(super) fn dict_map(&self, node: NodeId, scope: usize, depth: usize) -> MapValue {
        let mut map = MapValue {
            entries: Vec::new(),
            complete: true,
            wrapper: None,
        };
        let Kind::Dict(d) = self.kind(node) else {
            return map;
        };
        let container = self.range(node);
        let elements: Vec<Range<usize>> = d.items.iter().map(|e| e.span.range()).collect();
        for (i, entry) in d.items.iter().enumerate() {
            let (key, key_range) = match &entry.key {
                Key::Str(k) => (k.name.to_string(), k.span.range()),
                // Only JavaScript writes a key as a name.
                Key::Name(k) if k.span == entry.span => {
                    // `{ model }`: the key and the value are one identifier.
                    map.entries.push(Entry {
                        key: k.name.to_string(),
                        key_range: k.span.range(),
                        range: k.span.range(),
                        value: crate::migration_facts::Value {
                            range: k.span.range(),
                            kind: ValueKind::Name(Box::new(self.name_value(entry.value, scope, depth + 1))),
                        },
                        keyword: false,
                        removal: removal(&elements, i, container.clone()),
                        siblings: siblings(&elements, i, container.clone()),
                    });
                    continue;
                }
                Key::Name(k) => (k.name.to_string(), k.span.range()),
                Key::Computed(k)
                    if self.lang.numeric_keys_are_names()
                        && matches!(self.kind(*k), Kind::Int(_) | Kind::Number)
                        && self.start(*k) == entry.span.start as usize =>
                {
                    (self.src(*k).to_string(), self.range(*k))
                }
                _ => {
                    map.complete = false;
                    continue;
                }
            };
            map.entries.push(Entry {
                key,
                key_range,
                range: entry.span.range(),
                value: self.value(entry.value, scope, depth + 1),
                keyword: false,
                removal: removal(&elements, i, container.clone()),
                siblings: siblings(&elements, i, container.clone()),
            });
        }
        map
    }

    /// A Python call's arguments as a map, when they are all keywords.
    pub(super) fn keyword_map(
        &self,
        call: NodeId,
        scope: usize,
        depth: usize,
        wrapper: Option<String>,
    ) -> Option<MapValue> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let elements: Vec<Range<usize>> = c.args.iter().map(|a| a.span.range()).collect();
        let mut map = MapValue {
            entries: Vec::new(),
            complete: true,
            wrapper,
        };
        for i in 0..c.args.len() {
            match self.keyword_entry(c, &elements, i, scope, depth + 1) {
                Some(entry) => map.entries.push(entry),
                None => map.complete = false,
            }
        }
        Some(map)
    }

    /// Argument `index` of a Python call as an entry, when it is a keyword argument; `elements`
    /// are the ranges of all its arguments, for the entry's removal and neighbours.
    pub(super) fn keyword_entry(
        &self,
        call: &crate::lang::ir::Call,
        elements: &[Range<usize>],
        index: usize,
        scope: usize,
        depth: usize,
    ) -> Option<Entry> {
        let arg = call.args.get(index)?;
        let ArgKind::Keyword(name) = &arg.kind else {
            return None;
        };
        let parens = call.parens.range();
        Some(Entry {
            key: name.name.to_string(),
            key_range: name.span.range(),
            range: arg.span.range(),
            value: self.value(arg.value, scope, depth),
            keyword: true,
            removal: removal(elements, index, parens.clone()),
            siblings: siblings(elements, index, parens),
        })
    }

    // ----- typed wrappers -----

    /// `GenerateContentConfig`, `Part.from_text`: the name of the typed wrapper a Python call
    /// builds.
    pub(super) fn wrapper_name(&self, call: NodeId, scope: usize) -> Option<String> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let function = c.callee;
        match self.classify(function, scope, 0) {
            Class::Module(path) => wrapper_of_path(&path),
            // A snippet (a documentation code block) that uses the client's `types` module
            // without importing it: `types` is bound nowhere.
            _ => {
                let rest = self.src(function).strip_prefix("types.")?;
                let unbound = matches!(
                    self.scopes.names.resolve("types", scope, self.start(function)),
                    Resolution::Unbound
                ) && !self.env.contains_key("types");
                unbound
                    .then(|| wrapper_of_path(&format!("google.genai.types.{rest}")))
                    .flatten()
            }
        }
    }

    /// `Type.STRING`, `SchemaType.OBJECT`: a member of an enum of a JavaScript client package.
    pub(super) fn enum_member(&self, node: NodeId, scope: usize) -> Option<Wrapper> {
        let Kind::Member(m) = self.kind(node) else {
            return None;
        };
        // `SomeClass.method(...)` is a call, not an enum value.
        if self
            .parent(node)
            .is_some_and(|p| matches!(self.kind(p), Kind::Call(c) if !c.new && c.callee == node))
        {
            return None;
        }
        let Class::Module(path) = self.classify(m.object, scope, 0) else {
            return None;
        };
        let (module, name) = path.split_once('#')?;
        if name.contains('.') {
            return None;
        }
        let end = self.end(node);
        Some(Wrapper {
            name: name.to_string(),
            kind: WrapperKind::Enum,
            module: Some(module.to_string()),
            callee: self.range(node),
            range: self.range(node),
            map: None,
            open: end..end,
            close: end..end,
            literal: None,
            flow: self.flow(node, scope, 0),
            object: false,
        })
    }

    /// The wrapper is bound to a name whose attributes are read or set (`cfg.seed = 0`, `cfg.seed`
    /// in a function that sees the name): a dict would not do.
    pub(super) fn used_as_object(&self, wrapper: NodeId, scope: usize) -> bool {
        let Some(assignment) = self.parent(wrapper) else {
            return false;
        };
        let Kind::Assign(a) = self.kind(assignment) else {
            return false;
        };
        let Some(name) = a.targets.first().and_then(|&t| self.tree.name(t)) else {
            return false;
        };
        // Read in its own scope, or in a function's that sees this binding (`CONFIG.seed` in a
        // function of the module that binds `CONFIG`).
        self.scopes.members.iter().any(|&(member, s)| {
            matches!(self.kind(member), Kind::Member(m) if self.tree.name(m.object) == Some(name))
                && (s == scope
                    || matches!(
                        self.scopes.names.resolve(name, s, self.start(member)),
                        Resolution::Bound(binding, _)
                            if matches!(binding.kind, BindingKind::Assign { value, .. } if value == wrapper)
                    ))
        })
    }
}

pub(super) fn is_client_path(path: &str) -> bool {
    path.split('.').any(|p| p == "genai" || p == "generativeai")
}

/// The typed wrapper a dotted path names: a class of a client package's `types` module
/// (`google.genai.types.Part` → `Part`, with `Part.from_text` for its factories), or the legacy
/// package's `GenerationConfig`.
fn wrapper_of_path(path: &str) -> Option<String> {
    if !is_client_path(path) {
        return None;
    }
    let parts: Vec<&str> = path.split('.').collect();
    let at = parts.iter().position(|p| *p == "types");
    let rest: Vec<&str> = match at {
        Some(i) => parts[i + 1..].to_vec(),
        None => {
            let last = parts.last()?;
            return (*last == "GenerationConfig").then(|| last.to_string());
        }
    };
    let first = rest.first()?;
    if !first.starts_with(|c: char| c.is_ascii_uppercase()) || rest.len() > 2 {
        return None;
    }
    if rest.len() == 2 && !rest[1].starts_with("from_") {
        return None;
    }
    Some(rest.join("."))
}
