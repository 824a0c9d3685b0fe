//! MAN006 manifest-intents: Benchmark-manifest intents that are not exactly six unique items.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestIntents;

static META: RuleMeta = RuleMeta {
    code: "MAN006",
    name: "manifest-intents",
    summary: "Benchmark-manifest intents that are not exactly six unique items",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MAN006.md"),
};

impl Rule for ManifestIntents {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        super::man::triggers()
    }

    fn claims_file(&self, file_name: &str) -> bool {
        super::man::claims_file(file_name)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        super::man::report(&META, doc, cx);
    }
}
