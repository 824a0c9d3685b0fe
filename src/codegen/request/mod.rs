//! The request rewriter: how a predecessor call or request body is rewritten as an
//! interactions request, its contents as the input ([`contents`]), its config placed by the
//! request-field table ([`fields`]), its tools ([`tools`]) and structured output
//! ([`structured_output`]) in the interactions shape; the reads of its result are rewritten
//! with it (`codegen::unit`). Here: the orchestration of one call's rewrite (with the calls that
//! share its config, in a notebook's module), a config as arguments, and the REST body.
//!
//! It imports the writer kit, its own submodules and `codegen::unit`; `chat` and `legacy` import
//! it.

pub(crate) mod contents;
pub(crate) mod fields;
pub(crate) mod round_trip;
pub(crate) mod structured_output;
mod tools;

use crate::diagnostic::Edit;
use crate::lang::Document;
use crate::migration_facts::{Call, CallKind, Entry, ModelRef, ResultUse, ValueKind};
use crate::request_fields::{Place, snake_case};
use crate::tables::Tables as Settings;

use super::unit::{joined_result_edits, result_edits};
use super::writer::Dialect;
use super::writer::edits::merge_insertions;
use super::writer::imports::import_edits;
use super::writer::lines::place;
use contents::{input_value, input_value_inlining, single_text_value};
use fields::{field_value, place_entries};
use tools::tools_value;

pub(crate) fn is_newest(call: &Call, settings: &Settings) -> bool {
    model_literal(call).is_some_and(|id| settings.is_newest_generation(id))
}

/// The request's model id, when it is a literal (or a name bound once to one).
pub(crate) fn model_literal(call: &Call) -> Option<&str> {
    match &call.model {
        ModelRef::Literal(id) => Some(id),
        _ => None,
    }
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
pub(crate) fn rewrite_to_interactions(
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
pub(crate) type Where<'a> = dyn Fn(usize) -> String + 'a;

/// A unit's rewrite: the edits for a call of a document, given where offsets are.
pub(crate) type UnitRewrite<'a> = dyn Fn(&Call, &Document, &Where<'_>) -> Result<Vec<Edit>, String> + 'a;

/// The edits `rewrite` makes for `call` of `doc`. In a notebook, `call` is found again in the
/// module its code cells make and rewritten there, so that a name bound in one cell and read in
/// another is seen whole; the edits are carried back into the file.
pub(crate) fn in_module(call: &Call, doc: &Document, rewrite: &UnitRewrite<'_>) -> Result<Rewritten, String> {
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
    let at = |offset| place(doc, offset);
    rewrite(call, doc, &at).map(|edits| Rewritten {
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
        // A request rewritten with another (a round trip) that does not share the config.
        if let Some(apart) = calls.iter().find_map(|c| {
            c.result
                .as_ref()?
                .together
                .iter()
                .find(|t| !shared.calls.contains(t))
        }) {
            return Err(format!(
                "`{}` is shared by {} calls, and one of them is rewritten with the request of {}, which does \
                 not share it",
                name.name,
                shared.calls.len(),
                place(apart.start)
            ));
        }
        let mut edits = Vec::new();
        for other in calls {
            let stream = if other.range == call.range {
                stream
            } else {
                other.kind == CallKind::CreateStream
            };
            let rewritten = rewrite_one(other, doc, settings, stream, true, place).map_err(|why| {
                format!(
                    "`{}` is shared by {} calls, rewritten together; one of them cannot be: {why}",
                    name.name,
                    shared.calls.len()
                )
            })?;
            edits.extend(rewritten);
            edits.extend(result_edits(other, doc, settings, place)?);
        }
        let statement = crate::migration_facts::line_removal(&doc.text, shared.statement.clone());
        if facts.has_comment_in(&statement) {
            return Err(format!(
                "a comment in the binding of `{}` would be lost",
                name.name
            ));
        }
        edits.push(Edit::replace(statement, ""));
        return disjoint(edits, || {
            format!("the rewrites of the calls sharing `{}` overlap", name.name)
        });
    }
    if let Some(result) = &call.result
        && !result.together.is_empty()
    {
        return joined(call, &result.together, doc, settings, stream, place);
    }
    let mut edits = rewrite_one(call, doc, settings, stream, false, place)?;
    let reads = result_edits(call, doc, settings, place)?;
    if !reads.is_empty() {
        edits.extend(reads);
        return disjoint(edits, || {
            "the rewrites of the request and of its result's reads overlap".into()
        });
    }
    Ok(edits)
}

/// `edits` in order, each made once (two reads needing one import, a read two joined requests
/// share); `Err(overlap())` when two of them still overlap.
fn disjoint(mut edits: Vec<Edit>, overlap: impl FnOnce() -> String) -> Result<Vec<Edit>, String> {
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits.dedup();
    if edits.windows(2).any(|w| w[0].range.end > w[1].range.start) {
        return Err(overlap());
    }
    Ok(edits)
}

/// `call` rewritten with the requests of `together`, whose results reach the same function of
/// the module, or one of which continues the other's interaction: all of them, with the reads
/// of each (those they share made once), or none.
fn joined(
    call: &Call,
    together: &[std::ops::Range<usize>],
    doc: &Document,
    settings: &Settings,
    stream: bool,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let facts = doc.facts();
    let (name, _) = super::unit::through(call).unwrap_or(("a function", &call.range));
    let mut edits = rewrite_one(call, doc, settings, stream, false, place)?;
    edits.extend(joined_result_edits(call, doc, settings, place)?);
    for range in together {
        let Some(other) = facts.calls.iter().find(|c| c.range == *range) else {
            return Err(format!(
                "the requests whose results reach `{name}` are not all known"
            ));
        };
        let stream = match other.kind {
            CallKind::Create => false,
            CallKind::CreateStream => true,
            _ => {
                return Err(format!(
                    "{}: `{name}` also reads the result of this call, which is not a request of the \
                     current client; interlint rewrites them together only when each is",
                    place(other.range.start)
                ));
            }
        };
        let at = place(other.range.start);
        let continued = |c: &Call, by: &Call| {
            c.result.as_ref().is_some_and(|r| {
                r.uses
                    .iter()
                    .any(|u| matches!(u, ResultUse::Continued { request, .. } if *request == by.range))
            })
        };
        let also = |why: String| {
            if continued(other, call) {
                format!("it continues the interaction of {at}, which cannot be rewritten with it: {why}")
            } else if continued(call, other) {
                format!(
                    "{at} sends this result's turn back to continue its interaction (a function-calling round \
                     trip), and cannot be rewritten with it: {why}"
                )
            } else {
                format!(
                    "`{name}` reads the result of {at} too, which cannot be rewritten with this one: {why}"
                )
            }
        };
        edits.extend(rewrite_one(other, doc, settings, stream, false, place).map_err(also)?);
        edits.extend(joined_result_edits(other, doc, settings, place).map_err(also)?);
    }
    disjoint(edits, || {
        format!(
            "the rewrites of the requests whose results reach `{name}` overlap (they read them differently)"
        )
    })
}

/// One call's rewrite; `shared`: a config shared with other calls may be read (its binding is
/// the caller's to remove).
fn rewrite_one(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    stream: bool,
    shared: bool,
    place: &Where<'_>,
) -> Result<Vec<Edit>, String> {
    let dialect = Dialect::of(doc);
    let text = &doc.text;
    let Some(method) = call.method.clone() else {
        return Err(match &call.alias {
            Some(alias) => format!("the method is called through `{alias}`, which is used more than once"),
            None => match call
                .callee_text
                .rsplit_once('.')
                .map(|(receiver, _)| receiver.trim())
            {
                // `geminiClient.generateContent(...)`: an object of the application's own, maybe.
                Some(receiver) if !receiver.ends_with("models") => format!(
                    "`{}` is not followed to the client's `models` resource (it may be an object of the \
                     application's own, whose method calls the API elsewhere)",
                    crate::diagnostic::one_line(receiver)
                ),
                _ => "the client's `models` resource is not named in the call".to_string(),
            },
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
    // The config is placed first, for the settings its contents carry (`resolution`); why it
    // cannot be placed is told after the contents'.
    let config = call
        .arg("config")
        .map(|config| (config, config_arguments(call, config, doc, settings, shared)));
    let content_settings = match &config {
        Some((_, Ok(placed))) => placed.content.as_slice(),
        _ => &[],
    };
    let continues = call.result.as_ref().and_then(|r| r.continues.as_deref());
    if let Some(contents) = call.arg("contents")
        && let Some(continues) = continues
    {
        edits.extend(round_trip::continuation_edits(
            call, contents, continues, doc, place,
        )?);
    } else if let Some(contents) = call.arg("contents") {
        // `{ contents }` names a variable too: keep it as the value.
        let mut rewrites = Vec::new();
        let converted =
            input_value_inlining(&contents.value, text, dialect, content_settings, &mut rewrites)?;
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
    if let Some((config, placed)) = config {
        let placed = placed?;
        // The call's options, a second argument after the request object:
        // `interactions.create({ ... }, { signal })`.
        if !placed.options.is_empty() {
            edits.push(options_argument(call, &placed.options, doc)?);
        }
        // The config's text is replaced: a comment in it would go.
        let replaced = if placed.arguments.is_empty() {
            config.removal.clone()
        } else {
            config.range.clone()
        };
        // Its comments are kept on lines of their own before the arguments it becomes, when the
        // arguments sit on lines of their own.
        let comments = config_comments(call, &replaced, doc);
        if doc.facts().has_comment_in(&replaced) && (placed.arguments.is_empty() || comments.is_none()) {
            return Err("a comment in the config would be lost".into());
        }
        if placed.arguments.is_empty() {
            edits.push(Edit::replace(replaced, ""));
        } else {
            let separator = call.argument_separator();
            let arguments = placed.arguments.join(&separator);
            // A schema written as pydantic writes it needs `import pydantic`.
            edits.extend(import_edits(&arguments, doc, call.range.start)?);
            edits.push(Edit::replace(replaced, comments.unwrap_or_default() + &arguments));
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

/// The call's `options` as its second argument, after the request object (JavaScript's alone:
/// `interactions.create({ ... }, { signal: s })`); why not when the call has another argument or
/// the object's end is not found.
fn options_argument(call: &Call, options: &[(String, String)], doc: &Document) -> Result<Edit, String> {
    let text = &doc.text;
    let shown = || {
        options
            .iter()
            .map(|(name, _)| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // After the last property: separators and blanks, then the object's `}`, then the call's `)`.
    let after = text.get(call.insert_at..call.range.end).unwrap_or_default();
    let close = after
        .char_indices()
        .find(|(_, c)| !c.is_whitespace() && *c != ',')
        .filter(|(_, c)| *c == '}')
        .map(|(i, _)| call.insert_at + i + 1)
        .ok_or_else(|| {
            format!(
                "the request object's end is not found, after which the call's {} would go",
                shown()
            )
        })?;
    let rest = text.get(close..call.range.end).unwrap_or_default().trim_start();
    if !rest.starts_with(')') {
        return Err(format!(
            "the call has an argument after the request object, where its {} would go",
            shown()
        ));
    }
    let dialect = Dialect::of(doc);
    Ok(Edit::replace(close..close, format!(", {}", dialect.map(options))))
}

/// The comments in `range` (a config's text), each on a line of its own at the indentation of
/// `call`'s arguments, to write before what replaces it; `None` when the arguments do not sit on
/// lines of their own, or when a comment is a directive to a tool about the line it is on or
/// the next (`# type: ignore`, `// @ts-expect-error`, `# noqa`), which a move would point at
/// another line.
fn config_comments(call: &Call, range: &std::ops::Range<usize>, doc: &Document) -> Option<String> {
    const DIRECTIVES: &[&str] = &[
        "@ts-",
        "eslint-",
        "biome-ignore",
        "prettier-ignore",
        "istanbul ",
        "c8 ",
        "type:",
        "noqa",
        "pyright:",
        "pylint:",
        "mypy:",
        "fmt:",
        "nosec",
        "pragma",
        "interlint:",
    ];
    let indent = call.arg_indent.as_ref()?;
    let comments: Vec<&str> = doc
        .facts()
        .comments
        .iter()
        .filter(|c| c.start >= range.start && c.end <= range.end)
        .filter_map(|c| doc.text.get(c.clone()))
        .collect();
    if comments
        .iter()
        .any(|comment| DIRECTIVES.iter().any(|d| comment.contains(d)))
    {
        return None;
    }
    Some(
        comments
            .iter()
            .map(|comment| format!("{}\n{indent}", comment.trim_end()))
            .collect(),
    )
}

/// A call's config as interactions arguments.
pub(crate) struct ConfigArguments {
    pub(crate) arguments: Vec<String>,
    /// The lines of the bindings whose values were written into the arguments (to remove).
    pub(crate) removals: Vec<std::ops::Range<usize>>,
    /// The settings each content of the input of a kind that takes them carries (`resolution`).
    pub(crate) content: Vec<(String, String)>,
    /// Options of the call (JavaScript's `signal`), for the second argument.
    pub(crate) options: Vec<(String, String)>,
}

/// The config `config` of `call` placed as interactions arguments by the request-field table:
/// a literal, or a name bound to one used only here (or, `shared`, by calls rewritten together).
pub(crate) fn config_arguments(
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
    let placed = place_entries(map, model_literal(call), text, settings, Dialect::of(doc))?;
    let removals: Vec<std::ops::Range<usize>> = placed
        .inlined
        .into_iter()
        .chain(inline_statement)
        .map(|s| crate::migration_facts::line_removal(text, s))
        .collect();
    // A binding written into the arguments goes: a comment in it would go too.
    if removals.iter().any(|r| doc.facts().has_comment_in(r)) {
        return Err("a comment in the config would be lost".into());
    }
    Ok(ConfigArguments {
        arguments: placed.arguments,
        removals,
        content: placed.content,
        options: placed.options,
    })
}

/// The rewrite of a predecessor request body as an interactions body: `model` first (written
/// as `model_value`), `contents` as `input`, the generation config placed by the request-field
/// table, the other fields in snake_case, and `"stream": true` for a streaming request. The
/// edits, or why the body cannot be rewritten.
pub(crate) fn rewrite_rest_body(
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
    // The settings the contents carry (`resolution`), from the generation config placed below.
    let content_settings = call
        .args
        .iter()
        .find(|e| snake_case(&e.key) == "generation_config")
        .and_then(|e| e.value.as_map().filter(|m| m.complete))
        .and_then(|map| place_entries(map, model_literal(call), text, settings, dialect).ok())
        .map(|placed| placed.content)
        .unwrap_or_default();
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
            "contents" => match input_value(&entry.value, text, dialect, &content_settings)? {
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
                let converted = tools_value(&entry.value, text, dialect, &settings.fields)?;
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
                let placed = place_entries(map, model_literal(call), text, settings, dialect)?.arguments;
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
