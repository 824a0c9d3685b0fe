//! MAN002 manifest-missing-field: A benchmark manifest without a required field.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestMissingField;

static META: RuleMeta = RuleMeta {
    code: "MAN002",
    name: "manifest-missing-field",
    summary: "A benchmark manifest without a required field",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MAN002.md"),
};

impl Rule for ManifestMissingField {
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
