//! Suppression comments: `interlint: ignore` / `interlint: ignore[CODE,...]` after `#`, `//` or
//! `<!--`, at the end of the finding's line or alone on the line before; and the file-level
//! `interlint: ignore-file[CODE,...]`.

use std::sync::LazyLock;

use regex::Regex;

use crate::source::LineIndex;

static LINE_DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
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

/// Whether a finding of `code` starting at `offset` is suppressed by a comment on its line or
/// alone on the line before.
pub fn is_suppressed(text: &str, index: &LineIndex, offset: usize, code: &str) -> bool {
    let line = index.line_of(offset);
    let own = &text[index.line_range(line, text)];
    if let Some(c) = LINE_DIRECTIVE.captures(own)
        && covers(&codes(&c), code)
    {
        return true;
    }
    if line == 0 {
        return false;
    }
    let before = text[index.line_range(line - 1, text)].trim_start();
    match LINE_DIRECTIVE.captures(before) {
        Some(c) if c.get(0).is_some_and(|m| m.start() == 0) => covers(&codes(&c), code),
        _ => false,
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
        is_suppressed(text, &index, text.find(needle).unwrap(), code)
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
    }

    #[test]
    fn file_level_directives() {
        let d = file_level("# interlint: ignore-file[MIG009, MIG001]\n");
        assert!(file_ignores(&d, "MIG009"));
        assert!(!file_ignores(&d, "MIG002"));
        assert!(file_ignores(&file_level("// interlint: ignore-file\n"), "MAN001"));
    }
}
