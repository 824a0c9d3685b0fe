//! MIG006 function-call-parts: function calls read from candidate parts.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::migration_facts::ReadKind;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct FunctionCallParts;

static META: RuleMeta = RuleMeta {
    code: "MIG006",
    name: "function-call-parts",
    summary: "Function calls read from candidate parts or `response.function_calls`",
    surfaces: "Python, notebooks, JavaScript, TypeScript",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MIG006.md"),
};

impl Rule for FunctionCallParts {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        vec!["function_call".into(), "functionCall".into()]
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        for read in &doc.facts().reads {
            if !matches!(read.kind, ReadKind::FunctionCalls | ReadKind::PartFunctionCall) {
                continue;
            }
            let written = doc.text.get(read.range.clone()).unwrap_or_default();
            let message = format!("`{written}` reads function calls from the predecessor response's parts");
            cx.report(
                Diagnostic::new(&META, Severity::Error, message, read.range.clone()).with_suggestion(
                    "Iterate the interaction's `steps` and handle those whose `type` is `\"function_call\"`",
                ),
            );
        }
    }
}
