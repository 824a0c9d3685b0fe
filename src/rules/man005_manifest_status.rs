//! MAN005 manifest-status: A benchmark-manifest status other than structureOnly or frozen.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestStatus;

static META: RuleMeta = RuleMeta {
    code: "MAN005",
    name: "manifest-status",
    summary: "A benchmark-manifest status other than structureOnly or frozen",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MAN005.md"),
};

impl Rule for ManifestStatus {
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
