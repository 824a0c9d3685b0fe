//! MCP005 upstream-timeout: An HTTP call to the upstream API without a timeout.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct UpstreamTimeout;

static META: RuleMeta = RuleMeta {
    code: "MCP005",
    name: "upstream-timeout",
    summary: "An HTTP call to the upstream API without a timeout",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP005.md"),
};

impl Rule for UpstreamTimeout {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, _doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::server(cx.analysis) else {
            return;
        };
        for call in &server.untimed_calls {
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!(
                        "`{}` sets no timeout; the tool-server conventions limit upstream calls to {} ms",
                        call.what, conventions.timeout_ms
                    ),
                    call.range.clone(),
                )
                .with_suggestion(format!("Give the call a timeout: {}", call.advice)),
            );
        }
    }
}
