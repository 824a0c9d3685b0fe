//! The rewrite of a legacy-client unit ([`LegacyUnit`]) as code of the current package: the
//! import, a client where the legacy package was configured, and every request made through the
//! unit's models as an interactions call with the model's settings merged by the request-field
//! table. One fix, shared by the unit's findings: all of it applies or none.

use std::ops::Range;

use crate::api::{Call, LegacyUnit};
use crate::diagnostic::Edit;
use crate::lang::{Document, Module};
use crate::tables::Tables;

use super::request::{Dialect, place_entries};

/// A unit and the text its offsets point into: the document's, or (in a notebook) the module
/// its code cells make.
pub struct Found<'d> {
    pub unit: &'d LegacyUnit,
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
            text: &module.doc.text,
            comments: &facts.comments,
            module: Some(module),
        });
    }
    let facts = doc.facts();
    let unit = facts.legacy.iter().find(|u| u.calls.contains(&call.range))?;
    Some(Found {
        unit,
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
    let mut edits = Vec::new();
    // The client is created in place of the configure call, or just after the import.
    let (client_range, client_text) = &unit.client;
    if client_range.is_empty() && client_range.start == unit.import.end {
        edits.push(Edit::replace(
            unit.import.clone(),
            format!("{}{client_text}", unit.new_import),
        ));
    } else {
        edits.push(Edit::replace(unit.import.clone(), unit.new_import.clone()));
        edits.push(Edit::replace(client_range.clone(), client_text.clone()));
    }
    for removal in &unit.removals {
        if has_comment_in(removal) {
            return Err("a comment in a removed statement would be lost".into());
        }
        edits.push(Edit::replace(removal.clone(), ""));
    }
    for (range, replacement) in &unit.replacements {
        edits.push(Edit::replace(range.clone(), replacement.clone()));
    }
    // The legacy answer read after a result (`.response.text()`) becomes the interaction's.
    let answer = dialect.answer_text("");
    for range in &unit.answers {
        edits.push(Edit::replace(range.clone(), answer.clone()));
    }
    for request in &unit.requests {
        let newest = request
            .model_id
            .as_deref()
            .is_some_and(|id| settings.is_newest_generation(id));
        let placed = place_entries(&request.config, newest, text, settings, dialect)?;
        let written = text.get(request.contents.range.clone()).unwrap_or_default();
        let converted = crate::codegen::request::input_value(&request.contents, text, dialect)?;
        let contents = converted.as_deref().unwrap_or(written);
        let mut arguments = vec![
            dialect.argument("model", &request.model),
            dialect.argument("input", contents),
        ];
        arguments.extend(placed.arguments);
        if request.stream {
            arguments.push(dialect.argument("stream", dialect.true_value()));
        }
        let client = request.client.as_deref().unwrap_or(&unit.client_name);
        edits.push(Edit::replace(
            request.callee.clone(),
            format!("{client}.{}", request.method),
        ));
        edits.push(arguments_edit(request, &arguments, client, text, dialect));
        for statement in placed.inlined {
            edits.push(Edit::replace(crate::api::line_removal(text, statement), ""));
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
    request: &crate::api::LegacyRequest,
    arguments: &[String],
    client: &str,
    text: &str,
    dialect: Dialect,
) -> Edit {
    let object = dialect == Dialect::JavaScript;
    let joined = if object {
        format!("{{ {} }}", arguments.join(", "))
    } else {
        arguments.join(&request.separator)
    };
    let one_line = !request.separator.contains('\n');
    let line_start = text[..request.callee.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[request.parens.end..]
        .find('\n')
        .map_or(text.len(), |i| request.parens.end + i);
    let width = (request.callee.start - line_start)
        + client.len()
        + request.method.len()
        + 3
        + joined.len()
        + (line_end - request.parens.end);
    if (!one_line && !object) || width <= line_width(dialect) {
        return Edit::replace(request.arguments.clone(), joined);
    }
    let indent = crate::api::line_indent(text, request.callee.start);
    let step = if object { "  " } else { "    " };
    let inner = format!("{indent}{step}");
    let lines: Vec<String> = arguments.iter().map(|a| format!("{inner}{a},")).collect();
    let (open, close) = if object { ("({", "})") } else { ("(", ")") };
    Edit::replace(
        request.parens.clone(),
        format!("{open}\n{}\n{indent}{close}", lines.join("\n")),
    )
}
