//! The rewrite of a legacy-client unit ([`LegacyUnit`]) as code of the current package: the
//! import, a client where the legacy package was configured, and every request made through the
//! unit's models as an interactions call with the model's settings merged by the request-field
//! table; the token counts and file calls through the client, the other clients made with the
//! current class. One fix, shared by the unit's findings: all of it applies or none.
//!
//! The unit says what is there and where; the current package's words are here.
//!
//! It is the top of codegen: it imports the writer kit, the request rewriter (fields placed,
//! contents as the input), [`super::unit`] and [`super::chat`].

use std::ops::Range;

use crate::diagnostic::Edit;
use crate::lang::{Document, Module, Surface};
use crate::migration_facts::{
    Call, ClientSite, FilesFunction, LegacyClient, LegacyCount, LegacyFilesCall, LegacyImport, LegacyRequest,
    LegacyUnit, line_indent,
};
use crate::tables::Tables;

use super::request::contents::{conversation_steps, input_value, steps_list, user_input_step};
use super::request::fields::place_entries;
use super::writer::Dialect;
use super::writer::edits::statement_removal;

/// The current package's module (Python) and package (JavaScript), and the JavaScript client's
/// class.
const PYTHON_MODULE: &str = "genai";
const JAVASCRIPT_PACKAGE: &str = "@google/genai";
const JAVASCRIPT_CLASS: &str = "GoogleGenAI";

/// A unit and the text its offsets point into: the document's, or (in a notebook) the module
/// its code cells make.
pub struct Found<'d> {
    pub unit: &'d LegacyUnit,
    /// The document the unit's offsets point into: the file's, or the notebook's module.
    doc: &'d Document,
    text: &'d str,
    comments: &'d [Range<usize>],
    module: Option<&'d Module>,
}

/// The unit a legacy create-content call belongs to, if any.
pub fn unit_of<'d>(call: &Call, doc: &'d Document) -> Option<Found<'d>> {
    if let Some((module, base)) = &doc.module {
        let range = call.range.start + base..call.range.end + base;
        let facts = module.doc.facts();
        let unit = facts.legacy.iter().find(|u| u.calls.contains(&range))?;
        return Some(Found {
            unit,
            doc: &module.doc,
            text: &module.doc.text,
            comments: &facts.comments,
            module: Some(module),
        });
    }
    let facts = doc.facts();
    let unit = facts.legacy.iter().find(|u| u.calls.contains(&call.range))?;
    Some(Found {
        unit,
        doc,
        text: &doc.text,
        comments: &facts.comments,
        module: None,
    })
}

/// The edits migrating the unit (in the file's offsets when `in_file`), or why it cannot be
/// migrated.
pub fn rewrite_unit(found: &Found, dialect: Dialect, settings: &Tables) -> Result<(Vec<Edit>, bool), String> {
    let unit = found.unit;
    if let Some(reason) = &unit.blocked {
        return Err(reason.clone());
    }
    let text = found.text;
    let has_comment_in = |r: &Range<usize>| {
        found
            .comments
            .iter()
            .any(|c| c.start >= r.start && c.end <= r.end)
    };
    let (Some(import), Some((client_range, client_text))) =
        (import_code(unit, text), client_code(unit, text, found.doc))
    else {
        return Err("the unit's import or client is not known".into());
    };
    let mut edits = Vec::new();
    // A module that imports the current class already (under the name the new import would
    // bind) keeps that import, and the legacy one goes: a second would declare the name twice.
    let imported_already = current_class_imported(found.doc, unit);
    if imported_already {
        edits.push(Edit::replace(statement_removal(text, unit.import.clone()), ""));
        edits.push(Edit::replace(client_range, client_text));
    } else if client_range.is_empty() && client_range.start == unit.import.end {
        edits.push(Edit::replace(
            unit.import.clone(),
            format!("{import}{client_text}"),
        ));
    } else {
        edits.push(Edit::replace(unit.import.clone(), import));
        edits.push(Edit::replace(client_range, client_text));
    }
    for removal in &unit.removals {
        // The comments of a removed statement (`// Choose a model.` inside the model's
        // arguments) stay where it was, each on a line of its own.
        let comments: Vec<&str> = found
            .comments
            .iter()
            .filter(|c| c.start >= removal.start && c.end <= removal.end)
            .filter_map(|c| text.get(c.clone()))
            .collect();
        if comments.is_empty() {
            edits.push(Edit::replace(removal.clone(), ""));
            continue;
        }
        let before = text.get(..removal.start).unwrap_or_default();
        let through = text.get(..removal.end).unwrap_or_default();
        let removed = text.get(removal.clone()).unwrap_or_default();
        let whole_lines = (before.is_empty() || before.ends_with('\n')) && through.ends_with('\n');
        if !whole_lines || comments.iter().any(|c| c.contains('\n')) {
            return Err("a comment in a removed statement would be lost".into());
        }
        let indent = crate::migration_facts::line_indent(
            text,
            removal.start + (removed.len() - removed.trim_start().len()),
        );
        let kept: String = comments.iter().map(|c| format!("{indent}{c}\n")).collect();
        edits.push(Edit::replace(removal.clone(), kept));
    }
    for (range, replacement) in replacements(unit, text, dialect) {
        if imported_already && unit.repeated_imports.contains(&range) {
            edits.push(Edit::replace(statement_removal(text, range), ""));
        } else {
            edits.push(Edit::replace(range, replacement));
        }
    }
    // The legacy answer read after a result (`.response.text()`) becomes the interaction's.
    let answer = dialect.answer_text("");
    let typed = matches!(found.doc.surface, Surface::TypeScript | Surface::Tsx);
    for read in &unit.answers {
        if typed {
            // The legacy `text()` is a `string`, the interaction's `output_text` a `string |
            // undefined`: where TypeScript wants a string, the empty answer is one.
            let receiver = text.get(read.start..read.suffix.start).unwrap_or_default();
            let typed_answer = format!("{} ?? \"\"", dialect.answer_text(receiver));
            let whole = read.start..read.suffix.end;
            let wrapped = if stands_alone(text, &whole) {
                typed_answer
            } else {
                format!("({typed_answer})")
            };
            edits.push(Edit::replace(whole, wrapped));
        } else {
            edits.push(Edit::replace(read.suffix.clone(), answer.clone()));
        }
    }
    // A loop over a stream's chunks reads the events' text deltas.
    for stream_loop in &unit.stream_loops {
        let chunk = &stream_loop.chunk;
        for range in &stream_loop.texts {
            edits.push(Edit::replace(range.clone(), ".delta.text"));
        }
        let indent = &stream_loop.indent;
        let capture = stream_loop.capture.as_ref().map_or(String::new(), |id| {
            format!(
                "\n{indent}if ({chunk}.event_type === \"interaction.created\") {id} = {chunk}.interaction.id;"
            )
        });
        edits.push(Edit::replace(
            stream_loop.body_start..stream_loop.body_start,
            format!(
                "{capture}\n{indent}if ({chunk}.event_type !== \"step.delta\" || {chunk}.delta.type !== \"text\") continue;"
            ),
        ));
    }
    // A chat's creation goes, or holds the previous interaction's id that its turns update.
    for chat in &unit.chats {
        for (statement, id) in &chat.declarations {
            edits.push(
                super::chat::declaration_before(found.doc, id, statement)
                    .ok_or("a streamed turn of the chat shares its line with other code")?,
            );
        }
        if chat.straight {
            let removal = statement_removal(text, chat.statement.clone());
            if has_comment_in(&removal) {
                return Err("a comment in the chat's creation would be lost".into());
            }
            edits.push(Edit::replace(removal, ""));
            continue;
        }
        edits.push(Edit::replace(
            chat.statement.clone(),
            super::chat::id_declaration(found.doc, &chat.id_name, &chat.statement),
        ));
        for (statement, result) in &chat.updates {
            edits.push(
                super::chat::id_update(text, statement, result, &chat.id_name, dialect)
                    .ok_or("a turn of the chat shares its line with other code")?,
            );
        }
    }
    for request in &unit.requests {
        let placed = place_entries(
            &request.config,
            request.model_id.as_deref(),
            text,
            settings,
            dialect,
        )?
        .without_options()?;
        let written = text.get(request.contents.range.clone()).unwrap_or_default();
        let converted = match request.history.as_slice() {
            [] => input_value(&request.contents, text, dialect, &placed.content)?,
            // A chat's first turn: the history it started from, then its message, as steps.
            history => {
                let mut steps = conversation_steps(history, text, dialect, &placed.content)
                    .map_err(|why| format!("the chat starts from a history, and {why}"))?;
                steps.push(
                    user_input_step(&request.contents, text, dialect, &placed.content)
                        .map_err(|why| format!("the chat starts from a history, and {why}"))?,
                );
                let indent = crate::migration_facts::line_indent(text, request.call.start);
                Some(steps_list(&steps, &indent, dialect))
            }
        };
        // The modules the written input and arguments call (`base64`, `pydantic`), imported once.
        let written_code = format!(
            "{}\n{}",
            converted.as_deref().unwrap_or_default(),
            placed.arguments.join("\n")
        );
        edits.extend(super::writer::imports::import_edits(
            &written_code,
            found.doc,
            request.call.start,
        )?);
        let mut contents = converted.as_deref().unwrap_or(written).to_string();
        // JavaScript's request object puts the contents one level deeper than the call's
        // argument they were written as: their lines after the first move with them (a chat's
        // history is written for its place already).
        if dialect == Dialect::JavaScript && request.history.is_empty() {
            contents = super::writer::lines::shift_code_lines(&contents, "  ");
        }
        let mut arguments = vec![
            dialect.argument("model", &request.model),
            dialect.argument("input", &contents),
        ];
        arguments.extend(placed.arguments);
        if let Some(previous) = &request.previous {
            arguments.push(dialect.argument("previous_interaction_id", previous));
        }
        if request.stream {
            arguments.push(dialect.argument("stream", dialect.true_value()));
        }
        if let Some(timeout) = &request.timeout {
            arguments.push(dialect.argument("timeout", timeout));
        }
        edits.extend(result_edits(found, request, settings)?);
        let client = request.client.as_deref().unwrap_or(&unit.client_name);
        edits.push(Edit::replace(
            request.callee.clone(),
            format!("{client}.{}", method(request)),
        ));
        edits.push(arguments_edit(request, &arguments, client, text, dialect));
        for statement in placed.inlined {
            edits.push(Edit::replace(
                crate::migration_facts::line_removal(text, statement),
                "",
            ));
        }
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    edits.dedup();
    if edits.windows(2).any(|w| w[0].range.end > w[1].range.start) {
        return Err("the unit's edits overlap".into());
    }
    match found.module {
        Some(module) => module
            .file_edits(&edits)
            .map(|edits| (edits, true))
            .ok_or_else(|| "the edits cannot be carried into the notebook's cells".to_string()),
        None => Ok((edits, false)),
    }
}

/// The reads of a request's result, rewritten with it (Python; a JavaScript unit follows its
/// results itself, into `answers` and `responses`), or why the unit cannot be migrated.
fn result_edits(found: &Found, request: &LegacyRequest, settings: &Tables) -> Result<Vec<Edit>, String> {
    if Dialect::of(found.doc) == Dialect::JavaScript {
        return Ok(Vec::new());
    }
    let Some(call) = found.doc.facts().calls.iter().find(|c| {
        c.range == request.call
            && matches!(
                c.kind,
                crate::migration_facts::CallKind::LegacyCreate { .. }
                    | crate::migration_facts::CallKind::SendMessage
            )
    }) else {
        return Ok(Vec::new());
    };
    let place = |offset| match found.module {
        Some(module) => module.place(offset),
        None => super::writer::lines::place(found.doc, offset),
    };
    super::unit::result_edits(call, found.doc, settings, &place)
}

/// The statement importing the current package in place of the legacy import: Python's
/// `from google import genai` (under the legacy name when it is not `genai`), or JavaScript's
/// statement as written with the class and the package renamed; `None` when the unit's import
/// is not known (a unit blocked before it was read).
pub fn import_code(unit: &LegacyUnit, text: &str) -> Option<String> {
    Some(match unit.imported.as_ref()? {
        LegacyImport::Module { name } if name == PYTHON_MODULE => {
            format!("from google import {PYTHON_MODULE}")
        }
        LegacyImport::Module { name } => format!("from google import {PYTHON_MODULE} as {name}"),
        LegacyImport::Class { class, package, .. } => {
            let start = unit.import.start;
            let mut written = text.get(unit.import.clone()).unwrap_or_default().to_string();
            let mut renames = [(class, JAVASCRIPT_CLASS), (package, JAVASCRIPT_PACKAGE)];
            // From the end, so that the first rename does not move the second.
            renames.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
            for (range, replacement) in renames {
                let relative = range.start.saturating_sub(start)..range.end.saturating_sub(start);
                if written.get(relative.clone()).is_some() {
                    written.replace_range(relative, replacement);
                }
            }
            written
        }
    })
}

/// Where the run of import statements that holds the one ending at `end` ends: the client made
/// after the imports, not between them, where the imports after it would be module-level imports
/// below code (E402). `end` itself when the import is not a statement of the module.
fn imports_end(doc: &Document, end: usize) -> usize {
    let crate::lang::Syntax::Lowered(tree) = &doc.syntax else {
        return end;
    };
    let crate::lang::ir::Kind::Module(statements) = tree.kind(tree.root()) else {
        return end;
    };
    let Some(at) = statements.iter().position(|&s| tree.range(s).end == end) else {
        return end;
    };
    statements[at..]
        .iter()
        .take_while(|&&s| matches!(tree.kind(s), crate::lang::ir::Kind::Import(_)))
        .last()
        .map_or(end, |&s| tree.range(s).end)
}

/// Whether the expression at `range` stands where `a ?? b` needs no parentheses: after `return`,
/// `=`, `=>`, `(`, `[`, `,`, `:` or `${`, and before `;`, `)`, `]`, `}`, `,` or the line's
/// end. (`??` may not meet `||` or `&&` unparenthesized, and binds looser than `.` and `+`.)
fn stands_alone(text: &str, range: &Range<usize>) -> bool {
    let before = text.get(..range.start).unwrap_or_default().trim_end();
    let after = text.get(range.end..).unwrap_or_default();
    let after_line = after.split('\n').next().unwrap_or_default().trim();
    let opens = before.ends_with("return")
        || before.ends_with("=>")
        || before.ends_with("${")
        || (before.ends_with('=')
            && !before.ends_with("==")
            && !before.ends_with("!=")
            && !before.ends_with("<=")
            && !before.ends_with(">="))
        || before.ends_with(['(', '[', ',', ':']);
    let closes = after_line.is_empty() || after_line.starts_with([';', ')', ']', '}', ',']);
    opens && closes
}

/// Whether the module of a JavaScript unit imports the current class from the current package
/// already, bound to the name the unit's new import would bind (`import { GoogleGenAI } from
/// "@google/genai"` beside the legacy import).
fn current_class_imported(doc: &Document, unit: &LegacyUnit) -> bool {
    let Some(LegacyImport::Class { alias, .. }) = &unit.imported else {
        return false;
    };
    let crate::lang::Syntax::Lowered(tree) = &doc.syntax else {
        return false;
    };
    let bound = alias.as_deref().unwrap_or(JAVASCRIPT_CLASS);
    tree.nodes.iter().any(|node| match &node.kind {
        crate::lang::ir::Kind::Import(import) => {
            !import.type_only
                && import
                    .module
                    .as_ref()
                    .is_some_and(|m| &*m.name == JAVASCRIPT_PACKAGE)
                && import
                    .names
                    .iter()
                    .any(|n| &*n.name.name == JAVASCRIPT_CLASS && n.bound() == bound)
        }
        _ => false,
    })
}

/// The statement importing the current package in place of the unit's legacy import, for the
/// fix's title.
pub fn new_import(found: &Found) -> String {
    import_code(found.unit, found.text).unwrap_or_default()
}

/// The client's creation: the text replacing the `configure` callee or the legacy `new`
/// expression, or inserted at the import's end on a line of its own; `None` when the unit's
/// import or client is not known.
pub fn client_code(unit: &LegacyUnit, text: &str, doc: &Document) -> Option<(Range<usize>, String)> {
    let imported = unit.imported.as_ref()?;
    let client = &unit.client_name;
    Some(match unit.client.as_ref()? {
        ClientSite::AfterImport => {
            let indent = line_indent(text, unit.import.start);
            let name = module_name(imported);
            let end = imports_end(doc, unit.import.end);
            (end..end, format!("\n{indent}{client} = {name}.Client()"))
        }
        ClientSite::Configure { callee } => {
            let name = module_name(imported);
            (callee.clone(), format!("{client} = {name}.Client"))
        }
        ClientSite::New(creation) => new_client(creation, imported, text),
    })
}

/// The unit's other code, each the text replacing a range: the other clients, the token counts,
/// the file calls, the `.response` reads dropped and the repeated imports.
pub fn replacements(unit: &LegacyUnit, text: &str, dialect: Dialect) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    if let Some(imported) = &unit.imported {
        out.extend(unit.other_clients.iter().map(|c| new_client(c, imported, text)));
    }
    out.extend(
        unit.counts
            .iter()
            .map(|c| count_code(c, &unit.client_name, text, dialect)),
    );
    out.extend(unit.files.iter().map(|c| files_code(c, &unit.client_name, text)));
    out.extend(unit.file_deletions.iter().map(|(call, name)| {
        (
            call.clone(),
            format!("{}.files.delete(name={name}.name)", unit.client_name),
        )
    }));
    out.extend(unit.responses.iter().map(|r| (r.clone(), String::new())));
    if let Some(import) = import_code(unit, text) {
        out.extend(unit.repeated_imports.iter().map(|r| (r.clone(), import.clone())));
    }
    out
}

/// The name the current package's module is bound to, for a Python client's creation (a
/// JavaScript unit's client is made with `new`, by [`new_client`]).
fn module_name(imported: &LegacyImport) -> &str {
    match imported {
        LegacyImport::Module { name } => name,
        LegacyImport::Class { .. } => PYTHON_MODULE,
    }
}

/// `new GoogleGenerativeAI(KEY)` → `new GoogleGenAI({ apiKey: KEY })`, with the class's alias
/// when the import binds one.
fn new_client(creation: &LegacyClient, imported: &LegacyImport, text: &str) -> (Range<usize>, String) {
    let options = match &creation.key {
        None => "{}".to_string(),
        Some(key) => match text.get(key.clone()).unwrap_or_default() {
            "apiKey" => "{ apiKey }".to_string(),
            key => format!("{{ apiKey: {key} }}"),
        },
    };
    let class = match imported {
        LegacyImport::Class {
            alias: Some(alias), ..
        } => alias.as_str(),
        _ => JAVASCRIPT_CLASS,
    };
    (creation.creation.clone(), format!("new {class}({options})"))
}

/// A model's token count through the client's models: `client.models.count_tokens(model=m,
/// contents=x)`, `client.models.countTokens({ model: m, contents: x })`.
fn count_code(count: &LegacyCount, own_client: &str, text: &str, dialect: Dialect) -> (Range<usize>, String) {
    let client = count.client.as_deref().unwrap_or(own_client);
    let model = &count.model;
    let contents = text.get(count.contents.clone()).unwrap_or_default();
    let call = match dialect {
        Dialect::JavaScript => {
            format!("{client}.models.countTokens({{ model: {model}, contents: {contents} }})")
        }
        _ => format!("{client}.models.count_tokens(model={model}, contents={contents})"),
    };
    (count.call.clone(), call)
}

/// A legacy files call (`genai.upload_file(path, mime_type=...)`) as the client's
/// (`client.files.upload(file=path, config={"mime_type": ...})`).
fn files_code(call: &LegacyFilesCall, client: &str, text: &str) -> (Range<usize>, String) {
    let (method, file) = match call.function {
        FilesFunction::Upload => ("upload", "file"),
        FilesFunction::Get => ("get", "name"),
        FilesFunction::Delete => ("delete", "name"),
        FilesFunction::List => ("list", "name"),
    };
    let mut arguments = Vec::new();
    let mut config = Vec::new();
    for (key, value) in &call.arguments {
        let value = text.get(value.clone()).unwrap_or_default();
        match key {
            None => arguments.push(format!("{file}={value}")),
            Some(key) => config.push(format!("\"{key}\": {value}")),
        }
    }
    if !config.is_empty() {
        arguments.push(format!("config={{{}}}", config.join(", ")));
    }
    (
        call.call.clone(),
        format!("{client}.files.{method}({})", arguments.join(", ")),
    )
}

/// The client's method a request calls.
pub fn method(request: &LegacyRequest) -> &'static str {
    if request.asynchronous {
        "aio.interactions.create"
    } else {
        "interactions.create"
    }
}

/// What goes between two arguments of a request: `, `, or, when the arguments start on a line
/// of their own, a line break (with the first argument's indent in Python).
pub fn separator(request: &LegacyRequest, text: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::JavaScript if text.get(request.parens.clone()).is_some_and(|t| t.contains('\n')) => {
            ",\n".to_string()
        }
        Dialect::JavaScript => ", ".to_string(),
        _ if text
            .get(request.parens.start..request.arguments.start)
            .is_some_and(|t| t.contains('\n')) =>
        {
            format!(",\n{}", line_indent(text, request.arguments.start))
        }
        _ => ", ".to_string(),
    }
}

/// A line longer than this is broken, one argument per line (the common formatters' width:
/// black's for Python, prettier's for JavaScript).
fn line_width(dialect: Dialect) -> usize {
    match dialect {
        Dialect::JavaScript => 80,
        _ => 88,
    }
}

/// The new arguments in place of the old: joined as the old were, or, when the call was on one
/// line and would grow past the [`line_width`], one per line. JavaScript's are the properties of
/// one request object.
fn arguments_edit(
    request: &LegacyRequest,
    arguments: &[String],
    client: &str,
    text: &str,
    dialect: Dialect,
) -> Edit {
    let object = dialect == Dialect::JavaScript;
    let separator = separator(request, text, dialect);
    let joined = if object {
        format!("{{ {} }}", arguments.join(", "))
    } else {
        arguments.join(&separator)
    };
    let one_line = !separator.contains('\n');
    let line_start = text[..request.callee.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[request.parens.end..]
        .find('\n')
        .map_or(text.len(), |i| request.parens.end + i);
    let width = (request.callee.start - line_start)
        + client.len()
        + method(request).len()
        + 3
        + joined.len()
        + (line_end - request.parens.end);
    if (!one_line && !object) || width <= line_width(dialect) {
        return Edit::replace(request.arguments.clone(), joined);
    }
    let indent = crate::migration_facts::line_indent(text, request.callee.start);
    let step = if object { "  " } else { "    " };
    let inner = format!("{indent}{step}");
    let lines: Vec<String> = arguments.iter().map(|a| format!("{inner}{a},")).collect();
    let (open, close) = if object { ("({", "})") } else { ("(", ")") };
    Edit::replace(
        request.parens.clone(),
        format!("{open}\n{}\n{indent}{close}", lines.join("\n")),
    )
}
