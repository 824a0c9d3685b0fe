//! JavaScript and TypeScript tool servers (`McpServer` of `@modelcontextprotocol/sdk`): the
//! tools a file registers with `server.registerTool(...)` or `server.tool(...)`, and what the
//! MCP rules check around them.

use tree_sitter::Node;

use super::facts::string_value;
use crate::diagnostic::Edit;
use crate::lang::guards;
use crate::lang::treesitter::{children, text_of, visit};
use crate::mcp::{Bound, Input, KeyCheck, KeyRead, Schema, StdoutWrite, Tool, ToolServer, UntimedCall};

/// The facts of a file, when it is a tool server: it imports the MCP SDK or builds a
/// `McpServer`.
pub fn tool_server(tree: &tree_sitter::Tree, text: &str, api_key_suffix: &str) -> Option<ToolServer> {
    let root = tree.root_node();
    let mut sdk_import = false;
    let mut servers: Vec<String> = Vec::new();
    let mut consts: Vec<(String, Node)> = Vec::new();
    visit(root, &mut |node| {
        match node.kind() {
            "import_statement" => {
                let source = node
                    .child_by_field_name("source")
                    .and_then(|s| string_value(s, text));
                sdk_import |= source.is_some_and(|s| s.starts_with("@modelcontextprotocol/"));
            }
            "call_expression" if text_of(node, text).starts_with("require(") => {
                sdk_import |= text_of(node, text).contains("@modelcontextprotocol/");
            }
            "variable_declarator" | "assignment_expression" => {
                let name = node
                    .child_by_field_name("name")
                    .or(node.child_by_field_name("left"));
                let value = node
                    .child_by_field_name("value")
                    .or(node.child_by_field_name("right"));
                if let (Some(name), Some(value)) = (name, value) {
                    let value = unwrap(value);
                    if value.kind() == "new_expression"
                        && value
                            .child_by_field_name("constructor")
                            .is_some_and(|c| text_of(c, text).ends_with("McpServer"))
                    {
                        servers.push(text_of(name, text).to_string());
                    }
                    if name.kind() == "identifier" && node.kind() == "variable_declarator" {
                        consts.push((text_of(name, text).to_string(), value));
                    }
                }
            }
            _ => {}
        }
        true
    });
    if !sdk_import && servers.is_empty() {
        return None;
    }
    let resolve = Resolver { text, consts };
    let axios_defaults = text.contains("axios.defaults.timeout");
    let mut out = ToolServer::default();
    visit(root, &mut |node| {
        match node.kind() {
            // `StdioServerTransport`, `StreamableHTTPServerTransport`, `SSEServerTransport`; an
            // `InMemoryTransport` is a test's or a client's.
            "new_expression"
                if node
                    .child_by_field_name("constructor")
                    .is_some_and(|c| text_of(c, text).ends_with("ServerTransport")) =>
            {
                out.serves = true;
                out.stdio |= node
                    .child_by_field_name("constructor")
                    .is_some_and(|c| text_of(c, text) == "StdioServerTransport");
            }
            "call_expression" => {
                let Some(function) = node.child_by_field_name("function") else {
                    return true;
                };
                // `await axios.get<T>(...)` parses with the `await` inside the callee.
                let function = match function.kind() {
                    "await_expression" => children(function).next().unwrap_or(function),
                    _ => function,
                };
                let name = text_of(function, text);
                if function.kind() == "member_expression" {
                    if let Some(tool) = registration(node, function, text, &servers, &resolve) {
                        out.tools.push(tool);
                    } else if is_server_receiver(function, text, &servers)
                        && let Some(resource) = super::mcp_handler::resource(node, function, text)
                    {
                        out.resources.push(resource);
                    }
                }
                if let Some(write) = stdout_write(function, name, text) {
                    out.stdout_writes.push(write);
                }
                if let Some(call) = untimed_call(node, function, name, text, axios_defaults) {
                    out.untimed_calls.push(call);
                }
            }
            "member_expression" | "subscript_expression" => {
                if let Some(read) = key_read(node, text, api_key_suffix, root) {
                    out.key_reads.push(read);
                }
            }
            _ => {}
        }
        true
    });
    // A file that registers no tool and builds no server (a client, a test, a low-level
    // server, a module with a type import) is not read as a tool server.
    if out.tools.is_empty() && servers.is_empty() {
        return None;
    }
    Some(out)
}

/// Whether a call's receiver is a server: a name bound to `new McpServer(...)`, or one that
/// ends with `server` (`this.server`, `mcpServer`).
fn is_server_receiver(function: Node, text: &str, servers: &[String]) -> bool {
    function.child_by_field_name("object").is_some_and(|o| {
        let receiver = text_of(o, text);
        servers.iter().any(|s| s == receiver)
            || receiver
                .rsplit('.')
                .next()
                .is_some_and(|r| r.to_ascii_lowercase().ends_with("server"))
    })
}

/// Strips `as T`, `satisfies T`, `!` and parentheses.
fn unwrap(node: Node) -> Node {
    let mut node = node;
    while matches!(
        node.kind(),
        "as_expression" | "satisfies_expression" | "non_null_expression" | "parenthesized_expression"
    ) {
        match children(node).next() {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The values the file binds to names with `const`/`let`.
struct Resolver<'t> {
    text: &'t str,
    consts: Vec<(String, Node<'t>)>,
}

impl<'t> Resolver<'t> {
    /// A node with an identifier resolved to its value (once); `None` when the name is not
    /// bound in the file, or bound more than once.
    fn get(&self, node: Node<'t>) -> Option<Node<'t>> {
        let node = unwrap(node);
        if !matches!(node.kind(), "identifier" | "shorthand_property_identifier") {
            return Some(node);
        }
        let name = text_of(node, self.text);
        let mut found = self.consts.iter().filter(|(n, _)| n == name);
        let first = found.next()?;
        found.next().is_none().then_some(unwrap(first.1))
    }
}

fn arguments(call: Node) -> Vec<Node> {
    call.child_by_field_name("arguments")
        .map(|a| children(a).filter(|c| c.kind() != "comment").collect())
        .unwrap_or_default()
}

/// The members of an object literal with their values; a shorthand member (`{ annotations }`)
/// has its name as its value, for the resolver to follow.
fn pairs<'t>(object: Node<'t>, text: &str) -> Vec<(String, Node<'t>)> {
    children(object)
        .filter(|p| matches!(p.kind(), "pair" | "shorthand_property_identifier"))
        .filter_map(|p| {
            if p.kind() == "shorthand_property_identifier" {
                return Some((text_of(p, text).to_string(), p));
            }
            let key = p.child_by_field_name("key")?;
            let name = match key.kind() {
                "string" => string_value(key, text)?,
                _ => text_of(key, text).to_string(),
            };
            Some((name, p.child_by_field_name("value")?))
        })
        .collect()
}

fn is_function(node: Node) -> bool {
    matches!(
        unwrap(node).kind(),
        "arrow_function"
            | "function_expression"
            | "function"
            | "identifier"
            | "member_expression"
            | "call_expression"
    )
}

/// A tool registration: `x.registerTool(name, config, cb)` on any receiver, or `x.tool(name,
/// ..., cb)` on a server.
fn registration<'t>(
    call: Node<'t>,
    function: Node<'t>,
    text: &str,
    servers: &[String],
    resolve: &Resolver<'t>,
) -> Option<Tool> {
    let property = text_of(function.child_by_field_name("property")?, text);
    let args = arguments(call);
    let name_node = *args.first()?;
    let name = resolve.get(name_node).and_then(|n| string_value(n, text));
    let literal_name = name.is_some();
    let mut tool = Tool {
        name,
        range: function.byte_range(),
        described: false,
        annotations: None,
        annotations_opaque: false,
        schema: Schema::Unknown,
        inputs: Vec::new(),
        handler: None,
    };
    match property {
        "registerTool" => {
            if args.len() != 3 {
                return None;
            }
            let Some(config) = resolve.get(args[1]).filter(|c| c.kind() == "object") else {
                // A config from elsewhere: nothing to say.
                tool.described = true;
                tool.annotations_opaque = true;
                return Some(tool);
            };
            let members = pairs(config, text);
            let has_spread = children(config).any(|c| c.kind() == "spread_element");
            let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
            tool.described = has_spread || get("description").is_some_and(|d| described(d, text));
            match get("annotations") {
                Some(a) => match resolve.get(a).filter(|a| a.kind() == "object") {
                    Some(object) => tool.annotations = Some(hints(object, text)),
                    None => tool.annotations_opaque = true,
                },
                None => tool.annotations_opaque = has_spread,
            }
            match get("inputSchema") {
                Some(schema) => (tool.schema, tool.inputs) = schema_of(schema, text, resolve),
                None => {
                    tool.schema = if has_spread {
                        Schema::Unknown
                    } else {
                        Schema::Empty
                    }
                }
            }
        }
        "tool" => {
            if !is_server_receiver(function, text, servers) || args.len() < 2 || !is_function(*args.last()?) {
                return None;
            }
            let middle = &args[1..args.len() - 1];
            tool.schema = Schema::Empty;
            for (i, arg) in middle.iter().enumerate() {
                let value = resolve.get(*arg);
                match value.map(|v| v.kind()) {
                    Some("string" | "template_string" | "binary_expression") if i == 0 => {
                        tool.described = described(*arg, text);
                    }
                    Some("object") => {
                        let object = value?;
                        let members = pairs(object, text);
                        // The SDK tells annotations from a shape by their values; the hint
                        // names (and `title`) tell the same here.
                        let annotations = !members.is_empty()
                            && members.iter().all(|(k, _)| k == "title" || k.ends_with("Hint"));
                        if !annotations {
                            (tool.schema, tool.inputs) = schema_of(object, text, resolve);
                        } else {
                            tool.annotations = Some(hints(object, text));
                        }
                    }
                    Some("call_expression") => (tool.schema, tool.inputs) = schema_of(*arg, text, resolve),
                    _ => {
                        // Not readable (`tool.description`, a parameter): give the benefit of
                        // the doubt.
                        tool.described = true;
                        tool.annotations_opaque = true;
                        tool.schema = Schema::Unknown;
                    }
                }
            }
            if !literal_name && middle.is_empty() {
                tool.described = true;
            }
        }
        _ => return None,
    }
    if let Some(callback) = args
        .last()
        .filter(|a| matches!(a.kind(), "arrow_function" | "function_expression"))
    {
        tool.handler = Some(super::mcp_handler::handler(*callback, text));
    }
    Some(tool)
}

/// A description value that is not an empty string.
fn described(node: Node, text: &str) -> bool {
    string_value(node, text).is_none_or(|s| !s.trim().is_empty())
}

fn hints(object: Node, text: &str) -> Vec<(String, Option<bool>)> {
    pairs(object, text)
        .into_iter()
        .map(|(key, value)| {
            let literal = match unwrap(value).kind() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            };
            (key, literal)
        })
        .collect()
}

/// How an input schema treats unknown fields, and its inputs' bounds.
fn schema_of<'t>(node: Node<'t>, text: &str, resolve: &Resolver<'t>) -> (Schema, Vec<Input>) {
    let Some(value) = resolve.get(node) else {
        return (Schema::Unknown, Vec::new());
    };
    match value.kind() {
        "object" => {
            let inputs = shape_inputs(value, text, resolve);
            if pairs(value, text).is_empty() && !children(value).any(|c| c.kind() == "spread_element") {
                return (Schema::Empty, inputs);
            }
            let why = "a raw shape, which the SDK wraps in `z.object()` without `.strict()`, so unknown fields are stripped";
            (Schema::Lenient(why.to_string()), inputs)
        }
        "member_expression" => {
            let property = value
                .child_by_field_name("property")
                .map_or("", |p| text_of(p, text));
            let object = value.child_by_field_name("object");
            if property != "shape" {
                return (Schema::Unknown, Vec::new());
            }
            let shape = object
                .and_then(|o| zod_object(o, text, resolve))
                .map(|(shape, _)| shape);
            // `z.object({}).shape`: a tool without inputs has nothing to strip.
            if shape.is_some_and(|s| {
                pairs(s, text).is_empty() && !children(s).any(|c| c.kind() == "spread_element")
            }) {
                return (Schema::Empty, Vec::new());
            }
            let inputs = shape.map(|s| shape_inputs(s, text, resolve)).unwrap_or_default();
            let why = "`.shape` passes the fields alone, so the SDK builds a `z.object()` without `.strict()` and unknown fields are stripped";
            (Schema::Lenient(why.to_string()), inputs)
        }
        "call_expression" => match zod_object(value, text, resolve) {
            Some((shape, strict)) => {
                let inputs = shape_inputs(shape, text, resolve);
                let empty =
                    pairs(shape, text).is_empty() && !children(shape).any(|c| c.kind() == "spread_element");
                if empty {
                    (Schema::Empty, inputs)
                } else if strict {
                    (Schema::Strict, inputs)
                } else {
                    let why = "a `z.object()` without `.strict()`, so unknown fields are stripped";
                    (Schema::Lenient(why.to_string()), inputs)
                }
            }
            None => (Schema::Unknown, Vec::new()),
        },
        _ => (Schema::Unknown, Vec::new()),
    }
}

/// The shape object of a `z.object({...})` chain (through a binding), and whether the chain
/// makes it strict (`.strict()`, `z.strictObject`).
fn zod_object<'t>(node: Node<'t>, text: &str, resolve: &Resolver<'t>) -> Option<(Node<'t>, bool)> {
    let mut node = resolve.get(node)?;
    let mut strict = false;
    loop {
        if node.kind() != "call_expression" {
            return None;
        }
        let function = node.child_by_field_name("function")?;
        let callee = text_of(function, text);
        if matches!(callee, "z.object" | "z.strictObject")
            || callee.ends_with(".object") && !callee.contains(')')
        {
            let shape = arguments(node).first().and_then(|a| resolve.get(*a))?;
            strict |= callee == "z.strictObject";
            return (shape.kind() == "object").then_some((shape, strict));
        }
        if function.kind() != "member_expression" {
            return None;
        }
        let method = function
            .child_by_field_name("property")
            .map_or("", |p| text_of(p, text));
        match method {
            "strict" => strict = true,
            "passthrough" | "strip" | "catchall" => {}
            _ => {}
        }
        node = function.child_by_field_name("object")?;
    }
}

/// The inputs of a zod shape with their bounds (`z.number().int().min(1).max(100).default(20)`).
fn shape_inputs<'t>(shape: Node<'t>, text: &str, resolve: &Resolver<'t>) -> Vec<Input> {
    pairs(shape, text)
        .into_iter()
        .map(|(name, value)| {
            let chain = resolve.get(value).unwrap_or(value);
            let (bound, default_unread, opaque) = zod_bound(chain, text);
            Input {
                name,
                bound,
                default_unread,
                opaque,
                default_text: zod_default_text(chain, text),
            }
        })
        .collect()
}

/// The bounds of a zod chain; whether its default is not a number literal; whether the chain
/// does not start at `z` (a helper from elsewhere), so nothing can be said.
fn zod_bound(chain: Node, text: &str) -> (Bound, bool, bool) {
    let mut calls: Vec<(String, Option<f64>)> = Vec::new();
    let mut node = unwrap(chain);
    let mut base = String::new();
    while node.kind() == "call_expression" {
        let Some(function) = node.child_by_field_name("function") else {
            break;
        };
        let arg = arguments(node).first().and_then(|a| number(*a, text));
        if function.kind() != "member_expression" {
            break;
        }
        let method = function
            .child_by_field_name("property")
            .map_or("", |p| text_of(p, text));
        let Some(object) = function.child_by_field_name("object") else {
            break;
        };
        if matches!(text_of(object, text), "z" | "z.coerce") {
            base = method.to_string();
            break;
        }
        calls.push((method.to_string(), arg));
        node = object;
    }
    let string = base == "string";
    let mut bound = Bound::default();
    let mut default_unread = false;
    // The chain was read from the outside in; apply from the inside out.
    for (method, arg) in calls.into_iter().rev() {
        match (method.as_str(), string) {
            ("min" | "gte", false) => bound.minimum = arg,
            ("gt", false) => bound.minimum = arg.map(|v| v.floor() + 1.0),
            ("max" | "lte", false) => bound.maximum = arg,
            ("lt", false) => bound.maximum = arg.map(|v| v.ceil() - 1.0),
            ("nonnegative", false) => bound.minimum = Some(0.0),
            ("positive", false) => bound.minimum = Some(1.0),
            ("min", true) => bound.min_length = arg,
            ("max", true) => bound.max_length = arg,
            ("length", true) => {
                bound.min_length = arg;
                bound.max_length = arg;
            }
            ("default", _) => {
                bound.default = arg;
                default_unread = arg.is_none();
            }
            _ => {}
        }
    }
    (bound, default_unread, base.is_empty())
}

/// The string a zod chain defaults to (`.default("markdown")`).
fn zod_default_text(chain: Node, text: &str) -> Option<String> {
    let mut node = unwrap(chain);
    while node.kind() == "call_expression" {
        let function = node.child_by_field_name("function")?;
        if function.kind() != "member_expression" {
            return None;
        }
        if function
            .child_by_field_name("property")
            .is_some_and(|p| text_of(p, text) == "default")
        {
            return arguments(node).first().and_then(|a| string_value(*a, text));
        }
        node = function.child_by_field_name("object")?;
    }
    None
}

fn number(node: Node, text: &str) -> Option<f64> {
    let node = unwrap(node);
    match node.kind() {
        "number" => text_of(node, text).replace('_', "").parse().ok(),
        "unary_expression" => text_of(node, text).replace([' ', '_'], "").parse().ok(),
        _ => None,
    }
}

const STDOUT: &[(&str, &str, &str)] = &[
    ("console.log", "log", "error"),
    ("console.info", "info", "error"),
    ("console.debug", "debug", "error"),
    ("process.stdout.write", "stdout", "stderr"),
];

fn stdout_write(function: Node, name: &str, text: &str) -> Option<StdoutWrite> {
    let (_, old, new) = STDOUT.iter().find(|(n, _, _)| *n == name)?;
    // The part to replace: the property (`log`) or, for `process.stdout.write`, `stdout`.
    let target = if *old == "stdout" {
        function
            .child_by_field_name("object")?
            .child_by_field_name("property")?
    } else {
        function.child_by_field_name("property")?
    };
    if text_of(target, text) != *old {
        return None;
    }
    let replaced = name.replacen(old, new, 1);
    Some(StdoutWrite {
        range: function.byte_range(),
        what: format!("{name}(...)"),
        fix: Some((
            format!("Write to standard error: `{replaced}`"),
            vec![Edit::replace(target.byte_range(), *new)],
        )),
    })
}

const AXIOS_CONFIG_AT: &[(&str, usize)] = &[
    ("axios", 0),
    ("axios.request", 0),
    ("axios.create", 0),
    ("axios.get", 1),
    ("axios.delete", 1),
    ("axios.head", 1),
    ("axios.options", 1),
    ("axios.post", 2),
    ("axios.put", 2),
    ("axios.patch", 2),
];

/// `fetch(url, init)` without a `signal`, an axios call without a `timeout`.
fn untimed_call(
    call: Node,
    function: Node,
    name: &str,
    text: &str,
    axios_defaults: bool,
) -> Option<UntimedCall> {
    let args = arguments(call);
    let has_key = |object: Node, key: &str| pairs(object, text).iter().any(|(k, _)| k == key);
    let opaque = |node: Node| {
        unwrap(node).kind() != "object" || children(unwrap(node)).any(|c| c.kind() == "spread_element")
    };
    if name == "fetch" {
        let missing = match args.get(1) {
            None => !args.is_empty(),
            Some(init) if opaque(*init) => false,
            Some(init) => !has_key(unwrap(*init), "signal"),
        };
        return missing.then(|| UntimedCall {
            range: function.byte_range(),
            what: "fetch(...)".to_string(),
            advice: "pass `signal: AbortSignal.timeout(30000)` in the options".to_string(),
        });
    }
    let (_, at) = AXIOS_CONFIG_AT.iter().find(|(n, _)| *n == name)?;
    if axios_defaults || args.is_empty() {
        return None;
    }
    let missing = match args.get(*at) {
        None => true,
        Some(config) if opaque(*config) => false,
        Some(config) => !has_key(unwrap(*config), "timeout"),
    };
    missing.then(|| UntimedCall {
        range: function.byte_range(),
        what: format!("{name}(...)"),
        advice: "pass `timeout: 30000` in the request config".to_string(),
    })
}

/// `process.env.X_API_KEY` or `process.env["X_API_KEY"]`.
fn key_read(node: Node, text: &str, suffix: &str, root: Node) -> Option<KeyRead> {
    let object = node.child_by_field_name("object")?;
    if text_of(object, text) != "process.env" {
        return None;
    }
    let variable = match node.kind() {
        "member_expression" => text_of(node.child_by_field_name("property")?, text).to_string(),
        _ => string_value(node.child_by_field_name("index")?, text)?,
    };
    if !variable.ends_with(suffix) {
        return None;
    }
    // `process.env.X_API_KEY = "..."` and `delete process.env.X_API_KEY` are not reads.
    let parent = node.parent();
    let written = parent.is_some_and(|p| {
        (matches!(
            p.kind(),
            "assignment_expression" | "augmented_assignment_expression"
        ) && p.child_by_field_name("left") == Some(node))
            || (p.kind() == "unary_expression" && text_of(p, text).starts_with("delete"))
    });
    if written {
        return None;
    }
    Some(KeyRead {
        range: node.byte_range(),
        check: key_check(node, &variable, text, root),
        variable,
    })
}

/// What stops the process when the variable is missing: an `if` on the name the read is bound
/// to (or on the read) whose body calls `process.exit(1)` or throws, anywhere in the file.
fn key_check(read: Node, variable: &str, text: &str, root: Node) -> KeyCheck {
    let mut bound = None;
    let mut up = read.parent();
    while let Some(p) = up {
        match p.kind() {
            "variable_declarator" => {
                bound = p
                    .child_by_field_name("name")
                    .map(|n| text_of(n, text).to_string());
                break;
            }
            "assignment_expression" => {
                bound = p
                    .child_by_field_name("left")
                    .map(|n| text_of(n, text).to_string());
                break;
            }
            "statement_block" | "program" | "if_statement" => break,
            _ => up = p.parent(),
        }
    }
    let read_text = text_of(read, text);
    // Names the value is copied to: `resolved = KEY`, `const key = KEY ?? other`.
    let mut names: Vec<String> = bound.into_iter().collect();
    if let Some(first) = names.first().cloned() {
        visit(root, &mut |node| {
            let (left, right) = match node.kind() {
                "variable_declarator" => (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("value"),
                ),
                "assignment_expression" => (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ),
                _ => return true,
            };
            if let (Some(l), Some(r)) = (left, right)
                && l.kind() == "identifier"
                && crate::mcp::mentions(text_of(r, text), &first)
            {
                names.push(text_of(l, text).to_string());
            }
            true
        });
    }
    let on_key = |condition: &str| {
        condition.contains(read_text)
            || condition.contains(variable)
            || names.iter().any(|b| crate::mcp::mentions(condition, b))
    };
    guards::best_guard(root, variable, text, &on_key, &|node| exit_of(node, text))
}

/// How a node stops the process: `throw`, `process.exit(...)`.
fn exit_of(node: Node, text: &str) -> guards::Exit {
    match node.kind() {
        "throw_statement" => Some(Ok(())),
        "call_expression"
            if node
                .child_by_field_name("function")
                .is_some_and(|f| text_of(f, text) == "process.exit") =>
        {
            Some(match arguments(node).first() {
                None => Err("0".to_string()),
                Some(a) if a.kind() == "number" && text_of(*a, text) != "1" => {
                    Err(text_of(*a, text).to_string())
                }
                Some(_) => Ok(()),
            })
        }
        _ => None,
    }
}
