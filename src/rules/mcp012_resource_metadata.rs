//! MCP012 resource-metadata: A resource without a description, or whose URI template names other parameters than its handler takes.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ResourceMetadata;

static META: RuleMeta = RuleMeta {
    code: "MCP012",
    name: "resource-metadata",
    summary: "A resource without a description, or whose URI template names other parameters than its handler takes",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP012.md"),
};

impl Rule for ResourceMetadata {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::served(cx.analysis) else {
            return;
        };
        let _ = conventions;
        let python = super::mcp::is_python(doc);
        for resource in &server.resources {
            let mut problems = Vec::new();
            if !resource.described {
                problems.push("no description".to_string());
            }
            if !resource.mime_type {
                problems.push(format!(
                    "no {}",
                    if python { "`mime_type`" } else { "`mimeType`" }
                ));
            }
            let template = resource.template_parameters();
            if let Some(parameters) = &resource.parameters
                && !template.is_empty()
            {
                let unmatched: Vec<String> = template
                    .iter()
                    .filter(|t| !parameters.contains(t))
                    .map(|t| format!("`{{{t}}}`"))
                    .collect();
                let extra: Vec<String> = parameters
                    .iter()
                    .filter(|p| !template.contains(p))
                    .map(|p| format!("`{p}`"))
                    .collect();
                if !unmatched.is_empty() {
                    problems.push(format!(
                        "the template's {} not among the handler's parameters",
                        unmatched.join(", ")
                    ));
                }
                if !extra.is_empty() {
                    problems.push(format!("the handler's {} not in the template", extra.join(", ")));
                }
            }
            if problems.is_empty() {
                continue;
            }
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!("Resource `{}` has {}", resource.uri, problems.join("; ")),
                    resource.range.clone(),
                )
                .with_suggestion("Give each resource a description and a MIME type, and name the template's `{params}` exactly as the handler's parameters"),
            );
        }
    }
}
