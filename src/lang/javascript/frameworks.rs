//! JavaScript and TypeScript tool servers (`McpServer` of `@modelcontextprotocol/sdk`): which
//! files are servers, the tools a file registers with `server.registerTool(...)` or
//! `server.tool(...)` and the resources with `server.registerResource(...)`, their zod input
//! schemas, and the transports that run the server. Everything else is read by
//! `lang::tool_server`.

use crate::lang::ir::{ArgKind, Call, Key, Kind, NodeId};
use crate::lang::tool_server::handler::{self, Rules};
use crate::lang::tool_server::{
    Framework, Language, Source, Stdout, StdoutEdit, Timed, TimeoutAt, described, hints,
};
use crate::tool_server_facts::{Bound, Input, Resource, Schema, Tool};

const fn axios(at: usize) -> TimeoutAt {
    TimeoutAt::Option {
        index: at,
        key: "timeout",
    }
}

const AXIOS: &str = "pass `timeout: 30000` in the request config";

pub static JAVASCRIPT: Language = Language {
    skip_tests: false,
    stdout: &[
        Stdout {
            callee: "console.log",
            what: "",
            edit: StdoutEdit::Name("error"),
        },
        Stdout {
            callee: "console.info",
            what: "",
            edit: StdoutEdit::Name("error"),
        },
        Stdout {
            callee: "console.debug",
            what: "",
            edit: StdoutEdit::Name("error"),
        },
        Stdout {
            callee: "process.stdout.write",
            what: "",
            edit: StdoutEdit::ObjectName("stderr"),
        },
    ],
    timed: &[
        Timed {
            callee: |n| n == "fetch",
            at: TimeoutAt::Option {
                index: 1,
                key: "signal",
            },
            advice: "pass `signal: AbortSignal.timeout(30000)` in the options",
            unless: None,
        },
        Timed {
            callee: |n| matches!(n, "axios" | "axios.request" | "axios.create"),
            at: axios(0),
            advice: AXIOS,
            unless: Some("axios.defaults.timeout"),
        },
        Timed {
            callee: |n| matches!(n, "axios.get" | "axios.delete" | "axios.head" | "axios.options"),
            at: axios(1),
            advice: AXIOS,
            unless: Some("axios.defaults.timeout"),
        },
        Timed {
            callee: |n| matches!(n, "axios.post" | "axios.put" | "axios.patch"),
            at: axios(2),
            advice: AXIOS,
            unless: Some("axios.defaults.timeout"),
        },
    ],
    none_timeout: None,
    env_calls: &[],
    env_objects: &["process.env"],
    env_members: true,
    env_item_raises: false,
    exit_calls: &["process.exit"],
    handler: Rules {
        escapes: |s, n| matches!(s.kind(n), Kind::Raise { .. }),
        result: |s, n| {
            let call = s.call(n).filter(|c| s.callee(c) == "JSON.stringify")?;
            let first = call.args.first()?;
            (first.kind == ArgKind::Positional).then_some(first.value)
        },
        page_value: |s, v| {
            matches!(s.kind(v), Kind::List(_))
                || [".map(", ".slice(", ".filter("]
                    .iter()
                    .any(|m| s.text(v).contains(m))
        },
        computed_keys_hide: false,
    },
    opaque_string: |text, _| template_text(text),
};

/// A template literal's text with each `${...}` as `{...}`; `None` for anything else.
fn template_text(text: &str) -> Option<String> {
    let inner = text.strip_prefix('`')?;
    let mut out = String::new();
    let mut chars = inner.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                out.extend(chars.next().map(|(_, c)| c));
            }
            '`' => return (i + 2 == text.len()).then_some(out),
            '$' if inner[i + 1..].starts_with('{') => {
                let close = inner[i..].find('}')?;
                out.push_str("{...}");
                while chars.next().is_some_and(|(j, _)| j < i + close) {}
            }
            c => out.push(c),
        }
    }
    None
}

struct McpServer<'a> {
    /// The names bound to `new McpServer(...)`.
    servers: Vec<String>,
    /// The values the file binds to names with `const`/`let`/`var`.
    consts: Vec<(&'a str, NodeId)>,
}

/// The `McpServer` a file is, when it imports the MCP SDK or builds one.
pub fn recognise<'a>(s: &Source<'a>) -> Option<Box<dyn Framework + 'a>> {
    let mut sdk_import = false;
    let mut servers = Vec::new();
    let mut consts = Vec::new();
    s.walk(s.tree.root(), &mut |node| {
        let (target, value) = match s.kind(node) {
            // `export ... from "module"` re-exports the SDK; it does not use it.
            Kind::Import(i) if !s.text(node).starts_with("export") => {
                sdk_import |= i
                    .module
                    .as_ref()
                    .is_some_and(|m| m.name.starts_with("@modelcontextprotocol/"));
                return true;
            }
            Kind::Call(_) if s.text(node).starts_with("require(") => {
                sdk_import |= s.text(node).contains("@modelcontextprotocol/");
                return true;
            }
            Kind::Assign(a) => match (a.targets.last(), a.value) {
                (Some(&t), Some(v)) => (t, v),
                _ => return true,
            },
            Kind::AssignExpr { target, value } => (*target, *value),
            _ => return true,
        };
        let value = s.tree.unwrap(value);
        if s.call(value)
            .is_some_and(|c| c.new && s.callee(c).ends_with("McpServer"))
        {
            servers.push(s.text(target).to_string());
        }
        let declared = s
            .tree
            .parent(node)
            .is_some_and(|p| matches!(s.kind(p), Kind::Declaration { .. }));
        if let (true, Some(name)) = (declared, s.tree.name(target)) {
            consts.push((name, value));
        }
        true
    });
    if !sdk_import && servers.is_empty() {
        return None;
    }
    Some(Box::new(McpServer { servers, consts }))
}

impl McpServer<'_> {
    /// A node with a name resolved to its value (once); `None` when the name is not bound in
    /// the file, or bound more than once.
    fn resolve(&self, s: &Source, node: NodeId) -> Option<NodeId> {
        let node = s.tree.unwrap(node);
        let Some(name) = s.tree.name(node) else {
            return Some(node);
        };
        let mut found = self.consts.iter().filter(|(n, _)| *n == name);
        let first = found.next()?;
        found.next().is_none().then_some(s.tree.unwrap(first.1))
    }

    /// The registration call at `node` on a server: a name bound to `new McpServer(...)`, or
    /// one that ends with `server` (`this.server`, `mcpServer`); with the method's name.
    fn method<'a>(&self, s: &Source<'a>, node: NodeId, any_receiver: bool) -> Option<(&'a Call, &'a str)> {
        let call = s.call(node).filter(|c| !c.new)?;
        let Kind::Member(m) = s.kind(call.callee) else {
            return None;
        };
        let receiver = s.text(m.object);
        let server = self.servers.iter().any(|s| s == receiver)
            || receiver
                .rsplit('.')
                .next()
                .is_some_and(|r| r.to_ascii_lowercase().ends_with("server"));
        (any_receiver || server).then_some((call, &*m.name.name))
    }

    /// How an input schema treats unknown fields, and its inputs' bounds.
    fn schema(&self, s: &Source, node: NodeId) -> (Schema, Vec<Input>) {
        let Some(value) = self.resolve(s, node) else {
            return (Schema::Unknown, Vec::new());
        };
        match s.kind(value) {
            Kind::Dict(_) => {
                let inputs = self.inputs(s, value);
                if empty(s, value) {
                    return (Schema::Empty, inputs);
                }
                let why = "a raw shape, which the SDK wraps in `z.object()` without `.strict()`, so unknown fields are stripped";
                (Schema::Lenient(why.to_string()), inputs)
            }
            Kind::Member(m) if &*m.name.name == "shape" => {
                let shape = self.zod_object(s, m.object).map(|(shape, _)| shape);
                // `z.object({}).shape`: a tool without inputs has nothing to strip.
                if shape.is_some_and(|shape| empty(s, shape)) {
                    return (Schema::Empty, Vec::new());
                }
                let inputs = shape.map(|shape| self.inputs(s, shape)).unwrap_or_default();
                let why = "`.shape` passes the fields alone, so the SDK builds a `z.object()` without `.strict()` and unknown fields are stripped";
                (Schema::Lenient(why.to_string()), inputs)
            }
            Kind::Call(c) if !c.new => match self.zod_object(s, value) {
                Some((shape, strict)) => {
                    let inputs = self.inputs(s, shape);
                    if empty(s, shape) {
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
    fn zod_object(&self, s: &Source, node: NodeId) -> Option<(NodeId, bool)> {
        let mut node = self.resolve(s, node)?;
        let mut strict = false;
        loop {
            let call = s.call(node).filter(|c| !c.new)?;
            let callee = s.callee(call);
            if matches!(callee, "z.object" | "z.strictObject")
                || callee.ends_with(".object") && !callee.contains(')')
            {
                let shape = call.args.first().and_then(|a| self.resolve(s, a.value))?;
                strict |= callee == "z.strictObject";
                return matches!(s.kind(shape), Kind::Dict(_)).then_some((shape, strict));
            }
            let Kind::Member(m) = s.kind(call.callee) else {
                return None;
            };
            strict |= &*m.name.name == "strict";
            node = m.object;
        }
    }

    /// The inputs of a zod shape with their bounds (`z.number().int().min(1).max(100).default(20)`).
    fn inputs(&self, s: &Source, shape: NodeId) -> Vec<Input> {
        pairs(s, shape)
            .into_iter()
            .map(|(name, value)| {
                let chain = self.resolve(s, value).unwrap_or(value);
                let (bound, default_unread, opaque) = zod_bound(s, chain);
                Input {
                    name,
                    bound,
                    default_unread,
                    opaque,
                    default_text: zod_default_text(s, chain),
                }
            })
            .collect()
    }
}

/// The members of an object literal with their values (a shorthand member's value is its name).
fn pairs(s: &Source, object: NodeId) -> Vec<(String, NodeId)> {
    let Kind::Dict(d) = s.kind(object) else {
        return Vec::new();
    };
    d.items
        .iter()
        .filter_map(|e| match &e.key {
            Key::Name(k) | Key::Str(k) => Some((k.name.to_string(), e.value)),
            Key::Computed(k) => Some((s.text(*k).to_string(), e.value)),
            Key::Spread | Key::Method(_) => None,
        })
        .collect()
}

/// An object without members.
fn empty(s: &Source, object: NodeId) -> bool {
    pairs(s, object).is_empty() && !s.spreads(object)
}

/// The calls of a zod chain from the outside in: each method with its first argument, and the
/// method called on `z` (`number`) when the chain starts there.
fn zod_chain<'a>(s: &Source<'a>, chain: NodeId) -> (Vec<(&'a str, &'a Call)>, Option<String>) {
    let mut calls = Vec::new();
    let mut node = s.tree.unwrap(chain);
    while let Some(call) = s.call(node).filter(|c| !c.new) {
        let Kind::Member(m) = s.kind(call.callee) else {
            break;
        };
        if matches!(s.text(m.object), "z" | "z.coerce") {
            return (calls, Some(m.name.name.to_string()));
        }
        calls.push((&*m.name.name, call));
        node = m.object;
    }
    (calls, None)
}

/// The bounds of a zod chain; whether its default is not a number literal; whether the chain
/// does not start at `z` (a helper from elsewhere), so nothing can be said.
fn zod_bound(s: &Source, chain: NodeId) -> (Bound, bool, bool) {
    let (calls, base) = zod_chain(s, chain);
    let string = base.as_deref() == Some("string");
    let mut bound = Bound::default();
    let mut default_unread = false;
    // The chain was read from the outside in; apply from the inside out.
    for (method, call) in calls.into_iter().rev() {
        let arg = call.args.first().and_then(|a| s.number(s.tree.unwrap(a.value)));
        match (method, string) {
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
    (bound, default_unread, base.is_none_or(|b| b.is_empty()))
}

/// The string a zod chain defaults to (`.default("markdown")`).
fn zod_default_text(s: &Source, chain: NodeId) -> Option<String> {
    let (calls, _) = zod_chain(s, chain);
    let (_, call) = calls.into_iter().find(|(m, _)| *m == "default")?;
    call.args.first().and_then(|a| s.str(a.value)).map(str::to_string)
}

impl Framework for McpServer<'_> {
    /// A tool registration: `x.registerTool(name, config, cb)` on any receiver, or `x.tool(name,
    /// ..., cb)` on a server.
    fn tool(&self, s: &Source, node: NodeId) -> Option<Tool> {
        let (call, method) = self.method(s, node, true)?;
        let args: Vec<NodeId> = call.args.iter().map(|a| a.value).collect();
        let name = self
            .resolve(s, *args.first()?)
            .and_then(|n| s.str(n))
            .map(str::to_string);
        let literal_name = name.is_some();
        let mut tool = Tool {
            name,
            range: s.range(call.callee),
            described: false,
            annotations: None,
            annotations_opaque: false,
            schema: Schema::Unknown,
            inputs: Vec::new(),
            handler: None,
        };
        match method {
            "registerTool" => {
                if args.len() != 3 {
                    return None;
                }
                let Some(config) = self
                    .resolve(s, args[1])
                    .filter(|&c| matches!(s.kind(c), Kind::Dict(_)))
                else {
                    // A config from elsewhere: nothing to say.
                    tool.described = true;
                    tool.annotations_opaque = true;
                    return Some(tool);
                };
                let members = pairs(s, config);
                let has_spread = s.spreads(config);
                let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
                tool.described = has_spread || get("description").is_some_and(|d| described(s, d));
                match get("annotations") {
                    Some(a) => match self.resolve(s, a).filter(|&a| matches!(s.kind(a), Kind::Dict(_))) {
                        Some(object) => tool.annotations = hints(s, object),
                        None => tool.annotations_opaque = true,
                    },
                    None => tool.annotations_opaque = has_spread,
                }
                (tool.schema, tool.inputs) = match get("inputSchema") {
                    Some(schema) => self.schema(s, schema),
                    None if has_spread => (Schema::Unknown, Vec::new()),
                    None => (Schema::Empty, Vec::new()),
                };
            }
            "tool" => {
                let last = *args.last()?;
                let callable = matches!(
                    s.kind(s.tree.unwrap(last)),
                    Kind::Function(_) | Kind::Name(_) | Kind::Member(_)
                ) || s.call(s.tree.unwrap(last)).is_some_and(|c| !c.new);
                if self.method(s, node, false).is_none() || args.len() < 2 || !callable {
                    return None;
                }
                let middle = &args[1..args.len() - 1];
                tool.schema = Schema::Empty;
                for (i, &arg) in middle.iter().enumerate() {
                    let value = self.resolve(s, arg);
                    match value.map(|v| (v, s.kind(v))) {
                        Some((
                            v,
                            Kind::Str(_)
                            | Kind::Template(_)
                            | Kind::Logical(_)
                            | Kind::Binary { .. }
                            | Kind::Other(_),
                        )) if i == 0 && !tagged_template(s.text(v)) => {
                            tool.described = described(s, arg);
                        }
                        Some((object, Kind::Dict(_))) => {
                            let members = pairs(s, object);
                            // The SDK tells annotations from a shape by their values; the hint
                            // names (and `title`) tell the same here.
                            let annotations = !members.is_empty()
                                && members.iter().all(|(k, _)| k == "title" || k.ends_with("Hint"));
                            if annotations {
                                tool.annotations = hints(s, object);
                            } else {
                                (tool.schema, tool.inputs) = self.schema(s, object);
                            }
                        }
                        Some((v, Kind::Call(c))) if !c.new || tagged_template(s.text(v)) => {
                            (tool.schema, tool.inputs) = self.schema(s, arg);
                        }
                        Some((v, Kind::Other(_))) if tagged_template(s.text(v)) => {
                            (tool.schema, tool.inputs) = self.schema(s, arg);
                        }
                        _ => {
                            // Not readable (`tool.description`, a parameter): give the benefit
                            // of the doubt.
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
        if let Some(&callback) = args.last().filter(|&&a| s.is_function(a)) {
            tool.handler = Some(handler::handler(s, &JAVASCRIPT, callback));
        }
        Some(tool)
    }

    /// A resource registration: `server.registerResource(name, uri, metadata, handler)` or
    /// `server.resource(name, uri, [metadata,] handler)`, the URI a string or a
    /// `new ResourceTemplate("...", ...)`.
    fn resource(&self, s: &Source, node: NodeId) -> Option<Resource> {
        let (call, method) = self.method(s, node, false)?;
        if !matches!(method, "registerResource" | "resource") || call.args.len() < 3 {
            return None;
        }
        let args: Vec<NodeId> = call.args.iter().map(|a| a.value).collect();
        let uri = match s.kind(args[1]) {
            Kind::Str(v) if s.text(args[1]).starts_with(['"', '\'']) => v.to_string(),
            Kind::Call(template) if template.new && s.callee(template) == "ResourceTemplate" => {
                s.str(template.args.first()?.value)?.to_string()
            }
            _ => return None,
        };
        let handler = *args.last()?;
        let Kind::Function(function) = s.kind(handler) else {
            return None;
        };
        // The metadata: the third argument of registerResource; for `resource`, an object
        // between the URI and the handler.
        let between = &args[2..args.len() - 1];
        let metadata = between
            .iter()
            .copied()
            .find(|&a| matches!(s.kind(a), Kind::Dict(_)));
        let keys: Vec<&str> = metadata
            .map(|m| s.entries(m))
            .unwrap_or_default()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let opaque =
            metadata.is_some_and(|m| s.spreads(m)) || between.iter().any(|&a| s.tree.name(a).is_some());
        // (uri, { a, b }) or (uri, variables): the second parameter holds the template's.
        let parameters = function
            .params
            .get(1)
            .and_then(|p| p.pattern)
            .filter(|&p| matches!(s.kind(p), Kind::Dict(_)))
            .map(|p| {
                let Kind::Dict(d) = s.kind(p) else {
                    return Vec::new();
                };
                d.items
                    .iter()
                    .filter_map(|e| match &e.key {
                        Key::Name(k) => Some(k.name.to_string()),
                        Key::Str(k) => Some(s.text[k.span.range()].to_string()),
                        _ => None,
                    })
                    .collect()
            });
        Some(Resource {
            range: s.range(call.callee),
            uri,
            described: opaque || keys.contains(&"description"),
            mime_type: opaque || keys.contains(&"mimeType"),
            parameters,
        })
    }

    /// `StdioServerTransport`, `StreamableHTTPServerTransport`, `SSEServerTransport`; an
    /// `InMemoryTransport` is a test's or a client's.
    fn serves(&self, s: &Source, node: NodeId) -> Option<bool> {
        let call = s.call(node).filter(|c| c.new)?;
        let callee = s.callee(call);
        callee
            .ends_with("ServerTransport")
            .then_some(callee == "StdioServerTransport")
    }

    fn builds_server(&self) -> bool {
        !self.servers.is_empty()
    }

    fn language(&self) -> &'static Language {
        &JAVASCRIPT
    }
}

/// A tagged template (`dedent\`...\``), which is a call.
fn tagged_template(text: &str) -> bool {
    let head = text.trim_start_matches(|c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'));
    head.len() < text.len() && head.trim_start().starts_with('`')
}
