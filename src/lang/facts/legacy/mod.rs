//! The legacy client package's units ([`LegacyUnit`]): one binding of the legacy package (a
//! Python import of `google.generativeai`, a JavaScript import or `require` of
//! `GoogleGenerativeAI` from `@google/generative-ai`), what is made through it (the `configure`
//! call or the clients, the models) and the models' create-content calls. A unit is migrated as
//! a whole or not at all: once the import names the current package, no legacy name may be left.
//!
//! What the two packages share is written once here: which bindings make units, following a
//! model to its requests and token counts, the settings a request takes from its model, the
//! model's text. What differs in the two packages' object models (how each is entered: the
//! module's functions / the client class; how a model is bound; how a request's results are
//! read) is a [`LegacyPackage`], in [`python`] and [`javascript`], with the packages'
//! spellings in a [`LegacyWords`] table.

pub(super) mod javascript;
pub(super) mod python;

use std::collections::HashSet;
use std::ops::Range;

use super::Analyzer;
use super::scope::{BindingKind, Resolution};
use crate::lang::bindings::Binding;
use crate::lang::ir::{Arg, Kind, NodeId};
use crate::migration_facts::{Entry, LegacyRequest, LegacyUnit, MapValue, Value, ValueKind, line_removal};

type Outcome<T> = Result<T, String>;

/// The bindings of a legacy unit's import.
type Imports<'b> = [&'b Binding<BindingKind>];

/// The model as the new call writes it, and its id when it is a literal.
type ModelText = Outcome<(String, Option<String>)>;

/// Why a chat started from a history is not migrated.
const CHAT_HISTORY: &str = "the chat starts from a history the client keeps, not written in its creation; an interaction continues one \
     the service keeps";

/// How a language's legacy package spells what the units are made of (rules/clients.toml
/// `[legacy-spelling]`); a name the package does not have is empty.
pub(crate) struct LegacyWords {
    /// The model's create-content method and its token count.
    pub create: &'static str,
    /// The streaming create-content method (JavaScript; Python streams with `stream=True`).
    pub create_stream: &'static str,
    /// The model's coroutine (Python), reported as its blocking method.
    pub create_async: &'static str,
    pub count: &'static str,
    /// The model's method starting a chat.
    pub start_chat: &'static str,
    /// Arguments of a legacy model (and, in Python, of its requests) that make the request's
    /// config.
    pub settings: &'static [String],
    pub generation_config: &'static str,
    /// Settings that must be lists (the legacy clients took shorthands too).
    pub lists: &'static [String],
    /// The strings taken as `tools` for a built-in tool (`"code_execution"`).
    pub tool_shorthands: &'static [String],
    /// The model class, called by its name or through the module (Python's `GenerativeModel`;
    /// JavaScript's models come from a client's method).
    pub model_class: &'static str,
    /// The model class's method making a model from a cached content (Python).
    pub from_cache: &'static str,
}

impl LegacyWords {
    /// `path` names the model class (`google.generativeai.GenerativeModel`).
    pub(crate) fn is_model_class_path(&self, path: &str) -> bool {
        !self.model_class.is_empty()
            && path
                .strip_suffix(self.model_class)
                .is_some_and(|p| p.ends_with('.'))
    }

    /// `key` is one of the model's settings.
    fn is_setting(&self, key: &str) -> bool {
        self.settings.iter().any(|s| s == key)
    }
}

/// Python's and JavaScript's legacy words, in that order.
static LEGACY_WORDS: std::sync::LazyLock<[LegacyWords; 2]> = std::sync::LazyLock::new(|| {
    let spelled = crate::clients::legacy_spellings();
    let words = |s: &'static crate::clients::LegacySpelling| LegacyWords {
        create: &s.create,
        create_stream: &s.create_stream,
        create_async: &s.create_async,
        count: &s.count,
        start_chat: &s.start_chat,
        settings: &s.settings,
        generation_config: &s.generation_config,
        lists: &s.lists,
        tool_shorthands: &s.tool_shorthands,
        model_class: &s.model_class,
        from_cache: &s.from_cache,
    };
    [words(&spelled.python), words(&spelled.javascript)]
});

/// What differs in the object models of the two legacy packages: how a unit is entered (the
/// module's functions / the client class), how a model is bound, how a request's results are
/// read, and how the messages name what they find.
pub(crate) trait LegacyPackage: Sync {
    /// The package's spellings.
    fn words(&self) -> &'static LegacyWords;
    /// Repeated imports of the package under one name (a notebook's sections each import it)
    /// make one unit.
    fn merges_repeated(&self) -> bool {
        false
    }
    /// Whether a binding makes a unit: an import of the package's module or class.
    fn makes_unit(&self, a: &Analyzer<'_>, kind: BindingKind) -> bool;
    /// The unit (made `to`) of the bindings `of` of `name` (one, or the same import repeated);
    /// `n` is how often the name is bound in its scope.
    fn unit(&self, a: &Analyzer<'_>, name: &str, of: &Imports, n: usize, to: &mut LegacyUnit) -> Outcome<()>;
    /// Whether a response reads as the current client's does (Python's `response.text`): its
    /// requests' results are followed as the current client's are; else the unit follows them
    /// itself (JavaScript's `result.response.text()`).
    fn responses_read_as_current(&self) -> bool {
        false
    }
    /// Whether a token count of a model made in place (`model(...).countTokens(x)`) is the
    /// unit's.
    fn counts_in_place(&self) -> bool {
        false
    }
    /// How a model is bound to a name of its own, when it is.
    fn model_binding(&self, a: &Analyzer<'_>, call: NodeId) -> Option<ModelBinding>;
    /// Why a model neither bound to a name of its own nor stored is not migrated.
    fn unbound_model(&self, line: usize) -> String;
    /// Why a model also used for `member` is not migrated.
    fn model_used_for(&self, name: &str, line: usize, member: &str) -> String;
    /// The model as the new call writes it, and its id when it is a literal (`written` is the
    /// argument as written).
    fn model_text(&self, a: &Analyzer<'_>, written: &str, node: NodeId, scope: usize) -> ModelText;
    /// Why a generation config cannot be inlined.
    fn config_problem(&self, problem: ConfigProblem) -> String;
    /// Why a generation config whose entries are not all known cannot be inlined.
    fn incomplete_config(&self) -> &'static str;
    /// Adds a literal generation config's entries (`map`, the value of `entry`) to a request's.
    fn inline_config(
        &self,
        _a: &Analyzer<'_>,
        _entry: &Entry,
        map: MapValue,
        entries: &mut Vec<Entry>,
        _generation_keys: &mut Vec<String>,
        _consumed: &mut HashSet<usize>,
    ) -> Outcome<()> {
        entries.extend(map.entries);
        Ok(())
    }
    /// Why a setting that must be a list is not migrated.
    fn not_a_list(&self, a: &Analyzer<'_>, entry: &Entry) -> String;
}

/// A legacy model and the requests made with it.
struct Model {
    call: NodeId,
    /// The statement binding it, to delete.
    statement: Option<NodeId>,
    requests: Vec<NodeId>,
    /// Its token counts.
    counts: Vec<NodeId>,
    /// Its chats' starts (`model.start_chat()`, `model.startChat()`).
    chats: Vec<NodeId>,
    /// The client variable it is made through (JavaScript).
    client: String,
    /// Its `generateContentStream(...)` calls, which block the unit (JavaScript).
    streams: Vec<Range<usize>>,
    /// The scope it is made in.
    scope: usize,
}

impl Model {
    fn new(call: NodeId, scope: usize) -> Model {
        Model {
            call,
            statement: None,
            requests: Vec::new(),
            counts: Vec::new(),
            chats: Vec::new(),
            client: String::new(),
            streams: Vec::new(),
            scope,
        }
    }
}

/// The name a model is bound to, the statement binding it, and the reads of that binding, each
/// with whether it is ambiguous (the name bound in ways not followed).
pub(crate) struct ModelBinding {
    pub name: String,
    pub statement: NodeId,
    pub loads: Vec<(NodeId, bool)>,
}

/// Why a generation config cannot be inlined.
pub(crate) enum ConfigProblem {
    /// Neither a literal nor a name.
    NotLiteral,
    /// A name bound to something else than a literal config.
    NameHoldsOther(String),
    /// A name not bound in the scope.
    NameUnbound(String),
}

impl Analyzer<'_> {
    fn legacy_words(&self) -> &'static LegacyWords {
        self.legacy.words()
    }

    /// Every binding of the legacy package that makes a unit, as a unit.
    pub(super) fn legacy_units(&self) -> Vec<LegacyUnit> {
        let mut keys: Vec<&(usize, String)> = self.scopes.names.bindings.keys().collect();
        keys.sort();
        let mut units = Vec::new();
        for key in keys {
            let Some(list) = self.scopes.names.bindings.get(key) else {
                continue;
            };
            let legacy: Vec<&Binding<BindingKind>> =
                list.iter().filter(|b| self.makes_legacy_unit(b.kind)).collect();
            let name = &key.1;
            // The same import repeated: one unit, every import rewritten.
            let package = self.legacy;
            if package.merges_repeated() && legacy.len() == list.len() && legacy.len() > 1 {
                let mut unit = LegacyUnit::default();
                if let Err(reason) = package.unit(self, name, &legacy, 1, &mut unit) {
                    unit.blocked = Some(reason);
                }
                for binding in legacy.iter().skip(1) {
                    if let BindingKind::Import { statement, .. } = binding.kind
                        && unit.blocked.is_none()
                    {
                        unit.repeated_imports.push(self.range(statement));
                    }
                }
                units.push(unit);
                continue;
            }
            for binding in legacy {
                let mut unit = LegacyUnit::default();
                if let Err(reason) = package.unit(self, name, &[binding], list.len(), &mut unit) {
                    unit.blocked = Some(reason);
                }
                units.push(unit);
            }
        }
        units
    }

    /// The turns of the legacy chat started by `chat` (its start's arguments already checked),
    /// each a request of `unit` made by `request` (which adds what else the turn needs to the
    /// unit) and naming the previous turn's interaction, as a current chat's turns do (see
    /// [`crate::codegen::chat`]); `id_suffix` makes the name holding the previous interaction's id.
    fn legacy_chat(
        &self,
        chat: NodeId,
        id_suffix: &str,
        mut history: Vec<Value>,
        unit: &mut LegacyUnit,
        request: &mut dyn FnMut(NodeId, &mut LegacyUnit) -> Outcome<crate::migration_facts::LegacyRequest>,
    ) -> Outcome<()> {
        let at = |node: NodeId| format!("line {}", self.line(node));
        let scope = self.call_scope(chat);
        let chat_unit = self.chat_unit(chat, scope);
        if let Some((range, how)) = chat_unit.blocked.first() {
            let line = self
                .text
                .get(..range.start)
                .map_or(0, |t| t.matches('\n').count())
                + 1;
            return Err(format!("line {line}: {how}"));
        }
        if chat_unit.turns.is_empty() {
            return Err(format!(
                "{}: `{}` sends no turn in this module",
                at(chat),
                chat_unit.name
            ));
        }
        let straight = chat_unit.in_order();
        // A history goes with the first request, which only a chat whose turns run once each,
        // in order, knows.
        if !history.is_empty() && !straight {
            return Err(format!(
                "{}: the chat starts from a history, and its turns are not sent once each, in order: the first \
                 request, which would carry it, is not known",
                at(chat)
            ));
        }
        let id_name = format!("{}{id_suffix}", chat_unit.name);
        if !straight && self.name_taken(&id_name, scope) {
            return Err(format!(
                "`{id_name}`, the name that would keep the previous interaction's id, is taken"
            ));
        }
        let nodes = self.tree.descendants(self.tree.root());
        let mut updates = Vec::new();
        let mut declarations = Vec::new();
        let loops_before = unit.stream_loops.len();
        // Streamed turns whose id the next turn names (each turn's index and line): the name
        // taking it from their events.
        let mut captures: Vec<(usize, String, String)> = Vec::new();
        for (i, turn) in chat_unit.turns.iter().enumerate() {
            let node = nodes
                .iter()
                .copied()
                .find(|&n| self.range(n) == turn.call && matches!(self.kind(n), Kind::Call(_)))
                .ok_or("a turn of the chat is not a call interlint reads")?;
            let line = at(node);
            let last = i + 1 == chat_unit.turns.len();
            // The next turn names this one's interaction: it must be kept; a streamed turn's
            // comes in its events, read in a loop (below).
            let streamed_id = (!straight || !last) && turn.stream && turn.result.is_some();
            if (!straight || !last)
                && !streamed_id
                && let Some(why) = turn.id_unavailable()
            {
                return Err(format!("{line}: {why}"));
            }
            if streamed_id && let Some(result) = &turn.result {
                let id = match straight {
                    true => format!("{result}{id_suffix}"),
                    false => id_name.clone(),
                };
                if straight && !captures.iter().any(|(_, c, _)| *c == id) {
                    if self.name_taken(&id, scope) {
                        return Err(format!(
                            "{line}: `{id}`, the name that would keep the streamed turn's interaction id, is taken"
                        ));
                    }
                    let statement = turn
                        .statement
                        .as_ref()
                        .ok_or_else(|| format!("{line}: the streamed turn is not a statement of its own"))?;
                    declarations.push((statement.clone(), id.clone()));
                }
                captures.push((i, id, line.clone()));
            }
            let mut legacy = request(node, unit)?;
            if i == 0 {
                legacy.history = std::mem::take(&mut history);
            }
            legacy.previous = if straight {
                i.checked_sub(1)
                    .and_then(|p| match captures.iter().find(|(c, _, _)| *c == p) {
                        Some((_, id, _)) => Some(id.clone()),
                        None => chat_unit.turns[p]
                            .result
                            .as_ref()
                            .map(|previous| format!("{previous}.id")),
                    })
            } else {
                Some(id_name.clone())
            };
            if !straight && !turn.stream {
                let (Some(statement), Some(result)) = (&turn.statement, &turn.result) else {
                    return Err(format!("{line}: the turn is not a statement of its own"));
                };
                updates.push((statement.clone(), result.clone()));
            }
            unit.requests.push(legacy);
        }
        // Each streamed turn's id is taken in the one loop reading its events, after it and
        // before the next turn.
        for (i, id, line) in &captures {
            let turn = &chat_unit.turns[*i];
            let next = chat_unit.turns.get(i + 1).map_or(usize::MAX, |t| t.call.start);
            let window = turn.call.end..next;
            let loops: Vec<usize> = (loops_before..unit.stream_loops.len())
                .filter(|&l| window.contains(&unit.stream_loops[l].body_start))
                .collect();
            // A client whose loops over a stream the unit does not record (Python's, rewritten
            // with the request's reads) gives no loop to take the id in.
            if unit.stream_loops.len() == loops_before {
                return Err(format!(
                    "{line}: a streamed turn's interaction id comes in its events, which interlint does not read"
                ));
            }
            let [only] = loops.as_slice() else {
                return Err(format!(
                    "{line}: a streamed turn's interaction id comes in its events, which are not read in one loop \
                     over them, before the next turn, where interlint would take it"
                ));
            };
            unit.stream_loops[*only].capture = Some(id.clone());
        }
        if self.has_comment(chat_unit.statement.clone()) {
            return Err("a comment in the chat's creation would be lost".into());
        }
        unit.chats.push(crate::migration_facts::LegacyChat {
            statement: chat_unit.statement,
            straight,
            id_name,
            updates,
            declarations,
        });
        Ok(())
    }

    fn makes_legacy_unit(&self, kind: BindingKind) -> bool {
        self.legacy.makes_unit(self, kind)
    }

    /// The line (1-based) a node starts on, for a message.
    fn line(&self, node: NodeId) -> usize {
        self.text
            .get(..self.start(node))
            .map_or(0, |t| t.matches('\n').count())
            + 1
    }

    fn has_comment(&self, range: Range<usize>) -> bool {
        self.scopes
            .comments
            .iter()
            .any(|c| c.start >= range.start && c.end <= range.end)
    }

    /// The reads of `name` that see one of the bindings (by their start and scope).
    fn loads_of(&self, name: &str, bindings: &[(usize, usize)]) -> Vec<(NodeId, usize)> {
        self.scopes
            .loads
            .get(name)
            .map(|loads| {
                loads
                    .iter()
                    .copied()
                    .filter(|&(node, scope)| {
                        matches!(
                            self.scopes.names.resolve(name, scope, self.start(node)),
                            Resolution::Bound(b, _)
                                if bindings.iter().any(|&(start, s)| b.start == start && b.scope == s)
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
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

    /// For `object.member(...)` at `object`: the member read, its name and the call, as far as
    /// they are there.
    fn member_call(&self, object: NodeId) -> (Option<NodeId>, Option<&str>, Option<NodeId>) {
        let member = self
            .parent(object)
            .filter(|&p| matches!(self.kind(p), Kind::Member(m) if m.object == object));
        let name = member.and_then(|m| match self.kind(m) {
            Kind::Member(m) => Some(&*m.name.name),
            _ => None,
        });
        (member, name, member.and_then(|m| self.called(m)))
    }

    /// `object.name` at `object`.
    fn member_named(&self, object: NodeId, name: &str) -> Option<NodeId> {
        match self.member_call(object) {
            (Some(member), Some(n), _) if n == name => Some(member),
            _ => None,
        }
    }

    /// The call (not `new`) whose callee is `function`.
    fn called(&self, function: NodeId) -> Option<NodeId> {
        self.parent(function)
            .filter(|&p| matches!(self.kind(p), Kind::Call(c) if !c.new && c.callee == function))
    }

    /// A call's arguments.
    fn args(&self, call: NodeId) -> &[Arg] {
        match self.kind(call) {
            Kind::Call(c) => &c.args,
            _ => &[],
        }
    }

    /// A call's arguments when they are a plain list (not Python's bare generator
    /// `f(x for x in y)`).
    fn plain_args(&self, call: NodeId) -> Option<&[Arg]> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        (!c.bare_generator).then_some(c.args.as_slice())
    }

    /// The parentheses of a call.
    fn parens(&self, call: NodeId) -> Range<usize> {
        match self.kind(call) {
            Kind::Call(c) => c.parens.range(),
            _ => self.range(call),
        }
    }

    /// The scope a call is made in.
    fn call_scope(&self, call: NodeId) -> usize {
        self.call_scope_where(self.start(call), |n| n == call)
            .unwrap_or(0)
    }

    /// An argument's text as written.
    fn arg_src(&self, arg: &Arg) -> &str {
        self.text.get(arg.span.range()).unwrap_or_default()
    }

    /// The keyword argument `index` of a Python call, as an entry.
    fn keyword_entry_of(&self, call: NodeId, index: usize, scope: usize) -> Option<Entry> {
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let elements: Vec<Range<usize>> = c.args.iter().map(|a| a.span.range()).collect();
        self.keyword_entry(c, &elements, index, scope, 0)
    }

    /// A model follows to its requests: called at once (`Model(...).generate_content(x)`) or
    /// bound by one statement to a name used only for requests and token counts. The model
    /// with the calls found, and why it cannot be migrated.
    fn model_uses(&self, mut model: Model, line: usize) -> (Model, Option<String>) {
        let package = self.legacy;
        let w = package.words();
        let call = model.call;
        let Some(parent) = self.parent(call) else {
            return (model, Some("the model has no context".into()));
        };
        if let Kind::Member(m) = self.kind(parent)
            && m.object == call
        {
            let member = &*m.name.name;
            return match self.called(parent) {
                Some(request) if member == w.create || member == w.create_async => {
                    model.requests.push(request);
                    (model, None)
                }
                Some(count) if member == w.count && package.counts_in_place() => {
                    model.counts.push(count);
                    (model, None)
                }
                _ if member == w.from_cache => {
                    let why = format!(
                        "the model of line {line} is made from a cached content; the interactions endpoint does not support explicit caching"
                    );
                    (model, Some(why))
                }
                _ => {
                    let why = format!("the model of line {line} is used for `{member}`");
                    (model, Some(why))
                }
            };
        }
        let Some(ModelBinding {
            name,
            statement,
            loads,
        }) = self.model_binding(call)
        else {
            let why = self.unbound_model(call, parent, line);
            return (model, Some(why));
        };
        model.statement = Some(statement);
        let mut problem = None;
        for (load, opaque) in loads {
            if opaque {
                problem.get_or_insert(format!("`{name}` is bound in ways interlint does not follow"));
                continue;
            }
            let (_, member, called) = self.member_call(load);
            match (member, called) {
                (Some(m), Some(request)) if m == w.create || m == w.create_async => {
                    model.requests.push(request)
                }
                (Some(m), Some(count)) if m == w.count => model.counts.push(count),
                (Some(m), Some(chat)) if m == w.start_chat => model.chats.push(chat),
                (Some(m), Some(request)) if m == w.create_stream => model.requests.push(request),
                (Some(member), called) => {
                    // The call is the unit's too: its finding says why the unit is not migrated.
                    if member == w.create_stream
                        && let Some(call) = called
                    {
                        model.streams.push(self.range(call));
                    }
                    problem.get_or_insert(package.model_used_for(&name, line, member));
                }
                (None, _) => {
                    problem.get_or_insert(format!(
                        "the model object `{name}` is passed on or returned (line {})",
                        self.line(load)
                    ));
                }
            }
        }
        // A notebook's other cells are Python's.
        if model.scope == 0 && self.elsewhere.contains(&name) {
            problem.get_or_insert(format!("other cells of the notebook use the model `{name}`"));
        }
        let cached = match self.kind(call) {
            Kind::Call(c) => {
                matches!(self.kind(c.callee), Kind::Member(m) if *m.name.name == *w.from_cache)
            }
            _ => false,
        };
        if cached {
            let why = format!(
                "the model `{name}` (line {line}) is made from a cached content; the interactions \
                 endpoint does not support explicit caching"
            );
            return (model, Some(why));
        }
        (model, problem)
    }

    /// How a model is bound to a name of its own, when it is.
    fn model_binding(&self, call: NodeId) -> Option<ModelBinding> {
        self.legacy.model_binding(self, call)
    }

    /// Why a model is not bound to a name of its own.
    fn unbound_model(&self, call: NodeId, parent: NodeId, line: usize) -> String {
        if let Some(target) = self.assigned_to(call, parent) {
            return format!("the model of line {line} is stored in `{}`", self.src(target));
        }
        self.legacy.unbound_model(line)
    }

    /// The target a value is assigned to by an assignment (not a declaration): Python's `x =
    /// value` (with the last target of `a = b = value`), JavaScript's `x = value`.
    fn assigned_to(&self, value: NodeId, parent: NodeId) -> Option<NodeId> {
        self.lang.assigned_to(self, value, parent)
    }

    /// The model as the new call writes it (a `models/` prefix dropped), and its id when it is
    /// a literal: Python follows a name to the string it is bound to, JavaScript reads the
    /// value as written. `node` is `None` for a spread argument.
    fn model_text(
        &self,
        written: Range<usize>,
        node: Option<NodeId>,
        scope: usize,
    ) -> Outcome<(String, Option<String>)> {
        let written = self.text.get(written).unwrap_or_default();
        let Some(node) = node else {
            return crate::migration_facts::legacy_model_text(None, written, false);
        };
        self.legacy.model_text(self, written, node, scope)
    }

    /// One of the settings a request takes from its model (or, in Python, from the call): a
    /// generation config is inlined entry by entry (with the binding it comes from when that
    /// is used only here), a list setting must be a list.
    fn setting(
        &self,
        entry: Entry,
        entries: &mut Vec<Entry>,
        inlined: &mut Vec<Range<usize>>,
        generation_keys: &mut Vec<String>,
        consumed: &mut HashSet<usize>,
    ) -> Outcome<()> {
        let package = self.legacy;
        let w = package.words();
        if entry.key == w.generation_config {
            let (map, statement) = self
                .literal_config(&entry.value.kind, consumed)
                .map_err(|problem| package.config_problem(problem))?;
            if !map.complete {
                return Err(package.incomplete_config().into());
            }
            package.inline_config(self, &entry, map, entries, generation_keys, consumed)?;
            inlined.extend(statement.map(|s| line_removal(self.text, s)));
            return Ok(());
        }
        if w.lists.contains(&entry.key) {
            let list = match &entry.value.kind {
                ValueKind::List(_) => true,
                // A built-in tool's shorthand, written as that tool.
                ValueKind::Str(s) => w.tool_shorthands.contains(s) && entry.key == "tools",
                ValueKind::Name(name) => name
                    .value
                    .as_ref()
                    .is_some_and(|v| matches!(v.kind, ValueKind::List(_))),
                _ => false,
            };
            if !list {
                return Err(package.not_a_list(self, &entry));
            }
        }
        entries.push(entry);
        Ok(())
    }

    /// Deletes the statement binding a model, when it has one (its comments stay).
    fn remove_model(&self, model: &Model, unit: &mut LegacyUnit) -> Outcome<()> {
        // A comment in the definition stays where it was (see `crate::codegen::legacy`).
        if let Some(statement) = model.statement {
            unit.removals.push(line_removal(self.text, self.range(statement)));
        }
        Ok(())
    }

    /// The request `request` (a call) with its arguments at `arguments`, for the model (as the
    /// new call writes it, and its id) with the contents and the config's entries: made through
    /// the model (not the client), not streamed, not a chat's turn.
    fn legacy_request(
        &self,
        request: NodeId,
        arguments: Range<usize>,
        (model, model_id): (String, Option<String>),
        contents: Value,
        entries: Vec<Entry>,
    ) -> LegacyRequest {
        let callee = match self.kind(request) {
            Kind::Call(c) => self.range(c.callee),
            _ => self.range(request),
        };
        LegacyRequest {
            call: self.range(request),
            callee,
            asynchronous: false,
            client: None,
            arguments,
            parens: self.parens(request),
            model,
            contents,
            config: MapValue {
                entries,
                complete: true,
                wrapper: None,
            },
            model_id,
            stream: false,
            previous: None,
            history: Vec::new(),
            timeout: None,
        }
    }

    /// A generation config's literal map, with the statement binding it when that is inlined.
    fn literal_config(
        &self,
        value: &ValueKind,
        consumed: &mut HashSet<usize>,
    ) -> Result<(MapValue, Option<Range<usize>>), ConfigProblem> {
        match value {
            ValueKind::Map(map) => Ok((map.as_ref().clone(), None)),
            ValueKind::Name(name) => match name.value.as_ref() {
                Some(value) => match &value.kind {
                    ValueKind::Map(map) if name.single_use || map.wrapper.is_none() => {
                        consumed.insert(value.range.start);
                        Ok((
                            map.as_ref().clone(),
                            name.statement.clone().filter(|_| name.single_use),
                        ))
                    }
                    _ => Err(ConfigProblem::NameHoldsOther(name.name.clone())),
                },
                None => Err(ConfigProblem::NameUnbound(name.name.clone())),
            },
            _ => Err(ConfigProblem::NotLiteral),
        }
    }
}
