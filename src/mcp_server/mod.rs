//! `interlint mcp`: interlint's own engine served to coding agents as a tool server over the
//! Model Context Protocol (stdio), built to the conventions interlint checks tool servers
//! against (source document sections 2.4, 4.3, 5-8): explicit titles and descriptions, strict
//! input schemas with bounds, annotations, paginated results under a character limit, errors
//! as results whose text starts with `Error:`, diagnostics on stderr only, and paths confined
//! to the server's root.

mod page;
mod tools;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

/// The server: every tool works on files under `root` (canonical).
#[derive(Clone)]
struct McpServer {
    root: Arc<PathBuf>,
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new("interlint", env!("CARGO_PKG_VERSION"));
        implementation.title = Some("interlint".to_string());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(tools::INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::definitions()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::definitions().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let root = Arc::clone(&self.root);
        let name = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        // A check walks and parses a tree: off the protocol's thread, so the server still
        // answers (and notices a closed pipe) meanwhile.
        let outcome = tokio::task::spawn_blocking(move || tools::call(&root, &name, arguments)).await;
        let result = match outcome {
            Ok(Ok(text)) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Ok(Err(message)) => CallToolResult::error(vec![ContentBlock::text(format!("Error: {message}"))]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(format!(
                "Error: Unexpected error: {e}; please report it at interlint's issue tracker"
            ))]),
        };
        Ok(result.into())
    }
}

/// Serves until the client closes the connection. Standard output carries the protocol only:
/// nothing else in interlint writes there while it runs, and notes go to stderr.
pub fn serve(root: Option<&Path>) -> anyhow::Result<u8> {
    let root = match root {
        Some(r) => r.to_path_buf(),
        None => std::env::current_dir().map_err(|e| {
            anyhow::anyhow!("cannot read the current folder: {}", crate::walk::describe_io(&e))
        })?,
    };
    let root = root
        .canonicalize()
        .map_err(|e| anyhow::anyhow!("--root {}: {}", root.display(), crate::walk::describe_io(&e)))?;
    if !root.is_dir() {
        anyhow::bail!("--root {}: not a folder", root.display());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the server: {e}"))?;
    eprintln!(
        "interlint mcp: serving {} over stdio (Ctrl-D or closing the pipe stops it)",
        root.display()
    );
    runtime.block_on(async {
        let server = McpServer { root: Arc::new(root) };
        let (transport, writer) = checked_stdio();
        let service = server
            .serve(transport)
            .await
            .map_err(|e| anyhow::anyhow!("the client did not start a session: {e}"))?;
        service
            .waiting()
            .await
            .map_err(|e| anyhow::anyhow!("the server stopped: {e}"))?;
        // Every reply written before the process ends.
        let _ = writer.await;
        anyhow::Ok(())
    })?;
    Ok(0)
}

/// Standard input and output for the protocol, with one check rmcp leaves out: a line that is
/// not JSON (or not UTF-8) gets a JSON-RPC parse error (`-32700`), and JSON that is not a
/// message an invalid request error (`-32600`), where rmcp drops both without a word (and a
/// line reader ends the session at the first byte that is not UTF-8). The lines that are
/// messages go on to rmcp; its replies and these errors reach standard output whole, one line
/// each.
fn checked_stdio() -> (
    (tokio::io::DuplexStream, tokio::io::DuplexStream),
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    const BUFFER: usize = 1 << 16;
    let (server_in, mut client_in) = tokio::io::duplex(BUFFER);
    let (server_out, client_out) = tokio::io::duplex(BUFFER);
    let (lines, mut to_write) = tokio::sync::mpsc::unbounded_channel::<String>();
    let errors = lines.clone();
    tokio::spawn(async move {
        let mut input = BufReader::new(tokio::io::stdin());
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = match std::str::from_utf8(line_of(&bytes)) {
                Ok(line) => line,
                Err(e) => {
                    let _ = errors.send(not_utf8(&e));
                    continue;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match rejected(line) {
                Some(reply) => {
                    let _ = errors.send(reply);
                }
                None => {
                    if client_in.write_all(format!("{line}\n").as_bytes()).await.is_err() {
                        break;
                    }
                }
            }
        }
        // The end of the input ends the session: rmcp reads the end of its stream.
        let _ = client_in.shutdown().await;
    });
    tokio::spawn(async move {
        let mut replies = BufReader::new(client_out).lines();
        while let Ok(Some(line)) = replies.next_line().await {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let writer = tokio::spawn(async move {
        let mut out = tokio::io::stdout();
        while let Some(line) = to_write.recv().await {
            out.write_all(format!("{line}\n").as_bytes()).await?;
            out.flush().await?;
        }
        Ok(())
    });
    ((server_in, server_out), writer)
}

/// A line read with its end (`\n`, `\r\n`) cut off, as a line reader cuts it.
fn line_of(bytes: &[u8]) -> &[u8] {
    let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The parse error reply to a line that is not UTF-8 (JSON text is UTF-8: RFC 8259, 8.1).
fn not_utf8(e: &std::str::Utf8Error) -> String {
    crate::jsonrpc::error_reply(
        &serde_json::Value::Null,
        crate::jsonrpc::PARSE_ERROR,
        &format!(
            "Parse error: the line is not UTF-8 (byte {} is not valid UTF-8); JSON-RPC messages are UTF-8 JSON",
            e.valid_up_to() + 1
        ),
    )
}

/// The JSON-RPC error reply to a line that is not a message; `None` for a message.
fn rejected(line: &str) -> Option<String> {
    let value = match crate::jsonrpc::parse_json(line) {
        Ok(value) => value,
        Err(reply) => return Some(reply),
    };
    let is_message = value.as_object().is_some_and(|o| {
        o.get("jsonrpc").and_then(|v| v.as_str()) == Some("2.0")
            && (o.contains_key("method") || o.contains_key("result") || o.contains_key("error"))
    });
    (!is_message).then(|| {
        crate::jsonrpc::invalid_request(
            &value,
            "not a JSON-RPC 2.0 message (jsonrpc \"2.0\" and a method, or a result or error)",
        )
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_that_are_not_messages_get_errors() {
        let parse = super::rejected("{not json").unwrap_or_default();
        assert!(
            parse.contains("-32700") && parse.contains("\"id\":null"),
            "{parse}"
        );
        let invalid = super::rejected(r#"{"id": 3, "x": 1}"#).unwrap_or_default();
        assert!(
            invalid.contains("-32600") && invalid.contains("\"id\":3"),
            "{invalid}"
        );
        assert_eq!(
            super::rejected(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            None
        );
        assert_eq!(super::rejected(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#), None);
    }

    #[test]
    fn a_line_that_is_not_utf8_gets_a_parse_error() {
        assert_eq!(super::line_of(b"{}\r\n"), b"{}");
        assert_eq!(super::line_of(b"{}"), b"{}");
        let bytes = b"{\"x\": \"caf\xE9\"}\n";
        let Err(e) = std::str::from_utf8(super::line_of(bytes)) else {
            panic!("valid UTF-8");
        };
        let reply: serde_json::Value = serde_json::from_str(&super::not_utf8(&e)).unwrap_or_default();
        assert_eq!(reply["error"]["code"], -32700, "{reply}");
        assert_eq!(reply["id"], serde_json::Value::Null);
        assert!(
            reply["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("byte 11 is not valid UTF-8")),
            "{reply}"
        );
    }
}
