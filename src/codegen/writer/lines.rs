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
