//! Code actions (a quick fix per fixable finding, a suppression comment per finding, and
//! `source.fixAll.interlint`) and hovers (a rule's documentation on its finding or on its code in
//! a suppression comment).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use lsp_types::{self as lsp, CodeActionKind, Uri};
use regex::Regex;
use serde_json::json;

use super::convert::TextIndex;
use super::documents::Checked;
use super::notebook;
use super::notebook::cell_range;
use super::session::Session;
use crate::diagnostic::Applicability;
use crate::lang::Surface;

/// The kind of the action that applies every safe fix of a document.
pub const FIX_ALL: &str = "source.fixAll.interlint";

impl Session {
    pub(super) fn code_actions(&mut self, params: &lsp::CodeActionParams) -> Vec<lsp::CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        let notebook = self.documents.get(uri).and_then(|d| d.notebook.clone());
        let Some(checked) = self.check(notebook.as_ref().unwrap_or(uri)) else {
            return Vec::new();
        };
        let only = params.context.only.as_ref();
        let wants = |kind: &str| only.is_none_or(|kinds| kinds.iter().any(|k| kind.starts_with(k.as_str())));
        let mut actions = Vec::new();
        if wants(CodeActionKind::QUICKFIX.as_str()) {
            for d in &checked.findings {
                let Some((at, range)) = self.place(&checked, d) else {
                    continue;
                };
                if at != *uri || !overlaps(range, params.range) {
                    continue;
                }
                let diagnostic = self.to_lsp(d, range);
                if let Some(fix) = d.applicable_fix(self.options.unsafe_fixes) {
                    let (new, _) = crate::fix::apply_fixes(&checked.text, [fix], checked.line_ending);
                    let safe = fix.applicability == Applicability::Safe;
                    let mut title = format!("interlint ({}): {}", d.rule.code, fix.message);
                    if !safe {
                        title.push_str(" (unsafe fix)");
                    }
                    if let Some(edit) = self.workspace_edit(&checked, uri, &new) {
                        actions.push(action(
                            title,
                            CodeActionKind::QUICKFIX,
                            Some(edit),
                            &diagnostic,
                            safe,
                        ));
                    }
                }
                // The comment is placed (and verified) when the action is chosen, where the
                // client resolves actions: a list of actions is asked for at every move.
                let title = format!("interlint ({}): Disable for this line", d.rule.code);
                if self.resolve_edits {
                    let mut deferred = action(title, CodeActionKind::QUICKFIX, None, &diagnostic, false);
                    if let lsp::CodeActionOrCommand::CodeAction(a) = &mut deferred {
                        a.data = Some(
                            json!({"uri": uri, "action": "noqa", "code": d.rule.code, "start": d.range.start, "end": d.range.end}),
                        );
                    }
                    actions.push(deferred);
                } else if let Some(edit) = self.noqa_edit(&checked, uri, d) {
                    actions.push(action(
                        title,
                        CodeActionKind::QUICKFIX,
                        Some(edit),
                        &diagnostic,
                        false,
                    ));
                }
            }
        }
        let has_safe_fix = checked.findings.iter().any(|d| d.applicable_fix(false).is_some());
        if wants(FIX_ALL) && has_safe_fix {
            let title = "interlint: Fix all auto-fixable problems".to_string();
            let fix_all = |edit, data| {
                lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: title.clone(),
                    kind: Some(CodeActionKind::from(FIX_ALL)),
                    edit,
                    data,
                    ..lsp::CodeAction::default()
                })
            };
            if self.resolve_edits {
                actions.push(fix_all(None, Some(json!({"uri": uri, "action": "fixAll"}))));
            } else if let Some(edit) = self.fix_all_edit(&checked, uri) {
                actions.push(fix_all(Some(edit), None));
            }
        }
        actions
    }

    /// `codeAction/resolve`: the edit of an action whose edit was left to when it is chosen.
    /// The document is checked again; an action whose finding is gone comes back without one.
    pub(super) fn resolve_action(&mut self, mut action: lsp::CodeAction) -> lsp::CodeAction {
        let Some(data) = action.data.clone() else {
            return action;
        };
        let Some(uri) = data["uri"].as_str().and_then(|u| u.parse::<Uri>().ok()) else {
            return action;
        };
        let notebook = self.documents.get(&uri).and_then(|d| d.notebook.clone());
        let Some(checked) = self.check(notebook.as_ref().unwrap_or(&uri)) else {
            return action;
        };
        action.edit = match data["action"].as_str() {
            Some("fixAll") => self.fix_all_edit(&checked, &uri),
            Some("noqa") => {
                let at = |key: &str| data[key].as_u64().and_then(|n| usize::try_from(n).ok());
                checked
                    .findings
                    .iter()
                    .find(|d| {
                        Some(d.rule.code) == data["code"].as_str()
                            && Some(d.range.start) == at("start")
                            && Some(d.range.end) == at("end")
                    })
                    .and_then(|d| self.noqa_edit(&checked, &uri, d))
            }
            _ => None,
        };
        action
    }

    /// The edit that adds a suppression comment for one finding, as `--add-noqa` places it.
    fn noqa_edit(
        &self,
        checked: &Checked,
        uri: &Uri,
        d: &crate::diagnostic::Diagnostic,
    ) -> Option<lsp::WorkspaceEdit> {
        let rules = checked.settings.rules_for(&checked.path);
        let outcome = crate::noqa::add_noqa_for(
            &checked.settings,
            &rules,
            &checked.path,
            Surface::from_path(&checked.path),
            &checked.text,
            checked.line_ending,
            Some(d),
        );
        (outcome.added > 0).then(|| self.workspace_edit(checked, uri, &outcome.text))?
    }

    /// The edit of every safe fix, as `--fix` makes it.
    fn fix_all_edit(&self, checked: &Checked, uri: &Uri) -> Option<lsp::WorkspaceEdit> {
        let rules = checked.settings.rules_for(&checked.path);
        let outcome = crate::fix::fix_text(
            &checked.settings,
            &rules,
            &checked.path,
            Surface::from_path(&checked.path),
            &checked.text,
            checked.line_ending,
            false,
        );
        (outcome.text != checked.text).then(|| self.workspace_edit(checked, uri, &outcome.text))?
    }

    /// The document a finding is in (a notebook's cell, or the file) and its range there.
    fn place(&self, checked: &Checked, d: &crate::diagnostic::Diagnostic) -> Option<(Uri, lsp::Range)> {
        match &checked.cells {
            Some(cells) => cell_range(cells, d).map(|(cell, range)| (cell.uri.clone(), range)),
            None => {
                let uri = checked.uri.clone()?;
                let doc = self.documents.get(&uri)?;
                let index = TextIndex::new(&doc.text);
                Some((
                    uri,
                    index.range(d.range.start + checked.bom..d.range.end + checked.bom),
                ))
            }
        }
    }

    /// The edit that turns the checked text into `new`: in the document, or in each cell of a
    /// notebook that changes.
    fn workspace_edit(&self, checked: &Checked, uri: &Uri, new: &str) -> Option<lsp::WorkspaceEdit> {
        let mut changes: HashMap<Uri, Vec<lsp::TextEdit>> = HashMap::new();
        match &checked.cells {
            None => {
                let doc = self.documents.get(uri)?;
                let index = TextIndex::new(&doc.text);
                let edits = text_edits(&checked.text, new)
                    .into_iter()
                    .map(|(range, text)| {
                        lsp::TextEdit::new(
                            index.range(range.start + checked.bom..range.end + checked.bom),
                            text,
                        )
                    })
                    .collect();
                changes.insert(uri.clone(), edits);
            }
            Some(cells) => {
                let sources = notebook::cell_sources(new)?;
                if sources.len() != cells.len() {
                    return None;
                }
                for ((cell, old), new) in cells.iter().zip(&sources) {
                    if old == new {
                        continue;
                    }
                    let index = TextIndex::new(old);
                    let edits = text_edits(old, new)
                        .into_iter()
                        .map(|(range, text)| lsp::TextEdit::new(index.range(range), text))
                        .collect();
                    changes.insert(cell.uri.clone(), edits);
                }
            }
        }
        Some(lsp::WorkspaceEdit {
            changes: Some(changes),
            ..lsp::WorkspaceEdit::default()
        })
    }

    pub(super) fn hover(&mut self, uri: &Uri, position: lsp::Position) -> Option<lsp::Hover> {
        let doc = self.documents.get(uri)?;
        let index = TextIndex::new(&doc.text);
        let offset = index.offset(position);
        let line_start = doc.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line_end = doc.text[offset..]
            .find('\n')
            .map_or(doc.text.len(), |i| offset + i);
        let line = &doc.text[line_start..line_end];
        if let Some((code, range)) = directive_code_at(line, offset - line_start) {
            let range = index.range(line_start + range.start..line_start + range.end);
            return documentation(&code).map(|text| markdown(text, Some(range)));
        }
        let mut codes: Vec<String> = Vec::new();
        let mut range = None;
        for d in self.diagnostics_of(uri) {
            if d.range.start <= position
                && position <= d.range.end
                && let Some(lsp::NumberOrString::String(code)) = d.code
                && !codes.contains(&code)
            {
                codes.push(code);
                range.get_or_insert(d.range);
            }
        }
        let pages: Vec<String> = codes.iter().filter_map(|c| documentation(c)).collect();
        (!pages.is_empty()).then(|| markdown(pages.join("\n\n---\n\n"), range))
    }
}

fn action(
    title: String,
    kind: CodeActionKind,
    edit: Option<lsp::WorkspaceEdit>,
    diagnostic: &lsp::Diagnostic,
    preferred: bool,
) -> lsp::CodeActionOrCommand {
    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title,
        kind: Some(kind),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit,
        is_preferred: preferred.then_some(true),
        ..lsp::CodeAction::default()
    })
}

fn overlaps(a: lsp::Range, b: lsp::Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn markdown(value: String, range: Option<lsp::Range>) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value,
        }),
        range,
    }
}

/// A rule's documentation page (`interlint explain CODE`), or for a prefix the rules it
/// selects.
fn documentation(code: &str) -> Option<String> {
    if let Some(rule) = crate::registry::find_rule(code) {
        return Some(rule.meta().doc.to_string());
    }
    let selector = crate::codes::normalize_selector(code);
    let lines: Vec<String> = crate::registry::all_rules()
        .iter()
        .map(|r| r.meta())
        .filter(|m| selector == "ALL" || !selector.is_empty() && m.code.starts_with(selector.as_str()))
        .map(|m| format!("- `{}` ({}): {}", m.code, m.name, m.summary))
        .collect();
    (!lines.is_empty()).then(|| format!("`{selector}` selects:\n\n{}", lines.join("\n")))
}

static DIRECTIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"interlint:\s*ignore(?:-file)?\[([^\]]*)\]").expect("valid regex"));

/// The code of a suppression comment under a column of a line, with its byte range there.
fn directive_code_at(line: &str, column: usize) -> Option<(String, Range<usize>)> {
    for captures in DIRECTIVE.captures_iter(line) {
        let list = captures.get(1)?;
        let mut at = list.start();
        for part in list.as_str().split(',') {
            let lead = part.len() - part.trim_start().len();
            let start = at + lead;
            let end = start + part.trim().len();
            if start < end && (start..=end).contains(&column) {
                return Some((line[start..end].to_string(), start..end));
            }
            at += part.len() + 1;
        }
    }
    None
}

/// The edits that turn `old` into `new`: each changed run of lines, less the characters its
/// start and end keep.
pub fn text_edits(old: &str, new: &str) -> Vec<(Range<usize>, String)> {
    let diff = similar::TextDiff::from_lines(old, new);
    let starts = |text: &str| -> Vec<usize> {
        let mut starts = vec![0];
        starts.extend(text.split_inclusive('\n').scan(0, |at, line| {
            *at += line.len();
            Some(*at)
        }));
        starts
    };
    let (old_starts, new_starts) = (starts(old), starts(new));
    let mut edits = Vec::new();
    for op in diff.ops() {
        if op.tag() == similar::DiffTag::Equal {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let (Some(&o_start), Some(&o_end), Some(&n_start), Some(&n_end)) = (
            old_starts.get(o.start),
            old_starts.get(o.end),
            new_starts.get(n.start),
            new_starts.get(n.end),
        ) else {
            continue;
        };
        let (a, b) = (&old[o_start..o_end], &new[n_start..n_end]);
        let prefix: usize = a
            .chars()
            .zip(b.chars())
            .take_while(|(x, y)| x == y)
            .map(|(x, _)| x.len_utf8())
            .sum();
        let suffix: usize = a[prefix..]
            .chars()
            .rev()
            .zip(b[prefix..].chars().rev())
            .take_while(|(x, y)| x == y)
            .map(|(x, _)| x.len_utf8())
            .sum();
        edits.push((
            o_start + prefix..o_end - suffix,
            b[prefix..b.len() - suffix].to_string(),
        ));
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(old: &str, edits: &[(Range<usize>, String)]) -> String {
        let mut out = old.to_string();
        for (range, text) in edits.iter().rev() {
            out.replace_range(range.clone(), text);
        }
        out
    }

    #[test]
    fn text_edits_turn_old_into_new() {
        let cases = [
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("model = 'gemini-1.5-pro'\n", "model = 'gemini-3.5-flash'\n"),
            ("x\n", "# c\nx\ny\n"),
            ("é1\nz", "é2\n"),
            ("", "new\n"),
            ("a\nb\nc\nd\n", "a\nc\n"),
        ];
        for (old, new) in cases {
            let edits = text_edits(old, new);
            assert_eq!(apply(old, &edits), new, "{old:?} -> {new:?}: {edits:?}");
        }
        assert_eq!(
            text_edits("model = 'gemini-1.5-pro'\n", "model = 'gemini-3.5-flash'\n"),
            vec![(16..23, "3.5-flash".to_string())]
        );
    }

    #[test]
    fn codes_in_suppression_comments_are_found_under_the_cursor() {
        let line = "x = 1  # interlint: ignore[MIG009, mcp]";
        let at = line.find("MIG009").unwrap_or_default();
        assert_eq!(
            directive_code_at(line, at + 2),
            Some(("MIG009".into(), at..at + 6))
        );
        let at = line.find("mcp").unwrap_or_default();
        assert_eq!(directive_code_at(line, at), Some(("mcp".into(), at..at + 3)));
        assert_eq!(directive_code_at(line, 2), None);
        assert!(documentation("mcp").is_some_and(|d| d.contains("MCP001")));
        assert!(documentation("MIG009").is_some());
    }
}
