//! The legacy client package's units ([`LegacyUnit`]): one binding of `google.generativeai`,
//! the `configure` call, the `GenerativeModel` objects made through it and their
//! `generate_content` calls. A unit is migrated as a whole or not at all: once the import names
//! the current package, no legacy name may be left.

use std::collections::HashSet;
use std::ops::Range;

use tree_sitter::Node;

use super::super::scope::{BindingKind, Resolution};
use super::{Analyzer, Class};
use crate::api::{
    Entry, LegacyRequest, LegacyUnit, MapValue, ValueKind, legacy_model_text, line_indent, line_removal,
};
use crate::lang::bindings::Binding;
use crate::lang::treesitter::elements;

/// The legacy package's module.
const LEGACY_MODULE: &str = "google.generativeai";

/// Arguments of a legacy model (and of its `generate_content`) that make the request's config.
const SETTINGS: &[&str] = &[
    "generation_config",
    "system_instruction",
    "safety_settings",
    "tools",
    "tool_config",
];

/// Names tried, in order, for the client of the current package.
const CLIENT_NAMES: &[&str] = &["client", "genai_client"];

type Outcome<T> = Result<T, String>;

/// A legacy model constructor and the requests made with it.
struct Model<'t> {
    call: Node<'t>,
    /// The assignment statement binding it, to delete.
    statement: Option<Node<'t>>,
    requests: Vec<Node<'t>>,
    /// Its `count_tokens(...)` calls.
    counts: Vec<Node<'t>>,
}

impl<'t> Analyzer<'_, 't> {
    /// Every binding of the legacy package by a module import, as a unit.
    pub(super) fn legacy_units(&self) -> Vec<LegacyUnit> {
        let mut keys: Vec<&(usize, String)> = self.scopes.names.bindings.keys().collect();
        keys.sort();
        let mut units = Vec::new();
        for key in keys {
            let Some(list) = self.scopes.names.bindings.get(key) else {
                continue;
            };
            let legacy: Vec<(&Binding<BindingKind<'t>>, Node<'t>)> = list
                .iter()
                .filter_map(|binding| match binding.kind {
                    BindingKind::Import { module, path }
                        if self.import_class(module, path) == Class::Module(LEGACY_MODULE.to_string()) =>
                    {
                        Some((binding, path))
                    }
                    _ => None,
                })
                .collect();
            // The same import repeated (a notebook's sections each import the package): one
            // unit, every import rewritten.
            if legacy.len() == list.len() && legacy.len() > 1 {
                let bindings: Vec<&Binding<BindingKind<'t>>> = legacy.iter().map(|(b, _)| *b).collect();
                let mut unit = LegacyUnit::default();
                if let Err(reason) = self.legacy_unit(&key.1, &bindings, 1, legacy[0].1, &mut unit) {
                    unit.blocked = Some(reason);
                }
                for (_, path) in legacy.iter().skip(1) {
                    match ancestor(*path, &["import_statement", "import_from_statement"]) {
                        Some(statement) if unit.blocked.is_none() => unit
                            .replacements
                            .push((statement.byte_range(), unit.new_import.clone())),
                        Some(_) => {}
                        None => {
                            unit.blocked = Some("an import is not a statement interlint can rewrite".into())
                        }
                    }
                }
                units.push(unit);
                continue;
            }
            for (binding, path) in legacy {
                let mut unit = LegacyUnit::default();
                if let Err(reason) = self.legacy_unit(&key.1, &[binding], list.len(), path, &mut unit) {
                    unit.blocked = Some(reason);
                }
                units.push(unit);
            }
        }
        units
    }

    fn legacy_unit(
        &self,
        name: &str,
        imports: &[&Binding<BindingKind<'t>>],
        bindings: usize,
        path: Node<'t>,
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        let statement = ancestor(path, &["import_statement", "import_from_statement"])
            .ok_or("the import is not a statement interlint can rewrite")?;
        unit.import = statement.byte_range();
        // Requests are found first, so that a blocked unit still knows its calls.
        let binding = *imports.first().ok_or("no import")?;
        if let Some(line) = self.opaque_load(name, binding.scope) {
            return Err(format!(
                "`{name}` is read on line {line} where interlint cannot tell which binding it means"
            ));
        }
        let loads = self.loads_of(name, imports);
        let mut configures = Vec::new();
        let mut models = Vec::new();
        let mut wrappers = Vec::new();
        let mut files = Vec::new();
        let mut other = None;
        for &(load, scope) in &loads {
            let (attribute, member, called) = self.member_call(load);
            match (member, called) {
                (Some("configure"), Some(call)) => configures.push(call),
                (Some("GenerativeModel"), Some(call)) => models.push((call, scope)),
                // `genai.GenerativeModel.from_cached_content(...)`: a model whose requests are
                // the unit's, and which blocks it.
                (Some("GenerativeModel"), None)
                    if let Some(call) = attribute
                        .and_then(|a| a.parent())
                        .filter(|p| p.kind() == "attribute")
                        .filter(|p| {
                            p.child_by_field_name("attribute")
                                .is_some_and(|m| self.src(m) == "from_cached_content")
                        })
                        .and_then(called_as_function) =>
                {
                    models.push((call, scope))
                }
                (Some("GenerationConfig"), Some(call)) => wrappers.push(call),
                (Some(member @ ("upload_file" | "get_file" | "delete_file" | "list_files")), Some(call)) => {
                    files.push((member, call))
                }
                (Some("types"), _) => {
                    let outer = attribute
                        .and_then(|a| a.parent())
                        .filter(|p| p.kind() == "attribute");
                    let member = outer
                        .and_then(|o| o.child_by_field_name("attribute"))
                        .map(|a| self.src(a));
                    match (member, outer.and_then(|o| called_as_function(o))) {
                        (Some("GenerationConfig"), Some(call)) => wrappers.push(call),
                        _ => {
                            other.get_or_insert_with(|| self.src(outer.unwrap_or(load)).to_string());
                        }
                    }
                }
                (Some(member), _) => {
                    other.get_or_insert_with(|| format!("{name}.{member}"));
                }
                (None, _) => {
                    other.get_or_insert_with(|| name.to_string());
                }
            }
        }
        let mut found = Vec::new();
        let mut problem = None;
        for (call, scope) in models {
            let (model, why) = self.legacy_model_uses(call, scope);
            unit.calls.extend(model.requests.iter().map(|r| r.byte_range()));
            if let Some(why) = why {
                problem.get_or_insert(why);
            }
            found.push(model);
        }
        let mut models = found;
        if let Some(why) = problem {
            return Err(why);
        }
        if let Some(used) = other {
            return Err(format!(
                "the module also uses `{used}` of the legacy package, which has no automatic rewrite"
            ));
        }
        if bindings > 1 {
            return Err(format!("`{name}` is bound more than once"));
        }
        if binding.scope == 0 && self.elsewhere.contains(name) {
            return Err(format!("other cells of the notebook use `{name}`"));
        }
        let mut cursor = statement.walk();
        if statement.children_by_field_name("name", &mut cursor).count() != 1 {
            return Err("the import statement imports other names too".into());
        }
        unit.new_import = if name == "genai" {
            "from google import genai".to_string()
        } else {
            format!("from google import genai as {name}")
        };
        let client = CLIENT_NAMES
            .iter()
            .find(|c| !self.name_taken(c, binding.scope))
            .ok_or("the names `client` and `genai_client` are both taken")?;
        unit.client_name = (*client).to_string();
        unit.client = match configures.as_slice() {
            [] => {
                let indent = line_indent(self.text, statement.start_byte());
                (
                    statement.end_byte()..statement.end_byte(),
                    format!("\n{indent}{client} = {name}.Client()"),
                )
            }
            [configure] => self.configure_edit(*configure, statement, client, name, &models)?,
            _ => return Err(format!("`{name}.configure` is called more than once")),
        };
        let mut consumed = HashSet::new();
        for model in &mut models {
            if let Some(statement) = model.statement {
                if self.has_comment(statement.byte_range()) {
                    return Err("a comment in the model's definition would be lost".into());
                }
                unit.removals
                    .push(line_removal(self.text, statement.byte_range()));
            }
            for &count in &model.counts {
                let replacement = self.count_call(model.call, count, &unit.client_name)?;
                unit.replacements.push((count.byte_range(), replacement));
            }
            for &request in &model.requests {
                let (request, inlined) = self.legacy_request(model.call, request, &mut consumed)?;
                unit.requests.push(request);
                unit.removals.extend(inlined);
            }
        }
        for (member, call) in files {
            if call.start_byte() < unit.client.0.start {
                return Err(format!(
                    "`{name}.{member}` is called before the client would be created"
                ));
            }
            let replacement = self.files_call(member, call, client)?;
            unit.replacements.push((call.byte_range(), replacement));
        }
        if let Some(wrapper) = wrappers.iter().find(|w| !consumed.contains(&w.start_byte())) {
            return Err(format!(
                "`{}` is used outside a model's settings",
                wrapper
                    .child_by_field_name("function")
                    .map_or("", |f| self.src(f))
            ));
        }
        Ok(())
    }

    /// A legacy files call (`genai.upload_file(path, mime_type=...)`) as the client's
    /// (`client.files.upload(file=path, config={"mime_type": ...})`).
    fn files_call(&self, member: &str, call: Node<'t>, client: &str) -> Outcome<String> {
        let shown = format!(
            "`{}`",
            call.child_by_field_name("function").map_or("", |f| self.src(f))
        );
        let arguments = call
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")
            .ok_or_else(|| format!("{shown} is not called with a plain argument list"))?;
        if self.has_comment(arguments.byte_range()) {
            return Err(format!("a comment in the arguments of {shown} would be lost"));
        }
        let (method, first, config_keys): (&str, Option<&str>, &[&str]) = match member {
            "upload_file" => ("upload", Some("file"), &["mime_type", "display_name", "name"]),
            "get_file" => ("get", Some("name"), &[]),
            "delete_file" => ("delete", Some("name"), &[]),
            _ => ("list", None, &[]),
        };
        let mut args = Vec::new();
        let mut config = Vec::new();
        for (i, element) in elements(arguments).into_iter().enumerate() {
            match element.kind() {
                "keyword_argument" => {
                    let (Some(key), Some(value)) = (
                        element.child_by_field_name("name").map(|n| self.src(n)),
                        element.child_by_field_name("value").map(|v| self.src(v)),
                    ) else {
                        return Err(format!("an argument of {shown} is not a plain keyword"));
                    };
                    match key {
                        "path" if first == Some("file") => args.push(format!("file={value}")),
                        "name" if first == Some("name") => args.push(format!("name={value}")),
                        key if config_keys.contains(&key) => config.push(format!("\"{key}\": {value}")),
                        key => {
                            return Err(format!(
                                "{shown} is given `{key}`, which has no counterpart in the client"
                            ));
                        }
                    }
                }
                "comment" => {}
                _ if i == 0
                    && let Some(first) = first =>
                {
                    args.push(format!("{first}={}", self.src(element)))
                }
                _ => return Err(format!("{shown} is given an argument interlint cannot place")),
            }
        }
        if !config.is_empty() {
            args.push(format!("config={{{}}}", config.join(", ")));
        }
        Ok(format!("{client}.files.{method}({})", args.join(", ")))
    }

    /// The loads of `name` that see `binding`.
    fn loads_of(&self, name: &str, imports: &[&Binding<BindingKind<'t>>]) -> Vec<(Node<'t>, usize)> {
        self.scopes
            .loads
            .get(name)
            .map(|loads| {
                loads
                    .iter()
                    .copied()
                    .filter(|(node, scope)| {
                        matches!(
                            self.scopes.names.resolve(name, *scope, node.start_byte()),
                            Resolution::Bound(b, _)
                                if imports.iter().any(|i| b.start == i.start && b.scope == i.scope)
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The line of a read of `name` that sees the bindings of `scope` but resolves to none of
    /// them in particular (a name bound several times, read from a function).
    fn opaque_load(&self, name: &str, scope: usize) -> Option<usize> {
        self.scopes.loads.get(name)?.iter().find_map(|(node, s)| {
            (self.scopes.names.declaring_scope(name, *s) == Some(scope)
                && matches!(
                    self.scopes.names.resolve(name, *s, node.start_byte()),
                    Resolution::Opaque
                ))
            .then(|| node.start_position().row + 1)
        })
    }

    /// Whether code that sees the unit's scope could mean something else by `name`: it is bound
    /// in that scope, above it or below it, or read below it.
    fn name_taken(&self, name: &str, scope: usize) -> bool {
        let scopes = &self.scopes.names.scopes;
        let related = |s: usize| {
            let above_or_here = |from: usize, to: usize| {
                let mut current = Some(from);
                while let Some(c) = current {
                    if c == to {
                        return true;
                    }
                    current = scopes.get(c).and_then(|info| info.parent);
                }
                false
            };
            above_or_here(s, scope) || above_or_here(scope, s)
        };
        self.scopes
            .loads
            .get(name)
            .is_some_and(|loads| loads.iter().any(|(_, s)| related(*s)))
            || self
                .scopes
                .names
                .bindings
                .keys()
                .any(|(s, n)| n == name && related(*s))
            || scope == 0 && self.elsewhere.total.is_some_and(|t| t.contains_key(name))
    }

    fn has_comment(&self, range: Range<usize>) -> bool {
        self.scopes
            .comments
            .iter()
            .any(|c| c.start >= range.start && c.end <= range.end)
    }

    /// `genai.configure(api_key=K)` → `client = genai.Client(api_key=K)`: the callee replaced.
    fn configure_edit(
        &self,
        configure: Node<'t>,
        import: Node<'t>,
        client: &str,
        name: &str,
        models: &[Model<'t>],
    ) -> Outcome<(Range<usize>, String)> {
        let statement = configure
            .parent()
            .filter(|p| p.kind() == "expression_statement")
            .ok_or_else(|| format!("the result of `{name}.configure` is used"))?;
        if statement.parent() != import.parent() || statement.start_byte() < import.end_byte() {
            return Err(format!(
                "`{name}.configure` is not called in the block of the import"
            ));
        }
        if models.iter().any(|m| {
            m.call.start_byte() < configure.start_byte()
                && m.statement.is_some_and(|s| s.parent() == statement.parent())
        }) {
            return Err(format!("a model is made before `{name}.configure` is called"));
        }
        let arguments = configure
            .child_by_field_name("arguments")
            .ok_or("the configure call has no arguments")?;
        for element in elements(arguments) {
            let key = element
                .child_by_field_name("name")
                .filter(|_| element.kind() == "keyword_argument")
                .map(|n| self.src(n));
            if key != Some("api_key") {
                return Err(format!(
                    "`{name}.configure` is given `{}`, which has no counterpart in the client",
                    self.src(element)
                ));
            }
        }
        let callee = configure
            .child_by_field_name("function")
            .ok_or("the configure call has no callee")?;
        Ok((callee.byte_range(), format!("{client} = {name}.Client")))
    }

    /// A `GenerativeModel(...)` call and its requests (bound to a name used only by
    /// `generate_content` calls, or called at once), and why it cannot be migrated.
    fn legacy_model_uses(&self, call: Node<'t>, scope: usize) -> (Model<'t>, Option<String>) {
        let mut model = Model {
            call,
            statement: None,
            requests: Vec::new(),
            counts: Vec::new(),
        };
        let why = self.legacy_model_requests(&mut model, scope).err();
        (model, why)
    }

    fn legacy_model_requests(&self, model: &mut Model<'t>, scope: usize) -> Outcome<()> {
        let call = model.call;
        let line = call.start_position().row + 1;
        let parent = call.parent().ok_or("the model has no context")?;
        if parent.kind() == "attribute" {
            let member = parent.child_by_field_name("attribute").map(|a| self.src(a));
            return match (member, called_as_function(parent)) {
                (Some("generate_content" | "generate_content_async"), Some(request)) => {
                    model.requests.push(request);
                    Ok(())
                }
                (Some("from_cached_content"), _) => {
                    Err(format!("the model of line {line} is made from a cached content"))
                }
                (Some(member), _) => Err(format!("the model of line {line} is used for `{member}`")),
                _ => Err(format!("the model of line {line} is used in a way not followed")),
            };
        }
        let target = parent
            .child_by_field_name("left")
            .filter(|l| parent.kind() == "assignment" && l.kind() == "identifier")
            .filter(|_| parent.child_by_field_name("right") == Some(call));
        let statement = parent.parent().filter(|p| p.kind() == "expression_statement");
        let (Some(target), Some(statement)) = (target, statement) else {
            return Err(match parent.child_by_field_name("left") {
                Some(left) if parent.kind() == "assignment" => {
                    format!("the model of line {line} is stored in `{}`", self.src(left))
                }
                _ => format!("the model of line {line} is passed on"),
            });
        };
        let name = self.src(target);
        model.statement = Some(statement);
        let mut problem = None;
        for &(load, load_scope) in self.scopes.loads.get(name).map(Vec::as_slice).unwrap_or_default() {
            match self.scopes.names.resolve(name, load_scope, load.start_byte()) {
                Resolution::Bound(b, _) if b.start == parent.start_byte() => {}
                Resolution::Bound(..) | Resolution::Unbound => continue,
                Resolution::Opaque => {
                    problem.get_or_insert(format!("`{name}` is bound in ways interlint does not follow"));
                    continue;
                }
            }
            let (_, member, called) = self.member_call(load);
            match (member, called) {
                (Some("generate_content" | "generate_content_async"), Some(request)) => {
                    model.requests.push(request)
                }
                (Some("count_tokens"), Some(count)) => model.counts.push(count),
                (Some(member), _) => {
                    problem.get_or_insert(format!("the model object `{name}` is also used for `{member}`"));
                }
                (None, _) => {
                    problem.get_or_insert(format!(
                        "the model object `{name}` is passed on or returned (line {})",
                        load.start_position().row + 1
                    ));
                }
            }
        }
        if scope == 0 && self.elsewhere.contains(name) {
            problem.get_or_insert(format!("other cells of the notebook use the model `{name}`"));
        }
        let cached = call
            .child_by_field_name("function")
            .and_then(|f| f.child_by_field_name("attribute"))
            .is_some_and(|m| self.src(m) == "from_cached_content");
        if cached {
            return Err(format!(
                "the model `{name}` (line {line}) is made from a cached content, whose model the \
                 request would have to name"
            ));
        }
        problem.map_or(Ok(()), Err)
    }

    /// A legacy request with the model's settings merged, and the bindings its config inlines.
    fn legacy_request(
        &self,
        model: Node<'t>,
        request: Node<'t>,
        consumed: &mut HashSet<usize>,
    ) -> Outcome<(LegacyRequest, Vec<Range<usize>>)> {
        let function = request
            .child_by_field_name("function")
            .ok_or("the request has no callee")?;
        let asynchronous = function
            .child_by_field_name("attribute")
            .is_some_and(|a| self.src(a) == "generate_content_async");
        let mut model_value = None;
        let mut settings: Vec<Entry> = Vec::new();
        // The constructor's arguments, then the call's.
        let model_arguments = model
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")
            .ok_or("the model's arguments are not a plain list")?;
        let model_scope = self.call_scope(model);
        let elements_of_model = elements(model_arguments);
        for (i, element) in elements_of_model.iter().enumerate() {
            match element.kind() {
                "keyword_argument" => {
                    let entry = self
                        .keyword_entry(*element, &elements_of_model, i, model_arguments, model_scope)
                        .ok_or("an argument of the model is not a plain keyword")?;
                    match entry.key.as_str() {
                        "model_name" | "model" if model_value.is_none() => {
                            model_value = element.child_by_field_name("value");
                        }
                        key if SETTINGS.contains(&key) => settings.push(entry),
                        key => {
                            return Err(format!(
                                "the model is given `{key}`, which has no place in an interactions request"
                            ));
                        }
                    }
                }
                "list_splat" | "dictionary_splat" => {
                    return Err("the model's arguments are spread from a variable".into());
                }
                "comment" => {}
                _ if i == 0 => model_value = Some(*element),
                _ => return Err("the model is given more than one positional argument".into()),
            }
        }
        let model_value = model_value.ok_or("the model is not named (the legacy client's default model)")?;
        let (model, model_id) = self.model_text(model_value, model_scope)?;
        let arguments = request
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")
            .ok_or("the request's arguments are not a plain list")?;
        let request_scope = self.call_scope(request);
        let elements_of_request = elements(arguments);
        let mut contents = None;
        let mut stream = false;
        for (i, element) in elements_of_request.iter().enumerate() {
            match element.kind() {
                "keyword_argument" => {
                    let entry = self
                        .keyword_entry(*element, &elements_of_request, i, arguments, request_scope)
                        .ok_or("an argument of the request is not a plain keyword")?;
                    match entry.key.as_str() {
                        "contents" if contents.is_none() => contents = Some(entry.value),
                        // The call's generation config is merged into the model's, key by key.
                        "generation_config" => settings.push(entry),
                        key if SETTINGS.contains(&key) => {
                            if settings.iter().any(|s| s.key == key) {
                                return Err(format!("`{key}` is set on both the model and the call"));
                            }
                            settings.push(entry);
                        }
                        "stream" => match self.src(*element).rsplit('=').next().map(str::trim) {
                            Some("True") => stream = true,
                            Some("False") => {}
                            _ => return Err("the request's `stream` is not `True` or `False`".into()),
                        },
                        key => {
                            return Err(format!(
                                "the request is given `{key}`, which has no place in an interactions request"
                            ));
                        }
                    }
                }
                "list_splat" | "dictionary_splat" => {
                    return Err("the request's arguments are spread from a variable".into());
                }
                _ if i == 0 => contents = Some(self.value(*element, request_scope, 0)),
                _ => return Err("the request is given more than one positional argument".into()),
            }
        }
        let contents = contents.ok_or("the request has no contents")?;
        let (Some(first), Some(last)) = (elements_of_request.first(), elements_of_request.last()) else {
            return Err("the request has no arguments".into());
        };
        let span = first.start_byte()..last.end_byte();
        if self.has_comment(span.clone()) {
            return Err("a comment inside the call's arguments would be lost".into());
        }
        let separator = if first.start_position().row != arguments.start_position().row {
            format!(",\n{}", line_indent(self.text, first.start_byte()))
        } else {
            ", ".to_string()
        };
        let mut inlined = Vec::new();
        let mut entries = Vec::new();
        let mut generation_keys: Vec<String> = Vec::new();
        for entry in settings {
            match entry.key.as_str() {
                "generation_config" => {
                    let (map, statement) = match &entry.value.kind {
                        ValueKind::Map(map) => (map.as_ref().clone(), None),
                        ValueKind::Name(name) => match name.value.as_ref() {
                            Some(value) => match &value.kind {
                                ValueKind::Map(map) if name.single_use || map.wrapper.is_none() => {
                                    consumed.insert(value.range.start);
                                    (
                                        map.as_ref().clone(),
                                        name.statement.clone().filter(|_| name.single_use),
                                    )
                                }
                                _ => return Err(format!("`{}` does not hold a literal config", name.name)),
                            },
                            None => {
                                return Err(format!(
                                    "`generation_config` is `{}`, which is not a literal",
                                    name.name
                                ));
                            }
                        },
                        _ => return Err("`generation_config` is not a literal".into()),
                    };
                    if !map.complete {
                        return Err("the generation config's entries are not all known".into());
                    }
                    consumed.insert(entry.value.range.start);
                    if let Some(schema) = map.entries.iter().find(|e| e.key == "response_schema")
                        && !matches!(schema.value.kind, ValueKind::Map(_))
                    {
                        return Err(format!(
                            "`response_schema` is `{}`, which may be a TypedDict or a type the legacy client converted itself",
                            self.text.get(schema.value.range.clone()).unwrap_or_default()
                        ));
                    }
                    // The call's entries win over the model's (the legacy client merged them so).
                    for entry in map.entries {
                        entries.retain(|e: &Entry| e.key != entry.key || !generation_keys.contains(&e.key));
                        generation_keys.push(entry.key.clone());
                        entries.push(entry);
                    }
                    inlined.extend(statement.map(|s| line_removal(self.text, s)));
                }
                key @ ("safety_settings" | "tools") => {
                    let list = match &entry.value.kind {
                        ValueKind::List(_) => true,
                        ValueKind::Name(name) => name
                            .value
                            .as_ref()
                            .is_some_and(|v| matches!(v.kind, ValueKind::List(_))),
                        _ => false,
                    };
                    if !list {
                        return Err(format!(
                            "`{key}` is `{}`, a shorthand of the legacy client",
                            self.text.get(entry.value.range.clone()).unwrap_or_default()
                        ));
                    }
                    entries.push(entry);
                }
                _ => entries.push(entry),
            }
        }
        Ok((
            LegacyRequest {
                call: request.byte_range(),
                callee: function.byte_range(),
                method: if asynchronous {
                    "aio.interactions.create".to_string()
                } else {
                    "interactions.create".to_string()
                },
                client: None,
                arguments: span,
                parens: arguments.byte_range(),
                separator,
                model,
                contents,
                config: MapValue {
                    entries,
                    complete: true,
                    wrapper: None,
                },
                model_id,
                stream,
            },
            inlined,
        ))
    }

    /// For `object.member(...)`: the attribute, the member's name and the call, as far as they
    /// are there.
    fn member_call(&self, object: Node<'t>) -> (Option<Node<'t>>, Option<&str>, Option<Node<'t>>) {
        let attribute = object
            .parent()
            .filter(|p| p.kind() == "attribute" && p.child_by_field_name("object") == Some(object));
        let member = attribute
            .and_then(|a| a.child_by_field_name("attribute"))
            .map(|a| self.src(a));
        (attribute, member, attribute.and_then(called_as_function))
    }

    /// The scope a call is made in.
    fn call_scope(&self, call: Node<'t>) -> usize {
        self.scopes
            .calls
            .iter()
            .find(|(n, _)| *n == call)
            .map_or(0, |(_, s)| *s)
    }

    /// `model.count_tokens(x)` → `client.models.count_tokens(model=m, contents=x)`.
    fn count_call(&self, model: Node<'t>, count: Node<'t>, client: &str) -> Outcome<String> {
        let model_arguments = model
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")
            .ok_or("the model's arguments are not a plain list")?;
        let model_value = elements(model_arguments)
            .into_iter()
            .find_map(|e| match e.kind() {
                "keyword_argument" => e
                    .child_by_field_name("name")
                    .filter(|n| matches!(self.src(*n), "model_name" | "model"))
                    .and_then(|_| e.child_by_field_name("value")),
                "comment" => None,
                _ => Some(e),
            })
            .ok_or("the model is not named (the legacy client's default model)")?;
        let (model_text, _) = self.model_text(model_value, self.call_scope(model))?;
        let arguments = count
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")
            .ok_or("`count_tokens` is not called with a plain argument list")?;
        if self.has_comment(arguments.byte_range()) {
            return Err("a comment in the arguments of `count_tokens` would be lost".into());
        }
        let elements = elements(arguments);
        let contents = match elements.as_slice() {
            [one] if one.kind() == "keyword_argument" => match (
                one.child_by_field_name("name").map(|n| self.src(n)),
                one.child_by_field_name("value"),
            ) {
                (Some("contents"), Some(value)) => self.src(value),
                _ => return Err("`count_tokens` is given an argument other than the contents".into()),
            },
            [one] if !matches!(one.kind(), "list_splat" | "dictionary_splat") => self.src(*one),
            _ => return Err("`count_tokens` is not given exactly the contents".into()),
        };
        Ok(format!(
            "{client}.models.count_tokens(model={model_text}, contents={contents})"
        ))
    }

    /// The model as written in the new call (a `models/` prefix dropped), and its id when
    /// it is a literal.
    fn model_text(&self, value: Node<'t>, scope: usize) -> Outcome<(String, Option<String>)> {
        let written = self.src(value);
        match self.classify(value, scope, 0) {
            Class::Str(id) => legacy_model_text(Some(&id), written, value.kind() == "string"),
            _ if value.kind() == "string" => Err("the model is a string interlint cannot read".into()),
            _ => legacy_model_text(None, written, false),
        }
    }
}

/// The call whose callee is `function`.
fn called_as_function(function: Node) -> Option<Node> {
    function
        .parent()
        .filter(|p| p.kind() == "call" && p.child_by_field_name("function") == Some(function))
}

/// The nearest ancestor of one of the kinds.
fn ancestor<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut current = node.parent();
    while let Some(n) = current {
        if kinds.contains(&n.kind()) {
            return Some(n);
        }
        current = n.parent();
    }
    None
}
