//! MIG004 response-format-placement: structured output requested inside a config.

use crate::api::CallKind;
use crate::diagnostic::{Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::request_fields::snake_case;
use crate::settings::Settings;

use super::request::{Dialect, config_map};

pub struct ResponseFormatPlacement;

static META: RuleMeta = RuleMeta {
    code: "MIG004",
    name: "response-format-placement",
    summary: "Structured output requested inside a config instead of a top-level `response_format`",
    surfaces: "Python, notebooks, JavaScript, TypeScript",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe",
    doc: include_str!("../../rules/docs/MIG004.md"),
};

/// Config keys that request structured output the predecessor way.
const CONFIG_KEYS: &[&str] = &["response_mime_type", "response_schema", "response_json_schema"];

impl Rule for ResponseFormatPlacement {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Settings) -> Vec<String> {
        [
            "response_mime_type",
            "response_schema",
            "responseMimeType",
            "responseSchema",
            "response_format",
        ]
        .map(String::from)
        .to_vec()
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        let facts = doc.facts();
        for call in &facts.calls {
            let Some((config, map, editable)) = config_map(call) else {
                continue;
            };
            for entry in &map.entries {
                let key = snake_case(&entry.key);
                // `text/plain` is the default answer, not structured output.
                let plain_text =
                    matches!(&entry.value.kind, crate::api::ValueKind::Str(v) if v == "text/plain");
                if CONFIG_KEYS.contains(&key.as_str()) && !plain_text {
                    let message = format!(
                        "`{}` requests structured output inside the config; the interactions endpoint takes a \
                         top-level `response_format`",
                        entry.key
                    );
                    cx.report(
                        Diagnostic::new(&META, Severity::Error, message, entry.key_range.clone())
                            .with_suggestion(match dialect {
                                Dialect::Json => {
                                    "Describe the expected output in a top-level `response_format` field of the \
                                     interactions request body"
                                }
                                _ => {
                                    "Describe the expected output in a top-level `response_format` argument of \
                                     `interactions.create`"
                                }
                            }),
                    );
                } else if key == "response_format" {
                    let message =
                        "`response_format` is nested in the config; it is a top-level request field";
                    let diagnostic =
                        Diagnostic::new(&META, Severity::Error, message, entry.key_range.clone());
                    let value = doc.text.get(entry.value.range.clone()).unwrap_or_default();
                    let movable = call.kind == CallKind::Interactions
                        && editable
                        && call.arg("response_format").is_none()
                        && !facts.has_comment_in(&entry.removal)
                        && matches!(config.value.kind, crate::api::ValueKind::Map(_));
                    cx.report(if movable {
                        let sep = call.argument_separator();
                        diagnostic.with_fix(Fix::safe(
                            "Move `response_format` to the top level of the request",
                            vec![
                                Edit::replace(entry.removal.clone(), ""),
                                Edit::replace(
                                    call.insert_at..call.insert_at,
                                    format!("{sep}{}", dialect.argument("response_format", value)),
                                ),
                            ],
                        ))
                    } else {
                        diagnostic
                            .with_suggestion("Pass `response_format` as a top-level argument of the request")
                    });
                }
            }
        }
    }
}
