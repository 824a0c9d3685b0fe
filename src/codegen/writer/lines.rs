//! Questions about the lines and words of a text: where an offset is (for a message), where its
//! line starts, whether a name is taken.

use std::ops::Range;

use crate::lang::Document;

/// Where an offset of `doc` is, for a message: `line 12`, `cell 3, line 2`.
pub(crate) fn place(doc: &Document, offset: usize) -> String {
    doc.place_of(offset)
}

/// Where the line holding `offset` starts.
pub(crate) fn line_start(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// Whether `word` appears in `text` as a whole identifier, outside the `comments`.
pub(crate) fn has_word(text: &str, word: &str, comments: &[Range<usize>]) -> bool {
    has_word_where(text, word, comments, true)
}

/// [`has_word`], where an attribute of that name (`x.word`) counts only when `attributes`.
pub(crate) fn has_word_where(text: &str, word: &str, comments: &[Range<usize>], attributes: bool) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || !attributes && c == '.')
            && !after.is_some_and(ident)
            && !comments.iter().any(|c| c.start <= i && i < c.end)
    })
}

/// Whether `text` is a name or a chain of attributes (`budget`, `self.thinking_budget`): an
/// expression read more than once without a second effect.
pub(crate) fn is_dotted_name(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
}

/// JavaScript `code` written one level deeper: `by` after each of its line breaks between tokens
/// (a template literal's own line breaks are its text, and stay); `code` as it is where a comment
/// or a string it cannot follow may hide one (its indentation is cosmetic, its strings are not).
pub(crate) fn shift_code_lines(code: &str, by: &str) -> String {
    enum State {
        Code,
        Quoted(char),
        Template,
        /// Inside `${...}` of a template literal, with the braces open.
        Interpolation(u32),
    }
    let mut out = String::with_capacity(code.len() + by.len() * 4);
    let mut state = State::Code;
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        state = match state {
            State::Code => match c {
                '"' | '\'' => State::Quoted(c),
                '`' => State::Template,
                '/' if matches!(chars.peek(), Some('/' | '*')) => return code.to_string(),
                '\n' => {
                    out.push_str(by);
                    State::Code
                }
                _ => State::Code,
            },
            State::Quoted(q) => match c {
                '\\' => match chars.next() {
                    Some('\n') | None => return code.to_string(),
                    Some(escaped) => {
                        out.push(escaped);
                        State::Quoted(q)
                    }
                },
                '\n' => return code.to_string(),
                _ if c == q => State::Code,
                _ => State::Quoted(q),
            },
            State::Template => match c {
                '\\' => {
                    if let Some(escaped) = chars.next() {
                        out.push(escaped);
                    }
                    State::Template
                }
                '`' => State::Code,
                '$' if chars.peek() == Some(&'{') => {
                    chars.next();
                    out.push('{');
                    State::Interpolation(1)
                }
                _ => State::Template,
            },
            State::Interpolation(depth) => match c {
                '{' => State::Interpolation(depth + 1),
                '}' if depth == 1 => State::Template,
                '}' => State::Interpolation(depth - 1),
                '"' | '\'' | '`' | '/' | '\n' => return code.to_string(),
                _ => State::Interpolation(depth),
            },
        };
    }
    match state {
        State::Code => out,
        _ => code.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::shift_code_lines;

    #[test]
    fn code_lines_shift_only_where_no_text_spans_them() {
        assert_eq!(shift_code_lines("[\n  a,\n]", "  "), "[\n    a,\n  ]");
        // A template literal's line break is its text; a comment may hide one.
        assert_eq!(shift_code_lines("[\n  `a\nb`,\n]", "  "), "[\n    `a\nb`,\n  ]");
        assert_eq!(
            shift_code_lines("[\n  { data: read(`${dir}/a.jpg`) },\n]", "  "),
            "[\n    { data: read(`${dir}/a.jpg`) },\n  ]"
        );
        assert_eq!(
            shift_code_lines("[\n  \"it's\",\n]", "  "),
            "[\n    \"it's\",\n  ]"
        );
        assert_eq!(shift_code_lines("[\n  a, // it's\n]", "  "), "[\n  a, // it's\n]");
        assert_eq!(shift_code_lines("a", "  "), "a");
    }
}
