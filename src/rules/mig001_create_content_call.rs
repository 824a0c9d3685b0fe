//! MIG001 create-content-call: a call of the predecessor create-content API.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::migration_facts::{Call, CallKind, Entry, ValueKind};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::request_fields::snake_case;
use crate::tables::Tables;

use super::mig::rewrite_found_call;
use crate::codegen::writer::Dialect;

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

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        vec![
            "generate_content".into(),
            "generateContent".into(),
            "interactions".into(),
        ]
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        let create = dialect.create_call(&[]);
        if !cx.analysis.own_legacy_code() && !cx.analysis.own_current_code() {
            super::mig::report_unfollowed(
                cx,
                doc,
                &META,
                &[crate::analysis::unfollowed::Kind::Create],
                &|callee| {
                    format!(
                        "`{callee}` calls the predecessor create-content endpoint; use `interactions.create`"
                    )
                },
                &format!("Call `{create}` on a client of the current package"),
            );
        }
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
                    cx.report(match rewrite_found_call(call, doc, cx, false) {
                        Ok(rewritten) => diagnostic.with_fix(rewritten.fix(
                            Applicability::Unsafe,
                            format!(
                                "Rewrite as `interactions.create(...)`{}",
                                super::mig::dropping(call, &doc.text, cx.settings)
                            ),
                        )),
                        Err(reason) => super::mig::blocked(
                            diagnostic,
                            &format!("Call `{create}` with the config's entries as plain values"),
                            reason,
                            call.range.start,
                            cx.analysis,
                        ),
                    });
                }
                CallKind::LegacyCreate { stream: false } => {
                    // The legacy package's own code and tests use it by design.
                    if cx.analysis.own_legacy_code() {
                        continue;
                    }
                    let message = format!(
                        "`{}` calls the predecessor create-content endpoint through the legacy client",
                        call.callee_text
                    );
                    let client = match dialect {
                        Dialect::JavaScript => "`const ai = new GoogleGenAI({})`",
                        _ => "`client = genai.Client()`",
                    };
                    let advice =
                        format!("Create a client of the current package ({client}) and call `{create}`");
                    let diagnostic = Diagnostic::new(&META, Severity::Error, message, call.callee.clone());
                    cx.report(super::legacy::with_unit_fix(
                        diagnostic,
                        call,
                        doc,
                        cx.settings,
                        cx.analysis,
                        &advice,
                    ));
                }
                CallKind::Interactions if dialect == Dialect::JavaScript => {
                    camel_case_fields(call, cx);
                }
                _ => {}
            }
        }
    }
}

/// An interactions request written in JavaScript with the old camelCase names
/// (`generationConfig: { maxOutputTokens }`): the interactions types are snake_case, so each
/// such key is a finding with an unsafe fix to its snake_case name.
fn camel_case_fields(call: &Call, cx: &mut RuleContext) {
    let fields = &cx.settings.fields;
    let mut keys: Vec<&Entry> = call.args.iter().collect();
    for entry in &call.args {
        if snake_case(&entry.key) == "generation_config"
            && let ValueKind::Map(map) = &entry.value.kind
        {
            keys.extend(map.entries.iter());
        }
    }
    let mut found = Vec::new();
    for entry in keys {
        let snake = snake_case(&entry.key);
        if snake == entry.key || !fields.is_interactions_name(&snake) {
            continue;
        }
        let message = format!(
            "`{}` in an interactions request: the interactions endpoint's names are snake_case (`{snake}`)",
            entry.key
        );
        // `{ generationConfig }` names a variable too: keep it as the value.
        let edit = if entry.key_range == entry.value.range {
            Edit::replace(entry.range.clone(), format!("{snake}: {}", entry.key))
        } else {
            Edit::replace(entry.key_range.clone(), snake.clone())
        };
        found.push(
            Diagnostic::new(&META, Severity::Error, message, entry.key_range.clone()).with_fix(Fix::new(
                Applicability::Unsafe,
                format!("Rename to `{snake}`"),
                vec![edit],
            )),
        );
    }
    for diagnostic in found {
        cx.report(diagnostic);
    }
}
