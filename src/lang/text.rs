//! Text files interlint does not parse (YAML, TOML, .env, Go, Java, `.http`, ...): the text
//! outside comments, found by a small scanner that knows quotes and the comment markers of
//! the file's family.

use std::ops::Range;

use super::treesitter::complement;
use super::{CommentStyle, Document, Surface, Syntax};

pub fn parse(style: CommentStyle, text: String) -> Document {
    let comments = comment_ranges(style, &text);
    let regions = complement(text.len(), &comments);
    Document::whole(Surface::Text(style), text, Syntax::None, regions, 0)
}

/// Byte ranges of comments. Quotes are tracked per line so `"#notacomment"` stays text.
pub fn comment_ranges(style: CommentStyle, text: &str) -> Vec<Range<usize>> {
    let mut comments = Vec::new();
    if matches!(style, CommentStyle::None | CommentStyle::Prose) {
        return comments;
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            quote = None;
            line_start = true;
            i += 1;
            continue;
        }
        if let Some(q) = quote {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        let at_line_start = line_start;
        if !b.is_ascii_whitespace() {
            line_start = false;
        }
        let prev_is_space = i == 0 || bytes[i - 1].is_ascii_whitespace();
        let comment_len = match style {
            CommentStyle::Hash if b == b'#' && prev_is_space => Some(line_end(bytes, i) - i),
            CommentStyle::Slash if bytes[i..].starts_with(b"//") => Some(line_end(bytes, i) - i),
            CommentStyle::Slash if bytes[i..].starts_with(b"/*") => {
                Some(text[i + 2..].find("*/").map_or(bytes.len() - i, |end| end + 4))
            }
            CommentStyle::LineStart if at_line_start && (b == b'#' || bytes[i..].starts_with(b"//")) => {
                Some(line_end(bytes, i) - i)
            }
            _ => None,
        };
        if let Some(len) = comment_len {
            comments.push(i..i + len);
            i += len;
            continue;
        }
        // A quote opens a string unless it sits inside a word (`it's`).
        let in_word = i > 0 && bytes[i - 1].is_ascii_alphanumeric();
        if (b == b'"' || b == b'\'' || (b == b'`' && style == CommentStyle::Slash))
            && style != CommentStyle::LineStart
            && !in_word
        {
            quote = Some(b);
        }
        i += 1;
    }
    comments
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comments(style: CommentStyle, text: &str) -> Vec<&str> {
        comment_ranges(style, text)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn hash_comments_respect_quotes() {
        let text = "a: \"#x\" # real\nb: c#d\n# whole\n";
        assert_eq!(comments(CommentStyle::Hash, text), ["# real", "# whole"]);
    }

    #[test]
    fn slash_comments() {
        let text = "x := \"//no\" // yes\n/* block\n*/ y";
        assert_eq!(comments(CommentStyle::Slash, text), ["// yes", "/* block\n*/"]);
    }

    #[test]
    fn line_start_comments() {
        let text = "# a\nGET http://x/#frag\n  // b\n";
        assert_eq!(comments(CommentStyle::LineStart, text), ["# a", "// b"]);
    }
}
