//! Snippet windows: where each finding of a file is, as lines and columns, resolved while the
//! file's text is at hand, and with snippets the source lines around it, cut to a window of a
//! long line (a minified bundle's findings would each cost the whole line).
//!
//! Imports the findings and the line index only.

use crate::diagnostic::Diagnostic;
use crate::source::{LineIndex, Position, floor_char_boundary};

/// Where a finding is, resolved while its file's text is at hand, so that the text need not be
/// kept until the output is written.
#[derive(Clone, Debug, Default)]
pub struct Place {
    pub start: Position,
    pub end: Position,
    /// With snippets: the source lines of the finding (a window around the span on a long
    /// line), the first line's number and the span within them. Empty otherwise.
    pub lines: String,
    pub first_line: usize,
    pub span: std::ops::Range<usize>,
    /// Each edit of the fix, with positions.
    pub edits: Vec<(Position, Position)>,
}

/// The places of a file's findings in its text; `snippets` keeps their source lines (only the
/// `text` format shows them).
pub fn places(text: &str, diagnostics: &[Diagnostic], snippets: bool) -> Vec<Place> {
    if diagnostics.is_empty() {
        return Vec::new();
    }
    let index = LineIndex::new(text);
    diagnostics
        .iter()
        .map(|diagnostic| {
            let start = index.position(text, diagnostic.range.start);
            let end = index.position(text, diagnostic.range.end);
            let edits = diagnostic
                .fix
                .iter()
                .flat_map(|f| &f.edits)
                .map(|e| {
                    (
                        index.position(text, e.range.start),
                        index.position(text, e.range.end),
                    )
                })
                .collect();
            let mut place = Place {
                start,
                end,
                edits,
                ..Place::default()
            };
            if !snippets {
                return place;
            }
            let (lines, first_line, span) = match &diagnostic.cell {
                Some(cell) => {
                    let len = cell.lines.len();
                    let start_col = byte_of_column(&cell.lines, cell.start.column);
                    let last_line_start = cell.lines.rfind('\n').map_or(0, |i| i + 1);
                    let end_col =
                        last_line_start + byte_of_column(&cell.lines[last_line_start..], cell.end.column);
                    (
                        cell.lines.as_str(),
                        cell.start.line,
                        start_col.min(len)..end_col.min(len).max(start_col.min(len)),
                    )
                }
                None => {
                    let first = index.line_range(start.line - 1, text).start;
                    let last = index.line_range(end.line - 1, text).end.max(first);
                    let span_start = diagnostic.range.start.clamp(first, last) - first;
                    let span_end = diagnostic.range.end.clamp(first, last) - first;
                    (
                        &text[first..last],
                        start.line,
                        span_start..span_end.max(span_start),
                    )
                }
            };
            let (lines, span) = window(lines, span);
            place.lines = lines.to_string();
            place.first_line = first_line;
            place.span = span;
            place
        })
        .collect()
}

/// Bytes of context kept on each side of a span: far more than a terminal shows.
const CONTEXT: usize = 1024;

/// The part of `lines` within [`CONTEXT`] bytes of `span`, and the span in it: the renderer
/// cuts a long line to the terminal's width around the span anyway, but reads it all first, so
/// a minified bundle's findings would each cost the whole line.
fn window(lines: &str, span: std::ops::Range<usize>) -> (&str, std::ops::Range<usize>) {
    let start = floor_char_boundary(lines, span.start.saturating_sub(CONTEXT));
    let mut end = (span.end + CONTEXT).min(lines.len());
    while !lines.is_char_boundary(end) {
        end += 1;
    }
    (&lines[start..end], span.start - start..span.end - start)
}

fn byte_of_column(line: &str, column: usize) -> usize {
    line.char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

    use super::*;

    fn render(lines: &str, span: std::ops::Range<usize>) -> String {
        let snippet = Snippet::source(lines)
            .line_start(1)
            .annotation(AnnotationKind::Primary.span(span).label("here"));
        Renderer::plain().render(&[Group::with_level(Level::ERROR).element(snippet)])
    }

    #[test]
    fn a_long_line_is_shown_from_a_window_around_the_span() {
        let line = format!(
            "{}\"gemini-2.0-flash\"{}",
            "f(é);".repeat(100_000),
            "g(x);".repeat(100_000)
        );
        let at = line.find('"').unwrap();
        for span in [at..at + 18, 6..12, line.len() - 4..line.len()] {
            let (cut, cut_span) = window(&line, span.clone());
            assert!(cut.len() <= span.len() + 2 * CONTEXT + 3);
            assert_eq!(render(cut, cut_span), render(&line, span));
        }
    }
}
