//! The rest of a migration unit: the reads of a request's result, rewritten with the request so
//! that the program reads the interaction it now gets. A unit with a read that has no rewrite is
//! not rewritten at all; the reason names the read and where it is.
//!
//! It imports the writer kit and structured output (a parsed answer's type); the request
//! rewriter, the chat and the legacy rewrite import it.

use std::ops::Range;

use super::request::structured_output::parsed_as;
use super::writer::Dialect;
use super::writer::edits::whole_lines;
use super::writer::imports::import_edits;
use super::writer::lines::{has_word_where, is_dotted_name};
use crate::diagnostic::Edit;
use crate::lang::Document;
use crate::migration_facts::{
    Call, FunctionCallsRead, PartRole, PartsLoop, Read, ReadKind, ResultUse, StreamLoop,
};
use crate::request_fields::{UsageMapping, snake_case};
use crate::tables::Tables as Settings;

/// The code execution steps of an interaction, and the member holding what the old parts held:
/// the code run (`executable_code.code`) and its output (`code_execution_result.output`).
const CODE_CALL: (&str, &str) = ("code_execution_call", "arguments.code");
const CODE_RESULT: (&str, &str) = ("code_execution_result", "result");

/// Members a response shares with an interaction, as pydantic models (Python).
const SHARED_MEMBERS: &[&str] = &["model_dump", "model_dump_json"];

/// The edits rewriting the reads of `call`'s result (its stream's loops too), or why the unit
/// cannot be rewritten: `place` says where an offset is. A result passed to a function that
/// other requests' results reach too is rewritten with theirs ([`joined_result_edits`]).
pub(crate) fn result_edits(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    if let Some(result) = &call.result
        && !result.together.is_empty()
        && let Some((name, at)) = through(call)
    {
        return Err(format!(
            "{}: the result is passed to `{name}`, which other requests' results reach too; \
             interlint rewrites such requests together only when each is a request of the \
             current client",
            place(at.start)
        ));
    }
    joined_result_edits(call, doc, settings, place)
}

/// The first function of the module `call`'s result is passed to, and the call passing it.
pub(crate) fn through(call: &Call) -> Option<(&str, &Range<usize>)> {
    call.result.as_ref()?.uses.iter().find_map(|u| match u {
        ResultUse::Through { name, call, .. } => Some((name.as_str(), call)),
        _ => None,
    })
}

/// [`result_edits`], for a request rewritten with the others of
/// [`ResultUses::together`](crate::migration_facts::ResultUses::together): the reads they share
/// come out the same in each, and are made once.
pub(crate) fn joined_result_edits(
    call: &Call,
    doc: &Document,
    settings: &Settings,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let Some(result) = &call.result else {
        return Ok(Vec::new());
    };
    let dialect = Dialect::of(doc);
    let text = &doc.text;
    let written = |range: &Range<usize>| shorten(text.get(range.clone()).unwrap_or_default());
    let mut edits = Vec::new();
    for use_ in &result.uses {
        match use_ {
            ResultUse::Read(read) => edits.extend(read_edit(call, read, doc, settings, dialect, place)?),
            ResultUse::Member { range, name } => {
                if dialect == Dialect::Python && SHARED_MEMBERS.contains(&name.as_str()) {
                    continue;
                }
                return Err(format!(
                    "{}: `{}` is read, which interlint does not rewrite to a read of an interaction",
                    place(range.start),
                    written(range)
                ));
            }
            ResultUse::Escape { range, how } => return Err(format!("{}: {how}", place(range.start))),
            ResultUse::Loop(stream) => edits.extend(loop_edits(stream, doc, dialect, place)?),
            ResultUse::Parts(parts) => edits.extend(parts_edits(call, parts, doc, dialect, place)?),
            ResultUse::FunctionCalls(calls) => {
                edits.extend(function_calls_edits(calls, doc, settings, dialect, place)?)
            }
            // The round trip's request rewrites the turn it sends back.
            ResultUse::Through { .. } | ResultUse::Continued { .. } => {}
        }
    }
    // A test repeated by the rewrite goes, with its own edit.
    let removals = repeated_tests(result, &edits, text);
    edits.retain(|e| {
        !removals
            .iter()
            .any(|r| r.range.start <= e.range.start && e.range.end <= r.range.end)
    });
    edits.extend(removals);
    // Two reads needing one import add it once.
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits.dedup();
    Ok(edits)
}

/// The removals of tests made the same by their rewrite: the steps of the way to an answer
/// tested one after the other (`not r.candidates or not r.candidates[0].content`) all become
/// the same output (`not r.output_audio or not r.output_audio`), and a test repeated in the
/// same logical expression, with the same negation, changes nothing (`A or A` is `A`). Each
/// repeat goes with the operator before it.
fn repeated_tests(result: &crate::migration_facts::ResultUses, edits: &[Edit], text: &str) -> Vec<Edit> {
    static BETWEEN: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^\s*(?:or|and|\|\||&&)\s*(?P<negation>not\s+|!\s*)?$").ok()
    });
    let Some(between_pattern) = BETWEEN.as_ref() else {
        return Vec::new();
    };
    // Each tested read as it is written after its rewrite.
    let tested: Vec<(&Range<usize>, String)> = result
        .uses
        .iter()
        .filter_map(|u| match u {
            ResultUse::Read(read) if read.kind == ReadKind::Tested => Some(&read.range),
            _ => None,
        })
        .filter_map(|range| {
            let edit = edits
                .iter()
                .find(|e| e.range.end == range.end && e.range.start >= range.start)?;
            let kept = text.get(range.start..edit.range.start)?;
            Some((range, format!("{kept}{}", edit.content)))
        })
        .collect();
    let negation_before = |at: usize| {
        let before = text.get(..at).unwrap_or_default().trim_end();
        if before.ends_with('!') {
            "!"
        } else if before.ends_with(" not") || before.ends_with("(not") || before == "not" {
            "not"
        } else {
            ""
        }
    };
    let mut removals = Vec::new();
    // The test kept (where it starts, as written) and where the last test seen ends.
    let mut kept: Option<(usize, &str, usize)> = None;
    for (range, written) in &tested {
        let repeated = kept.is_some_and(|(start, kept_written, end)| {
            let between = text.get(end..range.start).unwrap_or_default();
            // `A or A and B` is `A or (A and B)`: the repeat binds to what follows.
            let after = text.get(range.end..).unwrap_or_default().trim_start();
            let binds_after = after.starts_with("and") || after.starts_with("&&");
            between_pattern.captures(between).is_some_and(|caps| {
                let negation = caps.name("negation").map_or("", |m| m.as_str().trim());
                let or = caps
                    .get(0)
                    .is_some_and(|m| m.as_str().contains("or") || m.as_str().contains("||"));
                negation == negation_before(start) && !(or && binds_after)
            }) && kept_written == written
        });
        match kept {
            Some((start, kept_written, end)) if repeated => {
                removals.push(Edit::replace(end..range.end, ""));
                kept = Some((start, kept_written, range.end));
            }
            _ => kept = Some((range.start, written, range.end)),
        }
    }
    removals
}

/// A read of a response as the interaction's (with the import it needs).
fn read_edit(
    call: &Call,
    read: &Read,
    doc: &Document,
    settings: &Settings,
    dialect: Dialect,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let text = &doc.text;
    let receiver = text.get(read.receiver.clone()).unwrap_or_default();
    let written = shorten(text.get(read.range.clone()).unwrap_or_default());
    let at = place(read.range.start);
    // The receiver stays as written (it may be the request itself): what follows it changes.
    let after_receiver = |range: Range<usize>, new: String| match new.strip_prefix(receiver) {
        Some(tail) if range.start == read.receiver.start => Edit::replace(read.receiver.end..range.end, tail),
        _ => Edit::replace(range, new),
    };
    match read.kind {
        ReadKind::Text | ReadKind::Candidates { simple_text: true } => Ok(vec![after_receiver(
            read.range.clone(),
            dialect.answer_text(receiver),
        )]),
        ReadKind::Usage { member } => {
            match usage_read(read, member, receiver, text, &settings.fields.usage) {
                Ok((range, new)) => Ok(vec![after_receiver(range, new)]),
                Err(count) => Err(format!(
                    "{at}: `{written}` reads `{count}`, which an interaction's `{}` does not have",
                    settings.fields.usage.field
                )),
            }
        }
        ReadKind::Parsed { .. } => {
            let parsed = parsed_as(call, text)
                .map_err(|why| format!("{at}: `{written}` reads the parsed answer: {why}"))?;
            let code = parsed.expression(&dialect.answer_text(receiver));
            let mut edits = import_edits(&code, doc, read.range.start)?;
            edits.push(Edit::replace(read.range.clone(), code));
            Ok(edits)
        }
        // The first code execution step's code or output, as the old getters read the first part.
        ReadKind::Code { result } => {
            let (step, member) = match result {
                true => CODE_RESULT,
                false => CODE_CALL,
            };
            let code = match dialect {
                Dialect::Python => {
                    let q = doc.facts().string_quote(text, read.range.start);
                    format!(
                        "next((step.{member} for step in {receiver}.steps or [] if step.type == {q}{step}{q}), None)"
                    )
                }
                _ => format!(
                    "({receiver}.steps ?? []).flatMap((step) => (step.type === \"{step}\" ? [step.{member}] : []))[0]"
                ),
            };
            Ok(vec![Edit::replace(read.range.clone(), code)])
        }
        // The first part's media, as the interaction's output of the kind the request asks for.
        ReadKind::InlineData { data } => {
            let Some(output) = output_media(call, text) else {
                return Err(format!(
                    "{at}: `{written}` reads the first part's media, and the request asks for no audio or image \
                     output (`response_modalities`) that says which output of an interaction it is"
                ));
            };
            if !data {
                return Err(format!(
                    "{at}: `{written}` reads the first part's media whole, which an interaction holds as \
                     `{output}` (its data in base64)"
                ));
            }
            let code = match dialect {
                // Bytes, as `inline_data.data` held them.
                Dialect::Python => format!("base64.b64decode({receiver}.{output}.data)"),
                // Base64 already, as `inlineData.data` held it.
                _ => format!("{receiver}.{output}?.data"),
            };
            let mut edits = import_edits(&code, doc, read.range.start)?;
            edits.push(after_receiver(read.range.clone(), code));
            Ok(edits)
        }
        // Whether there is an answer: the output the request asks for.
        ReadKind::Tested => {
            let raw = text.get(read.range.clone()).unwrap_or_default();
            let media = raw.contains("inline_data") || raw.contains("inlineData");
            let code = match output_media(call, text) {
                Some(output) if media && raw.ends_with(".data") => format!("{receiver}.{output}.data"),
                Some(output) => format!("{receiver}.{output}"),
                None if !media => dialect.answer_text(receiver),
                None => {
                    return Err(format!(
                        "{at}: `{written}` tests the first part's media, and the request asks for no audio or \
                         image output (`response_modalities`) that says which output of an interaction it is"
                    ));
                }
            };
            Ok(vec![after_receiver(read.range.clone(), code)])
        }
        ReadKind::FunctionCalls | ReadKind::PartFunctionCall => Err(format!(
            "{at}: `{written}` reads function calls, which an interaction holds as `function_call` steps"
        )),
        ReadKind::Grounding { shown } => {
            // The interaction as a name (`response`, or `response?` read optionally).
            let interaction = receiver.strip_suffix('?').unwrap_or(receiver);
            let entry = grounding_entry(read, interaction, text, &settings.fields.grounding_read);
            let code = match entry {
                Some(entry) if shown || !entry.shown => grounding_code(entry, interaction, dialect),
                // Only a shown value has a counterpart.
                Some(entry) => {
                    let holds = match (&entry.annotations, entry.steps.as_slice()) {
                        (Some(kind), _) => format!("the `{kind}` annotations of the answer's text"),
                        (None, steps) => format!("its `{}` steps", steps.join("` and `")),
                    };
                    return Err(format!(
                        "{at}: `{written}` is read further than shown (printed or displayed), and an interaction \
                         holds it in another shape: {holds}"
                    ));
                }
                None => {
                    return Err(format!(
                        "{at}: `{written}` reads grounding metadata, which an interaction holds as search steps \
                         and annotations"
                    ));
                }
            };
            Ok(vec![Edit::replace(read.range.clone(), code)])
        }
        ReadKind::Candidates { simple_text: false } => Err(format!(
            "{at}: `{written}` reads the candidates, which an interaction holds as steps"
        )),
    }
}

/// A read of the first candidate's grounding metadata (`R.candidates[0].grounding_metadata...`,
/// as the whole chain `read` covers) as the read of the interaction's steps the
/// `[[grounding-read]]` table gives for what it reads; `None` when the table has none (or only
/// one for a value shown, and it is not), or when the interaction is not a name.
fn grounding_entry<'t>(
    read: &Read,
    interaction: &str,
    text: &str,
    table: &'t [crate::request_fields::GroundingRead],
) -> Option<&'t crate::request_fields::GroundingRead> {
    if !is_dotted_name(interaction) {
        return None;
    }
    let chain: String = text
        .get(read.receiver.end..read.range.end)?
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '?' && *c != '!')
        .collect::<String>()
        .replace(".[", "[");
    let rest = chain.strip_prefix(".candidates[0].")?;
    let mut fields = rest.split('.').map(snake_case);
    let metadata = fields.next()?;
    let after: Vec<String> = fields.collect();
    if after.iter().any(|f| f.is_empty() || f.contains(['[', '('])) {
        return None;
    }
    let after = after.join(".");
    table.iter().find(|e| e.metadata == metadata && e.after == after)
}

/// The read of an interaction's steps (or of its answer's annotations) `entry` gives, of the
/// interaction named `receiver`.
fn grounding_code(entry: &crate::request_fields::GroundingRead, receiver: &str, dialect: Dialect) -> String {
    let python = dialect == Dialect::Python;
    let steps = format!("{receiver}.steps");
    if let Some(annotation) = &entry.annotations {
        return match python {
            true => format!(
                "[annotation for step in {steps} or [] if step.type == \"model_output\" for content in step.content or [] \
                 if content.type == \"text\" for annotation in content.annotations or [] if annotation.type == \"{annotation}\"]"
            ),
            false => format!(
                "({steps} ?? []).flatMap((step) => (step.type === \"model_output\" ? (step.content ?? []) : []))\
                 .flatMap((content) => (content.type === \"text\" ? (content.annotations ?? []) : []))\
                 .filter((annotation) => annotation.type === \"{annotation}\")"
            ),
        };
    }
    let types: Vec<String> = entry.steps.iter().map(|t| format!("\"{t}\"")).collect();
    let is_type = |var: &str| match (python, types.as_slice()) {
        (true, [one]) => format!("{var}.type == {one}"),
        (true, _) => format!("{var}.type in ({})", types.join(", ")),
        (false, _) => types
            .iter()
            .map(|t| format!("{var}.type === {t}"))
            .collect::<Vec<_>>()
            .join(" || "),
    };
    let Some(items) = &entry.items else {
        return match python {
            true => format!("[step for step in {steps} or [] if {}]", is_type("step")),
            false => format!("({steps} ?? []).filter((step) => {})", is_type("step")),
        };
    };
    let value = match &entry.member {
        Some(member) => format!("item.{member}"),
        None => "item".to_string(),
    };
    match python {
        true => {
            let values = format!(
                "{value} for step in {steps} or [] if {} for item in step.{items} or []",
                is_type("step")
            );
            match entry.first {
                true => format!("next(({values}), None)"),
                false => format!("[{values}]"),
            }
        }
        false => {
            let optional_items = items.replace('.', "?.");
            let each = match &entry.member {
                Some(_) => format!("(step.{optional_items} ?? []).map((item) => {value})"),
                None => format!("(step.{optional_items} ?? [])"),
            };
            let values = format!(
                "({steps} ?? []).flatMap((step) => ({} ? {each} : []))",
                is_type("step")
            );
            match entry.first {
                true => format!("{values}[0]"),
                false => values,
            }
        }
    }
}

/// The output of an interaction that holds the media `call` asks for: `output_audio` when its
/// config's `response_modalities` names `AUDIO`, `output_image` when it names `IMAGE` (and not
/// audio); `None` otherwise.
fn output_media(call: &Call, text: &str) -> Option<&'static str> {
    let config = call.arg("config")?.value.resolved_map()?;
    let modalities = config
        .entries
        .iter()
        .find(|e| snake_case(&e.key) == "response_modalities")?;
    let crate::migration_facts::ValueKind::List(items) = &modalities.value.kind else {
        return None;
    };
    let named = |what: &str| {
        items.iter().any(|item| {
            text.get(item.range.clone())
                .is_some_and(|t| t.to_ascii_uppercase().contains(what))
        })
    };
    if named("AUDIO") {
        Some("output_audio")
    } else if named("IMAGE") {
        Some("output_image")
    } else {
        None
    }
}

/// Why the first of `other`, the uses of a loop's variable or of a value taken from a result that
/// no rewrite follows, blocks the unit: an escape says how; a member (of a chunk) has no
/// counterpart on `counterpart`; anything else is `what` used otherwise, at `at`.
fn first_other(
    other: &[ResultUse],
    text: &str,
    place: &dyn Fn(usize) -> String,
    counterpart: &str,
    what: &str,
    at: usize,
) -> Option<String> {
    Some(match other.first()? {
        ResultUse::Member { range, .. } => format!(
            "{}: `{}` has no counterpart on {counterpart}",
            place(range.start),
            shorten(text.get(range.clone()).unwrap_or_default())
        ),
        ResultUse::Escape { range, how } => format!("{}: {how}", place(range.start)),
        _ => format!("{}: {what} used in a way interlint does not rewrite", place(at)),
    })
}

/// A response's function calls as the interaction's `function_call` steps (the steps of the type
/// the function-call table names), and each member read of a call as the step's.
fn function_calls_edits(
    calls: &FunctionCallsRead,
    doc: &Document,
    settings: &Settings,
    dialect: Dialect,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let text = &doc.text;
    if let Some(why) = first_other(
        &calls.other,
        text,
        place,
        "a `function_call` step",
        "the function calls are",
        calls.range.start,
    ) {
        return Err(why);
    }
    let mapping = &settings.fields.function_calls;
    let receiver = text.get(calls.receiver.clone()).unwrap_or_default();
    if receiver == "step" {
        return Err(format!(
            "{}: the response is named `step`, the name the steps would be read with",
            place(calls.range.start)
        ));
    }
    let step = &mapping.step;
    let steps = match dialect {
        Dialect::Python => {
            let q = doc.facts().string_quote(text, calls.range.start);
            format!("[step for step in {receiver}.steps or [] if step.type == {q}{step}{q}]")
        }
        _ => format!("({receiver}.steps ?? []).filter((step) => step.type === \"{step}\")"),
    };
    let mut edits = vec![Edit::replace(calls.range.clone(), steps)];
    for (member, range) in &calls.members {
        match mapping.names.get(&snake_case(member)) {
            Some(renamed) if renamed == member => {}
            Some(renamed) => edits.push(Edit::replace(range.clone(), renamed.clone())),
            None => {
                return Err(format!(
                    "{}: a function call's `{member}` has no counterpart on a `{step}` step",
                    place(range.start)
                ));
            }
        }
    }
    Ok(edits)
}

/// A loop over a stream: each chunk is an event, and only a text delta carries text.
fn loop_edits(
    stream: &StreamLoop,
    doc: &Document,
    dialect: Dialect,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let text = &doc.text;
    if let Some(why) = first_other(
        &stream.other,
        text,
        place,
        "a stream event",
        "the chunk is",
        stream.range.start,
    ) {
        return Err(why);
    }
    let chunk = &stream.chunk;
    let mut edits = Vec::new();
    for read in &stream.reads {
        if read.kind != ReadKind::Text {
            return Err(format!(
                "{}: `{}` has no counterpart on a stream event",
                place(read.range.start),
                shorten(text.get(read.range.clone()).unwrap_or_default())
            ));
        }
        edits.push(Edit::replace(read.range.clone(), format!("{chunk}.delta.text")));
    }
    if edits.is_empty() {
        return Ok(edits);
    }
    let guard = match dialect {
        Dialect::Python => format!(
            "if {chunk}.event_type != \"step.delta\" or {chunk}.delta.type != \"text\":\n{indent}    continue\n{indent}",
            indent = stream.indent
        ),
        _ => format!(
            "\n{indent}if ({chunk}.event_type !== \"step.delta\" || {chunk}.delta.type !== \"text\") continue;",
            indent = stream.indent
        ),
    };
    edits.push(Edit::replace(stream.body_start..stream.body_start, guard));
    Ok(edits)
}

/// A loop over the first candidate's parts, as a loop over the contents of the interaction's
/// model-output steps (an interaction holds its answer's text and images there; thoughts, code
/// and function calls are steps of their own): a part's test becomes a test of the content's
/// type, its inline data the content's base64 data (decoded in Python, where the old part held
/// bytes), and a test that skips thought parts goes, since the model's output holds none.
fn parts_edits(
    call: &Call,
    parts: &PartsLoop,
    doc: &Document,
    dialect: Dialect,
    place: &dyn Fn(usize) -> String,
) -> Result<Vec<Edit>, String> {
    let text = &doc.text;
    let written = |range: &Range<usize>| shorten(text.get(range.clone()).unwrap_or_default());
    if let Some(why) = first_other(
        &parts.other,
        text,
        place,
        "an interaction's output content",
        "the part is",
        parts.iter.start,
    ) {
        return Err(why);
    }
    let part = &parts.part;
    let receiver = text.get(parts.receiver.clone()).unwrap_or_default();
    let py = dialect == Dialect::Python;
    let is = |kind: &str| match py {
        true => format!("{part}.type == \"{kind}\""),
        false => format!("{part}.type === \"{kind}\""),
    };
    // Thoughts read other than to skip them: the loop goes over the thought steps' summaries
    // too, each content with whether it is a thought (Python).
    let thoughtful = parts.reads.iter().any(|r| {
        snake_case(&r.member) == "thought" && !matches!(r.role, PartRole::Test { skip: Some(_), .. })
    });
    if thoughtful {
        if !py {
            let read = parts.reads.iter().find(|r| snake_case(&r.member) == "thought");
            let at = read.map_or(parts.iter.start, |r| r.range.start);
            return Err(format!(
                "{}: `{part}.thought` reads thoughts, which an interaction holds as `thought` steps, apart from its output",
                place(at)
            ));
        }
        if has_word_where(text, "thought", &doc.facts().comments, false) {
            return Err(format!(
                "{}: `thought`, the name that would say a content is a thought, is taken",
                place(parts.iter.start)
            ));
        }
    }
    // Code execution parts read: the loop goes over the code execution steps too, each as it
    // is, between the output's contents.
    // A part used whole (shown, nothing read of it) may be any part, code execution's too: the
    // loop goes over every content and code execution step, as the old loop over every part.
    let code_parts = parts.reads.is_empty()
        || parts.reads.iter().any(|r| {
            matches!(
                snake_case(&r.member).as_str(),
                "executable_code" | "code_execution_result"
            )
        });
    if code_parts && thoughtful {
        return Err(format!(
            "{}: the loop reads both thoughts and code execution parts, which an interaction holds as \
             steps of their own",
            place(parts.iter.start)
        ));
    }
    let line_start = text
        .get(..parts.iter.start)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let indent = crate::migration_facts::line_indent(text, parts.iter.start);
    // A loop reading nothing but text (and thoughts) goes over the text contents alone, whose
    // `text` it reads as it read the parts' (Python).
    let text_only = py
        && !parts.reads.is_empty()
        && parts
            .reads
            .iter()
            .all(|r| matches!(snake_case(&r.member).as_str(), "text" | "thought"));
    let only_text = |separator: &str| match text_only {
        true => format!("{separator}if item.type == \"text\""),
        false => String::new(),
    };
    let iterated = match (py, thoughtful) {
        (true, false) if code_parts => format!(
            "[\n{indent}    item\n{indent}    for step in {receiver}.steps or []\n{indent}    for item in (\n{indent}        \
             step.content or []\n{indent}        if step.type == \"model_output\"\n{indent}        else [step]\n{indent}        \
             if step.type in (\"code_execution_call\", \"code_execution_result\")\n{indent}        else []\n{indent}    )\n{indent}]"
        ),
        (false, _) if code_parts => format!(
            "({receiver}.steps ?? []).flatMap((step) =>\n{indent}  step.type === \"model_output\"\n{indent}    ? (step.content ?? [])\n{indent}    \
             : step.type === \"code_execution_call\" || step.type === \"code_execution_result\"\n{indent}      ? [step]\n{indent}      : [],\n{indent})"
        ),
        (true, false) => {
            let one_line = format!(
                "[item for step in {receiver}.steps or [] if step.type == \"model_output\" for item in step.content or []{}]",
                only_text(" ")
            );
            // The loop's header, as long as a formatter lets it be (ruff's 88).
            if parts.iter.start - line_start + one_line.len() + 1 > 88 {
                format!(
                    "[\n{indent}    item\n{indent}    for step in {receiver}.steps or []\n{indent}    if step.type == \
                     \"model_output\"\n{indent}    for item in step.content or []{}\n{indent}]",
                    only_text(&format!("\n{indent}    "))
                )
            } else {
                one_line
            }
        }
        (true, true) => format!(
            "[\n{indent}    (step.type == \"thought\", item)\n{indent}    for step in {receiver}.steps or []\n{indent}    \
             for item in (\n{indent}        step.summary\n{indent}        if step.type == \"thought\"\n{indent}        \
             else step.content\n{indent}        if step.type == \"model_output\"\n{indent}        else None\n{indent}    ) \
             or []{}\n{indent}]",
            only_text(&format!("\n{indent}    "))
        ),
        (false, _) => format!(
            "({receiver}.steps ?? []).flatMap((step) => (step.type === \"model_output\" ? (step.content ?? []) : []))"
        ),
    };
    let mut edits = vec![Edit::replace(parts.iter.clone(), iterated)];
    if thoughtful {
        edits.push(Edit::replace(parts.target.clone(), format!("thought, {part}")));
    }
    for read in &parts.reads {
        let at = place(read.range.start);
        let member = snake_case(&read.member);
        let attribute = read
            .attribute
            .as_ref()
            .map(|(name, range)| (snake_case(name), range));
        let unguarded = || {
            format!(
                "{at}: `{}` is read where the part may not be of that kind; an interaction's content has \
                 the members of its own kind (`type`)",
                written(&read.range)
            )
        };
        match (member.as_str(), &read.role, attribute) {
            // Every content is a text: its text is read as the part's was.
            ("text", ..) if text_only => {}
            ("text", PartRole::Test { test, .. }, _) => edits.push(Edit::replace(test.clone(), is("text"))),
            ("text", PartRole::Guarded, _) => {}
            // Inline data is an image unless the request asks for speech.
            ("inline_data", ..) if text.get(call.range.clone()).is_some_and(|c| c.contains("AUDIO")) => {
                return Err(format!(
                    "{at}: `{}` reads inline data of a request that asks for audio, which interlint does not \
                     follow to the interaction's audio content",
                    written(&read.range)
                ));
            }
            ("inline_data", PartRole::Test { test, .. }, _) => {
                edits.push(Edit::replace(test.clone(), is("image")))
            }
            ("inline_data", PartRole::Guarded, Some((name, range))) if name == "data" => {
                edits.push(Edit::replace(
                    range.clone(),
                    match py {
                        true => {
                            let q = doc.facts().string_quote(text, range.start);
                            format!("base64.b64decode({part}.data or {q}{q})")
                        }
                        false => format!("{part}.data"),
                    },
                ));
            }
            ("inline_data", PartRole::Guarded, Some((name, range))) if name == "mime_type" => {
                edits.push(Edit::replace(range.clone(), format!("{part}.mime_type")));
            }
            ("thought", ..) if thoughtful => edits.push(Edit::replace(read.range.clone(), "thought")),
            (
                "thought",
                PartRole::Test {
                    skip: Some(statement),
                    ..
                },
                _,
            ) => {
                edits.push(Edit::replace(whole_lines(text, statement.clone()), ""));
            }
            ("thought", ..) => {
                return Err(format!(
                    "{at}: `{}` reads thoughts, which an interaction holds as `thought` steps, apart from \
                     its output",
                    written(&read.range)
                ));
            }
            ("executable_code", PartRole::Test { test, .. }, _) => {
                edits.push(Edit::replace(test.clone(), is(CODE_CALL.0)))
            }
            ("executable_code", PartRole::Guarded, Some((name, range))) if name == "code" => {
                edits.push(Edit::replace(range.clone(), format!("{part}.{}", CODE_CALL.1)))
            }
            ("code_execution_result", PartRole::Test { test, .. }, _) => {
                edits.push(Edit::replace(test.clone(), is(CODE_RESULT.0)))
            }
            ("code_execution_result", PartRole::Guarded, Some((name, range))) if name == "output" => {
                edits.push(Edit::replace(range.clone(), format!("{part}.{}", CODE_RESULT.1)))
            }
            (
                "text" | "inline_data" | "executable_code" | "code_execution_result",
                PartRole::Unguarded,
                _,
            ) => {
                return Err(unguarded());
            }
            _ => {
                return Err(format!(
                    "{at}: `{}` has no counterpart on an interaction's output content",
                    shorten(
                        text.get(read.attribute.as_ref().map_or(&read.range, |(_, r)| r).clone())
                            .unwrap_or_default()
                    )
                ));
            }
        }
    }
    let code: String = edits.iter().map(|e| e.content.as_str()).collect();
    let mut imports = import_edits(&code, doc, parts.iter.start)?;
    edits.append(&mut imports);
    Ok(edits)
}

/// `R.usage_metadata` (with the count read from it) as an interaction's `R.usage`: the range
/// replaced and its text, or the count that has no counterpart. A legacy JavaScript result's
/// `.response` is dropped from `receiver` by the caller.
pub(crate) fn usage_read(
    read: &Read,
    member: Option<(usize, usize)>,
    receiver: &str,
    text: &str,
    usage: &UsageMapping,
) -> Result<(Range<usize>, String), String> {
    let member_name = member.and_then(|(start, end)| text.get(start..end));
    match (member, member_name) {
        (Some((start, end)), Some(name)) => match usage.names.get(&snake_case(name)) {
            Some(renamed) => {
                // `?.` stays as written.
                let dot = text.get(read.range.end..start).unwrap_or(".");
                Ok((
                    read.range.start..end,
                    format!("{receiver}.{}{dot}{renamed}", usage.field),
                ))
            }
            None => Err(name.to_string()),
        },
        _ => Ok((read.range.clone(), format!("{receiver}.{}", usage.field))),
    }
}

/// At most 60 characters of code, on one line, for a message.
fn shorten(code: &str) -> String {
    let line = code.lines().next().unwrap_or_default().trim();
    let short = match line.char_indices().nth(60) {
        Some((end, _)) => format!("{}...", &line[..end]),
        None => line.to_string(),
    };
    if short.len() < code.trim().len() && !short.ends_with("...") {
        format!("{short}...")
    } else {
        short
    }
}
