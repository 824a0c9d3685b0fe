//! IL001 unused-suppression: an `interlint: ignore[...]` comment that suppresses nothing.
//!
//! The engine finds these ([`crate::engine`]), after the other rules: it collects a file's
//! directives with what they suppressed ([`Tracker`]) and hands them to this rule, which judges
//! each by the findings of every rule enabled for the file (the prefilter guarantees that is
//! the same as by the rules that ran).

use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use std::rc::Rc;

use crate::analysis::suppressions::{DocPlace, Tracker};
use crate::tables::Tables;

pub struct UnusedSuppression;

pub static META: RuleMeta = RuleMeta {
    code: "IL001",
    name: "unused-suppression",
    summary: "An `interlint: ignore[...]` comment (or one of its codes) that suppresses nothing",
    surfaces: "every surface with comments",
    fix: FixAvailability::Always,
    fix_safety: "safe",
    doc: include_str!("../../rules/docs/IL001.md"),
};

impl Rule for UnusedSuppression {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// Only files that hold a directive: in others there is nothing to judge.
    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        vec!["interlint:".to_string()]
    }

    fn check(&self, _doc: &Document, _cx: &mut RuleContext) {}

    fn judges_directives(&self) -> bool {
        true
    }

    fn judge_directives(
        &self,
        directives: Tracker,
        enabled: &[&'static dyn Rule],
    ) -> Vec<(Diagnostic, Rc<DocPlace>)> {
        unused(directives, enabled)
    }
}

/// The findings on a file's directives, in the coordinates of the document each directive
/// was found in. `enabled`: the rules enabled for the file, by which a code is judged.
fn unused(directives: Tracker, enabled: &[&'static dyn Rule]) -> Vec<(Diagnostic, Rc<DocPlace>)> {
    let covers = |selector: &str, code: &str| selector == "ALL" || code.starts_with(selector);
    let judged = |selector: &str| enabled.iter().any(|r| covers(selector, r.meta().code));
    let mut out = Vec::new();
    for (directive, place) in directives.into_found() {
        let text = &place.text;
        let written = &text[directive.span.clone()];
        let written = written.trim_start_matches(['#', '/', '<', '!', '-', ' ', '\t']);
        let written = written.trim_end_matches("-->").trim_end();
        let remove = || {
            Fix::safe(
                "Remove the directive",
                vec![Edit::replace(directive.removal.clone(), "")],
            )
        };
        let diagnostic = match (&directive.codes, &directive.list) {
            (None, _) if directive.used.is_empty() => Diagnostic::new(
                &META,
                Severity::Warning,
                format!("`{written}` suppresses nothing"),
                directive.span.clone(),
            )
            .with_fix(remove()),
            (Some(codes), Some(list)) => {
                // A directive that names this rule is the user's own choice.
                if codes.iter().any(|c| c != "ALL" && covers(c, META.code)) {
                    continue;
                }
                let unused: Vec<&String> = codes
                    .iter()
                    .filter(|c| judged(c) && crate::codes::selects_a_rule(c) && !directive.used.contains(*c))
                    .collect();
                if unused.is_empty() {
                    continue;
                }
                let noun = if unused.len() == 1 { "code" } else { "codes" };
                let names = unused.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ");
                if unused.len() == codes.len() {
                    Diagnostic::new(
                        &META,
                        Severity::Warning,
                        format!("`{written}` suppresses nothing"),
                        directive.span.clone(),
                    )
                    .with_fix(remove())
                } else {
                    let separator = if text[list.clone()].contains(", ") {
                        ", "
                    } else {
                        ","
                    };
                    let kept: Vec<&str> = codes
                        .iter()
                        .filter(|c| !unused.contains(c))
                        .map(String::as_str)
                        .collect();
                    Diagnostic::new(
                        &META,
                        Severity::Warning,
                        format!("Unused {noun} {names} in `{written}`"),
                        directive.span.clone(),
                    )
                    .with_fix(Fix::safe(
                        format!("Remove {names}"),
                        vec![Edit::replace(list.clone(), kept.join(separator))],
                    ))
                }
            }
            _ => continue,
        };
        out.push((diagnostic, place));
    }
    out
}
