//! Checking one text: parse into documents, run the rules, carry findings back to the file.

use std::path::Path;

use crate::analysis::Analysis;
use crate::analysis::suppressions::Tracker;
use crate::diagnostic::{CellLocation, Diagnostic, Fix};
use crate::lang::{self, Surface};
use crate::registry::{Rule, RuleContext};
use crate::settings::Settings;
use crate::source::LineIndex;
use crate::suppress;

/// All findings of `rules` on a file's text, sorted by position, in the file's byte offsets.
pub fn lint_text(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &Path,
    surface: Surface,
    text: &str,
) -> Vec<Diagnostic> {
    let rules = active_rules(rules, text);
    if rules.is_empty() {
        return Vec::new();
    }
    // Spans of an earlier file parsed on this thread are dead from here on.
    lang::rust::reset_thread_spans();
    let found = lint_documents(settings, &rules, path, lang::documents(surface, text));
    unfixed_records(path, without_own_configuration(path, text, found))
}

/// The findings of a text and its syntax errors ([`lang::syntax_errors`]), from one parse: the
/// fix loop needs both of every text it makes.
pub fn lint_text_and_errors(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &Path,
    surface: Surface,
    text: &str,
) -> (Vec<Diagnostic>, usize) {
    let rules = active_rules(rules, text);
    lang::rust::reset_thread_spans();
    let docs = lang::documents(surface, text);
    let errors = lang::errors_of(surface, text, &docs);
    if rules.is_empty() {
        return (Vec::new(), errors);
    }
    let found = lint_documents(settings, &rules, path, docs);
    (
        unfixed_records(path, without_own_configuration(path, text, found)),
        errors,
    )
}

/// File extensions of files that record code rather than hold it: a patch (`--diff -o
/// fix.diff`, `patches/*.patch`) and what `patch` leaves beside a file it could not change.
const RECORDS: &[&str] = &["diff", "patch", "rej", "orig"];

/// The findings of a file that records code, without their fixes: a fixed patch no longer
/// applies (its context and removed lines must match the file it patches), so it is reported
/// and changed by hand, or made again from the fixed code.
fn unfixed_records(path: &Path, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let records = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORDS.iter().any(|r| e.eq_ignore_ascii_case(r)));
    if !records {
        return found;
    }
    for diagnostic in &mut found {
        if let Some(fix) = diagnostic.fix.take() {
            diagnostic.suggestion = Some(format!(
                "{} by hand, or make the patch again from fixed code: this file records a change, \
                 and a patch whose lines are rewritten no longer applies",
                fix.message
            ));
        }
    }
    found
}

/// Findings outside interlint's own configuration ([`crate::config::own_ranges`]), whose fixes
/// stay outside it too.
fn without_own_configuration(path: &Path, text: &str, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let own = crate::config::own_ranges(name, text);
    if own.is_empty() {
        return found;
    }
    let inside = |r: &std::ops::Range<usize>| {
        own.iter()
            .any(|o| r.start < o.end && o.start < r.end.max(r.start + 1))
    };
    found.retain(|d| !inside(&d.range) && !d.fix.iter().flat_map(|f| &f.edits).any(|e| inside(&e.range)));
    found
}

/// The rules a file's own `ignore-file` directives leave on.
fn active_rules(rules: &[&'static dyn Rule], text: &str) -> Vec<&'static dyn Rule> {
    let file_directives = suppress::file_level(text);
    rules
        .iter()
        .copied()
        .filter(|r| !suppress::file_ignores(&file_directives, r.meta().code))
        .collect()
}

/// The findings of `rules` on a text's parsed documents, in the file's byte offsets.
fn lint_documents(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &Path,
    docs: Vec<lang::Document>,
) -> Vec<Diagnostic> {
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let mut out = Vec::new();
    // IL001 judges the directives after the other rules, over all of the file's documents.
    let judge_directives = rules.iter().copied().find(|r| r.judges_directives());
    let unused = judge_directives.is_some();
    let mut tracker = Tracker::default();
    for doc in docs {
        let analysis = Analysis::new(&doc, path, &settings.tables);
        let mut cx = RuleContext {
            settings: &settings.tables,
            file_name,
            path,
            analysis: &analysis,
            diagnostics: Vec::new(),
        };
        for rule in rules {
            rule.check(&doc, &mut cx);
        }
        let judge = unused && doc.text.contains("interlint:");
        if cx.diagnostics.is_empty() && !judge {
            continue;
        }
        let index = LineIndex::new(&doc.text);
        let mut directives = suppress::LineDirectives::new(&doc.text, &index);
        let cell_index = doc.cell.as_ref().map(|origin| LineIndex::new(&origin.text));
        for diagnostic in cx.diagnostics {
            if directives.suppresses(index.line_of(diagnostic.range.start), diagnostic.rule.code) {
                continue;
            }
            out.push(carry(
                diagnostic,
                &doc.text,
                doc.map.as_ref(),
                doc.cell.as_ref(),
                cell_index.as_ref(),
            ));
        }
        if judge {
            tracker.add(&doc, directives);
        }
    }
    if let Some(rule) = judge_directives {
        for (diagnostic, place) in rule.judge_directives(tracker, &settings.rules_for(path)) {
            let cell_index = place.cell.as_ref().map(|origin| LineIndex::new(&origin.text));
            out.push(carry(
                diagnostic,
                &place.text,
                place.map.as_ref(),
                place.cell.as_ref(),
                cell_index.as_ref(),
            ));
        }
    }
    out.sort_by(|a, b| {
        (a.range.start, a.range.end, a.rule.code).cmp(&(b.range.start, b.range.end, b.rule.code))
    });
    out
}

/// A finding of a document, in the file's offsets (with its notebook cell, if any).
fn carry(
    diagnostic: Diagnostic,
    doc_text: &str,
    map: Option<&lang::OffsetMap>,
    cell: Option<&lang::CellOrigin>,
    cell_index: Option<&LineIndex>,
) -> Diagnostic {
    match map {
        None => diagnostic,
        Some(map) => {
            let cell = cell
                .zip(cell_index)
                .map(|(origin, index)| cell_location(origin, index, &diagnostic));
            to_file(diagnostic, map, cell, doc_text)
        }
    }
}

/// The finding's place in its notebook cell, for display.
fn cell_location(origin: &lang::CellOrigin, index: &LineIndex, diagnostic: &Diagnostic) -> CellLocation {
    let text = &origin.text;
    let start_offset = origin.offset(diagnostic.range.start);
    let end_offset = origin.offset(diagnostic.range.end).max(start_offset);
    let start = index.position(text, start_offset);
    let end = index.position(text, end_offset);
    let first = index.line_range(start.line - 1, text).start;
    let last = index.line_range(end.line - 1, text).end.max(first);
    CellLocation {
        cell: origin.index,
        start,
        end,
        lines: text[first..last].to_string(),
    }
}

/// Carries a finding of an embedded document to the file. A fix whose edits cannot be carried
/// exactly is dropped; its message stays as a suggestion.
fn to_file(
    mut diagnostic: Diagnostic,
    map: &lang::OffsetMap,
    cell: Option<CellLocation>,
    doc_text: &str,
) -> Diagnostic {
    diagnostic.range = map.range(diagnostic.range.clone());
    diagnostic.cell = cell;
    if let Some(fix) = diagnostic.fix.take() {
        if fix.in_file {
            diagnostic.fix = Some(fix);
            return diagnostic;
        }
        match map.carry(&fix.edits, doc_text) {
            Some(edits) => diagnostic.fix = Some(Fix::new(fix.applicability, fix.message, edits)),
            None => {
                if diagnostic.suggestion.is_none() {
                    diagnostic.suggestion = Some(fix.message);
                }
            }
        }
    }
    diagnostic
}
