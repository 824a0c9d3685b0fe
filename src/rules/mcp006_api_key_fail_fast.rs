//! MCP006 api-key-fail-fast: An *_API_KEY read from the environment without a fail-fast exit.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tool_server_facts::KeyCheck;

pub struct ApiKeyFailFast;

static META: RuleMeta = RuleMeta {
    code: "MCP006",
    name: "api-key-fail-fast",
    summary: "An *_API_KEY read from the environment without a fail-fast exit",
    surfaces: "Python and TypeScript tool servers",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MCP006.md"),
};

impl Rule for ApiKeyFailFast {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    super::mcp::tool_server_words!();

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        // A client sample or a test that builds a server in memory is not a process that starts
        // without its credential.
        let Some((server, conventions)) = super::mcp::server(cx.analysis).filter(|(s, _)| s.serves) else {
            return;
        };
        let mut reported: Vec<&str> = Vec::new();
        for read in &server.key_reads {
            let variable = read.variable.as_str();
            if reported.contains(&variable) {
                continue;
            }
            reported.push(variable);
            let reads = server.key_reads.iter().filter(|r| r.variable == variable);
            let best = reads.fold(KeyCheck::None, |best, r| best.better(r.check.clone()));
            let problem = match &best {
                KeyCheck::FailsFast => continue,
                KeyCheck::None => "nothing stops the server when it is missing".to_string(),
                KeyCheck::Unnamed => "the check that stops the server does not name it".to_string(),
                KeyCheck::Status(status) => {
                    format!("the check that stops the server exits with status {status}, not 1")
                }
            };
            let _ = conventions;
            let suggestion = if super::mcp::is_python(doc) {
                format!(
                    "At start-up: `if not key: print(\"{variable} is not set\", file=sys.stderr); sys.exit(1)`"
                )
            } else {
                format!(
                    "At start-up: `if (!key) {{ console.error(\"{variable} is not set\"); process.exit(1); }}`"
                )
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    Severity::Warning,
                    format!("`{variable}` is read from the environment, but {problem}"),
                    read.range.clone(),
                )
                .with_suggestion(suggestion),
            );
        }
    }
}
