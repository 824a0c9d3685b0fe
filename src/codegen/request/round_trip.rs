//! A function-calling round trip as the continuation of an interaction: the contents
//! `[user turn, R.candidates[0].content, function responses]` become the functions' results
//! alone, as `function_result` steps each naming the id of the call it answers, and the request
//! names the previous interaction (`previous_interaction_id=R.id`), which holds the user's turn
//! and the model's, thought signatures included.
//!
//! It imports the writer kit alone.

use crate::codegen::writer::Dialect;
use crate::diagnostic::{Edit, one_line};
use crate::lang::Document;
use crate::lang::facts::FUNCTION_RESPONSE_FACTORY;
use crate::migration_facts::{Call, Continues, Entry, MapValue, ResultUse, Value, ValueKind};
use crate::request_fields::snake_case;

/// The edits writing `call`'s `contents`, which continue the interaction of
/// `continues.previous`, as the functions' results and the previous interaction's id; why not.
pub(crate) fn continuation_edits(
    call: &Call,
    contents: &Entry,
    continues: &Continues,
    doc: &Document,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let text = &doc.text;
    let dialect = Dialect::of(doc);
    let facts = doc.facts();
    let at = place(continues.previous.start);
    let Some(previous) = facts.calls.iter().find(|c| c.range == continues.previous) else {
        return Err(format!(
            "the request of {at}, whose interaction this one continues, is not known"
        ));
    };
    if call.arg("previous_interaction_id").is_some() {
        return Err("the request already names a previous interaction".into());
    }
    if let Some((name, rebound)) = &continues.rebound {
        return Err(format!(
            "it continues the interaction of {at}, and `{name}` is bound again in between ({}), so it would \
             not name the same value here",
            place(*rebound)
        ));
    }
    // The list of turns: written in the call, or bound to a name read here alone.
    let list = match &contents.value.kind {
        ValueKind::List(_) => &contents.value,
        ValueKind::Name(name) => {
            let Some(bound) = name.value.as_ref().filter(|_| name.single_use && !name.grown) else {
                return Err(format!(
                    "`{}` holds the turns sent back to continue the interaction of {at}, and other code reads \
                     or changes it too",
                    name.name
                ));
            };
            if let Some(statement) = &name.statement
                && text
                    .get(statement.start..bound.range.start)
                    .is_some_and(|head| head.contains(':'))
            {
                return Err(format!(
                    "`{}` declares the type of the turns sent back, which the functions' results would not fit",
                    name.name
                ));
            }
            bound
        }
        _ => return Err("the contents are not a list of turns interlint reads".into()),
    };
    let ValueKind::List(items) = &list.kind else {
        return Err("the contents are not a list of turns interlint reads".into());
    };
    let written = |v: &Value| text.get(v.range.clone()).unwrap_or_default();
    let shape = || {
        format!(
            "the turns sent back are not the user's turn sent to the request of {at}, its answer's turn, then \
             function responses"
        )
    };
    let [user, turn, responses @ ..] = items.as_slice() else {
        return Err(shape());
    };
    if turn.range != continues.turn || responses.is_empty() {
        return Err(shape());
    }
    // The user's turn sent back is what the previous request was sent, or the previous
    // interaction would not hold it.
    let asked = previous.arg("contents").and_then(|c| asked_text(&c.value, text));
    let sent = user_text(user, text);
    match (&asked, &sent) {
        (Some(asked), Some(sent)) if squeeze(asked) == squeeze(sent) => {}
        _ => {
            return Err(format!(
                "the user's turn sent back (`{}`) is not known to be what the request of {at} was sent{}; an \
                 interaction continued from it holds that",
                one_line(written(user)),
                previous
                    .arg("contents")
                    .map(|c| format!(
                        " (`{}`)",
                        one_line(text.get(c.value.range.clone()).unwrap_or_default())
                    ))
                    .unwrap_or_default()
            ));
        }
    }
    let call_names = call_names(previous);
    let mut parts = Vec::new();
    for response in responses {
        parts.extend(response_parts(response).ok_or_else(|| {
            format!(
                "the turn `{}` sent back is not a turn of function responses",
                one_line(written(response))
            )
        })?);
    }
    let calls = Calls {
        previous: &continues.receiver,
        named: &call_names,
    };
    let steps = function_results(&parts, &calls, doc)?;
    let mut edits = Vec::new();
    let comments: Vec<&str> = facts
        .comments
        .iter()
        .filter(|c| c.start >= list.range.start && c.end <= list.range.end)
        .filter_map(|c| text.get(c.clone()))
        .collect();
    match &contents.value.kind {
        ValueKind::Name(name) if dialect == Dialect::JavaScript => {
            // A list bound to a name is typed by its value, whose `type` would be any string:
            // the steps are written in the request, and the binding just before it goes.
            let statement = name
                .statement
                .clone()
                .filter(|statement| immediately_before(text, statement.end, call.range.start))
                .ok_or_else(|| {
                    format!(
                        "`{}` is not bound just before the request, where the functions' results it holds would \
                         be written (a list bound to a name is typed by its value, whose `type` would be any \
                         string)",
                        name.name
                    )
                })?;
            if !comments.is_empty() {
                return Err(format!(
                    "a comment in the binding of `{}` would be lost",
                    name.name
                ));
            }
            let new_list = match &call.arg_indent {
                Some(indent) => {
                    let items: String = steps
                        .iter()
                        .map(|step| format!("{indent}{}{step},\n", dialect.indent_step()))
                        .collect();
                    format!("[\n{items}{indent}]")
                }
                None => format!("[{}]", steps.join(", ")),
            };
            edits.push(Edit::replace(
                crate::codegen::writer::edits::statement_removal(text, statement),
                "",
            ));
            edits.push(Edit::replace(
                contents.range.clone(),
                dialect.argument("input", &new_list),
            ));
        }
        _ => {
            let raw = written(list);
            let new_list = match raw.split('\n').nth(1) {
                Some(first_item_line) => {
                    let indent = crate::migration_facts::line_indent(text, list.range.start);
                    let item_indent =
                        &first_item_line[..first_item_line.len() - first_item_line.trim_start().len()];
                    let item_indent = match item_indent.len() > indent.len() {
                        true => item_indent.to_string(),
                        false => format!("{indent}{}", dialect.indent_step()),
                    };
                    let mut lines = String::new();
                    for comment in &comments {
                        lines.push_str(&format!("{item_indent}{}\n", comment.trim_end()));
                    }
                    for step in &steps {
                        lines.push_str(&format!("{item_indent}{step},\n"));
                    }
                    format!("[\n{lines}{indent}]")
                }
                None if comments.is_empty() => format!("[{}]", steps.join(", ")),
                None => return Err("a comment inside the turns sent back would be lost".into()),
            };
            if matches!(contents.value.kind, ValueKind::List(_)) {
                edits.push(Edit::replace(
                    contents.range.clone(),
                    dialect.argument("input", &new_list),
                ));
            } else {
                edits.push(Edit::replace(list.range.clone(), new_list));
                edits.push(match contents.key_range == contents.value.range {
                    true => Edit::replace(contents.range.clone(), dialect.argument("input", &contents.key)),
                    false => Edit::replace(contents.key_range.clone(), "input"),
                });
            }
        }
    }
    let previous_id = format!("{}.id", continues.receiver);
    edits.push(Edit::replace(
        call.insert_at..call.insert_at,
        format!(
            "{}{}",
            call.argument_separator(),
            dialect.argument("previous_interaction_id", &previous_id)
        ),
    ));
    Ok(edits)
}

/// Whether what is written between `end` (a statement's end) and `at` (a request) is the head of
/// the request's own statement alone (`const final = await `, `return `): no other statement
/// runs between them.
fn immediately_before(text: &str, end: usize, at: usize) -> bool {
    static HEAD: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^;?\s*(?:(?:const|let|var)\s+[\w$]+\s*(?::[^=;]*)?=|[\w$.]+\s*=|return)?\s*(?:await\s+)?[\w$.]*$").ok()
    });
    let Some(between) = text.get(end..at) else {
        return false;
    };
    HEAD.as_ref().is_some_and(|head| head.is_match(between.trim()))
}

/// `text` with its whitespace taken out, to compare two expressions as written.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// What a request was sent, as written, when it is a string literal or a name (alone, or the one
/// text of a list or a user's turn): the user's turn a round trip sends back must be the same.
fn asked_text(value: &Value, text: &str) -> Option<String> {
    match &value.kind {
        ValueKind::Str(_) | ValueKind::Name(_) => text.get(value.range.clone()).map(str::to_string),
        ValueKind::List(items) => match items.as_slice() {
            [only] => asked_text(only, text).or_else(|| user_text(only, text)),
            _ => None,
        },
        ValueKind::Map(_) => user_text(value, text),
        _ => None,
    }
}

/// The text of a user's turn of one text part (`types.Content(role="user", parts=[types.Part(
/// text=t)])`, `{"role": "user", "parts": [{"text": t}]}`, `types.UserContent(t)`), as written.
fn user_text(value: &Value, text: &str) -> Option<String> {
    static USER_CONTENT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?s)^(?:[A-Za-z_][\w.]*\.)?UserContent\(\s*(?:parts\s*=\s*)?(?P<part>[A-Za-z_]\w*|'[^'\\\n]*'|\x22[^\x22\\\n]*\x22)\s*,?\s*\)$")
            .ok()
    });
    let written = text.get(value.range.clone())?;
    match &value.kind {
        ValueKind::Str(_) => Some(written.to_string()),
        // A name of the text sent (`[prompt, R.candidates[0].content, ...]`).
        ValueKind::Name(name)
            if !matches!(
                name.value.as_ref().map(|v| &v.kind),
                Some(ValueKind::Map(_) | ValueKind::List(_))
            ) =>
        {
            Some(written.to_string())
        }
        ValueKind::Map(map) if map.entries.is_empty() && map.wrapper.as_deref() == Some("UserContent") => {
            let caps = USER_CONTENT.as_ref()?.captures(written.trim())?;
            caps.name("part").map(|m| m.as_str().to_string())
        }
        ValueKind::Map(map) => {
            let role = map
                .entries
                .iter()
                .find(|e| e.key == "role")
                .map(|e| &e.value.kind);
            if !matches!(role, Some(ValueKind::Str(r)) if r == "user") {
                return None;
            }
            super::contents::single_text_part(map, text)
        }
        _ => None,
    }
}

/// The parts of a turn of function responses (its role the user's, the tool's or a function's).
fn response_parts(value: &Value) -> Option<&[Value]> {
    let map = value.as_map().filter(|m| m.complete)?;
    let mut parts = None;
    for entry in &map.entries {
        match (entry.key.as_str(), &entry.value.kind) {
            ("role", ValueKind::Str(role)) if matches!(role.as_str(), "user" | "tool" | "function") => {}
            ("parts", ValueKind::List(items)) if !items.is_empty() => parts = Some(items.as_slice()),
            _ => return None,
        }
    }
    parts
}

/// Where the calls of `previous`'s result are read by name (`X.name`, `X` a call of the
/// result taken from `R.function_calls`): a response naming its function `X.name` answers `X`.
pub(crate) fn call_names(previous: &Call) -> Vec<std::ops::Range<usize>> {
    previous
        .result
        .iter()
        .flat_map(|r| r.uses.iter())
        .filter_map(|u| match u {
            ResultUse::FunctionCalls(calls) => Some(calls),
            _ => None,
        })
        .flat_map(|calls| calls.members.iter())
        .filter(|(member, _)| member == "name")
        .map(|(_, range)| range.clone())
        .collect()
}

/// The calls a function response may answer: those of the previous result (`previous`, as
/// written), the ones read by name where `named` says (`call.name`: the call `call`).
pub(crate) struct Calls<'a> {
    pub(crate) previous: &'a str,
    pub(crate) named: &'a [std::ops::Range<usize>],
}

/// Whether `part` is a function response (built by the client's factory, or a part whose one
/// field is `function_response`).
pub(crate) fn is_function_response(part: &Value, doc: &Document) -> bool {
    factory_map(part, doc).is_some()
        || part.as_map().is_some_and(|m| {
            m.wrapper.as_deref() == Some(FUNCTION_RESPONSE_FACTORY)
                || matches!(m.entries.as_slice(), [only] if snake_case(&only.key) == "function_response")
        })
}

/// The keyword arguments of a function response built by the client's factory at `part`.
fn factory_map<'a>(part: &Value, doc: &'a Document) -> Option<&'a MapValue> {
    doc.facts()
        .function_responses
        .iter()
        .find(|(range, _)| *range == part.range)
        .map(|(_, map)| map)
}

/// Function response parts as `function_result` steps answering the calls of `calls`; why not.
/// A response naming its function by a string answers the calls of that name in order: the
/// second response naming `f` answers the second call of `f`, as the old client matched them.
pub(crate) fn function_results(
    parts: &[&Value],
    calls: &Calls<'_>,
    doc: &Document,
) -> Result<Vec<String>, String> {
    let text = &doc.text;
    let dialect = Dialect::of(doc);
    let mut seen: Vec<String> = Vec::new();
    parts
        .iter()
        .map(|part| {
            let written = one_line(text.get(part.range.clone()).unwrap_or_default());
            function_result(part, factory_map(part, doc), calls, &mut seen, doc, dialect)
                .map_err(|why| format!("the function response `{written}` {why}"))
        })
        .collect()
}

/// A function response part (`types.Part.from_function_response(name=..., response=...)`,
/// `types.Part(function_response=types.FunctionResponse(...))`, `{"function_response": {...}}`)
/// as a `function_result` step, its call id the `id` it names, that of the call its name is read
/// from (`name=call.name`), or that of the previous result's call of the function it names
/// (`seen`: the names answered so far); why not.
fn function_result(
    part: &Value,
    factory: Option<&MapValue>,
    calls: &Calls<'_>,
    seen: &mut Vec<String>,
    doc: &Document,
    dialect: Dialect,
) -> Result<String, String> {
    let text = &doc.text;
    let map = part
        .as_map()
        .or(factory)
        .filter(|m| m.complete)
        .ok_or("is not written with its fields")?;
    let response: &MapValue = match map.wrapper.as_deref() {
        Some(FUNCTION_RESPONSE_FACTORY) => map,
        _ => match map.entries.as_slice() {
            [only] if snake_case(&only.key) == "function_response" => only
                .value
                .as_map()
                .filter(|m| m.complete)
                .ok_or("is not written with its fields")?,
            _ => return Err("is not a function response".into()),
        },
    };
    let written = |v: &Value| text.get(v.range.clone()).unwrap_or_default().to_string();
    let (mut name, mut id, mut result) = (None, None, None);
    for entry in &response.entries {
        match snake_case(&entry.key).as_str() {
            "name" => name = Some(&entry.value),
            "id" => id = Some(written(&entry.value)),
            "response" => result = Some(written(&entry.value)),
            other => {
                return Err(format!(
                    "sets `{other}`, which a `function_result` step is not written with here"
                ));
            }
        }
    }
    let result = result.ok_or("has no `response`")?;
    let call_id = match (id, name) {
        (Some(id), _) => id,
        (None, Some(name)) => {
            let raw = written(name);
            let receiver = raw
                .strip_suffix(".name")
                .filter(|r| !r.is_empty() && r.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$'));
            match (receiver, &name.kind) {
                (Some(receiver), _)
                    if calls
                        .named
                        .iter()
                        .any(|r| r.end == name.range.end && r.start + 4 == r.end) =>
                {
                    format!("{receiver}.id")
                }
                // The previous result's calls of that function, in order.
                (_, ValueKind::Str(function)) => {
                    let nth = seen.iter().filter(|f| *f == function).count();
                    seen.push(function.clone());
                    let previous = calls.previous;
                    match dialect {
                        Dialect::Python => {
                            let q = doc.facts().string_quote(text, part.range.start);
                            format!(
                                "[step.id for step in {previous}.steps or [] if step.type == {q}function_call{q} and step.name == {raw}][{nth}]"
                            )
                        }
                        _ => format!(
                            "({previous}.steps ?? []).filter((step) => step.type === \"function_call\").filter((step) => step.name === {raw})[{nth}].id"
                        ),
                    }
                }
                _ => {
                    return Err(format!(
                        "names its function `{}`, which is neither a string nor read from a call of the previous \
                         result, whose id a `function_result` step names",
                        one_line(&raw)
                    ));
                }
            }
        }
        (None, None) => return Err("names neither its function nor its call".into()),
    };
    let mut entries = vec![("type".to_string(), dialect.string("function_result"))];
    if let Some(name) = name {
        entries.push(("name".to_string(), written(name)));
    }
    entries.push(("call_id".to_string(), call_id));
    entries.push(("result".to_string(), result));
    Ok(dialect.map(&entries))
}
