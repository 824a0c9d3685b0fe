//! The config's fields in an interactions request, driven by the request-field table
//! (`rules/request_fields.toml`, read by [`crate::request_fields`]): each entry of a config is
//! placed by its field's [`Place`], one function per place ([`Fields::no_place`],
//! [`Fields::direct`], [`Fields::nested`], [`Fields::thinking`], [`Fields::content`]), its value
//! written in the field's interactions shape by [`field_value`] (mapped, a plain string, keys in
//! snake_case, a list of settings). Structured output and tools are placed whole, as their
//! modules write them.
//!
//! It imports the writer kit, structured output, the contents (a content written where a
//! string is taken) and the tools.

use crate::codegen::writer::Dialect;
use crate::codegen::writer::lines::is_dotted_name;
use crate::codegen::writer::placer::{Placed, Placer};
use crate::migration_facts::{Entry, MapValue, Value, ValueKind};
use crate::request_fields::{Place, RequestField, snake_case};
use crate::tables::Tables as Settings;

use super::contents::string_value;
use super::structured_output::{STRUCTURED_OUTPUT_KEYS, response_format};
use super::tools::{callable_tool, tools_value};

/// The config's entries as arguments of an interactions call, by the request-field table.
pub(crate) fn place_entries(
    map: &MapValue,
    model: Option<&str>,
    text: &str,
    settings: &Settings,
    dialect: Dialect,
) -> Result<Placed, String> {
    let mut fields = Fields {
        text,
        settings,
        dialect,
        model,
        placer: Placer::new(dialect),
    };
    fields.place_map(map, None)?;
    // A mime type with its schema become one top-level `response_format` (MIG004); a lone
    // `text/plain` is the default answer and goes.
    let plain_text_only = map.entries.iter().all(|e| {
        let key = snake_case(&e.key);
        !STRUCTURED_OUTPUT_KEYS.contains(&key.as_str())
            || key == "response_mime_type" && matches!(&e.value.kind, ValueKind::Str(m) if m == "text/plain")
    });
    let placer = &mut fields.placer;
    match response_format(map, text, dialect) {
        _ if plain_text_only => {}
        Some(Ok((format, inlined))) => {
            placer.inline(inlined);
            placer.put(Place::TopLevel, "response_format", format, "response_format")
        }
        Some(Err(why)) => placer.problem(format!("structured output is not carried over: {why}")),
        None => {}
    }
    fields.placer.finish()
}

/// Places a config's entries one by one, each by its field's place in the request-field table.
struct Fields<'a> {
    text: &'a str,
    settings: &'a Settings,
    dialect: Dialect,
    /// The request's model id, when it is a literal.
    model: Option<&'a str>,
    placer: Placer,
}

impl<'a> Fields<'a> {
    /// The request's model is of the newest generation.
    fn newest(&self) -> bool {
        self.model
            .is_some_and(|id| self.settings.is_newest_generation(id))
    }

    fn place_map(&mut self, map: &MapValue, within: Option<&str>) -> Result<(), String> {
        for entry in &map.entries {
            self.place(entry, within)?;
        }
        Ok(())
    }

    /// One entry of the config (of its object `within`, when nested), placed by its field.
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
            match tools_value(&entry.value, self.text, self.dialect, &self.settings.fields) {
                Ok(value) => self.placer.put(Place::TopLevel, "tools", value, &shown),
                Err(problem) => self.placer.problem(problem),
            }
            return Ok(());
        }
        let settings: &'a Settings = self.settings;
        let Some(field) = settings.fields.get_within(within, &key) else {
            self.placer.unknown(shown);
            return Ok(());
        };
        if dropped(field, entry) {
            return Ok(());
        }
        match field.place {
            Place::Drop => {}
            Place::None => self.no_place(field, shown),
            Place::GenerationConfig | Place::TopLevel | Place::RequestOption => {
                self.direct(field, entry, &shown)
            }
            Place::Nested => self.nested(entry, &key, &shown)?,
            Place::Thinking => self.thinking(entry, &shown),
            Place::Content => self.content(field, entry, shown),
        }
        Ok(())
    }

    /// [`Place::None`]: the field has no place in an interactions request, and the table's note
    /// says why; a sampling setting of a request to the newest generation goes instead (MIG010).
    fn no_place(&mut self, field: &RequestField, shown: String) {
        if field.sampling && self.newest() {
            return;
        }
        self.placer.unplaced(shown, field.note.as_ref());
    }

    /// [`Place::GenerationConfig`] and [`Place::TopLevel`]: the field's value, in its new
    /// shape, in `generation_config` or as an argument of its own.
    fn direct(&mut self, field: &RequestField, entry: &Entry, shown: &str) {
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
        match field_value(field, value, shown, self.text, self.dialect) {
            Ok(value) => {
                self.placer.inline(statement);
                self.placer.put(field.place, field.target(), value, shown)
            }
            Err(problem) => self.placer.problem(problem),
        }
    }

    /// [`Place::Nested`]: a config object (`thinking_config`, named `key`) whose entries are
    /// placed one by one.
    fn nested(&mut self, entry: &Entry, key: &str, shown: &str) -> Result<(), String> {
        match &entry.value.kind {
            ValueKind::Map(inner) if inner.complete => self.place_map(inner, Some(key))?,
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
                    self.placer.inline([statement.clone()]);
                }
                self.place_map(inner, Some(key))?
            }
            _ => self.placer.problem(format!(
                "`{shown}` is not an object written in the request or bound to one in the same scope"
            )),
        }
        Ok(())
    }

    /// [`Place::Content`]: a setting each content of the input of a kind that takes it carries
    /// (`media_resolution` → `resolution`), its value mapped by the table; a request to a model
    /// of none of the field's families (by default: not of the newest generation) keeps the
    /// field, with the table's note.
    fn content(&mut self, field: &RequestField, entry: &Entry, shown: String) {
        let placed = if field.models.is_empty() {
            self.newest()
        } else {
            self.model.is_some_and(|id| {
                field
                    .models
                    .iter()
                    .any(|family| self.settings.is_of_family(id, family))
            })
        };
        if !placed {
            self.placer.unplaced(shown, field.note.as_ref());
            return;
        }
        match field_value(field, &entry.value, &shown, self.text, self.dialect) {
            Ok(value) => self.placer.put(Place::Content, field.target(), value, &shown),
            Err(problem) => self.placer.problem(problem),
        }
    }

    /// [`Place::Thinking`]: a thinking budget, a number, as the thinking level the table gives
    /// it, where the table puts `thinking_level`.
    fn thinking(&mut self, entry: &Entry, shown: &str) {
        let budget = match &entry.value.kind {
            ValueKind::Int(n) => Some(*n),
            ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
                Some(ValueKind::Int(n)) => {
                    // Bound for this request alone: the binding goes with it.
                    if name.single_use
                        && let Some(statement) = &name.statement
                    {
                        self.placer.inline([statement.clone()]);
                    }
                    Some(*n)
                }
                _ => None,
            },
            _ => None,
        };
        let fields = &self.settings.fields;
        let written = self.text.get(entry.value.range.clone()).unwrap_or_default();
        match budget {
            Some(budget) => {
                let level = self.dialect.string(fields.thinking_level(budget));
                self.placer
                    .put(fields.thinking_level_place(), "thinking_level", level, shown);
            }
            // A budget held in a name or an attribute: the mapping, written as an expression on it.
            None if is_dotted_name(written) => {
                let level = thinking_expression(written, &fields.thinking, self.dialect);
                self.placer
                    .put(fields.thinking_level_place(), "thinking_level", level, shown);
            }
            None => self.placer.problem(format!(
                "`{shown}` is neither a number nor a name or an attribute, on which its thinking level could be \
                 written as an expression"
            )),
        }
    }
}

/// The thinking level of the budget `budget` (as written) by the table's mapping, as a
/// conditional expression: `("high" if b < 0 else "minimal" if b <= 0 else ... else "high")`.
fn thinking_expression(
    budget: &str,
    mapping: &crate::request_fields::ThinkingMapping,
    dialect: Dialect,
) -> String {
    let conditional = |test: String, then: String, otherwise: String| match dialect {
        Dialect::Python => format!("{then} if {test} else {otherwise}"),
        _ => format!("{test} ? {then} : {otherwise}"),
    };
    let mut expression = dialect.string(&mapping.above);
    for level in mapping.levels.iter().rev() {
        expression = conditional(
            format!("{budget} <= {}", level.max),
            dialect.string(&level.level),
            expression,
        );
    }
    format!(
        "({})",
        conditional(
            format!("{budget} < 0"),
            dialect.string(&mapping.dynamic),
            expression
        )
    )
}

/// Whether `entry` of `field` goes from the request with nothing in its place: a field of
/// [`Place::Drop`], or one holding the value the old endpoint assumed when it was absent.
fn dropped(field: &RequestField, entry: &Entry) -> bool {
    field.place == Place::Drop
        || field
            .default
            .is_some_and(|default| matches!(entry.value.kind, ValueKind::Int(n) if n == default))
}

/// The settings of `entries` a rewrite drops (`top_k=40`, `candidate_count=1`), each as written,
/// for the fix's message.
pub(crate) fn dropped_settings(entries: &[Entry], text: &str, settings: &Settings) -> Vec<String> {
    entries
        .iter()
        .filter(|entry| {
            settings
                .fields
                .get_within(None, &snake_case(&entry.key))
                .is_some_and(|field| dropped(field, entry))
        })
        .filter_map(|entry| text.get(entry.range.clone()))
        .map(|written| format!("`{}`", crate::diagnostic::one_line(written)))
        .collect()
}

/// A field's value as written in an interactions request: mapped by the field's `values`,
/// unwrapped to a string, or with its own keys in snake_case, as the table says.
pub(crate) fn field_value(
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
    if field.speech {
        return speech_list(value, shown, text, dialect);
    }
    Ok(raw.to_string())
}

/// The entries of a map written whole (or of a name bound to one).
fn complete(value: &Value) -> Option<&[Entry]> {
    value
        .resolved_map()
        .filter(|m| m.complete)
        .map(|m| m.entries.as_slice())
}

/// The value of the entry of `entries` whose key is `key` in snake_case.
fn entry<'e>(entries: &'e [Entry], key: &str) -> Option<&'e Value> {
    entries
        .iter()
        .find(|e| snake_case(&e.key) == key)
        .map(|e| &e.value)
}

/// A predecessor speech config (`SpeechConfig(voice_config=VoiceConfig(prebuilt_voice_config=
/// PrebuiltVoiceConfig(voice_name=V)), language_code=L)`, the multi-speaker one, or the same as
/// dicts or camelCase objects) as the interactions list: `[{"voice": V, "language": L}]`, or one
/// `{"speaker": S, "voice": V}` per speaker.
fn speech_list(value: &Value, shown: &str, text: &str, dialect: Dialect) -> Result<String, String> {
    let not_carried = || {
        format!(
            "`{shown}` is not a speech config written in the request with a prebuilt voice; the interactions \
             `speech_config` is a list of `{{voice, language, speaker}}`"
        )
    };
    let written = |v: &Value| text.get(v.range.clone()).map(str::to_string);
    // `voice_config` → its prebuilt voice's name, as written.
    let voice = |voice_config: &Value| {
        let prebuilt = entry(complete(voice_config)?, "prebuilt_voice_config")?;
        let name = entry(complete(prebuilt)?, "voice_name")?;
        written(name)
    };
    let entries = complete(value).ok_or_else(not_carried)?;
    let known = ["voice_config", "language_code", "multi_speaker_voice_config"];
    if entries
        .iter()
        .any(|e| !known.contains(&snake_case(&e.key).as_str()))
    {
        return Err(not_carried());
    }
    let language = match entry(entries, "language_code") {
        Some(l) => Some(written(l).ok_or_else(not_carried)?),
        None => None,
    };
    let mut items: Vec<Vec<(String, String)>> = Vec::new();
    if let Some(single) = entry(entries, "voice_config") {
        items.push(vec![(
            "voice".to_string(),
            voice(single).ok_or_else(not_carried)?,
        )]);
    }
    if let Some(multi) = entry(entries, "multi_speaker_voice_config") {
        let speakers = entry(complete(multi).ok_or_else(not_carried)?, "speaker_voice_configs")
            .ok_or_else(not_carried)?;
        let ValueKind::List(list) = &speakers.kind else {
            return Err(not_carried());
        };
        for item in list {
            let fields = complete(item).ok_or_else(not_carried)?;
            let speaker = entry(fields, "speaker")
                .and_then(written)
                .ok_or_else(not_carried)?;
            let voice = entry(fields, "voice_config")
                .and_then(voice)
                .ok_or_else(not_carried)?;
            items.push(vec![
                ("speaker".to_string(), speaker),
                ("voice".to_string(), voice),
            ]);
        }
    }
    if items.is_empty() {
        return Err(not_carried());
    }
    let written: Vec<String> = items
        .into_iter()
        .map(|mut item| {
            if let Some(language) = &language {
                item.push(("language".to_string(), language.clone()));
            }
            dialect.map(&item)
        })
        .collect();
    Ok(format!("[{}]", written.join(", ")))
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
        _ => one(value).or_else(|| flag_value(field, value, text, dialect)),
    }
}

/// A flag held in a name (`include_thoughts=INCLUDE_THOUGHTS`), for a field whose values map
/// `true` and `false` alone: the mapping written as a conditional on it (`"auto" if
/// INCLUDE_THOUGHTS else "none"`; JavaScript `INCLUDE_THOUGHTS ? "auto" : "none"`).
fn flag_value(field: &RequestField, value: &Value, text: &str, dialect: Dialect) -> Option<String> {
    let values = field.values.as_ref()?;
    if values.len() != 2 {
        return None;
    }
    let (on, off) = (field.mapped_value("true")?, field.mapped_value("false")?);
    let written = text.get(value.range.clone())?;
    let name = matches!(value.kind, ValueKind::Name(_) | ValueKind::Other)
        && !written.is_empty()
        && written.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        });
    if !name {
        return None;
    }
    Some(match dialect {
        Dialect::Python => format!("{} if {written} else {}", dialect.string(on), dialect.string(off)),
        _ => format!("{written} ? {} : {}", dialect.string(on), dialect.string(off)),
    })
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
