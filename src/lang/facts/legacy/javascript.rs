//! JavaScript's way into the legacy package: `GoogleGenerativeAI` imported or required from
//! `@google/generative-ai`, the clients made with `new`, their `getGenerativeModel` models, and
//! the reads of the requests' results (`result.response.text()`).

use std::collections::HashSet;
use std::ops::Range;

use super::{
    CHAT_HISTORY, ConfigProblem, Imports, LegacyPackage, LegacyWords, Model, ModelBinding, ModelText, Outcome,
};
use crate::lang::bindings::Binding;
use crate::lang::facts::scope::{BindingKind, exported};
use crate::lang::facts::{Analyzer, string_content};
use crate::lang::ir::{ArgKind, DeclKind, ImportName, Key, Kind, NodeId};
use crate::migration_facts::{
    ClientSite, Entry, LegacyClient, LegacyCount, LegacyImport, LegacyRequest, LegacyStreamLoop, LegacyUnit,
    ValueKind,
};

/// The legacy package; its sub-paths (`/server`) belong to it too.
pub(super) const LEGACY_PACKAGE: &str = "@google/generative-ai";
pub(super) const LEGACY_CLASS: &str = "GoogleGenerativeAI";

/// Names the legacy package exports that the current package exports alike (the same enum
/// values): an import of the class may keep them.
const KEPT_NAMES: &[&str] = &["HarmCategory", "HarmBlockThreshold"];

/// A name bound by `const name = value` (one declarator), with its binding.
/// A request's result in a name the unit's other requests bind too ([`Analyzer::rebound_result`]).
struct Rebound {
    name: String,
    /// Every binding of the name (its start, its scope).
    bindings: Vec<(usize, usize)>,
    /// This request's binding is the name's first, whose reads are read for all.
    first: bool,
}

pub(super) struct Constant {
    pub name: String,
    pub start: usize,
    pub scope: usize,
    pub statement: NodeId,
}

/// JavaScript's legacy package: a class whose clients make models, whose results hold a
/// response with methods (`result.response.text()`).
pub(crate) struct JavaScriptLegacy;

impl LegacyPackage for JavaScriptLegacy {
    fn words(&self) -> &'static LegacyWords {
        &super::LEGACY_WORDS[1]
    }

    fn makes_unit(&self, a: &Analyzer<'_>, kind: BindingKind) -> bool {
        a.legacy_source(kind).as_deref() == Some(LEGACY_PACKAGE)
            && a.imported_name(kind) == Some(LEGACY_CLASS)
    }

    fn unit(&self, a: &Analyzer<'_>, name: &str, of: &Imports, n: usize, to: &mut LegacyUnit) -> Outcome<()> {
        let binding = *of.first().ok_or("no import")?;
        a.javascript_unit(name, binding, n, to)
    }

    /// `const name = model`.
    fn model_binding(&self, a: &Analyzer<'_>, call: NodeId) -> Option<ModelBinding> {
        let constant = a.constant(call)?;
        let loads = a
            .loads_of(&constant.name, &[(constant.start, constant.scope)])
            .into_iter()
            .map(|(load, _)| (load, false))
            .collect();
        Some(ModelBinding {
            name: constant.name,
            statement: constant.statement,
            loads,
        })
    }

    fn unbound_model(&self, line: usize) -> String {
        format!("the model of line {line} is not bound by `const` to a name of its own")
    }

    fn counts_in_place(&self) -> bool {
        true
    }

    /// The value as written.
    fn model_text(&self, a: &Analyzer<'_>, written: &str, node: NodeId, scope: usize) -> ModelText {
        match a.value(node, scope, 0).kind {
            ValueKind::Str(id) => crate::migration_facts::legacy_model_text(Some(&id), written, true),
            _ => crate::migration_facts::legacy_model_text(None, written, false),
        }
    }

    fn model_used_for(&self, name: &str, line: usize, member: &str) -> String {
        format!(
            "the model object `{name}` (line {line}) is used for `{member}`, which has no automatic rewrite"
        )
    }

    fn config_problem(&self, problem: ConfigProblem) -> String {
        match problem {
            ConfigProblem::NotLiteral => "`generationConfig` is not an object literal".into(),
            ConfigProblem::NameHoldsOther(name) | ConfigProblem::NameUnbound(name) => {
                format!("`generationConfig` is `{name}`, which is not bound to an object literal")
            }
        }
    }

    fn not_a_list(&self, _: &Analyzer<'_>, entry: &Entry) -> String {
        format!("`{}` is not an array interlint can read", entry.key)
    }

    fn incomplete_config(&self) -> &'static str {
        "the generation config has a spread, a method or a computed key"
    }
}

/// A default (`import G from`) or namespace (`import * as G from`) import.
fn whole_module(name: &ImportName) -> bool {
    &*name.name.name == "*" || &*name.name.name == "default" && name.name.span == name.span
}

impl Analyzer<'_> {
    /// The legacy package (or a sub-path of it) a binding imports from.
    pub(super) fn legacy_source(&self, kind: BindingKind) -> Option<String> {
        let module = match kind {
            BindingKind::Import { statement, .. } => match self.kind(statement) {
                Kind::Import(import) => import.module.as_ref()?.name.to_string(),
                _ => return None,
            },
            BindingKind::Destructure { value, .. } => {
                let call = self.tree.unwrap(value);
                if self.is_new(call) {
                    return None;
                }
                self.required_module(call)?
            }
            _ => return None,
        };
        (module == LEGACY_PACKAGE || module.starts_with(&format!("{LEGACY_PACKAGE}/"))).then_some(module)
    }

    /// The exported name a binding imports (`GoogleGenerativeAI` of `{ GoogleGenerativeAI as G }`).
    pub(super) fn imported_name(&self, kind: BindingKind) -> Option<&str> {
        match kind {
            BindingKind::Import { statement, index } => match self.kind(statement) {
                Kind::Import(import) => import
                    .names
                    .get(index as usize)
                    .filter(|n| !whole_module(n))
                    .map(|n| &*n.name.name),
                _ => None,
            },
            BindingKind::Destructure { key, entry, .. } => self.destructured_key(key, entry),
            _ => None,
        }
    }

    pub(super) fn javascript_unit(
        &self,
        name: &str,
        binding: &Binding<BindingKind>,
        bindings: usize,
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        let import = self.import_rewrite(binding.kind);
        // The clients, their models and the requests are found first, so that a blocked unit
        // still knows its calls.
        let mut problem: Option<String> = None;
        let mut clients = Vec::new();
        for (load, _) in self.loads_of(name, &[(binding.start, binding.scope)]) {
            match self.client_of(load) {
                Ok(client) => clients.push(client),
                Err(why) => {
                    problem.get_or_insert(why);
                }
            }
        }
        let mut models = Vec::new();
        for (_, constant) in &clients {
            for (load, scope) in self.loads_of(&constant.name, &[(constant.start, constant.scope)]) {
                match self.model_of(load, scope, &constant.name) {
                    Ok(model) => {
                        unit.calls.extend(model.requests.iter().map(|&r| self.range(r)));
                        unit.calls.extend(model.chats.iter().map(|&c| self.range(c)));
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
        let (statement, class, package) = import?;
        unit.import = self.range(statement);
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
        // Bound to the class's own name, the class is renamed; an alias stays.
        let alias = (name != LEGACY_CLASS).then(|| name.to_string());
        unit.imported = Some(LegacyImport::Class {
            class,
            package,
            alias,
        });
        let mut clients = clients.into_iter();
        let Some((first, constant)) = clients.next() else {
            return Err(format!("no client is made with `{name}`"));
        };
        unit.client_name = constant.name.clone();
        unit.client = Some(ClientSite::New(self.legacy_client(first)?));
        for (other, _) in clients {
            unit.other_clients.push(self.legacy_client(other)?);
        }
        for model in &models {
            self.remove_model(model, unit)?;
            for &count in &model.counts {
                unit.counts.push(self.javascript_count(model, count)?);
            }
            for &request in &model.requests {
                let (legacy, inlined) = self.javascript_request(model, request)?;
                unit.requests.push(legacy);
                unit.removals.extend(inlined);
                self.result_reads(request, unit)?;
            }
            for &chat in &model.chats {
                self.javascript_chat(model, chat, unit)?;
            }
        }
        Ok(())
    }

    /// A legacy chat (`const chat = model.startChat()`) made with `model`, started with no
    /// history (`{ history: [] }` at most): its turns are requests of the unit, their results
    /// read as the unit's requests' are (see [`Analyzer::legacy_chat`]).
    fn javascript_chat(&self, model: &Model, chat: NodeId, unit: &mut LegacyUnit) -> Outcome<()> {
        let line = self.line(chat);
        let mut history = Vec::new();
        match self.args(chat) {
            [] => {}
            [only] if only.kind == ArgKind::Positional => {
                let map = self.dict_map(only.value, model.scope, 0);
                if !map.complete || !matches!(self.kind(only.value), Kind::Dict(_)) {
                    return Err(format!(
                        "line {line}: the chat's parameters are not an object literal"
                    ));
                }
                for entry in map.entries {
                    match (entry.key.as_str(), entry.value.kind) {
                        // A history written here goes with the first turn.
                        ("history", crate::migration_facts::ValueKind::List(items)) => history = items,
                        ("history", _) => {
                            return Err(format!("line {line}: {CHAT_HISTORY}"));
                        }
                        (key, _) => {
                            return Err(format!(
                                "line {line}: the chat is started with `{key}`, which has no place in an interactions \
                                 request"
                            ));
                        }
                    }
                }
            }
            _ => return Err(format!("line {line}: the chat's arguments are not one object")),
        }
        self.legacy_chat(chat, "Id", history, unit, &mut |turn, unit| {
            let (request, inlined) = self.javascript_request(model, turn)?;
            unit.removals.extend(inlined);
            self.result_reads(turn, unit)?;
            Ok(request)
        })
    }

    /// The import statement (or `require` declaration), with where the class's exported name
    /// and the package's name (within its quotes) are written in it: both are replaced by the
    /// current package's.
    fn import_rewrite(&self, kind: BindingKind) -> Outcome<(NodeId, Range<usize>, Range<usize>)> {
        let (statement, key, source) = match kind {
            BindingKind::Import { statement, index } => {
                let Kind::Import(import) = self.kind(statement) else {
                    return Err("the import is not a statement".into());
                };
                let (Some(name), Some(module)) = (import.names.get(index as usize), &import.module) else {
                    return Err("the import is not one interlint can rewrite".into());
                };
                if whole_module(name) || import.names.iter().any(whole_module) {
                    return Err("the import statement imports other names too".into());
                }
                // Beside the class, only names the current package exports alike may stay.
                for specifier in &import.names {
                    let imported = &*specifier.name.name;
                    if imported != LEGACY_CLASS && !KEPT_NAMES.contains(&imported) {
                        return Err(format!(
                            "the import statement imports `{imported}` too, which the current package does not export alike"
                        ));
                    }
                }
                if self.src(statement).starts_with("import type") {
                    return Err("the import imports types only".into());
                }
                (statement, name.name.span.range(), module.span.range())
            }
            BindingKind::Destructure { value, key, entry } => {
                let Kind::Dict(pattern) = self.kind(key) else {
                    return Err("the require is not destructured".into());
                };
                let declarator = self
                    .parent(key)
                    .filter(|&d| matches!(self.kind(d), Kind::Assign(_)))
                    .ok_or("the require is not a declaration")?;
                let statement = self.parent(declarator).ok_or("the require is not a statement")?;
                let declarators = match self.kind(statement) {
                    Kind::Declaration { declarators, .. } => declarators.len(),
                    _ => 0,
                };
                let call = self.tree.unwrap(value);
                if pattern.items.len() != 1
                    || declarators != 1
                    || call != value
                    || exported(self.tree, self.text, statement)
                {
                    return Err("the require statement binds other names too".into());
                }
                let source = self
                    .args(call)
                    .first()
                    .map(|a| self.range(a.value))
                    .ok_or("the require has no argument")?;
                let key = match pattern.items.get(entry as usize).map(|e| &e.key) {
                    Some(Key::Name(k)) => k.span.range(),
                    _ => return Err("the import is not one interlint can rewrite".into()),
                };
                (statement, key, source)
            }
            _ => return Err("the import is not one interlint can rewrite".into()),
        };
        // The exported name and the package are replaced within the statement as written: both
        // are in it, apart.
        let module = string_content(source);
        let statement_range = self.range(statement);
        let within = |r: &Range<usize>| {
            statement_range.start <= r.start
                && r.end <= statement_range.end
                && self.text.get(r.clone()).is_some()
        };
        if !within(&key) || !within(&module) || key.start < module.end && module.start < key.end {
            return Err("the import is not one interlint can rewrite".into());
        }
        Ok((statement, key, module))
    }

    /// `const name = value` with one declarator, not exported: the name's binding.
    pub(super) fn constant(&self, value: NodeId) -> Option<Constant> {
        let (declarator, a) = self.assigned(value)?;
        let statement = self.parent(declarator)?;
        let Kind::Declaration { kind, declarators } = self.kind(statement) else {
            return None;
        };
        let target = *a.targets.first()?;
        let name = self.tree.name(target)?;
        if *kind != DeclKind::Const || declarators.len() != 1 || exported(self.tree, self.text, statement) {
            return None;
        }
        let start = self.start(target);
        // The declaration's binding, the only one of the name in its scope.
        let (scope, list) = self
            .scopes
            .names
            .bindings
            .iter()
            .find(|((_, n), list)| n == name && list.iter().any(|b| b.start == start))
            .map(|((scope, _), list)| (*scope, list))?;
        if list.len() != 1 {
            return None;
        }
        Some(Constant {
            name: name.to_string(),
            start,
            scope,
            statement,
        })
    }

    /// A request's result bound to a name that other requests on the same receiver (the turns
    /// of one chat, the requests of one model) bind again, all in one scope: `let result = await
    /// chat.sendMessage(a)`, then `result = await chat.sendMessage(b)`. Each of the name's
    /// bindings holds an interaction of the unit, so each read of it reads one; `None` when a
    /// binding holds anything else, the name is declared with a type, or a read may see a binding
    /// of another scope.
    fn rebound_result(&self, request: NodeId) -> Option<Rebound> {
        let callee_object = |call: NodeId| match self.kind(call) {
            Kind::Call(c) if !c.new => match self.kind(c.callee) {
                Kind::Member(m) => Some((m.object, m.name.name.to_string())),
                _ => None,
            },
            _ => None,
        };
        let (receiver, method) = callee_object(request)?;
        let receiver = self.src(receiver).trim().to_string();
        let (_, a) = self.assigned(request)?;
        let top = a.value?;
        let target = *a.targets.first()?;
        if a.targets.len() != 1 {
            return None;
        }
        let name = self.tree.name(target)?.to_string();
        let scope = self.call_scope(request);
        let declaring = self.scopes.names.declaring_scope(&name, scope)?;
        let list = self.scopes.names.all_bindings(&name, scope);
        if list.len() < 2 {
            return None;
        }
        let mut declarations = 0;
        for b in list {
            let BindingKind::Assign { value, .. } = b.kind else {
                return None;
            };
            // The value: an awaited request of the same method on the same receiver.
            let mut call = value;
            while self.transparent(call) {
                call = match self.kind(call) {
                    Kind::Await(inner) | Kind::Paren(inner) | Kind::Cast(inner) => *inner,
                    _ => break,
                };
            }
            let (object, called) = callee_object(call)?;
            if called != method || self.src(object).trim() != receiver || value == call {
                return None;
            }
            let declarator = self.parent(value)?;
            match self.parent(declarator).map(|s| (s, self.kind(s))) {
                Some((statement, Kind::Declaration { kind, declarators })) => {
                    let Kind::Assign(d) = self.kind(declarator) else {
                        return None;
                    };
                    // `let result = ...` alone, with no type written (`let result: R = ...`).
                    let typed = d.targets.first().is_some_and(|&t| {
                        self.text
                            .get(self.end(t)..self.start(value))
                            .is_some_and(|between| between.contains(':'))
                    });
                    if *kind != DeclKind::Let
                        || declarators.len() != 1
                        || typed
                        || exported(self.tree, self.text, statement)
                    {
                        return None;
                    }
                    declarations += 1;
                }
                // An assignment statement (`result = await ...;`: an assignment the lowering
                // makes a statement of).
                _ if matches!(self.kind(declarator), Kind::Assign(_)) => {}
                _ => return None,
            }
        }
        if declarations != 1 {
            return None;
        }
        let bindings: Vec<(usize, usize)> = list.iter().map(|b| (b.start, declaring)).collect();
        // Every read of the name in its scope sees one of them (none is in a function that may
        // run later, where it could see any).
        for &(load, load_scope) in self
            .scopes
            .loads
            .get(name.as_str())
            .map_or(&[][..], Vec::as_slice)
        {
            if self.scopes.names.declaring_scope(&name, load_scope) != Some(declaring) {
                continue;
            }
            match self.scopes.names.resolve(&name, load_scope, self.start(load)) {
                crate::lang::facts::scope::Resolution::Bound(b, _) if b.scope == declaring => {}
                _ => return None,
            }
        }
        let first = list
            .first()
            .is_some_and(|b| matches!(b.kind, BindingKind::Assign { value, .. } if value == top));
        Some(Rebound {
            name,
            bindings,
            first,
        })
    }

    /// The assignment (a declarator, or an assignment statement) whose value is `value`, seen
    /// through what is [`Analyzer::transparent`] around it (`await`, parentheses).
    fn assigned(&self, value: NodeId) -> Option<(NodeId, &crate::lang::ir::Assign)> {
        let mut top = value;
        while let Some(parent) = self.parent(top).filter(|&p| self.transparent(p)) {
            top = parent;
        }
        let assign = self.parent(top)?;
        match self.kind(assign) {
            Kind::Assign(a) if a.value == Some(top) => Some((assign, a)),
            _ => None,
        }
    }

    /// `await`, parentheses, `as` and `!` around a value.
    fn transparent(&self, node: NodeId) -> bool {
        match self.kind(node) {
            Kind::Await(_) | Kind::Paren(_) => true,
            Kind::Cast(inner) => {
                let after = self
                    .text
                    .get(self.end(*inner)..self.end(node))
                    .unwrap_or_default()
                    .trim_start();
                let inner_start = self.start(*inner) == self.start(node);
                inner_start && (after.starts_with("as") || after.starts_with('!'))
            }
            _ => false,
        }
    }

    /// A load of the legacy class: `const genAI = new GoogleGenerativeAI(KEY)`.
    fn client_of(&self, load: NodeId) -> Outcome<(NodeId, Constant)> {
        let line = self.line(load);
        let creation = self
            .parent(load)
            .filter(|&p| matches!(self.kind(p), Kind::Call(c) if c.new && c.callee == load))
            .ok_or_else(|| {
                format!(
                    "`{}` is used otherwise than to make a client (line {line})",
                    self.src(load)
                )
            })?;
        match self.constant(creation) {
            Some(constant) => Ok((creation, constant)),
            None => Err(
                match self.parent(creation).and_then(|p| self.assigned_to(creation, p)) {
                    Some(target) => format!("the client of line {line} is stored in `{}`", self.src(target)),
                    None => format!("the client of line {line} is not bound by `const` to a name of its own"),
                },
            ),
        }
    }

    /// `new GoogleGenerativeAI(KEY)`, made with an API key at most (it becomes `new
    /// GoogleGenAI({ apiKey: KEY })`).
    fn legacy_client(&self, creation: NodeId) -> Outcome<LegacyClient> {
        if self.has_comment(self.range(creation)) {
            return Err("a comment in the client's creation would be lost".into());
        }
        let key = match self.args(creation) {
            [] => None,
            [key] if key.kind != ArgKind::Spread => Some(key.span.range()),
            _ => return Err("the client is made with more than an API key".into()),
        };
        Ok(LegacyClient {
            creation: self.range(creation),
            key,
        })
    }

    /// A load of a client: `client.getGenerativeModel({...})`, bound to a name used only by
    /// `generateContent` calls or called at once; else why not, with the calls found.
    fn model_of(
        &self,
        load: NodeId,
        scope: usize,
        client: &str,
    ) -> Result<Model, (String, Vec<Range<usize>>)> {
        let line = self.line(load);
        let (_, method, call) = self.member_call(load);
        let call = match (method, call) {
            (Some("getGenerativeModel"), Some(call)) => call,
            (Some("getGenerativeModelFromCachedContent"), call) => {
                return Err((
                    format!(
                        "the model of line {line} is made from a cached content; the interactions endpoint does not support explicit caching"
                    ),
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
        let mut model = Model::new(call, scope);
        model.client = client.to_string();
        match self.model_uses(model, line) {
            (model, None) => Ok(model),
            (model, Some(why)) => {
                let calls = model
                    .requests
                    .iter()
                    .map(|&r| self.range(r))
                    .chain(model.streams.iter().cloned())
                    .collect();
                Err((why, calls))
            }
        }
    }

    /// The model's parameters: its one argument, an object literal.
    fn model_parameters(&self, model: &Model) -> Option<NodeId> {
        match self.args(model.call) {
            [only] if only.kind == ArgKind::Positional => {
                let object = self.tree.unwrap(only.value);
                matches!(self.kind(object), Kind::Dict(_)).then_some(object)
            }
            _ => None,
        }
    }

    /// `model.countTokens(x)`, which becomes `client.models.countTokens({ model: "m", contents:
    /// x })`: the model's name and the contents as written.
    fn javascript_count(&self, model: &Model, count: NodeId) -> Outcome<LegacyCount> {
        let parameters = self
            .model_parameters(model)
            .ok_or("the model's parameters are not an object literal")?;
        let map = self.dict_map(parameters, model.scope, 0);
        let model_value = map
            .entries
            .iter()
            .find(|e| e.key == "model")
            .map(|e| &e.value)
            .ok_or("the model is not named")?;
        let (model_text, _) = self.javascript_model_text(model_value)?;
        if self.has_comment(self.parens(count)) {
            return Err("a comment in the arguments of `countTokens` would be lost".into());
        }
        let contents = match self.args(count) {
            [only]
                if only.kind == ArgKind::Positional
                    && !matches!(self.kind(self.tree.unwrap(only.value)), Kind::Dict(_)) =>
            {
                only.span.range()
            }
            _ => return Err("`countTokens` is not given exactly the contents".into()),
        };
        Ok(LegacyCount {
            call: self.range(count),
            client: Some(model.client.clone()),
            model: model_text,
            contents,
        })
    }

    /// The model as the new call writes it, and its id when it is a literal.
    fn javascript_model_text(
        &self,
        value: &crate::migration_facts::Value,
    ) -> Outcome<(String, Option<String>)> {
        let written = self.text.get(value.range.clone()).unwrap_or_default();
        match &value.kind {
            crate::migration_facts::ValueKind::Str(id) => {
                crate::migration_facts::legacy_model_text(Some(id), written, true)
            }
            _ => crate::migration_facts::legacy_model_text(None, written, false),
        }
    }

    /// A legacy request with the model's settings merged, and the bindings its config inlines.
    fn javascript_request(
        &self,
        model: &Model,
        request: NodeId,
    ) -> Outcome<(LegacyRequest, Vec<Range<usize>>)> {
        let w = self.legacy_words();
        let Kind::Call(r) = self.kind(request) else {
            return Err("the request has no callee".into());
        };
        let function = r.callee;
        if self.has_comment(self.range(function)) {
            return Err("a comment in the model's parameters would be lost".into());
        }
        let parameters = match (self.model_parameters(model), self.args(model.call)) {
            (Some(parameters), _) => parameters,
            (None, [_]) => return Err("the model's parameters are not an object literal".into()),
            _ => return Err("the model is given request options (`apiVersion`, `baseUrl`, ...)".into()),
        };
        let map = self.dict_map(parameters, model.scope, 0);
        if !map.complete {
            return Err("the model's parameters have a spread, a method or a computed key".into());
        }
        let mut model_value = None;
        let mut entries = Vec::new();
        let mut inlined = Vec::new();
        let mut generation_keys = Vec::new();
        let mut consumed = HashSet::new();
        for entry in map.entries {
            match entry.key.as_str() {
                "model" => model_value = Some(entry.value),
                key if w.is_setting(key) => self.setting(
                    entry,
                    &mut entries,
                    &mut inlined,
                    &mut generation_keys,
                    &mut consumed,
                )?,
                key => {
                    return Err(format!(
                        "the model is given `{key}`, which has no place in an interactions request"
                    ));
                }
            }
        }
        let model_value = model_value.ok_or("the model is not named")?;
        let (model_text, model_id) = self.javascript_model_text(&model_value)?;
        let args = self.args(request);
        let (contents, contents_node) = match args {
            [only] if only.kind == ArgKind::Spread => {
                return Err("the request's arguments are spread from a variable".into());
            }
            [only] if matches!(self.kind(self.tree.unwrap(only.value)), Kind::Dict(_)) => {
                let object = self.tree.unwrap(only.value);
                let request_map = self.dict_map(object, model.scope, 0);
                match request_map.entries.as_slice() {
                    [entry] if request_map.complete && entry.key == "contents" => {
                        (entry.value.clone(), self.property(object, "contents"))
                    }
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
            [only] => (self.value(only.value, model.scope, 0), Some(only.value)),
            [] => return Err("the request has no contents".into()),
            _ => return Err("the request is given request options".into()),
        };
        let contents_range = contents.range.clone();
        let spread = contents_node
            .map(|node| self.tree.unwrap(node))
            .is_some_and(|node| {
                matches!(self.kind(node), Kind::List(l)
                    if l.items.iter().any(|&i| matches!(self.kind(i), Kind::Spread { .. })))
            });
        if spread {
            return Err(format!(
                "the contents are spread from a variable (`{}`)",
                crate::diagnostic::one_line(self.text.get(contents_range.clone()).unwrap_or_default())
            ));
        }
        let parens = self.parens(request);
        let inner = parens.start + 1..parens.end.saturating_sub(1);
        if self.scopes.comments.iter().any(|c| {
            c.start >= inner.start
                && c.end <= inner.end
                && (c.end <= contents_range.start || c.start >= contents_range.end)
        }) {
            return Err("a comment inside the call's arguments would be lost".into());
        }
        let span = args
            .first()
            .map(|f| f.span.range())
            .ok_or("the request has no arguments")?;
        Ok((
            LegacyRequest {
                client: Some(model.client.clone()),
                stream: matches!(self.kind(function), Kind::Member(m)
                    if &*m.name.name == w.create_stream || *m.name.name == *self.words.send_stream),
                ..self.legacy_request(request, span, (model_text, model_id), contents, entries)
            },
            inlined,
        ))
    }

    /// The reads of a request's result: `(await model.generateContent(x)).response.text()`, or
    /// through `const result = await ...`, `result.response.text()` and
    /// `const response = [await] result.response`, `response.text()`; each answer read becomes
    /// the interaction's, any other read blocks the unit.
    fn result_reads(&self, request: NodeId, unit: &mut LegacyUnit) -> Outcome<()> {
        let line = self.line(request);
        if let Kind::Call(c) = self.kind(request)
            && matches!(self.kind(c.callee), Kind::Member(m)
                if &*m.name.name == self.legacy_words().create_stream || *m.name.name == *self.words.send_stream)
        {
            return self.stream_reads(request, line, unit);
        }
        let awaited = self
            .parent(request)
            .filter(|&p| matches!(self.kind(p), Kind::Await(_)));
        let Some(result) = awaited else {
            let returned = self.parent(request).is_some_and(|p| self.returns(p, request));
            return Err(if returned {
                format!("the result of the request of line {line} is returned")
            } else {
                format!("the result of the request of line {line} is not awaited where it is made")
            });
        };
        let parent = self.parent(result).ok_or("the request has no context")?;
        match self.kind(parent) {
            Kind::Expr(_) => Ok(()),
            Kind::Paren(_) => {
                let member = self.member_named(parent, "response").ok_or_else(|| {
                    format!("the result of the request of line {line} is read otherwise than as its text")
                })?;
                self.answer_read(member, self.start(parent)..self.end(parent), unit)
                    .ok_or_else(|| self.read_problem(member, line))
            }
            _ => {
                if let Some(rebound) = self.rebound_result(request) {
                    // The first binding's request reads for every turn: each read sees one of
                    // the bindings, all of them interactions of the unit.
                    return match rebound.first {
                        true => self.result_name_reads(&rebound.name, &rebound.bindings, line, unit),
                        false => Ok(()),
                    };
                }
                let Some(constant) = self.constant(request) else {
                    return Err(if self.returns(parent, result) {
                        format!("the result of the request of line {line} is returned")
                    } else if matches!(self.kind(parent), Kind::Assign(_))
                        && self
                            .parent(parent)
                            .is_some_and(|p| matches!(self.kind(p), Kind::Declaration { .. }))
                    {
                        format!(
                            "the result of the request of line {line} is destructured or not bound by `const`"
                        )
                    } else {
                        format!("the result of the request of line {line} is passed on")
                    });
                };
                self.result_name_reads(&constant.name, &[(constant.start, constant.scope)], line, unit)
            }
        }
    }

    /// The reads of a request's result through the name `name` holding it (the reads seeing one
    /// of `bindings`): each an answer read, or `const response = [await] result.response` whose
    /// reads are.
    fn result_name_reads(
        &self,
        name: &str,
        bindings: &[(usize, usize)],
        line: usize,
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        for (load, _) in self.loads_of(name, bindings) {
            let Some(member) = self.member_named(load, "response") else {
                if self.harmless_use(load) {
                    continue;
                }
                return Err(format!(
                    "the result `{name}` is passed on or read otherwise than as its text (line {})",
                    self.line(load)
                ));
            };
            if self
                .answer_read(member, self.start(load)..self.end(load), unit)
                .is_some()
            {
                continue;
            }
            // `const response = [await] result.response;` then `response.text()`.
            let Some(response) = self.constant(member) else {
                return Err(self.read_problem(member, line));
            };
            unit.responses.push(self.end(load)..self.end(member));
            for (read, _) in self.loads_of(&response.name, &[(response.start, response.scope)]) {
                let text = self.member_call(read).0.and_then(|m| self.text_call(m));
                match text {
                    Some(call) => unit.answers.push(crate::migration_facts::AnswerRead {
                        start: self.start(read),
                        suffix: self.end(read)..self.end(call),
                    }),
                    None if self.harmless_use(read) => {}
                    None => {
                        return Err(format!(
                            "the response `{}` is passed on or read otherwise than as its text (line {})",
                            response.name,
                            self.line(read)
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The reads of a streamed request's result: `const result = await
    /// model.generateContentStream(x)` whose every read is `for await (const chunk of
    /// result.stream) { ... chunk.text() ... }`; the interactions stream is iterated itself, and
    /// its events carry text deltas.
    fn stream_reads(&self, request: NodeId, line: usize, unit: &mut LegacyUnit) -> Outcome<()> {
        let awaited = self
            .parent(request)
            .filter(|&p| matches!(self.kind(p), Kind::Await(_)));
        if awaited.is_some()
            && let Some(rebound) = self.rebound_result(request)
        {
            return match rebound.first {
                true => self.stream_name_reads(&rebound.name, &rebound.bindings, unit),
                false => Ok(()),
            };
        }
        let constant = awaited.and_then(|_| self.constant(request)).ok_or_else(|| {
            format!("the stream of the request of line {line} is not bound by `const` where it is made")
        })?;
        self.stream_name_reads(&constant.name, &[(constant.start, constant.scope)], unit)
    }

    /// The reads of a stream through the name `name` holding it (the reads seeing one of
    /// `bindings`): each a `for await` loop over its `.stream`, reading each chunk's text.
    fn stream_name_reads(
        &self,
        name: &str,
        bindings: &[(usize, usize)],
        unit: &mut LegacyUnit,
    ) -> Outcome<()> {
        for (load, _) in self.loads_of(name, bindings) {
            let member = self.member_named(load, "stream").ok_or_else(|| {
                let read = self.member_call(load).1.unwrap_or("itself");
                format!(
                    "the stream `{name}` is read as `{read}` (line {}), which an interactions stream does not have",
                    self.line(load)
                )
            })?;
            let for_loop = self.parent(member);
            let (Some(for_loop), Some(Kind::For(f))) = (for_loop, for_loop.map(|p| self.kind(p))) else {
                return Err(format!(
                    "`{name}.stream` is used otherwise than iterated by `for await` (line {})",
                    self.line(load)
                ));
            };
            if f.iter != member || !f.is_async || f.keys {
                return Err(format!(
                    "`{name}.stream` is used otherwise than iterated by `for await` (line {})",
                    self.line(load)
                ));
            }
            let chunk = self
                .tree
                .name(f.target)
                .ok_or_else(|| format!("each chunk of `{name}.stream` is destructured"))?
                .to_string();
            let [block] = f.body.as_slice() else {
                return Err(format!("the loop over `{name}.stream` has no block"));
            };
            let Some((body_start, indent)) = self.block_start(*block) else {
                return Err(format!(
                    "the loop over `{name}.stream` is one statement without braces (line {})",
                    self.line(load)
                ));
            };
            let mut stream_loop = LegacyStreamLoop {
                chunk: chunk.clone(),
                body_start,
                indent,
                texts: Vec::new(),
                capture: None,
            };
            // The reads of the chunk in the loop; one where another binding holds it, or after
            // the loop, blocks the unit.
            let mut other = Vec::new();
            for (read, _) in self.loop_variable_reads(for_loop, f, &chunk, &mut other) {
                match self.member_call(read).0.and_then(|m| self.text_call(m)) {
                    Some(call) => stream_loop.texts.push(self.end(read)..self.end(call)),
                    None if self.harmless_use(read) => {}
                    None => {
                        return Err(format!(
                            "the chunk `{chunk}` is read otherwise than as its text (line {})",
                            self.line(read)
                        ));
                    }
                }
            }
            if let Some(crate::migration_facts::ResultUse::Escape { range, .. }) = other.first() {
                let line = self
                    .text
                    .get(..range.start)
                    .map_or(0, |t| t.matches('\n').count())
                    + 1;
                return Err(format!(
                    "the chunk `{chunk}` is read otherwise than as its text (line {line})"
                ));
            }
            unit.responses.push(self.end(load)..self.end(member));
            unit.stream_loops.push(stream_loop);
        }
        Ok(())
    }

    /// The `generateContent` calls of a model bound by `const`, for a model not migrated.
    fn requests_of(&self, model: NodeId) -> Vec<Range<usize>> {
        let Some(constant) = self.constant(model) else {
            return Vec::new();
        };
        self.loads_of(&constant.name, &[(constant.start, constant.scope)])
            .into_iter()
            .filter_map(|(load, _)| self.member_named(load, "generateContent"))
            .filter_map(|m| self.called(m))
            .map(|c| self.range(c))
            .collect()
    }

    /// A use of a response that reads nothing of it: a truth test (`!response`,
    /// `if (response)`) or logging it (`console.error("...", response)`).
    fn harmless_use(&self, load: NodeId) -> bool {
        let Some(parent) = self.parent(load) else {
            return false;
        };
        match self.kind(parent) {
            Kind::Other(children) => {
                children.as_slice() == [load]
                    && self
                        .text
                        .get(self.start(parent)..self.start(load))
                        .is_some_and(|t| t.trim() == "!")
            }
            Kind::If(i) => i.test == load,
            Kind::Call(c) => {
                !c.new
                    && c.callee != load
                    && c.args
                        .iter()
                        .any(|a| a.value == load && a.kind == ArgKind::Positional)
                    && matches!(self.kind(c.callee), Kind::Member(m) if self.tree.name(m.object) == Some("console"))
            }
            _ => false,
        }
    }

    /// `X.response.text()` at `X.response`: the answer read, `X` being at `receiver`.
    fn answer_read(&self, response: NodeId, receiver: Range<usize>, unit: &mut LegacyUnit) -> Option<()> {
        let text = self.member_call(response).0?;
        let call = self.text_call(text)?;
        unit.answers.push(crate::migration_facts::AnswerRead {
            start: receiver.start,
            suffix: receiver.end..self.end(call),
        });
        Some(())
    }

    /// `R.text()` at `R.text`: the call, without arguments.
    fn text_call(&self, member: NodeId) -> Option<NodeId> {
        match self.kind(member) {
            Kind::Member(m) if &*m.name.name == "text" => {}
            _ => return None,
        }
        self.called(member).filter(|&c| self.args(c).is_empty())
    }

    /// Why a read of `result.response` blocks the unit: what it reads.
    fn read_problem(&self, response: NodeId, line: usize) -> String {
        match self.member_call(response).1 {
            Some(read) => format!(
                "the result of the request of line {line} is read as `response.{read}`, which has no automatic rewrite"
            ),
            None => format!("the response of the request of line {line} is passed on"),
        }
    }

    /// Another name imported from the legacy package (or a sub-path) and used.
    fn other_legacy_name(&self, statement: NodeId, unit: &Binding<BindingKind>) -> Option<String> {
        let mut keys: Vec<&(usize, String)> = self.scopes.names.bindings.keys().collect();
        keys.sort();
        let statement = self.range(statement);
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
                let own = self.binding_statement(binding.kind).map(|s| self.range(s));
                // Imported by a statement of its own from the package's server module (the file
                // and cache managers, `FileState`): that statement stays, and what it imports
                // keeps working beside the current client (a file it uploads is the same file of
                // the service's Files API, which an interactions content names by its URI).
                if own.as_ref().is_some_and(|own| *own != statement)
                    && self
                        .legacy_source(binding.kind)
                        .is_some_and(|module| module == crate::migration_facts::LEGACY_JS_SERVER_MODULE)
                {
                    continue;
                }
                // Imported by the unit's own statement and exported alike by the current package:
                // the rewritten import keeps it.
                if self
                    .imported_name(binding.kind)
                    .is_some_and(|n| KEPT_NAMES.contains(&n))
                    && own == Some(statement.clone())
                {
                    continue;
                }
                let except = [own.unwrap_or_else(|| statement.clone())];
                if self.word_uses(&key.1, &except) > 0 {
                    return Some(key.1.clone());
                }
            }
        }
        None
    }

    /// The import statement or `require` declaration of a binding (for a `require`, the
    /// nearest `const`/`let` declaration around it).
    fn binding_statement(&self, kind: BindingKind) -> Option<NodeId> {
        match kind {
            BindingKind::Import { statement, .. } => Some(statement),
            BindingKind::Destructure { value, .. } => {
                let mut current = self.parent(value);
                while let Some(node) = current {
                    if matches!(self.kind(node), Kind::Declaration { kind, .. } if *kind != DeclKind::Var) {
                        return Some(node);
                    }
                    current = self.parent(node);
                }
                None
            }
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
            .map(|s| self.range(s))
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
}
