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
struct Server {
    root: Arc<PathBuf>,
}

impl ServerHandler for Server {
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
        let server = Server { root: Arc::new(root) };
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| anyhow::anyhow!("the client did not start a session: {e}"))?;
        service
            .waiting()
            .await
            .map_err(|e| anyhow::anyhow!("the server stopped: {e}"))?;
        anyhow::Ok(())
    })?;
    Ok(0)
}
