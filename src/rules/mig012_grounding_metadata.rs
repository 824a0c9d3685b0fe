//! MIG012 grounding-metadata: search grounding read from a response or candidate
//! (`grounding_metadata`, `groundingMetadata`).

use crate::diagnostic::{Diagnostic, Severity};
use crate::lang::Document;
use crate::migration_facts::ReadKind;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct GroundingMetadata;

static META: RuleMeta = RuleMeta {
    code: "MIG012",
    name: "grounding-metadata",
    summary: "Search grounding read the predecessor way: `grounding_metadata` on a response or candidate, `url_context_metadata` on a candidate",
    surfaces: "Python, notebooks, JavaScript, TypeScript, jq filters in shell",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MIG012.md"),
};

/// The fields in both spellings; a finding points at the one the read names.
const FIELD: [&str; 4] = [
    "grounding_metadata",
    "groundingMetadata",
    "url_context_metadata",
    "urlContextMetadata",
];

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
            if !matches!(read.kind, ReadKind::Grounding { .. }) {
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
            // The step types are the client libraries' (`google_search_call`, where the
            // source document says `web_search_call`).
            let (what, suggestion) = if field.starts_with("url") {
                (
                    "URL context (the pages the model read)",
                    "An interaction reports the pages it read as steps: read the URLs from its \
                     `url_context_call` steps and what was retrieved (and its status) from its \
                     `url_context_result` steps",
                )
            } else {
                (
                    "search grounding",
                    "An interaction reports a search as steps: read the queries from its \
                     `google_search_call` steps, the sources from its `google_search_result` steps, and \
                     the citations from the `annotations` of the answer's text",
                )
            };
            let message = format!("`{field}` reads {what} from a predecessor response");
            cx.report(
                Diagnostic::new(&META, Severity::Error, message, start..start + field.len())
                    .with_suggestion(suggestion),
            );
        }
    }
}
