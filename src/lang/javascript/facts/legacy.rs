//! The legacy client package's units ([`LegacyUnit`]) in JavaScript and TypeScript: one binding
//! of `GoogleGenerativeAI` (imported or required from `@google/generative-ai`), the clients made
//! with it, their models and the models' `generateContent` calls, and the reads of the results.
//! A unit is migrated as a whole or not at all: once the import names the current package, no
//! legacy name may be left.

use std::ops::Range;

use tree_sitter::Node;

use super::super::scope::{BindingKind, Resolution, children};
use super::{Analyzer, string_content, string_value, unwrap};
use crate::api::{Entry, LegacyRequest, LegacyUnit, MapValue, ValueKind, line_removal};
use crate::lang::bindings::Binding;
use crate::lang::treesitter::elements;

/// The legacy package; its sub-paths (`/server`) belong to it too.
/// Names the legacy package exports that the current package exports alike (the same enum
/// values): an import of the class may keep them.
const KEPT_NAMES: &[&str] = &["HarmCategory", "HarmBlockThreshold"];

const LEGACY_PACKAGE: &str = "@google/generative-ai";
const LEGACY_CLASS: &str = "GoogleGenerativeAI";
const CURRENT_PACKAGE: &str = "@google/genai";
const CURRENT_CLASS: &str = "GoogleGenAI";

/// Parameters of `getGenerativeModel` that make the request's config (besides `model`).
const SETTINGS: &[&str] = &[
    "generationConfig",
    "systemInstruction",
    "safetySettings",
    "tools",
    "toolConfig",
];

type Outcome<T> = Result<T, String>;

/// A name bound by `const name = value` (one declarator), with its binding.
struct Constant<'t> {
    name: String,
    start: usize,
    scope: usize,
    statement: Node<'t>,
}

/// A legacy model (`getGenerativeModel({...})`) and its requests.
struct Model<'t> {
    call: Node<'t>,
    /// The client variable it is made through.
    client: String,
    statement: Option<Node<'t>>,
    requests: Vec<Node<'t>>,
    /// Its `countTokens(...)` calls.
    counts: Vec<Node<'t>>,
    /// Its `generateContentStream(...)` calls, which block the unit.
    streams: Vec<std::ops::Range<usize>>,
    scope: usize,
}

impl<'t> Analyzer<'_, 't> {
    /// Every binding of the legacy client class, as a unit.
    pub(super) fn legacy_units(&self) -> Vec<LegacyUnit> {
        let mut keys: Vec<&(usize, String)> = self.scopes.names.bindings.keys().collect();
        keys.sort();
        let mut units = Vec::new();
        for key in keys {
            let Some(list) = self.scopes.names.bindings.get(key) else {
                continue;
            };
            for binding in list {
                let Some(source) = self.legacy_source(binding.kind) else {
                    continue;
                };
                if self.imported_name(binding.kind) != Some(LEGACY_CLASS) || source != LEGACY_PACKAGE {
                    continue;
                }
                let mut unit = LegacyUnit::default();
                if let Err(reason) = self.legacy_unit(&key.1, binding, list.len(), &mut unit) {
                    unit.blocked = Some(reason);
                }
                units.push(unit);
            }
        }
        units
    }

    /// The legacy package (or a sub-path of it) a binding imports from.
    fn legacy_source(&self, kind: BindingKind<'t>) -> Option<String> {
        let module = match kind {
            BindingKind::Import { source, .. } => string_value(source, self.text)?,
            BindingKind::Destructure { value, .. } => {
                let call = unwrap(value);
                (call.kind() == "call_expression")
                    .then(|| self.required_module(call))
                    .flatten()?
            }
            _ => return None,
        };
        (module == LEGACY_PACKAGE || module.starts_with(&format!("{LEGACY_PACKAGE}/"))).then_some(module)
    }

    /// The exported name a binding imports (`GoogleGenerativeAI` of `{ GoogleGenerativeAI as G }`).
    fn imported_name(&self, kind: BindingKind<'t>) -> Option<&str> {
        match kind {
            BindingKind::Import { name, .. } => name.map(|n| self.src(n)),
            BindingKind::Destructure { key, .. } => Some(self.src(key)),
            _ => None,
        }
    }

    fn legacy_unit(
        &self,
        name: &str,
        binding: &Binding<BindingKind<'t>>,
        bindings: usize,
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        let import = self.import_rewrite(binding.kind);
        // The clients, their models and the requests are found first, so that a blocked unit
        // still knows its calls.
        let mut problem: Option<String> = None;
        let mut clients = Vec::new();
        for (load, _) in self.loads_of(name, binding.start, binding.scope) {
            match self.client_of(load) {
                Ok(client) => clients.push(client),
                Err(why) => {
                    problem.get_or_insert(why);
                }
            }
        }
        let mut models = Vec::new();
        for (_, constant) in &clients {
            for (load, scope) in self.loads_of(&constant.name, constant.start, constant.scope) {
                match self.model_of(load, scope, &constant.name) {
                    Ok(model) => {
                        unit.calls.extend(model.requests.iter().map(|r| r.byte_range()));
                        models.push(model);
                    }
                    Err((why, calls)) => {
                        unit.calls.extend(calls);
                        problem.get_or_insert(why);
                    }
                }
            }
        }
        if let Some(why) = problem {
            return Err(why);
        }
        let (statement, new_import) = import?;
        unit.import = statement.byte_range();
        if bindings > 1 {
            return Err(format!("`{name}` is bound more than once"));
        }
        if let Some(other) = self.other_legacy_name(statement, binding) {
            return Err(format!(
                "`{other}` of the legacy package is used too, which has no automatic rewrite"
            ));
        }
        // Every load of the name is a client's creation (its own or another unit's); a word
        // more is a type or a string naming it.
        let loads = self.scopes.loads.get(name).map_or(0, Vec::len);
        if self.word_uses(name, &self.class_statements()) > loads {
            return Err(format!("`{name}` is also used as a type or in a string"));
        }
        let renamed = name == LEGACY_CLASS;
        unit.new_import = new_import;
        let mut clients = clients.into_iter();
        let Some((first, constant)) = clients.next() else {
            return Err(format!("no client is made with `{name}`"));
        };
        unit.client_name = constant.name.clone();
        unit.client = self.client_edit(first, name, renamed)?;
        for (other, _) in clients {
            unit.replacements.push(self.client_edit(other, name, renamed)?);
        }
        for model in &models {
            if let Some(statement) = model.statement {
                if self.has_comment(statement.byte_range()) {
                    return Err("a comment in the model's definition would be lost".into());
                }
                unit.removals
                    .push(line_removal(self.text, statement.byte_range()));
            }
            for &count in &model.counts {
                let replacement = self.count_call(model, count)?;
                unit.replacements.push((count.byte_range(), replacement));
            }
            for &request in &model.requests {
                let (legacy, inlined) = self.legacy_request(model, request)?;
                unit.requests.push(legacy);
                unit.removals.extend(inlined);
                self.result_reads(request, unit)?;
            }
        }
        Ok(())
    }

    /// The import statement (or `require` declaration) and its text naming the current package.
    fn import_rewrite(&self, kind: BindingKind<'t>) -> Outcome<(Node<'t>, String)> {
        let (statement, key, source) = match kind {
            BindingKind::Import {
                source,
                name: Some(name),
            } => {
                let statement = ancestor(name, "import_statement").ok_or("the import is not a statement")?;
                let clause = children(statement)
                    .find(|c| c.kind() == "import_clause")
                    .ok_or("the import has no clause")?;
                let parts: Vec<Node> = children(clause).collect();
                let [named] = parts.as_slice() else {
                    return Err("the import statement imports other names too".into());
                };
                if named.kind() != "named_imports" {
                    return Err("the import statement imports other names too".into());
                }
                // Beside the class, only names the current package exports alike may stay.
                for specifier in elements(*named) {
                    let imported = specifier.child_by_field_name("name").map(|n| self.src(n));
                    if imported != Some(LEGACY_CLASS) && !imported.is_some_and(|n| KEPT_NAMES.contains(&n)) {
                        return Err(format!(
                            "the import statement imports `{}` too, which the current package does not export alike",
                            imported.unwrap_or_else(|| self.src(specifier))
                        ));
                    }
                }
                if self.src(statement).starts_with("import type") {
                    return Err("the import imports types only".into());
                }
                (statement, name, source)
            }
            BindingKind::Destructure { value, key } => {
                let pattern = ancestor(key, "object_pattern").ok_or("the require is not destructured")?;
                let declarator = pattern
                    .parent()
                    .filter(|d| d.kind() == "variable_declarator")
                    .ok_or("the require is not a declaration")?;
                let statement = declarator.parent().ok_or("the require is not a statement")?;
                let call = unwrap(value);
                if elements(pattern).len() != 1
                    || elements(statement).len() != 1
                    || call != value
                    || statement.parent().is_some_and(|p| p.kind() == "export_statement")
                {
                    return Err("the require statement binds other names too".into());
                }
                let source = self
                    .arguments(call)
                    .first()
                    .copied()
                    .ok_or("the require has no argument")?;
                (statement, key, source)
            }
            _ => return Err("the import is not one interlint can rewrite".into()),
        };
        // The exported name and the package are replaced within the statement as written.
        let start = statement.start_byte();
        let module = string_content(source);
        let mut edits = [
            (key.start_byte() - start..key.end_byte() - start, CURRENT_CLASS),
            (module.start - start..module.end - start, CURRENT_PACKAGE),
        ];
        edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        let mut text = self.src(statement).to_string();
        for (range, replacement) in edits {
            if text.get(range.clone()).is_none() {
                return Err("the import is not one interlint can rewrite".into());
            }
            text.replace_range(range, replacement);
        }
        Ok((statement, text))
    }

    /// The loads of `name` that see the binding starting at `start` in `scope`.
    fn loads_of(&self, name: &str, start: usize, scope: usize) -> Vec<(Node<'t>, usize)> {
        self.scopes
            .loads
            .get(name)
            .map(|loads| {
                loads
                    .iter()
                    .copied()
                    .filter(|(node, s)| {
                        matches!(
                            self.scopes.names.resolve(name, *s, node.start_byte()),
                            Resolution::Bound(b, _) if b.start == start && b.scope == scope
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `const name = value` with one declarator, not exported: the name's binding.
    fn constant(&self, value: Node<'t>) -> Option<Constant<'t>> {
        let mut top = value;
        while let Some(parent) = top.parent().filter(|p| {
            matches!(
                p.kind(),
                "await_expression" | "parenthesized_expression" | "as_expression" | "non_null_expression"
            )
        }) {
            top = parent;
        }
        let declarator = top
            .parent()
            .filter(|d| d.kind() == "variable_declarator" && d.child_by_field_name("value") == Some(top))?;
        let name = declarator
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier")?;
        let statement = declarator
            .parent()
            .filter(|s| s.kind() == "lexical_declaration")?;
        if statement.child(0).map(|c| c.kind()) != Some("const")
            || elements(statement).len() != 1
            || statement.parent().is_some_and(|p| p.kind() == "export_statement")
        {
            return None;
        }
        let name_text = self.src(name).to_string();
        // The declaration's binding, the only one of the name in its scope.
        let (scope, list) = self
            .scopes
            .names
            .bindings
            .iter()
            .find(|((_, n), list)| *n == name_text && list.iter().any(|b| b.start == name.start_byte()))
            .map(|((scope, _), list)| (*scope, list))?;
        if list.len() != 1 {
            return None;
        }
        Some(Constant {
            name: name_text,
            start: name.start_byte(),
            scope,
            statement,
        })
    }

    /// A load of the legacy class: `const genAI = new GoogleGenerativeAI(KEY)`.
    fn client_of(&self, load: Node<'t>) -> Outcome<(Node<'t>, Constant<'t>)> {
        let line = load.start_position().row + 1;
        let creation = load
            .parent()
            .filter(|p| p.kind() == "new_expression" && p.child_by_field_name("constructor") == Some(load))
            .ok_or_else(|| {
                format!(
                    "`{}` is used otherwise than to make a client (line {line})",
                    self.src(load)
                )
            })?;
        match self.constant(creation) {
            Some(constant) => Ok((creation, constant)),
            None => Err(match creation.parent() {
                Some(p) if p.kind() == "assignment_expression" => format!(
                    "the client of line {line} is stored in `{}`",
                    p.child_by_field_name("left").map_or("", |l| self.src(l))
                ),
                _ => format!("the client of line {line} is not bound by `const` to a name of its own"),
            }),
        }
    }

    /// `new GoogleGenerativeAI(KEY)` → `new GoogleGenAI({ apiKey: KEY })`.
    fn client_edit(&self, creation: Node<'t>, name: &str, renamed: bool) -> Outcome<(Range<usize>, String)> {
        if self.has_comment(creation.byte_range()) {
            return Err("a comment in the client's creation would be lost".into());
        }
        let arguments = creation
            .child_by_field_name("arguments")
            .map(elements)
            .unwrap_or_default();
        let options = match arguments.as_slice() {
            [] => "{}".to_string(),
            [key] if key.kind() != "spread_element" => match self.src(*key) {
                "apiKey" => "{ apiKey }".to_string(),
                key => format!("{{ apiKey: {key} }}"),
            },
            _ => return Err("the client is made with more than an API key".into()),
        };
        let class = if renamed { CURRENT_CLASS } else { name };
        Ok((creation.byte_range(), format!("new {class}({options})")))
    }

    /// A load of a client: `client.getGenerativeModel({...})`, bound to a name used only by
    /// `generateContent` calls or called at once; else why not, with the calls found.
    fn model_of(
        &self,
        load: Node<'t>,
        scope: usize,
        client: &str,
    ) -> Result<Model<'t>, (String, Vec<Range<usize>>)> {
        let line = load.start_position().row + 1;
        let (method, call) = self.method_call(load);
        let call = match (method, call) {
            (Some("getGenerativeModel"), Some(call)) => call,
            (Some("getGenerativeModelFromCachedContent"), call) => {
                return Err((
                    format!("the model of line {line} is made from a cached content"),
                    call.map(|c| self.requests_of(c)).unwrap_or_default(),
                ));
            }
            (Some(method), _) => {
                return Err((
                    format!("the client `{client}` is also used for `{method}`"),
                    Vec::new(),
                ));
            }
            _ => {
                return Err((
                    format!("the client `{client}` is passed on or returned (line {line})"),
                    Vec::new(),
                ));
            }
        };
        let mut model = Model {
            call,
            client: client.to_string(),
            statement: None,
            requests: Vec::new(),
            counts: Vec::new(),
            streams: Vec::new(),
            scope,
        };
        // Chained: `client.getGenerativeModel({...}).generateContent(x)`.
        let outer = call
            .parent()
            .filter(|p| p.kind() == "member_expression" && p.child_by_field_name("object") == Some(call));
        if let Some(outer) = outer {
            let method = outer.child_by_field_name("property").map(|p| self.src(p));
            return match (method, called(outer)) {
                (Some("generateContent"), Some(request)) => {
                    model.requests.push(request);
                    Ok(model)
                }
                (Some("countTokens"), Some(count)) => {
                    model.counts.push(count);
                    Ok(model)
                }
                (Some(method), _) => Err((
                    format!("the model of line {line} is used for `{method}`"),
                    Vec::new(),
                )),
                _ => Err((
                    format!("the model of line {line} is used in a way not followed"),
                    Vec::new(),
                )),
            };
        }
        let Some(constant) = self.constant(call) else {
            return Err((
                match call.parent() {
                    Some(p) if p.kind() == "assignment_expression" => format!(
                        "the model of line {line} is stored in `{}`",
                        p.child_by_field_name("left").map_or("", |l| self.src(l))
                    ),
                    _ => format!("the model of line {line} is not bound by `const` to a name of its own"),
                },
                Vec::new(),
            ));
        };
        model.statement = Some(constant.statement);
        let name = &constant.name;
        let mut problem = None;
        for (load, _) in self.loads_of(name, constant.start, constant.scope) {
            match self.method_call(load) {
                (Some("generateContent"), Some(request)) => model.requests.push(request),
                (Some("countTokens"), Some(count)) => model.counts.push(count),
                (Some(method), call) => {
                    // The call is the unit's too: its finding says why the unit is not migrated.
                    if method == "generateContentStream"
                        && let Some(call) = call
                    {
                        model.streams.push(call.byte_range());
                    }
                    problem.get_or_insert(format!(
                        "the model object `{name}` (line {line}) is used for `{method}`, which has no \
                         automatic rewrite"
                    ));
                }
                (None, _) => {
                    problem.get_or_insert(format!(
                        "the model object `{name}` is passed on or returned (line {})",
                        load.start_position().row + 1
                    ));
                }
            }
        }
        match problem {
            Some(why) => Err((
                why,
                model
                    .requests
                    .iter()
                    .map(|r| r.byte_range())
                    .chain(model.streams.iter().cloned())
                    .collect(),
            )),
            None => Ok(model),
        }
    }

    /// `model.countTokens(x)` → `client.models.countTokens({ model: "m", contents: x })`.
    fn count_call(&self, model: &Model<'t>, count: Node<'t>) -> Outcome<String> {
        let parameters = match self.arguments(model.call).as_slice() {
            [only] if unwrap(*only).kind() == "object" => unwrap(*only),
            _ => return Err("the model's parameters are not an object literal".into()),
        };
        let map = self.object(parameters, model.scope, 0);
        let model_value = map
            .entries
            .iter()
            .find(|e| e.key == "model")
            .map(|e| &e.value)
            .ok_or("the model is not named")?;
        let (model_text, _) = self.model_text(model_value)?;
        let arguments = count
            .child_by_field_name("arguments")
            .ok_or("`countTokens` has no arguments")?;
        if self.has_comment(arguments.byte_range()) {
            return Err("a comment in the arguments of `countTokens` would be lost".into());
        }
        let contents = match self.arguments(count).as_slice() {
            [only] if !matches!(unwrap(*only).kind(), "object" | "spread_element") => self.src(*only),
            _ => return Err("`countTokens` is not given exactly the contents".into()),
        };
        Ok(format!(
            "{}.models.countTokens({{ model: {model_text}, contents: {contents} }})",
            model.client
        ))
    }

    /// For `object.method(...)`: the method's name and the call, as far as they are there.
    fn method_call(&self, object: Node<'t>) -> (Option<&str>, Option<Node<'t>>) {
        let member = object
            .parent()
            .filter(|p| p.kind() == "member_expression" && p.child_by_field_name("object") == Some(object));
        let method = member
            .and_then(|m| m.child_by_field_name("property"))
            .map(|p| self.src(p));
        (method, member.and_then(called))
    }

    /// The model as the new call writes it, and its id when it is a literal.
    fn model_text(&self, value: &crate::api::Value) -> Outcome<(String, Option<String>)> {
        let written = self.text.get(value.range.clone()).unwrap_or_default();
        match &value.kind {
            ValueKind::Str(id) => crate::api::legacy_model_text(Some(id), written, true),
            _ => crate::api::legacy_model_text(None, written, false),
        }
    }

    /// A legacy request with the model's settings merged, and the bindings its config inlines.
    fn legacy_request(
        &self,
        model: &Model<'t>,
        request: Node<'t>,
    ) -> Outcome<(LegacyRequest, Vec<Range<usize>>)> {
        let function = request
            .child_by_field_name("function")
            .ok_or("the request has no callee")?;
        if self.has_comment(function.byte_range()) {
            return Err("a comment in the model's parameters would be lost".into());
        }
        let parameters = match self.arguments(model.call).as_slice() {
            [only] if unwrap(*only).kind() == "object" => unwrap(*only),
            [_] => return Err("the model's parameters are not an object literal".into()),
            _ => return Err("the model is given request options (`apiVersion`, `baseUrl`, ...)".into()),
        };
        let map = self.object(parameters, model.scope, 0);
        if !map.complete {
            return Err("the model's parameters have a spread, a method or a computed key".into());
        }
        let mut model_value = None;
        let mut entries: Vec<Entry> = Vec::new();
        let mut inlined = Vec::new();
        for entry in map.entries {
            match entry.key.as_str() {
                "model" => model_value = Some(entry.value),
                "generationConfig" => {
                    let (map, statement) = match &entry.value.kind {
                        ValueKind::Map(map) => (map.as_ref().clone(), None),
                        ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
                            Some(ValueKind::Map(map)) => (
                                map.as_ref().clone(),
                                name.statement.clone().filter(|_| name.single_use),
                            ),
                            _ => {
                                return Err(format!(
                                    "`generationConfig` is `{}`, which is not bound to an object literal",
                                    name.name
                                ));
                            }
                        },
                        _ => return Err("`generationConfig` is not an object literal".into()),
                    };
                    if !map.complete {
                        return Err("the generation config has a spread, a method or a computed key".into());
                    }
                    entries.extend(map.entries);
                    inlined.extend(statement.map(|s| line_removal(self.text, s)));
                }
                "tools" | "safetySettings" => {
                    let list = match &entry.value.kind {
                        ValueKind::List(_) => true,
                        ValueKind::Name(name) => name
                            .value
                            .as_ref()
                            .is_some_and(|v| matches!(v.kind, ValueKind::List(_))),
                        _ => false,
                    };
                    if !list {
                        return Err(format!("`{}` is not an array interlint can read", entry.key));
                    }
                    entries.push(entry);
                }
                key if SETTINGS.contains(&key) => entries.push(entry),
                key => {
                    return Err(format!(
                        "the model is given `{key}`, which has no place in an interactions request"
                    ));
                }
            }
        }
        let model_value = model_value.ok_or("the model is not named")?;
        let (model_text, model_id) = self.model_text(&model_value)?;
        let arguments = request
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "arguments")
            .ok_or("the request's arguments are not a plain list")?;
        let contents = match elements(arguments).as_slice() {
            [only] if only.kind() == "spread_element" => {
                return Err("the request's arguments are spread from a variable".into());
            }
            [only] if unwrap(*only).kind() == "object" => {
                let request_map = self.object(unwrap(*only), model.scope, 0);
                match request_map.entries.as_slice() {
                    [entry] if request_map.complete && entry.key == "contents" => entry.value.clone(),
                    _ => {
                        let keys: Vec<String> = request_map
                            .entries
                            .iter()
                            .map(|e| format!("`{}`", e.key))
                            .collect();
                        return Err(format!(
                            "the request object has {}, not only `contents`",
                            if keys.is_empty() {
                                "no plain key".to_string()
                            } else {
                                keys.join(", ")
                            }
                        ));
                    }
                }
            }
            [only] => self.value(*only, model.scope, 0),
            [] => return Err("the request has no contents".into()),
            _ => return Err("the request is given request options".into()),
        };
        let contents_range = contents.range.clone();
        let spread = arguments
            .descendant_for_byte_range(contents_range.start, contents_range.end)
            .map(unwrap)
            .is_some_and(|node| {
                node.kind() == "array" && children(node).any(|c| c.kind() == "spread_element")
            });
        if spread {
            return Err("the contents are spread from a variable (`[prompt, ...parts]`)".into());
        }
        let inner = arguments.start_byte() + 1..arguments.end_byte().saturating_sub(1);
        if self.scopes.comments.iter().any(|c| {
            c.start >= inner.start
                && c.end <= inner.end
                && (c.end <= contents_range.start || c.start >= contents_range.end)
        }) {
            return Err("a comment inside the call's arguments would be lost".into());
        }
        let span = elements(arguments)
            .first()
            .map(|f| f.byte_range())
            .ok_or("the request has no arguments")?;
        let separator = if arguments.start_position().row != arguments.end_position().row {
            ",\n".to_string()
        } else {
            ", ".to_string()
        };
        Ok((
            LegacyRequest {
                call: request.byte_range(),
                callee: function.byte_range(),
                method: "interactions.create".to_string(),
                client: Some(model.client.clone()),
                arguments: span,
                parens: arguments.byte_range(),
                separator,
                model: model_text,
                contents,
                config: MapValue {
                    entries,
                    complete: true,
                    wrapper: None,
                },
                model_id,
                stream: false,
            },
            inlined,
        ))
    }

    /// The reads of a request's result: `(await model.generateContent(x)).response.text()`, or
    /// through `const result = await ...`, `result.response.text()` and
    /// `const response = [await] result.response`, `response.text()`; each answer read becomes
    /// the interaction's, any other read blocks the unit.
    fn result_reads(&self, request: Node<'t>, unit: &mut LegacyUnit) -> Outcome<()> {
        let line = request.start_position().row + 1;
        let awaited = request.parent().filter(|p| p.kind() == "await_expression");
        let Some(result) = awaited else {
            let returned = request
                .parent()
                .is_some_and(|p| matches!(p.kind(), "return_statement" | "arrow_function"));
            return Err(if returned {
                format!("the result of the request of line {line} is returned")
            } else {
                format!("the result of the request of line {line} is not awaited where it is made")
            });
        };
        let parent = result.parent().ok_or("the request has no context")?;
        match parent.kind() {
            "expression_statement" => Ok(()),
            "parenthesized_expression" => {
                let member = member_of(parent, self, "response").ok_or_else(|| {
                    format!("the result of the request of line {line} is read otherwise than as its text")
                })?;
                self.answer_read(member, parent.end_byte(), unit)
                    .ok_or_else(|| self.read_problem(member, line))
            }
            _ => {
                let Some(constant) = self.constant(request) else {
                    return Err(match parent.kind() {
                        "return_statement" | "arrow_function" => {
                            format!("the result of the request of line {line} is returned")
                        }
                        "variable_declarator" => {
                            format!(
                                "the result of the request of line {line} is destructured or not bound by `const`"
                            )
                        }
                        _ => format!("the result of the request of line {line} is passed on"),
                    });
                };
                let name = &constant.name;
                for (load, _) in self.loads_of(name, constant.start, constant.scope) {
                    let Some(member) = member_of(load, self, "response") else {
                        if self.harmless_use(load) {
                            continue;
                        }
                        return Err(format!(
                            "the result `{name}` is passed on or read otherwise than as its text (line {})",
                            load.start_position().row + 1
                        ));
                    };
                    if self.answer_read(member, load.end_byte(), unit).is_some() {
                        continue;
                    }
                    // `const response = [await] result.response;` then `response.text()`.
                    let Some(response) = self.constant(member) else {
                        return Err(self.read_problem(member, line));
                    };
                    unit.replacements
                        .push((load.end_byte()..member.end_byte(), String::new()));
                    for (read, _) in self.loads_of(&response.name, response.start, response.scope) {
                        let text = read
                            .parent()
                            .filter(|p| {
                                p.kind() == "member_expression"
                                    && p.child_by_field_name("object") == Some(read)
                            })
                            .and_then(|m| self.text_call(m));
                        match text {
                            Some(call) => unit.answers.push(read.end_byte()..call.end_byte()),
                            None if self.harmless_use(read) => {}
                            None => {
                                return Err(format!(
                                    "the response `{}` is passed on or read otherwise than as its text (line {})",
                                    response.name,
                                    read.start_position().row + 1
                                ));
                            }
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// The `generateContent` calls of a model bound by `const`, for a model not migrated.
    fn requests_of(&self, model: Node<'t>) -> Vec<Range<usize>> {
        let Some(constant) = self.constant(model) else {
            return Vec::new();
        };
        self.loads_of(&constant.name, constant.start, constant.scope)
            .into_iter()
            .filter_map(|(load, _)| member_of(load, self, "generateContent"))
            .filter_map(called)
            .map(|c| c.byte_range())
            .collect()
    }

    /// A use of a response that reads nothing of it: a truth test (`!response`,
    /// `if (response)`) or logging it (`console.error("...", response)`).
    fn harmless_use(&self, load: Node<'t>) -> bool {
        let Some(parent) = load.parent() else {
            return false;
        };
        match parent.kind() {
            "unary_expression" => parent.child_by_field_name("operator").map(|o| self.src(o)) == Some("!"),
            "parenthesized_expression" => parent.parent().is_some_and(|p| {
                p.kind() == "if_statement" && p.child_by_field_name("condition") == Some(parent)
            }),
            "arguments" => parent
                .parent()
                .and_then(|call| call.child_by_field_name("function"))
                .filter(|f| f.kind() == "member_expression")
                .and_then(|f| f.child_by_field_name("object"))
                .is_some_and(|o| o.kind() == "identifier" && self.src(o) == "console"),
            _ => false,
        }
    }

    /// `X.response.text()` at `X.response`: the answer read, from the end of `X`.
    fn answer_read(&self, response: Node<'t>, receiver_end: usize, unit: &mut LegacyUnit) -> Option<()> {
        let text = response.parent().filter(|p| {
            p.kind() == "member_expression" && p.child_by_field_name("object") == Some(response)
        })?;
        let call = self.text_call(text)?;
        unit.answers.push(receiver_end..call.end_byte());
        Some(())
    }

    /// `R.text()` at `R.text`: the call, without arguments.
    fn text_call(&self, member: Node<'t>) -> Option<Node<'t>> {
        if member.child_by_field_name("property").map(|p| self.src(p)) != Some("text") {
            return None;
        }
        called(member).filter(|c| self.arguments(*c).is_empty())
    }

    /// Why a read of `result.response` blocks the unit: what it reads.
    fn read_problem(&self, response: Node<'t>, line: usize) -> String {
        let read = response
            .parent()
            .filter(|p| p.kind() == "member_expression" && p.child_by_field_name("object") == Some(response))
            .and_then(|p| p.child_by_field_name("property"))
            .map(|p| format!("`response.{}`", self.src(p)));
        match read {
            Some(read) => format!(
                "the result of the request of line {line} is read as {read}, which has no automatic rewrite"
            ),
            None => format!("the response of the request of line {line} is passed on"),
        }
    }

    /// Another name imported from the legacy package (or a sub-path) and used.
    fn other_legacy_name(&self, statement: Node<'t>, unit: &Binding<BindingKind<'t>>) -> Option<String> {
        let mut keys: Vec<&(usize, String)> = self.scopes.names.bindings.keys().collect();
        keys.sort();
        for key in keys {
            for binding in self.scopes.names.bindings.get(key).into_iter().flatten() {
                // The legacy class bound elsewhere is a unit of its own.
                // A name bound in an unrelated function is another unit's business.
                if binding.start == unit.start
                    || !self.related_scopes(binding.scope, unit.scope)
                    || self.legacy_source(binding.kind).is_none()
                    || self.imported_name(binding.kind) == Some(LEGACY_CLASS)
                {
                    continue;
                }
                // Imported by the unit's own statement and exported alike by the current package:
                // the rewritten import keeps it.
                if self
                    .imported_name(binding.kind)
                    .is_some_and(|n| KEPT_NAMES.contains(&n))
                    && self.binding_statement(binding.kind).map(|s| s.byte_range())
                        == Some(statement.byte_range())
                {
                    continue;
                }
                let own = self.binding_statement(binding.kind);
                let except = [own.map_or(statement.byte_range(), |s| s.byte_range())];
                if self.word_uses(&key.1, &except) > 0 {
                    return Some(key.1.clone());
                }
            }
        }
        None
    }

    /// Whether one scope is the other or inside it.
    fn related_scopes(&self, a: usize, b: usize) -> bool {
        let within = |from: usize, to: usize| {
            let mut current = Some(from);
            while let Some(c) = current {
                if c == to {
                    return true;
                }
                current = self.scopes.names.scopes.get(c).and_then(|info| info.parent);
            }
            false
        };
        within(a, b) || within(b, a)
    }

    /// The import statement or `require` declaration of a binding.
    fn binding_statement(&self, kind: BindingKind<'t>) -> Option<Node<'t>> {
        match kind {
            BindingKind::Import { source, .. } => ancestor(source, "import_statement"),
            BindingKind::Destructure { value, .. } => ancestor(value, "lexical_declaration"),
            _ => None,
        }
    }

    /// The statements binding the legacy class, in every scope.
    fn class_statements(&self) -> Vec<Range<usize>> {
        self.scopes
            .names
            .bindings
            .values()
            .flatten()
            .filter(|b| {
                self.legacy_source(b.kind).is_some() && self.imported_name(b.kind) == Some(LEGACY_CLASS)
            })
            .filter_map(|b| self.binding_statement(b.kind))
            .map(|s| s.byte_range())
            .collect()
    }

    /// How often `name` is written as a whole word outside comments and `except`: loads, type
    /// references and strings alike.
    fn word_uses(&self, name: &str, except: &[Range<usize>]) -> usize {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
        self.text
            .match_indices(name)
            .filter(|(i, _)| {
                let end = i + name.len();
                !self.text[..*i].ends_with(word)
                    && !self.text[end..].starts_with(word)
                    && !except.iter().any(|r| r.start <= *i && end <= r.end)
                    && !self.scopes.comments.iter().any(|c| c.start <= *i && end <= c.end)
            })
            .count()
    }

    fn has_comment(&self, range: Range<usize>) -> bool {
        self.scopes
            .comments
            .iter()
            .any(|c| c.start >= range.start && c.end <= range.end)
    }
}

/// `X.property` at `X`.
fn member_of<'t>(object: Node<'t>, a: &Analyzer<'_, 't>, property: &str) -> Option<Node<'t>> {
    object
        .parent()
        .filter(|p| p.kind() == "member_expression" && p.child_by_field_name("object") == Some(object))
        .filter(|p| p.child_by_field_name("property").map(|n| a.src(n)) == Some(property))
}

/// The call whose callee is `function`.
fn called(function: Node) -> Option<Node> {
    function
        .parent()
        .filter(|p| p.kind() == "call_expression" && p.child_by_field_name("function") == Some(function))
}

/// The nearest ancestor of the kind.
fn ancestor<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut current = node.parent();
    while let Some(n) = current {
        if n.kind() == kind {
            return Some(n);
        }
        current = n.parent();
    }
    None
}
