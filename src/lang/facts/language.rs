//! The questions whose answers depend on the language a document is written in, as a trait
//! ([`Language`]) that each language answers ([`Python`](super::python::Python),
//! [`JavaScript`](super::javascript::JavaScript)), as [`Framework`](crate::lang::tool_server::Framework)
//! does for tool servers: how the client's API is spelled, how a name is bound, how a request
//! names its fields, what a member or a call holds, where a value goes. The analysis in the other
//! modules of [`facts`](super) is written once over these answers.
//!
//! Where the two extractors give different facts for programs that mean the same (the
//! differences `tests/facts.rs` lists), the method whose two answers make the difference says so.
//!
//! Imports: the shared form ([`ir`]), the fact model ([`crate::migration_facts`]) and
//! the analyzer of [`facts`](super); nothing of a language's parser.

use std::ops::Range;

use super::{Analyzer, Class, Env, Words};
use crate::lang::ir::{self, Kind, NodeId, Tree};
use crate::migration_facts::CallKind;
use crate::migration_facts::{Entry, Import, ModelRef, ResultUse, TopImports, Value, Wrapper};

/// Where a language binds a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scoping {
    /// Python: a name belongs to its function, class body or module, and every assignment in it
    /// binds it there.
    Function,
    /// JavaScript: a `const`/`let` belongs to its block and a `var` to its function; an
    /// assignment rebinds the name where it is declared, and from another block or function it
    /// runs conditionally or later, so the name is not followed any more (difference 10: a name
    /// bound twice is resolved in Python only).
    Block,
}

/// Where the statements of a loop's body start and their indentation, or why the loop is not
/// followed.
pub(crate) type LoopBody = Result<(usize, String), ResultUse>;

/// A call's arguments, as the request's fields: see [`Language::arguments`].
pub(crate) struct Arguments {
    /// The request's named fields.
    pub args: Vec<Entry>,
    /// Its positional arguments.
    pub positional: Vec<Value>,
    /// A spread, or fields interlint cannot read.
    pub spread: bool,
    /// Where a new field goes.
    pub insert_at: usize,
    /// The indentation of the fields, when the first sits on a line of its own.
    pub arg_indent: Option<String>,
}

/// The questions of the facts' analysis whose answers depend on the language. A method with a
/// body answers for a language that does not have what it asks about (no such form, getter or
/// idiom): a language that has it answers itself.
pub(crate) trait Language: Sync {
    // ----- spellings -----

    /// How the current client spells its API (rules/clients.toml `[spelling]`).
    fn words(&self) -> &'static Words;

    // ----- names and scopes -----

    /// Where a name is bound.
    fn scoping(&self) -> Scoping;
    /// Words that read like names and are not (`this`, `super`): never bound, never followed.
    fn reserved_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// The ranges of the comments, as the fixes must keep them.
    fn comments(&self, tree: &Tree, text: &str) -> Vec<Range<usize>>;
    /// The name an imported name binds and where its binding starts; `None` for what binds no
    /// name (Python's `from m import *`).
    fn import_binding<'i>(
        &self,
        import: &'i ir::Import,
        name: &'i ir::ImportName,
        statement_start: usize,
    ) -> Option<(&'i str, usize)>;
    /// What an imported name holds: Python's dotted path, JavaScript's `package#name`.
    fn import_class(&self, import: &ir::Import, name: &ir::ImportName) -> Class;
    /// The path of member `name` of the module `path`.
    fn member_path(&self, path: &str, name: &str) -> String;
    /// The target a value is assigned to by an assignment (not a declaration), when `parent`
    /// assigns it.
    fn assigned_to(&self, a: &Analyzer<'_>, value: NodeId, parent: NodeId) -> Option<NodeId>;
    /// Whether the value of the assignment `assignment` is followed through its target:
    /// Python follows every assignment, JavaScript only a declaration (`const x = ...`).
    fn follows_assignment(&self, a: &Analyzer<'_>, assignment: NodeId) -> bool;

    // ----- the document -----

    /// The formatted strings (Python's f-strings), whose quotes a fix must respect.
    fn formatted_strings(&self, _tree: &Tree) -> Vec<Range<usize>> {
        Vec::new()
    }
    /// The imports of the import statement `statement` (difference 9: only Python's import of
    /// the typed-wrapper module carries it).
    fn imports(&self, a: &Analyzer<'_>, statement: NodeId, out: &mut Vec<Import>);
    /// An import made by a call (`require("pkg")`, `import("pkg")`).
    fn dynamic_import(&self, _a: &Analyzer<'_>, _call: NodeId) -> Option<Import> {
        None
    }
    /// The top-level imports and where a new one goes.
    fn top_imports(&self, _a: &Analyzer<'_>) -> TopImports {
        TopImports::default()
    }
    /// What the module's top-level names hold, for the next cell of a notebook.
    fn exports(&self, _a: &Analyzer<'_>) -> Env {
        Env::new()
    }

    // ----- expressions -----

    /// `node`, looked through what changes nothing of its value: JavaScript looks through
    /// `await`, parentheses and type assertions; Python's analysis reads what is written.
    fn look_through(&self, tree: &Tree, node: NodeId) -> NodeId;
    /// The operators of a logical expression that give its first operand unless it is nothing
    /// (`a ?? b`, `a || b`): what the expression holds is what the first holds.
    fn fallback_operators(&self) -> &'static [&'static str] {
        &[]
    }
    /// What a member read holds.
    fn classify_member(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> Class;
    /// What a call (not `new`) holds.
    fn classify_call(&self, a: &Analyzer<'_>, node: NodeId, scope: usize, depth: usize) -> Class;
    /// Whether an item of a content's parts (`parts[0]`) is read as a part (JavaScript).
    fn indexes_parts(&self) -> bool {
        false
    }
    /// Whether a numeric key of an object literal is a name (JavaScript's `{ 1: x }` is
    /// `{ "1": x }`; a Python dict's int key is not a string).
    fn numeric_keys_are_names(&self) -> bool {
        false
    }
    /// The value a call stands for: Python's typed wrappers and `dict(...)` as maps.
    fn call_value(
        &self,
        _a: &Analyzer<'_>,
        _call: NodeId,
        _scope: usize,
        _depth: usize,
    ) -> crate::migration_facts::ValueKind {
        crate::migration_facts::ValueKind::Other
    }
    /// The function measuring a list's length (`len`), and the list's member (`length`).
    fn length_function(&self) -> Option<&'static str> {
        None
    }
    fn length_member(&self) -> Option<&'static str> {
        None
    }
    /// The methods that grow a list in place.
    fn list_growers(&self) -> &'static [&'static str];
    /// Whether a block may be left empty (`{}`); Python's needs a statement.
    fn empty_blocks(&self) -> bool {
        false
    }
    /// Where the statements of a loop's body start, and their indentation; else why not.
    fn loop_body(&self, a: &Analyzer<'_>, node: NodeId, body: &[NodeId]) -> LoopBody;
    /// Whether a name's declared type must fit every value it is given (TypeScript).
    fn typed_names(&self) -> bool {
        false
    }

    // ----- requests -----

    /// The value of the request's field `name`: a keyword argument in Python, a property of the
    /// request object in JavaScript.
    fn request_value(&self, a: &Analyzer<'_>, call: NodeId, name: &str) -> Option<NodeId>;
    /// For a create-content call on an unknown receiver: whether it is made like a request
    /// naming its model (`None`: not a request at all).
    fn names_model(&self, a: &Analyzer<'_>, call: NodeId) -> Option<bool>;
    /// A call of another library spelled like the API's (the REST discovery client's
    /// `generateContent({ model, requestBody })`).
    fn other_library(&self, _a: &Analyzer<'_>, _call: NodeId) -> bool {
        false
    }
    /// A request's arguments (difference 1: where a new one goes).
    fn arguments(&self, a: &Analyzer<'_>, call: NodeId, skip: usize, scope: usize) -> Arguments;
    /// `stream=True` on a call: Python's requests ask for a stream by a keyword.
    fn stream_keyword(&self, _a: &Analyzer<'_>, _call: NodeId) -> bool {
        false
    }
    /// A call running a method it is given with the arguments after it
    /// (`asyncio.to_thread(f, ...)`): the argument naming the method, and how many arguments
    /// come before the request's own.
    fn runner_method(&self, _a: &Analyzer<'_>, _call: NodeId) -> Option<(NodeId, usize)> {
        None
    }
    /// A call of the legacy package that is not a request: its model, made through it.
    fn legacy_call(
        &self,
        a: &Analyzer<'_>,
        call: NodeId,
        object: NodeId,
        name: &str,
        scope: usize,
        depth: usize,
    ) -> Option<CallShape>;
    /// The model of a legacy model's creation (difference 13: a model made from a cached
    /// content is unresolved in Python, absent in TypeScript).
    fn legacy_model(&self, a: &Analyzer<'_>, call: NodeId, scope: usize, depth: usize) -> ModelRef;

    // ----- typed wrappers and flow -----

    /// A class or factory of a client package called (differences 5, 6 and 8).
    fn wrapper(&self, a: &Analyzer<'_>, call: NodeId, scope: usize) -> Option<Wrapper>;
    /// A member read that is a wrapper (difference 7: an enum's member, in TypeScript).
    fn member_wrapper(&self, _a: &Analyzer<'_>, _member: NodeId, _scope: usize) -> Option<Wrapper> {
        None
    }
    /// Whether a call builds a wrapper, for where its arguments go.
    fn builds_wrapper(&self, a: &Analyzer<'_>, call: NodeId, scope: usize) -> bool;
    /// Whether a value at `child` of `parent` goes where `parent` goes, for the forms of one
    /// language (Python's tuples, sets, `+` of lists and comprehensions; TypeScript's
    /// assertions).
    fn carries(&self, parent: &Kind, child: NodeId) -> bool;
    /// Whether a spread entry of a dict or object (`**x`, `...x`) takes its value into it.
    fn spread_entries_flow(&self) -> bool {
        false
    }
    /// Whether an argument is followed into the parameter of a function of the module
    /// (difference 12: Python's analysis does, TypeScript's stops at the call).
    fn follows_parameters(&self) -> bool {
        false
    }
}

/// What a call is, the range of its model argument, and the model as written: what
/// [`Language::legacy_call`] and the call's classification answer.
pub(super) type CallShape = (CallKind, Option<Range<usize>>, Option<String>);
