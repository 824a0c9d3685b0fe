//! MCP004 stdout-in-stdio-server: A stdio tool server that writes to standard output.

use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct StdoutInStdioServer;

static META: RuleMeta = RuleMeta {
    code: "MCP004",
    name: "stdout-in-stdio-server",
    summary: "A stdio tool server that writes to standard output",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe",
    doc: include_str!("../../rules/docs/MCP004.md"),
};

impl Rule for StdoutInStdioServer {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, _doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::server(cx.analysis) else {
            return;
        };
        let _ = conventions;
        if !server.stdio {
            return;
        }
        for write in &server.stdout_writes {
            let mut diagnostic = Diagnostic::new(
                &META,
                Severity::Error,
                format!(
                    "`{}` writes to standard output, which carries the protocol of this stdio server",
                    write.what
                ),
                write.range.clone(),
            );
            diagnostic = match crate::codegen::stdout::redirect(write, &server.stdout_module) {
                Some((message, edits)) => diagnostic.with_fix(Fix::safe(message, edits)),
                None => diagnostic.with_suggestion("Write diagnostics to standard error"),
            };
            cx.report(diagnostic);
        }
    }
}
