//! Small line scanners for the texts interlint does not parse: where a multi-line string or
//! heredoc runs, YAML block scalars, and the Markdown lines a comment would change.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::lang::CommentStyle;

/// Byte ranges of the quoted strings and heredocs of a text (those that may run over lines),
/// comments skipped. Found by a scanner that knows quotes, triple quotes, heredocs (`<<EOF` in
/// `#` files, `<<<EOF` in `//` files), Go's backticks and C++'s and C#'s raw strings. An opening
/// quote never closed runs to the end: the scanner errs on the side of "inside a string".
pub fn literal_regions(text: &str, style: CommentStyle) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let slash = style == CommentStyle::Slash;
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let after_space = i == 0 || b[i - 1].is_ascii_whitespace();
        let in_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if !slash && c == b'#' && after_space {
            i = line_end(b, i);
            continue;
        }
        if slash && b[i..].starts_with(b"//") {
            i = line_end(b, i);
            continue;
        }
        if slash && b[i..].starts_with(b"/*") {
            i = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
            continue;
        }
        let end = if b[i..].starts_with(b"\"\"\"") || b[i..].starts_with(b"'''") {
            Some(find(b, i + 3, &b[i..i + 3]).map_or(b.len(), |e| e + 3))
        } else if c == b'<' {
            heredoc(text, i, if slash { 3 } else { 2 })
        } else if slash && c == b'`' {
            Some(find(b, i + 1, b"`").map_or(b.len(), |e| e + 1))
        } else if slash && c == b'R' && !in_word && b.get(i + 1) == Some(&b'"') {
            raw_string(b, i + 2)
        } else if slash && c == b'@' && b.get(i + 1) == Some(&b'"') {
            Some(verbatim_end(b, i + 2))
        } else if (c == b'"' || c == b'\'') && !in_word {
            Some(quoted_end(b, i, !slash))
        } else {
            None
        };
        match end {
            Some(end) => {
                out.push(i..end);
                i = end.max(i + 1);
            }
            None => i += 1,
        }
    }
    out
}

fn line_end(b: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &b[from..]).map_or(b.len(), |p| from + p)
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    memchr::memmem::find(&b[from..], needle).map(|p| from + p)
}

/// The end of a string opened by the quote at `open`. A `'` string knows no backslash escape
/// (YAML, shell) but `''`; with `multiline` a string may run over lines, else it ends with its
/// line.
fn quoted_end(b: &[u8], open: usize, multiline: bool) -> usize {
    let q = b[open];
    let mut j = open + 1;
    while j < b.len() {
        match b[j] {
            b'\\' if q == b'"' || !multiline => j += 2,
            b'\n' if !multiline => return j,
            x if x == q => {
                if q == b'\'' && multiline && b.get(j + 1) == Some(&b'\'') {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            _ => j += 1,
        }
    }
    b.len()
}

/// A heredoc opened at `at` (`<<EOF`, `<<-'EOF'`, `<<~EOF`; `<<<EOF` with `angles` 3): from the
/// operator to the end of the line holding the closing word alone.
fn heredoc(text: &str, at: usize, angles: usize) -> Option<usize> {
    let b = text.as_bytes();
    if !b[at..].starts_with(&b"<<<"[..angles]) || b.get(at + angles) == Some(&b'<') {
        return None;
    }
    let mut j = at + angles;
    while matches!(b.get(j), Some(b'-' | b'~' | b' ')) {
        j += 1;
    }
    let quote = matches!(b.get(j), Some(b'\'' | b'"')).then(|| b[j]);
    if quote.is_some() {
        j += 1;
    }
    let start = j;
    while b.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        j += 1;
    }
    if j == start || !(b[start].is_ascii_alphabetic() || b[start] == b'_') {
        return None;
    }
    if let Some(q) = quote
        && b.get(j) != Some(&q)
    {
        return None;
    }
    let word = &text[start..j];
    let mut line_start = line_end(b, j) + 1;
    while line_start < b.len() {
        let end = line_end(b, line_start);
        if text[line_start..end].trim() == word {
            return Some(end);
        }
        line_start = end + 1;
    }
    Some(b.len())
}

/// A C++ raw string `R"delim( ... )delim"` whose delimiter starts at `from`.
fn raw_string(b: &[u8], from: usize) -> Option<usize> {
    let open = from + b[from..].iter().take(17).position(|c| *c == b'(')?;
    let delim = &b[from..open];
    if delim
        .iter()
        .any(|c| c.is_ascii_whitespace() || *c == b'\\' || *c == b')')
    {
        return None;
    }
    let mut close = Vec::with_capacity(delim.len() + 2);
    close.push(b')');
    close.extend_from_slice(delim);
    close.push(b'"');
    Some(find(b, open + 1, &close).map_or(b.len(), |e| e + close.len()))
}

/// A C# verbatim string `@"..."` (`""` is a quote) whose text starts at `from`.
fn verbatim_end(b: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < b.len() {
        if b[j] == b'"' {
            if b.get(j + 1) == Some(&b'"') {
                j += 2;
                continue;
            }
            return j + 1;
        }
        j += 1;
    }
    b.len()
}

/// Whether `pos` lies strictly inside one of `regions`: a comment there would be text.
pub fn strictly_inside(regions: &[Range<usize>], pos: usize) -> bool {
    regions.iter().any(|r| r.start < pos && pos < r.end)
}

fn indentation(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

static BLOCK_SCALAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^(?P<indent>\s*)(?P<dashes>(?:-\s+)*)(?:(?P<key>"[^"]*"|'[^']*'|[^\s#"'][^#]*?)\s*:\s+)?(?:[!&]\S*\s+)*[|>][0-9+-]{0,2}\s*(?:#.*)?$"#,
    )
    .expect("valid regex")
});

static YAML_NODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^\s*(?:[-?](?:\s|$)|(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\[\]{},|>][^#]*?)\s*:(?:\s|$))"#,
    )
    .expect("valid regex")
});

/// For each line, whether it is the content of a YAML block scalar (`key: |`, `- >-`): text
/// where a `#` line would be part of the value.
pub fn yaml_block_lines(lines: &[&str]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    // Content lines are those indented more than the key (or the `-`) that opened it.
    let mut open: Option<usize> = None;
    for (k, line) in lines.iter().enumerate() {
        if let Some(threshold) = open {
            if line.trim().is_empty() || indentation(line) > threshold {
                inside[k] = true;
                continue;
            }
            open = None;
        }
        if let Some(c) = BLOCK_SCALAR.captures(line) {
            let indent = c.name("indent").map_or(0, |m| indentation(m.as_str()));
            let dashes = c.name("dashes").map_or("", |m| m.as_str());
            open = match c.name("key") {
                Some(_) => Some(indent + dashes.len()),
                None if !dashes.is_empty() => Some(indent + dashes.trim_end().rfind('-').unwrap_or(0)),
                None => None,
            };
        }
    }
    inside
}

/// Whether a YAML line starts a node (a `key:` or a `- ` item), so that a comment line before
/// it cannot fall inside a multi-line plain scalar.
pub fn yaml_starts_node(line: &str) -> bool {
    YAML_NODE.is_match(line)
}

/// Whether a text looks like YAML: a line of `key: value`.
pub fn looks_like_yaml(lines: &[&str]) -> bool {
    lines.iter().any(|l| {
        let t = l.trim_start();
        !t.starts_with('#') && YAML_NODE.is_match(t) && !t.starts_with('-')
    })
}

/// The line closing a Markdown file's YAML front matter (`---` ... `---`), if it has one.
pub fn front_matter_end(lines: &[&str]) -> Option<usize> {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return None;
    }
    lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| matches!(l.trim_end(), "---" | "..."))
        .map(|(k, _)| k)
}

static ATX_HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {0,3}#{1,6}(?:\s|$)").expect("valid regex"));
static SETEXT_UNDERLINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {0,3}(?:=+|-+)\s*$").expect("valid regex"));
static LINK_DEFINITION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {0,3}\[[^\]]+\]:").expect("valid regex"));
static LIST_ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[-+*]|\d{1,9}[.)])(?:\s|$)").expect("valid regex"));
static OPEN_TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[A-Za-z/][^>]*$").expect("valid regex"));

/// Why a Markdown prose line cannot end with an HTML comment, if it cannot: a heading (its
/// anchor would change), a link definition, a hard line break by backslash, a table row ending in
/// `|` (the comment would be a cell), an indented line (maybe a code block), a code span or
/// HTML tag left open, or raw HTML (`<script>`, `<style>`, `<textarea>`).
pub fn markdown_end_of_line_refused(lines: &[&str], line: usize) -> bool {
    let Some(own) = lines.get(line) else {
        return true;
    };
    let trimmed = own.trim_end();
    let next_is_underline = lines
        .get(line + 1)
        .is_some_and(|n| SETEXT_UNDERLINE.is_match(n) && !own.trim().is_empty());
    ATX_HEADING.is_match(own)
        || next_is_underline
        || LINK_DEFINITION.is_match(own)
        || trimmed.ends_with('\\')
        || (trimmed.ends_with('|') && trimmed.matches('|').count() > 1)
        || (indentation(own) >= 4 && !LIST_ITEM.is_match(own))
        || trimmed.matches('`').count() % 2 == 1
        || OPEN_TAG.is_match(trimmed)
        || in_raw_html(lines, line)
}

/// Whether an HTML comment can stand alone on the line before a Markdown prose line: it then
/// starts an HTML block, which must not split a paragraph, a list or a block quote.
pub fn markdown_own_line_allowed(lines: &[&str], line: usize) -> bool {
    let Some(own) = lines.get(line) else {
        return false;
    };
    let after_blank = line == 0 || lines.get(line - 1).is_some_and(|p| p.trim().is_empty());
    let heading = ATX_HEADING.is_match(own);
    indentation(own) <= 3
        && !own.trim_start().starts_with('>')
        && !LIST_ITEM.is_match(own)
        && (after_blank || heading)
        && !in_raw_html(lines, line)
}

/// Whether a line lies in raw HTML whose text a comment would join.
fn in_raw_html(lines: &[&str], line: usize) -> bool {
    const TAGS: [&str; 3] = ["script", "style", "textarea"];
    let mut open: Option<&str> = None;
    for own in lines.iter().take(line + 1) {
        let lower = own.to_ascii_lowercase();
        for tag in TAGS {
            let opened = lower.rfind(&format!("<{tag}"));
            let closed = lower.rfind(&format!("</{tag}"));
            match (opened, closed) {
                (Some(o), Some(c)) if c > o => open = None,
                (Some(_), _) => open = Some(tag),
                (None, Some(_)) if open == Some(tag) => open = None,
                _ => {}
            }
        }
    }
    open.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regions(text: &str, style: CommentStyle) -> Vec<&str> {
        literal_regions(text, style)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn strings_heredocs_and_raw_strings() {
        assert_eq!(
            regions("a: \"x\ny\" # it's\nb: don't 'q''r'\n", CommentStyle::Hash),
            ["\"x\ny\"", "'q''r'"]
        );
        assert_eq!(
            regions("cat <<-'EOF' > f\nmodel\n  EOF\nx\n", CommentStyle::Hash),
            ["<<-'EOF' > f\nmodel\n  EOF"]
        );
        assert_eq!(
            regions("s := `a\nb` // \"c\nt := \"d\"\n", CommentStyle::Slash),
            ["`a\nb`", "\"d\""]
        );
        assert_eq!(
            regions("auto s = R\"x(a\n)\")x\";\n", CommentStyle::Slash),
            ["R\"x(a\n)\")x\""]
        );
        assert_eq!(
            regions("merge:\n  <<: *base\n", CommentStyle::Hash),
            Vec::<&str>::new()
        );
        // Never closed: to the end.
        assert_eq!(regions("k = \"\"\"a\nb\n", CommentStyle::Hash), ["\"\"\"a\nb\n"]);
    }

    #[test]
    fn yaml_block_scalars() {
        let text = "a: |\n  one\n\n  two\nb: >-\n  x\n- key: |+\n    y\n  other: z\n- |\n  w\nc: d\n";
        let lines: Vec<&str> = text.lines().collect();
        let inside: Vec<usize> = yaml_block_lines(&lines)
            .iter()
            .enumerate()
            .filter(|(_, i)| **i)
            .map(|(k, _)| k)
            .collect();
        assert_eq!(inside, [1, 2, 3, 5, 7, 10]);
        assert!(yaml_starts_node("  model: x"));
        assert!(yaml_starts_node("- gemini"));
        assert!(yaml_starts_node("\"a b\": c"));
        assert!(!yaml_starts_node("  continued plain text"));
        assert!(!yaml_starts_node("  gemini-1.5-pro,"));
    }

    #[test]
    fn markdown_lines() {
        let lines: Vec<&str> = "# Title x\n\nSome x\nmore x\\\n| a | x |\n|---|---|\n    code x\n- item x\n\nTitle x\n===\n[x]: http://x\n<script>\nvar x;\n</script>\nafter x  \n"
            .lines()
            .collect();
        let refused: Vec<usize> = (0..lines.len())
            .filter(|&l| markdown_end_of_line_refused(&lines, l))
            .collect();
        assert_eq!(refused, [0, 3, 4, 5, 6, 9, 11, 12, 13]);
        assert!(markdown_own_line_allowed(&lines, 0));
        assert!(markdown_own_line_allowed(&lines, 2));
        assert!(!markdown_own_line_allowed(&lines, 3));
        assert!(!markdown_own_line_allowed(&lines, 7));
        assert!(markdown_own_line_allowed(&lines, 9));
    }
}
