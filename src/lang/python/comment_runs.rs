//! Runs of Python comment lines: [`comment_lines`] splits a range of comment lines into its
//! comments.

use std::ops::Range;

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

    #[test]
    fn merged_comments_read_as_their_lines() {
        let text = "x = 1\n# a\n\n  # b\r\ny";
        let lines: Vec<&str> = comment_lines(6..text.len() - 2, text).map(|r| &text[r]).collect();
        assert_eq!(lines, ["# a", "# b\r"]);
    }
}
