//! The contents of a request as an interactions `input`: texts, turns and their parts as
//! interactions contents (text, and the kinds the `[contents]` table of
//! `rules/request_fields.toml` declares by mime type and file extension: a typed part naming a
//! URI, bytes, a file uploaded in the same scope), or why they cannot be written.
//!
//! It imports the writer kit alone.

use crate::codegen::writer::Dialect;
use crate::codegen::writer::edits::statement_removal;
use crate::diagnostic::Edit;
use crate::migration_facts::{MapValue, Value, ValueKind};
use crate::request_fields::snake_case;

/// The `contents` of a request as an interactions `input`, when it must be written anew: a list
/// of texts becomes a list of text contents (`[{"type": "text", "text": ...}]`), since the input
/// is a string, a content or a list of contents (the public interactions reference), never a
/// list of strings. `None` when the value is kept as written (a string, a name); `Err` when a
/// list holds something interlint cannot tell is text (an image, a file, a typed part), which
/// must become a content of its own kind by hand.
pub(crate) fn input_value(
    value: &Value,
    text: &str,
    dialect: Dialect,
    settings: ContentSettings<'_>,
) -> Result<Option<String>, String> {
    input_value_inlining(value, text, dialect, settings, &mut Vec::new())
}

/// [`input_value`], where a name bound for this use alone may have its binding rewritten, with
/// the edits in `rewrites`: a list item bound to a typed part that has an interactions content
/// (`image = types.Part.from_uri(...)`) has the content written in its place and its binding
/// statement removed; contents bound to the name (`contents = [prompt, image]`) are written
/// as interactions contents where they are bound.
///
/// Each image or video content written carries the request's content `settings` (its
/// `resolution`); contents kept as written, which may hold media that would not carry them, are
/// then not kept: why not, unless they are a string.
pub(crate) fn input_value_inlining(
    value: &Value,
    text: &str,
    dialect: Dialect,
    settings: ContentSettings<'_>,
    rewrites: &mut Vec<Edit>,
) -> Result<Option<String>, String> {
    let before = rewrites.len();
    let converted = convert(value, text, dialect, settings, rewrites)?;
    let string = match &value.kind {
        ValueKind::Str(_) => true,
        ValueKind::Name(name) => matches!(name.value.as_ref().map(|v| &v.kind), Some(ValueKind::Str(_))),
        _ => false,
    };
    if let Some((name, _)) = settings.first()
        && converted.is_none()
        && rewrites.len() == before
        && !string
    {
        return Err(format!(
            "the contents `{}` are not written in the request, and each of their media contents would need the \
             config's `{name}`",
            crate::diagnostic::one_line(text.get(value.range.clone()).unwrap_or_default())
        ));
    }
    Ok(converted)
}

/// [`input_value_inlining`]'s conversion, without the check that the settings reach every media.
fn convert(
    value: &Value,
    text: &str,
    dialect: Dialect,
    settings: ContentSettings<'_>,
    rewrites: &mut Vec<Edit>,
) -> Result<Option<String>, String> {
    let raw = text.get(value.range.clone()).unwrap_or_default();
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
                        None => map_part_content(part, text, dialect)
                            .ok_or_else(|| {
                                format!(
                                    "the turn's part `{}` has no interactions content interlint writes",
                                    crate::diagnostic::one_line(written)
                                )
                            })?
                            .write(settings, dialect)?,
                    };
                    contents.push(content);
                }
                return Ok(Some(format!("[{}]", contents.join(", "))));
            }
            // One user turn built by the client's factory (`[createUserContent([...])]`): its parts.
            if let [only] = items.as_slice()
                && let Some(parts) =
                    user_content_parts(text.get(only.range.clone()).unwrap_or_default(), text, dialect)
            {
                let contents = factory_parts_input(&parts, text, value.range.start, dialect, settings)?;
                return Ok(Some(list_written(&contents, raw, text, value.range.start)));
            }
            let turns = items
                .iter()
                .filter(|item| item.as_map().is_some_and(is_turn))
                .count();
            // A conversation written here: its turns as steps, or why not.
            if turns > 1 {
                let steps = conversation_steps(items, text, dialect, settings).map_err(|why| {
                    format!(
                        "the contents are a conversation (turns with roles), and {why}; the interactions \
                         endpoint keeps a conversation with `previous_interaction_id` (MIG003)"
                    )
                })?;
                return Ok(Some(list_written(&steps, raw, text, value.range.start)));
            }
            let mut contents: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                let written = text.get(item.range.clone()).unwrap_or_default();
                let is_text = is_textual(item, text, dialect);
                let single_text = item.as_map().and_then(|m| single_text_part(m, text));
                match (is_text, single_text) {
                    (true, _) => contents.push(text_content(written, dialect)),
                    (false, Some(inner)) => contents.push(text_content(&inner, dialect)),
                    // A PIL image opened from a file whose extension tells its mime type.
                    _ if let Some(image) = pil_image(written, text, dialect) => {
                        contents.push(image?.content(dialect).write(settings, dialect)?)
                    }
                    _ if let ValueKind::Name(name) = &item.kind
                        && let Some(bound) = name.value.as_ref().and_then(|v| text.get(v.range.clone()))
                        && let Some(image) = pil_image(bound, text, dialect) =>
                    {
                        let image = image.map_err(|why| format!("`{}` is {why}", name.name))?;
                        match &name.statement {
                            // Opened for this use alone: the file is sent in its place.
                            Some(statement) if name.single_use => {
                                rewrites.push(Edit::replace(statement_removal(text, statement.clone()), ""));
                            }
                            _ if changed_in_place(&name.name, text) => {
                                return Err(format!(
                                    "`{}` is a PIL image that code changes in place (a thumbnail, a paste, a \
                                     drawing), so the file it is opened from no longer shows it; an interactions \
                                     image content takes the image's bytes in base64 as `data`, with its `mime_type`",
                                    name.name
                                ));
                            }
                            // Kept for the other code using it: the file its literal path names.
                            _ if image.literal => {}
                            _ => {
                                return Err(format!(
                                    "`{}` is a PIL image that other code uses too, opened from `{}`, which may not \
                                     name the same file here; its content would be that file ({})",
                                    name.name,
                                    crate::diagnostic::one_line(&image.path),
                                    crate::diagnostic::one_line(
                                        &image.content(dialect).write(settings, dialect)?
                                    )
                                ));
                            }
                        }
                        contents.push(image.content(dialect).write(settings, dialect)?)
                    }
                    // A typed part naming a file by its URI and a literal mime type.
                    _ if let Some(content) = part_content(written, text, dialect) => {
                        contents.push(content.write(settings, dialect)?)
                    }
                    // A name bound to such a part for this use alone.
                    _ if let ValueKind::Name(name) = &item.kind
                        && name.single_use
                        && let Some(statement) = &name.statement
                        && let Some(bound) = name.value.as_ref().and_then(|v| text.get(v.range.clone()))
                        && let Some(content) = part_content(bound, text, dialect) =>
                    {
                        contents.push(content.write(settings, dialect)?);
                        rewrites.push(Edit::replace(statement_removal(text, statement.clone()), ""));
                    }
                    _ if let ValueKind::Name(name) = &item.kind
                        && let Some(bound) = name.value.as_ref().and_then(|v| text.get(v.range.clone()))
                        && part_content(bound, text, dialect).is_some() =>
                    {
                        return Err(format!(
                            "`{}` is bound to a typed part that other code uses too; its binding would have to \
                             be written as an interactions content ({})",
                            name.name,
                            crate::diagnostic::one_line(
                                part_content(bound, text, dialect)
                                    .and_then(|c| c.write(settings, dialect).ok())
                                    .unwrap_or_default()
                                    .as_str()
                            )
                        ));
                    }
                    _ if let Some(content) = map_part_content(item, text, dialect) => {
                        contents.push(content.write(settings, dialect)?)
                    }
                    // A part built by the JavaScript client's factory (`createPartFromUri(u, m)`).
                    _ if dialect == Dialect::JavaScript
                        && text.contains("@google/genai")
                        && ["createPartFromUri", "createPartFromBase64", "createPartFromText"]
                            .iter()
                            .any(|f| factory_arguments(written, f).is_some()) =>
                    {
                        contents.extend(factory_parts_input(
                            &[written],
                            text,
                            value.range.start,
                            dialect,
                            settings,
                        )?)
                    }
                    // A file uploaded in the same scope, of a kind its path tells.
                    _ if let Some(content) = uploaded_content(item, written, text, dialect) => {
                        contents.push(content.write(settings, dialect)?)
                    }
                    _ if item.as_map().is_some_and(is_turn) => {
                        return Err(format!(
                            "the contents hold `{}`, a content in the old shape; the interactions input is a \
                             string or a list of contents",
                            crate::diagnostic::one_line(written)
                        ));
                    }
                    // A file uploaded in the same scope, of a kind nothing tells.
                    _ if let ValueKind::Name(name) = &item.kind
                        && let Some(bound) = name.value.as_ref().and_then(|v| text.get(v.range.clone()))
                        && let Some(call) = crate::migration_facts::upload_call(bound) =>
                    {
                        let upload = crate::diagnostic::one_line(call);
                        return Err(match upload_extension(call, text) {
                            Some(extension) => format!(
                                "the contents hold `{}`, a file uploaded with `{upload}`, whose `.{extension}` \
                                 extension no interactions content declares (an image, audio, video or document)",
                                name.name,
                            ),
                            None => format!(
                                "the contents hold `{}`, a file uploaded with `{upload}`, whose kind interlint \
                                 cannot tell (neither a mime type the upload declares nor its path's extension: a \
                                 string literal or a module constant bound once); an interactions content of a \
                                 file is of its kind (`{}`)",
                                name.name,
                                dialect.map(&[
                                    ("type".to_string(), dialect.string("video")),
                                    ("uri".to_string(), "...".to_string()),
                                    ("mime_type".to_string(), "...".to_string()),
                                ])
                            ),
                        });
                    }
                    _ if let Some(mime) =
                        undeclared_mime(written).or_else(|| undeclared_upload_mime(item, text)) =>
                    {
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
            Ok(Some(list_written(&contents, raw, text, value.range.start)))
        }
        ValueKind::Map(map) => match single_text_part(map, text) {
            Some(inner) => Ok(Some(inner)),
            None => Err(format!(
                "the contents are `{}`, a content in the old shape; the interactions input is a string or a list \
                 of contents",
                crate::diagnostic::one_line(raw)
            )),
        },
        ValueKind::Other if let Some(parts) = user_content_parts(raw, text, dialect) => {
            let contents = factory_parts_input(&parts, text, value.range.start, dialect, settings)?;
            Ok(Some(list_written(&contents, raw, text, value.range.start)))
        }
        ValueKind::Other if builds_typed_content(raw) => Err(format!(
            "the contents are `{}`, a typed part; the interactions input is a string or a list of contents",
            crate::diagnostic::one_line(raw)
        )),
        // A name bound in the same scope to a list or an object: passed on as it is only when
        // it is already in the interactions shape (its binding is not rewritten).
        // A list other code adds to: what its binding holds may block first (a conversation).
        ValueKind::Name(name) if name.grown => {
            if let Some(bound) = &name.value
                && let Err(why) = convert(bound, text, dialect, settings, &mut Vec::new())
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
                match convert(bound, text, dialect, settings, &mut within) {
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
            Some(bound) if text.get(bound.range.clone()).is_some_and(is_list_expression) => Err(format!(
                "`{}` is bound to `{}`, a list whose items interlint cannot tell are interactions contents",
                name.name,
                crate::diagnostic::one_line(text.get(bound.range.clone()).unwrap_or_default())
            )),
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// `items` written as a list in place of `raw`, the list written at `at`: one item a line when
/// `raw` spans several lines.
fn list_written(items: &[String], raw: &str, text: &str, at: usize) -> String {
    if let Some(first_item_line) = raw.split('\n').nth(1) {
        let indent = crate::migration_facts::line_indent(text, at);
        // The items' indentation as written, else one step of four spaces.
        let written = &first_item_line[..first_item_line.len() - first_item_line.trim_start().len()];
        let item_indent = match written.len() > indent.len() && written.starts_with(indent.as_str()) {
            true => written.to_string(),
            false => format!("{indent}    "),
        };
        let items: String = items
            .iter()
            .map(|item| format!("{item_indent}{item},\n"))
            .collect();
        return format!("[\n{items}{indent}]");
    }
    format!("[{}]", items.join(", "))
}

/// A value the interactions endpoint takes as a plain string: a string, a name or expression not
/// known to hold anything else, or a content of a single text part (its text).
pub(crate) fn string_value(value: &Value, text: &str) -> Option<String> {
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
        ValueKind::Other if builds_typed_content(raw) => None,
        // An expression that writes a content in the old shape (`s ? { parts: [...] } : undefined`).
        ValueKind::Other if writes_parts(raw) => None,
        ValueKind::Other => Some(raw.to_string()),
    }
}

/// The text of `{"parts": [{"text": ...}]}` (a role beside it aside), or of `{"text": ...}`.
pub(crate) fn single_text_part(map: &MapValue, text: &str) -> Option<String> {
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
            // One part, in a list or written as the object itself (which the service reads as
            // a list of it).
            let part = match &parts.value.kind {
                ValueKind::List(items) if items.len() == 1 => items.first()?,
                ValueKind::Map(_) => &parts.value,
                _ => return None,
            };
            match &part.kind {
                ValueKind::Map(part)
                    if part.entries.len() == 1 && snake_case(&part.entries[0].key) == "text" =>
                {
                    single_text_part(part, text)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The text of `[{"parts": [{"text": T}]}]` (the turn's role `"user"` at most): `T`'s value.
pub(crate) fn single_text_value(value: &Value) -> Option<&Value> {
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

/// The turns of a conversation written in the code (`[types.Content(role="user", parts=[...]),
/// types.ModelContent("..."), {"role": "model", "parts": "..."}]`) as interactions steps, a
/// user's turn as a `user_input` step and the model's as a `model_output` step, each holding
/// its parts as contents; why not when one of them cannot be written.
pub(crate) fn conversation_steps(
    turns: &[Value],
    text: &str,
    dialect: Dialect,
    settings: ContentSettings<'_>,
) -> Result<Vec<String>, String> {
    turns
        .iter()
        .map(|turn| turn_step(turn, text, dialect, settings))
        .collect()
}

/// A user's message (a chat's turn) as a `user_input` step, to follow the steps of a history:
/// a text as a text content, or the contents it converts to; why not when it is not known to be
/// either.
pub(crate) fn user_input_step(
    message: &Value,
    text: &str,
    dialect: Dialect,
    settings: ContentSettings<'_>,
) -> Result<String, String> {
    let written = text.get(message.range.clone()).unwrap_or_default();
    let contents = if is_textual(message, text, dialect) {
        format!("[{}]", text_content(written, dialect))
    } else {
        match input_value(message, text, dialect, settings)? {
            Some(converted) if converted.starts_with('[') => converted,
            _ => {
                return Err(format!(
                    "the message `{}` is not known to be text or contents interlint writes",
                    crate::diagnostic::one_line(written)
                ));
            }
        }
    };
    Ok(dialect.map(&[
        ("type".to_string(), dialect.string("user_input")),
        ("content".to_string(), contents),
    ]))
}

/// `steps` as the list of an `input` argument of a call written at `indent`: a step a line, one
/// step deeper than the arguments (four spaces in Python, two in JavaScript).
pub(crate) fn steps_list(steps: &[String], indent: &str, dialect: Dialect) -> String {
    let step = dialect.indent_step();
    let lines: String = steps
        .iter()
        .map(|s| format!("{indent}{step}{step}{s},\n"))
        .collect();
    format!("[\n{lines}{indent}{step}]")
}

/// One turn as an interactions step ([`conversation_steps`]).
fn turn_step(
    turn: &Value,
    text: &str,
    dialect: Dialect,
    settings: ContentSettings<'_>,
) -> Result<String, String> {
    static CLASS: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"(?s)^(?:[A-Za-z_][\w.]*\.)?(?P<role>User|Model)Content\(\s*(?:parts\s*=\s*)?(?P<part>.*?)\s*,?\s*\)$"#)
            .ok()
    });
    let written = text.get(turn.range.clone()).unwrap_or_default();
    let cannot = |why: &str| {
        format!(
            "the turn `{}` cannot be written as an interactions step: {why}",
            crate::diagnostic::one_line(written)
        )
    };
    let step = |role: &str, contents: Vec<String>| -> Result<String, String> {
        let kind = match role {
            "user" => "user_input",
            "model" => "model_output",
            other => return Err(cannot(&format!("its role is `{other}`"))),
        };
        Ok(dialect.map(&[
            ("type".to_string(), dialect.string(kind)),
            ("content".to_string(), format!("[{}]", contents.join(", "))),
        ]))
    };
    let Some(map) = turn.as_map() else {
        return Err(cannot("it is not a content with a role"));
    };
    // `types.UserContent("...")`: its class sets the role, its one argument is the text.
    if !map.complete
        && map.entries.is_empty()
        && let Some(caps) = CLASS.as_ref().and_then(|c| c.captures(written.trim()))
        && let (Some(role), Some(part)) = (caps.name("role"), caps.name("part"))
    {
        let part = part.as_str();
        let literal = string_literal_end(part, dialect) == Some(part.len());
        if !(literal || textual_expression(part, dialect)) {
            return Err(cannot("its part is not known to be text"));
        }
        return step(
            &role.as_str().to_ascii_lowercase(),
            vec![text_content(part, dialect)],
        );
    }
    if !map.complete {
        return Err(cannot("its fields are not all known"));
    }
    let Some(role) = turn_role(map) else {
        return Err(cannot("its role is not written as a string"));
    };
    let mut contents = Vec::new();
    for entry in &map.entries {
        match (snake_case(&entry.key).as_str(), &entry.value.kind) {
            ("role", _) => {}
            // The legacy client's `"parts": "text"`.
            ("parts", ValueKind::Str(_)) => contents.push(text_content(
                text.get(entry.value.range.clone()).unwrap_or_default(),
                dialect,
            )),
            // A single part written as the object itself (the service reads a repeated field
            // given one value as a list of it; the REST samples write `"parts": {"text": ...}`).
            ("parts", ValueKind::List(_) | ValueKind::Map(_)) => {
                let parts = match &entry.value.kind {
                    ValueKind::List(parts) => parts.as_slice(),
                    _ => std::slice::from_ref(&entry.value),
                };
                for part in parts {
                    let part_text = text.get(part.range.clone()).unwrap_or_default();
                    let single = part.as_map().and_then(|m| single_text_part(m, text));
                    let content = match single {
                        _ if is_textual(part, text, dialect) => text_content(part_text, dialect),
                        Some(inner) => text_content(&inner, dialect),
                        None => match part_content(part_text, text, dialect)
                            .or_else(|| map_part_content(part, text, dialect))
                        {
                            Some(content) => content.write(settings, dialect)?,
                            None => {
                                return Err(cannot(&format!(
                                    "its part `{}` has no interactions content interlint writes",
                                    crate::diagnostic::one_line(part_text)
                                )));
                            }
                        },
                    };
                    contents.push(content);
                }
            }
            (key, _) => {
                return Err(cannot(&format!(
                    "its `{key}` is not a list of parts written here"
                )));
            }
        }
    }
    step(role, contents)
}

/// The statement binding `name` to `bound` declares its type (`contents: list[types.Content] =
/// ...`, `const contents: ContentListUnion = ...`).
fn declares_type(name: &crate::migration_facts::NameValue, bound: &Value, text: &str) -> bool {
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
            // One part written as the object itself, which the service reads as a list of it.
            ("parts", ValueKind::Map(_)) => parts = Some(std::slice::from_ref(&entry.value)),
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

/// A typed part of the current client written as the interactions content of its kind: a file
/// by URI, bytes, or a text (`types.Part.from_text(text=t)`).
fn part_content(written: &str, text: &str, dialect: Dialect) -> Option<Content> {
    static FROM_TEXT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^(?:[A-Za-z_][\w.]*\.)?Part\.from_text\(\s*(?:text\s*=\s*)?(?P<text>[A-Za-z_][\w.]*|"[^"\\\n]*"|'[^'\\\n]*')\s*,?\s*\)$"#,
        )
        .ok()
    });
    if let Some(content) =
        uri_content(written, text, dialect).or_else(|| bytes_content(written, text, dialect))
    {
        return Some(content);
    }
    if dialect != Dialect::Python {
        return None;
    }
    let caps = FROM_TEXT.as_ref()?.captures(written.trim())?;
    Some(Content::new(
        "text",
        vec![("text".to_string(), caps.name("text")?.as_str().to_string())],
        dialect,
    ))
}

/// A PIL image opened from a file (`PIL.Image.open("organ.jpg")`, `Image.open(media / "organ.jpg")`,
/// the module imported from `PIL`), whose path ends in an image extension: that file, which an
/// interactions image content sends as its `data` (the client reads and encodes a path given
/// there: python-genai's `Base64FileInput`).
struct PilImage {
    /// The path written: a `pathlib.Path` already when it is a division (`media / "a.jpg"`).
    path: String,
    mime_type: &'static str,
    /// The path is a string literal alone: it names the same file wherever it is written.
    literal: bool,
}

impl PilImage {
    fn content(&self, dialect: Dialect) -> Content {
        let data = match at_top_level(&self.path, '/') {
            true => self.path.clone(),
            false => format!("pathlib.Path({})", self.path),
        };
        Content::new(
            "image",
            vec![
                ("data".to_string(), data),
                ("mime_type".to_string(), dialect.string(self.mime_type)),
            ],
            dialect,
        )
    }
}

/// `written` as a PIL image opened from a file ([`PilImage`]); `Err` when it opens something whose
/// mime type its path does not tell (a stream, a URL, a path held in a name), `None` when it opens
/// no PIL image.
fn pil_image(written: &str, text: &str, dialect: Dialect) -> Option<Result<PilImage, String>> {
    static OPEN: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?s)^(?P<module>[A-Za-z_][\w.]*)\.open\(\s*(?P<path>.+?)\s*,?\s*\)$").ok()
    });
    static EXTENSION: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#"\.([A-Za-z0-9]+)["']\)*$"#).ok());
    if dialect != Dialect::Python {
        return None;
    }
    let caps = OPEN.as_ref()?.captures(written.trim())?;
    let module = caps.name("module")?.as_str();
    if !pil_image_module(module, text) {
        return None;
    }
    let path = caps.name("path")?.as_str();
    // One argument, and the call's own parentheses (not `open(p).resize((w, h))`).
    if at_top_level(path, ',') || !balanced(path) {
        return None;
    }
    let unknown = || {
        Some(Err(format!(
            "a PIL image opened from `{}`, whose mime type interlint cannot tell from a path's extension; an \
             interactions image content takes the file's path or its bytes in base64 as `data`, with its `mime_type`",
            crate::diagnostic::one_line(path)
        )))
    };
    if path.contains("://") || path.contains("BytesIO") || path.contains("open(") {
        return unknown();
    }
    let Some(extension) = EXTENSION.as_ref()?.captures(path).and_then(|c| c.get(1)) else {
        return unknown();
    };
    let Some(("image", mime_type)) =
        crate::request_fields::content_of_extension(&extension.as_str().to_ascii_lowercase())
    else {
        return unknown();
    };
    let literal = path_is_constant(path, text, dialect);
    Some(Ok(PilImage {
        path: path.to_string(),
        mime_type,
        literal,
    }))
}

/// Whether `path` names the same file wherever it is written in `text`: a string literal (not
/// an f-string), or a module constant bound once at the top level divided by one
/// (`media / "organ.jpg"`).
fn path_is_constant(path: &str, text: &str, dialect: Dialect) -> bool {
    let literal = |p: &str| string_literal_end(p, dialect) == Some(p.len()) && !p.starts_with(['f', 'F']);
    if literal(path) {
        return true;
    }
    let Some((base, file)) = path.split_once('/') else {
        return false;
    };
    let (base, file) = (base.trim(), file.trim());
    let bound_once = |name: &str| {
        let assigned = regex::Regex::new(&format!(
            r"(?m)^[ \t]*{}[ \t]*(?::[^=\n]*)?=[^=]",
            regex::escape(name)
        ));
        let at_top = regex::Regex::new(&format!(r"(?m)^{}[ \t]*(?::[^=\n]*)?=[^=]", regex::escape(name)));
        matches!((assigned, at_top), (Ok(a), Ok(t)) if a.find_iter(text).count() == 1 && t.is_match(text))
    };
    base.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !base.starts_with(|c: char| c.is_ascii_digit())
        && literal(file)
        && bound_once(base)
}

/// Whether `written`'s brackets close in order, none before it opens.
fn balanced(written: &str) -> bool {
    bracket_depths(written).is_some_and(|(_, open)| open == 0)
}

/// Whether `module` names PIL's `Image` module as the document imports it (`from PIL import
/// Image`, `... import Image as PILImage`, `import PIL.Image`, `import PIL`).
fn pil_image_module(module: &str, text: &str) -> bool {
    static FROM: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)^[ \t]*from[ \t]+PIL[ \t]+import[ \t]+\(?([^\n)]*)").ok()
    });
    static IMPORT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)^[ \t]*import[ \t]+PIL(?:\.Image)?(?:[ \t]+as[ \t]+(\w+))?[ \t]*(?:#.*)?$")
            .ok()
    });
    let (Some(from), Some(import)) = (FROM.as_ref(), IMPORT.as_ref()) else {
        return false;
    };
    let imported_from = from.captures_iter(text).any(|c| {
        c.get(1).is_some_and(|names| {
            names.as_str().split(',').any(|name| {
                let mut words = name.split_whitespace();
                match (words.next(), words.next(), words.next()) {
                    (Some("Image"), None, _) => module == "Image",
                    (Some("Image"), Some("as"), Some(alias)) => module == alias,
                    _ => false,
                }
            })
        })
    });
    imported_from
        || import.captures_iter(text).any(|c| match c.get(1) {
            Some(alias) => {
                module == alias.as_str() && c.get(0).is_some_and(|m| m.as_str().contains("PIL.Image"))
            }
            None => module == "PIL.Image",
        })
}

/// Whether code in `text` changes the PIL image `name` holds in place (`thumbnail`, `paste`, a
/// drawing on it), after which its file no longer shows it.
fn changed_in_place(name: &str, text: &str) -> bool {
    let pattern = format!(
        r"\b{0}\.(?:thumbnail|paste|put\w*|draft|frombytes|alpha_composite|seek)\(|Draw\(\s*{0}\b",
        regex::escape(name)
    );
    regex::Regex::new(&pattern).is_ok_and(|re| re.is_match(text))
}

/// Whether `written` holds `wanted` outside its brackets and strings: a comma (more than one
/// argument), a division (`media / "organ.jpg"`, a `pathlib` path).
fn at_top_level(written: &str, wanted: char) -> bool {
    bracket_depths(written)
        .is_some_and(|(chars, _)| chars.iter().any(|&(c, depth)| c == wanted && depth == 0))
}

/// The characters of `written` outside its strings, each with the number of brackets open around
/// it, and the number left open at its end; `None` when a bracket closes that did not open.
fn bracket_depths(written: &str) -> Option<(Vec<(char, u32)>, u32)> {
    let mut depth = 0u32;
    let mut quote = None;
    let mut chars = Vec::new();
    for c in written.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.checked_sub(1)?,
            (None, c) => chars.push((c, depth)),
        }
    }
    Some((chars, depth))
}

/// The parts of a user turn built by the JavaScript client's factory, `createUserContent(parts)`
/// (a part, or a list of them written in the call), in a document that imports `@google/genai`.
fn user_content_parts<'t>(written: &'t str, text: &str, dialect: Dialect) -> Option<Vec<&'t str>> {
    if dialect != Dialect::JavaScript || !text.contains("@google/genai") {
        return None;
    }
    let args = factory_arguments(written, "createUserContent")?;
    let [parts] = args.as_slice() else {
        return None;
    };
    match parts.strip_prefix('[').and_then(|p| p.strip_suffix(']')) {
        Some(list) if balanced(list) => Some(split_top_level(list)),
        _ => Some(vec![parts]),
    }
}

/// The arguments of a call of the client's factory `name` written alone (`createPartFromUri(u,
/// m)`, through a namespace import too): each trimmed; `None` when `written` is no such call.
fn factory_arguments<'t>(written: &'t str, name: &str) -> Option<Vec<&'t str>> {
    let written = written.trim();
    let open = written.find('(')?;
    let callee = &written[..open];
    let (namespace, called) = callee.rsplit_once('.').unwrap_or(("", callee));
    if called != name
        || !namespace
            .chars()
            .all(|c| c == '_' || c == '$' || c.is_ascii_alphanumeric())
    {
        return None;
    }
    let inner = written[open + 1..].strip_suffix(')')?;
    balanced(inner).then(|| split_top_level(inner))
}

/// `written` split at its commas outside brackets and strings, each piece trimmed, an empty last
/// one (a trailing comma) left out.
fn split_top_level(written: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut depth = 0u32;
    let mut quote = None;
    let mut start = 0;
    for (i, c) in written.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                pieces.push(written[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = written[start..].trim();
    if !last.is_empty() {
        pieces.push(last);
    }
    pieces
}

/// The parts of a turn built with the JavaScript client's factories as interactions contents: a
/// text (a string or template literal, `createPartFromText(t)`), a file by its URI
/// (`createPartFromUri(uri, mimeType)`) or base64 data (`createPartFromBase64(data, mimeType)`)
/// of the kind its mime type tells: a literal, or the `mimeType` of a file uploaded from a path
/// whose extension tells it.
fn factory_parts_input(
    parts: &[&str],
    text: &str,
    at: usize,
    dialect: Dialect,
    settings: ContentSettings<'_>,
) -> Result<Vec<String>, String> {
    let mut contents = Vec::with_capacity(parts.len());
    for part in parts {
        let bound_text = || {
            nearest_binding(part, text, at).is_some_and(|bound| {
                string_literal_end(bound, dialect) == Some(bound.len()) || textual_expression(bound, dialect)
            })
        };
        if string_literal_end(part, dialect) == Some(part.len())
            || textual_expression(part, dialect)
            || bound_text()
        {
            contents.push(text_content(part, dialect));
            continue;
        }
        if let Some(args) = factory_arguments(part, "createPartFromText")
            && let [only] = args.as_slice()
        {
            contents.push(text_content(only, dialect));
            continue;
        }
        let file = factory_arguments(part, "createPartFromUri")
            .map(|args| ("uri", args))
            .or_else(|| factory_arguments(part, "createPartFromBase64").map(|args| ("data", args)));
        let content = match file.as_ref().map(|(field, args)| (field, args.as_slice())) {
            Some((field, [value, mime])) => factory_file_kind(mime, text, at).map(|kind| {
                Content::new(
                    kind,
                    vec![
                        (field.to_string(), value.to_string()),
                        ("mime_type".to_string(), mime.to_string()),
                    ],
                    dialect,
                )
            }),
            _ => None,
        };
        match content {
            Some(content) => contents.push(content.write(settings, dialect)?),
            None => {
                return Err(format!(
                    "the user content's part `{}` has no interactions content interlint writes (a text, or a \
                     file whose mime type tells its kind)",
                    crate::diagnostic::one_line(part)
                ));
            }
        }
    }
    Ok(contents)
}

/// The content kind of a file a factory part at `at` names by its mime type `mime`: a string
/// literal, or `f.mimeType` of a name bound to a file uploaded from a path whose extension tells
/// it.
fn factory_file_kind(mime: &str, text: &str, at: usize) -> Option<&'static str> {
    if let Some(end) = string_literal_end(mime, Dialect::JavaScript)
        && end == mime.len()
        && !mime.starts_with('`')
    {
        return mime_kind(&mime[1..mime.len() - 1]);
    }
    let bound = nearest_binding(mime.strip_suffix(".mimeType")?, text, at)?;
    upload_kind(crate::migration_facts::upload_call(bound)?, text)
}

/// The expression the JavaScript name `name` is declared with (`const name = ...`) where it is
/// read, at `at`: its last declaration before `at`, with no other assignment to it in between
/// (but one fetching the same file again, `f = await ai.files.get({ name: f.name })`) and no line
/// between less indented than the declaration (its block is not left); `None` when there is none
/// such.
fn nearest_binding<'t>(name: &str, text: &'t str, at: usize) -> Option<&'t str> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c == '_' || c == '$' || c.is_ascii_alphanumeric())
    {
        return None;
    }
    let declared =
        regex::Regex::new(&format!(r"\b(?:const|let|var)\s+{}\s*=\s*", regex::escape(name))).ok()?;
    let assigned = regex::Regex::new(&format!(r"(?:^|[^\w$.]){}\s*=[^=>]", regex::escape(name))).ok()?;
    let before = text.get(..at)?;
    let declaration = declared.find_iter(before).last()?;
    let between = &before[declaration.start()..];
    let indent = |line: &str| line.len() - line.trim_start().len();
    let line_start = before[..declaration.start()].rfind('\n').map_or(0, |i| i + 1);
    let own = indent(&before[line_start..]);
    // `f = await ai.files.get({ name: f.name })`, written without its spaces.
    let refetch = |value: &str| {
        let line: String = value
            .split('\n')
            .next()
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let call = line.strip_prefix("await").unwrap_or(&line);
        call.split_once(".files.get(").is_some_and(|(client, args)| {
            client
                .chars()
                .all(|c| c == '_' || c == '$' || c == '.' || c.is_ascii_alphanumeric())
                && args.trim_end_matches(';') == format!("{{name:{name}.name}})")
        })
    };
    let reassigned = assigned
        .find_iter(between)
        .skip(1)
        .any(|m| !refetch(&between[m.end() - 1..]));
    if reassigned
        || between
            .lines()
            .skip(1)
            .any(|l| !l.trim().is_empty() && indent(l) < own)
    {
        return None;
    }
    let rest = &text[declaration.end()..];
    // The bound expression: up to its statement's end, outside brackets.
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return Some(rest[..i].trim()),
            ')' | ']' | '}' => depth -= 1,
            ';' | '\n' if depth == 0 => return Some(rest[..i].trim()),
            _ => {}
        }
    }
    Some(rest.trim())
}

/// The content kind of the file an upload call sends (`files.upload(file="report.pdf")`): the
/// mime type its config declares, else the extension of its path.
fn upload_kind(call: &str, text: &str) -> Option<&'static str> {
    // A mime type the upload's config declares (`config: { mimeType: "image/jpeg" }`) is the file's.
    if let [mime] = declared_mimes(call).as_slice() {
        return mime_kind(mime);
    }
    crate::request_fields::content_kind_of_extension(&upload_extension(call, text)?)
}

/// The extension (lower case) of the path an upload call sends: of the one path literal it
/// holds, or of the string a module constant naming its path is bound to (`upload_file(path=
/// video_file_name)`, `video_file_name = "GreatRedSpot.mp4"` bound once).
fn upload_extension(call: &str, text: &str) -> Option<String> {
    static PATH: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#"["'`][^"'`]*\.([A-Za-z0-9]+)["'`]"#).ok());
    // The path as a name alone: `upload_file(path=NAME)`, `upload(file=NAME)`, `upload_file(NAME)`.
    static PATH_NAME: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?:upload_file|files\.upload)\(\s*(?:(?:path|file)\s*=\s*)?([A-Za-z_]\w*)\s*[,)]")
            .ok()
    });
    let extensions: Vec<String> = PATH
        .as_ref()?
        .captures_iter(call)
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_ascii_lowercase()))
        .collect();
    match extensions.as_slice() {
        [only] => return Some(only.clone()),
        [] => {}
        _ => return None,
    }
    let name = PATH_NAME.as_ref()?.captures(call)?.get(1)?;
    let path = literal_or_constant(name.as_str(), text)?;
    let (_, extension) = path.rsplit_once('.')?;
    (!extension.is_empty() && extension.chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| extension.to_ascii_lowercase())
}

/// A text content of the interactions input.
fn text_content(value: &str, dialect: Dialect) -> String {
    dialect.map(&[
        ("type".to_string(), dialect.string("text")),
        ("text".to_string(), value.to_string()),
    ])
}

/// The settings of a request that each content of the input of a kind that takes them carries,
/// as written (`("resolution", "\"high\"")`, from the config's `media_resolution`).
pub(crate) type ContentSettings<'s> = &'s [(String, String)];

/// An interactions content of the input, before it is written: its kind (`image`) and its
/// entries, `type` first.
struct Content {
    kind: &'static str,
    entries: Vec<(String, String)>,
}

impl Content {
    fn new(kind: &'static str, entries: Vec<(String, String)>, dialect: Dialect) -> Self {
        let mut all = vec![("type".to_string(), dialect.string(kind))];
        all.extend(entries);
        Content { kind, entries: all }
    }

    /// The content written, with the request's `settings` its kind takes (the `[contents]`
    /// table's `takes`); `Err` when a content other than a text does not take one of them (a
    /// document's resolution), which the request would no longer apply to it.
    fn write(mut self, settings: ContentSettings<'_>, dialect: Dialect) -> Result<String, String> {
        for (name, value) in settings {
            // A content's own setting (a part's media resolution) wins over the request's.
            if self.entries.iter().any(|(own, _)| own == name) {
                continue;
            }
            if crate::request_fields::content_kind_takes(self.kind, name) {
                self.entries.push((name.clone(), value.clone()));
            } else if self.kind != "text" {
                return Err(format!(
                    "the contents hold a `{kind}` content, for which the config sets a `{name}` (it sets one \
                     for every media input): an interactions `{kind}` content has no counterpart for it",
                    kind = self.kind
                ));
            }
        }
        Ok(dialect.map(&self.entries))
    }
}

/// The string a mime type written as a literal holds, or the one a module constant in capitals
/// (`PDF_MIME_TYPE`) is bound to: assigned once in `text`, at the top level, to a string literal.
fn literal_or_constant(written: &str, text: &str) -> Option<String> {
    if written.starts_with(['"', '\'']) {
        return Some(written.trim_matches(['"', '\'']).to_string());
    }
    let assigned = regex::Regex::new(&format!(r"(?m)^[ \t]*{written}[ \t]*(?::[^=\n]*)?=[^=]")).ok()?;
    let constant = regex::Regex::new(&format!(
        r#"(?m)^{written}[ \t]*(?::[^=\n]*)?=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)')[ \t]*(?:#.*)?$"#
    ))
    .ok()?;
    if assigned.find_iter(text).count() != 1 {
        return None;
    }
    let caps = constant.captures(text)?;
    caps.get(1)
        .or_else(|| caps.get(2))
        .map(|m| m.as_str().to_string())
}

/// `types.Part.from_uri(file_uri=U, mime_type="image/png")` (or `Part(file_data=FileData(...))`)
/// as the interactions content of its kind: `{"type": "image", "uri": U, "mime_type": ...}`; the
/// kind comes from the literal mime type. The part's own `media_resolution`
/// (`PartMediaResolution(level=...)`) is the content's `resolution`.
fn uri_content(written: &str, text: &str, dialect: Dialect) -> Option<Content> {
    static FROM_URI: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^(?:[A-Za-z_][\w.]*\.)?Part(?:\.from_uri\(|\(\s*file_data\s*=\s*(?:[A-Za-z_][\w.]*\.)?FileData\()\s*file_uri\s*=\s*(?P<uri>(?:[^,()]|\([^()]*\))+?)\s*,\s*mime_type\s*=\s*(?P<mime>"[^"]*"|'[^']*'|[A-Z_][A-Z0-9_]*)\s*,?\s*(?:\)\s*,?\s*)?(?:media_resolution\s*=\s*(?:[A-Za-z_][\w.]*\.)?PartMediaResolution\(\s*level\s*=\s*(?:[A-Za-z_][\w.]*\.)?(?P<level>MEDIA_RESOLUTION_[A-Z_]+)\s*,?\s*\)\s*,?\s*)?\)?$"#,
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
    let mime = literal_or_constant(mime_written, text)?;
    let mut fields = vec![("uri".to_string(), caps.name("uri")?.as_str().to_string())];
    // A mime type of any file of a kind (`video/*`): the content of that kind names none.
    let kind = match mime_kind(&mime) {
        Some(kind) => {
            fields.push(("mime_type".to_string(), mime_written.to_string()));
            kind
        }
        None => crate::request_fields::content_kind_of_any_mime(&mime)?,
    };
    // The part's own media resolution: the content's, when its kind takes one.
    if let Some(level) = caps.name("level") {
        let resolution = crate::request_fields::part_resolution(level.as_str())?;
        if !crate::request_fields::content_kind_takes(kind, "resolution") {
            return None;
        }
        fields.push(("resolution".to_string(), dialect.string(resolution)));
    }
    Some(Content::new(kind, fields, dialect))
}

/// `types.Part.from_bytes(data=B, mime_type="image/png")` as the interactions content of its
/// kind, which holds its data as base64 text: `{"type": "image", "data":
/// base64.b64encode(B).decode(), "mime_type": "image/png"}` (the rewrite imports `base64`).
fn bytes_content(written: &str, text: &str, dialect: Dialect) -> Option<Content> {
    static FROM_BYTES: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"^(?:[A-Za-z_][\w.]*\.)?Part\.from_bytes\(\s*data\s*=\s*(?P<data>[A-Za-z_][\w.]*)\s*,\s*mime_type\s*=\s*(?P<mime>"[^"]*"|'[^']*'|[A-Z_][A-Z0-9_]*)\s*,?\s*\)$"#,
        )
        .ok()
    });
    if dialect != Dialect::Python {
        return None;
    }
    let caps = FROM_BYTES.as_ref()?.captures(written.trim())?;
    let mime_written = caps.name("mime")?.as_str();
    let kind = mime_kind(&literal_or_constant(mime_written, text)?)?;
    Some(Content::new(
        kind,
        vec![
            (
                "data".to_string(),
                format!("base64.b64encode({}).decode()", caps.name("data")?.as_str()),
            ),
            ("mime_type".to_string(), mime_written.to_string()),
        ],
        dialect,
    ))
}

/// A part written as a plain object naming a file (`{"file_data": {"file_uri": U, "mime_type":
/// "image/png"}}`, JavaScript's `{ fileData: { fileUri, mimeType } }`) or, in JavaScript, holding
/// base64 data (`{ inlineData: { data, mimeType } }`, whose `data` is a base64 string in both
/// packages), with a literal mime type: the interactions content of its kind. Python's
/// `inline_data` holds bytes, which the interactions content does not take: not converted.
fn map_part_content(item: &Value, text: &str, dialect: Dialect) -> Option<Content> {
    let map = item.as_map().filter(|m| m.complete)?;
    if let Some(content) = legacy_blob_content(map, text, dialect) {
        return Some(content);
    }
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
    let value = value?;
    // `{ fileUri }` shorthand names a variable: its name is the value.
    let value_text = text.get(value.value.range.clone())?;
    // A URL that needs no mime type (a YouTube URL), written or bound once.
    let Some(mime) = mime else {
        if target != "uri" {
            return None;
        }
        let uri = match &value.value.kind {
            ValueKind::Str(uri) => uri.clone(),
            _ if dialect == Dialect::Python => literal_or_constant(value_text, text)?,
            _ => {
                let bound = nearest_binding(value_text, text, item.range.start)?;
                bound
                    .strip_prefix(['"', '\''])?
                    .strip_suffix(['"', '\''])?
                    .to_string()
            }
        };
        let kind = crate::request_fields::content_kind_of_uri(&uri)?;
        return Some(Content::new(
            kind,
            vec![(target.to_string(), value_text.to_string())],
            dialect,
        ));
    };
    if let ValueKind::Str(any) = &mime.value.kind
        && let Some(kind) = crate::request_fields::content_kind_of_any_mime(any)
    {
        return Some(Content::new(
            kind,
            vec![(target.to_string(), value_text.to_string())],
            dialect,
        ));
    }
    let kind = match &mime.value.kind {
        ValueKind::Str(mime_text) => mime_kind(mime_text)?,
        // The legacy file manager's upload, of the kind its declared mime type tells.
        _ if dialect == Dialect::JavaScript && target == "uri" => legacy_upload_kind(
            value_text,
            text.get(mime.value.range.clone())?,
            text,
            item.range.start,
        )?,
        _ => return None,
    };
    Some(Content::new(
        kind,
        vec![
            (target.to_string(), value_text.to_string()),
            (
                "mime_type".to_string(),
                text.get(mime.value.range.clone())?.to_string(),
            ),
        ],
        dialect,
    ))
}

/// The kind of a file the legacy package's file manager uploaded, named as `{ fileUri: U.file.uri,
/// mimeType: U.file.mimeType }` where `U` is bound (at `at`, and not bound again) to
/// `await fileManager.uploadFile(path, { mimeType: "image/jpeg" })` in a module importing the
/// file manager from the legacy package's server module: the kind its declared mime type (or its
/// path's extension) tells.
fn legacy_upload_kind(uri: &str, mime: &str, text: &str, at: usize) -> Option<&'static str> {
    upload_kind(legacy_upload_call(uri, mime, text, at)?, text)
}

/// The legacy file manager's upload call a part names (see [`legacy_upload_kind`]).
fn legacy_upload_call<'t>(uri: &str, mime: &str, text: &'t str, at: usize) -> Option<&'t str> {
    let upload = uri.strip_suffix(".file.uri")?;
    if mime != format!("{upload}.file.mimeType")
        || !text.contains(crate::migration_facts::LEGACY_JS_SERVER_MODULE)
    {
        return None;
    }
    let bound = nearest_binding(upload, text, at)?;
    let call = bound.strip_prefix("await")?.trim_start();
    let (manager, _) = call.split_once(".uploadFile(")?;
    if !manager
        .chars()
        .all(|c| c == '_' || c == '$' || c == '.' || c.is_ascii_alphanumeric())
    {
        return None;
    }
    Some(call)
}

/// The mime type the legacy file manager's upload declares for a file a part names (`{ fileData:
/// { fileUri: U.file.uri, mimeType: U.file.mimeType } }`), when no interactions content declares
/// it (`text/plain`).
fn undeclared_upload_mime(item: &Value, text: &str) -> Option<String> {
    let map = item.as_map()?;
    let [entry] = map.entries.as_slice() else {
        return None;
    };
    let inner = entry.value.as_map()?;
    let written = |key: &str| {
        inner
            .entries
            .iter()
            .find(|e| snake_case(&e.key) == key)
            .and_then(|e| text.get(e.value.range.clone()))
    };
    let call = legacy_upload_call(
        written("file_uri")?,
        written("mime_type")?,
        text,
        item.range.start,
    )?;
    match declared_mimes(call).as_slice() {
        [only] if mime_kind(only).is_none() => Some(only.to_string()),
        _ => None,
    }
}

/// The legacy client's blob written as a dict, `{"mime_type": "image/jpeg", "data":
/// base64.b64encode(b).decode()}` (Python), when its data is evidently base64 text (encoded in
/// the dict itself; raw bytes are not an interactions content's data): the content of the kind
/// its literal mime type tells, with the same data.
fn legacy_blob_content(map: &MapValue, text: &str, dialect: Dialect) -> Option<Content> {
    if dialect != Dialect::Python || map.wrapper.is_some() {
        return None;
    }
    let [first, second] = map.entries.as_slice() else {
        return None;
    };
    let (data, mime) = match (first.key.as_str(), second.key.as_str()) {
        ("data", "mime_type") => (first, second),
        ("mime_type", "data") => (second, first),
        _ => return None,
    };
    let ValueKind::Str(mime_text) = &mime.value.kind else {
        return None;
    };
    let data_text = text.get(data.value.range.clone())?;
    if !(data_text.contains("b64encode(")
        && data_text.trim_end().ends_with(')')
        && data_text.contains(".decode("))
    {
        return None;
    }
    Some(Content::new(
        mime_kind(mime_text)?,
        vec![
            ("data".to_string(), data_text.to_string()),
            (
                "mime_type".to_string(),
                text.get(mime.value.range.clone())?.to_string(),
            ),
        ],
        dialect,
    ))
}

/// A name bound in the same scope to an upload whose path's extension tells the kind
/// (`myfile = client.files.upload(file="report.pdf")`, the legacy `genai.upload_file(...)`, the
/// JavaScript `ai.files.upload({ file: "a.png" })`): the content naming the uploaded file,
/// `{"type": "document", "uri": myfile.uri, "mime_type": myfile.mime_type}`.
fn uploaded_content(item: &Value, written: &str, text: &str, dialect: Dialect) -> Option<Content> {
    let ValueKind::Name(name) = &item.kind else {
        return None;
    };
    let bound = text.get(name.value.as_ref()?.range.clone())?;
    let kind = upload_kind(crate::migration_facts::upload_call(bound)?, text)?;
    let member = |m: &str| format!("{written}.{}", m);
    Some(Content::new(
        kind,
        vec![
            ("uri".to_string(), member("uri")),
            (
                "mime_type".to_string(),
                member(if dialect == Dialect::JavaScript {
                    "mimeType"
                } else {
                    "mime_type"
                }),
            ),
        ],
        dialect,
    ))
}

/// Whether `raw` builds a typed content or part of the client (`types.Part.from_text(...)`,
/// `Part(...)`, `Content(...)`), whatever it holds.
fn builds_typed_content(raw: &str) -> bool {
    raw.contains("Part(") || raw.contains("Part.from") || raw.contains("Content(")
}

/// Whether `value` is known to be a text: a string literal, a name bound in the same scope to a
/// text, or an expression that makes one ([`textual_expression`]).
fn is_textual(value: &Value, text: &str, dialect: Dialect) -> bool {
    match &value.kind {
        ValueKind::Str(_) => true,
        ValueKind::Name(name) => {
            name.text_parameter
                || name
                    .value
                    .as_ref()
                    .is_some_and(|bound| is_textual(bound, text, dialect))
        }
        ValueKind::Other => textual_expression(text.get(value.range.clone()).unwrap_or_default(), dialect),
        _ => false,
    }
}

/// Whether `written` makes a text whatever its parts hold: an f-string or a template literal,
/// string literals joined ([`joined_strings`]), a string literal's method that returns a string
/// (`"...{x}".format(x=x)`, `"\n".join(lines)`), or a conversion to one (`str(x)`,
/// `json.dumps(x)`, `String(x)`, `JSON.stringify(x)`).
fn textual_expression(written: &str, dialect: Dialect) -> bool {
    const METHODS: &[&str] = &[
        "format", "join", "strip", "lstrip", "rstrip", "replace", "lower", "upper", "title", "trim", "concat",
    ];
    let conversions: &[&str] = match dialect {
        Dialect::Python => &["str(", "json.dumps("],
        Dialect::JavaScript => &["String(", "JSON.stringify("],
        Dialect::Json => &[],
    };
    let written = written.trim();
    if builds_typed_content(written) {
        return false;
    }
    if conversions.iter().any(|c| {
        written
            .strip_prefix(c)
            .is_some_and(|args| closes_at_end(args, dialect))
    }) {
        return true;
    }
    // `template.format(...)`: only strings have a `format` method that takes the values to fill
    // in (Python's `str.format`; a date library's `format()` makes a string too).
    if let Some((receiver, args)) = written.split_once(".format(")
        && !receiver.is_empty()
        && receiver
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        && closes_at_end(args, dialect)
    {
        return true;
    }
    match string_literal_end(written, dialect) {
        // One literal: an f-string or a template literal (a plain one is a `Str` value).
        Some(end) if end == written.len() => true,
        Some(end) => {
            let rest = &written[end..];
            rest.strip_prefix('.')
                .and_then(|r| r.split_once('('))
                .is_some_and(|(method, args)| METHODS.contains(&method) && closes_at_end(args, dialect))
                || joined_strings(written, dialect)
                || concatenates_literal(written, dialect)
        }
        None => joined_strings(written, dialect) || concatenates_literal(written, dialect),
    }
}

/// Whether `written` adds operands with `+` of which one is a string literal (an f-string or a
/// template literal too), each operand a name, a member, a call or an index
/// (`prompt + "\n\n" + notes`): a text, as adding to a string makes one (JavaScript converts the other operand;
/// Python's `str` takes a string alone). A conditional or any other operator at the top level
/// makes it unknown.
fn concatenates_literal(written: &str, dialect: Dialect) -> bool {
    let is_prefix =
        |o: &str| o.len() <= 2 && o.chars().all(|c| matches!(c, 'f' | 'F' | 'r' | 'R' | 'u' | 'U'));
    // Each operand as written outside brackets (`f(x).y` is `f.y`), a literal as `"`.
    let mut operands = vec![String::new()];
    let mut literal = false;
    let mut depth = 0u32;
    let mut rest = written.trim();
    while let Some(c) = rest.chars().next() {
        if matches!(c, '"' | '\'' | '`') {
            let Some(end) = string_literal_end(rest, dialect) else {
                return false;
            };
            if depth == 0 {
                let Some(operand) = operands.last_mut() else {
                    return false;
                };
                // A literal after a name (`b"..."`, bytes) is not a text.
                if !is_prefix(operand.trim()) {
                    return false;
                }
                *operand = "\"".to_string();
                literal = true;
            }
            rest = &rest[end..];
            continue;
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            '+' if depth == 0 => operands.push(String::new()),
            _ if depth == 0 => {
                if let Some(operand) = operands.last_mut() {
                    operand.push(c)
                }
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    let simple = |operand: &String| {
        let operand = operand.trim();
        operand == "\""
            || !operand.is_empty()
                && !operand.starts_with(|c: char| c.is_ascii_digit() || c == '.')
                && operand
                    .chars()
                    .all(|c| c == '_' || c == '.' || c == '$' || c.is_alphanumeric())
    };
    depth == 0 && literal && operands.len() > 1 && operands.iter().all(simple)
}

/// Whether the arguments of a call, `args` (written after its opening parenthesis), end with
/// the parenthesis that closes it: nothing is applied to the call's result. String literals in
/// the arguments are skipped.
fn closes_at_end(args: &str, dialect: Dialect) -> bool {
    let mut depth = 1usize;
    let mut at = 0;
    while at < args.len() {
        let rest = &args[at..];
        let Some(c) = rest.chars().next() else {
            break;
        };
        // A literal's prefix letters were passed over as the letters of a name.
        if matches!(c, '"' | '\'' | '`') {
            match string_literal_end(rest, dialect) {
                Some(end) => {
                    at += end;
                    continue;
                }
                None => return false,
            }
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return at + 1 == args.len();
                }
            }
            _ => {}
        }
        at += c.len_utf8();
    }
    false
}

/// Where the string literal `written` starts with ends (after its closing quote), a Python
/// prefix (`f`, `r`, `u`, `rf`, ...) included; `None` when it does not start with one (bytes
/// do not count).
fn string_literal_end(written: &str, dialect: Dialect) -> Option<usize> {
    let py = dialect == Dialect::Python;
    let prefix = match py {
        true => written
            .find(['"', '\''])
            .filter(|&i| {
                i <= 2
                    && written[..i]
                        .chars()
                        .all(|c| matches!(c, 'f' | 'F' | 'r' | 'R' | 'u' | 'U'))
            })
            .unwrap_or(0),
        false => 0,
    };
    let body = &written[prefix..];
    let quote = body
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'') || !py && *c == '`')?;
    let triple: String = std::iter::repeat_n(quote, 3).collect();
    let (open, close) = match py && body.starts_with(&triple) {
        true => (3, triple.as_str()),
        false => (1, &body[..1]),
    };
    let mut escaped = false;
    for (i, c) in body[open..].char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if body[open + i..].starts_with(close) {
            return Some(prefix + open + i + close.len());
        } else if c == '\n' && open == 1 && quote != '`' {
            return None;
        }
    }
    None
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
        let Some(end) = string_literal_end(rest, dialect) else {
            return false;
        };
        rest = &rest[end..];
        literals += 1;
    }
}

/// The literal mime type a part names (`mime_type="text/plain"`, `mimeType: "text/plain"`) when
/// no interactions content declares it.
fn undeclared_mime(written: &str) -> Option<String> {
    declared_mimes(written)
        .into_iter()
        .find(|m| mime_kind(m).is_none())
        .map(str::to_string)
}

/// The literal mime types `written` names (`mime_type="text/plain"`, `mimeType: "text/plain"`).
fn declared_mimes(written: &str) -> Vec<&str> {
    static MIME: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"(?:mime_type|mimeType)["']?\s*[=:]\s*["']([\w.+-]+/[\w.+-]+)["']"#).ok()
    });
    MIME.as_ref().map_or_else(Vec::new, |re| {
        re.captures_iter(written)
            .filter_map(|c| c.get(1).map(|m| m.as_str()))
            .collect()
    })
}

/// The interactions content type of a mime type (`image/png` → `image`), if one declares it
/// (the `[contents]` table of `rules/request_fields.toml`).
fn mime_kind(mime: &str) -> Option<&'static str> {
    crate::request_fields::content_kind_of_mime(mime)
}

/// Whether `written` writes an object with `parts` (a content in the old shape) anywhere in it.
fn writes_parts(written: &str) -> bool {
    static PARTS: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#"[{,]\s*["']?parts["']?\s*:"#).ok());
    PARTS.as_ref().is_some_and(|re| re.is_match(written))
}

/// Whether `written` builds a list: a list literal or comprehension (`[...]`), a sum with one
/// (`history + [turn]`, `[turn] + history`), or an array method that returns an array
/// (`contents.map(...)`, `.filter(...)`, `.concat(...)`, `Array.from(...)`, `list(...)`).
fn is_list_expression(written: &str) -> bool {
    static ARRAY_CALL: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^(?:await\s+)?(?:[\w$.\]\[]+\.(?:map|flatMap|filter|concat|slice|toReversed|toSorted)\(|Array\.from\(|list\()",
        )
        .ok()
    });
    let written = written.trim();
    written.starts_with('[')
        || written.contains('+')
            && (written.ends_with(']') || written.contains("] +") || written.contains("]+"))
        || ARRAY_CALL.as_ref().is_some_and(|re| re.is_match(written))
}

#[cfg(test)]
mod tests {
    use super::{Dialect, concatenates_literal, joined_strings, textual_expression};

    #[test]
    fn a_literal_added_to_operands_is_text() {
        let py = Dialect::Python;
        let js = Dialect::JavaScript;
        assert!(textual_expression(
            r#"prompt + '\n\nHere is the screenshot:'"#,
            py
        ));
        assert!(textual_expression(r#""Q: " + question + f" ({n})""#, py));
        assert!(textual_expression("header + `\n${body}` + self.footer()", js));
        assert!(concatenates_literal(r#"notes[0] + ":""#, py));
        // Not a text: no literal, bytes, a conditional, another operator, a unary plus.
        assert!(!concatenates_literal("a + b", py));
        assert!(!concatenates_literal(r#"data + b"\n""#, py));
        assert!(!concatenates_literal(r#""x" + a if c else image"#, py));
        assert!(!concatenates_literal(r#""x" + a * 2"#, py));
        assert!(!concatenates_literal(r#""x" + +a"#, js));
        assert!(!concatenates_literal(r#"("x" + a"#, py));
    }

    #[test]
    fn expressions_that_make_a_text() {
        let py = Dialect::Python;
        let js = Dialect::JavaScript;
        assert!(textual_expression(r#"f"a {x}""#, py));
        assert!(textual_expression(r#"rf'a {x}'"#, py));
        assert!(textual_expression("`a ${x}`", js));
        assert!(textual_expression(r#""Describe {name}".format(name=n)"#, py));
        assert!(textual_expression(r#""""a (b)""".format(x=")")"#, py));
        assert!(textual_expression(r#""\n".join(lines)"#, py));
        assert!(textual_expression(r#"str(value)"#, py));
        assert!(textual_expression(r#"json.dumps({"a": 1})"#, py));
        assert!(textual_expression("JSON.stringify(body)", js));
        assert!(textual_expression("`  ${x}  `.trim()", js));
        // Not a text: bytes, what a method makes of the text, a name's method, a typed part.
        assert!(!textual_expression(r#"b"a""#, py));
        assert!(!textual_expression(r#""a {x}".format(x=x).encode()"#, py));
        assert!(!textual_expression(r#"str(x).encode("utf-8")"#, py));
        assert!(textual_expression(
            r#"prompt_template.format(input_entity=name)"#,
            py
        ));
        assert!(!textual_expression(r#"template.format(x=x).encode()"#, py));
        assert!(!textual_expression(r#"template.render(x=x)"#, py));
        assert!(!textual_expression(r#"f"{x}".split()"#, py));
        assert!(!textual_expression(r#"types.Part.from_text(text=f"{x}")"#, py));
        assert!(!textual_expression("str(x)", js));
        assert!(!textual_expression("String(x)", py));
    }

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
