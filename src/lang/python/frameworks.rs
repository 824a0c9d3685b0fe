//! Python tool servers (FastMCP, from the `mcp` package or the `fastmcp` package): which files
//! are servers, the tools and resources registered with `@server.tool` / `@server.resource`, the
//! inputs declared by a function's parameters and pydantic models, and the calls that run the
//! server. Everything else is read by `lang::tool_server`.

use crate::lang::ir::{Function, Kind, NodeId, ParamKind};
use crate::lang::tool_server::handler::{self, Rules};
use crate::lang::tool_server::{
    Framework, Language, Source, Stdout, StdoutEdit, Timed, TimeoutAt, described, hints,
};
use crate::tool_server_facts::{Input, Resource, Schema, Tool};

const REQUESTS_VERBS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "request",
];

pub static PYTHON: Language = Language {
    skip_tests: true,
    stdout: &[
        Stdout {
            callee: "print",
            what: "print(...)",
            edit: StdoutEdit::Keyword {
                name: "file",
                stdout: "sys.stdout",
                stderr: "sys.stderr",
                module: "sys",
                titles: [
                    "Print to standard error: `file=sys.stderr`",
                    "Print to standard error: `file=sys.stderr` (and `import sys`)",
                ],
            },
        },
        Stdout {
            callee: "sys.stdout.write",
            what: "sys.stdout.write(...)",
            edit: StdoutEdit::Object("sys.stderr", "Write to `sys.stderr`"),
        },
    ],
    timed: &[
        Timed {
            callee: |n| {
                n.strip_prefix("requests.")
                    .is_some_and(|v| REQUESTS_VERBS.contains(&v))
            },
            at: TimeoutAt::Keyword {
                name: "timeout",
                position: None,
            },
            advice: "pass `timeout=30` (seconds)",
            unless: None,
        },
        Timed {
            callee: |n| n == "urlopen" || n.ends_with("request.urlopen"),
            at: TimeoutAt::Keyword {
                name: "timeout",
                position: Some(2),
            },
            advice: "pass `timeout=30` (seconds)",
            unless: None,
        },
    ],
    none_timeout: Some(Timed {
        callee: is_http_call,
        at: TimeoutAt::Keyword {
            name: "timeout",
            position: None,
        },
        advice: "pass `timeout=30.0` (seconds)",
        unless: None,
    }),
    env_calls: &["os.getenv", "getenv", "os.environ.get", "environ.get"],
    env_objects: &["os.environ", "environ"],
    env_members: false,
    env_item_raises: true,
    exit_calls: &["sys.exit", "exit", "quit", "os._exit", "SystemExit"],
    handler: Rules {
        escapes: |s, n| {
            matches!(s.kind(n), Kind::Call(c)
                if matches!(s.kind(c.callee), Kind::Member(m) if &*m.name.name == "raise_for_status"))
        },
        result: returned,
        page_value: |s, v| match s.kind(v) {
            Kind::List(_) | Kind::Index { .. } => true,
            Kind::Comprehension(_) => s.text(v).starts_with('['),
            Kind::Name(n) => n.ends_with('s'),
            _ => false,
        },
        computed_keys_hide: true,
    },
    opaque_string: |text, concatenated| {
        let literals = literals(text)?;
        (concatenated || literals.len() == 1).then(|| literals[0].clone())
    },
};

/// The object a `return` writes: the returned value, or what it passes to `json.dumps`.
fn returned(s: &Source, node: NodeId) -> Option<NodeId> {
    let Kind::Return(Some(value)) = s.kind(node) else {
        return None;
    };
    match s.call(*value) {
        Some(call) => {
            let callee = s.callee(call);
            if !(callee == "dumps" || callee.ends_with(".dumps")) {
                return None;
            }
            let first = call.args.first()?;
            (first.kind == crate::lang::ir::ArgKind::Positional).then_some(first.value)
        }
        None => Some(*value),
    }
}

/// Whether a call is made by an HTTP client: `httpx.get`, `requests.post`, `aiohttp.ClientSession`,
/// or an HTTP verb on a receiver named like a client (`client.get`, `self.session.post`);
/// `queue.get(timeout=None)` is not.
fn is_http_call(name: &str) -> bool {
    if ["httpx.", "requests.", "aiohttp.", "urllib3."]
        .iter()
        .any(|p| name.starts_with(p))
    {
        return true;
    }
    let Some((receiver, method)) = name.rsplit_once('.') else {
        return false;
    };
    let receiver = receiver
        .rsplit('.')
        .next()
        .unwrap_or(receiver)
        .to_ascii_lowercase();
    ["client", "session", "http"].iter().any(|w| receiver.contains(w))
        && (REQUESTS_VERBS.contains(&method) || method == "stream")
}

/// The string literals a text is made of (one, or an implicit concatenation), each as written
/// between its quotes, an f-string's interpolations as `{...}`; `None` when the text is
/// something else.
fn literals(text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\\');
        if let Some(comment) = rest.strip_prefix('#') {
            rest = comment.find('\n').map_or("", |i| &comment[i..]);
            continue;
        }
        if rest.is_empty() {
            return (!out.is_empty()).then_some(out);
        }
        let open = rest.find(['"', '\''])?;
        let prefix = rest[..open].to_ascii_lowercase();
        if prefix.len() > 2 || !prefix.chars().all(|c| "rbfut".contains(c)) {
            return None;
        }
        let quote = &rest[open..];
        let delimiter = match (quote.starts_with("\"\"\""), quote.starts_with("'''")) {
            (true, _) => &quote[..3],
            (_, true) => &quote[..3],
            _ => &quote[..1],
        };
        let body = &quote[delimiter.len()..];
        let mut end = None;
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                chars.next();
            } else if body[i..].starts_with(delimiter) {
                end = Some(i);
                break;
            }
        }
        let end = end?;
        let content = &body[..end];
        out.push(match prefix.contains('f') || prefix.contains('t') {
            true => interpolated(content),
            false => content.to_string(),
        });
        rest = &body[end + delimiter.len()..];
    }
}

/// An f-string's text with each interpolation as `{...}`.
fn interpolated(content: &str) -> String {
    let mut out = String::new();
    let mut rest = content;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        if rest[open + 1..].starts_with('{') {
            out.push_str("{{");
            rest = &rest[open + 2..];
            continue;
        }
        let mut depth = 0;
        let mut close = rest.len();
        for (i, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push_str("{...}");
        rest = &rest[close.min(rest.len())..];
    }
    out.push_str(rest);
    out
}

/// Which FastMCP builds the tools: they differ in how unknown arguments are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FastMcpPackage {
    /// `mcp.server.fastmcp`: the argument model ignores unknown fields.
    Sdk,
    /// `fastmcp`: arguments are validated against the signature; unknown ones are rejected.
    Standalone,
    Unknown,
}

/// A class deriving from `BaseModel` in the file: its name, whether it forbids unknown fields,
/// and its fields.
struct ModelClass {
    name: String,
    strict: bool,
    fields: Vec<Input>,
}

struct FastMcp {
    package: FastMcpPackage,
    mcp_import: bool,
    /// The names bound to `FastMCP(...)` / `MCPServer(...)`.
    servers: Vec<String>,
    classes: Vec<ModelClass>,
}

/// The FastMCP server a Python file is, when it imports an MCP package or builds a
/// `FastMCP(...)`.
pub fn recognise<'a>(s: &Source<'a>) -> Option<Box<dyn Framework + 'a>> {
    let mut package = FastMcpPackage::Unknown;
    let mut mcp_import = false;
    let Kind::Module(body) = s.kind(s.tree.root()) else {
        return None;
    };
    for &statement in body {
        let Kind::Import(import) = s.kind(statement) else {
            continue;
        };
        let modules: Vec<&str> = match &import.module {
            Some(m) if import.level == 0 => vec![&m.name],
            Some(_) => Vec::new(),
            None if import.level == 0 => import.names.iter().map(|n| &*n.name.name).collect(),
            None => Vec::new(),
        };
        let from = import.module.is_some();
        for module in modules {
            if module == "mcp" || module.starts_with("mcp.") {
                (mcp_import, package) = (true, FastMcpPackage::Sdk);
            } else if module == "fastmcp" || from && module.starts_with("fastmcp.") {
                (mcp_import, package) = (true, FastMcpPackage::Standalone);
            }
        }
    }
    let mut servers = Vec::new();
    let mut classes: Vec<ModelClass> = Vec::new();
    s.walk(s.tree.root(), &mut |node| {
        match s.kind(node) {
            Kind::Assign(a) => {
                if let (Some(&target), Some(call)) = (a.targets.last(), a.value.and_then(|v| s.call(v)))
                    && (s.callee(call).ends_with("FastMCP") || s.callee(call).ends_with("MCPServer"))
                {
                    servers.push(s.text(target).to_string());
                }
            }
            Kind::Class(_) => {
                if let Some(class) = model_class(s, node, &classes) {
                    classes.push(class);
                }
            }
            _ => {}
        }
        true
    });
    if !mcp_import && servers.is_empty() {
        return None;
    }
    Some(Box::new(FastMcp {
        package,
        mcp_import,
        servers,
        classes,
    }))
}

impl FastMcp {
    fn is_server(&self, receiver: &str) -> bool {
        self.servers.iter().any(|s| s == receiver) || receiver == "mcp" || self.mcp_import
    }

    /// The function a `@server.NAME` or `@server.NAME(...)` decorator registers, with the
    /// decorator's `server.NAME` and its call when it is called.
    fn registered<'a>(
        &self,
        s: &Source<'a>,
        node: NodeId,
        method: &str,
    ) -> Option<(&'a Function, NodeId, Option<&'a crate::lang::ir::Call>)> {
        let Kind::Function(function) = s.kind(node) else {
            return None;
        };
        function.decorators.iter().find_map(|&d| {
            let (target, call) = match s.call(d) {
                Some(call) => (call.callee, Some(call)),
                None => (d, None),
            };
            match s.kind(target) {
                Kind::Member(m) if &*m.name.name == method && self.is_server(s.text(m.object)) => {
                    Some((&**function, target, call))
                }
                _ => None,
            }
        })
    }

    /// How a tool function's inputs treat unknown fields, and the inputs' bounds.
    fn schema(&self, s: &Source, function: &Function) -> (Schema, Vec<Input>) {
        let mut plain = Vec::new();
        let mut models = Vec::new();
        for p in function.params.iter().filter(|p| p.kind == ParamKind::Plain) {
            let Some(name) = &p.name else {
                continue;
            };
            let type_text = p.annotation.map_or("", |a| s.text(a));
            if is_context(&name.name, type_text) {
                continue;
            }
            match self
                .classes
                .iter()
                .find(|c| type_text == c.name || type_text.contains(&format!("[{}]", c.name)))
            {
                Some(model) => models.push(model),
                None => {
                    let mut input = input_of(s, &name.name, p.annotation, p.default);
                    input.opaque |= imported_type(type_text, s.text);
                    plain.push(input);
                }
            }
        }
        let mut inputs: Vec<Input> = models.iter().flat_map(|m| m.fields.clone()).collect();
        inputs.extend(plain.iter().cloned());
        if let Some(lenient) = models.iter().find(|m| !m.strict) {
            let why = format!(
                "the input model `{}` does not set `extra=\"forbid\"`, so unknown fields are ignored",
                lenient.name
            );
            return (Schema::Lenient(why), inputs);
        }
        let schema = match (plain.is_empty(), models.is_empty(), self.package) {
            (true, true, _) => Schema::Empty,
            (true, false, _) => Schema::Strict,
            (false, _, FastMcpPackage::Sdk) => Schema::Lenient(
                "FastMCP builds the input model from the parameters and ignores unknown fields".to_string(),
            ),
            (false, _, FastMcpPackage::Standalone) => Schema::Strict,
            (false, _, FastMcpPackage::Unknown) => Schema::Unknown,
        };
        (schema, inputs)
    }
}

impl Framework for FastMcp {
    fn tool(&self, s: &Source, node: NodeId) -> Option<Tool> {
        let (function, target, call) = self.registered(s, node, "tool")?;
        let argument = |key: &str| call.and_then(|c| s.keyword(c, key));
        let literal_name = argument("name")
            .or(call.and_then(|c| s.positional(c).first().copied()))
            .and_then(|n| s.str(n));
        let described_by_argument = argument("description").is_some_and(|d| described(s, d));
        let (annotations, annotations_opaque) = match argument("annotations") {
            None => (None, false),
            Some(value) => match hints(s, value) {
                Some(h) => (Some(h), false),
                None => (None, true),
            },
        };
        let (schema, inputs) = self.schema(s, function);
        Some(Tool {
            name: literal_name
                .or(function.name.as_ref().map(|n| &*n.name))
                .map(str::to_string),
            range: s.range(target),
            described: described_by_argument || has_docstring(s, function),
            annotations,
            annotations_opaque,
            schema,
            inputs,
            handler: Some(handler::handler(s, &PYTHON, node)),
        })
    }

    fn resource(&self, s: &Source, node: NodeId) -> Option<Resource> {
        let (function, target, call) = self.registered(s, node, "resource")?;
        let call = call?;
        let uri_node = s.keyword(call, "uri").or(s.positional(call).first().copied())?;
        // A URI built at run time cannot be compared with the parameters.
        let uri = s.str(uri_node)?.to_string();
        let described =
            has_docstring(s, function) || s.keyword(call, "description").is_some_and(|d| described(s, d));
        let mut parameters = Some(Vec::new());
        for p in &function.params {
            let Some(name) = &p.name else {
                continue;
            };
            let type_text = p.annotation.map_or("", |t| s.text(t));
            match (p.kind, p.annotation) {
                // `*args`, `**kwargs`: any parameter is taken.
                (ParamKind::Rest | ParamKind::KeywordRest, None) => {
                    parameters = None;
                    break;
                }
                (ParamKind::Rest | ParamKind::KeywordRest, Some(_)) => continue,
                _ if is_context(&name.name, type_text) => continue,
                _ => parameters.iter_mut().for_each(|l| l.push(name.name.to_string())),
            }
        }
        Some(Resource {
            range: s.range(target),
            uri,
            described,
            // FastMCP gives every resource a MIME type, `text/plain` unless told: one is always
            // sent. (Found on python-sdk and fastmcp: 140 resources without `mime_type=` all
            // had one.)
            mime_type: true,
            parameters,
        })
    }

    fn serves(&self, s: &Source, node: NodeId) -> Option<bool> {
        let call = s.call(node)?;
        let name = s.callee(call);
        // `uvicorn.Server(...).run()` or `tool.run(arguments=...)` is not the tool server running.
        let runs = name.strip_suffix(".run").or(name.strip_suffix(".run_async"));
        if let Some(receiver) = runs
            && match self.servers.is_empty() {
                true => receiver == "mcp",
                false => self.servers.iter().any(|s| s == receiver),
            }
        {
            let first = call
                .args
                .first()
                .filter(|a| !matches!(a.kind, crate::lang::ir::ArgKind::Keyword(_)));
            let transport = s.keyword(call, "transport").or(first.map(|a| a.value));
            return Some(transport.is_none_or(|t| s.str(t) == Some("stdio")));
        }
        if name.ends_with("run_stdio_async") || name == "stdio_server" {
            return Some(true);
        }
        // Served over HTTP: run here, or mounted as an ASGI app (`uvicorn.run(mcp.sse_app())`).
        [
            ".run_sse_async",
            ".run_streamable_http_async",
            ".run_http_async",
            ".sse_app",
            ".streamable_http_app",
            ".http_app",
        ]
        .iter()
        .any(|run| name.ends_with(run))
        .then_some(false)
    }

    fn builds_server(&self) -> bool {
        !self.servers.is_empty()
    }

    fn language(&self) -> &'static Language {
        &PYTHON
    }
}

/// A parameter the framework passes, not the client: `self`, the request context.
fn is_context(name: &str, type_text: &str) -> bool {
    matches!(name, "self" | "cls" | "ctx" | "context") || type_text.ends_with("Context")
}

/// Whether a function has a docstring that is not empty. An f-string is not a docstring: the
/// function's `__doc__` stays `None`.
fn has_docstring(s: &Source, function: &Function) -> bool {
    let Some(Kind::Expr(value)) = function.body.first().map(|&b| s.kind(b)) else {
        return false;
    };
    match s.kind(*value) {
        Kind::Str(v) => !v.trim().is_empty(),
        Kind::Template(_) | Kind::Other(_) => literals(s.text(*value)).is_some_and(|l| l.len() > 1),
        _ => false,
    }
}

fn model_class(s: &Source, node: NodeId, known: &[ModelClass]) -> Option<ModelClass> {
    let Kind::Class(class) = s.kind(node) else {
        return None;
    };
    let name = class.name.as_ref()?;
    let bases = match (class.bases.first(), class.bases.last()) {
        (Some(&first), Some(&last)) => s
            .text
            .get(s.range(first).start..s.range(last).end)
            .unwrap_or_default(),
        _ => "",
    };
    if !(bases.contains("BaseModel") || known.iter().any(|m| bases.contains(m.name.as_str()))) {
        return None;
    }
    let inherited_strict = known.iter().any(|m| m.strict && bases.contains(m.name.as_str()));
    let strict = inherited_strict || forbids_extra(s.text(node));
    let mut fields = Vec::new();
    for &statement in &class.body {
        if let Kind::Assign(a) = s.kind(statement)
            && let ([target], Some(annotation)) = (a.targets.as_slice(), a.annotation)
            && let Some(field) = s.tree.name(*target)
        {
            fields.push(input_of(s, field, Some(annotation), a.value));
        }
    }
    Some(ModelClass {
        name: name.name.to_string(),
        strict,
        fields,
    })
}

/// `extra="forbid"` in a class's config (`ConfigDict(extra="forbid")`, `{"extra": "forbid"}`,
/// `class Config: extra = "forbid"`, `Extra.forbid`, or a class keyword).
fn forbids_extra(class_text: &str) -> bool {
    let compact: String = class_text.chars().filter(|c| !c.is_whitespace()).collect();
    [
        "extra=\"forbid\"",
        "extra='forbid'",
        "\"extra\":\"forbid\"",
        "'extra':'forbid'",
        "Extra.forbid",
    ]
    .iter()
    .any(|p| compact.contains(p))
}

/// An input with the bounds written in its type (`Annotated[int, Field(ge=1)]`) or its default
/// (`Field(20, le=100)`, `20`). A default that is not a number literal (`settings.limit`,
/// `None`) is not read.
fn input_of(s: &Source, name: &str, annotation: Option<NodeId>, default: Option<NodeId>) -> Input {
    let mut input = Input {
        name: name.to_string(),
        ..Input::default()
    };
    let default_of = |value: NodeId, input: &mut Input| {
        input.default_text = match s.kind(value) {
            Kind::Str(v) => Some(v.to_string()),
            Kind::Member(m) => Some(m.name.name.to_string()),
            _ => None,
        };
        match s.number(value) {
            Some(d) => input.bound.default = Some(d),
            None if s.text(value) == "..." => {}
            None => input.default_unread = true,
        }
    };
    let field = |n: NodeId| s.call(n).filter(|c| s.callee(c).ends_with("Field"));
    let apply_field = |call: &crate::lang::ir::Call, input: &mut Input| {
        let value = |key: &str| s.keyword(call, key).and_then(|v| s.number(v));
        let b = &mut input.bound;
        b.minimum = value("ge").or(value("gt").map(|v| v.floor() + 1.0)).or(b.minimum);
        b.maximum = value("le").or(value("lt").map(|v| v.ceil() - 1.0)).or(b.maximum);
        b.min_length = value("min_length").or(b.min_length);
        b.max_length = value("max_length").or(b.max_length);
        if let Some(d) = s.keyword(call, "default").or(s.positional(call).first().copied()) {
            default_of(d, input);
        }
    };
    if let Some(annotation) = annotation {
        s.walk(annotation, &mut |n| match field(n) {
            Some(call) => {
                apply_field(call, &mut input);
                false
            }
            None => true,
        });
    }
    if let Some(default) = default {
        match field(default) {
            Some(call) => apply_field(call, &mut input),
            None => default_of(default, &mut input),
        }
    }
    input
}

/// Whether a parameter's type is a class from another module (`params: ExternalInput`): a
/// capitalised name that is not a typing construct and no class of this file, whose fields
/// cannot be read here.
fn imported_type(type_text: &str, text: &str) -> bool {
    const TYPING: &[&str] = &[
        "Optional",
        "List",
        "Dict",
        "Literal",
        "Annotated",
        "Any",
        "Union",
        "Sequence",
        "Mapping",
        "Set",
        "Tuple",
        "Iterable",
        "FrozenSet",
        "Type",
        "None",
    ];
    let head: String = type_text
        .trim_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    head.chars().next().is_some_and(char::is_uppercase)
        && !TYPING.contains(&head.as_str())
        && !text.contains(&format!("class {head}"))
}
