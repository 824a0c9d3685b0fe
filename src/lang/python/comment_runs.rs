//! Runs of Python comment lines.
//!
//! tree-sitter-python, which interlint used to parse Python with, lexed a run of comment lines
//! in quadratic time unless it read a copy of the text with each run masked into one comment;
//! line numbers the legacy-unit analysis reports still count such a run as one line, as the
//! rows of that copy did ([`comment_runs`]). [`comment_lines`] splits a range of comment lines
//! into its comments.

use std::ops::Range;

/// The runs of two or more comment lines (blank lines between them allowed) to be lexed as
/// one comment: from the first `#` to the end of the last comment line (its `\r` included, as
/// in tree-sitter's comment token). A comment indented less than every comment before it in
/// the run starts a new run, since there the scanner may close a block.
pub(crate) fn comment_runs(text: &str) -> Vec<Range<usize>> {
    struct Run {
        range: Range<usize>,
        lines: usize,
        min_indent: usize,
    }
    let mut runs = Vec::new();
    let mut current: Option<Run> = None;
    let mut close = |run: Option<Run>| {
        if let Some(run) = run.filter(|r| r.lines > 1) {
            runs.push(run.range);
        }
    };
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let content = line.strip_suffix('\n').unwrap_or(line);
        let end = start + content.len();
        match first_token(content) {
            Line::Blank => {}
            Line::Comment { hash, indent } => match &mut current {
                Some(run) if indent >= run.min_indent => {
                    run.range.end = end;
                    run.lines += 1;
                }
                _ => close(current.replace(Run {
                    range: start + hash..end,
                    lines: 1,
                    min_indent: indent,
                })),
            },
            Line::Code => close(current.take()),
        }
    }
    close(current);
    runs
}

enum Line {
    Blank,
    /// A line whose first token is `#` at byte `hash`, indented `indent` columns as the scanner
    /// counts them (a tab is 8, a carriage return or form feed starts again at 0).
    Comment {
        hash: usize,
        indent: usize,
    },
    Code,
}

fn first_token(line: &str) -> Line {
    let mut indent = 0;
    for (i, b) in line.bytes().enumerate() {
        match b {
            b' ' => indent += 1,
            b'\t' => indent += 8,
            b'\r' | b'\x0c' => indent = 0,
            b'#' => return Line::Comment { hash: i, indent },
            _ => return Line::Code,
        }
    }
    Line::Blank
}

/// `text` with every `\n` inside `runs` replaced by `\r`.
/// The comment of each line of a comment node's range, as if the lines had been parsed one by
/// one: a merged run reads as the comments it was made of (a fix deleting one of them must
/// still see a comment).
pub fn comment_lines(range: Range<usize>, text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut at = range.start;
    text.get(range.clone())
        .unwrap_or_default()
        .split('\n')
        .filter_map(move |line| {
            let start = at;
            at += line.len() + 1;
            let hash = line.find('#')?;
            Some(start + hash..start + line.len())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(text: &str) -> Vec<&str> {
        comment_runs(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn runs_of_comment_lines() {
        assert_eq!(
            runs("x = 1\n# a\n# b\n\n  # c\ny = 2\n# d\n"),
            ["# a\n# b\n\n  # c"]
        );
        // Less indented than every comment before: a block may close there.
        assert_eq!(
            runs("    # a\n        # b\n  # c\n    # d\n"),
            ["# a\n        # b", "# c\n    # d"]
        );
        assert_eq!(runs("# a\r\n# b\r\n"), ["# a\r\n# b\r"]);
        assert_eq!(runs("x = '''\n# a\n'''\n"), Vec::<&str>::new());
    }

    #[test]
    fn merged_comments_read_as_their_lines() {
        let text = "x = 1\n# a\n\n  # b\r\ny";
        let lines: Vec<&str> = comment_lines(6..text.len() - 2, text).map(|r| &text[r]).collect();
        assert_eq!(lines, ["# a", "# b\r"]);
    }
}
