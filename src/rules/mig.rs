//! Helpers the MIG rules share: the words that tie a file to the API, the config of a request,
//! its thinking budget, and the rewrite of a call a rule found (the rewrite itself is
//! [`crate::codegen::request`]'s).

use std::ops::Range;

use crate::analysis::{Analysis, no_counterpart};
use crate::codegen::request::{Rewritten, rewrite_to_interactions};
use crate::diagnostic::{Diagnostic, Edit, ReasonClass};
use crate::lang::Document;
use crate::migration_facts::{Call, CallKind, Entry, Facts, MapValue, ModelRef, ResultUse, Value, ValueKind};
use crate::request_fields::snake_case;
use crate::tables::Tables as Settings;

/// The names of the argument holding a request's generation settings (the legacy JavaScript
/// client spells it `generationConfig`).
pub fn config_arguments(kind: CallKind) -> &'static [&'static str] {
    match kind {
        CallKind::Create | CallKind::CreateStream | CallKind::ChatCreate => &["config"],
        CallKind::Interactions
        | CallKind::LegacyCreate { .. }
        | CallKind::LegacyModel
        | CallKind::StartChat
        | CallKind::Rest { .. } => &["generation_config", "generationConfig"],
        CallKind::SendMessage => &[],
    }
}

/// The words that tie a file to the API: a MIG rule runs only on a file that holds one (its
/// triggers alone may be ordinary words). Call names and body keys (rules/endpoint.toml), the
/// client packages and their modules (rules/clients.toml, with `import genai` for `from google
/// import genai`), and every model id the rules know, deprecated or of the newest generation.
pub fn anchors(settings: &Settings) -> Option<Vec<String>> {
    let endpoint = &crate::endpoint::MATCHER.endpoint;
    let mut words: Vec<String> = endpoint.anchors.calls.clone();
    words.extend(endpoint.anchors.bodies.iter().cloned());
    words.extend(endpoint.predecessor.methods.iter().cloned());
    words.extend(endpoint.predecessor.stream_methods.iter().cloned());
    words.push(endpoint.interactions.path.clone());
    words.extend(client_words(settings));
    for packages in [&settings.clients.python, &settings.clients.javascript] {
        words.extend(packages.current_modules.iter().cloned());
        for module in packages.current_modules.iter().chain(&packages.legacy_modules) {
            if let Some((_, leaf)) = module.rsplit_once('.') {
                words.push(format!("import {leaf}"));
            }
        }
        words.extend(packages.other_legacy_modules.iter().cloned());
    }
    words.extend(settings.matcher.spellings.iter().cloned());
    for newest in &settings.models.newest_generation {
        words.extend(
            settings
                .prefixes
                .iter()
                .map(|p| crate::models::with_prefix(newest, p)),
        );
    }
    Some(words)
}

/// The client packages, current and legacy, as installed and as imported (`google-genai`,
/// `google_genai`, `google.generativeai`, `@google/genai`).
pub fn client_words(settings: &Settings) -> Vec<String> {
    let (p, js) = (&settings.clients.python, &settings.clients.javascript);
    let mut words: Vec<String> = [p, js]
        .iter()
        .flat_map(|packages| {
            packages
                .current
                .iter()
                .chain(&packages.legacy)
                .chain(&packages.legacy_modules)
        })
        .cloned()
        .collect();
    // `google_genai`, `google.genai` spell the same package.
    words.extend(words.clone().iter().map(|w| w.replace('-', "_")));
    words
}

/// A request's config map and whether it may be edited in place (a literal in the call, or a
/// literal bound once in the same scope and used only here).
pub fn config_map(call: &Call) -> Option<(&Entry, &MapValue, bool)> {
    let entry = config_arguments(call.kind)
        .iter()
        .find_map(|name| call.arg(name))?;
    match &entry.value.kind {
        ValueKind::Map(map) => Some((entry, map, true)),
        ValueKind::Name(name) => {
            let map = name.value.as_ref()?.as_map()?;
            Some((entry, map, name.single_use))
        }
        _ => None,
    }
}

/// Entries of a request that hold its generation settings, as MIG010 reads them.
pub struct SettingsMap<'c> {
    /// The config argument holding the entries; `None` for the call's own arguments.
    pub config: Option<&'c Entry>,
    pub entries: &'c [Entry],
    /// The entries may be edited in place (see [`config_map`]).
    pub editable: bool,
}

/// A request's generation settings: its config map and, for an interactions call, its own
/// arguments (where the sampling fields may be given straight). A chat's later turn has none of
/// its own: its chat's creation holds them.
pub fn settings_maps(call: &Call) -> Vec<SettingsMap<'_>> {
    let mut maps = Vec::new();
    if call.kind == CallKind::SendMessage {
        return maps;
    }
    if let Some((config, map, editable)) = config_map(call) {
        maps.push(SettingsMap {
            config: Some(config),
            entries: &map.entries,
            editable,
        });
    }
    if call.kind == CallKind::Interactions {
        maps.push(SettingsMap {
            config: None,
            entries: &call.args,
            editable: true,
        });
    }
    maps
}

/// A thinking budget among a request's settings: `thinking_budget` itself, or a
/// `thinking_config` holding one (then with the config entry and its map).
pub fn budget_of(entry: &Entry) -> Option<(&Entry, Option<(&Entry, &MapValue)>)> {
    match snake_case(&entry.key).as_str() {
        "thinking_budget" => Some((entry, None)),
        "thinking_config" => {
            let inner = entry.value.resolved_map()?;
            let budget = inner
                .entries
                .iter()
                .find(|e| snake_case(&e.key) == "thinking_budget")?;
            Some((budget, Some((entry, inner))))
        }
        _ => None,
    }
}

/// The settings a request sends that a model of the newest generation rejects, as MIG010 finds
/// them: the sampling fields (`temperature`, `top_p`, `top_k`, either spelling) and thinking
/// budgets (`thinking_budget`, alone or in a `thinking_config`).
pub fn rejected_by_newest<'c>(call: &'c Call, settings: &Settings) -> Vec<&'c Entry> {
    settings_maps(call)
        .into_iter()
        .flat_map(|map| map.entries)
        .filter_map(|e| match budget_of(e) {
            Some((budget, _)) => Some(budget),
            None => settings.fields.is_sampling(&e.key).then_some(e),
        })
        .collect()
}

/// The requests whose model is the id `id` written at `range` (assigned to the name
/// `assigned_to` there, as in `MODEL = "..."`, when it is): a request naming it in its `model`
/// (`model_name`) argument, or its first positional one for a legacy model's constructor, as a
/// literal, as the literal a name there is bound to in the same scope, or as that name when it
/// resolves to the id (a module's constant read in a function); a REST request naming it in its
/// URL; and the requests made through a legacy model constructed with it (found by the id they
/// resolve to, as a legacy model's request holds no place of its model).
pub fn requests_naming<'c>(
    calls: &'c [Call],
    range: &Range<usize>,
    id: &str,
    assigned_to: Option<&str>,
) -> Vec<&'c Call> {
    let holds = |r: &Range<usize>| r.start <= range.start && range.end <= r.end;
    let resolves_to_id = |call: &Call| matches!(&call.model, ModelRef::Literal(m) if m.strip_prefix("models/").unwrap_or(m) == id);
    let names = |call: &Call| {
        let mut values: Vec<&Value> = ["model", "model_name"]
            .iter()
            .filter_map(|name| call.arg(name))
            .map(|entry| &entry.value)
            .collect();
        if call.kind == CallKind::LegacyModel {
            values.extend(call.positional.first());
        }
        let mut sites: Vec<&Range<usize>> = Vec::new();
        for value in values {
            sites.push(&value.range);
            if let ValueKind::Name(name) = &value.kind {
                sites.extend(name.value.as_ref().map(|v| &v.range));
                if assigned_to == Some(name.name.as_str()) && resolves_to_id(call) {
                    return true;
                }
            }
        }
        if matches!(call.kind, CallKind::Rest { .. }) {
            sites.push(&call.callee);
        }
        sites.into_iter().any(holds)
    };
    let mut requests: Vec<&Call> = calls.iter().filter(|c| names(c)).collect();
    let legacy: Vec<&String> = requests
        .iter()
        .filter(|c| c.kind == CallKind::LegacyModel)
        .filter_map(|c| match &c.model {
            ModelRef::Literal(id) => Some(id),
            _ => None,
        })
        .collect();
    if !legacy.is_empty() {
        requests.extend(calls.iter().filter(|c| {
            matches!(c.kind, CallKind::LegacyCreate { .. } | CallKind::StartChat)
                && matches!(&c.model, ModelRef::Literal(id) if legacy.contains(&id))
        }));
    }
    requests
}

/// The edits deleting `entries` of one container of `text`, merged into one set so that
/// neighbours do not wait for each other's pass, and whether they delete a comment (of the
/// entries: the comments of the entries kept stay, see [`crate::codegen::writer::edits::removal_ranges`]).
pub fn removal_edits(entries: &[&Entry], facts: &Facts, text: &str) -> (Vec<Edit>, bool) {
    let merged = crate::codegen::writer::edits::removal_ranges(entries, text, &facts.comments);
    let deletes_comment = merged.iter().any(|r| facts.has_comment_in(r));
    (
        merged.into_iter().map(|r| Edit::replace(r, "")).collect(),
        deletes_comment,
    )
}

/// The thinking level a `thinking_config` / `thinking_budget` value maps to.
pub fn thinking_budget(entry: &Entry) -> Option<i64> {
    match &entry.value.kind {
        ValueKind::Int(n) => Some(*n),
        ValueKind::Map(map) => {
            let budget = map
                .entries
                .iter()
                .find(|e| snake_case(&e.key) == "thinking_budget")?;
            match budget.value.kind {
                ValueKind::Int(n) => Some(n),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Why a create-content call of the current package's own code or tests is not rewritten.
pub const OWN_CURRENT_CODE: &str = "this is the client package's own code or test of the \
     create-content method; a rewrite would change what it tests";

/// [`rewrite_to_interactions`] of a call found by a rule, except in the current package's own
/// code and tests, which call the create-content method by design
/// ([`Analysis::own_current_code`](crate::analysis::Analysis::own_current_code)).
pub fn rewrite_found_call(
    call: &Call,
    doc: &Document,
    cx: &crate::registry::RuleContext,
    stream: bool,
) -> Result<Rewritten, String> {
    if cx.analysis.own_current_code() {
        return Err(OWN_CURRENT_CODE.to_string());
    }
    rewrite_to_interactions(call, doc, cx.settings, stream)
}

/// What a rewrite of `call` drops, for its fix's message: `, dropping `top_k=40` (no
/// counterpart in an interactions request)`, or nothing.
pub fn dropping(call: &Call, text: &str, settings: &Settings) -> String {
    let dropped: Vec<String> = settings_maps(call)
        .iter()
        .flat_map(|map| crate::codegen::request::fields::dropped_settings(map.entries, text, settings))
        .collect();
    if dropped.is_empty() {
        return String::new();
    }
    format!(
        ", dropping {} (no counterpart in an interactions request)",
        dropped.join(", ")
    )
}

/// A finding whose migration unit (its call at `at`) is left alone, with the reason that really
/// blocks it: what the module depends on that the interactions API lacks (read or set anywhere
/// in it, nearest first, with their lines) comes before the code generator's `reason`, which is
/// most often a limit of the analysis; a reason of the unit's own that is not such a limit
/// (a read of its result with no counterpart, another SDK) is given as it is.
pub fn blocked(
    diagnostic: Diagnostic,
    advice: &str,
    reason: String,
    at: usize,
    analysis: &Analysis,
) -> Diagnostic {
    // The client package's own code is not this migration's.
    let generated = if reason == OWN_CURRENT_CODE {
        ReasonClass::OutOfScope
    } else {
        ReasonClass::of_generated(&reason)
    };
    // A setting written in another request of the module is that request's, not this unit's;
    // so is a read of another request's result, when not of this one's too; another read may
    // be of any result (results are passed around).
    let doc = analysis.document();
    let calls = &doc.facts().calls;
    let reads_at = |c: &Call, offset: usize| {
        c.result.as_ref().is_some_and(|r| {
            r.uses.iter().any(|u| match u {
                ResultUse::Member { range, .. } | ResultUse::Escape { range, .. } => range.contains(&offset),
                ResultUse::Read(read) => read.range.contains(&offset),
                _ => false,
            })
        })
    };
    let theirs = |m: &no_counterpart::Missing| match m.read {
        false => calls
            .iter()
            .any(|c| c.range.start != at && c.range.start <= m.at && m.at < c.range.end),
        true => {
            let own = calls.iter().find(|c| c.range.start <= at && at < c.range.end);
            !own.is_some_and(|c| reads_at(c, m.at))
                && calls.iter().any(|c| c.range.start != at && reads_at(c, m.at))
        }
    };
    let mut own: Vec<no_counterpart::Missing> = analysis
        .missing()
        .iter()
        .filter(|m| !theirs(m))
        .cloned()
        .collect();
    own.extend(settings_of_other_cells(doc, at));
    let missing = no_counterpart::nearest(&own, at, 3);
    // A reason of this unit's own that is not a limit of the analysis (a read of its result
    // with no counterpart, another SDK) is the one to give.
    if missing.is_empty() || generated != ReasonClass::NotFollowed {
        return diagnostic.with_blocked_as(advice, reason, generated);
    }
    let listed: Vec<String> = missing.iter().map(|m| m.describe()).collect();
    // The analysis stopped at one of those reads: it is said once.
    let same_read = missing
        .iter()
        .any(|m| m.read && reason.starts_with(&format!("{}:", m.place)) && reason.contains(&m.name));
    let tail = match same_read {
        true => String::new(),
        false => format!("; and {reason}"),
    };
    diagnostic.with_blocked_as(
        advice,
        format!(
            "the interactions API has no counterpart for what this module depends on: {}{tail}",
            listed.join("; ")
        ),
        ReasonClass::NoCounterpart,
    )
}

/// In a notebook, the settings with no counterpart written in earlier cells, outside any request,
/// in the value of a top-level binding whose name the unit's request at `at` mentions (a config
/// with safety settings bound in one cell and sent from another): placed by cell and line.
/// Reads in other cells are not counted: a tutorial's cells read their own results.
fn settings_of_other_cells(doc: &crate::lang::Document, at: usize) -> Vec<no_counterpart::Missing> {
    let Some((module, base)) = &doc.module else {
        return Vec::new();
    };
    let request = doc
        .facts()
        .calls
        .iter()
        .find(|c| c.range.start <= at && at < c.range.end)
        .and_then(|c| doc.text.get(c.range.clone()))
        .unwrap_or_default();
    let module_calls = &module.doc.facts().calls;
    let text = &module.doc.text;
    no_counterpart::missing(&module.doc)
        .into_iter()
        .filter(|m| !m.read && m.at < *base)
        .filter(|m| {
            !module_calls
                .iter()
                .any(|c| c.range.start <= m.at && m.at < c.range.end)
        })
        .filter(|m| binding_at(text, m.at).is_some_and(|name| mentions(request, name)))
        .map(|m| no_counterpart::Missing {
            place: module.place(m.at),
            at: m.at.saturating_sub(*base),
            ..m
        })
        .collect()
}

/// The name a top-level assignment binds (`config = GenerateContentConfig(`) when the statement
/// that holds offset `at` of `text` is one: the nearest line at or before `at` that starts at
/// the first column with a name.
fn binding_at(text: &str, at: usize) -> Option<&str> {
    static ASSIGNMENT: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[^=]").ok());
    let before = text.get(..at)?;
    let statement = before
        .rsplit('\n')
        .find(|line| line.starts_with(|c: char| !c.is_whitespace() && !matches!(c, ')' | ']' | '}' | '#')))?;
    ASSIGNMENT
        .as_ref()?
        .captures(statement)?
        .get(1)
        .map(|m| m.as_str())
}

/// Whether `code` reads the name `name`: a word of its own, not an attribute (`x.name`) nor a
/// keyword argument (`name=...`).
fn mentions(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let word = |c: char| c == '_' || c.is_alphanumeric();
        let after = code[i + name.len()..].trim_start();
        let keyword = after.starts_with('=') && !after.starts_with("==");
        !code[..i].ends_with(|c: char| word(c) || c == '.')
            && !code[i + name.len()..].starts_with(word)
            && !keyword
    })
}

/// The findings of calls of client methods on objects interlint does not follow
/// ([`crate::analysis::unfollowed`]) of the kinds `kinds`: `message` says what the call does
/// (given the callee as written), `advice` what to do; the reason names the object and, first,
/// what the module depends on that the interactions API lacks.
pub fn report_unfollowed(
    cx: &mut crate::registry::RuleContext,
    doc: &crate::lang::Document,
    meta: &'static crate::registry::RuleMeta,
    kinds: &[crate::analysis::unfollowed::Kind],
    message: &dyn Fn(&str) -> String,
    advice: &str,
) {
    let analysis = cx.analysis;
    for call in analysis.unfollowed().iter().filter(|c| kinds.contains(&c.kind)) {
        let written = doc.text.get(call.callee.clone()).unwrap_or_default();
        let diagnostic = Diagnostic::new(
            meta,
            crate::diagnostic::Severity::Error,
            message(written),
            call.callee.clone(),
        );
        let reason = format!(
            "`{}` is not followed to where it is made (a field set elsewhere, a parameter, an object of the \
             application's own class or from another module)",
            crate::diagnostic::one_line(&call.receiver)
        );
        cx.report(blocked(diagnostic, advice, reason, call.callee.start, analysis));
    }
}
