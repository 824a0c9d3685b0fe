//! Every text `--add-noqa` makes is read again before it is kept: its comments must suppress
//! the findings they name and change nothing else.

use std::collections::HashMap;

use super::place::File;
use crate::diagnostic::{Diagnostic, Edit};
use crate::lang::{self, Document, Surface, Syntax};
use crate::suppress::LineDirectives;

/// What must not change, read once from the text before the comments.
pub struct Baseline<'a> {
    file: &'a File<'a>,
    errors: usize,
    signatures: Vec<Option<Signature>>,
    toml: Option<toml::Table>,
    notebook: Option<serde_json::Value>,
}

/// The code of a document as its parser reads it, comments left out.
#[derive(PartialEq, Eq)]
enum Signature {
    /// tree-sitter's leaves and literals (a string is one item, whatever its inside).
    Leaves(Vec<(u16, String)>),
    /// proc-macro2's tokens (doc comments are attributes there, plain comments are not).
    Tokens(String),
}

impl<'a> Baseline<'a> {
    pub fn new(file: &'a File<'a>) -> Self {
        Baseline {
            file,
            errors: errors(file, file.text, &file.docs),
            signatures: file.docs.iter().map(signature).collect(),
            toml: toml_value(file, file.text),
            notebook: notebook_skeleton(file.surface, file.text),
        }
    }
}

/// The findings of `new` when it keeps the meaning of the baseline's text and its comments
/// suppress the findings `suppressed` (indices of `findings`); `applied` are the edits that made
/// it. Findings other than those may go only where a comment now suppresses them.
pub fn verify(
    base: &Baseline,
    findings: &[Diagnostic],
    suppressed: &[usize],
    applied: &[Edit],
    new: &str,
    lint: &dyn Fn(&str) -> Vec<Diagnostic>,
) -> Option<Vec<Diagnostic>> {
    let file = File::new(base.file.path, base.file.surface, new);
    if file.docs.len() != base.file.docs.len()
        || file
            .docs
            .iter()
            .zip(&base.file.docs)
            .any(|(a, b)| a.surface != b.surface)
    {
        return None;
    }
    for (doc, old) in file.docs.iter().zip(&base.signatures) {
        let needs_signature = is_code(doc.surface);
        let new_signature = signature(doc);
        if (needs_signature && old.is_none()) || new_signature != *old {
            return None;
        }
    }
    if errors(&file, new, &file.docs) > base.errors
        || toml_value(&file, new) != base.toml
        || notebook_skeleton(file.surface, new) != base.notebook
    {
        return None;
    }
    let found = lint(new);
    let key = |d: &Diagnostic, start: usize, end: usize| (d.rule.code, start, end, d.message.clone());
    let mut before: HashMap<_, Vec<usize>> = HashMap::new();
    for (i, d) in findings.iter().enumerate() {
        let start = shift(applied, d.range.start, true);
        let end = shift(applied, d.range.end, false).max(start);
        before.entry(key(d, start, end)).or_default().push(i);
    }
    // Each finding of the new text is one of before, at its new offsets.
    for d in &found {
        before.get_mut(&key(d, d.range.start, d.range.end))?.pop()?;
    }
    // The findings gone: those meant, and others only where a comment covers them.
    let meant: std::collections::HashSet<usize> = suppressed.iter().copied().collect();
    let gone: Vec<(usize, usize)> = before
        .iter()
        .flat_map(|((_, start, _, _), left)| left.iter().map(|&i| (i, *start)))
        .collect();
    let all_meant_gone = meant.iter().all(|i| gone.iter().any(|(g, _)| g == i));
    let others_covered = gone
        .iter()
        .filter(|(i, _)| !meant.contains(i))
        .all(|&(i, start)| is_suppressed(&file, start, findings[i].rule.code));
    (all_meant_gone && others_covered).then_some(found)
}

/// An offset of the old text in the new one. At an insertion's offset, a start moves past the
/// inserted text (it follows it) and an end does not (it precedes it).
fn shift(applied: &[Edit], offset: usize, is_start: bool) -> usize {
    let mut delta: isize = 0;
    for edit in applied {
        let before =
            edit.range.end < offset || (edit.range.end == offset && (is_start || !edit.range.is_empty()));
        if before {
            delta += edit.content.len() as isize - edit.range.len() as isize;
        }
    }
    offset.saturating_add_signed(delta)
}

/// Whether a finding of `code` starting at `offset` of a file is suppressed by a line directive.
fn is_suppressed(file: &File, offset: usize, code: &str) -> bool {
    let Some((d, at)) = file.locate(offset) else {
        return false;
    };
    let doc = &file.docs[d];
    let index = crate::source::LineIndex::new(&doc.text);
    LineDirectives::new(&doc.text, &index).suppresses(index.line_of(at), code)
}

fn is_code(surface: Surface) -> bool {
    matches!(
        surface,
        Surface::Python
            | Surface::JavaScript
            | Surface::TypeScript
            | Surface::Tsx
            | Surface::Rust
            | Surface::Shell
    )
}

fn signature(doc: &Document) -> Option<Signature> {
    match &doc.syntax {
        Syntax::TreeSitter(tree) => {
            let mut leaves = Vec::new();
            lang::treesitter::visit(tree.root_node(), &mut |node| {
                let kind = node.kind();
                if kind.contains("comment") {
                    return false;
                }
                let literal =
                    kind.contains("string") || matches!(kind, "jsx_text" | "regex" | "heredoc_body");
                if literal || node.child_count() == 0 {
                    let text = doc.text.get(node.byte_range()).unwrap_or_default();
                    leaves.push((node.kind_id(), text.to_string()));
                    return false;
                }
                true
            });
            Some(Signature::Leaves(leaves))
        }
        // The words of the text but comments; a string is one item.
        Syntax::Lowered(tree) => Some(Signature::Leaves(lowered_words(tree, &doc.text))),
        // The tokens but comments; a string is one item.
        Syntax::Json(_) => Some(Signature::Leaves(
            lang::json::scan::Tokens::new(&doc.text, &[])
                .filter(|t| t.kind != lang::json::scan::TokenKind::Comment)
                .map(|t| {
                    (
                        t.kind as u16,
                        doc.text.get(t.range).unwrap_or_default().to_string(),
                    )
                })
                .collect(),
        )),
        _ if doc.surface == Surface::Rust => doc
            .text
            .parse::<proc_macro2::TokenStream>()
            .ok()
            .map(|tokens| Signature::Tokens(tokens.to_string())),
        _ => None,
    }
}

/// Syntax errors of a text, as the fix engine counts them.
fn errors(file: &File, text: &str, docs: &[Document]) -> usize {
    let toml = usize::from(is_toml(file) && toml::from_str::<toml::Table>(text).is_err());
    lang::errors_of(file.surface, text, docs).saturating_add(toml * (usize::MAX / 2))
}

fn is_toml(file: &File) -> bool {
    file.path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}

/// A TOML file's values: comments must not change them.
fn toml_value(file: &File, text: &str) -> Option<toml::Table> {
    if !is_toml(file) {
        return None;
    }
    toml::from_str(text).ok()
}

/// A notebook without its cells' sources: the comments go into sources only.
fn notebook_skeleton(surface: Surface, text: &str) -> Option<serde_json::Value> {
    if surface != Surface::Notebook {
        return None;
    }
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    if let Some(cells) = value.get_mut("cells").and_then(|c| c.as_array_mut()) {
        for cell in cells {
            if let Some(cell) = cell.as_object_mut() {
                cell.remove("source");
            }
        }
    }
    Some(value)
}

/// A lowered document's text as words: every string literal one item, the rest split at
/// whitespace, comments left out. Adding comments and blanks changes none of it.
fn lowered_words(tree: &lang::ir::Tree, text: &str) -> Vec<(u16, String)> {
    let mut holes: Vec<(usize, usize, bool)> = tree
        .comments
        .iter()
        .map(|c| (c.start as usize, c.end as usize, false))
        .chain(
            tree.strings
                .iter()
                .map(|s| (s.start as usize, s.end as usize, true)),
        )
        .collect();
    holes.sort();
    let mut words = Vec::new();
    let mut at = 0;
    let code = |from: usize, to: usize, words: &mut Vec<(u16, String)>| {
        for word in text.get(from..to).unwrap_or_default().split_whitespace() {
            words.push((0, word.to_string()));
        }
    };
    for (start, end, string) in holes {
        if start < at {
            continue;
        }
        code(at, start, &mut words);
        if string {
            words.push((1, text.get(start..end).unwrap_or_default().to_string()));
        }
        at = end;
    }
    code(at, text.len(), &mut words);
    words
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Whether a comment `content` inserted at the end of `needle` in a Python text verifies.
    fn verifies(text: &str, needle: &str, content: &str) -> bool {
        let settings = crate::noqa::tests::settings();
        let path = Path::new("a.py");
        let rules = settings.rules_for(path);
        let lint = |t: &str| crate::engine::lint_text(&settings, &rules, path, Surface::Python, t);
        let findings = lint(text);
        let file = File::new(path, Surface::Python, text);
        let base = Baseline::new(&file);
        let at = text.find(needle).expect("needle") + needle.len();
        let edit = Edit::replace(at..at, content);
        let mut new = text.to_string();
        new.insert_str(at, content);
        let all: Vec<usize> = (0..findings.len()).collect();
        verify(&base, &findings, &all, &[edit], &new, &lint).is_some()
    }

    #[test]
    fn a_comment_inside_a_string_or_after_a_continuation_is_refused() {
        let text = "s = \"\"\"\ngemini-1.5-pro\n\"\"\"\n";
        assert!(!verifies(text, "gemini-1.5-pro", "  # interlint: ignore[MIG009]"));
        let text = "s = \"gemini-1.5-pro\" + \\\n  \"x\"\n";
        assert!(!verifies(text, "\\", "  # interlint: ignore[MIG009]"));
        let text = "s = \"gemini-1.5-pro\"\n";
        assert!(verifies(
            text,
            "\"gemini-1.5-pro\"",
            "  # interlint: ignore[MIG009]"
        ));
        // A comment that does not suppress the finding meant.
        assert!(!verifies(
            text,
            "\"gemini-1.5-pro\"",
            "  # interlint: ignore[MIG001]"
        ));
    }
}
