//! Helpers the MIG rules share: the config of a request, whether its model is of the newest
//! generation, how a predecessor call is rewritten as an interactions call, and how entries are
//! written in the document's language.

use crate::api::{Call, CallKind, Entry, Facts, MapValue, ModelRef, ValueKind};
use crate::diagnostic::Edit;
use crate::lang::{Document, Surface};
use crate::request_fields::{Place, snake_case};
use crate::settings::Settings;

/// How a language writes the pieces of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Keyword arguments and dicts.
    Python,
    /// One request object with properties; JavaScript and TypeScript.
    JavaScript,
    /// A JSON request body (in a curl command, a `.http` file, a JSON file, Rust's `json!`);
    /// the answer is read by a `jq` path.
    Json,
}

impl Dialect {
    pub fn of(doc: &Document) -> Self {
        match doc.surface {
            Surface::JavaScript | Surface::TypeScript | Surface::Tsx => Dialect::JavaScript,
            Surface::Python | Surface::Notebook => Dialect::Python,
            _ => Dialect::Json,
        }
    }

    /// A named argument: `name=value`, or a property of the request object.
    pub fn argument(self, name: &str, value: &str) -> String {
        match self {
            Dialect::Python => format!("{name}={value}"),
            // `{ tools }` rather than `{ tools: tools }`.
            Dialect::JavaScript if name == value => name.to_string(),
            Dialect::JavaScript | Dialect::Json => format!("{}: {value}", self.key(name)),
        }
    }

    /// An entry in a map, written like `like` (a keyword or a dict key).
    pub fn entry(self, key: &str, value: &str, keyword: bool) -> String {
        match self {
            Dialect::Python if keyword => format!("{key}={value}"),
            _ => format!("{}: {value}", self.key(key)),
        }
    }

    pub fn map(self, entries: &[(String, String)]) -> String {
        let inner: Vec<String> = entries
            .iter()
            .map(|(k, v)| format!("{}: {v}", self.key(k)))
            .collect();
        match self {
            Dialect::Python | Dialect::Json => format!("{{{}}}", inner.join(", ")),
            Dialect::JavaScript => format!("{{ {} }}", inner.join(", ")),
        }
    }

    /// A map key: a string in Python, a bare name in JavaScript when it is one.
    pub fn key(self, key: &str) -> String {
        let bare = !key.is_empty()
            && !key.starts_with(|c: char| c.is_ascii_digit())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        match self {
            Dialect::JavaScript if bare => key.to_string(),
            _ => self.string(key),
        }
    }

    pub fn string(self, value: &str) -> String {
        serde_json::Value::String(value.to_string()).to_string()
    }

    pub fn true_value(self) -> &'static str {
        match self {
            Dialect::Python => "True",
            Dialect::JavaScript | Dialect::Json => "true",
        }
    }

    /// How an interactions result's answer text is read (JavaScript has no negative index).
    pub fn answer_text(self, receiver: &str) -> String {
        match self {
            Dialect::Python | Dialect::Json => format!("{receiver}.steps[-1].content[0].text"),
            Dialect::JavaScript => format!("{receiver}.steps.at(-1).content[0].text"),
        }
    }

    /// An interactions call, for messages: `client.interactions.create(model=..., input=...)`
    /// with the named arguments `extra` (name, value) after the two.
    pub fn create_call(self, extra: &[(&str, &str)]) -> String {
        let mut args = vec![self.argument("model", "..."), self.argument("input", "...")];
        args.extend(extra.iter().map(|(name, value)| self.argument(name, value)));
        match self {
            Dialect::Python => format!("client.interactions.create({})", args.join(", ")),
            Dialect::JavaScript => format!("ai.interactions.create({{ {} }})", args.join(", ")),
            Dialect::Json => format!("POST /v1beta/interactions {{{}}}", args.join(", ")),
        }
    }
}

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

/// Whether the request's model resolves to the newest generation.
pub fn is_newest(call: &Call, settings: &Settings) -> bool {
    matches!(&call.model, ModelRef::Literal(id) if settings.is_newest_generation(id))
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

/// The edits deleting `entries` of one container, merged into one set so that neighbours do
/// not wait for each other's pass; `None` when they would delete a comment.
pub fn removal_edits(entries: &[&Entry], facts: &Facts) -> (Vec<Edit>, bool) {
    let merged = crate::api::removal_ranges(entries);
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

/// The rewrite of a predecessor create-content call (current client) as an interactions call:
/// the edits, or why it cannot be rewritten.
pub fn rewrite_to_interactions(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    stream: bool,
) -> Result<Vec<Edit>, String> {
    let dialect = Dialect::of(doc);
    let text = &doc.text;
    let Some(method) = call.method.clone() else {
        return Err(match &call.alias {
            Some(alias) => format!("the method is called through `{alias}`, which is used more than once"),
            None => "the client's `models` resource is not named in the call".to_string(),
        });
    };
    if call.spread {
        return Err(match dialect {
            Dialect::JavaScript => "the request object has a spread, a method or a computed key".into(),
            _ => "the arguments are spread from a variable".into(),
        });
    }
    if !call.positional.is_empty() {
        return Err(match dialect {
            Dialect::JavaScript => "the request is not an object literal written in the call".into(),
            _ => "the call has positional arguments".into(),
        });
    }
    let mut edits = vec![Edit::replace(method, "interactions.create")];
    if let Some(contents) = call.arg("contents") {
        // `{ contents }` names a variable too: keep it as the value.
        let edit = if contents.key_range == contents.value.range {
            Edit::replace(contents.range.clone(), dialect.argument("input", &contents.key))
        } else {
            Edit::replace(contents.key_range.clone(), "input")
        };
        edits.push(edit);
    }
    if let Some(config) = call.arg("config") {
        let (map, inline_statement) = match &config.value.kind {
            ValueKind::Map(map) => (map.as_ref(), None),
            ValueKind::Name(name) => match (name.value.as_ref().and_then(|v| v.as_map()), name.single_use) {
                (Some(map), true) => (map, name.statement.clone()),
                _ => {
                    return Err(format!(
                        "the config is held in `{}`, which is not a literal used only here",
                        name.name
                    ));
                }
            },
            _ => return Err("the config is not a literal".into()),
        };
        if !map.complete {
            return Err("the config's entries are not all known".into());
        }
        let placed = place_entries(map, call, text, settings, dialect)?;
        let separator = call.argument_separator();
        if placed.is_empty() {
            edits.push(Edit::replace(config.removal.clone(), ""));
        } else {
            edits.push(Edit::replace(config.range.clone(), placed.join(&separator)));
        }
        if let Some(statement) = inline_statement {
            edits.push(Edit::replace(crate::api::line_removal(text, statement), ""));
        }
    }
    if stream && call.arg("stream").is_none() {
        let sep = call.argument_separator();
        edits.push(Edit::replace(
            call.insert_at..call.insert_at,
            format!("{sep}{}", dialect.argument("stream", dialect.true_value())),
        ));
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    Ok(merge_insertions(edits))
}

/// The rewrite of a predecessor request body as an interactions body: `model` first (written
/// as `model_value`), `contents` as `input`, the generation config placed by the request-field
/// table, the other fields in snake_case, and `"stream": true` for a streaming request. The
/// edits, or why the body cannot be rewritten.
pub fn rewrite_rest_body(
    call: &Call,
    model_value: &str,
    doc: &Document,
    settings: &Settings,
    stream: bool,
) -> Result<Vec<Edit>, String> {
    let dialect = Dialect::Json;
    let text = &doc.text;
    if call.spread {
        return Err("the body's entries are not all known".into());
    }
    let separator = call.argument_separator();
    let mut edits = Vec::new();
    let mut unplaced = Vec::new();
    for entry in &call.args {
        match snake_case(&entry.key).as_str() {
            "contents" => edits.push(Edit::replace(entry.key_range.clone(), dialect.key("input"))),
            "generation_config" => {
                let Some(map) = entry.value.as_map().filter(|m| m.complete) else {
                    return Err(format!("`{}` is not an object interlint can read", entry.key));
                };
                let placed = place_entries(map, call, text, settings, dialect)?;
                edits.push(if placed.is_empty() {
                    Edit::replace(entry.removal.clone(), "")
                } else {
                    Edit::replace(entry.range.clone(), placed.join(&separator))
                });
            }
            "model" | "input" | "stream" => {}
            key => match settings.fields.get(key).map(|f| f.place) {
                Some(Place::TopLevel) => {
                    if key != entry.key {
                        edits.push(Edit::replace(entry.key_range.clone(), dialect.key(key)));
                    }
                }
                _ => unplaced.push(format!("`{}`", entry.key)),
            },
        }
    }
    if !unplaced.is_empty() {
        return Err(format!(
            "the body's {} {} no place in an interactions request",
            unplaced.join(", "),
            if unplaced.len() == 1 { "has" } else { "have" }
        ));
    }
    if call.arg("model").is_none() {
        let model = dialect.argument("model", model_value);
        match call.args.first() {
            // Joined to the first entry's edit when it starts there (`contents` → `input`).
            Some(first) => match edits.iter_mut().find(|e| e.range.start == first.range.start) {
                Some(edit) if !edit.range.is_empty() && !edit.content.is_empty() => {
                    edit.content = format!("{model}{separator}{}", edit.content);
                }
                _ => edits.push(Edit::replace(
                    first.range.start..first.range.start,
                    format!("{model}{separator}"),
                )),
            },
            None => edits.push(Edit::replace(call.insert_at..call.insert_at, model)),
        }
    }
    if stream && call.arg("stream").is_none() {
        edits.push(Edit::replace(
            call.insert_at..call.insert_at,
            format!("{separator}{}", dialect.argument("stream", dialect.true_value())),
        ));
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    Ok(merge_insertions(edits))
}

/// The config's entries as arguments of an interactions call, by the request-field table.
fn place_entries(
    map: &MapValue,
    call: &Call,
    text: &str,
    settings: &Settings,
    dialect: Dialect,
) -> Result<Vec<String>, String> {
    let newest = is_newest(call, settings);
    let mut generation: Vec<(String, String)> = Vec::new();
    let mut arguments: Vec<String> = Vec::new();
    let mut generation_at: Option<usize> = None;
    let mut unplaced: Vec<String> = Vec::new();
    // A mime type with its schema become one top-level `response_format` (MIG004); a lone
    // `text/plain` is the default answer and goes.
    let structured = super::structured_output::response_format(map, text, dialect);
    let mut structured_reason: Option<String> = None;
    let plain_text_only = map.entries.iter().all(|e| {
        let key = snake_case(&e.key);
        !super::structured_output::STRUCTURED_OUTPUT_KEYS.contains(&key.as_str())
            || key == "response_mime_type" && matches!(&e.value.kind, ValueKind::Str(m) if m == "text/plain")
    });
    for entry in &map.entries {
        let key = snake_case(&entry.key);
        if super::structured_output::STRUCTURED_OUTPUT_KEYS.contains(&key.as_str()) {
            match &structured {
                _ if plain_text_only => {}
                Some(Ok((format, entries))) if std::ptr::eq(entries[0], entry) => {
                    arguments.push(dialect.argument("response_format", format));
                }
                Some(Err(why)) if structured_reason.is_none() => structured_reason = Some(why.clone()),
                _ => {}
            }
            continue;
        }
        if key == "tools"
            && dialect == Dialect::Python
            && let Some(name) = callable_tool(&entry.value, text)
        {
            return Err(format!(
                "`tools` holds `{name}`, which may be a Python function the old client called by itself \
                 (automatic function calling); the interactions endpoint returns a function-call step instead"
            ));
        }
        let value = text
            .get(entry.value.range.clone())
            .unwrap_or_default()
            .to_string();
        let place = settings.fields.get(&key).map(|f| (f.place, f.sampling));
        let mut put = |place: Place, name: String, value: String| match place {
            Place::GenerationConfig => {
                generation_at.get_or_insert(arguments.len());
                generation.push((name, value));
            }
            _ => arguments.push(dialect.argument(&name, &value)),
        };
        match place {
            Some((Place::None, true)) if newest => {}
            Some((Place::GenerationConfig | Place::TopLevel, _)) => {
                let place = place.map_or(Place::None, |p| p.0);
                put(place, key, value);
            }
            Some((Place::Thinking, _)) => {
                let level = match &entry.value.kind {
                    ValueKind::Map(inner) if inner.complete && inner.entries.len() == 1 => {
                        let only = &inner.entries[0];
                        match (snake_case(&only.key).as_str(), &only.value.kind) {
                            ("thinking_budget", ValueKind::Int(n)) => {
                                Some(dialect.string(settings.fields.thinking_level(*n)))
                            }
                            ("thinking_level", _) => text.get(only.value.range.clone()).map(str::to_string),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match level {
                    Some(level) => put(
                        settings.fields.thinking_level_place(),
                        "thinking_level".into(),
                        level,
                    ),
                    None => {
                        return Err(format!(
                            "`{}` is not a single thinking budget written as a number",
                            entry.key
                        ));
                    }
                }
            }
            _ => unplaced.push(entry.key.clone()),
        }
    }
    let structured_reason =
        structured_reason.map(|why| format!("structured output is not carried over: {why}"));
    if !unplaced.is_empty() {
        let names: Vec<String> = unplaced.iter().map(|n| format!("`{n}`")).collect();
        let mut why = format!(
            "the config's {} {} no place in an interactions request",
            names.join(", "),
            if names.len() == 1 { "has" } else { "have" }
        );
        if let Some(structured) = structured_reason {
            why.push_str("; ");
            why.push_str(&structured);
        }
        return Err(why);
    }
    if let Some(structured) = structured_reason {
        return Err(structured);
    }
    if let Some(at) = generation_at {
        arguments.insert(
            at,
            dialect.argument("generation_config", &dialect.map(&generation)),
        );
    }
    Ok(arguments)
}

/// An item of a Python `tools` list written in the request that is not known to be a tool
/// declaration (a dict, a typed wrapper, a name bound to one): a function, perhaps, as written.
fn callable_tool<'t>(value: &crate::api::Value, text: &'t str) -> Option<&'t str> {
    let items: &[crate::api::Value] = match &value.kind {
        ValueKind::List(items) => items,
        // A list from elsewhere (a parameter) is the caller's to review: the fix is unsafe.
        ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
            Some(ValueKind::List(items)) => items,
            _ => return None,
        },
        _ => return None,
    };
    items.iter().find_map(|item| match &item.kind {
        ValueKind::Map(_) => None,
        ValueKind::Name(name)
            if name
                .value
                .as_ref()
                .is_some_and(|v| matches!(v.kind, ValueKind::Map(_))) =>
        {
            None
        }
        _ => text.get(item.range.clone()),
    })
}

/// An insertion right where the previous edit ends joins that edit: carried into a notebook
/// cell, a multi-line edit grows to whole source lines and would swallow the insertion point.
fn merge_insertions(edits: Vec<Edit>) -> Vec<Edit> {
    let mut merged: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits {
        match merged.last_mut() {
            Some(last) if edit.range.is_empty() && edit.range.start == last.range.end => {
                last.content.push_str(&edit.content);
            }
            _ => merged.push(edit),
        }
    }
    merged
}
