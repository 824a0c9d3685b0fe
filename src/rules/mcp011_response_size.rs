//! MCP011 response-size: A list or search tool in a file with no bound on the response's length, or a truncation without `truncated` and `truncation_message`.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};

pub struct ResponseSize;

static META: RuleMeta = RuleMeta {
    code: "MCP011",
    name: "response-size",
    summary: "A list or search tool in a file with no bound on the response's length, or a truncation without `truncated` and `truncation_message`",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP011.md"),
};

impl Rule for ResponseSize {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let Some((server, conventions)) = super::mcp::served(cx.analysis) else {
            return;
        };
        let list_tools: Vec<_> = server
            .tools
            .iter()
            // A tool built from pieces of other modules (a schema or an input from elsewhere)
            // may be bounded there too: given the benefit of the doubt.
            .filter(|t| {
                t.name
                    .as_deref()
                    .is_some_and(|n| crate::tool_server_facts::name_has(n, &conventions.list_words))
                    && !matches!(t.schema, crate::tool_server_facts::Schema::Unknown)
                    && !t.inputs.iter().any(|i| i.opaque)
            })
            .collect();
        if list_tools.is_empty() {
            return;
        }
        let limit = conventions.character_limit;
        let text = doc.text.as_str();
        let Some(at) = limit_at(text, limit) else {
            for tool in list_tools {
                cx.report(
                    Diagnostic::new(
                        &META,
                        Severity::Warning,
                        format!(
                            "{} returns text that nothing in this file bounds to {limit} characters",
                            super::mcp::tool_name(&tool.name)
                        ),
                        tool.range.clone(),
                    )
                    .with_suggestion(format!(
                        "Check the response's length against a limit of {limit} characters (a constant such as `CHARACTER_LIMIT = {limit}`); over it, cut the items to about half and set `truncated` and `truncation_message`"
                    )),
                );
            }
            return;
        };
        let missing: Vec<String> = conventions
            .truncation_fields
            .iter()
            .filter(|f| !text.contains(f.as_str()))
            .map(|f| format!("`{f}`"))
            .collect();
        if !missing.is_empty() {
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!("The response is bounded to {limit} characters, but a cut response does not say so: no {}", missing.join(" or ")),
                    at,
                )
                .with_suggestion("When the items are cut, set `truncated: true` and a `truncation_message` saying how many were kept and to use `offset` or filters"),
            );
        }
    }
}

/// Where the file writes the character limit as a number (`25000`, `25_000`), outside a
/// comment or a string; the first place.
fn limit_at(text: &str, limit: usize) -> Option<std::ops::Range<usize>> {
    let plain = limit.to_string();
    let grouped = {
        let digits: Vec<char> = plain.chars().collect();
        let mut out = String::new();
        for (i, c) in digits.iter().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push('_');
            }
            out.push(*c);
        }
        out
    };
    let bytes = text.as_bytes();
    let whole = |start: usize, len: usize| {
        let before = start.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(start + len).copied();
        let word = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
        !word(before) && !word(after)
    };
    [plain, grouped]
        .iter()
        .flat_map(|needle| {
            text.match_indices(needle.as_str())
                .map(|(i, m)| (i, m.len()))
                .collect::<Vec<_>>()
        })
        .filter(|(i, len)| whole(*i, *len))
        .min()
        .map(|(i, len)| i..i + len)
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_the_limit_as_a_number() {
        assert_eq!(super::limit_at("CHARACTER_LIMIT = 25_000\n", 25000), Some(18..24));
        assert_eq!(super::limit_at("if len(s) > 25000:", 25000), Some(12..17));
        assert_eq!(super::limit_at("x = 250000; y = 1.25000; v25000", 25000), None);
    }
}
