//! MCP009 errors-as-results: A tool failure that escapes as an exception, or an error result whose text does not start with `Error:`.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ErrorsAsResults;

static META: RuleMeta = RuleMeta {
    code: "MCP009",
    name: "errors-as-results",
    summary: "A tool failure that escapes as an exception, or an error result whose text does not start with `Error:`",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP009.md"),
};

impl Rule for ErrorsAsResults {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::served(cx.analysis) else {
            return;
        };
        let prefix = conventions.error_prefix.as_str();
        let texts = &conventions.status_texts;
        let example = |key: &str| texts.get(key).map_or(String::new(), |t| format!("`{t}`"));
        for tool in &server.tools {
            let Some(handler) = &tool.handler else {
                continue;
            };
            let name = super::mcp::tool_name(&tool.name);
            let what = match super::mcp::is_python(doc) {
                true => "`raise_for_status()`",
                false => "`throw`",
            };
            for call in &handler.unhandled {
                cx.report(
                    Diagnostic::new(
                        &META,
                        Severity::Warning,
                        format!("{name}: {what} with no `try` in the tool: the failure escapes as an exception"),
                        call.clone(),
                    )
                    .with_suggestion(format!(
                        "Catch the failure in the tool and return its text as a result: {} for 404, {} for 429, {} otherwise",
                        example("404"),
                        example("429"),
                        example("other")
                    )),
                );
            }
            for (range, literal) in &handler.error_texts {
                if literal.trim_start().starts_with(prefix) {
                    continue;
                }
                cx.report(
                    Diagnostic::new(
                        &META,
                        Severity::Warning,
                        format!("{name}: an error result whose text does not start with `{prefix}`"),
                        range.clone(),
                    )
                    .with_suggestion(format!(
                        "Start the text with `{prefix}` so that the model tells a failure from a result, e.g. {}",
                        example("unexpected")
                    )),
                );
            }
        }
    }
}
