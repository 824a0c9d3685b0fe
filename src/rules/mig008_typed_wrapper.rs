//! MIG008 typed-wrapper: typed wrapper objects where the interactions endpoint takes plain ones.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::settings::Settings;

use super::request::Dialect;

pub struct TypedWrapper;

static META: RuleMeta = RuleMeta {
    code: "MIG008",
    name: "typed-wrapper",
    summary: "Typed wrapper objects (`types.GenerateContentConfig(...)`, `types.Part(...)`) instead of plain ones",
    surfaces: "Python, notebooks",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe",
    doc: include_str!("../../rules/docs/MIG008.md"),
};

/// Factories whose keyword arguments are the fields of the plain object they build.
const FIELD_FACTORIES: &[&str] = &["Part.from_text"];

impl Rule for TypedWrapper {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Settings) -> Vec<String> {
        vec!["genai".into()]
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        let facts = doc.facts();
        let known = &cx.settings.clients.python.typed_wrappers;
        for wrapper in &facts.wrappers {
            let class = wrapper.name.split('.').next().unwrap_or_default();
            if !known.iter().any(|k| k == class) {
                continue;
            }
            let callee = doc.text.get(wrapper.callee.clone()).unwrap_or_default();
            let message = format!(
                "`{callee}(...)` builds a typed wrapper; the interactions endpoint takes plain objects"
            );
            let diagnostic = Diagnostic::new(&META, Severity::Error, message, wrapper.callee.clone());
            let plain = !wrapper.name.contains('.') || FIELD_FACTORIES.contains(&wrapper.name.as_str());
            let fix = wrapper.map.as_ref().filter(|_| plain).map(|map| {
                let mut edits = vec![Edit::replace(wrapper.callee.start..wrapper.open.end, "{")];
                for entry in &map.entries {
                    edits.push(Edit::replace(
                        entry.key_range.start..entry.value.range.start,
                        format!("{}: ", dialect.string(&entry.key)),
                    ));
                }
                edits.push(Edit::replace(wrapper.close.clone(), "}"));
                Fix::new(Applicability::Unsafe, "Replace with a plain dict", edits)
            });
            cx.report(match fix {
                Some(fix) => diagnostic.with_fix(fix),
                None => diagnostic.with_suggestion(
                    "Write the object as a plain dict with the same fields (not rewritten automatically: the \
                     arguments are not all keywords, or the factory builds a nested shape)",
                ),
            });
        }
        // In a notebook other cells may use the import: leave it.
        if doc.cell.is_some() {
            return;
        }
        for import in &facts.imports {
            let Some(types) = import.types.as_ref().filter(|t| !t.used) else {
                continue;
            };
            let written = doc.text.get(types.name_range.clone()).unwrap_or_default();
            let message = format!("`{written}` (typed wrappers) is imported but no longer used");
            let fix = Fix::new(
                Applicability::Unsafe,
                "Remove the unused import",
                vec![Edit::replace(types.removal.clone(), "")],
            );
            cx.report(
                Diagnostic::new(&META, Severity::Warning, message, types.name_range.clone()).with_fix(fix),
            );
        }
    }
}
