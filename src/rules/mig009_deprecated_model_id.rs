//! MIG009 deprecated-model-id: a model id of the table in `rules/models.toml`, anywhere: retired,
//! deprecated, or one whose migration is recommended.

use std::collections::HashSet;
use std::ops::Range;

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::compared::compared_strings;
use crate::lang::keys::sibling_keys;
use crate::lang::knowledge::{Words, known};
use crate::lang::{Document, Syntax};
use crate::models::{ModelMatch, ModelStatus, with_prefix};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::rules::mig::{rejected_by_newest, requests_naming};
use crate::tables::Tables;

pub struct DeprecatedModelId;

static META: RuleMeta = RuleMeta {
    code: "MIG009",
    name: "deprecated-model-id",
    summary: "A retired or deprecated model id, or one whose migration is recommended",
    surfaces: "all",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe; unsafe in prose, and where the new id changes more than the id (an id a test of the project compares against, settings the new model rejects); none where the id is what the application knows about models (an entry of a list, enum or table, a key, a comparison, a picker's option), the new id is already a sibling key, or no replacement is known",
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
        let found: Vec<_> = doc
            .scan_regions
            .iter()
            .flat_map(|region| cx.settings.matcher.find(&doc.text, region.clone()))
            .collect();
        if found.is_empty() {
            return;
        }
        let ranges: Vec<Range<usize>> = found.iter().map(|f| f.range.clone()).collect();
        let collisions = key_collisions(doc, cx.settings, &ranges);
        let words = Words {
            prefixes: &cx.settings.prefixes,
            assertions: &cx.settings.models.tests.assertions,
        };
        let known = known(doc, &ranges, &words);
        let compared = compared_ids(doc, cx, &found);
        let answered_by = &cx.settings.models.answered_by_keys;
        for (found, known) in found.into_iter().zip(known) {
            let assigned_to = key_before(&doc.text, found.range.start);
            if assigned_to.is_some_and(|key| answered_by.iter().any(|k| k == key)) {
                continue;
            }
            let models = &cx.settings.models;
            let entry = &models.entries[found.entry];
            let written = &doc.text[found.range.clone()];
            let base = with_prefix(&entry.id, &found.prefix);
            let replacement = models.replacement(&found);
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
                cx.report(diagnostic.with_suggestion(
                    "No replacement is known for it: pick its successor from the service's model list",
                ));
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
                if compared.at.contains(&found.range.start) {
                    why.push("a test compares against this id".to_string());
                } else if compared.ids.contains(written) {
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

/// The ids a test file compares against (see [`compared_strings`]): where they are compared,
/// and each id as written. Every occurrence of such an id in the file changes with the
/// comparison or not at all, so its fix is unsafe everywhere in the file.
#[derive(Default)]
struct Compared {
    at: Vec<usize>,
    ids: HashSet<String>,
}

fn compared_ids(doc: &Document, cx: &RuleContext, found: &[ModelMatch]) -> Compared {
    let mut compared = Compared::default();
    if !cx.settings.models.tests.is_test_file(cx.path) {
        return compared;
    }
    for f in compared_matches(doc, cx.settings, found) {
        if let Some(written) = doc.text.get(f.range.clone()) {
            compared.at.push(f.range.start);
            compared.ids.insert(written.to_string());
        }
    }
    compared
}

/// The matches of `found` that are within a string a test compares against.
fn compared_matches<'a>(
    doc: &Document,
    tables: &Tables,
    found: &'a [ModelMatch],
) -> impl Iterator<Item = &'a ModelMatch> {
    let strings = match &doc.syntax {
        Syntax::Lowered(tree) => compared_strings(tree, &doc.text, &tables.models.tests.assertions),
        _ => Vec::new(),
    };
    found.iter().filter(move |f| {
        strings
            .iter()
            .any(|s| s.start <= f.range.start && f.range.end <= s.end)
    })
}

/// The model ids, as written, that a document of a test file compares against: the run
/// collects them from every test file first, so that the id's fix is unsafe in the other files
/// too (a constant in `src/models.py` that `tests/test_models.py` asserts on).
pub fn ids_compared_in(doc: &Document, tables: &Tables) -> Vec<String> {
    let found: Vec<ModelMatch> = doc
        .scan_regions
        .iter()
        .flat_map(|region| tables.matcher.find(&doc.text, region.clone()))
        .collect();
    compared_matches(doc, tables, &found)
        .filter_map(|f| doc.text.get(f.range.clone()).map(str::to_string))
        .collect()
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
