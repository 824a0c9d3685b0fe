//! MIG004 response-format-placement: structured output requested inside a config.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::migration_facts::CallKind;
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::request_fields::snake_case;
use crate::tables::Tables;

use super::mig::{config_map, rewrite_found_call};
use crate::codegen::request::structured_output::STRUCTURED_OUTPUT_KEYS;
use crate::codegen::writer::Dialect;

pub struct ResponseFormatPlacement;

static META: RuleMeta = RuleMeta {
    code: "MIG004",
    name: "response-format-placement",
    summary: "Structured output requested inside a config instead of a top-level `response_format`",
    surfaces: "Python, notebooks, JavaScript, TypeScript",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe (a nested `response_format` moved); unsafe (mime type and schema combined)",
    doc: include_str!("../../rules/docs/MIG004.md"),
};

impl Rule for ResponseFormatPlacement {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        [
            "response_mime_type",
            "response_schema",
            "responseMimeType",
            "responseSchema",
            "response_format",
            ".parsed",
        ]
        .map(String::from)
        .to_vec()
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        let facts = doc.facts();
        parsed_reads(doc, cx);
        for call in &facts.calls {
            let Some((config, map, editable)) = config_map(call) else {
                continue;
            };
            // The mime type and schema become a top-level `response_format` as part of the
            // request's rewrite (the request-field table's conversion): the fix is that rewrite,
            // so the file is never left with a `response_format` the old endpoint does not read.
            let rewrite = match call.kind {
                CallKind::Create | CallKind::CreateStream => {
                    rewrite_found_call(call, doc, cx, call.kind == CallKind::CreateStream)
                }
                CallKind::Rest { .. } => Err("the request's rewrite (MIG007) carries it".to_string()),
                _ => Err("the legacy client's call is not rewritten".to_string()),
            };
            for entry in &map.entries {
                let key = snake_case(&entry.key);
                // `text/plain` is the default answer, not structured output.
                let plain_text = matches!(&entry.value.kind, crate::migration_facts::ValueKind::Str(v) if v == "text/plain");
                if STRUCTURED_OUTPUT_KEYS.contains(&key.as_str()) && !plain_text {
                    let message = format!(
                        "`{}` requests structured output inside the config; the interactions endpoint takes a \
                         top-level `response_format`",
                        entry.key
                    );
                    let diagnostic =
                        Diagnostic::new(&META, Severity::Error, message, entry.key_range.clone());
                    let advice = match dialect {
                        Dialect::Json => {
                            "Describe the expected output in a top-level `response_format` field of the \
                             interactions request body"
                        }
                        _ => {
                            "Describe the expected output in a top-level `response_format` argument of \
                             `interactions.create`"
                        }
                    };
                    cx.report(match &rewrite {
                        Ok(rewritten) => {
                            let mut fix = Fix::new(
                                Applicability::Unsafe,
                                "Rewrite as `interactions.create(...)` with a top-level `response_format`",
                                rewritten.edits.clone(),
                            );
                            fix.in_file = rewritten.in_file;
                            diagnostic.with_fix(fix)
                        }
                        Err(why) => diagnostic.with_blocked(advice, why),
                    });
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
                        && matches!(config.value.kind, crate::migration_facts::ValueKind::Map(_));
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

/// `response.parsed`: the current client parsed the structured answer itself; an interaction
/// has no `parsed`. The answer's text is parsed instead: `json.loads(...)` (an unsafe fix where
/// `json` is imported, the read is an interaction's, nothing is read from the parsed value as an
/// object and the module has no pydantic model), or a pydantic model's `model_validate_json(...)` (a suggestion).
fn parsed_reads(doc: &Document, cx: &mut RuleContext) {
    let facts = doc.facts();
    let dialect = Dialect::of(doc);
    // A module-level `import json` of its own line.
    let json_imported = doc.text.lines().any(|l| l.trim_end() == "import json");
    // A module that defines or uses pydantic models expects `parsed` to be one (`isinstance(
    // response.parsed, Model)`): a dict would not do.
    let pydantic = doc.text.contains("BaseModel") || doc.text.contains("model_json_schema");
    for read in &facts.reads {
        let crate::migration_facts::ReadKind::Parsed { as_object } = read.kind else {
            continue;
        };
        let written = doc.text.get(read.range.clone()).unwrap_or_default();
        let receiver = doc.text.get(read.receiver.clone()).unwrap_or_default();
        let answer = dialect.answer_text(receiver);
        let message = format!(
            "`{written}` reads the answer the old client parsed by its schema; an interaction has no `parsed`"
        );
        let diagnostic = Diagnostic::new(&META, Severity::Error, message, read.range.clone());
        let migrated = read.origin == crate::migration_facts::Origin::Interaction && read.all_interactions;
        cx.report(if migrated && !as_object && json_imported && !pydantic {
            diagnostic.with_fix(Fix::new(
                Applicability::Unsafe,
                "Parse the answer's text with `json.loads`",
                vec![Edit::replace(read.range.clone(), format!("json.loads({answer})"))],
            ))
        } else {
            let when = if migrated {
                ""
            } else {
                " once the call is `interactions.create` (MIG001)"
            };
            diagnostic.with_suggestion(format!(
                "Parse the answer's text{when}: `json.loads({answer})`, or `Model.model_validate_json({answer})` \
                 for a pydantic model"
            ))
        });
    }
}
