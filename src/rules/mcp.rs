//! What the MCP rules share: the tool-server facts of a document and the conventions of
//! `rules/mcp.toml`.

use crate::lang::{Document, Surface};
use crate::mcp::{Conventions, ToolServer, conventions};

/// Words of which one appears in every tool-server file (`FastMCP`, `fastmcp`, `McpServer`,
/// `@modelcontextprotocol/sdk`).
pub fn triggers() -> Vec<String> {
    ["mcp", "Mcp", "MCP", "modelcontextprotocol"]
        .iter()
        .map(|w| w.to_string())
        .collect()
}

/// The words without which a file is not a tool server (`server_words` of rules/mcp.toml).
pub fn anchors() -> Option<Vec<String>> {
    Some(conventions().map(|c| c.server_words.clone()).unwrap_or_default())
}

/// The document's tool server and the conventions, when the document is a tool server.
pub fn server(doc: &Document) -> Option<(&ToolServer, &'static Conventions)> {
    Some((doc.tool_server()?, conventions()?))
}

/// Whether the document is Python (else JavaScript or TypeScript), for advice in its words.
pub fn is_python(doc: &Document) -> bool {
    doc.surface == Surface::Python
}

/// A tool's name for messages.
pub fn tool_name(name: &Option<String>) -> String {
    match name {
        Some(n) => format!("Tool `{n}`"),
        None => "This tool".to_string(),
    }
}

/// A number as written in messages: `20`, `0.5`.
pub fn show(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}
