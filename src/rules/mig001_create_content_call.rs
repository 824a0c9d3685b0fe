//! MIG001 create-content-call: a call of the predecessor create-content API.

use crate::api::CallKind;
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::settings::Settings;

use super::request::{Dialect, rewrite_to_interactions};

pub struct CreateContentCall;

static META: RuleMeta = RuleMeta {
    code: "MIG001",
    name: "create-content-call",
    summary: "A call of the predecessor create-content API (`generate_content`, `generateContent`)",
    surfaces: "Python, notebooks, JavaScript, TypeScript",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe",
    doc: include_str!("../../rules/docs/MIG001.md"),
};

impl Rule for CreateContentCall {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Settings) -> Vec<String> {
        vec!["generate_content".into(), "generateContent".into()]
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        let create = dialect.create_call(&[]);
        for call in &doc.facts().calls {
            let through = if call.alias.is_some() {
                " (an alias of the create-content method)"
            } else {
                ""
            };
            match call.kind {
                CallKind::Create => {
                    let message = format!(
                        "`{}`{through} calls the predecessor create-content endpoint; use `interactions.create`",
                        call.callee_text
                    );
                    let diagnostic = Diagnostic::new(&META, Severity::Error, message, call.callee.clone());
                    cx.report(match rewrite_to_interactions(call, doc, cx.settings, false) {
                        Ok(edits) => diagnostic.with_fix(Fix::new(
                            crate::diagnostic::Applicability::Unsafe,
                            "Rewrite as `interactions.create(...)`",
                            edits,
                        )),
                        Err(reason) => diagnostic.with_suggestion(format!(
                            "Call `{create}` with the config's entries as plain values; not rewritten \
                             automatically: {reason}"
                        )),
                    });
                }
                CallKind::LegacyCreate { stream: false } => {
                    let message = format!(
                        "`{}` calls the predecessor create-content endpoint through the legacy client",
                        call.callee_text
                    );
                    let client = match dialect {
                        Dialect::JavaScript => "`const ai = new GoogleGenAI({})`",
                        _ => "`client = genai.Client()`",
                    };
                    cx.report(
                        Diagnostic::new(&META, Severity::Error, message, call.callee.clone())
                            .with_suggestion(format!(
                                "Create a client of the current package ({client}) and call `{create}`"
                            )),
                    );
                }
                _ => {}
            }
        }
    }
}
