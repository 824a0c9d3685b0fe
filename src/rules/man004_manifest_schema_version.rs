//! MAN004 manifest-schema-version: A benchmark manifest whose schemaVersion is not the number 1.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestSchemaVersion;

static META: RuleMeta = RuleMeta {
    code: "MAN004",
    name: "manifest-schema-version",
    summary: "A benchmark manifest whose schemaVersion is not the number 1",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe",
    doc: include_str!("../../rules/docs/MAN004.md"),
};

impl Rule for ManifestSchemaVersion {
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
