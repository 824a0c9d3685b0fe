//! The fix engine: non-overlapping fixes per pass, re-lint, repeat until nothing applies.

use std::collections::BTreeSet;

use crate::diagnostic::{Diagnostic, Fix};
use crate::lang::{self, Surface};
use crate::registry::Rule;
use crate::settings::Settings;
use crate::source::LineEnding;

/// Passes before the fix loop gives up.
pub const MAX_PASSES: usize = 10;

/// Applies, left to right, every fix that starts after the end of the last one applied; the
/// others wait for the next pass. A fix whose edits overlap each other, or fall outside the
/// text or inside a character, is never applied. Identical fixes apply once. Newlines in the
/// replacement text follow the file's line ending.
///
/// Returns the new text and the number of fixes applied.
pub fn apply_fixes<'f>(
    text: &str,
    fixes: impl IntoIterator<Item = &'f Fix>,
    line_ending: LineEnding,
) -> (String, usize) {
    let chosen = plan_fixes(text, fixes);
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for fix in &chosen {
        for edit in &fix.edits {
            out.push_str(&text[copied..edit.range.start]);
            match line_ending {
                LineEnding::Lf => out.push_str(&edit.content),
                LineEnding::CrLf => out.push_str(&to_crlf(&edit.content)),
            }
            copied = edit.range.end;
        }
    }
    out.push_str(&text[copied..]);
    (out, chosen.len())
}

/// The fixes one pass applies, in order: well-formed, deduplicated, each starting after the
/// end of the one before.
pub fn plan_fixes<'f>(text: &str, fixes: impl IntoIterator<Item = &'f Fix>) -> Vec<&'f Fix> {
    let mut fixes: Vec<&Fix> = fixes.into_iter().filter(|f| is_well_formed(f, text)).collect();
    fixes.sort_by_key(|f| (f.start(), f.end()));
    fixes.dedup_by(|a, b| a.edits == b.edits);
    let mut chosen: Vec<&Fix> = Vec::with_capacity(fixes.len());
    for fix in fixes {
        if chosen.last().is_some_and(|last| fix.start() <= last.end()) {
            continue;
        }
        chosen.push(fix);
    }
    chosen
}

fn is_well_formed(fix: &Fix, text: &str) -> bool {
    let mut end = 0;
    for (i, edit) in fix.edits.iter().enumerate() {
        let r = &edit.range;
        if r.start > r.end
            || r.end > text.len()
            || !text.is_char_boundary(r.start)
            || !text.is_char_boundary(r.end)
        {
            return false;
        }
        if i > 0 && r.start < end {
            return false;
        }
        end = r.end;
    }
    !fix.edits.is_empty()
}

fn to_crlf(content: &str) -> String {
    content.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// How a file's fix loop ended.
#[derive(Debug, PartialEq, Eq)]
pub enum FixStatus {
    /// No fixable finding remains (or none was fixable).
    Done,
    /// Fixes kept appearing after [`MAX_PASSES`]; nothing is written.
    NotConverged { rules: Vec<String> },
    /// The fixed text had more syntax errors than the original; nothing is written.
    InvalidSyntax,
}

pub struct FixOutcome {
    /// The fixed text; the original when the loop did not end well.
    pub text: String,
    /// Fixes applied over all passes.
    pub fixed: usize,
    /// Findings of `text`.
    pub remaining: Vec<Diagnostic>,
    pub status: FixStatus,
}

/// Runs the fix loop on a file's text.
pub fn fix_text(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &std::path::Path,
    surface: Surface,
    text: &str,
    line_ending: LineEnding,
    unsafe_fixes: bool,
) -> FixOutcome {
    let lint = |t: &str| crate::engine::lint_text(settings, rules, path, surface, t);
    let original = lint(text);
    let mut current = text.to_string();
    let mut diagnostics = original.clone();
    let mut fixed = 0;
    let mut passes = 0;
    loop {
        let fixes: Vec<&Fix> = diagnostics
            .iter()
            .filter_map(|d| d.applicable_fix(unsafe_fixes))
            .collect();
        if fixes.is_empty() {
            break;
        }
        if passes == MAX_PASSES {
            let rules: BTreeSet<String> = diagnostics
                .iter()
                .filter(|d| d.applicable_fix(unsafe_fixes).is_some())
                .map(|d| d.rule.code.to_string())
                .collect();
            return FixOutcome {
                text: text.to_string(),
                fixed: 0,
                remaining: original,
                status: FixStatus::NotConverged {
                    rules: rules.into_iter().collect(),
                },
            };
        }
        let (next, applied) = apply_fixes(&current, fixes, line_ending);
        if applied == 0 || next == current {
            break;
        }
        passes += 1;
        fixed += applied;
        current = next;
        diagnostics = lint(&current);
    }
    if fixed > 0 && lang::syntax_errors(surface, &current) > lang::syntax_errors(surface, text) {
        let remaining = original
            .into_iter()
            .map(|mut d| {
                if d.applicable_fix(unsafe_fixes).is_some() {
                    d.fix = None;
                    d.message.push_str(" (fix skipped: would produce invalid syntax)");
                }
                d
            })
            .collect();
        return FixOutcome {
            text: text.to_string(),
            fixed: 0,
            remaining,
            status: FixStatus::InvalidSyntax,
        };
    }
    FixOutcome {
        text: current,
        fixed,
        remaining: diagnostics,
        status: FixStatus::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Edit;

    fn fix(edits: &[(usize, usize, &str)]) -> Fix {
        Fix::safe(
            "t",
            edits.iter().map(|(s, e, c)| Edit::replace(*s..*e, *c)).collect(),
        )
    }

    #[test]
    fn overlapping_fixes_wait() {
        let a = fix(&[(0, 3, "X")]);
        let b = fix(&[(2, 5, "Y")]);
        let c = fix(&[(6, 7, "Z")]);
        let (out, n) = apply_fixes("abcdefgh", [&a, &b, &c], LineEnding::Lf);
        assert_eq!((out.as_str(), n), ("XdefZh", 2));
    }

    #[test]
    fn identical_fixes_apply_once_and_crlf_is_kept() {
        let a = fix(&[(1, 2, "x\ny")]);
        let (out, n) = apply_fixes("a-b", [&a, &a.clone()], LineEnding::CrLf);
        assert_eq!((out.as_str(), n), ("ax\r\nyb", 1));
    }

    #[test]
    fn malformed_fixes_are_refused() {
        let outside = fix(&[(2, 9, "x")]);
        let inside_char = fix(&[(1, 2, "x")]);
        let (out, n) = apply_fixes("é!", [&outside, &inside_char], LineEnding::Lf);
        assert_eq!((out.as_str(), n), ("é!", 0));
    }
}
