//! What the MAN rules share: each reports the violations of the benchmark-manifest schema that
//! `rules/manifest.toml` gives to its code (see `crate::manifest`).

use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::manifest;
use crate::registry::{RuleContext, RuleMeta};

/// A manifest holds the word in its `$schema` or its file name (the rules claim such names).
pub fn triggers() -> Vec<String> {
    vec![manifest::MANIFEST_WORD.to_string()]
}

pub fn claims_file(file_name: &str) -> bool {
    manifest::is_manifest_name(file_name)
}

/// Reports the violations of the document, when it is a manifest, that belong to `meta`'s code.
pub fn report(meta: &'static RuleMeta, doc: &Document, cx: &mut RuleContext) {
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
