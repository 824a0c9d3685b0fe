//! Suppression comments: `interlint: ignore` / `interlint: ignore[CODE,...]` after `#`, `//` or
//! `<!--`, at the end of the finding's line or alone on the line before; and the file-level
//! `interlint: ignore-file[CODE,...]`.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::source::LineIndex;

/// A line directive at the end of a line; group 1 holds its codes, if it names any.
pub(crate) static LINE_DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:#|//|<!--)\s*interlint:\s*ignore(?:\[([^\]]*)\])?\s*(?:-->)?\s*$").expect("valid regex")
});

static FILE_DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:#|//|<!--)\s*interlint:\s*ignore-file(?:\[([^\]]*)\])?").expect("valid regex")
});

/// The codes a directive names; `None` for all codes.
fn codes(captures: &regex::Captures) -> Option<Vec<String>> {
    captures.get(1).map(|m| {
        m.as_str()
            .split(',')
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect()
    })
}

fn covers(codes: &Option<Vec<String>>, code: &str) -> bool {
    match codes {
        None => true,
        Some(list) => list.iter().any(|c| code.starts_with(c.as_str())),
    }
}

/// The line directives of a document, each line read once: a finding asks about its own line
/// and the one before, and a long line (a minified bundle) may hold many findings.
pub struct LineDirectives {
    /// The lines holding `interlint:`, with their directive if they have one.
    lines: HashMap<usize, Option<Directive>>,
}

struct Directive {
    codes: Option<Vec<String>>,
    /// Alone on its line: it also covers the next line.
    alone: bool,
}

impl LineDirectives {
    pub fn new(text: &str, index: &LineIndex) -> Self {
        let mut lines = HashMap::new();
        for (at, _) in text.match_indices("interlint:") {
            lines.entry(index.line_of(at)).or_insert_with_key(|&line| {
                let own = &text[index.line_range(line, text)];
                let indent = own.len() - own.trim_start().len();
                LINE_DIRECTIVE.captures(own).map(|c| Directive {
                    codes: codes(&c),
                    alone: c.get(0).is_some_and(|m| m.start() == indent),
                })
            });
        }
        LineDirectives { lines }
    }

    /// Whether a finding of `code` on zero-based line `line` is suppressed by a comment at the
    /// end of its line or alone on the line before.
    pub fn suppresses(&self, line: usize, code: &str) -> bool {
        let directive = |line: usize| self.lines.get(&line).and_then(Option::as_ref);
        if let Some(d) = directive(line)
            && covers(&d.codes, code)
        {
            return true;
        }
        line > 0 && directive(line - 1).is_some_and(|d| d.alone && covers(&d.codes, code))
    }
}

/// The file-level directives of a text: one entry per directive.
pub fn file_level(text: &str) -> Vec<Option<Vec<String>>> {
    if !text.contains("ignore-file") {
        return Vec::new();
    }
    FILE_DIRECTIVE.captures_iter(text).map(|c| codes(&c)).collect()
}

/// Whether the file-level directives turn `code` off.
pub fn file_ignores(directives: &[Option<Vec<String>>], code: &str) -> bool {
    directives.iter().any(|d| covers(d, code))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suppressed(text: &str, needle: &str, code: &str) -> bool {
        let index = LineIndex::new(text);
        let line = index.line_of(text.find(needle).unwrap());
        LineDirectives::new(text, &index).suppresses(line, code)
    }

    #[test]
    fn trailing_and_previous_line() {
        assert!(suppressed("x = 'a'  # interlint: ignore\n", "'a'", "MIG009"));
        assert!(suppressed(
            "x = 'a'  // interlint: ignore[MIG009]\n",
            "'a'",
            "MIG009"
        ));
        assert!(!suppressed(
            "x = 'a'  # interlint: ignore[MIG001]\n",
            "'a'",
            "MIG009"
        ));
        assert!(suppressed("# interlint: ignore[MIG]\nx = 'a'\n", "'a'", "MIG009"));
        assert!(suppressed(
            "<!-- interlint: ignore[MIG009] -->\nUse a.\n",
            "a.",
            "MIG009"
        ));
        assert!(!suppressed(
            "y = 1  # interlint: ignore\nx = 'a'\n",
            "'a'",
            "MIG009"
        ));
        assert!(!suppressed(
            "x = 'a'  # interlint: ignore-file\n",
            "'a'",
            "MIG009"
        ));
        assert!(!suppressed("x  # interlint: ignore\nx = 'a'\n", "'a'", "MIG009"));
        assert!(suppressed("  # interlint: ignore\n x = 'a'\n", "'a'", "MIG009"));
        assert!(suppressed(
            "a = 1  # interlint: ignore[X] # interlint: ignore[MIG009]\n",
            "1",
            "MIG009"
        ));
    }

    #[test]
    fn file_level_directives() {
        let d = file_level("# interlint: ignore-file[MIG009, MIG001]\n");
        assert!(file_ignores(&d, "MIG009"));
        assert!(!file_ignores(&d, "MIG002"));
        assert!(file_ignores(&file_level("// interlint: ignore-file\n"), "MAN001"));
    }
}
