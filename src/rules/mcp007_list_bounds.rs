//! MCP007 list-bounds: A list or search tool whose limit, offset or query bounds differ from the document's.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tool_server_facts::Bound;

pub struct ListBounds;

static META: RuleMeta = RuleMeta {
    code: "MCP007",
    name: "list-bounds",
    summary: "A list or search tool whose limit, offset or query bounds differ from the tool-server conventions",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP007.md"),
};

impl Rule for ListBounds {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, _doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::server(cx.analysis) else {
            return;
        };
        for tool in &server.tools {
            let Some(name) = tool.name.as_deref() else {
                continue;
            };
            if !crate::tool_server_facts::name_has(name, &conventions.list_words) {
                continue;
            }
            let mut problems = Vec::new();
            for input in &tool.inputs {
                let Some(want) = conventions.bounds.get(&input.name) else {
                    continue;
                };
                if input.opaque {
                    continue;
                }
                let mut want = want.clone();
                if input.default_unread {
                    want.default = None;
                }
                let differences = differences(&want, &input.bound);
                if !differences.is_empty() {
                    problems.push(format!(
                        "`{}` has {} (the tool-server conventions: {})",
                        input.name,
                        differences.join(", "),
                        describe(&want)
                    ));
                }
            }
            if problems.is_empty() {
                continue;
            }
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!("{}: {}", super::mcp::tool_name(&tool.name), problems.join("; ")),
                    tool.range.clone(),
                )
                .with_suggestion("Bound the inputs as the tool-server conventions do: limit 1 to 100 (default 20), offset at least 0, query 2 to 200 characters"),
            );
        }
    }
}

/// The ways a bound differs from the document's, in words.
fn differences(want: &Bound, found: &Bound) -> Vec<String> {
    let show = super::mcp::show;
    let fields = [
        ("minimum", want.minimum, found.minimum),
        ("maximum", want.maximum, found.maximum),
        ("default", want.default, found.default),
        ("minimum length", want.min_length, found.min_length),
        ("maximum length", want.max_length, found.max_length),
    ];
    fields
        .iter()
        .filter_map(|(label, want, found)| match (want, found) {
            (None, _) => None,
            (Some(w), Some(f)) if (w - f).abs() < f64::EPSILON => None,
            (Some(_), Some(f)) => Some(format!("{label} {}", show(*f))),
            (Some(_), None) => Some(format!("no {label}")),
        })
        .collect()
}

/// The document's bound in words: `1 to 100, default 20`, `at least 0`, `2 to 200 characters`.
fn describe(want: &Bound) -> String {
    let show = super::mcp::show;
    let mut parts = Vec::new();
    match (want.minimum, want.maximum) {
        (Some(a), Some(b)) => parts.push(format!("{} to {}", show(a), show(b))),
        (Some(a), None) => parts.push(format!("at least {}", show(a))),
        (None, Some(b)) => parts.push(format!("at most {}", show(b))),
        (None, None) => {}
    }
    if let Some(d) = want.default {
        parts.push(format!("default {}", show(d)));
    }
    match (want.min_length, want.max_length) {
        (Some(a), Some(b)) => parts.push(format!("{} to {} characters", show(a), show(b))),
        (Some(a), None) => parts.push(format!("at least {} characters", show(a))),
        (None, Some(b)) => parts.push(format!("at most {} characters", show(b))),
        (None, None) => {}
    }
    parts.join(", ")
}
