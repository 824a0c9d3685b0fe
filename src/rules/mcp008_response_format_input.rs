//! MCP008 response-format-input: A list or search tool without a `response_format` input of markdown or json defaulting to markdown.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ResponseFormatInput;

static META: RuleMeta = RuleMeta {
    code: "MCP008",
    name: "response-format-input",
    summary: "A list or search tool without a `response_format` input of markdown or json defaulting to markdown",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP008.md"),
};

impl Rule for ResponseFormatInput {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, _doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::served(cx.analysis) else {
            return;
        };
        let formats = &conventions.response_formats;
        let Some(default) = formats.first() else {
            return;
        };
        for tool in &server.tools {
            let Some(name) = tool.name.as_deref() else {
                continue;
            };
            // Inputs read whole: a schema from elsewhere is given the benefit of the doubt.
            if !crate::tool_server_facts::name_has(name, &conventions.list_words)
                || matches!(tool.schema, crate::tool_server_facts::Schema::Unknown)
                || tool.inputs.iter().any(|i| i.opaque)
            {
                continue;
            }
            let problem = match tool.inputs.iter().find(|i| i.name == "response_format") {
                None => format!("has no `response_format` input ({})", formats.join(" or ")),
                Some(input) => match &input.default_text {
                    Some(d) if !d.eq_ignore_ascii_case(default) => {
                        format!("defaults `response_format` to `{d}`, not `{default}`")
                    }
                    None if !input.default_unread && input.bound.default.is_none() => {
                        format!("has no default for `response_format` (`{default}`)")
                    }
                    _ => continue,
                },
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!("{} {problem}", super::mcp::tool_name(&tool.name)),
                    tool.range.clone(),
                )
                .with_suggestion(format!(
                    "Take `response_format` ({}, default `{default}`): Markdown for people, JSON for programs",
                    formats.join(" or ")
                )),
            );
        }
    }
}
