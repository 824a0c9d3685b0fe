//! Python's way into the legacy package: `import google.generativeai as genai`, then
//! `genai.configure(api_key=...)`, `genai.GenerativeModel(...)` and the module's file functions.

use std::collections::HashSet;
use std::ops::Range;

use super::{
    CHAT_HISTORY, ConfigProblem, Imports, LegacyPackage, LegacyWords, Model, ModelBinding, ModelText, Outcome,
};
use crate::lang::bindings::Binding;
use crate::lang::facts::scope::{BindingKind, Resolution};
use crate::lang::facts::{Analyzer, Class};
use crate::lang::ir::{ArgKind, Kind, NodeId};
use crate::migration_facts::{
    ClientSite, Entry, FilesFunction, LegacyCount, LegacyFilesCall, LegacyImport, LegacyRequest, LegacyUnit,
    MapValue, ValueKind,
};

/// The legacy package's module.
pub(super) const LEGACY_MODULE: &str = "google.generativeai";

/// Names tried, in order, for the client of the current package.
const CLIENT_NAMES: &[&str] = &["client", "genai_client"];

/// Python's legacy package: a module whose functions configure it and make models, whose
/// responses read as the current client's.
pub(crate) struct PythonLegacy;

impl LegacyPackage for PythonLegacy {
    fn words(&self) -> &'static LegacyWords {
        &super::LEGACY_WORDS[0]
    }

    fn merges_repeated(&self) -> bool {
        true
    }

    fn makes_unit(&self, a: &Analyzer<'_>, kind: BindingKind) -> bool {
        matches!(kind, BindingKind::Import { statement, index }
            if a.import_class(statement, index) == Class::Module(LEGACY_MODULE.to_string()))
    }

    fn unit(&self, a: &Analyzer<'_>, name: &str, of: &Imports, n: usize, to: &mut LegacyUnit) -> Outcome<()> {
        a.python_unit(name, of, n, to)
    }

    fn responses_read_as_current(&self) -> bool {
        true
    }

    /// `name = Model(...)`, a statement of its own.
    fn model_binding(&self, a: &Analyzer<'_>, call: NodeId) -> Option<ModelBinding> {
        let parent = a.parent(call)?;
        let Kind::Assign(assign) = a.kind(parent) else {
            return None;
        };
        let [target] = assign.targets.as_slice() else {
            return None;
        };
        if assign.value != Some(call) {
            return None;
        }
        let name = a.tree.name(*target)?.to_string();
        let mut loads = Vec::new();
        for &(load, scope) in a.scopes.loads.get(&name).map(Vec::as_slice).unwrap_or_default() {
            match a.scopes.names.resolve(&name, scope, a.start(load)) {
                Resolution::Bound(b, _) if matches!(b.kind, BindingKind::Assign { value, .. } if value == call) => {
                    loads.push((load, false))
                }
                Resolution::Bound(..) | Resolution::Unbound => {}
                Resolution::Opaque => loads.push((load, true)),
            }
        }
        Some(ModelBinding {
            name,
            statement: parent,
            loads,
        })
    }

    fn unbound_model(&self, line: usize) -> String {
        format!("the model of line {line} is passed on")
    }

    fn model_used_for(&self, name: &str, _: usize, member: &str) -> String {
        format!("the model object `{name}` is also used for `{member}`")
    }

    /// A name is followed to the string it is bound to.
    fn model_text(&self, a: &Analyzer<'_>, written: &str, node: NodeId, scope: usize) -> ModelText {
        let string = matches!(a.kind(node), Kind::Str(_) | Kind::Template(_));
        match a.classify(node, scope, 0) {
            Class::Str(id) => crate::migration_facts::legacy_model_text(Some(&id), written, string),
            _ if string => Err("the model is a string interlint cannot read".into()),
            _ => crate::migration_facts::legacy_model_text(None, written, false),
        }
    }

    fn config_problem(&self, problem: ConfigProblem) -> String {
        match problem {
            ConfigProblem::NotLiteral => "`generation_config` is not a literal".into(),
            ConfigProblem::NameHoldsOther(name) => format!("`{name}` does not hold a literal config"),
            ConfigProblem::NameUnbound(name) => {
                format!("`generation_config` is `{name}`, which is not a literal")
            }
        }
    }

    fn incomplete_config(&self) -> &'static str {
        "the generation config's entries are not all known"
    }

    /// The call's entries win over the model's (the legacy client merged them so).
    fn inline_config(
        &self,
        a: &Analyzer<'_>,
        entry: &Entry,
        map: MapValue,
        entries: &mut Vec<Entry>,
        generation_keys: &mut Vec<String>,
        consumed: &mut HashSet<usize>,
    ) -> Outcome<()> {
        consumed.insert(entry.value.range.start);
        // A class (or a list of one) goes to the structured output's conversion, which names a
        // class it does not know; any other value is not followed.
        if let Some(schema) = map.entries.iter().find(|e| e.key == "response_schema")
            && !matches!(schema.value.kind, ValueKind::Map(_))
            && !is_schema_type(a.text.get(schema.value.range.clone()).unwrap_or_default())
        {
            return Err(format!(
                "`response_schema` is `{}`, which may be a TypedDict or a type the legacy client converted itself",
                a.text.get(schema.value.range.clone()).unwrap_or_default()
            ));
        }
        for entry in map.entries {
            entries.retain(|e: &Entry| e.key != entry.key || !generation_keys.contains(&e.key));
            generation_keys.push(entry.key.clone());
            entries.push(entry);
        }
        Ok(())
    }

    fn not_a_list(&self, a: &Analyzer<'_>, entry: &Entry) -> String {
        format!(
            "`{}` is `{}`, a shorthand of the legacy client",
            entry.key,
            a.text.get(entry.value.range.clone()).unwrap_or_default()
        )
    }
}

impl Analyzer<'_> {
    /// The unit of the imports `imports` of `name` (one, or the same import repeated);
    /// `bindings` is how often the name is bound in its scope.
    pub(super) fn python_unit(
        &self,
        name: &str,
        imports: &[&Binding<BindingKind>],
        bindings: usize,
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        let binding = *imports.first().ok_or("no import")?;
        let BindingKind::Import { statement, .. } = binding.kind else {
            return Err("the import is not a statement interlint can rewrite".into());
        };
        unit.import = self.range(statement);
        // Requests are found first, so that a blocked unit still knows its calls.
        if let Some(line) = self.opaque_load(name, binding.scope) {
            return Err(format!(
                "`{name}` is read on line {line} where interlint cannot tell which binding it means"
            ));
        }
        let starts: Vec<(usize, usize)> = imports.iter().map(|b| (b.start, b.scope)).collect();
        let loads = self.loads_of(name, &starts);
        let mut configures = Vec::new();
        let mut models = Vec::new();
        let mut wrappers = Vec::new();
        let mut files = Vec::new();
        let mut other = None;
        for &(load, scope) in &loads {
            let (member_node, member, called) = self.member_call(load);
            match (member, called) {
                (Some("configure"), Some(call)) => configures.push(call),
                (Some("GenerativeModel"), Some(call)) => models.push((call, scope)),
                // `genai.GenerativeModel.from_cached_content(...)`: a model whose requests are
                // the unit's, and which blocks it.
                (Some("GenerativeModel"), None)
                    if let Some(call) = member_node
                        .and_then(|m| self.member_named(m, "from_cached_content"))
                        .and_then(|m| self.called(m)) =>
                {
                    models.push((call, scope))
                }
                (Some("GenerationConfig"), Some(call)) => wrappers.push(call),
                (Some(member @ ("upload_file" | "get_file" | "delete_file" | "list_files")), Some(call)) => {
                    files.push((member, call))
                }
                (Some("types"), _) => {
                    let (outer, inner, call) = match member_node {
                        Some(m) => self.member_call(m),
                        None => (None, None, None),
                    };
                    match (inner, call) {
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
            let line = self.line(call);
            let (model, why) = self.model_uses(Model::new(call, scope), line);
            if let Some(why) = why {
                problem.get_or_insert(why);
            }
            unit.calls.extend(model.requests.iter().map(|&r| self.range(r)));
            unit.calls.extend(model.chats.iter().map(|&c| self.range(c)));
            found.push(model);
        }
        let models = found;
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
        if !matches!(self.kind(statement), Kind::Import(i) if i.names.len() == 1) {
            return Err("the import statement imports other names too".into());
        }
        unit.imported = Some(LegacyImport::Module {
            name: name.to_string(),
        });
        let client = CLIENT_NAMES
            .iter()
            .find(|c| !self.name_taken(c, binding.scope))
            .ok_or("the names `client` and `genai_client` are both taken")?;
        unit.client_name = (*client).to_string();
        // The client is created where the legacy package is configured, or just after the import.
        let (site, client_at) = match configures.as_slice() {
            [] => (ClientSite::AfterImport, self.end(statement)),
            [configure] => {
                let callee = self.configure_callee(*configure, statement, name, &models)?;
                let at = callee.start;
                (ClientSite::Configure { callee }, at)
            }
            _ => return Err(format!("`{name}.configure` is called more than once")),
        };
        unit.client = Some(site);
        let mut consumed = HashSet::new();
        for model in &models {
            self.remove_model(model, unit)?;
            for &count in &model.counts {
                unit.counts.push(self.python_count(model.call, count)?);
            }
            for &request in &model.requests {
                let (request, inlined) = self.python_request(model.call, request, &mut consumed)?;
                unit.requests.push(request);
                unit.removals.extend(inlined);
            }
            for &chat in &model.chats {
                self.python_chat(model, chat, &mut consumed, unit)?;
            }
        }
        for (member, call) in files {
            if self.start(call) < client_at {
                return Err(format!(
                    "`{name}.{member}` is called before the client would be created"
                ));
            }
            unit.file_deletions.extend(self.legacy_file_deletions(call)?);
            unit.files.push(self.files_call(member, call)?);
        }
        if let Some(&wrapper) = wrappers.iter().find(|&&w| !consumed.contains(&self.start(w))) {
            let callee = match self.kind(wrapper) {
                Kind::Call(c) => self.src(c.callee),
                _ => "",
            };
            return Err(format!("`{callee}` is used outside a model's settings"));
        }
        Ok(())
    }

    /// The line of a read of `name` that sees the bindings of `scope` but resolves to none of
    /// them in particular (a name bound several times, read from a function).
    fn opaque_load(&self, name: &str, scope: usize) -> Option<usize> {
        self.scopes.loads.get(name)?.iter().find_map(|&(node, s)| {
            (self.scopes.names.declaring_scope(name, s) == Some(scope)
                && matches!(
                    self.scopes.names.resolve(name, s, self.start(node)),
                    Resolution::Opaque
                ))
            .then(|| self.line(node))
        })
    }

    /// Whether code that sees the unit's scope could mean something else by `name`: it is bound
    /// in that scope, above it or below it, or read below it.
    pub(super) fn name_taken(&self, name: &str, scope: usize) -> bool {
        self.scopes
            .loads
            .get(name)
            .is_some_and(|loads| loads.iter().any(|&(_, s)| self.related_scopes(s, scope)))
            || self
                .scopes
                .names
                .bindings
                .keys()
                .any(|(s, n)| n == name && self.related_scopes(*s, scope))
            || scope == 0 && self.elsewhere.total.is_some_and(|t| t.contains_key(name))
    }

    /// The statement list a statement stands in: its parent and which of the parent's lists.
    fn block_of(&self, statement: NodeId) -> Option<(NodeId, usize)> {
        let parent = self.parent(statement)?;
        let mut lists: Vec<&[NodeId]> = Vec::new();
        match self.kind(parent) {
            Kind::Module(body) | Kind::Block(body) | Kind::Other(body) => lists.push(body),
            Kind::Function(f) => lists.push(&f.body),
            Kind::Class(c) => lists.push(&c.body),
            Kind::If(i) => lists.extend([&i.body[..], &i.orelse[..]]),
            Kind::While { body, orelse, .. } => lists.extend([&body[..], &orelse[..]]),
            Kind::For(f) => lists.extend([&f.body[..], &f.orelse[..]]),
            Kind::With(w) => lists.push(&w.body),
            Kind::Try(t) => {
                lists.push(&t.body);
                lists.extend(t.handlers.iter().map(|h| &h.body[..]));
                lists.push(&t.orelse);
                lists.push(&t.finally);
            }
            _ => {}
        }
        let slot = lists
            .iter()
            .position(|l| l.contains(&statement))
            .unwrap_or(usize::MAX);
        Some((parent, slot))
    }

    /// The callee of `genai.configure(api_key=K)`, where the client is created (`client =
    /// genai.Client(api_key=K)`): the call is a statement of the import's block after it, before
    /// any model of that block is made, and given only the API key.
    fn configure_callee(
        &self,
        configure: NodeId,
        import: NodeId,
        name: &str,
        models: &[Model],
    ) -> Outcome<Range<usize>> {
        let statement = self
            .parent(configure)
            .filter(|&p| matches!(self.kind(p), Kind::Expr(_)))
            .ok_or_else(|| format!("the result of `{name}.configure` is used"))?;
        if self.block_of(statement) != self.block_of(import) || self.start(statement) < self.end(import) {
            return Err(format!(
                "`{name}.configure` is not called in the block of the import"
            ));
        }
        if models.iter().any(|m| {
            self.start(m.call) < self.start(configure)
                && m.statement
                    .is_some_and(|s| self.block_of(s) == self.block_of(statement))
        }) {
            return Err(format!("a model is made before `{name}.configure` is called"));
        }
        let Kind::Call(c) = self.kind(configure) else {
            return Err("the configure call has no arguments".into());
        };
        for arg in &c.args {
            let key = match &arg.kind {
                ArgKind::Keyword(k) => Some(&*k.name),
                _ => None,
            };
            if key != Some("api_key") {
                return Err(format!(
                    "`{name}.configure` is given `{}`, which has no counterpart in the client",
                    self.arg_src(arg)
                ));
            }
        }
        Ok(self.range(c.callee))
    }

    /// The deletions of the legacy file object a files call makes, through its own method
    /// (`myfile = genai.upload_file(...)`, then `myfile.delete()`), which the current client's
    /// `types.File` does not have: each call with the object's name, when every read of the name
    /// that calls it sees this binding alone; else why not.
    fn legacy_file_deletions(&self, call: NodeId) -> Outcome<Vec<(Range<usize>, String)>> {
        let Some(parent) = self.parent(call) else {
            return Ok(Vec::new());
        };
        let Kind::Assign(a) = self.kind(parent) else {
            return Ok(Vec::new());
        };
        let [target] = a.targets.as_slice() else {
            return Ok(Vec::new());
        };
        let Some(name) = self.tree.name(*target) else {
            return Ok(Vec::new());
        };
        let Some(loads) = self.scopes.loads.get(name) else {
            return Ok(Vec::new());
        };
        let mut deletions = Vec::new();
        for &(load, scope) in loads {
            let Some(method) = self.member_named(load, "delete") else {
                continue;
            };
            let Some(called) = self.called(method) else {
                continue;
            };
            let bare = matches!(self.kind(called), Kind::Call(c) if c.args.is_empty());
            // A read that sees another binding alone deletes another object; one of a name
            // bound several times may see this one.
            let only_this = match self.scopes.names.resolve(name, scope, self.start(load)) {
                Resolution::Bound(binding, 1) => match binding.kind {
                    BindingKind::Assign { value, .. } if value == call => true,
                    _ => continue,
                },
                _ => false,
            };
            if !bare || !only_this {
                return Err(format!(
                    "`{}` calls a method of the legacy file object, which the current client's `types.File` does \
                     not have (it deletes with `client.files.delete(name=...)`), on a name bound otherwise too",
                    self.src(called)
                ));
            }
            deletions.push((self.range(called), name.to_string()));
        }
        Ok(deletions)
    }

    /// A legacy files call (`genai.upload_file(path, mime_type=...)`) with its arguments, each
    /// of which has a counterpart in the client's (`client.files.upload(file=path,
    /// config={"mime_type": ...})`).
    fn files_call(&self, member: &str, call: NodeId) -> Outcome<LegacyFilesCall> {
        let shown = match self.kind(call) {
            Kind::Call(c) => format!("`{}`", self.src(c.callee)),
            _ => "``".to_string(),
        };
        let args = self
            .plain_args(call)
            .ok_or_else(|| format!("{shown} is not called with a plain argument list"))?;
        if self.has_comment(self.parens(call)) {
            return Err(format!("a comment in the arguments of {shown} would be lost"));
        }
        // The function, the keyword naming its file (which may come first unnamed), and the
        // keywords the client takes as settings.
        let (function, file, settings): (FilesFunction, Option<&str>, &[&str]) = match member {
            "upload_file" => (
                FilesFunction::Upload,
                Some("path"),
                &["mime_type", "display_name", "name"],
            ),
            "get_file" => (FilesFunction::Get, Some("name"), &[]),
            "delete_file" => (FilesFunction::Delete, Some("name"), &[]),
            _ => (FilesFunction::List, None, &[]),
        };
        let mut arguments = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            match &arg.kind {
                ArgKind::Keyword(k) => {
                    let value = self.range(arg.value);
                    match &*k.name {
                        key if file == Some(key) => arguments.push((None, value)),
                        key if settings.contains(&key) => arguments.push((Some(key.to_string()), value)),
                        key => {
                            return Err(format!(
                                "{shown} is given `{key}`, which has no counterpart in the client"
                            ));
                        }
                    }
                }
                _ if i == 0 && file.is_some() => arguments.push((None, arg.span.range())),
                _ => return Err(format!("{shown} is given an argument interlint cannot place")),
            }
        }
        Ok(LegacyFilesCall {
            call: self.range(call),
            function,
            arguments,
        })
    }

    /// The model a legacy model call names: its first positional argument or its
    /// `model_name`/`model` keyword, as written (the argument's text, and its value node when it
    /// is not a spread).
    fn python_model_argument(&self, model: NodeId) -> Option<(Range<usize>, Option<NodeId>)> {
        self.plain_args(model)?.iter().find_map(|a| match &a.kind {
            ArgKind::Keyword(k) => {
                matches!(&*k.name, "model_name" | "model").then(|| (self.range(a.value), Some(a.value)))
            }
            ArgKind::Positional => Some((a.span.range(), Some(a.value))),
            _ => Some((a.span.range(), None)),
        })
    }

    /// `model.count_tokens(x)`, which becomes `client.models.count_tokens(model=m, contents=x)`:
    /// the model's name and the contents as written.
    fn python_count(&self, model: NodeId, count: NodeId) -> Outcome<LegacyCount> {
        self.plain_args(model)
            .ok_or("the model's arguments are not a plain list")?;
        let (written, node) = self
            .python_model_argument(model)
            .ok_or("the model is not named (the legacy client's default model)")?;
        let (model_text, _) = self.model_text(written, node, self.call_scope(model))?;
        let args = self
            .plain_args(count)
            .ok_or("`count_tokens` is not called with a plain argument list")?;
        if self.has_comment(self.parens(count)) {
            return Err("a comment in the arguments of `count_tokens` would be lost".into());
        }
        let contents = match args {
            [one] => match &one.kind {
                ArgKind::Keyword(k) if &*k.name == "contents" => self.range(one.value),
                ArgKind::Keyword(_) => {
                    return Err("`count_tokens` is given an argument other than the contents".into());
                }
                ArgKind::Positional => one.span.range(),
                _ => return Err("`count_tokens` is not given exactly the contents".into()),
            },
            _ => return Err("`count_tokens` is not given exactly the contents".into()),
        };
        Ok(LegacyCount {
            call: self.range(count),
            client: None,
            model: model_text,
            contents,
        })
    }

    /// A legacy chat (`chat = model.start_chat()`) made with `model`, started with no history
    /// (`history=[]` at most): its turns are requests of the unit (see [`Analyzer::legacy_chat`]).
    fn python_chat(
        &self,
        model: &Model,
        chat: NodeId,
        consumed: &mut HashSet<usize>,
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        let line = self.line(chat);
        let start_args = self
            .plain_args(chat)
            .ok_or("the chat's arguments are not a plain list")?;
        let mut history = Vec::new();
        for arg in start_args {
            match &arg.kind {
                // A history written here goes with the first turn.
                ArgKind::Keyword(k)
                    if &*k.name == "history" && matches!(self.kind(arg.value), Kind::List(_)) =>
                {
                    if let crate::migration_facts::ValueKind::List(items) =
                        self.value(arg.value, self.call_scope(chat), 0).kind
                    {
                        history = items;
                    }
                }
                ArgKind::Keyword(k) if &*k.name == "history" => {
                    return Err(format!("line {line}: {CHAT_HISTORY}"));
                }
                ArgKind::Keyword(k) if &*k.name == "enable_automatic_function_calling" => {
                    return Err(format!(
                        "line {line}: the chat calls the model's functions by itself (automatic function calling); \
                         the interactions endpoint returns a function-call step instead"
                    ));
                }
                _ => {
                    return Err(format!(
                        "line {line}: the chat is started with `{}`, which has no place in an interactions request",
                        self.arg_src(arg)
                    ));
                }
            }
        }
        self.legacy_chat(chat, "_id", history, unit, &mut |turn, unit| {
            let (request, inlined) = self.python_request(model.call, turn, consumed)?;
            unit.removals.extend(inlined);
            Ok(request)
        })
    }

    /// A legacy request with the model's settings merged, and the bindings its config inlines.
    fn python_request(
        &self,
        model: NodeId,
        request: NodeId,
        consumed: &mut HashSet<usize>,
    ) -> Outcome<(LegacyRequest, Vec<Range<usize>>)> {
        let w = self.legacy_words();
        let Kind::Call(r) = self.kind(request) else {
            return Err("the request has no callee".into());
        };
        let function = r.callee;
        let asynchronous =
            matches!(self.kind(function), Kind::Member(m) if &*m.name.name == "generate_content_async");
        let mut model_value: Option<(Range<usize>, Option<NodeId>)> = None;
        let mut settings = Vec::new();
        // The constructor's arguments, then the call's.
        let model_args = self
            .plain_args(model)
            .ok_or("the model's arguments are not a plain list")?;
        let model_scope = self.call_scope(model);
        for (i, arg) in model_args.iter().enumerate() {
            match &arg.kind {
                ArgKind::Keyword(_) => {
                    let entry = self
                        .keyword_entry_of(model, i, model_scope)
                        .ok_or("an argument of the model is not a plain keyword")?;
                    match entry.key.as_str() {
                        "model_name" | "model" if model_value.is_none() => {
                            model_value = Some((self.range(arg.value), Some(arg.value)));
                        }
                        key if w.is_setting(key) => settings.push(entry),
                        key => {
                            return Err(format!(
                                "the model is given `{key}`, which has no place in an interactions request"
                            ));
                        }
                    }
                }
                ArgKind::Spread | ArgKind::KeywordSpread => {
                    return Err("the model's arguments are spread from a variable".into());
                }
                ArgKind::Positional if i == 0 => model_value = Some((arg.span.range(), Some(arg.value))),
                ArgKind::Positional => {
                    return Err("the model is given more than one positional argument".into());
                }
            }
        }
        let (written, node) =
            model_value.ok_or("the model is not named (the legacy client's default model)")?;
        let (model_text, model_id) = self.model_text(written, node, model_scope)?;
        let args = self
            .plain_args(request)
            .ok_or("the request's arguments are not a plain list")?;
        let request_scope = self.call_scope(request);
        let mut contents = None;
        let mut stream = false;
        let mut timeout = None;
        for (i, arg) in args.iter().enumerate() {
            match &arg.kind {
                ArgKind::Keyword(_) => {
                    let entry = self
                        .keyword_entry_of(request, i, request_scope)
                        .ok_or("an argument of the request is not a plain keyword")?;
                    match entry.key.as_str() {
                        // A chat's turn sends its `content`.
                        "contents" | "content" if contents.is_none() => contents = Some(entry.value),
                        // The call's generation config is merged into the model's, key by key.
                        "generation_config" => settings.push(entry),
                        key if w.is_setting(key) => {
                            if settings.iter().any(|s| s.key == key) {
                                return Err(format!("`{key}` is set on both the model and the call"));
                            }
                            settings.push(entry);
                        }
                        // Request options of a timeout alone: the interactions call's `timeout`.
                        "request_options" => {
                            match entry.value.as_map().map(|m| (m.complete, m.entries.as_slice())) {
                                Some((true, [only])) if only.key == "timeout" => {
                                    timeout = self.text.get(only.value.range.clone()).map(str::to_string);
                                }
                                _ => {
                                    return Err(
                                    "the request is given `request_options` other than a timeout, which has no \
                                     place in an interactions request"
                                        .into(),
                                );
                                }
                            }
                        }
                        "stream" => match self.arg_src(arg).rsplit('=').next().map(str::trim) {
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
                ArgKind::Spread | ArgKind::KeywordSpread => {
                    return Err("the request's arguments are spread from a variable".into());
                }
                ArgKind::Positional if i == 0 => contents = Some(self.value(arg.value, request_scope, 0)),
                ArgKind::Positional => {
                    return Err("the request is given more than one positional argument".into());
                }
            }
        }
        let contents = contents.ok_or("the request has no contents")?;
        let (Some(first), Some(last)) = (args.first(), args.last()) else {
            return Err("the request has no arguments".into());
        };
        let span = first.span.start as usize..last.span.end as usize;
        if self.has_comment(span.clone()) {
            return Err("a comment inside the call's arguments would be lost".into());
        }
        let mut inlined = Vec::new();
        let mut entries = Vec::new();
        let mut generation_keys: Vec<String> = Vec::new();
        for entry in settings {
            self.setting(entry, &mut entries, &mut inlined, &mut generation_keys, consumed)?;
        }
        Ok((
            LegacyRequest {
                asynchronous,
                stream,
                timeout,
                ..self.legacy_request(request, span, (model_text, model_id), contents, entries)
            },
            inlined,
        ))
    }
}

/// A type written as a response schema: a class name (`Recipe`) or a list of one (`list[Recipe]`).
fn is_schema_type(written: &str) -> bool {
    use crate::migration_facts::{is_class_name, list_item_type};
    is_class_name(written.trim()) || list_item_type(written).is_some_and(is_class_name)
}
