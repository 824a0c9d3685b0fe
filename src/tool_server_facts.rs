//! Tool servers that speak the Model Context Protocol (source document sections 4.3, 5-8): what a
//! server file registers and does, as language-neutral facts that the MCP rules read. They are
//! extracted once for Python (FastMCP) and JavaScript/TypeScript (`McpServer`) over the shared
//! form, in `lang::tool_server`; the conventions are data (`rules/mcp.toml`).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

use serde::Deserialize;

const CONVENTIONS: &str = include_str!("../rules/mcp.toml");

/// The conventions of `rules/mcp.toml`.
#[derive(Debug, Deserialize)]
pub struct Conventions {
    /// A file is a tool server only when it holds one of these words (`FastMCP`, `from mcp`);
    /// the MCP rules run on no other file.
    pub server_words: Vec<String>,
    pub hints: Vec<String>,
    pub read_only_words: Vec<String>,
    pub mutating_words: Vec<String>,
    pub list_words: Vec<String>,
    pub timeout_ms: u64,
    pub api_key_suffix: String,
    /// The most characters of one tool response (section 8).
    pub character_limit: usize,
    /// The values of a `response_format` input, the default first (section 4.3).
    pub response_formats: Vec<String>,
    /// The fields of a list or search tool's result object (section 2.4).
    pub result_fields: Vec<String>,
    /// The fields of a response cut for length (sections 2.4 and 8).
    pub truncation_fields: Vec<String>,
    /// The start of a failure's result text (section 7).
    pub error_prefix: String,
    /// The result texts of section 7 by condition (`404`, `timeout`, ...).
    pub status_texts: BTreeMap<String, String>,
    pub bounds: BTreeMap<String, Bound>,
}

/// The bounds of one input of list and search tools; `None` is not checked.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Bound {
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub default: Option<f64>,
    pub min_length: Option<f64>,
    pub max_length: Option<f64>,
}

/// The built-in conventions; `None` only if the embedded data is broken (a unit test rules it
/// out), and then the MCP rules report nothing.
pub fn conventions() -> Option<&'static Conventions> {
    static PARSED: OnceLock<Option<Conventions>> = OnceLock::new();
    PARSED.get_or_init(|| toml::from_str(CONVENTIONS).ok()).as_ref()
}

/// The words of an identifier: `search_users`, `listFiles`, `get-user` → lower-case words.
pub fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether a name holds one of `words` as a whole word.
pub fn name_has(name: &str, words: &[String]) -> bool {
    name_words(name).iter().any(|w| words.contains(w))
}

/// What a tool-server file registers and does.
#[derive(Clone, Debug, Default)]
pub struct ToolServer {
    /// The server speaks over stdio here: `mcp.run()` / `run(transport="stdio")`, a
    /// `StdioServerTransport`.
    pub stdio: bool,
    /// The file runs the server as its own process, over stdio or an HTTP transport
    /// (`mcp.run(...)`, `server.connect(new StreamableHTTPServerTransport(...))`); not a server
    /// a client sample or a test builds in memory to talk to.
    pub serves: bool,
    pub tools: Vec<Tool>,
    /// Writes to standard output (`print(...)`, `console.log(...)`).
    pub stdout_writes: Vec<StdoutWrite>,
    /// Whether the file imports the module a write's keyword names, and where its import goes.
    pub stdout_module: StdoutModule,
    /// HTTP calls that set no timeout.
    pub untimed_calls: Vec<UntimedCall>,
    /// Reads of `*_API_KEY` environment variables.
    pub key_reads: Vec<KeyRead>,
    /// Registered resources.
    pub resources: Vec<Resource>,
}

/// One registered resource (section 4.3).
#[derive(Clone, Debug)]
pub struct Resource {
    /// Where it is registered: `mcp.resource`, `server.registerResource`.
    pub range: Range<usize>,
    /// The URI or URI template as written.
    pub uri: String,
    pub described: bool,
    pub mime_type: bool,
    /// The handler's parameters, when they can be read (Python's function parameters, the
    /// keys of a destructured TypeScript parameter); `None` when not.
    pub parameters: Option<Vec<String>>,
}

impl Resource {
    /// The `{params}` of its URI template (`{name}`, `{+path}`, `{?q}` as `name`, `path`, `q`).
    pub fn template_parameters(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = self.uri.as_str();
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            let inner = rest[open + 1..open + close].trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
            for name in inner.split(',') {
                let name = name.trim_end_matches('*').split(':').next().unwrap_or_default();
                if !name.is_empty() {
                    out.push(name.to_string());
                }
            }
            rest = &rest[open + close + 1..];
        }
        out
    }
}

/// What a tool's handler returns and how it fails, when its body can be read (Python).
#[derive(Clone, Debug, Default)]
pub struct Handler {
    /// The object the handler returns, written as a literal (returned, passed to `json.dumps`,
    /// or bound to a name that is returned): where it is and every key it gets.
    pub result: Option<(Range<usize>, Vec<String>)>,
    /// `raise_for_status()` calls with no `try` around them in the handler: the failure
    /// escapes as an exception.
    pub unhandled: Vec<Range<usize>>,
    /// Text literals returned from an `except` clause: where, and the literal's text.
    pub error_texts: Vec<(Range<usize>, String)>,
}

/// One registered tool.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The tool's name when written literally (else the function's name, in Python).
    pub name: Option<String>,
    /// Where the tool is registered: `mcp.tool`, `server.registerTool`.
    pub range: Range<usize>,
    /// A description is given: a `description`, a docstring, a description argument.
    pub described: bool,
    /// `None` when the registration passes no annotations; else the hints it sets and their
    /// literal values (`None` when not a literal boolean).
    pub annotations: Option<Vec<(String, Option<bool>)>>,
    /// The annotations are passed as something interlint cannot read (a variable).
    pub annotations_opaque: bool,
    pub schema: Schema,
    /// The tool's inputs with their bounds, when they are written where they can be read.
    pub inputs: Vec<Input>,
    /// The handler's body, when it can be read.
    pub handler: Option<Handler>,
}

/// How a tool's input schema treats unknown fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schema {
    /// Unknown fields are rejected.
    Strict,
    /// Unknown fields are ignored or stripped; says why.
    Lenient(String),
    /// The tool takes no input.
    Empty,
    /// Not known (a schema from elsewhere).
    Unknown,
}

/// An input of a tool and the bounds written for it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    pub name: String,
    pub bound: Bound,
    /// The input's default is written as something other than a number (`settings.limit`).
    pub default_unread: bool,
    /// The input's schema could not be read (a helper from another module).
    pub opaque: bool,
    /// The default when written as a string (`"markdown"`) or an enum member (`Format.MARKDOWN`:
    /// `MARKDOWN`).
    pub default_text: Option<String>,
}

#[derive(Clone, Debug)]
pub struct StdoutWrite {
    pub range: Range<usize>,
    /// What is written with (`print(...)`, `console.log`).
    pub what: String,
    /// The callee as written (`console.log`).
    pub callee: String,
    /// How the language's table sends it to standard error, and where that edit goes in this
    /// call, when it can be read; the code is written by `codegen::stdout`.
    pub redirect: Option<(&'static StdoutEdit, Redirect)>,
}

/// How a call that writes to standard output is sent to standard error instead: a language
/// table's description (`lang::tool_server`'s `Stdout` entries).
#[derive(Debug)]
pub enum StdoutEdit {
    /// The callee's object is replaced (`sys.stdout.write` → `sys.stderr`), with the fix's
    /// title.
    Object(&'static str, &'static str),
    /// The callee's name is replaced (`console.log` → `error`).
    Name(&'static str),
    /// The name of the callee's object is replaced (`process.stdout.write` → `stderr`).
    ObjectName(&'static str),
    /// A keyword argument says where to write (`print(..., file=sys.stderr)`): a keyword with the
    /// `stdout` value is replaced, a missing one added, with `import module` when the file does
    /// not import it; another value is not standard output.
    Keyword {
        name: &'static str,
        stdout: &'static str,
        stderr: &'static str,
        module: &'static str,
        /// The fix's title, and the title when the import is added too.
        titles: [&'static str; 2],
    },
}

/// Where a [`StdoutEdit`] goes in one call.
#[derive(Clone, Debug)]
pub enum Redirect {
    /// The text replaced: the callee's object (`sys.stdout`), or the keyword's `stdout` value.
    Replace(Range<usize>),
    /// A name in the callee replaced (`log` of `console.log`, `stdout` of
    /// `process.stdout.write`), as it is written.
    Rename { range: Range<usize>, name: String },
    /// The keyword is missing: it goes at `at`, after the last argument, or (`first`) just inside
    /// the parentheses of a call without arguments.
    AddKeyword { at: usize, first: bool },
}

/// Whether a tool-server file imports the module a [`StdoutEdit::Keyword`] names (`sys`), and
/// where its import goes when it does not: before the file's first import statement (other than
/// a `from __future__` import), or on the line after the last `from __future__` import; `None`
/// when the file has no import to stand by.
#[derive(Clone, Debug, Default)]
pub struct StdoutModule {
    pub imported: bool,
    pub import_at: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct UntimedCall {
    pub range: Range<usize>,
    /// The call as written, shortened (`requests.get`, `fetch`).
    pub what: String,
    /// How to give it a timeout, in the language's own words.
    pub advice: String,
}

#[derive(Clone, Debug)]
pub struct KeyRead {
    pub range: Range<usize>,
    pub variable: String,
    pub check: KeyCheck,
}

/// What happens when the credential is missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyCheck {
    /// The process stops with an error naming the variable (or a module-level `os.environ[...]`).
    FailsFast,
    /// A check stops the process without naming the variable.
    Unnamed,
    /// A check stops the process with another exit status.
    Status(String),
    /// Nothing stops the process.
    None,
}

impl KeyCheck {
    fn rank(&self) -> u8 {
        match self {
            KeyCheck::None => 0,
            KeyCheck::Status(_) => 1,
            KeyCheck::Unnamed => 2,
            KeyCheck::FailsFast => 3,
        }
    }

    /// The better of two outcomes: failing fast, then an unnamed exit, then another status.
    pub fn better(self, other: KeyCheck) -> KeyCheck {
        if other.rank() > self.rank() { other } else { self }
    }
}

/// Whether `text` mentions `name` as a whole identifier (not `x.name`, not `name2`).
pub fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions_parse() {
        let c = conventions().expect("rules/mcp.toml parses");
        assert_eq!(c.hints.len(), 4);
        assert_eq!(c.bounds["limit"].maximum, Some(100.0));
        assert_eq!(c.timeout_ms, 30000);
    }

    #[test]
    fn words_of_names() {
        assert_eq!(name_words("searchUsers"), ["search", "users"]);
        assert_eq!(name_words("example_list_items"), ["example", "list", "items"]);
        assert_eq!(name_words("getHTTPStatus"), ["get", "httpstatus"]);
        let words = vec!["list".to_string()];
        assert!(name_has("list-files", &words));
        assert!(!name_has("playlist", &words));
    }
}
