//! tree-sitter plumbing for shell scripts (tree-sitter-bash): one parser per thread, error
//! counting, and the collection of nodes by kind.

use std::cell::RefCell;
use std::ops::Range;

pub use tree_sitter::Tree;
use tree_sitter::{Language, Node, Parser};

/// The tree-sitter grammars interlint uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    Bash,
}

impl Grammar {
    fn language(self) -> Language {
        match self {
            Grammar::Bash => tree_sitter_bash::LANGUAGE.into(),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

const GRAMMARS: usize = 1;

thread_local! {
    static PARSERS: RefCell<[Option<Parser>; GRAMMARS]> = const { RefCell::new([None]) };
}

/// Parses `text`; `None` only if the grammar could not be loaded or parsing was cancelled.
pub fn parse(grammar: Grammar, text: &str) -> Option<Tree> {
    with_parser(grammar, |parser| parser.parse(text, None))
}

/// Runs `f` with this thread's parser of `grammar`.
fn with_parser(grammar: Grammar, f: impl FnOnce(&mut Parser) -> Option<Tree>) -> Option<Tree> {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let slot = &mut parsers[grammar.index()];
        if slot.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&grammar.language()).ok()?;
            *slot = Some(parser);
        }
        f(slot.as_mut()?)
    })
}

/// ERROR and MISSING nodes in a tree.
pub fn count_errors(tree: &Tree) -> usize {
    let root = tree.root_node();
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    visit(root, &mut |node| {
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        node.has_error()
    });
    count
}

/// Depth-first walk; `f` returns whether to descend into the node's children.
pub fn visit<'t>(node: Node<'t>, f: &mut dyn FnMut(Node<'t>) -> bool) {
    let mut cursor = node.walk();
    let mut descend = f(cursor.node());
    loop {
        if descend && cursor.goto_first_child() {
            descend = f(cursor.node());
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                descend = f(cursor.node());
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Byte ranges of every node whose kind is in `kinds`, not descending into them.
pub fn ranges_of_kinds(tree: &Tree, kinds: &[&str]) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    visit(tree.root_node(), &mut |node| {
        if kinds.contains(&node.kind()) {
            ranges.push(node.byte_range());
            false
        } else {
            true
        }
    });
    ranges
}

/// The complement of `holes` within `0..len`, for "everything but the comments".
pub fn complement(len: usize, holes: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut regions = Vec::new();
    let mut at = 0;
    for hole in holes {
        if hole.start > at {
            regions.push(at..hole.start);
        }
        at = at.max(hole.end);
    }
    if at < len {
        regions.push(at..len);
    }
    regions
}

/// The source text of a node.
pub fn text_of<'a>(node: Node, text: &'a str) -> &'a str {
    text.get(node.byte_range()).unwrap_or_default()
}

/// The named children of a node, detached from the cursor that walked them.
pub fn children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let mut cursor = node.walk();
    let kids: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
    kids.into_iter()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tree_sitter::LogType;

    use super::*;

    /// The characters tree-sitter's lexer steps over (consumed or skipped) to parse `text`: a
    /// measure of the parse's work that does not depend on the machine.
    fn lexer_steps(grammar: Grammar, text: &str) -> usize {
        let steps = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&steps);
        let mut parser = Parser::new();
        parser.set_language(&grammar.language()).expect("grammar loads");
        parser.set_logger(Some(Box::new(move |kind, message| {
            if kind == LogType::Lex
                && (message.starts_with("consume character") || message.starts_with("skip character"))
            {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        })));
        assert!(parser.parse(text, None).is_some());
        steps.load(Ordering::Relaxed)
    }

    /// Asserts the parse's work grows linearly: twice the lines, about twice the steps.
    fn assert_linear(grammar: Grammar, make: impl Fn(usize) -> String) {
        let (small, large) = (
            lexer_steps(grammar, &make(500)),
            lexer_steps(grammar, &make(1000)),
        );
        let ratio = large as f64 / small as f64;
        assert!(
            ratio < 2.6,
            "{grammar:?}: {small} steps for 500 lines, {large} for 1000"
        );
    }

    fn lines(head: &str, line: &str, n: usize) -> String {
        let mut text = head.to_string();
        for i in 0..n {
            text.push_str(&line.replace('N', &i.to_string()));
        }
        text
    }

    #[test]
    fn shell_parses_in_linear_time() {
        assert_linear(Grammar::Bash, |n| {
            lines("curl -d @x https://h/v1/m:generateContent\n", "# comment N\n", n)
        });
        assert_linear(Grammar::Bash, |n| lines("echo", " wordN", n));
    }
}
