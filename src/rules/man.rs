//! The seven MAN rules, one body driven by a table: each reports the violations of the
//! benchmark-manifest schema that `rules/manifest.toml` gives to its code (see
//! `crate::manifest`); what tells them apart is their metadata, below.

use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::manifest;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

/// A MAN rule: the violations of its code, from the document's analysis.
pub struct ManifestRule(&'static RuleMeta);

/// A MAN rule of `code`: every one reads benchmark manifests, and its page is
/// `rules/docs/CODE.md`.
macro_rules! manifest_rule {
    ($code:literal, $name:literal, $summary:literal, $fix:ident, $fix_safety:literal) => {
        ManifestRule(&RuleMeta {
            code: $code,
            name: $name,
            summary: $summary,
            surfaces: "JSON (benchmark manifests)",
            fix: FixAvailability::$fix,
            fix_safety: $fix_safety,
            doc: include_str!(concat!("../../rules/docs/", $code, ".md")),
        })
    };
}

pub static MANIFEST_INVALID_JSON: ManifestRule = manifest_rule!(
    "MAN001",
    "manifest-invalid-json",
    "A benchmark manifest that is not valid JSON",
    None,
    "none"
);
pub static MANIFEST_MISSING_FIELD: ManifestRule = manifest_rule!(
    "MAN002",
    "manifest-missing-field",
    "A benchmark manifest without a required field",
    None,
    "none"
);
pub static MANIFEST_WRONG_TYPE: ManifestRule = manifest_rule!(
    "MAN003",
    "manifest-wrong-type",
    "A benchmark-manifest field of the wrong type",
    None,
    "none"
);
pub static MANIFEST_SCHEMA_VERSION: ManifestRule = manifest_rule!(
    "MAN004",
    "manifest-schema-version",
    "A benchmark manifest whose schemaVersion is not the number 1",
    Sometimes,
    "safe"
);
pub static MANIFEST_STATUS: ManifestRule = manifest_rule!(
    "MAN005",
    "manifest-status",
    "A benchmark-manifest status other than structureOnly or frozen",
    None,
    "none"
);
pub static MANIFEST_INTENTS: ManifestRule = manifest_rule!(
    "MAN006",
    "manifest-intents",
    "Benchmark-manifest intents that are not exactly six unique items",
    None,
    "none"
);
pub static MANIFEST_HELD_OUT: ManifestRule = manifest_rule!(
    "MAN007",
    "manifest-held-out",
    "A benchmark-manifest heldOut set that breaks its constraints",
    Sometimes,
    "safe"
);

impl Rule for ManifestRule {
    fn meta(&self) -> &'static RuleMeta {
        self.0
    }

    /// A manifest holds the word in its `$schema` or its file name (the rules claim such names).
    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        vec![manifest::MANIFEST_WORD.to_string()]
    }

    fn claims_file(&self, file_name: &str) -> bool {
        manifest::is_manifest_name(file_name)
    }

    /// Reports the violations of the document, when it is a manifest, that belong to the
    /// rule's code.
    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let meta = self.0;
        if !manifest::is_manifest(doc, cx.file_name) {
            return;
        }
        for v in cx.analysis.manifest_violations() {
            if v.code != meta.code {
                continue;
            }
            let mut diagnostic = Diagnostic::new(meta, Severity::Error, v.message.clone(), v.range.clone());
            diagnostic = match &v.fix {
                Some(content) => diagnostic.with_fix(Fix::safe(
                    format!("Write `{content}`"),
                    vec![Edit::replace(v.range.clone(), content.clone())],
                )),
                None => diagnostic.with_suggestion(v.suggestion.clone()),
            };
            cx.report(diagnostic);
        }
    }
}
