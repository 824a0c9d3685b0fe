//! Python tool servers (FastMCP, from the `mcp` package or the `fastmcp` package): the tools a
//! file registers with `@server.tool`, and what the MCP rules check around them.

use tree_sitter::Node;

use super::facts::{keyword_in as keyword, string_value};
use crate::diagnostic::Edit;
use crate::lang::guards;
use crate::lang::treesitter::{children, text_of, visit};
use crate::mcp::{Input, KeyCheck, KeyRead, Schema, StdoutWrite, Tool, ToolServer, UntimedCall};

/// Which FastMCP builds the tools: they differ in how unknown arguments are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    /// `mcp.server.fastmcp`: the argument model ignores unknown fields.
    Sdk,
    /// `fastmcp`: arguments are validated against the signature; unknown ones are rejected.
    Standalone,
    Unknown,
}

/// The facts of a Python file, when it is a tool server: it imports an MCP package or builds a
/// `FastMCP(...)`.
pub fn tool_server(tree: &tree_sitter::Tree, text: &str, api_key_suffix: &str) -> Option<ToolServer> {
    let root = tree.root_node();
    let mut dialect = Dialect::Unknown;
    let mut mcp_import = false;
    let mut sys_imported = false;
    let mut servers: Vec<String> = Vec::new();
    for statement in children(root) {
        match statement.kind() {
            "import_from_statement" => {
                let module = statement
                    .child_by_field_name("module_name")
                    .map_or("", |m| text_of(m, text));
                if module == "mcp" || module.starts_with("mcp.") {
                    mcp_import = true;
                    dialect = Dialect::Sdk;
                } else if module == "fastmcp" || module.starts_with("fastmcp.") {
                    mcp_import = true;
                    dialect = Dialect::Standalone;
                }
            }
            "import_statement" => {
                for name in children(statement) {
                    let dotted = match name.kind() {
                        "aliased_import" => name.child_by_field_name("name"),
                        _ => Some(name),
                    };
                    let dotted = dotted.map_or("", |d| text_of(d, text));
                    sys_imported |= dotted == "sys" && name.kind() == "dotted_name";
                    if dotted == "fastmcp" {
                        mcp_import = true;
                        dialect = Dialect::Standalone;
                    } else if dotted == "mcp" || dotted.starts_with("mcp.") {
                        mcp_import = true;
                        dialect = Dialect::Sdk;
                    }
                }
            }
            _ => {}
        }
    }
    visit(root, &mut |node| {
        if node.kind() == "assignment"
            && let (Some(left), Some(right)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            )
            && right.kind() == "call"
            && right.child_by_field_name("function").is_some_and(|f| {
                let f = text_of(f, text);
                f.ends_with("FastMCP") || f.ends_with("MCPServer")
            })
        {
            servers.push(text_of(left, text).to_string());
        }
        true
    });
    if !mcp_import && servers.is_empty() {
        return None;
    }
    let is_server = |receiver: &str| servers.iter().any(|s| s == receiver) || receiver == "mcp" || mcp_import;
    // `uvicorn.Server(...).run()` or `tool.run(arguments=...)` is not the tool server running.
    let runs_server = |receiver: &str| match servers.is_empty() {
        true => receiver == "mcp",
        false => servers.iter().any(|s| s == receiver),
    };
    let classes = model_classes(root, text);
    let mut out = ToolServer::default();
    let mut prints = Vec::new();
    visit(root, &mut |node| {
        match node.kind() {
            "decorated_definition" => {
                if let Some(tool) = tool_of(node, text, &is_server, dialect, &classes) {
                    out.tools.push(tool);
                } else if let Some(resource) = super::mcp_handler::resource_of(node, text, &is_server) {
                    out.resources.push(resource);
                }
            }
            "call" if in_test(node, text) => {}
            "call" => {
                let function = node.child_by_field_name("function");
                let name = function.map_or("", |f| text_of(f, text));
                let runs = name.strip_suffix(".run").or(name.strip_suffix(".run_async"));
                if let Some(receiver) = runs
                    && runs_server(receiver)
                {
                    out.serves = true;
                    out.stdio |= runs_stdio(node, text);
                }
                if name.ends_with("run_stdio_async") || name == "stdio_server" {
                    out.serves = true;
                    out.stdio = true;
                }
                // Served over HTTP: run here, or mounted as an ASGI app (`uvicorn.run(mcp.sse_app())`).
                if [
                    ".run_sse_async",
                    ".run_streamable_http_async",
                    ".run_http_async",
                    ".sse_app",
                    ".streamable_http_app",
                    ".http_app",
                ]
                .iter()
                .any(|run| name.ends_with(run))
                {
                    out.serves = true;
                }
                if name == "print" || name == "sys.stdout.write" {
                    prints.push(node);
                }
                if let Some(call) = untimed_call(node, name, text) {
                    out.untimed_calls.push(call);
                }
                if let Some(read) = key_read(node, name, text, api_key_suffix, root) {
                    out.key_reads.push(read);
                }
            }
            "subscript" => {
                if let Some(read) = subscript_key_read(node, text, api_key_suffix, root) {
                    out.key_reads.push(read);
                }
            }
            _ => {}
        }
        true
    });
    // A file that registers no tool and builds no server (a client, a test, a low-level
    // server) is not read as a tool server.
    if out.tools.is_empty() && servers.is_empty() {
        return None;
    }
    let import_edit = (!sys_imported).then(|| import_sys(root, text)).flatten();
    for call in prints {
        if let Some(write) = stdout_write(call, text, sys_imported, import_edit.as_ref()) {
            out.stdout_writes.push(write);
        }
    }
    Some(out)
}

/// Whether a node lies in a test (a `test...` function or a `Test...` class): a server a test
/// runs or mounts is not the file's own process.
fn in_test(node: Node, text: &str) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        let name = n.child_by_field_name("name").map_or("", |x| text_of(x, text));
        match n.kind() {
            "function_definition" if name.starts_with("test") => return true,
            "class_definition" if name.starts_with("Test") => return true,
            _ => {}
        }
        at = n.parent();
    }
    false
}

/// Whether a `server.run(...)` call runs over stdio (no transport, or `"stdio"`).
fn runs_stdio(call: Node, text: &str) -> bool {
    let Some(arguments) = call.child_by_field_name("arguments") else {
        return false;
    };
    let mut transport = None;
    for (i, arg) in children(arguments).enumerate() {
        if arg.kind() == "keyword_argument" {
            if arg
                .child_by_field_name("name")
                .is_some_and(|n| text_of(n, text) == "transport")
            {
                transport = arg.child_by_field_name("value");
            }
        } else if i == 0 {
            transport = Some(arg);
        }
    }
    match transport {
        None => true,
        Some(value) => string_value(value, text).is_some_and(|v| v == "stdio"),
    }
}

fn positional(arguments: Node) -> Vec<Node> {
    children(arguments)
        .filter(|c| !matches!(c.kind(), "keyword_argument" | "comment"))
        .collect()
}

/// A class deriving from `BaseModel` in the file: its name, whether it forbids unknown fields,
/// and its fields.
struct ModelClass {
    name: String,
    strict: bool,
    fields: Vec<Input>,
}

fn model_classes(root: Node, text: &str) -> Vec<ModelClass> {
    let mut out = Vec::new();
    visit(root, &mut |node| {
        if node.kind() != "class_definition" {
            return true;
        }
        let bases = node
            .child_by_field_name("superclasses")
            .map_or("", |b| text_of(b, text));
        let Some(name) = node.child_by_field_name("name") else {
            return true;
        };
        let known_models: Vec<&str> = out.iter().map(|m: &ModelClass| m.name.as_str()).collect();
        let derives = bases.contains("BaseModel") || known_models.iter().any(|m| bases.contains(m));
        if !derives {
            return true;
        }
        let whole = text_of(node, text);
        let inherited_strict = out
            .iter()
            .any(|m: &ModelClass| m.strict && bases.contains(m.name.as_str()));
        let strict = inherited_strict || forbids_extra(whole);
        let mut fields = Vec::new();
        if let Some(body) = node.child_by_field_name("body") {
            for statement in children(body) {
                let Some(assignment) = children(statement).find(|c| c.kind() == "assignment") else {
                    continue;
                };
                let Some(left) = assignment.child_by_field_name("left") else {
                    continue;
                };
                if left.kind() != "identifier" || assignment.child_by_field_name("type").is_none() {
                    continue;
                }
                fields.push(input_of(
                    text_of(left, text),
                    assignment.child_by_field_name("type"),
                    assignment.child_by_field_name("right"),
                    text,
                ));
            }
        }
        out.push(ModelClass {
            name: text_of(name, text).to_string(),
            strict,
            fields,
        });
        true
    });
    out
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
fn input_of(name: &str, annotation: Option<Node>, default: Option<Node>, text: &str) -> Input {
    let mut input = Input {
        name: name.to_string(),
        ..Input::default()
    };
    let default_of = |value: Node, input: &mut Input| {
        input.default_text = super::mcp_handler::default_text(value, text);
        match number(value, text) {
            Some(d) => input.bound.default = Some(d),
            None if value.kind() == "ellipsis" => {}
            None => input.default_unread = true,
        }
    };
    let apply_field = |call: Node, input: &mut Input| {
        let Some(arguments) = call.child_by_field_name("arguments") else {
            return;
        };
        let value = |key: &str| keyword(arguments, key, text).and_then(|v| number(v, text));
        let b = &mut input.bound;
        b.minimum = value("ge").or(value("gt").map(|v| v.floor() + 1.0)).or(b.minimum);
        b.maximum = value("le").or(value("lt").map(|v| v.ceil() - 1.0)).or(b.maximum);
        b.min_length = value("min_length").or(b.min_length);
        b.max_length = value("max_length").or(b.max_length);
        if let Some(d) = keyword(arguments, "default", text).or(positional(arguments).first().copied()) {
            default_of(d, input);
        }
    };
    let is_field = |n: Node| {
        n.kind() == "call"
            && n.child_by_field_name("function")
                .is_some_and(|f| text_of(f, text).ends_with("Field"))
    };
    if let Some(annotation) = annotation {
        visit(annotation, &mut |n| {
            if is_field(n) {
                apply_field(n, &mut input);
                return false;
            }
            true
        });
    }
    if let Some(default) = default {
        if is_field(default) {
            apply_field(default, &mut input);
        } else {
            default_of(default, &mut input);
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

fn number(node: Node, text: &str) -> Option<f64> {
    match node.kind() {
        "integer" | "float" => text_of(node, text).replace('_', "").parse().ok(),
        "unary_operator" => {
            let t = text_of(node, text).replace([' ', '_'], "");
            t.parse().ok()
        }
        _ => None,
    }
}

/// The tool a decorated function is, when one of its decorators is `server.tool` or
/// `server.tool(...)`.
fn tool_of(
    node: Node,
    text: &str,
    is_server: &dyn Fn(&str) -> bool,
    dialect: Dialect,
    classes: &[ModelClass],
) -> Option<Tool> {
    let (function, target, arguments) = super::mcp_handler::registered(node, text, ".tool", is_server)?;
    let function_name = function.child_by_field_name("name").map(|n| text_of(n, text));
    let literal_name = arguments.and_then(|a| {
        keyword(a, "name", text)
            .or(positional(a).first().copied())
            .and_then(|n| string_value(n, text))
    });
    let described_by_argument = arguments
        .and_then(|a| keyword(a, "description", text))
        .is_some_and(|d| string_value(d, text).is_none_or(|s| !s.trim().is_empty()));
    let docstring = super::mcp_handler::has_docstring(function, text);
    let annotation_node = arguments.and_then(|a| keyword(a, "annotations", text));
    let (annotations, opaque) = match annotation_node {
        None => (None, false),
        Some(value) => match hints(value, text) {
            Some(h) => (Some(h), false),
            None => (None, true),
        },
    };
    let (schema, inputs) = schema_of(function, text, dialect, classes);
    Some(Tool {
        name: literal_name.or(function_name.map(str::to_string)),
        range: target.byte_range(),
        described: described_by_argument || docstring,
        annotations,
        annotations_opaque: opaque,
        schema,
        inputs,
        handler: Some(super::mcp_handler::handler(function, text)),
    })
}

/// The hints of an annotations dict or `ToolAnnotations(...)` call.
fn hints(value: Node, text: &str) -> Option<Vec<(String, Option<bool>)>> {
    let literal = |v: Node| match v.kind() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    match value.kind() {
        "dictionary" => Some(
            children(value)
                .filter(|p| p.kind() == "pair")
                .filter_map(|p| {
                    let key = string_value(p.child_by_field_name("key")?, text)?;
                    Some((key, p.child_by_field_name("value").and_then(literal)))
                })
                .collect(),
        ),
        "call" => {
            let arguments = value.child_by_field_name("arguments")?;
            Some(
                children(arguments)
                    .filter(|a| a.kind() == "keyword_argument")
                    .filter_map(|a| {
                        let key = text_of(a.child_by_field_name("name")?, text).to_string();
                        Some((key, a.child_by_field_name("value").and_then(literal)))
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// How a tool function's inputs treat unknown fields, and the inputs' bounds.
fn schema_of(function: Node, text: &str, dialect: Dialect, classes: &[ModelClass]) -> (Schema, Vec<Input>) {
    let Some(parameters) = function.child_by_field_name("parameters") else {
        return (Schema::Unknown, Vec::new());
    };
    let mut plain = Vec::new();
    let mut models = Vec::new();
    for p in children(parameters) {
        let (name, annotation, default) = match p.kind() {
            "identifier" => (Some(p), None, None),
            "typed_parameter" => (
                children(p).find(|c| c.kind() == "identifier"),
                p.child_by_field_name("type"),
                None,
            ),
            "default_parameter" | "typed_default_parameter" => (
                p.child_by_field_name("name"),
                p.child_by_field_name("type"),
                p.child_by_field_name("value"),
            ),
            _ => continue,
        };
        let Some(name) = name.map(|n| text_of(n, text)) else {
            continue;
        };
        let type_text = annotation.map_or("", |a| text_of(a, text));
        if matches!(name, "self" | "cls" | "ctx" | "context") || type_text.ends_with("Context") {
            continue;
        }
        match classes
            .iter()
            .find(|c| type_text == c.name || type_text.contains(&format!("[{}]", c.name)))
        {
            Some(model) => models.push(model),
            None => {
                let mut input = input_of(name, annotation, default, text);
                input.opaque |= imported_type(type_text, text);
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
    let schema = match (plain.is_empty(), models.is_empty(), dialect) {
        (true, true, _) => Schema::Empty,
        (true, false, _) => Schema::Strict,
        (false, _, Dialect::Sdk) => Schema::Lenient(
            "FastMCP builds the input model from the parameters and ignores unknown fields".to_string(),
        ),
        (false, _, Dialect::Standalone) => Schema::Strict,
        (false, _, Dialect::Unknown) => Schema::Unknown,
    };
    (schema, inputs)
}

/// A `print(...)` without `file=` (or with `file=sys.stdout`), or `sys.stdout.write(...)`, with
/// the edits that send it to standard error.
fn stdout_write(
    call: Node,
    text: &str,
    sys_imported: bool,
    import_edit: Option<&Edit>,
) -> Option<StdoutWrite> {
    let function = call.child_by_field_name("function")?;
    let arguments = call.child_by_field_name("arguments")?;
    if arguments.kind() != "argument_list" {
        return None;
    }
    let mut edits = Vec::new();
    if text_of(function, text) == "sys.stdout.write" {
        let object = function.child_by_field_name("object")?;
        edits.push(Edit::replace(object.byte_range(), "sys.stderr"));
        return Some(StdoutWrite {
            range: function.byte_range(),
            what: "sys.stdout.write(...)".to_string(),
            fix: Some(("Write to `sys.stderr`".to_string(), edits)),
        });
    }
    if children(arguments).any(|a| a.kind() == "dictionary_splat") {
        return None;
    }
    match keyword(arguments, "file", text) {
        Some(file) if text_of(file, text) == "sys.stdout" => {
            edits.push(Edit::replace(file.byte_range(), "sys.stderr"));
        }
        Some(_) => return None,
        None => {
            let last = children(arguments).filter(|a| a.kind() != "comment").last();
            match last {
                Some(last) => edits.push(Edit::replace(
                    last.end_byte()..last.end_byte(),
                    ", file=sys.stderr",
                )),
                None => {
                    let open = arguments.start_byte() + 1;
                    edits.push(Edit::replace(open..open, "file=sys.stderr"));
                }
            }
            if !sys_imported {
                match import_edit {
                    Some(import) => edits.push(import.clone()),
                    None => edits.clear(),
                }
            }
        }
    }
    let fix = (!edits.is_empty()).then(|| {
        let message = if sys_imported {
            "Print to standard error: `file=sys.stderr`"
        } else {
            "Print to standard error: `file=sys.stderr` (and `import sys`)"
        };
        (message.to_string(), edits)
    });
    Some(StdoutWrite {
        range: function.byte_range(),
        what: "print(...)".to_string(),
        fix,
    })
}

/// Where `import sys` goes: before the first import that is not `from __future__`.
fn import_sys(root: Node, text: &str) -> Option<Edit> {
    let mut after_future = None;
    for statement in children(root) {
        match statement.kind() {
            "future_import_statement" => after_future = Some(statement.end_byte()),
            "import_statement" | "import_from_statement" => {
                let at = statement.start_byte();
                return Some(Edit::replace(at..at, "import sys\n"));
            }
            _ => {}
        }
    }
    let end = after_future?;
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    Some(Edit::replace(line_end..line_end, "import sys\n"))
}

const REQUESTS_VERBS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "request",
];

/// An HTTP call with no timeout: `requests.get(...)` without `timeout=`, `urlopen(...)`
/// without one, or any call passing `timeout=None`.
fn untimed_call(call: Node, name: &str, text: &str) -> Option<UntimedCall> {
    let arguments = call.child_by_field_name("arguments")?;
    if arguments.kind() != "argument_list" || children(arguments).any(|a| a.kind() == "dictionary_splat") {
        return None;
    }
    let timeout = keyword(arguments, "timeout", text);
    let function = call.child_by_field_name("function")?;
    if timeout.is_some_and(|t| t.kind() == "none") && is_http_call(name) {
        return Some(UntimedCall {
            range: function.byte_range(),
            what: format!("{name}(..., timeout=None)"),
            advice: "pass `timeout=30.0` (seconds)".to_string(),
        });
    }
    let requests = name
        .strip_prefix("requests.")
        .is_some_and(|verb| REQUESTS_VERBS.contains(&verb));
    let urlopen = (name == "urlopen" || name.ends_with("request.urlopen")) && positional(arguments).len() < 3;
    ((requests || urlopen) && timeout.is_none()).then(|| UntimedCall {
        range: function.byte_range(),
        what: format!("{name}(...)"),
        advice: "pass `timeout=30` (seconds)".to_string(),
    })
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

const GETENV: &[&str] = &["os.getenv", "getenv", "os.environ.get", "environ.get"];

fn key_read(call: Node, name: &str, text: &str, suffix: &str, root: Node) -> Option<KeyRead> {
    if !GETENV.contains(&name) {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    let first = positional(arguments).first().copied()?;
    let variable = string_value(first, text)?;
    if !variable.ends_with(suffix) {
        return None;
    }
    let check = key_check(call, &variable, text, root);
    Some(KeyRead {
        range: call.byte_range(),
        variable,
        check,
    })
}

fn subscript_key_read(node: Node, text: &str, suffix: &str, root: Node) -> Option<KeyRead> {
    let value = node.child_by_field_name("value")?;
    if !matches!(text_of(value, text), "os.environ" | "environ") {
        return None;
    }
    let variable = string_value(node.child_by_field_name("subscript")?, text)?;
    if !variable.ends_with(suffix) {
        return None;
    }
    // A KeyError at import names the variable and stops the process with status 1.
    let mut in_function = false;
    let mut up = node.parent();
    while let Some(p) = up {
        in_function |= matches!(p.kind(), "function_definition" | "lambda");
        up = p.parent();
    }
    let check = if in_function {
        key_check(node, &variable, text, root)
    } else {
        KeyCheck::FailsFast
    };
    Some(KeyRead {
        range: node.byte_range(),
        variable,
        check,
    })
}

/// What stops the process when the variable read at `read` is missing: an `if` on the name the
/// read is bound to (or on the read itself) whose body exits or raises, anywhere in the file;
/// or `... or sys.exit(...)` in the read's own statement.
fn key_check(read: Node, variable: &str, text: &str, root: Node) -> KeyCheck {
    let mut statement = read;
    while let Some(p) = statement.parent() {
        if p.kind() == "assignment" || p.kind() == "expression_statement" || p.kind() == "if_statement" {
            statement = p;
            break;
        }
        statement = p;
    }
    let bound: Option<String> = (statement.kind() == "assignment")
        .then(|| statement.child_by_field_name("left"))
        .flatten()
        .filter(|l| matches!(l.kind(), "identifier" | "attribute"))
        .map(|l| text_of(l, text).to_string());
    let read_text = text_of(read, text);
    let exit = |node: Node| exit_of(node, text);
    // `key = os.getenv(...) or sys.exit(...)` stops the process in the read's own statement.
    let inline = (statement.kind() == "assignment")
        .then(|| statement.child_by_field_name("right"))
        .flatten()
        .map_or(KeyCheck::None, |right| {
            guards::exit_in(right, variable, text, &exit)
        });
    let on_key = |condition: &str| {
        condition.contains(read_text)
            || bound
                .as_deref()
                .is_some_and(|b| crate::mcp::mentions(condition, b))
            || condition.contains(variable)
    };
    inline.better(guards::best_guard(root, variable, text, &on_key, &exit))
}

/// How a node stops the process: `raise`, `sys.exit(...)`, `exit(...)`, `os._exit(...)`.
fn exit_of(node: Node, text: &str) -> guards::Exit {
    match node.kind() {
        "raise_statement" => Some(Ok(())),
        "call" => {
            let function = node
                .child_by_field_name("function")
                .map_or("", |f| text_of(f, text));
            if !matches!(function, "sys.exit" | "exit" | "quit" | "os._exit" | "SystemExit") {
                return None;
            }
            let first = node
                .child_by_field_name("arguments")
                .and_then(|a| positional(a).first().copied());
            Some(match first {
                None => Err("0".to_string()),
                Some(arg) if arg.kind() == "integer" && text_of(arg, text) != "1" => {
                    Err(text_of(arg, text).to_string())
                }
                Some(_) => Ok(()),
            })
        }
        _ => None,
    }
}
