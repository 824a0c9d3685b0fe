//! Output formats, one file each, over the same located findings.

mod concise;
mod fixes;
mod github;
mod json;
mod sarif;
mod statistics;
mod text;

pub use json::finding as json_finding;

use std::io::{self, Write};
use std::path::Path;

use crate::diagnostic::{Applicability, Diagnostic, findings_noun};
use crate::run::{FileReport, Notice};
use crate::source::Position;
use crate::walk::display_path;

pub use fixes::write_fixes;
pub use statistics::{write_statistics, write_statistics_json};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One annotated block per finding, with the source line and help.
    Text,
    /// One line per finding.
    Concise,
    /// One JSON object (schema in the README).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands.
    Github,
}

/// How findings are shown.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
    /// `[*]` also marks findings with an unsafe fix.
    pub unsafe_fixes: bool,
}

/// A finding with its path and positions resolved for display.
pub struct Located<'a> {
    pub path: String,
    pub diagnostic: &'a Diagnostic,
    pub start: Position,
    pub end: Position,
    /// Source lines from the finding's first line to its last, and the first line's number.
    pub lines: &'a str,
    pub first_line: usize,
    /// The span within `lines`.
    pub span: std::ops::Range<usize>,
    /// Each edit of the fix, with positions.
    pub edits: Vec<(Position, Position, &'a str)>,
}

impl Located<'_> {
    /// `path:line:col` (`path:cell N:line:col` in a notebook).
    pub fn location(&self) -> String {
        match &self.diagnostic.cell {
            Some(cell) => format!(
                "{}:cell {}:{}:{}",
                self.path, cell.cell, cell.start.line, cell.start.column
            ),
            None => format!("{}:{}:{}", self.path, self.start.line, self.start.column),
        }
    }

    pub fn fixable(&self, style: Style) -> bool {
        self.diagnostic.applicable_fix(style.unsafe_fixes).is_some()
    }
}

/// Every finding of the reports, in report order then position.
pub fn locate<'a>(reports: &'a [FileReport], cwd: &Path) -> Vec<Located<'a>> {
    let mut located = Vec::new();
    for report in reports {
        if report.diagnostics.is_empty() {
            continue;
        }
        let path = display_path(&report.path, cwd);
        for (diagnostic, place) in report.diagnostics.iter().zip(&report.places) {
            let edits = diagnostic
                .fix
                .iter()
                .flat_map(|f| &f.edits)
                .zip(&place.edits)
                .map(|(e, &(start, end))| (start, end, e.content.as_str()))
                .collect();
            located.push(Located {
                path: path.clone(),
                diagnostic,
                start: place.start,
                end: place.end,
                lines: &place.lines,
                first_line: place.first_line,
                span: place.span.clone(),
                edits,
            });
        }
    }
    located
}

/// What a run says beside its findings: a file skipped or that could not be read, a fix left
/// out, a path that cannot be walked. Each is a line on stderr, and the formats that have a
/// place for it carry it too: `github` as a workflow command (an annotation on the file),
/// `sarif` as a tool execution notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub level: Level,
    /// The file, as shown (relative to the current folder when it lies under it); `None` for
    /// what concerns no one file (a path that cannot be walked names itself in `text`).
    pub path: Option<String>,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The run exits with status 2.
    Error,
    Warning,
    /// Shown with `--verbose` only (a binary file found by a walk); no format carries it.
    Note,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

impl Message {
    /// `level: path: text`, as stderr shows it.
    pub fn line(&self) -> String {
        match &self.path {
            Some(path) => format!("{}: {path}: {}", self.level.as_str(), self.text),
            None => format!("{}: {}", self.level.as_str(), self.text),
        }
    }
}

/// Counts for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub files_scanned: usize,
    pub findings: usize,
    pub fixable: usize,
    pub unsafe_fixable: usize,
    /// Under `--fix` or `--diff`: the findings the fixes resolved (found before less found
    /// after, per file), so that fixed + remaining = the findings of a check.
    pub fixed: usize,
    /// Fixes applied (with `--diff`: that would be), over every pass of the fix loop.
    pub applied: usize,
    /// Under `--fix` or `--diff`: findings the fixes brought, among `findings`.
    pub new: usize,
    /// Files not checked (too large, not UTF-8, binary and named), each with a line on stderr.
    pub skipped: usize,
    /// Errors printed on stderr (paths that cannot be read or walked, fixes not written).
    pub errors: usize,
    /// Files that could not be read (each also among `errors`): not checked, as the files
    /// skipped are not.
    pub unread: usize,
    /// Why no rule ran on any file (no file found, every file named excluded, a selection of no
    /// rule): the summary says so rather than "All checks passed.".
    pub nothing_checked: Option<String>,
}

impl Counts {
    pub fn new(reports: &[FileReport], files_scanned: usize) -> Self {
        let mut counts = Counts {
            files_scanned,
            ..Counts::default()
        };
        for report in reports {
            counts.applied += report.fixed.len();
            counts.fixed += report.resolved();
            counts.new += report.new;
            // Binary files found by a walk are skipped without a word, and not counted.
            counts.skipped += usize::from(report.notices.iter().any(|n| matches!(n, Notice::Skipped(_))));
            counts.unread += usize::from(report.notices.iter().any(|n| matches!(n, Notice::Unread(_))));
            counts.errors += report.notices.iter().filter(|n| n.is_error()).count();
            counts.findings += report.diagnostics.len();
            // What the fix loop resolves, where it was counted; else each finding's own fix.
            if let Some(would) = &report.would_fix {
                counts.fixable += would.fixable;
                counts.unsafe_fixable += would.more_unsafe;
                continue;
            }
            for d in &report.diagnostics {
                match d.fix.as_ref().map(|f| f.applicability) {
                    Some(Applicability::Safe) => counts.fixable += 1,
                    Some(Applicability::Unsafe) => counts.unsafe_fixable += 1,
                    None => {}
                }
            }
        }
        counts
    }

    /// The files checked: those found, less those skipped or that could not be read.
    pub fn checked(&self) -> usize {
        self.files_scanned
            .saturating_sub(self.skipped)
            .saturating_sub(self.unread)
    }

    /// `Found N findings (K fixable with --fix, U more with --unsafe-fixes).`, then the files
    /// skipped and the errors, if any: "All checks passed." only when every file was checked.
    pub fn summary(&self, unsafe_fixes: bool, fixing: bool) -> String {
        let mut line = self.findings_summary(unsafe_fixes, fixing);
        let mut problems = Vec::new();
        if self.skipped > 0 {
            problems.push(format!("{} {} skipped", self.skipped, files_noun(self.skipped)));
        }
        if self.errors > 0 {
            problems.push(format!(
                "{} {}",
                self.errors,
                if self.errors == 1 { "error" } else { "errors" }
            ));
        }
        if !problems.is_empty() {
            line = format!("{line} {} (see above).", capitalized(&problems.join(", ")));
        }
        line
    }

    /// ` N new findings came with the fixes.` (`applied`; else `would come with`), or nothing.
    pub fn new_findings(&self, applied: bool) -> String {
        let came = if applied { "came" } else { "would come" };
        match self.new {
            0 => String::new(),
            1 => format!(" 1 new finding {came} with the fixes."),
            n => format!(" {n} new findings {came} with the fixes."),
        }
    }

    fn findings_summary(&self, unsafe_fixes: bool, fixing: bool) -> String {
        let noun = findings_noun;
        if fixing && self.fixed > 0 {
            let remaining = self.findings.saturating_sub(self.new);
            let total = remaining + self.fixed;
            // What `--unsafe-fixes` would resolve of the findings left, as a check of the
            // fixed files says.
            let more = match self.unsafe_fixable {
                n if n > 0 && !unsafe_fixes => format!(", {n} more with --unsafe-fixes"),
                _ => String::new(),
            };
            return format!(
                "Found {total} {} ({} fixed, {remaining} remaining{more}).{}",
                noun(total),
                self.fixed,
                self.new_findings(true)
            );
        }
        if self.findings == 0 {
            let checked = self.checked();
            return if let Some(why) = self.nothing_checked.as_ref().filter(|_| self.errors == 0) {
                format!("No files were checked: {why}.")
            } else if self.skipped == 0 && self.errors == 0 {
                "All checks passed.".to_string()
            } else if checked == 0 {
                "No file checked.".to_string()
            } else {
                format!("No findings in {checked} checked {}.", files_noun(checked))
            };
        }
        let (fixable, more) = if unsafe_fixes {
            (self.fixable + self.unsafe_fixable, 0)
        } else {
            (self.fixable, self.unsafe_fixable)
        };
        let mut parts = Vec::new();
        if fixable > 0 {
            parts.push(format!("{fixable} fixable with --fix"));
        }
        if more > 0 {
            parts.push(format!("{more} more with --unsafe-fixes"));
        }
        let detail = if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        };
        format!("Found {} {}{detail}.", self.findings, noun(self.findings))
    }
}

fn files_noun(n: usize) -> &'static str {
    if n == 1 { "file" } else { "files" }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Writes the findings in a format, with the run's `messages` where the format has a place for
/// them (`github`, `sarif`; the others leave them to stderr).
pub fn write_findings(
    out: &mut dyn Write,
    format: Format,
    located: &[Located],
    counts: &Counts,
    style: Style,
    messages: &[Message],
) -> io::Result<()> {
    match format {
        Format::Text => text::write(out, located, style),
        Format::Concise => concise::write(out, located, style),
        Format::Json => json::write(out, located, counts),
        Format::Sarif => sarif::write(out, located, messages),
        Format::Github => github::write(out, located, messages),
    }
}

/// Where [`write_streamed`] puts the array it streams: a string no finding can hold.
const ARRAY_MARK: &str = "\u{0}interlint-array\u{0}";

/// Writes `document`, pretty-printed as `serde_json` does, with the string [`ARRAY_MARK`] in it
/// replaced by an array of `items` serialised one at a time: the output of a run with a
/// hundred thousand findings is never built whole in memory.
fn write_streamed(
    out: &mut dyn Write,
    document: &serde_json::Value,
    items: impl Iterator<Item = serde_json::Value>,
) -> io::Result<()> {
    let text = serde_json::to_string_pretty(document)?;
    let mark = serde_json::to_string(ARRAY_MARK)?;
    let (before, after) = text.split_once(&mark).unwrap_or((&text, ""));
    let last_line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let indent = last_line.len() - last_line.trim_start_matches(' ').len();
    out.write_all(before.as_bytes())?;
    out.write_all(b"[")?;
    let inner = " ".repeat(indent + 2);
    let mut first = true;
    for item in items {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        first = false;
        // Pretty JSON escapes every newline inside a string: each line is a line of the item.
        for (i, line) in serde_json::to_string_pretty(&item)?.split('\n').enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(inner.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
    }
    if !first {
        write!(out, "\n{}", " ".repeat(indent))?;
    }
    out.write_all(b"]")?;
    out.write_all(after.as_bytes())?;
    writeln!(out)
}

/// A unified diff of one file, with `a/` and `b/` prefixes so `git apply` takes it.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    diff.unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_streamed_array_is_written_as_serde_json_writes_it() {
        let items = vec![json!({"a": 1, "b": ["x\ny", {"c": null}]}), json!({}), json!([])];
        for items in [items.clone(), Vec::new()] {
            let whole = json!({"v": 1, "runs": [{"results": items.clone(), "z": "q"}], "end": {"k": 2}});
            let streamed = json!({"v": 1, "runs": [{"results": ARRAY_MARK, "z": "q"}], "end": {"k": 2}});
            let mut out = Vec::new();
            write_streamed(&mut out, &streamed, items.into_iter()).expect("to memory");
            let expected = serde_json::to_string_pretty(&whole).expect("serialises") + "\n";
            assert_eq!(String::from_utf8_lossy(&out), expected);
        }
    }
}
