//! MCP002 tool-annotations: A tool without all four annotations, or a list/get/search tool not marked read-only.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ToolAnnotations;

static META: RuleMeta = RuleMeta {
    code: "MCP002",
    name: "tool-annotations",
    summary: "A tool without all four annotations, or a list/get/search tool not marked read-only",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP002.md"),
};

impl Rule for ToolAnnotations {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, _doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::server(cx.analysis) else {
            return;
        };
        for tool in &server.tools {
            if tool.annotations_opaque {
                continue;
            }
            let name = super::mcp::tool_name(&tool.name);
            let mut problems = Vec::new();
            match &tool.annotations {
                None => problems.push(format!("has no annotations ({})", conventions.hints.join(", "))),
                Some(set) => {
                    let missing: Vec<String> = conventions
                        .hints
                        .iter()
                        .filter(|h| !set.iter().any(|(k, _)| k == *h))
                        .map(|h| format!("`{h}`"))
                        .collect();
                    if !missing.is_empty() {
                        problems.push(format!("has annotations without {}", missing.join(", ")));
                    }
                }
            }
            let read_only_word = tool.name.as_deref().and_then(|n| {
                let words = crate::tool_server_facts::name_words(n);
                if words.iter().any(|w| conventions.mutating_words.contains(w)) {
                    return None;
                }
                words
                    .into_iter()
                    .find(|w| conventions.read_only_words.contains(w))
            });
            let marked_read_only = tool
                .annotations
                .as_ref()
                .and_then(|set| set.iter().find(|(k, _)| k == "readOnlyHint"))
                .is_some_and(|(_, v)| *v != Some(false));
            if let Some(word) = read_only_word.filter(|_| !marked_read_only) {
                problems.push(format!(
                    "is a `{word}` tool by its name but is not marked `readOnlyHint: true`"
                ));
            }
            if problems.is_empty() {
                continue;
            }
            cx.report(
                Diagnostic::new(&META, Severity::Warning, format!("{name} {}", problems.join("; it ")), tool.range.clone())
                    .with_suggestion(
                        "Set all four hints explicitly; a read-only search tool sets readOnlyHint true, destructiveHint false, idempotentHint true, openWorldHint true",
                    ),
            );
        }
    }
}
