//! A chat helper's unit rewritten as interactions: each turn becomes one
//! `interactions.create(...)` with the chat's model and config, and every turn after the first
//! names the previous turn's interaction (`previous_interaction_id`); the service keeps the
//! conversation. The reads of each turn's result are rewritten with it ([`super::unit`]).
//!
//! When the turns run once each, in order, in the list that makes the chat, a turn names the
//! previous turn's result (`previous_interaction_id=response.id`) and the chat's creation goes.
//! Otherwise (a turn in a loop, in a branch) the creation becomes a name holding the previous
//! interaction's id (`chat_id = None`), each turn passes it and updates it after.
//!
//! It imports the writer kit, the request rewriter (its config as arguments, its contents as
//! the input) and [`super::unit`]; the legacy rewrite imports it.

use std::ops::Range;

use super::request::contents::{conversation_steps, input_value, steps_list, user_input_step};
use super::request::round_trip::{Calls, call_names, function_results, is_function_response};
use super::request::{ConfigArguments, config_arguments};
use super::writer::Dialect;
use super::writer::edits::statement_removal;
use super::writer::imports::import_edits;
use super::writer::lines::{has_word, line_start};
use crate::diagnostic::Edit;
use crate::lang::Document;
use crate::migration_facts::{Call, CallKind, ValueKind};
use crate::tables::Tables as Settings;

/// A rewritten call longer than this, from its line's start, puts its arguments on lines of
/// their own.
const WIDTH: usize = 88;

/// The edits rewriting the chat made by `create` and its turns, or why they cannot be.
pub fn chat_edits(
    create: &Call,
    doc: &Document,
    settings: &Settings,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    chat_edits_in(create, doc, settings, place, &mut Vec::new())
}

/// [`chat_edits`], with the chats whose migration is being decided (a chat and those whose
/// turns' results share its names are migrated together, or none is).
fn chat_edits_in(
    create: &Call,
    doc: &Document,
    settings: &Settings,
    place: &dyn Fn(usize) -> String,
    deciding: &mut Vec<Range<usize>>,
) -> Result<Vec<Edit>, String> {
    let Some(unit) = &create.chat else {
        return Err("the chat is not followed".into());
    };
    let dialect = Dialect::of(doc);
    let text = &doc.text;
    let facts = doc.facts();
    if let Some((range, how)) = unit.blocked.first() {
        return Err(format!("{}: {how}", place(range.start)));
    }
    deciding.push(create.range.clone());
    for shared in &unit.shares {
        if deciding.contains(shared) {
            continue;
        }
        let other = facts
            .calls
            .iter()
            .find(|c| c.range == *shared && c.kind == CallKind::ChatCreate)
            .ok_or_else(|| format!("{}: the chat made here is not followed", place(shared.start)))?;
        chat_edits_in(other, doc, settings, place, deciding).map_err(|why| {
            format!(
                "its turns' results share a name with those of the chat of {}, which is not migrated: {why}",
                place(shared.start)
            )
        })?;
    }
    if create.spread || !create.positional.is_empty() {
        return Err("the chat's arguments are not all known".into());
    }
    // A history written here is sent as steps before the first turn's message.
    let mut history: &[crate::migration_facts::Value] = &[];
    for entry in &create.args {
        match entry.key.as_str() {
            "model" | "config" => {}
            "history" if let ValueKind::List(items) = &entry.value.kind => history = items,
            "history" => {
                return Err(
                    "the chat starts from a history the client keeps, not written in its creation; an \
                     interaction continues one the service keeps"
                        .into(),
                );
            }
            key => {
                return Err(format!(
                    "the chat's `{key}` has no place in an interactions request"
                ));
            }
        }
    }
    let model = match create.arg("model") {
        Some(entry) if matches!(entry.value.kind, ValueKind::Str(_) | ValueKind::Name(_)) => {
            text.get(entry.value.range.clone()).unwrap_or_default()
        }
        Some(_) => return Err("the chat's model is not a string or a name".into()),
        None => return Err("the chat names no model".into()),
    };
    let client = text.get(unit.client.clone()).unwrap_or_default();
    if client.is_empty() {
        return Err("the chat's client is not named".into());
    }
    let config = match create.arg("config") {
        Some(config) => {
            let config = config_arguments(create, config, doc, settings, false)?;
            if let Some((name, _)) = config.options.first() {
                return Err(format!(
                    "the chat's config sets the call's `{name}` option, which interlint writes for a request of \
                     its own alone"
                ));
            }
            config
        }
        None => ConfigArguments {
            arguments: Vec::new(),
            removals: Vec::new(),
            content: Vec::new(),
            options: Vec::new(),
        },
    };
    if unit.turns.is_empty() {
        return Err(format!("`{}` sends no turn in this module", unit.name));
    }
    let straight = unit.in_order();
    let history = match history {
        [] => Vec::new(),
        _ if !straight => {
            return Err(
                "the chat starts from a history, and its turns are not sent once each, in order: the first \
                 request, which would carry it, is not known"
                    .into(),
            );
        }
        turns => conversation_steps(turns, text, dialect, &config.content)
            .map_err(|why| format!("the chat starts from a history, and {why}"))?,
    };
    let id_name = match dialect {
        Dialect::Python => format!("{}_id", unit.name),
        _ => format!("{}Id", unit.name),
    };
    if !straight && has_word(text, &id_name, &facts.comments) {
        return Err(format!(
            "`{id_name}`, the name that would keep the previous interaction's id, is taken"
        ));
    }
    let mut edits = Vec::new();
    for (i, turn) in unit.turns.iter().enumerate() {
        let at = place(turn.call.start);
        let call = facts
            .calls
            .iter()
            .find(|c| c.range == turn.call && c.kind == CallKind::SendMessage)
            .ok_or_else(|| format!("{at}: the turn is not a call interlint reads"))?;
        let last = i + 1 == unit.turns.len();
        // The next turn names this one's interaction: it must be kept (a streamed turn's id is
        // taken from its events where they are read, below).
        let streamed_id = straight && !last && turn.stream && turn.result.is_some();
        if (!straight || !last)
            && !streamed_id
            && let Some(why) = turn.id_unavailable()
        {
            return Err(format!("{at}: {why}"));
        }
        let message = message(call, dialect).map_err(|why| format!("{at}: {why}"))?;
        // A turn's own config replaces the chat's for that turn (both client libraries send
        // `config if config else chat_config`).
        let own_config = match call.arg("config") {
            Some(entry) => Some(
                config_arguments(call, entry, doc, settings, false)
                    .and_then(|config| match config.options.first() {
                        Some((name, _)) => Err(format!(
                            "it sets the call's `{name}` option, which interlint writes for a request of its own alone"
                        )),
                        None => Ok(config),
                    })
                    .map_err(|why| format!("{at}: the turn's own config: {why}"))?,
            ),
            None => None,
        };
        let config = own_config.as_ref().unwrap_or(&config);
        let parts: Vec<&crate::migration_facts::Value> = match &message.kind {
            ValueKind::List(items) => items.iter().collect(),
            _ => vec![message],
        };
        let responses = parts.iter().filter(|p| is_function_response(p, doc)).count();
        let input = match input_value(message, text, dialect, &config.content) {
            // Function responses: `function_result` steps answering the previous turn's calls.
            _ if responses > 0 => {
                if responses < parts.len() {
                    return Err(format!(
                        "{at}: the turn sends function responses with other parts"
                    ));
                }
                let previous = i
                    .checked_sub(1)
                    .filter(|&p| straight && !unit.turns[p].stream)
                    .and_then(|p| unit.turns[p].result.as_deref())
                    .ok_or_else(|| {
                        format!(
                            "{at}: the turn sends function responses, and the previous turn's result, whose \
                             function calls they answer, is streamed or not kept in a name"
                        )
                    })?;
                let named = i
                    .checked_sub(1)
                    .and_then(|p| facts.calls.iter().find(|c| c.range == unit.turns[p].call))
                    .map(call_names)
                    .unwrap_or_default();
                let calls = Calls {
                    previous,
                    named: &named,
                };
                let steps = function_results(&parts, &calls, doc).map_err(|why| format!("{at}: {why}"))?;
                steps_list(&steps, &turn.indent, dialect)
            }
            // The first turn carries the history, then its message as the user's step.
            _ if i == 0 && !history.is_empty() => {
                let step = user_input_step(message, text, dialect, &config.content)
                    .map_err(|why| format!("{at}: the chat starts from a history, and {why}"))?;
                let steps: Vec<String> = history.iter().cloned().chain([step]).collect();
                let converted = steps_list(&steps, &turn.indent, dialect);
                edits.extend(import_edits(&converted, doc, turn.call.start)?);
                converted
            }
            Ok(Some(converted)) => {
                edits.extend(import_edits(&converted, doc, turn.call.start)?);
                converted
            }
            Ok(None) => text.get(message.range.clone()).unwrap_or_default().to_string(),
            Err(why) => return Err(format!("{at}: {why}")),
        };
        if facts.has_comment_in(&turn.call) {
            return Err(format!("{at}: a comment in the turn would be lost"));
        }
        let mut args = vec![
            dialect.argument("model", model),
            dialect.argument("input", &input),
        ];
        args.extend(config.arguments.iter().cloned());
        if straight {
            if let Some(previous) = i.checked_sub(1).and_then(|p| unit.turns[p].result.as_ref()) {
                let previous_id = match unit.turns[i - 1].stream {
                    true => stream_id_name(previous, dialect),
                    false => format!("{previous}.id"),
                };
                args.push(dialect.argument("previous_interaction_id", &previous_id));
            }
        } else {
            args.push(dialect.argument("previous_interaction_id", &id_name));
        }
        if turn.stream {
            args.push(dialect.argument("stream", dialect.true_value()));
        }
        let column = turn.call.start - line_start(text, turn.call.start);
        edits.push(Edit::replace(
            turn.call.clone(),
            create_call(client, &args, dialect, &turn.indent, column),
        ));
        let mut turn_edits = super::unit::result_edits(call, doc, settings, place)?;
        if streamed_id && let Some(result) = &turn.result {
            let next = unit.turns[i + 1].call.start;
            edits.extend(
                stream_id_edits(call, turn, result, next, doc, &mut turn_edits)
                    .map_err(|why| format!("{at}: {why}"))?,
            );
        }
        edits.extend(turn_edits);
        if let Some(own) = &own_config {
            edits.extend(own.removals.iter().map(|r| Edit::replace(r.clone(), "")));
        }
        if !straight {
            let (Some(statement), Some(result)) = (&turn.statement, &turn.result) else {
                return Err(format!("{at}: the turn is not a statement of its own"));
            };
            edits.push(
                id_update(text, statement, result, &id_name, dialect)
                    .ok_or_else(|| format!("{at}: the turn shares its line with other code"))?,
            );
        }
    }
    if straight {
        let removal = statement_removal(text, unit.statement.clone());
        if facts.has_comment_in(&removal) {
            return Err("a comment in the chat's creation would be lost".into());
        }
        edits.push(Edit::replace(removal, ""));
    } else {
        if facts.has_comment_in(&unit.statement) {
            return Err("a comment in the chat's creation would be lost".into());
        }
        edits.push(Edit::replace(
            unit.statement.clone(),
            id_declaration(doc, &id_name, &unit.statement),
        ));
    }
    edits.extend(config.removals.into_iter().map(|r| Edit::replace(r, "")));
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    // An import several turns need is added once.
    edits.dedup();
    if edits.windows(2).any(|w| w[0].range.end > w[1].range.start) {
        return Err("the rewrites of the chat's turns and of their results overlap".into());
    }
    Ok(edits)
}

/// The name holding a streamed turn's interaction id, taken from its events (`response_id`,
/// `responseId`).
fn stream_id_name(result: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::Python => format!("{result}_id"),
        _ => format!("{result}Id"),
    }
}

/// The edits taking a streamed turn's interaction id from its `interaction.created` event, in the
/// loop that reads its events (its result's one loop, whose guard `turn_edits` holds), for the
/// next turn to name: `if chunk.event_type == "interaction.created": response_id =
/// chunk.interaction.id` (JavaScript declares the name before the turn); why not.
fn stream_id_edits(
    call: &Call,
    turn: &crate::migration_facts::Turn,
    result: &str,
    next: usize,
    doc: &Document,
    turn_edits: &mut Vec<Edit>,
) -> Result<Vec<Edit>, String> {
    let dialect = Dialect::of(doc);
    let text = &doc.text;
    let facts = doc.facts();
    let not_read = "a streamed turn's interaction id comes in its events, which are not read in one loop over them, \
                    before the next turn, where interlint would take it";
    let loops: Vec<&crate::migration_facts::StreamLoop> = call
        .result
        .iter()
        .flat_map(|r| r.uses.iter())
        .filter_map(|u| match u {
            crate::migration_facts::ResultUse::Loop(l) => Some(l),
            _ => None,
        })
        .collect();
    // The loop runs after the turn, and before the next turn, which names the id.
    let [stream_loop] = loops.as_slice() else {
        return Err(not_read.into());
    };
    if stream_loop.range.start < turn.call.end || stream_loop.range.end > next {
        return Err(not_read.into());
    }
    let id = stream_id_name(result, dialect);
    if has_word(text, &id, &facts.comments) {
        return Err(format!(
            "`{id}`, the name that would keep the streamed turn's interaction id, is taken"
        ));
    }
    let chunk = &stream_loop.chunk;
    let indent = &stream_loop.indent;
    let capture = match dialect {
        Dialect::Python => format!(
            "if {chunk}.event_type == \"interaction.created\":\n{indent}    {id} = {chunk}.interaction.id\n{indent}"
        ),
        _ => format!(
            "\n{indent}if ({chunk}.event_type === \"interaction.created\") {id} = {chunk}.interaction.id;"
        ),
    };
    let at = stream_loop.body_start;
    match turn_edits
        .iter_mut()
        .find(|e| e.range.is_empty() && e.range.start == at)
    {
        Some(guard) => guard.content.insert_str(0, &capture),
        None => turn_edits.push(Edit::replace(at..at, capture)),
    }
    let mut edits = Vec::new();
    if dialect != Dialect::Python {
        let statement = turn
            .statement
            .as_ref()
            .ok_or("the streamed turn is not a statement of its own")?;
        edits.push(
            declaration_before(doc, &id, statement)
                .ok_or("the streamed turn shares its line with other code")?,
        );
    }
    Ok(edits)
}

/// The declaration of `id` ([`id_declaration`]) on a line of its own before `statement`, at its
/// indentation; `None` when other code starts the statement's line.
pub(super) fn declaration_before(doc: &Document, id: &str, statement: &Range<usize>) -> Option<Edit> {
    let start = line_start(&doc.text, statement.start);
    let before = doc.text.get(start..statement.start)?;
    if !before.trim().is_empty() {
        return None;
    }
    Some(Edit::replace(
        statement.start..statement.start,
        format!("{}\n{before}", id_declaration(doc, id, statement)),
    ))
}

/// The message a turn sends: `send_message(x)` / `send_message(message=x)`, or the request
/// object's `message` (JavaScript); nothing else may be passed.
fn message(call: &Call, dialect: Dialect) -> Result<&crate::migration_facts::Value, String> {
    if call.spread {
        return Err("the turn's arguments are not all known".into());
    }
    if let Some(other) = call.args.iter().find(|a| a.key != "message" && a.key != "config") {
        return Err(format!("the turn has its own `{}`", other.key));
    }
    match (call.positional.as_slice(), call.arg("message"), dialect) {
        ([only], None, Dialect::Python) => Ok(only),
        ([], Some(entry), _) => Ok(&entry.value),
        _ => Err("the turn's message is not passed in a way interlint reads".into()),
    }
}

/// `client.interactions.create(...)` with `args`, on one line when it fits, else with each
/// argument on a line of its own under `indent`.
fn create_call(client: &str, args: &[String], dialect: Dialect, indent: &str, column: usize) -> String {
    let (open, close, step) = match dialect {
        Dialect::JavaScript => ("({ ", " })", "  "),
        _ => ("(", ")", "    "),
    };
    let one_line = format!("{client}.interactions.create{open}{}{close}", args.join(", "));
    if column + one_line.len() <= WIDTH && !one_line.contains('\n') {
        return one_line;
    }
    let inner = format!("{indent}{step}");
    let lines: Vec<String> = args.iter().map(|a| format!("{inner}{a},")).collect();
    let (open, close) = match dialect {
        Dialect::JavaScript => ("({", "})"),
        _ => ("(", ")"),
    };
    format!(
        "{client}.interactions.create{open}\n{}\n{indent}{close}",
        lines.join("\n")
    )
}

/// The statement in place of a chat's creation `statement` that declares `id_name`, the name
/// holding the previous interaction's id: `chat_id = None`, `let chatId;`, and in TypeScript
/// `let chatId: string | undefined;` (a name left to take the type of what a later turn gives
/// it, a turn that reads it in its own request, is implicitly `any` under `strict`).
pub(super) fn id_declaration(doc: &Document, id_name: &str, statement: &Range<usize>) -> String {
    let semicolon = match doc.text.get(..statement.end).is_some_and(|t| t.ends_with(';')) {
        true => ";",
        false => "",
    };
    match doc.surface {
        crate::lang::Surface::Python | crate::lang::Surface::Notebook => format!("{id_name} = None"),
        crate::lang::Surface::TypeScript | crate::lang::Surface::Tsx => {
            format!("let {id_name}: string | undefined{semicolon}")
        }
        _ => format!("let {id_name}{semicolon}"),
    }
}

/// `chat_id = response.id` on a line of its own after the turn's statement; `None` when the
/// statement does not stand alone on its lines.
pub(super) fn id_update(
    text: &str,
    statement: &Range<usize>,
    result: &str,
    id_name: &str,
    dialect: Dialect,
) -> Option<Edit> {
    let start = line_start(text, statement.start);
    let before = text.get(start..statement.start)?;
    let rest = text.get(statement.end..)?;
    let line_end = rest.find('\n').map_or(text.len(), |i| statement.end + i);
    if !before.trim().is_empty() || !text.get(statement.end..line_end)?.trim().is_empty() {
        return None;
    }
    let update = match dialect {
        Dialect::Python => format!("{id_name} = {result}.id"),
        _ => format!("{id_name} = {result}.id;"),
    };
    Some(Edit::replace(line_end..line_end, format!("\n{before}{update}")))
}

/// The unit of the chat `create` of `doc` (found again in a notebook's module), or why not.
pub fn rewrite_chat(
    create: &Call,
    doc: &Document,
    settings: &Settings,
) -> Result<super::request::Rewritten, String> {
    super::request::in_module(create, doc, &|call, doc, place| {
        chat_edits(call, doc, settings, place)
    })
}
