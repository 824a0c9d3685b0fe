//! MCP010 list-result-fields: A list or search tool whose result object lacks `total`, `count`, `offset`, `has_more` or `next_offset`.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ListResultFields;

static META: RuleMeta = RuleMeta {
    code: "MCP010",
    name: "list-result-fields",
    summary: "A list or search tool whose result object lacks `total`, `count`, `offset`, `has_more` or `next_offset`",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP010.md"),
};

impl Rule for ListResultFields {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, _doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::served(cx.analysis) else {
            return;
        };
        for tool in &server.tools {
            let Some(name) = tool.name.as_deref() else {
                continue;
            };
            if !crate::tool_server_facts::name_has(name, &conventions.list_words) {
                continue;
            }
            let Some((range, keys)) = tool.handler.as_ref().and_then(|h| h.result.as_ref()) else {
                continue;
            };
            let missing: Vec<String> = conventions
                .result_fields
                .iter()
                .filter(|f| !keys.contains(f))
                .map(|f| format!("`{f}`"))
                .collect();
            if missing.is_empty() {
                continue;
            }
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!(
                        "{} returns an object without {}",
                        super::mcp::tool_name(&tool.name),
                        missing.join(", ")
                    ),
                    range.clone(),
                )
                .with_suggestion(
                    "Return `total`, `count`, `offset`, the items under a field named for their kind, `has_more`, and `next_offset` (= offset + count) when `has_more` is true",
                ),
            );
        }
    }
}
