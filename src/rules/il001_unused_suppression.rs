//! IL001 unused-suppression: an `interlint: ignore[...]` comment that suppresses nothing.
//!
//! The engine finds these ([`crate::engine`]), after the other rules: a directive is judged
//! by the findings of every rule enabled for the file, which the prefilter guarantees is the
//! same as by the rules that ran.

use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::suppress::{Directive, LineDirectives};
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
}

/// A document's text and where it lies in the file, kept for the directives found in it.
pub struct DocPlace {
    pub text: String,
    pub map: Option<crate::lang::OffsetMap>,
    pub cell: Option<crate::lang::CellOrigin>,
}

/// The directives of a file's documents, by their place in the file, with what each
/// suppressed in any document: a Markdown file's prose and its code blocks, or a notebook
/// cell's Python and its shell lines, read the same lines.
#[derive(Default)]
pub struct Tracker {
    found: std::collections::BTreeMap<usize, (Directive, std::rc::Rc<DocPlace>)>,
}

impl Tracker {
    pub fn add(&mut self, doc: &Document, directives: LineDirectives) {
        let mut place: Option<std::rc::Rc<DocPlace>> = None;
        for directive in directives.into_directives() {
            let start = directive.span.start;
            let at = doc.map.as_ref().map_or(start, |m| m.offset(start));
            match self.found.entry(at) {
                std::collections::btree_map::Entry::Occupied(mut seen) => {
                    seen.get_mut().0.used.extend(directive.used);
                }
                std::collections::btree_map::Entry::Vacant(new) => {
                    let place = place.get_or_insert_with(|| {
                        std::rc::Rc::new(DocPlace {
                            text: doc.text.clone(),
                            map: doc.map.clone(),
                            cell: doc.cell.clone(),
                        })
                    });
                    new.insert((directive, std::rc::Rc::clone(place)));
                }
            }
        }
    }

    /// The findings, in the coordinates of the document each directive was found in.
    /// `enabled`: the rules enabled for the file, by which a code is judged.
    pub fn unused(self, enabled: &[&'static dyn Rule]) -> Vec<(Diagnostic, std::rc::Rc<DocPlace>)> {
        let covers = |selector: &str, code: &str| selector == "ALL" || code.starts_with(selector);
        let judged = |selector: &str| enabled.iter().any(|r| covers(selector, r.meta().code));
        let mut out = Vec::new();
        for (directive, place) in self.found.into_values() {
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
                        .filter(|c| {
                            judged(c) && crate::codes::selects_a_rule(c) && !directive.used.contains(*c)
                        })
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
}
