//! MCP001 tool-description: A tool registered without an explicit description.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ToolDescription;

static META: RuleMeta = RuleMeta {
    code: "MCP001",
    name: "tool-description",
    summary: "A tool registered without an explicit description",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP001.md"),
};

impl Rule for ToolDescription {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::server(cx.analysis) else {
            return;
        };
        for tool in &server.tools {
            if tool.described {
                continue;
            }
            let _ = conventions;
            let suggestion = if super::mcp::is_python(doc) {
                "Pass `description=\"...\"` to the decorator or give the function a docstring: clients show it to the model to choose the tool"
            } else {
                "Add `description: \"...\"` to the tool's registration: clients show it to the model to choose the tool"
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!(
                        "{} is registered without a description",
                        super::mcp::tool_name(&tool.name)
                    ),
                    tool.range.clone(),
                )
                .with_suggestion(suggestion),
            );
        }
    }
}
