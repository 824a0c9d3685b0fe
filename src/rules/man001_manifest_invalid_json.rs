//! MAN001 manifest-invalid-json: A benchmark manifest that is not valid JSON.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestInvalidJson;

static META: RuleMeta = RuleMeta {
    code: "MAN001",
    name: "manifest-invalid-json",
    summary: "A benchmark manifest that is not valid JSON",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MAN001.md"),
};

impl Rule for ManifestInvalidJson {
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
