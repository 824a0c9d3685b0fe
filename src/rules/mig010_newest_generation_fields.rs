//! MIG010 newest-generation-fields: sampling fields and thinking budgets sent to a model of the
//! newest generation.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::migration_facts::{Call, CallKind, Entry, Facts, MapValue, ValueKind};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::request_fields::{camel_case, snake_case};
use crate::tables::Tables;

use super::mig::{budget_of, removal_edits, settings_maps, thinking_budget};
use crate::codegen::request::is_newest;
use crate::codegen::writer::Dialect;
use crate::codegen::writer::imports::client_member;

pub struct NewestGenerationFields;

static META: RuleMeta = RuleMeta {
    code: "MIG010",
    name: "newest-generation-fields",
    summary: "`temperature`, `top_p`, `top_k` or `thinking_budget` sent to a model of the newest generation",
    surfaces: "Python, notebooks, JavaScript, TypeScript, REST bodies (curl, .http, JSON, Rust)",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe or unsafe",
    doc: include_str!("../../rules/docs/MIG010.md"),
};

impl Rule for NewestGenerationFields {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        ["temperature", "top_p", "top_k", "topP", "topK", "thinking"]
            .map(String::from)
            .to_vec()
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let facts = doc.facts();
        for call in &facts.calls {
            if !is_newest(call, cx.settings) {
                continue;
            }
            for map in settings_maps(call) {
                // An interactions request's `generation_config` (a REST body's
                // `generationConfig`) left empty goes as a whole.
                let whole = map.config.filter(|config| {
                    matches!(call.kind, CallKind::Interactions | CallKind::Rest { .. })
                        && matches!(config.value.kind, ValueKind::Map(_))
                });
                check_map(doc, facts, call, map.entries, map.editable, whole, cx);
            }
        }
    }
}

fn model_name(call: &Call) -> String {
    match &call.model {
        crate::migration_facts::ModelRef::Literal(id) => id.clone(),
        _ => String::new(),
    }
}

fn check_map(
    doc: &Document,
    facts: &Facts,
    call: &Call,
    entries: &[Entry],
    editable: bool,
    whole: Option<&Entry>,
    cx: &mut RuleContext,
) {
    let settings = cx.settings;
    let model = model_name(call);
    let sampling: Vec<&Entry> = entries
        .iter()
        .filter(|e| settings.fields.is_sampling(&e.key))
        .collect();
    let (edits, deletes_comment) = match whole {
        Some(container) if sampling.len() == entries.len() => removal_edits(&[container], facts, &doc.text),
        _ => removal_edits(&sampling, facts, &doc.text),
    };
    for entry in &sampling {
        let message = format!("`{}` is not accepted by `{model}` (newest generation)", entry.key);
        let diagnostic = Diagnostic::new(&META, Severity::Error, message, entry.key_range.clone());
        cx.report(if editable {
            let applicability = if deletes_comment {
                Applicability::Unsafe
            } else {
                Applicability::Safe
            };
            let names: Vec<String> = sampling.iter().map(|e| format!("`{}`", e.key)).collect();
            diagnostic.with_fix(Fix::new(
                applicability,
                format!("Remove {}", names.join(", ")),
                edits.clone(),
            ))
        } else {
            diagnostic.with_suggestion("Remove the field from the config (it is shared or built elsewhere)")
        });
    }
    let level_set = entries.iter().any(|e| snake_case(&e.key) == "thinking_level")
        || entries
            .iter()
            .filter(|e| snake_case(&e.key) == "thinking_config")
            .filter_map(|e| e.value.resolved_map())
            .any(|m| m.entries.iter().any(|e| snake_case(&e.key) == "thinking_level"));
    for (budget, config) in entries.iter().filter_map(budget_of) {
        // A `thinking_config` is rewritten in place when it is written in the request.
        let inline = config.is_none_or(|(entry, _)| matches!(entry.value.kind, ValueKind::Map(_)));
        thinking(doc, call, budget, config, editable && inline, level_set, cx);
    }
}

/// A thinking budget: mapped to a thinking level (unsafe), or reported when a level is set too.
fn thinking(
    doc: &Document,
    call: &Call,
    budget: &Entry,
    config: Option<(&Entry, &MapValue)>,
    editable: bool,
    level_set: bool,
    cx: &mut RuleContext,
) {
    let settings = cx.settings;
    let dialect = Dialect::of(doc);
    let model = model_name(call);
    if level_set {
        let message =
            "`thinking_budget` and `thinking_level` are both set; the service rejects the two together";
        cx.report(
            Diagnostic::new(&META, Severity::Error, message, budget.key_range.clone())
                .with_suggestion("Keep `thinking_level` and remove `thinking_budget`"),
        );
        return;
    }
    let message = format!(
        "`{}` is replaced by `thinking_level` for `{model}` (newest generation)",
        budget.key
    );
    let diagnostic = Diagnostic::new(&META, Severity::Error, message, budget.key_range.clone());
    let Some(n) = thinking_budget(budget).filter(|_| editable) else {
        cx.report(diagnostic.with_suggestion(format!(
                "Set `thinking_level` ({}); the mapping from a budget is in rules/request_fields.toml",
                settings
                    .fields
                    .thinking
                    .levels
                    .iter()
                    .map(|l| l.level.as_str())
                    .chain([settings.fields.thinking.above.as_str()])
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        return;
    };
    let level = settings.fields.thinking_level(n);
    let mut level_value = dialect.string(level);
    let mut imports = Vec::new();
    // The predecessor's typed config takes the level as a member of the client's enum
    // (`types.ThinkingLevel.LOW`), which its types check (pyright, tsc); an interactions request
    // (and a REST body) takes the string, and so does a request MIG001 rewrites (it writes the
    // level itself: an import for the enum would be left unused).
    let typed = match call.kind {
        CallKind::Create | CallKind::CreateStream => {
            let stream = call.kind == CallKind::CreateStream;
            super::mig::rewrite_found_call(call, doc, cx, stream).is_err()
        }
        CallKind::ChatCreate => true,
        _ => false,
    };
    let spelling = match dialect {
        Dialect::Python if typed => Some(&crate::clients::spellings().python),
        Dialect::JavaScript if typed => Some(&crate::clients::spellings().javascript),
        _ => None,
    };
    if let Some(spelling) = spelling {
        let member = format!("{}.{}", spelling.thinking_level, level.to_ascii_uppercase());
        let Some((name, edits)) = client_member(
            doc,
            &spelling.types_module,
            &spelling.thinking_level,
            budget.range.start,
        ) else {
            cx.report(diagnostic.with_suggestion(format!(
                "Set `thinking_level` to `{member}` (budget {n}, by the documented heuristic), with `{}` imported from `{}`",
                spelling.thinking_level, spelling.types_module
            )));
            return;
        };
        level_value = format!("{name}.{}", level.to_ascii_uppercase());
        imports = edits;
    }
    // In the predecessor's typed config the level sits inside `thinking_config`; in an
    // interactions request the whole `thinking_config` entry becomes `thinking_level`.
    let edit = match config {
        Some((entry, inner)) if call.kind == CallKind::Interactions => {
            if inner.entries.len() != 1 {
                cx.report(diagnostic.with_suggestion(format!("Set `thinking_level` to {level_value}")));
                return;
            }
            Edit::replace(
                entry.range.clone(),
                dialect.entry("thinking_level", &level_value, entry.keyword),
            )
        }
        // A predecessor config keeps its own spelling (`thinkingBudget` → `thinkingLevel`).
        _ => {
            let key = if budget.key.contains(|c: char| c.is_ascii_uppercase()) {
                camel_case("thinking_level")
            } else {
                "thinking_level".to_string()
            };
            Edit::replace(
                budget.range.clone(),
                dialect.entry(&key, &level_value, budget.keyword),
            )
        }
    };
    imports.push(edit);
    cx.report(diagnostic.with_fix(Fix::new(
        Applicability::Unsafe,
        format!("Set `thinking_level` to {level_value} (budget {n}, by the documented heuristic)"),
        imports,
    )));
}
