//! MAN003 manifest-wrong-type: A benchmark-manifest field of the wrong type.

use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

pub struct ManifestWrongType;

static META: RuleMeta = RuleMeta {
    code: "MAN003",
    name: "manifest-wrong-type",
    summary: "A benchmark-manifest field of the wrong type",
    surfaces: "JSON (benchmark manifests)",
    fix: FixAvailability::None,
    fix_safety: "none",
    doc: include_str!("../../rules/docs/MAN003.md"),
};

impl Rule for ManifestWrongType {
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
