//! MIG009 deprecated-model-id: a model id of the table in `rules/models.toml`, anywhere.

use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::models::{ModelStatus, with_prefix};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::settings::Settings;

pub struct DeprecatedModelId;

static META: RuleMeta = RuleMeta {
    code: "MIG009",
    name: "deprecated-model-id",
    summary: "A deprecated model id, or one whose migration is recommended",
    surfaces: "all",
    fix: FixAvailability::Always,
    fix_safety: "safe",
    doc: include_str!("../../rules/docs/MIG009.md"),
};

impl Rule for DeprecatedModelId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, settings: &Settings) -> Vec<String> {
        settings.matcher.spellings.clone()
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        for region in &doc.scan_regions {
            for found in cx.settings.matcher.find(&doc.text, region.clone()) {
                let entry = &cx.settings.models.entries[found.entry];
                let written = &doc.text[found.range.clone()];
                let base = with_prefix(&entry.id, &found.prefix);
                let replacement = with_prefix(&entry.replacement, &found.prefix);
                let variant = if written == base {
                    String::new()
                } else {
                    format!(" (a version of `{base}`)")
                };
                let (severity, message) = match entry.status {
                    ModelStatus::Deprecated => (
                        Severity::Error,
                        format!("Model id `{written}`{variant} is deprecated; use `{replacement}`"),
                    ),
                    ModelStatus::MigrationRecommended => (
                        Severity::Warning,
                        format!(
                            "Model id `{written}`{variant} is still served, but migration to `{replacement}` is recommended"
                        ),
                    ),
                };
                let mut diagnostic = Diagnostic::new(&META, severity, message, found.range.clone());
                if written != replacement {
                    diagnostic = diagnostic.with_fix(Fix::safe(
                        format!("Replace with `{replacement}`"),
                        vec![Edit::replace(found.range.clone(), replacement)],
                    ));
                }
                cx.report(diagnostic);
            }
        }
    }
}
