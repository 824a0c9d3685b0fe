//! MCP003 strict-input-schema: A tool input schema that does not reject unknown fields.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct StrictInputSchema;

static META: RuleMeta = RuleMeta {
    code: "MCP003",
    name: "strict-input-schema",
    summary: "A tool input schema that does not reject unknown fields",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP003.md"),
};

impl Rule for StrictInputSchema {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::server(cx.analysis) else {
            return;
        };
        let _ = conventions;
        for tool in &server.tools {
            let crate::tool_server_facts::Schema::Lenient(why) = &tool.schema else {
                continue;
            };
            let suggestion = if super::mcp::is_python(doc) {
                "Take a pydantic input model with `model_config = ConfigDict(extra=\"forbid\")`"
            } else {
                "Pass `z.object({ ... }).strict()` as the input schema"
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!(
                        "{}'s input schema does not reject unknown fields: {why}",
                        super::mcp::tool_name(&tool.name)
                    ),
                    tool.range.clone(),
                )
                .with_suggestion(suggestion),
            );
        }
    }
}
