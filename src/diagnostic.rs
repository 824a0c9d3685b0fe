//! Findings and fixes as plain data.

use std::ops::Range;

use crate::registry::RuleMeta;
use crate::source::Position;

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
}

impl Fix {
    pub fn new(applicability: Applicability, message: impl Into<String>, mut edits: Vec<Edit>) -> Self {
        edits.sort_by_key(|e| (e.range.start, e.range.end));
        Fix {
            applicability,
            message: message.into(),
            edits,
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
    pub cell: Option<CellLocation>,
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
            message: message.into(),
            range,
            fix: None,
            suggestion: None,
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

    /// The fix when it may be applied under the given mode.
    pub fn applicable_fix(&self, unsafe_fixes: bool) -> Option<&Fix> {
        self.fix
            .as_ref()
            .filter(|f| unsafe_fixes || f.applicability == Applicability::Safe)
    }
}
