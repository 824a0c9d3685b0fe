//! The facts of a Python or JavaScript/TypeScript document, written once over the shared form
//! ([`ir`](crate::lang::ir)): which calls are requests of the API, chats or legacy models
//! (classification), where values go (data flow), what is read of a result, the typed
//! wrappers and the imports.
//!
//! The two languages differ in the API's spelling (`generate_content` / `generateContent`), in
//! how a request names its fields (keyword arguments / one object literal), in how a name is
//! bound and in what their client packages export; each `Language` answers those questions
//! (`python`, `javascript`). Everything else (names and scopes, following a value, the
//! reads of a result) is the same code.

mod calls;
mod chat;
mod classify;
mod flow;
mod function_calls;
mod imports;
mod javascript;
mod language;
mod legacy;
#[cfg(test)]
mod lowering_tests;
mod python;
mod reads;
mod round_trip;
pub mod scope;
mod unit;
mod values;

use std::collections::HashMap;
use std::ops::Range;

pub(crate) use javascript::JavaScript;
pub(crate) use language::Language;
pub(crate) use legacy::LegacyPackage;
pub(crate) use legacy::javascript::JavaScriptLegacy;
pub(crate) use legacy::python::PythonLegacy;
pub(crate) use python::Python;
pub(crate) use round_trip::FUNCTION_RESPONSE_FACTORY;
use scope::{BindingKind, Scopes};

use crate::lang::ir::{Kind, NodeId, Tree};
use crate::migration_facts::{CallKind, Facts, Flow, ModelRef, Origin};

/// How a language spells the API: its client library's methods (rules/clients.toml
/// `[spelling]`) and the receiver of a method.
pub(crate) struct Words {
    pub create: &'static str,
    pub create_stream: &'static str,
    pub start_chat: &'static str,
    pub send: &'static str,
    pub send_stream: &'static str,
    pub function_calls: &'static str,
    pub function_call: &'static str,
    pub usage: &'static str,
    pub grounding: &'static str,
    pub executable_code: &'static str,
    pub code_execution_result: &'static str,
    pub errors: &'static [String],
    /// The result's getters of its first candidate's parts (`parts`) and of its parsed
    /// structured output (`parsed`), where the client has them (Python's).
    pub parts: Option<&'static str>,
    pub parsed: Option<&'static str>,
    /// The result's getter of its first candidate's inline data (`data`, JavaScript's).
    pub inline_data: Option<&'static str>,
    /// The receiver of a method: `self` / `this`.
    pub this: &'static str,
}

/// Python's and JavaScript's words, in that order.
static WORDS: std::sync::LazyLock<[Words; 2]> = std::sync::LazyLock::new(|| {
    let spelled = crate::clients::spellings();
    let words = |s: &'static crate::clients::Spelling, this| Words {
        create: &s.create,
        create_stream: &s.create_stream,
        start_chat: &s.start_chat,
        send: &s.send,
        send_stream: &s.send_stream,
        function_calls: &s.function_calls,
        function_call: &s.function_call,
        usage: &s.usage,
        grounding: &s.grounding,
        executable_code: &s.executable_code,
        code_execution_result: &s.code_execution_result,
        errors: &s.errors,
        parts: s.parts.as_deref(),
        parsed: s.parsed.as_deref(),
        inline_data: s.inline_data.as_deref(),
        this,
    };
    [words(&spelled.python, "self"), words(&spelled.javascript, "this")]
});

/// What a name or expression holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    Str(String),
    /// An imported module or name: Python's dotted path (`google.genai.types`), JavaScript's
    /// package and name (`@google/genai#Type.STRING`).
    Module(String),
    /// A client's `models` resource (JavaScript).
    Models,
    /// The create-content method itself (`client.models.generate_content`), kept in a name;
    /// the range is `models.generate_content` in its definition, when written so.
    Method(CallKind, Option<Range<usize>>),
    /// The current client's response (`response.text` is a property).
    Response,
    /// The legacy JavaScript client's result of `generateContent` (`result.response`).
    LegacyResult,
    /// The legacy JavaScript client's result of `generateContentStream`.
    LegacyStreamResult,
    /// The legacy JavaScript client's response (`response.text()` is a method).
    LegacyResponse,
    Stream,
    LegacyStream,
    StreamChunk,
    LegacyChunk,
    Interaction,
    Chat,
    LegacyChat,
    LegacyModel(ModelRef),
    Parts,
    Part,
    /// `R.candidates` of a response, interaction or stream chunk (by its origin), and one of them.
    Candidates(Origin),
    Candidate(Origin),
    /// A function; its parameters in order, each with whether its value goes into a request.
    Function(Vec<(String, bool)>),
    Unknown,
}

/// Top-level names a notebook's earlier cells bound, by what they hold.
pub type Env = HashMap<String, Class>;

/// Names a notebook's other code cells mention: a binding they may read is never "used only
/// here" (a notebook's code cells are one module).
#[derive(Default)]
pub struct Elsewhere<'a> {
    /// Mentions of each name in every cell, and in this cell.
    pub total: Option<&'a HashMap<String, usize>>,
    pub here: Option<&'a HashMap<String, usize>>,
}

impl Elsewhere<'_> {
    pub fn contains(&self, name: &str) -> bool {
        let total = self.total.and_then(|t| t.get(name)).copied().unwrap_or(0);
        let here = self.here.and_then(|h| h.get(name)).copied().unwrap_or(0);
        total > here
    }
}

const MAX_DEPTH: usize = 12;

pub(crate) struct Analyzer<'a> {
    pub tree: &'a Tree,
    pub text: &'a str,
    pub lang: &'static dyn Language,
    /// The legacy package of the language: its spellings and its object model.
    pub legacy: &'static dyn LegacyPackage,
    pub words: &'static Words,
    pub scopes: Scopes,
    pub env: &'a Env,
    pub elsewhere: &'a Elsewhere<'a>,
    /// The module's first test of an error against the old client's classes
    /// (`isinstance(e, errors.APIError)`) and its arguments as written; found when first needed.
    pub old_error_test: std::cell::OnceCell<Option<(Range<usize>, String)>>,
}

/// The facts of one lowered document, and what its top-level names hold (for the next cell of a notebook). `env` is what the earlier cells bound, `elsewhere`
/// the names the other cells mention.
pub(crate) fn extract(
    tree: &Tree,
    text: &str,
    lang: &'static dyn Language,
    legacy: &'static dyn LegacyPackage,
    env: &Env,
    elsewhere: &Elsewhere<'_>,
) -> (Facts, Env) {
    let a = Analyzer {
        tree,
        text,
        lang,
        legacy,
        words: lang.words(),
        scopes: Scopes::build(tree, text, lang),
        env,
        elsewhere,
        old_error_test: std::cell::OnceCell::new(),
    };
    let mut facts = Facts {
        comments: a.scopes.comments.clone(),
        f_strings: lang.formatted_strings(tree),
        ..Facts::default()
    };
    for &(node, scope) in &a.scopes.calls {
        if let Some(call) = a.call(node, scope) {
            facts.calls.push(call);
        }
        if let Some(import) = lang.dynamic_import(&a, node) {
            facts.imports.push(import);
        }
        if let Some(wrapper) = lang.wrapper(&a, node, scope) {
            facts.wrappers.push(wrapper);
        }
    }
    unit::join_through(&mut facts.calls);
    round_trip::join_round_trips(&a, &mut facts.calls);
    facts.function_responses = round_trip::function_responses(&a);
    for &(node, scope) in &a.scopes.members {
        if let Some(read) = a.read(node, scope) {
            facts.reads.push(read);
        }
        if let Some(wrapper) = lang.member_wrapper(&a, node, scope) {
            facts.wrappers.push(wrapper);
        }
    }
    for &node in &a.scopes.imports {
        lang.imports(&a, node, &mut facts.imports);
    }
    facts.top_imports = lang.top_imports(&a);
    facts.legacy = a.legacy_units();
    let exports = lang.exports(&a);
    (facts, exports)
}

impl Analyzer<'_> {
    fn src(&self, node: NodeId) -> &str {
        self.text.get(self.tree.range(node)).unwrap_or_default()
    }

    fn kind(&self, node: NodeId) -> &Kind {
        self.tree.kind(node)
    }

    fn range(&self, node: NodeId) -> Range<usize> {
        self.tree.range(node)
    }

    fn start(&self, node: NodeId) -> usize {
        self.tree.span(node).start as usize
    }

    fn end(&self, node: NodeId) -> usize {
        self.tree.span(node).end as usize
    }

    fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.tree.parent(node)
    }

    fn is_new(&self, node: NodeId) -> bool {
        matches!(self.kind(node), Kind::Call(c) if c.new)
    }

    /// The scope of the call the walk recorded that starts at `start` and is `this` (the calls
    /// are in order of where they start).
    fn call_scope_where(&self, start: usize, this: impl Fn(NodeId) -> bool) -> Option<usize> {
        let at = self.scopes.calls.partition_point(|&(n, _)| self.start(n) < start);
        self.scopes.calls[at..]
            .iter()
            .take_while(|&&(n, _)| self.start(n) == start)
            .find(|&&(n, _)| this(n))
            .map(|&(_, s)| s)
    }

    /// `node`, looked through what changes nothing of its value ([`Language::look_through`]).
    fn look_through(&self, node: NodeId) -> NodeId {
        self.lang.look_through(self.tree, node)
    }

    /// What the module's top-level names hold, for the next cell of a notebook.
    fn exports(&self) -> Env {
        let mut exports = Env::new();
        for ((scope, name), list) in &self.scopes.names.bindings {
            if *scope != 0 {
                continue;
            }
            let class = match list.last() {
                Some(b) => match b.kind {
                    BindingKind::Assign { value, .. } => self.classify(value, 0, 0),
                    BindingKind::Import { statement, index } => self.import_class(statement, index),
                    BindingKind::Other => match self.scopes.functions.get(&b.start) {
                        Some(&(function, inner)) => Class::Function(
                            self.parameters(function)
                                .into_iter()
                                .map(|name| {
                                    let request =
                                        matches!(self.parameter_flow(&name, inner, 0), Flow::Request(_));
                                    (name, request)
                                })
                                .collect(),
                        ),
                        None => Class::Unknown,
                    },
                    _ => Class::Unknown,
                },
                None => Class::Unknown,
            };
            exports.insert(name.clone(), class);
        }
        exports
    }
}

/// Where element `index` of a list of elements sits among its neighbours.
fn siblings(
    elements: &[Range<usize>],
    index: usize,
    container: Range<usize>,
) -> crate::migration_facts::Siblings {
    let open = container.start + 1;
    let close = container.end.saturating_sub(1).max(open);
    crate::migration_facts::Siblings {
        previous_end: index.checked_sub(1).and_then(|p| elements.get(p)).map(|n| n.end),
        next_start: elements.get(index + 1).map(|n| n.start),
        inner: open..close,
    }
}

/// Where element `index` of a list of elements can be deleted with its separator.
fn removal(elements: &[Range<usize>], index: usize, container: Range<usize>) -> Range<usize> {
    let element = &elements[index];
    if let Some(next) = elements.get(index + 1) {
        return element.start..next.start;
    }
    if index > 0 {
        return elements[index - 1].end..element.end;
    }
    // The only element: everything between the brackets.
    let open = container.start + 1;
    let close = container.end.saturating_sub(1).max(open);
    open..close
}

/// A string literal's content, between its quotes.
fn string_content(range: Range<usize>) -> Range<usize> {
    if range.len() >= 2 {
        range.start + 1..range.end - 1
    } else {
        range
    }
}

fn parse_int(text: &str) -> Option<i64> {
    text.replace('_', "").parse().ok()
}

/// The facts of a whole Python or JavaScript/TypeScript text, lowered from its parser.
pub fn of_text(surface: crate::lang::Surface, text: &str) -> Facts {
    use crate::lang::Surface;
    let (tree, lang, legacy): (_, &'static dyn Language, &'static dyn LegacyPackage) = match surface {
        Surface::Python => (
            crate::lang::python::lower::lower(text, false),
            &Python,
            &PythonLegacy,
        ),
        _ => (
            crate::lang::javascript::lower::lower(surface, text),
            &JavaScript,
            &JavaScriptLegacy,
        ),
    };
    extract(&tree, text, lang, legacy, &Env::new(), &Elsewhere::default()).0
}
