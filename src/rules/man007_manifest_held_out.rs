//! MAN007 manifest-held-out: A benchmark-manifest heldOut set that breaks its constraints.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestHeldOut;

static META: RuleMeta = RuleMeta {
    code: "MAN007",
    name: "manifest-held-out",
    summary: "A benchmark-manifest heldOut set that breaks its constraints",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe",
    doc: include_str!("../../rules/docs/MAN007.md"),
};

impl Rule for ManifestHeldOut {
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
