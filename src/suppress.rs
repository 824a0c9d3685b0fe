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

/// A comment that starts like a directive: `# interlint: ignore...`.
static ANY_DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:#|//|<!--)[ \t]*interlint:[ \t]*(ignore(?:-file)?)(.*)$").expect("valid regex")
});

/// The codes a directive names (as interlint compares them: `mig009` is `MIG009`); `None` for
/// all codes.
fn codes(captures: &regex::Captures) -> Option<Vec<String>> {
    captures.get(1).map(|m| code_list(m.as_str()))
}

/// The codes between a directive's brackets (`MIG009, mig001`), as interlint compares them.
pub(crate) fn code_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(crate::codes::normalize_selector)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The directives of a text that are not what their writer meant, each with its offset and
/// why: `ignore MIG009` (no brackets) and text after a line directive suppress nothing,
/// `ignore-file MIG009` suppresses every rule, and an unknown code suppresses nothing.
pub fn problems(text: &str) -> Vec<(usize, String)> {
    if !text.contains("interlint:") {
        return Vec::new();
    }
    let mut found = Vec::new();
    for c in ANY_DIRECTIVE.captures_iter(text) {
        let (Some(whole), Some(kind), Some(rest)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        let kind = kind.as_str();
        let rest = rest.as_str().trim_end_matches('\r');
        let written = whole.as_str()[whole.as_str().find("interlint:").unwrap_or(0)..].trim_end();
        let written = written.trim_end_matches("-->").trim_end();
        let tail = rest.trim();
        let tail = tail.strip_suffix("-->").map_or(tail, str::trim_end);
        let bracketed = tail.strip_prefix('[').and_then(|t| t.split_once(']'));
        let problem = match bracketed {
            Some((list, after)) => {
                let unknown: Vec<String> = code_list(list)
                    .into_iter()
                    .filter(|c| !crate::codes::selects_a_rule(c))
                    .collect();
                if !unknown.is_empty() {
                    Some(format!(
                        "`{written}`: {} not a rule code or prefix, so {} nothing",
                        unknown.join(", ") + if unknown.len() == 1 { " is" } else { " are" },
                        if unknown.len() == 1 {
                            "it suppresses"
                        } else {
                            "they suppress"
                        }
                    ))
                } else if kind == "ignore" && !after.trim().is_empty() {
                    Some(format!(
                        "`{written}`: nothing may follow the directive on its line; it suppresses nothing"
                    ))
                } else {
                    None
                }
            }
            None if tail.is_empty() || rest.starts_with(|c: char| !c.is_whitespace() && c != ':') => None,
            None => {
                let words: Vec<&str> = tail
                    .trim_start_matches(':')
                    .split([',', ' ', '\t'])
                    .filter(|w| !w.is_empty())
                    .collect();
                let looks_like_codes = !words.is_empty()
                    && words
                        .iter()
                        .all(|w| crate::codes::is_known_selector(&crate::codes::normalize_selector(w)));
                // (A code of the catalogue counts here: the brackets are what is missing.)
                let meant = format!("interlint: {kind}[{}]", words.join(","));
                match (looks_like_codes, kind) {
                    (true, "ignore") => Some(format!(
                        "`{written}` suppresses nothing: write `{meant}`, with brackets"
                    )),
                    (true, _) => Some(format!(
                        "`{written}` turns off every rule in this file: write `{meant}`, with brackets, to turn off only those"
                    )),
                    (false, "ignore") => Some(format!(
                        "`{written}`: nothing may follow the directive on its line; it suppresses nothing"
                    )),
                    (false, _) => None,
                }
            }
        };
        if let Some(problem) = problem {
            found.push((whole.start(), problem));
        }
    }
    found
}

fn covers(codes: &Option<Vec<String>>, code: &str) -> bool {
    match codes {
        None => true,
        Some(list) => list.iter().any(|c| code.starts_with(c.as_str())),
    }
}

/// The line directives of a document, each line read once: a finding asks about its own line
/// and the one before, and a long line (a minified bundle) may hold many findings. Which
/// directive suppressed what is kept, for IL001.
pub struct LineDirectives {
    /// The lines holding `interlint:`, with their directive if they have one.
    lines: HashMap<usize, Option<Directive>>,
}

/// One `interlint: ignore[...]` comment.
#[derive(Clone, Debug)]
pub struct Directive {
    /// The codes it names; `None` for all codes.
    pub codes: Option<Vec<String>>,
    /// Alone on its line: it also covers the next line.
    pub alone: bool,
    /// The comment, from its marker (`#`, `//`, `<!--`) to its end, in the document's text.
    pub span: std::ops::Range<usize>,
    /// What removing it removes: its whole line when it is alone there, else the comment and
    /// the blanks before it.
    pub removal: std::ops::Range<usize>,
    /// The text between its brackets, when it has them.
    pub list: Option<std::ops::Range<usize>>,
    /// The selectors of `codes` that covered a finding (`*` for a directive without codes).
    pub used: std::collections::BTreeSet<String>,
}

impl LineDirectives {
    pub fn new(text: &str, index: &LineIndex) -> Self {
        let mut lines = HashMap::new();
        for (at, _) in text.match_indices("interlint:") {
            lines.entry(index.line_of(at)).or_insert_with_key(|&line| {
                let range = index.line_range(line, text);
                let own = &text[range.clone()];
                let indent = own.len() - own.trim_start().len();
                LINE_DIRECTIVE.captures(own).and_then(|c| {
                    let whole = c.get(0)?;
                    let alone = whole.start() == indent;
                    let end = range.start + whole.as_str().trim_end().len() + whole.start();
                    let start = range.start + whole.start();
                    let removal = if alone {
                        let next = text[range.end..]
                            .find('\n')
                            .map_or(text.len(), |i| range.end + i + 1);
                        range.start..next
                    } else {
                        let before = own[..whole.start()].trim_end().len();
                        range.start + before..end
                    };
                    Some(Directive {
                        codes: codes(&c),
                        alone,
                        span: start..end,
                        removal,
                        list: c.get(1).map(|m| range.start + m.start()..range.start + m.end()),
                        used: Default::default(),
                    })
                })
            });
        }
        LineDirectives { lines }
    }

    /// Whether a finding of `code` on zero-based line `line` is suppressed by a comment at the
    /// end of its line or alone on the line before; the directive that does is marked used.
    pub fn suppresses(&mut self, line: usize, code: &str) -> bool {
        for (at, own) in [(line, true), (line.wrapping_sub(1), false)] {
            if !own && line == 0 {
                break;
            }
            let Some(Some(d)) = self.lines.get_mut(&at) else {
                continue;
            };
            if !own && !d.alone {
                continue;
            }
            match &d.codes {
                None => {
                    d.used.insert("*".into());
                    return true;
                }
                Some(list) => {
                    let covering: Vec<String> = list
                        .iter()
                        .filter(|c| code.starts_with(c.as_str()))
                        .cloned()
                        .collect();
                    if !covering.is_empty() {
                        d.used.extend(covering);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The directives, with what each suppressed.
    pub fn into_directives(self) -> impl Iterator<Item = Directive> {
        self.lines.into_values().flatten()
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
    fn spans_removals_and_use() {
        let text = "a = 1  # interlint: ignore[MIG009, MIG001]\n  # interlint: ignore\nb = 2\n";
        let index = LineIndex::new(text);
        let mut directives = LineDirectives::new(text, &index);
        assert!(directives.suppresses(0, "MIG009"));
        assert!(!directives.suppresses(0, "MCP001"));
        assert!(directives.suppresses(2, "MCP001"));
        let mut all: Vec<Directive> = directives.into_directives().collect();
        all.sort_by_key(|d| d.span.start);
        assert_eq!(&text[all[0].span.clone()], "# interlint: ignore[MIG009, MIG001]");
        assert_eq!(
            &text[all[0].removal.clone()],
            "  # interlint: ignore[MIG009, MIG001]"
        );
        assert_eq!(all[0].list.clone().map(|l| &text[l]), Some("MIG009, MIG001"));
        assert_eq!(all[0].used.iter().collect::<Vec<_>>(), ["MIG009"]);
        assert!(all[1].alone);
        assert_eq!(&text[all[1].removal.clone()], "  # interlint: ignore\n");
        assert_eq!(all[1].used.iter().collect::<Vec<_>>(), ["*"]);
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
    fn directives_written_wrong() {
        let problems = |text: &str| -> Vec<String> { problems(text).into_iter().map(|(_, p)| p).collect() };
        assert_eq!(
            problems("m = 'a'  # interlint: ignore MIG009\n"),
            [
                "`interlint: ignore MIG009` suppresses nothing: write `interlint: ignore[MIG009]`, with brackets"
            ]
        );
        assert_eq!(
            problems("m = 'a'  // interlint: ignore[MIG999, MIG009]\n"),
            [
                "`interlint: ignore[MIG999, MIG009]`: MIG999 is not a rule code or prefix, so it suppresses nothing"
            ]
        );
        assert_eq!(
            problems("# interlint: ignore-file MIG009, MIG001\n"),
            [
                "`interlint: ignore-file MIG009, MIG001` turns off every rule in this file: write `interlint: ignore-file[MIG009,MIG001]`, with brackets, to turn off only those"
            ]
        );
        assert_eq!(
            problems("m = 'a'  # interlint: ignore[MIG009] legacy id\n"),
            [
                "`interlint: ignore[MIG009] legacy id`: nothing may follow the directive on its line; it suppresses nothing"
            ]
        );
        assert_eq!(problems("m = 'a'  # interlint: ignore: because\n").len(), 1);
        for fine in [
            "m = 'a'  # interlint: ignore\n",
            "m = 'a'  # interlint: ignore[mig009]\r\n",
            "<!-- interlint: ignore[MIG009] -->\n",
            "<!-- interlint: ignore -->\n",
            "# interlint: ignore-file[MIG]\n",
            "# interlint: ignore-file\n",
            "# interlint: ignore-file[MIG009] -- legacy ids, kept on purpose\n",
            "# interlint: ignores nothing here\n",
            "# interlint: the migration linter\n",
        ] {
            assert_eq!(problems(fine), Vec::<String>::new(), "{fine:?}");
        }
        // Lowercase codes suppress as their uppercase selves do.
        assert!(suppressed(
            "x = 'a'  # interlint: ignore[mig009]\n",
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
