//! MIG012 grounding-metadata: search grounding read from a response or candidate
//! (`grounding_metadata`, `groundingMetadata`).

use crate::api::ReadKind;
use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct GroundingMetadata;

static META: RuleMeta = RuleMeta {
    code: "MIG012",
    name: "grounding-metadata",
    summary: "Search grounding read the predecessor way: `grounding_metadata` on a response or candidate",
    surfaces: "Python, notebooks, JavaScript, TypeScript, jq filters in shell",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MIG012.md"),
};

/// The field's two spellings; a finding points at the one the read names.
const FIELD: [&str; 2] = ["grounding_metadata", "groundingMetadata"];

impl Rule for GroundingMetadata {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        FIELD.map(String::from).to_vec()
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        for read in &doc.facts().reads {
            if read.kind != ReadKind::Grounding {
                continue;
            }
            // A read is a whole chain (`candidates[0].grounding_metadata.grounding_chunks`): the
            // finding is on the field itself.
            let written = doc.text.get(read.range.clone()).unwrap_or_default();
            let Some((offset, field)) = FIELD
                .iter()
                .filter_map(|f| written.find(f).map(|i| (i, *f)))
                .min()
            else {
                continue;
            };
            let start = read.range.start + offset;
            let message = format!("`{field}` reads search grounding from a predecessor response");
            cx.report(
                Diagnostic::new(&META, Severity::Error, message, start..start + field.len()).with_suggestion(
                    "An interaction reports a search as steps: read the queries from its `web_search_call` \
                     steps, the sources from its `web_search_result` steps, and the citations from the \
                     `annotations` of the answer's text",
                ),
            );
        }
    }
}
