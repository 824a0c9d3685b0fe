//! Linear-time parsing of runs of comment lines.
//!
//! At every line end, tree-sitter-python's external scanner looks ahead over *all* the comment
//! lines that follow to find the indentation of the next line of code, so a run of n comment
//! lines costs O(n²) (28,000 lines took five minutes). The parser therefore reads a masked copy
//! of the text in which the line ends between the comment lines of a run are `\r`: a Python
//! comment token runs to `\n`, and the scanner takes `\r` for whitespace, so a run is lexed as
//! one comment and scanned once. Every byte offset is kept (the rows tree-sitter counts are
//! not), so the tree's byte ranges are those of the text.
//!
//! The masked tree equals the tree of the text but for the comments, merged: the scanner
//! decides an indentation change from the first comment after a line end, which is the same
//! comment in both texts; and a later comment of a run can only close a block if it is indented
//! less than every comment before it in the run, so there the run is split. Masking is checked
//! against the tree: a run that is not one comment node (lines of a triple-quoted string that
//! start with `#`, say) is left unmasked and the text parsed again.

use std::ops::Range;

use tree_sitter::Tree;

/// Parses `text` with `parse`, masking the line ends inside runs of comment lines.
pub fn parse(text: &str, mut parse: impl FnMut(&str) -> Option<Tree>) -> Option<Tree> {
    let mut runs = comment_runs(text);
    // Two tries: the runs found as written, then the runs the first tree confirmed.
    for _ in 0..2 {
        if runs.is_empty() {
            break;
        }
        let tree = parse(&masked(text, &runs))?;
        let comments = comment_nodes(&tree);
        let confirmed: Vec<Range<usize>> = runs
            .iter()
            .filter(|run| {
                comments
                    .binary_search_by_key(&run.start, |c| c.start)
                    .is_ok_and(|i| comments[i] == **run)
            })
            .cloned()
            .collect();
        if confirmed.len() == runs.len() {
            return Some(tree);
        }
        runs = confirmed;
    }
    parse(text)
}

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
fn masked(text: &str, runs: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for run in runs {
        for b in &mut bytes[run.clone()] {
            if *b == b'\n' {
                *b = b'\r';
            }
        }
    }
    // Only ASCII newlines were replaced by ASCII carriage returns.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// Byte ranges of the tree's comment nodes, in order.
fn comment_nodes(tree: &Tree) -> Vec<Range<usize>> {
    let mut comments = Vec::new();
    super::super::treesitter::visit(tree.root_node(), &mut |node| {
        if node.kind() == "comment" {
            comments.push(node.byte_range());
        }
        node.child_count() > 0
    });
    comments
}

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
    use crate::lang::treesitter::{Grammar, parse_exact};

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

    type Shape = (Vec<(String, Range<usize>)>, Vec<Range<usize>>);

    /// Kinds and ranges of the nodes that are not comments, and the comment lines.
    fn shape(tree: &Tree, text: &str) -> Shape {
        let mut nodes = Vec::new();
        let mut comments = Vec::new();
        crate::lang::treesitter::visit(tree.root_node(), &mut |node| {
            if node.kind() == "comment" {
                comments.extend(comment_lines(node.byte_range(), text));
            } else {
                nodes.push((node.kind().to_string(), node.byte_range()));
            }
            true
        });
        (nodes, comments)
    }

    /// The masked tree is the tree of the text; for a text with syntax errors, whose error
    /// recovery weighs the tokens, it only has errors too.
    fn assert_same_tree(text: &str) {
        let masked = parse(text, |t| parse_exact(Grammar::Python, t)).unwrap();
        let plain = parse_exact(Grammar::Python, text).unwrap();
        if plain.root_node().has_error() {
            assert!(masked.root_node().has_error(), "{text:?}");
        } else {
            assert_eq!(shape(&masked, text), shape(&plain, text), "{text:?}");
        }
    }

    #[test]
    fn masked_tree_is_the_tree_of_the_text() {
        assert_same_tree("x = 1\n# a\n# b\n\n# c\ny = 2\n");
        assert_same_tree("def f():\n    x = 1\n    # a\n    # b\n# c\n# d\ny = 2\n");
        assert_same_tree("if x:\n    y\n    # a\n# b\nelse:\n    z\n");
        assert_same_tree("def f():\n    # a\n    # b\n    x = 1\n");
        assert_same_tree("def f():\n# a\n# b\n    x = 1\n");
        assert_same_tree("f(\n    # a\n# b\n    x=1,\n)\n");
        assert_same_tree(
            "class A:\n    def f(self):\n        pass\n        # a\n    # b\n        # c\n# d\n    # e\nx = 1\n",
        );
        assert_same_tree("x = 1\r\n# a\r\n# b\r\ny = 2\r\n");
        // Lines of a string that start with `#` are not comments: left as they are.
        assert_same_tree("x = '''\n# a\n# b\n'''\n# c\n# d\n");
        assert_same_tree("x = f'''{\n# a\n# b\n}'''\n");
        assert_same_tree("x = 'a\\\n# a\n# b'\n");
    }

    proptest::proptest! {
        /// Any sequence of these lines, comments at every indentation among blocks, strings
        /// and brackets, parses to the same tree masked or not.
        #[test]
        fn masking_keeps_the_tree(lines in proptest::collection::vec(proptest::sample::select(&[
            "# c", "  # c", "    # c", "        # c", "\t# c", "", "   ", "x = 1", "    x = 1",
            "        x = 1", "def f():", "    def g():", "if x:", "    if y:", "else:", "    else:",
            "try:", "except E:", "f(", ")", "s = , ", "\\", "x = 1 \\", "# c\r",
        ][..]), 0..24)) {
            assert_same_tree(&(lines.join("\n") + "\n"));
        }
    }

    #[test]
    fn merged_comments_read_as_their_lines() {
        let text = "x = 1\n# a\n\n  # b\r\ny";
        let lines: Vec<&str> = comment_lines(6..text.len() - 2, text).map(|r| &text[r]).collect();
        assert_eq!(lines, ["# a", "# b\r"]);
    }
}
