//! MIG009 deprecated-model-id: a model id of the table in `rules/models.toml`, anywhere: retired,
//! deprecated, or one whose migration is recommended. A specialised model (image output, live,
//! speech, embeddings) is never replaced by a text model.

use std::ops::Range;

use crate::analysis::keys::sibling_keys;
use crate::analysis::knowledge::{Words, known};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::{Document, Syntax, ir};
use crate::migration_facts::ValueKind;
use crate::models::{ModelStatus, Specialised, with_prefix};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::request_fields::snake_case;
use crate::rules::mig::{rejected_by_newest, requests_naming, settings_maps};
use crate::tables::Tables;

pub struct DeprecatedModelId;

static META: RuleMeta = RuleMeta {
    code: "MIG009",
    name: "deprecated-model-id",
    summary: "A retired or deprecated model id, or one whose migration is recommended",
    surfaces: "all",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe; unsafe in prose, and where the new id changes more than the id (an id a test of the project compares against, settings the new model rejects, a specialised model's successor of its kind); none where the id is what the application knows about models (an entry of a list, enum or table, a key, a comparison, a picker's option), the new id is already a sibling key, no replacement is known, or a text id is used for image output, speech or a live session (a specialised model is never replaced by a text model)",
    doc: include_str!("../../rules/docs/MIG009.md"),
};

impl Rule for DeprecatedModelId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, settings: &Tables) -> Vec<String> {
        settings.matcher.spellings.clone()
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let analysis = cx.analysis;
        let found = analysis.model_ids();
        if found.is_empty() {
            return;
        }
        let ranges: Vec<Range<usize>> = found.iter().map(|f| f.range.clone()).collect();
        let collisions = key_collisions(doc, cx.settings, &ranges);
        let leads = cx.settings.models.leads();
        let words = Words {
            prefixes: &cx.settings.prefixes,
            assertions: &cx.settings.models.tests.assertions,
            leads: &leads,
        };
        let known = known(doc, &ranges, &words);
        let compared = analysis.compared_ids();
        let answered_by = &cx.settings.models.answered_by_keys;
        let mut kind_sites: Option<Vec<KindCall>> = None;
        for (found, known) in found.iter().zip(known) {
            let assigned_to = key_before(&doc.text, found.range.start);
            if assigned_to.is_some_and(|key| answered_by.iter().any(|k| k == key)) {
                continue;
            }
            let models = &cx.settings.models;
            let entry = &models.entries[found.entry];
            let written = &doc.text[found.range.clone()];
            let base = with_prefix(&entry.id, &found.prefix);
            let kind = models.kind_of(&entry.id);
            let table_replacement = models.replacement(found);
            // A text id used the specialised way (a request asking for images, a live session)
            // is not replaced by its text successor.
            let used_as = match (kind, &table_replacement) {
                (None, Some(_)) => {
                    let calls = kind_sites.get_or_insert_with(|| kind_calls(doc, &models.specialised));
                    specialised_use(doc, cx.settings, calls, &found.range, written, assigned_to)
                }
                _ => None,
            };
            let replacement = table_replacement.clone().filter(|_| used_as.is_none());
            let variant = if written == base {
                String::new()
            } else {
                format!(" (a version of `{base}`)")
            };
            let use_it = replacement
                .as_ref()
                .map(|r| format!("; use `{r}`"))
                .unwrap_or_default();
            let (severity, message) = match entry.status {
                ModelStatus::Retired => (
                    Severity::Error,
                    format!("Model id `{written}`{variant} is retired: requests to it fail{use_it}"),
                ),
                ModelStatus::Deprecated => (
                    Severity::Error,
                    format!("Model id `{written}`{variant} is deprecated{use_it}"),
                ),
                ModelStatus::MigrationRecommended => (
                    Severity::Warning,
                    match &replacement {
                        Some(r) => format!(
                            "Model id `{written}`{variant} is still served, but migration to `{r}` is recommended"
                        ),
                        None => format!(
                            "Model id `{written}`{variant} is still served, but migration is recommended"
                        ),
                    },
                ),
            };
            let mut diagnostic = Diagnostic::new(&META, severity, message, found.range.clone());
            let Some(replacement) = replacement else {
                let successor = |kind: &Specialised| {
                    kind.successor.as_ref().map_or_else(String::new, |s| {
                        format!(
                            "; the service names `{}` for its retired models of this kind",
                            with_prefix(s, &found.prefix)
                        )
                    })
                };
                let suggestion = match (&used_as, kind) {
                    (Some((kind, why)), _) => format!(
                        "Not replaced: {why}, and `{}` is a text model. A specialised use ({}): no \
                         text model replaces it; pick its successor from the service's model list{}",
                        table_replacement.as_deref().unwrap_or_default(),
                        kind.kind,
                        successor(kind)
                    ),
                    (None, Some(kind)) => format!(
                        "A specialised model ({}): no text model replaces it; pick its successor from \
                         the service's model list{}",
                        kind.kind,
                        successor(kind)
                    ),
                    (None, None) => "No replacement is known for it: pick its successor from the \
                                     service's model list"
                        .to_string(),
                };
                cx.report(diagnostic.with_suggestion(suggestion));
                continue;
            };
            if let Some(collision) = collisions
                .iter()
                .find(|c| c.key.start <= found.range.start && found.range.end <= c.key.end)
            {
                let why = if collision.existing {
                    "the same mapping already has that key"
                } else {
                    "another key of the same mapping becomes it too"
                };
                diagnostic = diagnostic.with_suggestion(format!(
                    "Not replaced: this key would become `{}`, and {why}; a mapping with a repeated key no \
                     longer loads (TOML) or keeps only one of the values (JSON, YAML, dicts). Merge the \
                     entries by hand",
                    collision.becomes
                ));
            } else if let Some(known) = known.filter(|_| written != replacement) {
                diagnostic = diagnostic.with_suggestion(format!(
                    "Not replaced: the id is {}, which is what the application knows about models, \
                     not a request; replacing it would change what the code does (two entries of \
                     a table made one model, a branch for the old model left dead). Review it by hand",
                    known.describe()
                ));
            } else if written != replacement {
                let mut why: Vec<String> = Vec::new();
                if let Some(kind) = kind {
                    why.push(kind.caution.clone().unwrap_or_else(|| {
                        format!(
                            "a specialised model ({}): review the new one's settings",
                            kind.kind
                        )
                    }));
                }
                if compared.at.contains(&found.range.start) {
                    why.push("a test compares against this id".to_string());
                } else if compared.ids.iter().any(|id| id == written) {
                    why.push("a test in this file compares against this id".to_string());
                } else if let Some(test) = cx.settings.compared_in_tests.test_of(written, cx.path) {
                    why.push(format!("a test in `{test}` compares against this id"));
                }
                if cx.settings.is_newest_generation(&replacement) {
                    why.extend(rejected_settings(
                        doc,
                        cx.settings,
                        &found.range,
                        written,
                        assigned_to,
                    ));
                }
                // Prose may name an old id on purpose (a changelog, a deprecation list).
                let (applicability, title) = if doc.surface.is_prose() {
                    (
                        Applicability::Unsafe,
                        format!("Replace with `{replacement}` (prose may name the old id on purpose)"),
                    )
                } else if !why.is_empty() {
                    (
                        Applicability::Unsafe,
                        format!("Replace with `{replacement}` ({})", why.join("; ")),
                    )
                } else {
                    (Applicability::Safe, format!("Replace with `{replacement}`"))
                };
                diagnostic = diagnostic.with_fix(Fix::new(
                    applicability,
                    title,
                    vec![Edit::replace(found.range.clone(), replacement)],
                ));
            }
            cx.report(diagnostic);
        }
    }
}

/// Why the id at `range` may not change safely when its replacement is of the newest
/// generation: the requests naming it send settings that generation rejects (MIG010 would
/// then remove or rewrite them, a side effect of the id change). In a notebook the requests
/// are those of the module its code cells make (a model bound in one cell, used in another).
fn rejected_settings(
    doc: &Document,
    settings: &Tables,
    range: &Range<usize>,
    id: &str,
    assigned_to: Option<&str>,
) -> Option<String> {
    let (calls, range) = match &doc.module {
        Some((module, base)) => (&module.doc.facts().calls, range.start + base..range.end + base),
        None => (&doc.facts().calls, range.clone()),
    };
    let mut names: Vec<String> = Vec::new();
    for call in requests_naming(calls, &range, id, assigned_to) {
        for entry in rejected_by_newest(call, settings) {
            let name = format!("`{}`", entry.key);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let (last, rest) = names.split_last()?;
    let listed = if rest.is_empty() {
        last.clone()
    } else {
        format!("{} and {last}", rest.join(", "))
    };
    Some(format!(
        "the new model rejects {listed}, which the request sends; MIG010"
    ))
}

/// The key whose value starts at `start` (`"modelVersion": "`, `model_version=`, `modelVersion: `),
/// read back on the same line.
fn key_before(text: &str, start: usize) -> Option<&str> {
    // The key is just before the value: a window of the line, not the whole line back to its
    // start (a minified bundle is one line, with an id every few hundred bytes).
    const WINDOW: usize = 256;
    let from = crate::source::floor_char_boundary(text, start.saturating_sub(WINDOW));
    let line = text.get(from..start)?;
    let line = &line[line.rfind('\n').map_or(0, |i| i + 1)..];
    let before = line.trim_end_matches(['"', '\'', ' ', '\t']);
    let before = before.strip_suffix([':', '='])?.trim_end();
    let before = before.trim_end_matches(['"', '\'']);
    let key_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    Some(&before[key_start..])
}

/// A mapping key with a model id that cannot be replaced: the key it would become is another
/// key of the same mapping, already or once that key's own ids are replaced.
struct KeyCollision {
    key: Range<usize>,
    becomes: String,
    /// The mapping already has the key it would become.
    existing: bool,
}

/// The values of one group (a mapping's keys, a collection's elements) whose replaced id would
/// equal another value of the group, as written or replaced too, where the two differ now: each
/// with its index, what it becomes, and whether a value of the group already is that.
fn clashes(values: &[&str], settings: &Tables) -> Vec<(usize, String, bool)> {
    let after: Vec<String> = values
        .iter()
        .map(|v| settings.matcher.replace_all(&settings.models, v))
        .collect();
    let mut out = Vec::new();
    for (i, (value, becomes)) in values.iter().zip(&after).enumerate() {
        if becomes == value {
            continue;
        }
        let clash = values
            .iter()
            .zip(&after)
            .any(|(other, other_after)| other != value && other_after == becomes);
        if clash {
            out.push((i, becomes.clone(), values.iter().any(|other| other == becomes)));
        }
    }
    out
}

fn key_collisions(doc: &Document, settings: &Tables, ranges: &[Range<usize>]) -> Vec<KeyCollision> {
    let mut collisions = Vec::new();
    for group in sibling_keys(doc, ranges) {
        let values: Vec<&str> = group.iter().map(|k| k.text.as_str()).collect();
        for (i, becomes, existing) in clashes(&values, settings) {
            collisions.push(KeyCollision {
                key: group[i].range.clone(),
                becomes,
                existing,
            });
        }
    }
    collisions
}

/// Where a specialised kind's call (`live.connect`) names its model: the kind, the callee as
/// written, and the ranges that hold the model: the argument, and when it is a name, the values
/// assigned to that name in the document (`MODEL = "..."`, `const model = "..."`).
struct KindCall {
    kind: usize,
    callee: String,
    model: Vec<Range<usize>>,
}

/// The kinds' calls of a document (of its module, in a notebook), found once per document and
/// only when its text writes one of them.
fn kind_calls(doc: &Document, kinds: &[Specialised]) -> Vec<KindCall> {
    let doc = match &doc.module {
        Some((module, _)) => &module.doc,
        None => doc,
    };
    let written = kinds
        .iter()
        .flat_map(|k| &k.calls)
        .any(|c| doc.text.contains(c.as_str()));
    let Syntax::Lowered(tree) = &doc.syntax else {
        return Vec::new();
    };
    if !written {
        return Vec::new();
    }
    let mut found = Vec::new();
    for node in tree.descendants(tree.root()) {
        let ir::Kind::Call(call) = tree.kind(node) else {
            continue;
        };
        let Some(callee) = tree.dotted(call.callee) else {
            continue;
        };
        let Some(kind) = kinds.iter().position(|k| {
            k.calls.iter().any(|c| {
                callee == *c
                    || callee
                        .strip_suffix(c.as_str())
                        .is_some_and(|rest| rest.ends_with('.'))
            })
        }) else {
            continue;
        };
        // Python's `model=` keyword, or the `model` property of a JavaScript call's object.
        let model = call.keyword("model").or_else(|| {
            call.args
                .iter()
                .find_map(|arg| match tree.kind(tree.unwrap(arg.value)) {
                    ir::Kind::Dict(dict) if arg.kind == ir::ArgKind::Positional => dict
                        .items
                        .iter()
                        .find(|e| e.key.text() == Some("model"))
                        .map(|e| e.value),
                    _ => None,
                })
        });
        if let Some(model) = model.map(|m| tree.unwrap(m)) {
            let mut held = vec![tree.range(model)];
            if let Some(name) = tree.name(model) {
                held.extend(assigned_values(tree, name));
            }
            found.push(KindCall {
                kind,
                callee,
                model: held,
            });
        }
    }
    found
}

/// The ranges of the values a document assigns to the name `name`, in any scope.
fn assigned_values(tree: &ir::Tree, name: &str) -> Vec<Range<usize>> {
    tree.descendants(tree.root())
        .into_iter()
        .filter_map(|node| match tree.kind(node) {
            ir::Kind::Assign(assign) => {
                let value = assign.value?;
                assign
                    .targets
                    .iter()
                    .any(|&t| tree.name(t) == Some(name))
                    .then(|| tree.range(value))
            }
            _ => None,
        })
        .collect()
}

/// How a text id written at `range` is used the way of a specialised kind, and the reason in
/// words: a request naming it (as [`requests_naming`] finds them) asks for one of the kind's
/// output modalities (`response_modalities: ["TEXT", "IMAGE"]`), or it is the model of one of
/// the kind's calls (`client.aio.live.connect(model=...)`), written there or assigned to the
/// name written there (`MODEL = "..."`). In a notebook the requests and calls are those of the module
/// its code cells make.
fn specialised_use<'t>(
    doc: &Document,
    settings: &'t Tables,
    calls: &[KindCall],
    range: &Range<usize>,
    id: &str,
    assigned_to: Option<&str>,
) -> Option<(&'t Specialised, String)> {
    let kinds = &settings.models.specialised;
    let (doc, range) = match &doc.module {
        Some((module, base)) => (&module.doc, range.start + base..range.end + base),
        None => (doc, range.clone()),
    };
    for call in requests_naming(&doc.facts().calls, &range, id, assigned_to) {
        for entry in settings_maps(call).into_iter().flat_map(|map| map.entries) {
            if snake_case(&entry.key) != "response_modalities" {
                continue;
            }
            let value = match &entry.value.kind {
                ValueKind::Name(name) => name.value.as_ref().unwrap_or(&entry.value),
                _ => &entry.value,
            };
            let Some(written) = doc.text.get(value.range.clone()) else {
                continue;
            };
            let words = written.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            for word in words.filter(|w| !w.is_empty()) {
                if let Some(kind) = kinds
                    .iter()
                    .find(|k| k.modalities.iter().any(|m| m.eq_ignore_ascii_case(word)))
                {
                    return Some((
                        kind,
                        format!(
                            "the request asks for {} (`{}` holds `{word}`)",
                            kind.kind, entry.key
                        ),
                    ));
                }
            }
        }
    }
    calls.iter().find_map(|call| {
        let names_it = call
            .model
            .iter()
            .any(|held| held.start <= range.start && range.end <= held.end);
        let kind = kinds.get(call.kind).filter(|_| names_it)?;
        Some((
            kind,
            format!(
                "the id is the model of a {} session (`{}`)",
                kind.kind, call.callee
            ),
        ))
    })
}
