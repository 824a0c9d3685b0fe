//! The request rewriter: how a predecessor call or request body is rewritten as an
//! interactions request (its contents as the input, its config placed by the request-field
//! table), and how the pieces of a request are written in the document's language.

use super::structured_output::STRUCTURED_OUTPUT_KEYS;
use crate::api::{Call, CallKind, Entry, MapValue, ModelRef, Value, ValueKind};
use crate::diagnostic::Edit;
use crate::lang::Document;
use crate::request_fields::{Place, RequestField, snake_case};
use crate::tables::Tables as Settings;

use super::writer::Dialect;
use super::writer::edits::{merge_insertions, statement_removal};
use super::writer::imports::import_edits;

/// Whether the request's model resolves to the newest generation.
pub fn is_newest(call: &Call, settings: &Settings) -> bool {
    matches!(&call.model, ModelRef::Literal(id) if settings.is_newest_generation(id))
}

/// A rewrite's edits; `in_file` when they are already in the file's offsets (a notebook's
/// rewrite computed on the module of its code cells, which may touch several cells).
pub struct Rewritten {
    pub edits: Vec<Edit>,
    pub in_file: bool,
}

impl Rewritten {
    pub fn fix(
        self,
        applicability: crate::diagnostic::Applicability,
        message: impl Into<String>,
    ) -> crate::diagnostic::Fix {
        let mut fix = crate::diagnostic::Fix::new(applicability, message, self.edits);
        fix.in_file = self.in_file;
        fix
    }
}

/// The rewrite of a predecessor create-content call (current client) as an interactions call,
/// or why it cannot be rewritten. In a notebook the call is rewritten in the module its code
/// cells make, so that a config bound in one cell and used in another is seen whole.
pub fn rewrite_to_interactions(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    stream: bool,
) -> Result<Rewritten, String> {
    in_module(call, doc, &|call, doc, place| {
        rewrite_in_document(call, doc, settings, stream, place)
    })
}

/// Where an offset is, for a message (`line 12`, `cell 3, line 2`).
pub type Where<'a> = dyn Fn(usize) -> String + 'a;

/// A unit's rewrite: the edits for a call of a document, given where offsets are.
pub type UnitRewrite<'a> = dyn Fn(&Call, &Document, &Where<'_>) -> Result<Vec<Edit>, String> + 'a;

/// The edits `rewrite` makes for `call` of `doc`. In a notebook, `call` is found again in the
/// module its code cells make and rewritten there, so that a name bound in one cell and read in
/// another is seen whole; the edits are carried back into the file.
pub fn in_module(call: &Call, doc: &Document, rewrite: &UnitRewrite<'_>) -> Result<Rewritten, String> {
    if let Some((module, base)) = &doc.module {
        let range = call.range.start + base..call.range.end + base;
        if let Some(whole) = module
            .doc
            .facts()
            .calls
            .iter()
            .find(|c| c.range == range && c.kind == call.kind)
        {
            let place = |offset| module.place(offset);
            let edits = rewrite(whole, &module.doc, &place)?;
            return module
                .file_edits(&edits)
                .map(|edits| Rewritten { edits, in_file: true })
                .ok_or_else(|| "the edits cannot be carried into the notebook's cells".to_string());
        }
    }
    let place = |offset| super::writer::lines::place(doc, offset);
    rewrite(call, doc, &place).map(|edits| Rewritten {
        edits,
        in_file: false,
    })
}

fn rewrite_in_document(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    stream: bool,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    // A config several calls share: they are rewritten together and its binding goes.
    if let Some(config) = call.arg("config")
        && let ValueKind::Name(name) = &config.value.kind
        && !name.single_use
        && let Some(shared) = &name.shared
    {
        let facts = doc.facts();
        let calls: Vec<&Call> = facts
            .calls
            .iter()
            .filter(|c| shared.calls.contains(&c.range))
            .collect();
        if calls.len() != shared.calls.len() {
            return Err(format!("the calls sharing `{}` are not all known", name.name));
        }
        let mut edits = Vec::new();
        for other in calls {
            let stream = if other.range == call.range {
                stream
            } else {
                other.kind == CallKind::CreateStream
            };
            let rewritten = rewrite_one(other, doc, settings, stream, true).map_err(|why| {
                format!(
                    "`{}` is shared by {} calls, rewritten together; one of them cannot be: {why}",
                    name.name,
                    shared.calls.len()
                )
            })?;
            edits.extend(rewritten);
            edits.extend(super::unit::result_edits(other, doc, settings, place)?);
        }
        let statement = crate::api::line_removal(&doc.text, shared.statement.clone());
        if facts.has_comment_in(&statement) {
            return Err(format!(
                "a comment in the binding of `{}` would be lost",
                name.name
            ));
        }
        edits.push(Edit::replace(statement, ""));
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        edits.dedup();
        if edits.windows(2).any(|w| w[0].range.end > w[1].range.start) {
            return Err(format!(
                "the rewrites of the calls sharing `{}` overlap",
                name.name
            ));
        }
        return Ok(edits);
    }
    let mut edits = rewrite_one(call, doc, settings, stream, false)?;
    let reads = super::unit::result_edits(call, doc, settings, place)?;
    if !reads.is_empty() {
        edits.extend(reads);
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        edits.dedup();
        if edits.windows(2).any(|w| w[0].range.end > w[1].range.start) {
            return Err("the rewrites of the request and of its result's reads overlap".into());
        }
    }
    Ok(edits)
}

/// One call's rewrite; `shared`: a config shared with other calls may be read (its binding is
/// the caller's to remove).
fn rewrite_one(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    stream: bool,
    shared: bool,
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
        let mut rewrites = Vec::new();
        let converted = input_value_inlining(&contents.value, text, dialect, &mut rewrites)?;
        // The bindings written anew (contents bound to a name) or removed (parts written into
        // the input).
        // Their code and the input's need their imports once, before the first of them.
        let mut written = converted.clone().unwrap_or_default();
        let mut first = call.range.start;
        for rewrite in rewrites {
            if doc.facts().has_comment_in(&rewrite.range) {
                return Err("a comment in a binding of the contents would be lost".into());
            }
            written.push_str(&rewrite.content);
            first = first.min(rewrite.range.start);
            edits.push(rewrite);
        }
        edits.extend(import_edits(&written, doc, first)?);
        let edit = match converted {
            Some(_) if doc.facts().has_comment_in(&contents.range) => {
                return Err("a comment inside the contents would be lost".into());
            }
            Some(converted) => Edit::replace(contents.range.clone(), dialect.argument("input", &converted)),
            None if contents.key_range == contents.value.range => {
                Edit::replace(contents.range.clone(), dialect.argument("input", &contents.key))
            }
            None => Edit::replace(contents.key_range.clone(), "input"),
        };
        edits.push(edit);
    }
    if let Some(config) = call.arg("config") {
        let placed = config_arguments(call, config, doc, settings, shared)?;
        // The config's text is replaced: a comment in it would go.
        let replaced = if placed.arguments.is_empty() {
            config.removal.clone()
        } else {
            config.range.clone()
        };
        if doc.facts().has_comment_in(&replaced) {
            return Err("a comment in the config would be lost".into());
        }
        if placed.arguments.is_empty() {
            edits.push(Edit::replace(replaced, ""));
        } else {
            let separator = call.argument_separator();
            let arguments = placed.arguments.join(&separator);
            // A schema written as pydantic writes it needs `import pydantic`.
            edits.extend(import_edits(&arguments, doc, call.range.start)?);
            edits.push(Edit::replace(replaced, arguments));
        }
        edits.extend(placed.removals.into_iter().map(|r| Edit::replace(r, "")));
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

/// A call's config as interactions arguments.
pub struct ConfigArguments {
    pub arguments: Vec<String>,
    /// The lines of the bindings whose values were written into the arguments (to remove).
    pub removals: Vec<std::ops::Range<usize>>,
}

/// The config `config` of `call` placed as interactions arguments by the request-field table:
/// a literal, or a name bound to one used only here (or, `shared`, by calls rewritten together).
pub fn config_arguments(
    call: &Call,
    config: &Entry,
    doc: &Document,
    settings: &Settings,
    shared: bool,
) -> Result<ConfigArguments, String> {
    let text = &doc.text;
    let (map, inline_statement) = match &config.value.kind {
        ValueKind::Map(map) => (map.as_ref(), None),
        ValueKind::Name(name) => match (name.value.as_ref().and_then(|v| v.as_map()), name.single_use) {
            (Some(map), true) => (map, name.statement.clone()),
            _ if shared && let Some(map) = name.shared.as_ref().and_then(|s| s.value.as_map()) => (map, None),
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
    let placed = place_entries(map, is_newest(call, settings), text, settings, Dialect::of(doc))?;
    let removals: Vec<std::ops::Range<usize>> = placed
        .inlined
        .into_iter()
        .chain(inline_statement)
        .map(|s| crate::api::line_removal(text, s))
        .collect();
    // A binding written into the arguments goes: a comment in it would go too.
    if removals.iter().any(|r| doc.facts().has_comment_in(r)) {
        return Err("a comment in the config would be lost".into());
    }
    Ok(ConfigArguments {
        arguments: placed.arguments,
        removals,
    })
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
            // One user turn of one text: the text alone, its wrapping deleted around it (the
            // text may be spliced in by the shell, `"'"$PROMPT"'"`, and stays as written).
            "contents" if let Some(inner) = single_text_value(&entry.value) => {
                edits.push(Edit::replace(entry.key_range.clone(), dialect.key("input")));
                edits.push(Edit::replace(entry.value.range.start..inner.range.start, ""));
                edits.push(Edit::replace(inner.range.end..entry.value.range.end, ""));
            }
            // The contents in the interactions shape, or the body stays.
            "contents" => match input_value(&entry.value, text, dialect)? {
                Some(converted) => {
                    if doc.facts().has_comment_in(&entry.range) {
                        return Err("a comment in `contents` would be lost".into());
                    }
                    edits.push(Edit::replace(
                        entry.range.clone(),
                        dialect.argument("input", &converted),
                    ))
                }
                None => edits.push(Edit::replace(entry.key_range.clone(), dialect.key("input"))),
            },
            "tools" => {
                let converted = tools_value(&entry.value, text, dialect)?;
                if Some(converted.as_str()) != text.get(entry.value.range.clone()) {
                    if doc.facts().has_comment_in(&entry.range) {
                        return Err("a comment in `tools` would be lost".into());
                    }
                    edits.push(Edit::replace(
                        entry.range.clone(),
                        dialect.argument("tools", &converted),
                    ));
                }
            }
            "generation_config" => {
                let Some(map) = entry.value.as_map().filter(|m| m.complete) else {
                    return Err(format!("`{}` is not an object interlint can read", entry.key));
                };
                if doc.facts().has_comment_in(&entry.range) {
                    return Err(format!("a comment in `{}` would be lost", entry.key));
                }
                // A body has no bindings: nothing is inlined.
                let placed =
                    place_entries(map, is_newest(call, settings), text, settings, dialect)?.arguments;
                edits.push(if placed.is_empty() {
                    Edit::replace(entry.removal.clone(), "")
                } else {
                    Edit::replace(entry.range.clone(), placed.join(&separator))
                });
            }
            "model" | "input" | "stream" => {}
            key => match settings.fields.get(key) {
                Some(field) if field.place == Place::TopLevel => {
                    let written = text.get(entry.value.range.clone()).unwrap_or_default();
                    let value = field_value(field, &entry.value, &entry.key, text, dialect)?;
                    if value != written {
                        if doc.facts().has_comment_in(&entry.range) {
                            return Err(format!("a comment in `{}` would be lost", entry.key));
                        }
                        edits.push(Edit::replace(
                            entry.range.clone(),
                            dialect.argument(field.target(), &value),
                        ));
                    } else if field.target() != entry.key {
                        edits.push(Edit::replace(
                            entry.key_range.clone(),
                            dialect.key(field.target()),
                        ));
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
pub fn place_entries(
    map: &MapValue,
    newest: bool,
    text: &str,
    settings: &Settings,
    dialect: Dialect,
) -> Result<Placed, String> {
    let mut placer = Placer {
        text,
        settings,
        dialect,
        newest,
        generation: Vec::new(),
        arguments: Vec::new(),
        generation_at: None,
        unplaced: Vec::new(),
        notes: Vec::new(),
        problems: Vec::new(),
        inlined: Vec::new(),
    };
    placer.place_map(map, None)?;
    // A mime type with its schema become one top-level `response_format` (MIG004); a lone
    // `text/plain` is the default answer and goes.
    let plain_text_only = map.entries.iter().all(|e| {
        let key = snake_case(&e.key);
        !STRUCTURED_OUTPUT_KEYS.contains(&key.as_str())
            || key == "response_mime_type" && matches!(&e.value.kind, ValueKind::Str(m) if m == "text/plain")
    });
    match super::structured_output::response_format(map, text, dialect) {
        _ if plain_text_only => {}
        Some(Ok((format, inlined))) => {
            placer.inlined.extend(inlined);
            placer.put(Place::TopLevel, "response_format", format, "response_format")
        }
        Some(Err(why)) => placer
            .problems
            .push(format!("structured output is not carried over: {why}")),
        None => {}
    }
    placer.finish()
}

/// A config's entries as an interactions request's arguments.
pub struct Placed {
    pub arguments: Vec<String>,
    /// Statements binding names whose values were written into the arguments.
    pub inlined: Vec<std::ops::Range<usize>>,
}

/// Places a config's entries one by one: the generation settings gathered into one
/// `generation_config`, the direct fields as arguments, the entries with no place noted.
struct Placer<'a> {
    text: &'a str,
    settings: &'a Settings,
    dialect: Dialect,
    newest: bool,
    generation: Vec<(String, String)>,
    arguments: Vec<(String, String)>,
    /// Where `generation_config` goes among the arguments: where its first entry was.
    generation_at: Option<usize>,
    unplaced: Vec<String>,
    notes: Vec<String>,
    /// Entries that have a place but a value that cannot be carried there.
    problems: Vec<String>,
    /// Bindings of names whose value was written into the request instead.
    inlined: Vec<std::ops::Range<usize>>,
}

impl Placer<'_> {
    fn place_map(&mut self, map: &MapValue, within: Option<&str>) -> Result<(), String> {
        for entry in &map.entries {
            self.place(entry, within)?;
        }
        Ok(())
    }

    fn place(&mut self, entry: &Entry, within: Option<&str>) -> Result<(), String> {
        let key = snake_case(&entry.key);
        // Structured output is placed as a whole, after the other entries.
        if within.is_none() && STRUCTURED_OUTPUT_KEYS.contains(&key.as_str()) {
            return Ok(());
        }
        let shown = match within {
            Some(outer) => format!("{outer}.{}", entry.key),
            None => entry.key.clone(),
        };
        if within.is_none()
            && key == "tools"
            && self.dialect == Dialect::Python
            && let Some(name) = callable_tool(&entry.value, self.text)
        {
            return Err(format!(
                "`tools` holds `{name}`, which may be a Python function the old client called by itself \
                 (automatic function calling); the interactions endpoint returns a function-call step instead"
            ));
        }
        // Tools take the interactions shape, one typed tool each.
        if within.is_none() && key == "tools" {
            match tools_value(&entry.value, self.text, self.dialect) {
                Ok(value) => self.put(Place::TopLevel, "tools", value, &shown),
                Err(problem) => self.problems.push(problem),
            }
            return Ok(());
        }
        let settings = self.settings;
        let Some(field) = settings.fields.get_within(within, &key) else {
            self.unplaced.push(shown);
            return Ok(());
        };
        match field.place {
            Place::None if field.sampling && self.newest => {}
            Place::None => {
                self.unplaced.push(shown);
                if let Some(note) = &field.note
                    && !self.notes.contains(note)
                {
                    self.notes.push(note.clone());
                }
            }
            Place::GenerationConfig | Place::TopLevel => {
                // A list of settings bound to a name for this request alone
                // (`safety_settings=safety_settings`): its items are written in the request in
                // their new shape, and the binding goes.
                let (value, statement) = match &entry.value.kind {
                    ValueKind::Name(name)
                        if field.item_keys.is_some()
                            && name.single_use
                            && let Some(bound) = name
                                .value
                                .as_ref()
                                .filter(|v| matches!(v.kind, ValueKind::List(_))) =>
                    {
                        (bound, name.statement.clone())
                    }
                    _ => (&entry.value, None),
                };
                match field_value(field, value, &shown, self.text, self.dialect) {
                    Ok(value) => {
                        self.inlined.extend(statement);
                        self.put(field.place, field.target(), value, &shown)
                    }
                    Err(problem) => self.problems.push(problem),
                }
            }
            Place::Nested => match &entry.value.kind {
                ValueKind::Map(inner) if inner.complete => self.place_map(inner, Some(&key))?,
                // A name bound to an object in the same scope: its entries are read; the binding
                // goes when this request was its only use, else it stays for the others.
                ValueKind::Name(name)
                    if let Some(inner) = name
                        .value
                        .as_ref()
                        .and_then(|v| v.as_map())
                        .filter(|m| m.complete) =>
                {
                    if name.single_use
                        && let Some(statement) = &name.statement
                    {
                        self.inlined.push(statement.clone());
                    }
                    self.place_map(inner, Some(&key))?
                }
                _ => self.problems.push(format!(
                    "`{shown}` is not an object written in the request or bound to one in the same scope"
                )),
            },
            Place::Thinking => {
                let budget = match &entry.value.kind {
                    ValueKind::Int(n) => Some(*n),
                    ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
                        Some(ValueKind::Int(n)) => {
                            // Bound for this request alone: the binding goes with it.
                            if name.single_use
                                && let Some(statement) = &name.statement
                            {
                                self.inlined.push(statement.clone());
                            }
                            Some(*n)
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match budget {
                    Some(budget) => {
                        let level = self.dialect.string(settings.fields.thinking_level(budget));
                        self.put(
                            settings.fields.thinking_level_place(),
                            "thinking_level",
                            level,
                            &shown,
                        );
                    }
                    None => self.problems.push(format!(
                        "`{shown}` is not a number written in the request or bound to one in the same scope"
                    )),
                }
            }
        }
        Ok(())
    }

    /// One field of the interactions request; a field set twice (`thinking_level` and a budget)
    /// is not guessed between.
    fn put(&mut self, place: Place, name: &str, value: String, shown: &str) {
        let taken = match place {
            Place::GenerationConfig => &self.generation,
            _ => &self.arguments,
        };
        if taken.iter().any(|(n, _)| n == name) {
            self.problems
                .push(format!("`{shown}` sets `{name}`, which another entry sets too"));
            return;
        }
        match place {
            Place::GenerationConfig => {
                self.generation_at.get_or_insert(self.arguments.len());
                self.generation.push((name.to_string(), value));
            }
            _ => self.arguments.push((name.to_string(), value)),
        }
    }

    /// The arguments, and the statements binding names that were inlined.
    fn finish(self) -> Result<Placed, String> {
        let mut reasons = Vec::new();
        if !self.unplaced.is_empty() {
            let names: Vec<String> = self.unplaced.iter().map(|n| format!("`{n}`")).collect();
            reasons.push(format!(
                "the config's {} {} no place in an interactions request",
                names.join(", "),
                if names.len() == 1 { "has" } else { "have" }
            ));
            reasons.extend(self.notes);
        }
        reasons.extend(self.problems);
        if !reasons.is_empty() {
            return Err(reasons.join("; "));
        }
        let dialect = self.dialect;
        let mut arguments: Vec<String> = self
            .arguments
            .iter()
            .map(|(name, value)| dialect.argument(name, value))
            .collect();
        if let Some(at) = self.generation_at {
            arguments.insert(
                at,
                dialect.argument("generation_config", &dialect.map(&self.generation)),
            );
        }
        Ok(Placed {
            arguments,
            inlined: self.inlined,
        })
    }
}

/// A field's value as written in an interactions request: mapped by the field's `values`,
/// unwrapped to a string, or with its own keys in snake_case, as the table says.
fn field_value(
    field: &RequestField,
    value: &Value,
    shown: &str,
    text: &str,
    dialect: Dialect,
) -> Result<String, String> {
    let raw = text.get(value.range.clone()).unwrap_or_default();
    if field.values.is_some() {
        return mapped_value(field, value, text, dialect).ok_or_else(|| {
            let known: Vec<&str> = field
                .values
                .iter()
                .flat_map(|v| v.keys())
                .map(String::as_str)
                .collect();
            format!("`{shown}` is not a literal {}", known.join(", "))
        });
    }
    if field.string {
        return string_value(value, text).ok_or_else(|| {
            format!("`{shown}` is not a string (the interactions endpoint takes a plain string)")
        });
    }
    if field.snake_keys && dialect != Dialect::Python {
        return Ok(snake_keys(value, text, dialect));
    }
    if let Some(keys) = &field.item_keys {
        return item_list(field, keys, value, shown, text, dialect);
    }
    Ok(raw.to_string())
}

/// A list of settings written in the call (`safety_settings=[SafetySetting(category=..., ...)]`)
/// in the interactions shape: each key renamed by `keys`, each value a lower-case string.
fn item_list(
    field: &RequestField,
    keys: &std::collections::BTreeMap<String, String>,
    value: &Value,
    shown: &str,
    text: &str,
    dialect: Dialect,
) -> Result<String, String> {
    let changes = || {
        let renamed: Vec<String> = keys
            .iter()
            .filter(|(old, new)| old != new)
            .map(|(old, new)| format!("`{old}` is `{new}`"))
            .collect();
        format!("{}, values in lower case", renamed.join(", "))
    };
    let ValueKind::List(items) = &value.kind else {
        return Err(format!(
            "`{shown}` is not a list written in the request, and its items change shape ({})",
            changes()
        ));
    };
    let mut converted = Vec::with_capacity(items.len());
    for item in items {
        let written = text.get(item.range.clone()).unwrap_or_default();
        let map = item.as_map().filter(|m| m.complete).ok_or_else(|| {
            format!(
                "`{}` in `{shown}` is not an object interlint can read; its shape changes ({})",
                crate::diagnostic::one_line(written),
                changes()
            )
        })?;
        let mut entries = Vec::with_capacity(map.entries.len());
        for entry in &map.entries {
            let key = snake_case(&entry.key);
            let new_key = keys.get(&key).ok_or_else(|| {
                format!(
                    "`{}` of `{shown}` has no place in an interactions request",
                    entry.key
                )
            })?;
            let literal = match &entry.value.kind {
                ValueKind::Str(s) => s.clone(),
                _ => enum_member(text.get(entry.value.range.clone()).unwrap_or_default())
                    .ok_or_else(|| format!("`{}` of `{shown}` is not a literal", entry.key))?
                    .to_string(),
            };
            let literal = field
                .item_value_prefix
                .as_deref()
                .and_then(|p| literal.strip_prefix(p))
                .unwrap_or(&literal)
                .to_lowercase();
            entries.push((new_key.clone(), dialect.string(&literal)));
        }
        converted.push(dialect.map(&entries));
    }
    Ok(format!("[{}]", converted.join(", ")))
}

/// The member of an enum as written (`types.HarmCategory.HARM_CATEGORY_HATE_SPEECH` →
/// `HARM_CATEGORY_HATE_SPEECH`).
fn enum_member(written: &str) -> Option<&str> {
    let (path, member) = written.trim().rsplit_once('.')?;
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    };
    (is_name(path)
        && !member.is_empty()
        && member
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
    .then_some(member)
}

/// A literal (or a list of literals) mapped by the field's `values`.
fn mapped_value(field: &RequestField, value: &Value, text: &str, dialect: Dialect) -> Option<String> {
    let one = |v: &Value| -> Option<String> {
        let literal = match &v.kind {
            ValueKind::Str(s) => s.clone(),
            ValueKind::Bool(b) => b.to_string(),
            ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
                Some(ValueKind::Str(s)) => s.clone(),
                _ => return None,
            },
            // An enum member: `types.FunctionCallingConfigMode.ANY`.
            ValueKind::Other => {
                let written = text.get(v.range.clone())?;
                if !written.contains('.')
                    || !written
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                {
                    return None;
                }
                written.rsplit('.').next()?.to_string()
            }
            _ => return None,
        };
        field.mapped_value(&literal).map(|m| dialect.string(m))
    };
    match &value.kind {
        ValueKind::List(items) => {
            let mapped: Option<Vec<String>> = items.iter().map(one).collect();
            mapped.map(|m| format!("[{}]", m.join(", ")))
        }
        _ => one(value),
    }
}

/// A value the interactions endpoint takes as a plain string: a string, a name or expression not
/// known to hold anything else, or a content of a single text part (its text).
fn string_value(value: &Value, text: &str) -> Option<String> {
    let raw = text.get(value.range.clone())?;
    match &value.kind {
        ValueKind::Str(_) => Some(raw.to_string()),
        ValueKind::Map(map) => single_text_part(map, text),
        ValueKind::List(_) | ValueKind::Int(_) | ValueKind::Bool(_) => None,
        ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
            Some(ValueKind::Map(_) | ValueKind::List(_) | ValueKind::Int(_) | ValueKind::Bool(_)) => None,
            _ => Some(raw.to_string()),
        },
        // A typed content built by a helper (`types.Part.from_text(...)`, `Content(...)`).
        ValueKind::Other
            if raw.contains("Content(") || raw.contains("Part(") || raw.contains("Part.from") =>
        {
            None
        }
        ValueKind::Other => Some(raw.to_string()),
    }
}

/// The text of `{"parts": [{"text": ...}]}` (a role beside it aside), or of `{"text": ...}`.
fn single_text_part(map: &MapValue, text: &str) -> Option<String> {
    if !map.complete {
        return None;
    }
    // A turn of the model is not the user's input.
    if is_turn(map) && turn_role(map) != Some("user") {
        return None;
    }
    let keys: Vec<String> = map.entries.iter().map(|e| snake_case(&e.key)).collect();
    match keys.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["text"] => {
            let value = &map.entries.first()?.value;
            string_value(value, text).filter(|_| !matches!(value.kind, ValueKind::Map(_)))
        }
        ["parts"] | ["parts", "role"] | ["role", "parts"] => {
            let parts = map.entries.iter().find(|e| snake_case(&e.key) == "parts")?;
            match &parts.value.kind {
                ValueKind::List(items) if items.len() == 1 => match &items.first()?.kind {
                    ValueKind::Map(part)
                        if part.entries.len() == 1 && snake_case(&part.entries[0].key) == "text" =>
                    {
                        single_text_part(part, text)
                    }
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// The statement binding `name` to `bound` declares its type (`contents: list[types.Content] =
/// ...`, `const contents: ContentListUnion = ...`).
fn declares_type(name: &crate::api::NameValue, bound: &Value, text: &str) -> bool {
    let Some(statement) = &name.statement else {
        return true;
    };
    let before = text.get(statement.start..bound.range.start).unwrap_or_default();
    match before.find(name.name.as_str()) {
        Some(at) => before[at + name.name.len()..].contains(':'),
        None => true,
    }
}

/// A content that is a turn of a conversation: it names its role, or its class sets it
/// (`types.UserContent(...)`, `types.ModelContent(...)`).
fn is_turn(map: &MapValue) -> bool {
    map.entries.iter().any(|e| e.key == "role")
        || matches!(map.wrapper.as_deref(), Some("UserContent" | "ModelContent"))
}

/// The text of `[{"parts": [{"text": T}]}]` (the turn's role `"user"` at most): `T`'s value.
fn single_text_value(value: &Value) -> Option<&Value> {
    let ValueKind::List(items) = &value.kind else {
        return None;
    };
    let [turn] = items.as_slice() else {
        return None;
    };
    let [part] = turn.as_map().and_then(user_turn_parts)? else {
        return None;
    };
    let map = part.as_map().filter(|m| m.complete)?;
    match map.entries.as_slice() {
        [entry] if entry.key == "text" && matches!(entry.value.kind, ValueKind::Str(_)) => Some(&entry.value),
        _ => None,
    }
}

/// The parts of a user's turn written as an object of its parts (and its role, `"user"`): `{"parts":
/// [...]}`, `{"role": "user", "parts": [...]}`.
fn user_turn_parts(map: &MapValue) -> Option<&[Value]> {
    if !map.complete || map.wrapper.is_some() || is_turn(map) && turn_role(map) != Some("user") {
        return None;
    }
    let mut parts = None;
    for entry in &map.entries {
        match (snake_case(&entry.key).as_str(), &entry.value.kind) {
            ("parts", ValueKind::List(items)) => parts = Some(items.as_slice()),
            ("role", _) => {}
            _ => return None,
        }
    }
    parts
}

/// The role of a turn, when it is written (a string) or set by its class.
fn turn_role(map: &MapValue) -> Option<&str> {
    match map.wrapper.as_deref() {
        Some("UserContent") => return Some("user"),
        Some("ModelContent") => return Some("model"),
        _ => {}
    }
    match &map.entries.iter().find(|e| e.key == "role")?.value.kind {
        ValueKind::Str(role) => Some(role.as_str()),
        _ => None,
    }
}

/// The value's text with the keys of its object literals in snake_case (`aspectRatio` →
/// `aspect_ratio`).
fn snake_keys(value: &Value, text: &str, dialect: Dialect) -> String {
    fn collect(value: &Value, dialect: Dialect, out: &mut Vec<(std::ops::Range<usize>, String)>) {
        match &value.kind {
            ValueKind::Map(map) => {
                for entry in &map.entries {
                    let snake = snake_case(&entry.key);
                    if snake != entry.key && entry.key_range != entry.value.range {
                        out.push((entry.key_range.clone(), dialect.key(&snake)));
                    }
                    collect(&entry.value, dialect, out);
                }
            }
            ValueKind::List(items) => items.iter().for_each(|item| collect(item, dialect, out)),
            _ => {}
        }
    }
    let mut renames = Vec::new();
    collect(value, dialect, &mut renames);
    renames.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let start = value.range.start;
    let mut written = text.get(value.range.clone()).unwrap_or_default().to_string();
    for (range, key) in renames {
        if range.start >= start && range.end <= value.range.end {
            written.replace_range(range.start - start..range.end - start, &key);
        }
    }
    written
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

/// The `contents` of a request as an interactions `input`, when it must be written anew: a list
/// of texts becomes a list of text contents (`[{"type": "text", "text": ...}]`), since the input
/// is a string, a content or a list of contents (the public interactions reference), never a
/// list of strings. `None` when the value is kept as written (a string, a name); `Err` when a
/// list holds something interlint cannot tell is text (an image, a file, a typed part), which
/// must become a content of its own kind by hand.
pub fn input_value(value: &Value, text: &str, dialect: Dialect) -> Result<Option<String>, String> {
    input_value_inlining(value, text, dialect, &mut Vec::new())
}

/// [`input_value`], where a name bound for this use alone may have its binding rewritten, with
/// the edits in `rewrites`: a list item bound to a typed part that has an interactions content
/// (`image = types.Part.from_uri(...)`) has the content written in its place and its binding
/// statement removed; contents bound to the name (`contents = [prompt, image]`) are written
/// as interactions contents where they are bound.
pub fn input_value_inlining(
    value: &Value,
    text: &str,
    dialect: Dialect,
    rewrites: &mut Vec<Edit>,
) -> Result<Option<String>, String> {
    let raw = text.get(value.range.clone()).unwrap_or_default();
    let typed = |raw: &str| raw.contains("Part(") || raw.contains("Part.from") || raw.contains("Content(");
    match &value.kind {
        ValueKind::List(items) => {
            // One turn of one text (`[{"role": "user", "parts": [{"text": t}]}]`): the text.
            if let [only] = items.as_slice()
                && let Some(map) = only.as_map()
                && (is_turn(map) || user_turn_parts(map).is_some())
                && let Some(inner) = single_text_part(map, text)
            {
                return Ok(Some(inner));
            }
            // One user turn of several parts (a raw body's `[{"parts": [...]}]`): its parts.
            if let [only] = items.as_slice()
                && let Some(parts) = only.as_map().and_then(user_turn_parts)
            {
                let mut contents = Vec::with_capacity(parts.len());
                for part in parts {
                    let written = text.get(part.range.clone()).unwrap_or_default();
                    let content = match part.as_map().and_then(|m| single_text_part(m, text)) {
                        Some(inner) => text_content(&inner, dialect),
                        None => map_part_content(part, text, dialect).ok_or_else(|| {
                            format!(
                                "the turn's part `{}` has no interactions content interlint writes",
                                crate::diagnostic::one_line(written)
                            )
                        })?,
                    };
                    contents.push(content);
                }
                return Ok(Some(format!("[{}]", contents.join(", "))));
            }
            let turns = items
                .iter()
                .filter(|item| item.as_map().is_some_and(is_turn))
                .count();
            if turns > 1 {
                return Err(
                    "the contents are a conversation (turns with roles): the interactions endpoint keeps it \
                     with `previous_interaction_id` (MIG003)"
                        .into(),
                );
            }
            let mut contents: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                let written = text.get(item.range.clone()).unwrap_or_default();
                let is_text = match &item.kind {
                    ValueKind::Str(_) => true,
                    ValueKind::Name(name) => {
                        matches!(name.value.as_ref().map(|v| &v.kind), Some(ValueKind::Str(_)))
                    }
                    // An f-string or a template literal, or string literals joined (`"a" + "b"`,
                    // Python's `"a" "b"`).
                    ValueKind::Other => {
                        ((written.starts_with("f\"")
                            || written.starts_with("f'")
                            || written.starts_with('`'))
                            && !typed(written))
                            || joined_strings(written, dialect)
                    }
                    _ => false,
                };
                let single_text = item.as_map().and_then(|m| single_text_part(m, text));
                match (is_text, single_text) {
                    (true, _) => contents.push(text_content(written, dialect)),
                    (false, Some(inner)) => contents.push(text_content(&inner, dialect)),
                    // A typed part naming a file by its URI and a literal mime type.
                    _ if let Some(content) = part_content(written, dialect) => contents.push(content),
                    // A name bound to such a part for this use alone.
                    _ if let ValueKind::Name(name) = &item.kind
                        && name.single_use
                        && let Some(statement) = &name.statement
                        && let Some(bound) = name.value.as_ref().and_then(|v| text.get(v.range.clone()))
                        && let Some(content) = part_content(bound, dialect) =>
                    {
                        contents.push(content);
                        rewrites.push(Edit::replace(statement_removal(text, statement.clone()), ""));
                    }
                    _ if let ValueKind::Name(name) = &item.kind
                        && let Some(bound) = name.value.as_ref().and_then(|v| text.get(v.range.clone()))
                        && part_content(bound, dialect).is_some() =>
                    {
                        return Err(format!(
                            "`{}` is bound to a typed part that other code uses too; its binding would have to \
                             be written as an interactions content ({})",
                            name.name,
                            crate::diagnostic::one_line(
                                part_content(bound, dialect).unwrap_or_default().as_str()
                            )
                        ));
                    }
                    _ if let Some(content) = map_part_content(item, text, dialect) => contents.push(content),
                    // A file uploaded in the same scope, of a kind its path tells.
                    _ if let Some(content) = uploaded_content(item, written, text, dialect) => {
                        contents.push(content)
                    }
                    _ if item.as_map().is_some_and(is_turn) => {
                        return Err(format!(
                            "the contents hold `{}`, a content in the old shape; the interactions input is a \
                             string or a list of contents",
                            crate::diagnostic::one_line(written)
                        ));
                    }
                    _ if let Some(mime) = undeclared_mime(written) => {
                        return Err(format!(
                            "the contents hold `{}`, a file of mime type `{mime}`, which no interactions content \
                             declares",
                            crate::diagnostic::one_line(written),
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "the contents hold `{}`, which interlint cannot tell is text; the interactions input \
                             is a string or a list of contents (`{}`), each of its own kind",
                            crate::diagnostic::one_line(written),
                            dialect.map(&[
                                ("type".to_string(), dialect.string("image")),
                                ("uri".to_string(), "...".to_string()),
                                ("mime_type".to_string(), "...".to_string()),
                            ])
                        ));
                    }
                }
            }
            // A list written over several lines keeps one item a line.
            if raw.contains('\n') {
                let indent = crate::api::line_indent(text, value.range.start);
                let items: String = contents
                    .iter()
                    .map(|item| format!("{indent}    {item},\n"))
                    .collect();
                return Ok(Some(format!("[\n{items}{indent}]")));
            }
            Ok(Some(format!("[{}]", contents.join(", "))))
        }
        ValueKind::Map(map) => match single_text_part(map, text) {
            Some(inner) => Ok(Some(inner)),
            None => Err(format!(
                "the contents are `{}`, a content in the old shape; the interactions input is a string or a list \
                 of contents",
                crate::diagnostic::one_line(raw)
            )),
        },
        ValueKind::Other if typed(raw) => Err(format!(
            "the contents are `{}`, a typed part; the interactions input is a string or a list of contents",
            crate::diagnostic::one_line(raw)
        )),
        // A name bound in the same scope to a list or an object: passed on as it is only when
        // it is already in the interactions shape (its binding is not rewritten).
        // A list other code adds to: what its binding holds may block first (a conversation).
        ValueKind::Name(name) if name.grown => {
            if let Some(bound) = &name.value
                && let Err(why) = input_value_inlining(bound, text, dialect, &mut Vec::new())
            {
                return Err(format!(
                    "`{}` is bound to contents it cannot pass on: {why}",
                    name.name
                ));
            }
            Err(format!(
                "`{}` is a list other code adds items to, which interlint cannot tell are interactions contents",
                name.name
            ))
        }
        ValueKind::Name(name) => match &name.value {
            Some(
                bound @ Value {
                    kind: ValueKind::List(_) | ValueKind::Map(_),
                    ..
                },
            ) => {
                let mut within = Vec::new();
                match input_value_inlining(bound, text, dialect, &mut within) {
                    Err(why) => Err(format!(
                        "`{}` is bound to contents it cannot pass on: {why}",
                        name.name
                    )),
                    // Bound for this request alone, with no declared type the new value would
                    // not fit: the binding is written anew.
                    Ok(Some(converted))
                        if name.single_use
                            // TypeScript would infer a bound object's `type` as a string, which
                            // no content's type is.
                            && dialect == Dialect::Python
                            && !declares_type(name, bound, text)
                            && Some(converted.as_str()) != text.get(bound.range.clone()) =>
                    {
                        rewrites.push(Edit::replace(bound.range.clone(), converted));
                        rewrites.append(&mut within);
                        Ok(None)
                    }
                    Ok(Some(converted)) if Some(converted.as_str()) != text.get(bound.range.clone()) => {
                        let why = if !name.single_use {
                            "other code reads it too"
                        } else if dialect != Dialect::Python {
                            "a content bound to a name is typed by its value, whose `type` would be any string"
                        } else {
                            "its declared type would not fit them"
                        };
                        Err(format!(
                            "`{}` is bound to contents in the old shape, which its binding would have to \
                             write as interactions contents ({why})",
                            name.name
                        ))
                    }
                    Ok(_) => Ok(None),
                }
            }
            // A list built otherwise (a comprehension, a sum): its items may be strings or
            // contents in the old shape, neither of which the interactions input takes.
            Some(bound) if text.get(bound.range.clone()).is_some_and(|t| t.starts_with('[')) => Err(format!(
                "`{}` is bound to `{}`, a list whose items interlint cannot tell are interactions contents",
                name.name,
                crate::diagnostic::one_line(text.get(bound.range.clone()).unwrap_or_default())
            )),
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// A typed part of the current client written as the interactions content of its kind: a file
/// by URI, bytes, or a text (`types.Part.from_text(text=t)`).
fn part_content(written: &str, dialect: Dialect) -> Option<String> {
    static FROM_TEXT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^(?:[A-Za-z_][\w.]*\.)?Part\.from_text\(\s*(?:text\s*=\s*)?(?P<text>[A-Za-z_][\w.]*|"[^"\\\n]*"|'[^'\\\n]*')\s*,?\s*\)$"#,
        )
        .ok()
    });
    if let Some(content) = uri_content(written, dialect).or_else(|| bytes_content(written, dialect)) {
        return Some(content);
    }
    if dialect != Dialect::Python {
        return None;
    }
    let caps = FROM_TEXT.as_ref()?.captures(written.trim())?;
    Some(text_content(caps.name("text")?.as_str(), dialect))
}

/// A text content of the interactions input.
fn text_content(value: &str, dialect: Dialect) -> String {
    dialect.map(&[
        ("type".to_string(), dialect.string("text")),
        ("text".to_string(), value.to_string()),
    ])
}

/// `types.Part.from_uri(file_uri=U, mime_type="image/png")` (or `Part(file_data=FileData(...))`)
/// as the interactions content of its kind: `{"type": "image", "uri": U, "mime_type": ...}`; the
/// kind comes from the literal mime type.
fn uri_content(written: &str, dialect: Dialect) -> Option<String> {
    static FROM_URI: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^(?:[A-Za-z_][\w.]*\.)?Part(?:\.from_uri\(|\(\s*file_data\s*=\s*(?:[A-Za-z_][\w.]*\.)?FileData\()\s*file_uri\s*=\s*(?P<uri>(?:[^,()]|\([^()]*\))+?)\s*,\s*mime_type\s*=\s*(?P<mime>"[^"]*"|'[^']*')\s*,?\s*\)\s*,?\s*\)?$"#,
        )
        .ok()
    });
    if dialect != Dialect::Python {
        return None;
    }
    let caps = FROM_URI.as_ref()?.captures(written.trim())?;
    // Parentheses balance: `Part(file_data=FileData(...))` closes twice, `Part.from_uri(...)` once.
    if written.matches('(').count() != written.matches(')').count() {
        return None;
    }
    let mime_written = caps.name("mime")?.as_str();
    let kind = mime_kind(mime_written.trim_matches(['"', '\'']))?;
    Some(dialect.map(&[
        ("type".to_string(), dialect.string(kind)),
        ("uri".to_string(), caps.name("uri")?.as_str().to_string()),
        ("mime_type".to_string(), mime_written.to_string()),
    ]))
}

/// `types.Part.from_bytes(data=B, mime_type="image/png")` as the interactions content of its
/// kind, which holds its data as base64 text: `{"type": "image", "data":
/// base64.b64encode(B).decode(), "mime_type": "image/png"}` (the rewrite imports `base64`).
fn bytes_content(written: &str, dialect: Dialect) -> Option<String> {
    static FROM_BYTES: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^(?:[A-Za-z_][\w.]*\.)?Part\.from_bytes\(\s*data\s*=\s*(?P<data>[A-Za-z_][\w.]*)\s*,\s*mime_type\s*=\s*(?P<mime>"[^"]*"|'[^']*')\s*,?\s*\)$"#,
        )
        .ok()
    });
    if dialect != Dialect::Python {
        return None;
    }
    let caps = FROM_BYTES.as_ref()?.captures(written.trim())?;
    let mime_written = caps.name("mime")?.as_str();
    let kind = mime_kind(mime_written.trim_matches(['"', '\'']))?;
    Some(dialect.map(&[
        ("type".to_string(), dialect.string(kind)),
        (
            "data".to_string(),
            format!("base64.b64encode({}).decode()", caps.name("data")?.as_str()),
        ),
        ("mime_type".to_string(), mime_written.to_string()),
    ]))
}

/// Whether `written` is nothing but string literals joined by `+` (and, in Python, by being
/// adjacent), within parentheses at most: a text. An f-string or a template literal counts as a
/// literal; a prefix other than `f`/`r`/`u` (bytes) does not.
fn joined_strings(written: &str, dialect: Dialect) -> bool {
    let mut rest = written.trim();
    while let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        rest = inner.trim();
    }
    let py = dialect == Dialect::Python;
    let mut literals = 0;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return literals > 1;
        }
        if literals > 0 {
            match rest.strip_prefix('+') {
                Some(after) => rest = after.trim_start(),
                None if py => {}
                None => return false,
            }
        }
        // A Python prefix (`f`, `r`, `u`, `rf`, ...), then the literal.
        let prefix = match py {
            true => rest
                .find(['"', '\''])
                .filter(|&i| {
                    i <= 2
                        && rest[..i]
                            .chars()
                            .all(|c| matches!(c, 'f' | 'F' | 'r' | 'R' | 'u' | 'U'))
                })
                .unwrap_or(0),
            false => 0,
        };
        let body = &rest[prefix..];
        let Some(quote) = body
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'') || !py && *c == '`')
        else {
            return false;
        };
        let triple: String = std::iter::repeat_n(quote, 3).collect();
        let (open, close) = match py && body.starts_with(&triple) {
            true => (3, triple.as_str()),
            false => (1, &body[..1]),
        };
        let mut end = None;
        let mut escaped = false;
        for (i, c) in body[open..].char_indices() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if body[open + i..].starts_with(close) {
                end = Some(open + i + close.len());
                break;
            } else if c == '\n' && open == 1 && quote != '`' {
                return false;
            }
        }
        let Some(end) = end else {
            return false;
        };
        rest = &body[end..];
        literals += 1;
    }
}

/// The literal mime type a part names (`mime_type="text/plain"`, `mimeType: "text/plain"`) when
/// no interactions content declares it.
fn undeclared_mime(written: &str) -> Option<String> {
    static MIME: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"(?:mime_type|mimeType)["']?\s*[=:]\s*["']([\w.+-]+/[\w.+-]+)["']"#).ok()
    });
    let mimes: Vec<&str> = MIME
        .as_ref()?
        .captures_iter(written)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .collect();
    mimes
        .into_iter()
        .find(|m| mime_kind(m).is_none())
        .map(str::to_string)
}

/// The interactions content type of a mime type (`image/png` → `image`), if one declares it
/// (the `[contents]` table of `rules/request_fields.toml`).
fn mime_kind(mime: &str) -> Option<&'static str> {
    crate::request_fields::content_kind_of_mime(mime)
}

/// A part written as a plain object naming a file (`{"file_data": {"file_uri": U, "mime_type":
/// "image/png"}}`, JavaScript's `{ fileData: { fileUri, mimeType } }`) or, in JavaScript, holding
/// base64 data (`{ inlineData: { data, mimeType } }`, whose `data` is a base64 string in both
/// packages), with a literal mime type: the interactions content of its kind. Python's
/// `inline_data` holds bytes, which the interactions content does not take: not converted.
fn map_part_content(item: &Value, text: &str, dialect: Dialect) -> Option<String> {
    let map = item.as_map().filter(|m| m.complete)?;
    let [entry] = map.entries.as_slice() else {
        return None;
    };
    let (value_key, target) = match snake_case(&entry.key).as_str() {
        "file_data" => ("file_uri", "uri"),
        // Base64 text in JavaScript and in a JSON body; Python's holds bytes.
        "inline_data" if dialect != Dialect::Python => ("data", "data"),
        _ => return None,
    };
    let inner = entry.value.as_map().filter(|m| m.complete)?;
    let mut value = None;
    let mut mime = None;
    for e in &inner.entries {
        match snake_case(&e.key).as_str() {
            k if k == value_key => value = Some(e),
            "mime_type" => mime = Some(e),
            _ => return None,
        }
    }
    let (value, mime) = (value?, mime?);
    let ValueKind::Str(mime_text) = &mime.value.kind else {
        return None;
    };
    let kind = mime_kind(mime_text)?;
    // `{ fileUri }` shorthand names a variable: its name is the value.
    let value_text = text.get(value.value.range.clone())?;
    Some(dialect.map(&[
        ("type".to_string(), dialect.string(kind)),
        (target.to_string(), value_text.to_string()),
        (
            "mime_type".to_string(),
            text.get(mime.value.range.clone())?.to_string(),
        ),
    ]))
}

/// Built-in tools whose old declaration is an empty object (`{"google_search": {}}`,
/// `types.Tool(code_execution=types.ToolCodeExecution())`) and whose interactions tool is its type
/// alone (`{"type": "google_search"}`), after the public interactions reference.
const TYPE_ONLY_TOOLS: &[&str] = &["google_search", "code_execution", "url_context"];

/// A request's `tools` in the interactions shape: each old tool object becomes one typed tool
/// per entry (`{"function_declarations": [d, ...]}` → `{"type": "function", ...d}` each,
/// `{"google_search": {}}` → `{"type": "google_search"}`); or why it cannot be written.
fn tools_value(value: &Value, text: &str, dialect: Dialect) -> Result<String, String> {
    let items: &[Value] = match &value.kind {
        ValueKind::List(items) => items,
        _ => {
            return Err(format!(
                "`tools` is `{}`, not a list written in the request; its tools need the interactions shape \
                 (`{{\"type\": \"function\", ...}}`)",
                crate::diagnostic::one_line(text.get(value.range.clone()).unwrap_or_default())
            ));
        }
    };
    let mut tools = Vec::new();
    for item in items {
        let written = text.get(item.range.clone()).unwrap_or_default();
        let Some(map) = item.resolved_map().filter(|m| m.complete) else {
            return Err(format!(
                "the tool `{}` is not an object interlint can read",
                crate::diagnostic::one_line(written)
            ));
        };
        for entry in &map.entries {
            let key = snake_case(&entry.key);
            if TYPE_ONLY_TOOLS.contains(&key.as_str()) {
                let empty = entry
                    .value
                    .as_map()
                    .is_some_and(|m| m.complete && m.entries.is_empty());
                if !empty {
                    return Err(format!(
                        "the tool `{}` has settings interlint does not carry over",
                        entry.key
                    ));
                }
                tools.push(dialect.map(&[("type".to_string(), dialect.string(&key))]));
                continue;
            }
            if key != "function_declarations" {
                return Err(format!(
                    "the tool `{}` has no automatic rewrite to the interactions shape",
                    entry.key
                ));
            }
            let ValueKind::List(declarations) = &entry.value.kind else {
                return Err(format!("`{}` is not a list written in the request", entry.key));
            };
            for declaration in declarations {
                let shown = text.get(declaration.range.clone()).unwrap_or_default();
                let Some(fields) = declaration.resolved_map().filter(|m| m.complete) else {
                    return Err(format!(
                        "the function declaration `{}` is not an object interlint can read",
                        crate::diagnostic::one_line(shown)
                    ));
                };
                let mut function = vec![("type".to_string(), dialect.string("function"))];
                for field in &fields.entries {
                    let name = snake_case(&field.key);
                    let value = text.get(field.value.range.clone()).unwrap_or_default();
                    match name.as_str() {
                        "name" | "description" => function.push((name, value.to_string())),
                        "parameters" | "parameters_json_schema" => {
                            if field.value.as_map().is_some_and(|m| m.wrapper.is_some()) {
                                return Err(format!(
                                    "the function declaration's `{}` is a typed schema; write it as JSON Schema",
                                    field.key
                                ));
                            }
                            function.push(("parameters".to_string(), lower_schema_types(value)))
                        }
                        other => {
                            return Err(format!(
                                "the function declaration's `{other}` has no place in an interactions tool"
                            ));
                        }
                    }
                }
                tools.push(dialect.map(&function));
            }
        }
    }
    Ok(format!("[{}]", tools.join(", ")))
}

/// A schema's OpenAPI-style type names as JSON Schema's (`"OBJECT"` → `"object"`).
fn lower_schema_types(schema: &str) -> String {
    super::structured_output::lower_type_names(schema).unwrap_or_else(|| schema.to_string())
}

/// A name bound in the same scope to an upload whose path's extension tells the kind
/// (`myfile = client.files.upload(file="report.pdf")`, the legacy `genai.upload_file(...)`, the
/// JavaScript `ai.files.upload({ file: "a.png" })`): the content naming the uploaded file,
/// `{"type": "document", "uri": myfile.uri, "mime_type": myfile.mime_type}`.
fn uploaded_content(item: &Value, written: &str, text: &str, dialect: Dialect) -> Option<String> {
    static PATH: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#"["'`][^"'`]*\.([A-Za-z0-9]+)["'`]"#).ok());
    let ValueKind::Name(name) = &item.kind else {
        return None;
    };
    let bound = text.get(name.value.as_ref()?.range.clone())?;
    let call = bound.trim_start_matches("await").trim();
    if !(call.contains("files.upload(") || call.contains("upload_file(")) {
        return None;
    }
    let extensions: Vec<String> = PATH
        .as_ref()?
        .captures_iter(call)
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_ascii_lowercase()))
        .collect();
    let [extension] = extensions.as_slice() else {
        return None;
    };
    let kind = crate::request_fields::content_kind_of_extension(extension)?;
    let member = |m: &str| format!("{written}.{}", m);
    Some(dialect.map(&[
        ("type".to_string(), dialect.string(kind)),
        ("uri".to_string(), member("uri")),
        (
            "mime_type".to_string(),
            member(if dialect == Dialect::JavaScript {
                "mimeType"
            } else {
                "mime_type"
            }),
        ),
    ]))
}

#[cfg(test)]
mod tests {
    use super::{Dialect, joined_strings};

    #[test]
    fn joined_string_literals_are_text() {
        let py = Dialect::Python;
        let js = Dialect::JavaScript;
        assert!(joined_strings(r#""a" + "b""#, js));
        assert!(joined_strings("\"What is \" +\n  `the ${x} sum` + 'of'", js));
        assert!(joined_strings(r#"("\n" "For each chair")"#, py));
        assert!(joined_strings(r#"f"a {x}" + 'b\'c'"#, py));
        assert!(joined_strings("\"\"\"a\nb\"\"\" \"c\"", py));
        // Not a text: one literal (a string already), a name, bytes, a call, adjacency in JS.
        assert!(!joined_strings(r#""a""#, py));
        assert!(!joined_strings(r#""a" + b"#, py));
        assert!(!joined_strings(r#"b"a" b"c""#, py));
        assert!(!joined_strings(r#""a" + str(b)"#, py));
        assert!(!joined_strings(r#""a" "b""#, js));
        assert!(!joined_strings(r#""a" + "b" * 2"#, js));
    }
}
