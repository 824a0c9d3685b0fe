//! What the MCP rules share: the tool-server facts of a document and the conventions of
//! `rules/mcp.toml`.

use crate::analysis::Analysis;
use crate::lang::{Document, Surface};
use crate::tool_server_facts::{Conventions, ToolServer, conventions};

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
pub fn server<'a>(analysis: &'a Analysis) -> Option<(&'a ToolServer, &'static Conventions)> {
    Some((analysis.tool_server()?, conventions()?))
}

/// The document's tool server, when the file runs it as a process (over stdio or HTTP): the
/// rules of a server's own conventions (MCP008-MCP012) do not read tests and samples that build
/// a server in memory to exercise a framework, which leave the conventions out on purpose.
pub fn served<'a>(analysis: &'a Analysis) -> Option<(&'a ToolServer, &'static Conventions)> {
    server(analysis).filter(|(s, _)| s.serves)
}

/// The `triggers` and `anchors` of an MCP rule: the words of tool-server files.
macro_rules! tool_server_words {
    () => {
        fn triggers(&self, _settings: &crate::tables::Tables) -> Vec<String> {
            super::mcp::triggers()
        }

        fn anchors(&self, _settings: &crate::tables::Tables) -> Option<Vec<String>> {
            super::mcp::anchors()
        }
    };
}
pub(crate) use tool_server_words;

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
