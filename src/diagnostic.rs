//! Findings and fixes as plain data.

use std::ops::Range;

use crate::source::Position;

// Rule metadata sits here, below the registry: a finding names its rule without knowing the
// rule list.

/// Whether a rule's findings carry fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixAvailability {
    None,
    Sometimes,
    Always,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Sometimes => "sometimes",
            FixAvailability::Always => "always",
        }
    }
}

/// What `interlint rules` and `interlint explain` print, and what SARIF's rule list carries.
#[derive(Debug)]
pub struct RuleMeta {
    pub code: &'static str,
    pub name: &'static str,
    /// One sentence: what the rule finds.
    pub summary: &'static str,
    pub surfaces: &'static str,
    pub fix: FixAvailability,
    /// Safety of the fix when there is one: "safe", "unsafe" or "safe or unsafe".
    pub fix_safety: &'static str,
    /// The documentation page (Markdown), from `rules/docs/CODE.md`.
    pub doc: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// How much a fix can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Needs review; applied only with `--unsafe-fixes`.
    Unsafe,
    /// Keeps the program's meaning; applied by `--fix`.
    Safe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// Replace `range` (bytes of the file's text) by `content`. An empty range inserts, an empty
/// content deletes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    pub range: Range<usize>,
    pub content: String,
}

impl Edit {
    pub fn replace(range: Range<usize>, content: impl Into<String>) -> Self {
        Edit {
            range,
            content: content.into(),
        }
    }
}

/// A set of edits that apply together or not at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, in the imperative ("Replace with `x`").
    pub message: String,
    /// Sorted by start, non-overlapping.
    pub edits: Vec<Edit>,
    /// The edits are already in the file's offsets (a fix across a notebook's cells), not in
    /// the document's.
    pub in_file: bool,
}

impl Fix {
    pub fn new(applicability: Applicability, message: impl Into<String>, mut edits: Vec<Edit>) -> Self {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        Fix {
            applicability,
            message: message.into(),
            edits,
            in_file: false,
        }
    }

    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Self {
        Self::new(Applicability::Safe, message, edits)
    }

    /// First byte touched by the fix.
    pub fn start(&self) -> usize {
        self.edits.first().map_or(0, |e| e.range.start)
    }

    /// Last byte touched by the fix.
    pub fn end(&self) -> usize {
        self.edits.iter().map(|e| e.range.end).max().unwrap_or(0)
    }
}

/// Where a finding lies in a notebook: the cell and the position inside the cell's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellLocation {
    /// 1-based index of the cell in the notebook.
    pub cell: usize,
    pub start: Position,
    pub end: Position,
    /// The cell's source lines from the finding's first to its last line, for display.
    pub lines: String,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub message: String,
    /// Bytes of the file's text (after the byte-order mark).
    pub range: Range<usize>,
    pub fix: Option<Fix>,
    /// Advice shown when there is no fix.
    pub suggestion: Option<String>,
    /// Why a finding that has a rewrite in general has none here (what blocks its migration
    /// unit): part of the suggestion, and what `--statistics` tallies.
    pub reason: Option<String>,
    /// What kind of decision the reason asks of the team ([`ReasonClass`]).
    pub reason_class: Option<ReasonClass>,
    pub cell: Option<CellLocation>,
}

/// What a reason a unit was left alone asks of the team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReasonClass {
    /// The application reads or sets something the interactions API lacks (a finish reason,
    /// safety ratings, custom safety settings, several candidates): a decision.
    NoCounterpart,
    /// Another SDK or API, or the client library's own code: not this migration.
    OutOfScope,
    /// A limit of the analysis (a value not followed to where it is built): work to do by hand.
    NotFollowed,
}

impl ReasonClass {
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonClass::NoCounterpart => "no-counterpart",
            ReasonClass::OutOfScope => "out-of-scope",
            ReasonClass::NotFollowed => "not-followed",
        }
    }

    /// The class of a reason the code generator gave: the words its no-counterpart reasons
    /// (the request-field table's notes for fields with no place, the chat's and tools' fields
    /// with none) and its out-of-scope ones are written with; any other reason is a limit of
    /// the analysis.
    pub fn of_generated(reason: &str) -> ReasonClass {
        const NO_COUNTERPART: [&str; 7] = [
            "no place in an interactions",
            "no interactions content declares",
            "no counterpart",
            "does not support",
            "returns no",
            "has one answer",
            "automatic function calling",
        ];
        const OUT_OF_SCOPE: [&str; 1] = ["an SDK interlint does not migrate"];
        if OUT_OF_SCOPE.iter().any(|w| reason.contains(w)) {
            ReasonClass::OutOfScope
        } else if NO_COUNTERPART.iter().any(|w| reason.contains(w)) {
            ReasonClass::NoCounterpart
        } else {
            ReasonClass::NotFollowed
        }
    }
}

impl Diagnostic {
    pub fn new(
        rule: &'static RuleMeta,
        severity: Severity,
        message: impl Into<String>,
        range: Range<usize>,
    ) -> Self {
        Diagnostic {
            rule,
            severity,
            message: one_line(&message.into()),
            range,
            fix: None,
            suggestion: None,
            reason: None,
            reason_class: None,
            cell: None,
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// The advice when the rewrite is blocked, with why: `{advice}; not rewritten automatically:
    /// {reason}`.
    pub fn with_blocked(self, advice: &str, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        let class = ReasonClass::of_generated(&reason);
        self.with_blocked_as(advice, reason, class)
    }

    /// [`Diagnostic::with_blocked`] with the reason's class given.
    pub fn with_blocked_as(mut self, advice: &str, reason: impl Into<String>, class: ReasonClass) -> Self {
        let reason = one_line(&reason.into());
        self.suggestion = Some(format!("{advice}; not rewritten automatically: {reason}"));
        self.reason = Some(reason);
        self.reason_class = Some(class);
        self
    }

    /// The fix when it may be applied under the given mode.
    pub fn applicable_fix(&self, unsafe_fixes: bool) -> Option<&Fix> {
        self.fix
            .as_ref()
            .filter(|f| unsafe_fixes || f.applicability == Applicability::Safe)
    }
}

/// "finding" or "findings".
pub fn findings_noun(n: usize) -> &'static str {
    if n == 1 { "finding" } else { "findings" }
}

/// Longest code quotation (between backquotes) a message keeps whole.
const MAX_QUOTE: usize = 80;

/// A message on one line: code quoted from a multi-line expression has each line break (with
/// the indentation around it) read as one space, or none next to a bracket (a trailing comma
/// before a closing bracket goes too), and a quotation
/// longer than [`MAX_QUOTE`] characters keeps its start and end around a `…`.
pub fn one_line(message: &str) -> String {
    if !message.contains('\n') && !message.contains('\r') && message.len() <= MAX_QUOTE {
        return message.to_string();
    }
    let mut flat = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\n' && c != '\r' {
            flat.push(c);
            continue;
        }
        while flat.ends_with([' ', '\t']) {
            flat.pop();
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let after_open = flat.ends_with(['(', '[', '{']);
        let before_close = chars.peek().is_some_and(|c| matches!(c, ')' | ']' | '}'));
        if before_close && flat.ends_with(',') {
            flat.pop();
        }
        if !after_open && !before_close && !flat.is_empty() {
            flat.push(' ');
        }
    }
    // Shorten long quotations: the parts at odd positions between backquotes are code.
    let parts: Vec<&str> = flat.split('`').collect();
    if parts.len() < 3 {
        return flat;
    }
    let mut out = String::with_capacity(flat.len());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('`');
        }
        let is_code = i % 2 == 1 && i + 1 < parts.len();
        let count = part.chars().count();
        if is_code && count > MAX_QUOTE {
            let head: String = part.chars().take(MAX_QUOTE / 2).collect();
            let tail: String = part.chars().skip(count - (MAX_QUOTE / 2 - 1)).collect();
            out.push_str(head.trim_end());
            out.push('…');
            out.push_str(tail.trim_start());
        } else {
            out.push_str(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{ReasonClass, one_line};

    #[test]
    fn reasons_are_classed_by_what_blocks_them() {
        let class = |reason: &str| ReasonClass::of_generated(reason).as_str();
        assert_eq!(
            class(
                "the contents hold `f`, a file uploaded with `upload(\"a.txt\")`, whose `.txt` extension no interactions content declares"
            ),
            "no-counterpart"
        );
        assert_eq!(
            class(
                "the contents hold `f`, a file uploaded with `upload(p)`, whose kind interlint cannot tell"
            ),
            "not-followed"
        );
        assert_eq!(
            class("the module uses `vertexai`, an SDK interlint does not migrate"),
            "out-of-scope"
        );
    }

    #[test]
    fn messages_quote_code_on_one_line() {
        assert_eq!(
            one_line("`model.generate_content(\n        prompt\n    ).text` reads the answer"),
            "`model.generate_content(prompt).text` reads the answer"
        );
        assert_eq!(one_line("`a,\r\n  b` x"), "`a, b` x");
        let long = format!("`{}.text` reads", "x".repeat(100));
        let short = one_line(&long);
        assert_eq!(short.chars().count(), "``… reads".chars().count() + 40 + 40 - 1);
        assert!(short.starts_with("`xxxx") && short.ends_with("xx.text` reads") && short.contains('…'));
        assert_eq!(one_line("plain message"), "plain message");
    }
}
