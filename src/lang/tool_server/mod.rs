//! Tool servers that speak the Model Context Protocol, read once over the [shared
//! form](crate::lang::ir) for Python and JavaScript/TypeScript alike: the walk over a file, the
//! writes to standard output, the HTTP calls without a timeout, the reads of API keys and what
//! guards them, and what a tool's handler returns and how it fails.
//!
//! What is a language's own — which imports and classes make a tool server, how a tool or a
//! resource is registered (a FastMCP decorator, `server.registerTool(...)`), how its inputs are
//! declared (pydantic, zod) and which calls run the server — is asked of the language's
//! [`Framework`] (`lang::python::frameworks`, `lang::javascript::frameworks`); the names of the
//! calls the shared analyses look for are the language's [`Language`] tables.

mod calls;
pub mod guards;
pub mod handler;

use std::ops::Range;

use crate::lang::ir::{ArgKind, Call, FunctionKind, Key, Kind, NodeId, Tree};
use crate::tool_server_facts::{Resource, Tool, ToolServer};

pub use crate::tool_server_facts::StdoutEdit;
pub use calls::{Stdout, Timed, TimeoutAt};

/// What a language's framework recogniser says of one file it takes for a tool server.
pub trait Framework {
    /// The tool registered at `node` (a decorated function, a registration call).
    fn tool(&self, s: &Source, node: NodeId) -> Option<Tool>;
    /// The resource registered at `node`.
    fn resource(&self, s: &Source, node: NodeId) -> Option<Resource>;
    /// Whether a call (or a `new` expression) runs the server: `Some(over stdio)`.
    fn serves(&self, s: &Source, call: NodeId) -> Option<bool>;
    /// The file builds a server of its own (`FastMCP(...)`, `new McpServer(...)`): without one,
    /// a file that registers no tool is not a tool server.
    fn builds_server(&self) -> bool;
    /// The language's tables.
    fn language(&self) -> &'static Language;
}

/// The names a language's calls are known by, for the analyses written once here.
pub struct Language {
    /// Calls in a test (a `test...` function, a `Test...` class) are not the file's own process.
    pub skip_tests: bool,
    /// Calls that write to standard output.
    pub stdout: &'static [Stdout],
    /// HTTP calls and where their timeout goes.
    pub timed: &'static [Timed],
    /// A call passing this keyword as `None` to an HTTP client has no timeout.
    pub none_timeout: Option<Timed>,
    /// Calls that read an environment variable named by their first argument (`os.getenv`).
    pub env_calls: &'static [&'static str],
    /// Objects whose items (`os.environ["X"]`) and, with `env_members`, members
    /// (`process.env.X`) are environment variables.
    pub env_objects: &'static [&'static str],
    pub env_members: bool,
    /// An item read of a missing variable raises (`os.environ["X"]`): at module level, the
    /// process stops naming it.
    pub env_item_raises: bool,
    /// Calls that stop the process, with their status as first argument.
    pub exit_calls: &'static [&'static str],
    pub handler: handler::Rules,
    /// The text of a string literal the form does not decode (an f-string, a template literal,
    /// Python's implicit concatenations and bytes) as written, `{...}` for each interpolation:
    /// the first literal's text, and only when it is alone unless `concatenated`.
    pub opaque_string: fn(&str, bool) -> Option<String>,
}

/// One lowered document and its text.
pub struct Source<'a> {
    pub tree: &'a Tree,
    pub text: &'a str,
}

impl<'a> Source<'a> {
    pub fn new(tree: &'a Tree, text: &'a str) -> Self {
        Source { tree, text }
    }

    /// The text a node covers.
    pub fn text(&self, id: NodeId) -> &'a str {
        self.text.get(self.tree.range(id)).unwrap_or_default()
    }

    pub fn range(&self, id: NodeId) -> Range<usize> {
        self.tree.range(id)
    }

    pub fn kind(&self, id: NodeId) -> &'a Kind {
        self.tree.kind(id)
    }

    /// A string literal's value.
    pub fn str(&self, id: NodeId) -> Option<&'a str> {
        match self.tree.kind(id) {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn call(&self, id: NodeId) -> Option<&'a Call> {
        match self.tree.kind(id) {
            Kind::Call(call) => Some(call),
            _ => None,
        }
    }

    /// A call's callee as written.
    pub fn callee(&self, call: &Call) -> &'a str {
        self.text(call.callee)
    }

    /// The value of the keyword argument `name`.
    pub fn keyword(&self, call: &Call, name: &str) -> Option<NodeId> {
        call.keyword(name)
    }

    /// The arguments that are not keyword arguments (`*args` and `**kwargs` included).
    pub fn positional(&self, call: &Call) -> Vec<NodeId> {
        call.args
            .iter()
            .filter(|a| !matches!(a.kind, ArgKind::Keyword(_)))
            .map(|a| a.value)
            .collect()
    }

    /// The entries of a dict or object literal with a name or string key, with their values.
    pub fn entries(&self, id: NodeId) -> Vec<(&'a str, NodeId)> {
        match self.tree.kind(id) {
            Kind::Dict(d) => d
                .items
                .iter()
                .filter(|e| matches!(e.key, Key::Name(_) | Key::Str(_)))
                .filter_map(|e| Some((e.key.text()?, e.value)))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A dict or object literal with a `**spread` / `...spread`.
    pub fn spreads(&self, id: NodeId) -> bool {
        matches!(self.tree.kind(id), Kind::Dict(d) if d.items.iter().any(|e| e.key == Key::Spread))
    }

    /// The nodes under `id` (itself included) in source order; `f` says whether to go into a
    /// node's children.
    pub fn walk(&self, id: NodeId, f: &mut dyn FnMut(NodeId) -> bool) {
        let mut stack = vec![id];
        while let Some(node) = stack.pop() {
            if f(node) {
                // The children in reverse source order, so the first is taken next.
                let from = stack.len();
                self.tree.each_child(node, &mut |c| stack.push(c));
                let tree = self.tree;
                stack[from..].sort_by_key(|&c| std::cmp::Reverse((tree.span(c).start, c)));
            }
        }
    }

    /// The enclosing nodes, innermost first.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.tree.parent(id), |&p| self.tree.parent(p))
    }

    /// A number literal, negative ones and other unary operators on a literal included
    /// (parsed from the text).
    pub fn number(&self, id: NodeId) -> Option<f64> {
        match self.tree.kind(id) {
            Kind::Int(_) | Kind::Number => self.text(id).replace('_', "").parse().ok(),
            Kind::Negative(_) | Kind::Other(_) => self.text(id).replace([' ', '_'], "").parse().ok(),
            _ => None,
        }
    }

    /// A function that is not an expression-bodied lambda or arrow (whose body is a list of
    /// statements).
    pub fn is_function(&self, id: NodeId) -> bool {
        matches!(self.tree.kind(id), Kind::Function(_))
    }

    /// A named definition (`def`, `function`, a method) whose name starts with `prefix`, or a
    /// class whose name does.
    fn named(&self, id: NodeId) -> Option<(&'a str, bool)> {
        match self.tree.kind(id) {
            Kind::Function(f) if f.kind != FunctionKind::Lambda => {
                Some((f.name.as_ref()?.name.as_ref(), false))
            }
            Kind::Class(c) => Some((c.name.as_ref()?.name.as_ref(), true)),
            _ => None,
        }
    }

    /// Whether a node lies in a test (a `test...` function or a `Test...` class).
    pub fn in_test(&self, id: NodeId) -> bool {
        self.ancestors(id).any(|a| match self.named(a) {
            Some((name, false)) => name.starts_with("test"),
            Some((name, true)) => name.starts_with("Test"),
            None => false,
        })
    }
}

/// A description value that is not an empty string.
pub fn described(s: &Source, value: NodeId) -> bool {
    s.str(value).is_none_or(|d| !d.trim().is_empty())
}

/// The hints an annotations object sets (a dict or object literal, or a call's keyword
/// arguments), with their literal boolean values.
pub fn hints(s: &Source, value: NodeId) -> Option<Vec<(String, Option<bool>)>> {
    let literal = |v: NodeId| match s.kind(s.tree.unwrap(v)) {
        Kind::Bool(b) => Some(*b),
        _ => None,
    };
    match s.kind(value) {
        Kind::Dict(_) => Some(
            s.entries(value)
                .into_iter()
                .map(|(k, v)| (k.to_string(), literal(v)))
                .collect(),
        ),
        Kind::Call(call) => Some(
            call.args
                .iter()
                .filter_map(|a| match &a.kind {
                    ArgKind::Keyword(k) => Some((k.name.to_string(), literal(a.value))),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The facts of a file whose framework `recognise` takes it for a tool server.
pub fn tool_server<'a>(
    tree: &'a Tree,
    text: &'a str,
    api_key_suffix: &str,
    recognise: impl FnOnce(&Source<'a>) -> Option<Box<dyn Framework + 'a>>,
) -> Option<ToolServer> {
    let s = Source::new(tree, text);
    let framework = recognise(&s)?;
    let language = framework.language();
    let stdout = calls::StdoutFixes::new(&s, language);
    let mut out = ToolServer {
        stdout_module: stdout.module.clone(),
        ..ToolServer::default()
    };
    s.walk(tree.root(), &mut |node| {
        match s.kind(node) {
            Kind::Function(_) | Kind::Call(_) => {
                if let Some(tool) = framework.tool(&s, node) {
                    out.tools.push(tool);
                } else if let Some(resource) = framework.resource(&s, node) {
                    out.resources.push(resource);
                }
            }
            _ => {}
        }
        match s.kind(node) {
            Kind::Call(_) if language.skip_tests && s.in_test(node) => {}
            Kind::Call(call) => {
                if let Some(stdio) = framework.serves(&s, node) {
                    out.serves = true;
                    out.stdio |= stdio;
                }
                if !call.new {
                    out.stdout_writes.extend(stdout.write(&s, call));
                    out.untimed_calls.extend(calls::untimed(&s, language, call));
                }
                out.key_reads
                    .extend(guards::call_read(&s, language, node, call, api_key_suffix));
            }
            Kind::Index { .. } | Kind::Member(_) => {
                out.key_reads
                    .extend(guards::item_read(&s, language, node, api_key_suffix));
            }
            _ => {}
        }
        true
    });
    // A file that registers no tool and builds no server (a client, a test, a low-level
    // server) is not read as a tool server.
    if out.tools.is_empty() && !framework.builds_server() {
        return None;
    }
    Some(out)
}
