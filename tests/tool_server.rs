//! One server written with FastMCP in Python and with `McpServer` in TypeScript: the shared
//! extraction reads the same facts from both, kind by kind.

use interlint::lang::Surface;
use interlint::lang::javascript::{frameworks as js_frameworks, lower as js};
use interlint::lang::python::{frameworks as py_frameworks, lower as py};
use interlint::tool_server_facts::{KeyCheck, Schema, ToolServer};

const PYTHON: &str = r#"
import json
import os
import sys

import requests
from mcp.server.fastmcp import FastMCP
from pydantic import Field
from typing import Annotated

mcp = FastMCP("demo")

API_KEY = os.getenv("DEMO_API_KEY")
if not API_KEY:
    raise RuntimeError("DEMO_API_KEY is not set")

print("demo server starting")


@mcp.tool(annotations={"readOnlyHint": True, "openWorldHint": False})
def search_users(
    query: str,
    limit: Annotated[int, Field(ge=1, le=100)] = 20,
    response_format: str = "markdown",
) -> str:
    """Search the users."""
    response = requests.get(f"https://api.example.com/users?q={query}")
    response.raise_for_status()
    try:
        users = response.json()["users"][:limit]
    except ValueError:
        return "Error: the response was not JSON"
    page = {"users": users, "total": len(users)}
    page["has_more"] = False
    return json.dumps(page)


@mcp.resource("users://{user_id}")
def user_profile(user_id: str) -> str:
    """One user's profile."""
    return f"user {user_id}"


if __name__ == "__main__":
    mcp.run()
"#;

const TYPESCRIPT: &str = r#"
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "demo", version: "1.0.0" });

const API_KEY = process.env.DEMO_API_KEY;
if (!API_KEY) {
  throw new Error("DEMO_API_KEY is not set");
}

console.log("demo server starting");

server.registerTool(
  "search_users",
  {
    description: "Search the users.",
    inputSchema: {
      query: z.string(),
      limit: z.number().int().min(1).max(100).default(20),
      response_format: z.string().default("markdown"),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ query, limit }) => {
    const response = await fetch(`https://api.example.com/users?q=${query}`);
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    let users;
    try {
      users = (await response.json()).users.slice(0, limit);
    } catch (error) {
      return { content: [{ type: "text", text: "Error: the response was not JSON" }], isError: true };
    }
    const page = { users, total: users.length };
    page.has_more = false;
    return { content: [{ type: "text", text: JSON.stringify(page) }] };
  },
);

server.registerResource(
  "user_profile",
  new ResourceTemplate("users://{user_id}", { list: undefined }),
  { description: "One user's profile.", mimeType: "text/plain" },
  async (uri, { user_id }) => ({ contents: [{ uri: uri.href, text: `user ${user_id}` }] }),
);

await server.connect(new StdioServerTransport());
"#;

/// The facts of the Python and of the TypeScript server.
fn servers() -> (ToolServer, ToolServer) {
    let suffix = "_API_KEY";
    let tree = py::lower(PYTHON, false);
    let python = interlint::lang::tool_server::tool_server(&tree, PYTHON, suffix, py_frameworks::recognise)
        .expect("a Python server");
    let tree = js::lower(Surface::TypeScript, TYPESCRIPT);
    let typescript =
        interlint::lang::tool_server::tool_server(&tree, TYPESCRIPT, suffix, js_frameworks::recognise)
            .expect("a TypeScript server");
    (python, typescript)
}

#[test]
fn tools_have_the_same_names_and_descriptions() {
    let (p, t) = servers();
    let facts = |s: &ToolServer| -> Vec<(Option<String>, bool)> {
        s.tools.iter().map(|t| (t.name.clone(), t.described)).collect()
    };
    assert_eq!(facts(&p), [(Some("search_users".to_string()), true)]);
    assert_eq!(facts(&p), facts(&t));
    assert_eq!(&PYTHON[p.tools[0].range.clone()], "mcp.tool");
    assert_eq!(&TYPESCRIPT[t.tools[0].range.clone()], "server.registerTool");
}

#[test]
fn annotations_are_the_same() {
    let (p, t) = servers();
    let hints = vec![
        ("readOnlyHint".to_string(), Some(true)),
        ("openWorldHint".to_string(), Some(false)),
    ];
    assert_eq!(p.tools[0].annotations, Some(hints));
    assert_eq!(p.tools[0].annotations, t.tools[0].annotations);
    assert!(!p.tools[0].annotations_opaque && !t.tools[0].annotations_opaque);
}

#[test]
fn inputs_and_schemas_are_the_same() {
    let (p, t) = servers();
    let (p, t) = (&p.tools[0], &t.tools[0]);
    assert_eq!(p.inputs, t.inputs);
    let names: Vec<&str> = p.inputs.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["query", "limit", "response_format"]);
    let limit = &p.inputs[1].bound;
    assert_eq!(
        (limit.minimum, limit.maximum, limit.default),
        (Some(1.0), Some(100.0), Some(20.0))
    );
    assert_eq!(p.inputs[2].default_text.as_deref(), Some("markdown"));
    // Both SDKs ignore or strip unknown fields here, for their own reasons.
    assert!(matches!(p.schema, Schema::Lenient(_)) && matches!(t.schema, Schema::Lenient(_)));
}

#[test]
fn handlers_give_the_same_result_keys_failures_and_error_texts() {
    let (p, t) = servers();
    let (p, t) = (
        p.tools[0].handler.clone().expect("a handler"),
        t.tools[0].handler.clone().expect("a handler"),
    );
    let keys = |h: &interlint::tool_server_facts::Handler| h.result.as_ref().map(|(_, keys)| keys.clone());
    assert_eq!(
        keys(&p),
        Some(vec![
            "users".to_string(),
            "total".to_string(),
            "has_more".to_string()
        ])
    );
    assert_eq!(keys(&p), keys(&t));
    assert_eq!(&PYTHON[p.unhandled[0].clone()], "response.raise_for_status()");
    assert_eq!((p.unhandled.len(), t.unhandled.len()), (1, 1));
    let texts = |h: &interlint::tool_server_facts::Handler| -> Vec<String> {
        h.error_texts.iter().map(|(_, t)| t.clone()).collect()
    };
    assert_eq!(texts(&p), ["Error: the response was not JSON"]);
    assert_eq!(texts(&p), texts(&t));
}

#[test]
fn key_reads_and_their_guards_are_the_same() {
    let (p, t) = servers();
    let reads = |s: &ToolServer| -> Vec<(String, KeyCheck)> {
        s.key_reads
            .iter()
            .map(|r| (r.variable.clone(), r.check.clone()))
            .collect()
    };
    assert_eq!(reads(&p), [("DEMO_API_KEY".to_string(), KeyCheck::FailsFast)]);
    assert_eq!(reads(&p), reads(&t));
}

#[test]
fn stdout_writes_are_found_with_their_fixes() {
    let (ps, ts) = servers();
    assert_eq!((ps.stdout_writes.len(), ts.stdout_writes.len()), (1, 1));
    let (p, t) = (&ps.stdout_writes[0], &ts.stdout_writes[0]);
    assert_eq!(
        (p.what.as_str(), t.what.as_str()),
        ("print(...)", "console.log(...)")
    );
    // The edits are written by codegen, from where the facts say they go.
    let edits = |w: &interlint::tool_server_facts::StdoutWrite, s: &ToolServer| -> Vec<String> {
        interlint::codegen::stdout::redirect(w, &s.stdout_module)
            .iter()
            .flat_map(|(_, edits)| edits.iter().map(|e| e.content.clone()))
            .collect()
    };
    assert_eq!(edits(p, &ps), [", file=sys.stderr"]);
    assert_eq!(edits(t, &ts), ["error"]);
}

#[test]
fn untimed_calls_are_the_same() {
    let (p, t) = servers();
    let what = |s: &ToolServer| -> Vec<String> { s.untimed_calls.iter().map(|c| c.what.clone()).collect() };
    assert_eq!(what(&p), ["requests.get(...)"]);
    assert_eq!(what(&t), ["fetch(...)"]);
}

#[test]
fn resources_are_the_same() {
    let (p, t) = servers();
    let facts = |s: &ToolServer| -> Vec<(String, bool, bool, Option<Vec<String>>)> {
        s.resources
            .iter()
            .map(|r| (r.uri.clone(), r.described, r.mime_type, r.parameters.clone()))
            .collect()
    };
    assert_eq!(
        facts(&p),
        [(
            "users://{user_id}".to_string(),
            true,
            true,
            Some(vec!["user_id".to_string()])
        )]
    );
    assert_eq!(facts(&p), facts(&t));
}

#[test]
fn both_serve_over_stdio() {
    let (p, t) = servers();
    assert_eq!((p.serves, p.stdio), (true, true));
    assert_eq!((t.serves, t.stdio), (true, true));
}

#[test]
fn a_bare_generator_argument_takes_no_keyword() {
    let text = "from mcp.server.fastmcp import FastMCP\nimport requests\nmcp = FastMCP()\nprint(x for x in y)\nprint([x for x in y])\nrequests.get(u for u in us)\n";
    let tree = py::lower(text, false);
    let server = interlint::lang::tool_server::tool_server(&tree, text, "_API_KEY", py_frameworks::recognise)
        .expect("a server");
    let writes: Vec<&str> = server
        .stdout_writes
        .iter()
        .map(|w| &text[w.range.clone()])
        .collect();
    assert_eq!(writes.len(), 1);
    assert!(server.untimed_calls.is_empty());
}
