//! Edits' ranges: the removal of a statement with the blank lines around it, of several
//! entries of one container with their separators and comments, and the joining of an
//! insertion to the edit it follows.

use std::ops::Range;

use crate::diagnostic::Edit;
use crate::migration_facts::Entry;

/// A statement's removal ([`crate::migration_facts::line_removal`]), with the blank line after it when one
/// is before it too, or it opens the text: no doubled or leading blank line is left.
pub(crate) fn statement_removal(text: &str, statement: Range<usize>) -> Range<usize> {
    let removal = crate::migration_facts::line_removal(text, statement);
    let before = text.get(..removal.start).unwrap_or_default();
    let blank_before = before.is_empty() || before.ends_with("\n\n") || before.ends_with("\n\r\n");
    let after = text.get(removal.end..).unwrap_or_default();
    let blank_after = after.lines().next().is_some_and(|l| l.trim().is_empty()) && !after.is_empty();
    if blank_before && blank_after {
        let line_end = after.find('\n').map_or(text.len(), |i| removal.end + i + 1);
        removal.start..line_end
    } else {
        removal
    }
}

/// `range` grown to whole lines when only blanks stand around it on them (with the last line's
/// break): a statement removed leaves no blank line.
pub(crate) fn whole_lines(text: &str, range: Range<usize>) -> Range<usize> {
    let line_start = text
        .get(..range.start)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let line_end = text
        .get(range.end..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| range.end + i);
    let before = text.get(line_start..range.start).unwrap_or_default();
    let after = text.get(range.end..line_end).unwrap_or_default();
    if before.trim().is_empty() && after.trim().is_empty() {
        line_start..(line_end + 1).min(text.len())
    } else {
        range
    }
}

/// An insertion right where the previous edit ends joins that edit: carried into a notebook
/// cell, a multi-line edit grows to whole source lines and would swallow the insertion point.
pub(crate) fn merge_insertions(edits: Vec<Edit>) -> Vec<Edit> {
    let mut merged: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits {
        match merged.last_mut() {
            Some(last) if edit.range.is_empty() && edit.range.start == last.range.end => {
                last.content.push_str(&edit.content);
            }
            _ => merged.push(edit),
        }
    }
    merged
}

/// The ranges deleting several entries of one container together, in `text` whose comments
/// are `comments`. Each run of neighbouring entries goes as one range: up to the next kept entry
/// when there is one (so the separator before it goes too), else from the end of the kept entry
/// before it (its trailing separator stays, as a trailing comma), else everything between the
/// brackets.
///
/// A comment belongs to the entry it follows on that entry's line, or to the entry it stands
/// directly above on lines of its own (no blank line between; on one line, after the separator
/// before the entry). The comments of a kept entry stay where they are: a run's range stops
/// before the comments above the next kept entry, and does not reach back over a comment on
/// the line of the kept entry before it. The comments of a deleted entry go with it (a caller
/// judges a fix deleting a comment unsafe).
pub(crate) fn removal_ranges(entries: &[&Entry], text: &str, comments: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut sorted: Vec<&Entry> = entries.to_vec();
    sorted.sort_by_key(|e| (e.range.start, e.range.end));
    sorted.dedup_by_key(|e| e.range.clone());
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let first = sorted[i];
        let mut last = first;
        while let Some(next) = sorted.get(i + 1)
            && last.siblings.next_start == Some(next.range.start)
        {
            last = next;
            i += 1;
        }
        let start = leading_comments(first, text, comments);
        match (last.siblings.next_start, first.siblings.previous_end) {
            (Some(next), _) => ranges.push(start..comments_above(last.range.end, next, text, comments)),
            (None, Some(previous)) => after_kept(previous, start, last, text, comments, &mut ranges),
            (None, None) => ranges.push(first.siblings.inner.clone()),
        }
        i += 1;
    }
    ranges
}

/// The comments lying within `range`.
fn comments_in<'c>(
    comments: &'c [Range<usize>],
    range: &Range<usize>,
) -> impl DoubleEndedIterator<Item = &'c Range<usize>> {
    let (start, end) = (range.start, range.end);
    comments.iter().filter(move |c| start <= c.start && c.end <= end)
}

/// The first `wanted` character of `text[range]` outside comments.
fn first_outside(text: &str, range: &Range<usize>, comments: &[Range<usize>], wanted: char) -> Option<usize> {
    let gap = text.get(range.clone())?;
    gap.char_indices()
        .map(|(i, c)| (range.start + i, c))
        .find(|(at, c)| *c == wanted && !comments.iter().any(|k| k.start <= *at && *at < k.end))
        .map(|(at, _)| at)
}

/// Where the comments of the entry after a gap may start: after the gap's first line break, or
/// on one line after its separator (`None` when the gap has neither).
fn next_entry_part(text: &str, gap: &Range<usize>, comments: &[Range<usize>]) -> Option<usize> {
    first_outside(text, gap, comments, '\n')
        .or_else(|| first_outside(text, gap, comments, ','))
        .map(|at| at + 1)
}

/// Where an entry's removal starts: at the first of the comments directly above it (see
/// [`removal_ranges`]), else at the entry.
fn leading_comments(entry: &Entry, text: &str, comments: &[Range<usize>]) -> usize {
    let gap_start = entry.siblings.previous_end.unwrap_or(entry.siblings.inner.start);
    let gap = gap_start..entry.range.start;
    let from = if entry.siblings.previous_end.is_some() {
        next_entry_part(text, &gap, comments)
    } else {
        // The first entry: after the line of the opening bracket, or just after it.
        first_outside(text, &gap, comments, '\n')
            .map(|at| at + 1)
            .or(Some(gap_start))
    };
    let Some(from) = from else {
        return entry.range.start;
    };
    let mut start = entry.range.start;
    for comment in comments_in(comments, &(from..entry.range.start)).rev() {
        let Some(between) = text.get(comment.end..start) else {
            break;
        };
        if !between.trim().is_empty() || between.matches('\n').count() > 1 {
            break;
        }
        start = comment.start;
    }
    start
}

/// Where a run's removal ends when a kept entry starts at `next`: before the comments that
/// belong to that entry (on the lines after the run's last one, or after the separator on one
/// line), else at the entry.
fn comments_above(last_end: usize, next: usize, text: &str, comments: &[Range<usize>]) -> usize {
    let gap = last_end..next;
    next_entry_part(text, &gap, comments)
        .and_then(|from| comments_in(comments, &(from..next)).next())
        .map_or(next, |c| c.start)
}

/// Adds to `ranges` those deleting a run at the end of its container (from `start` to `last`)
/// after a kept entry ending at `previous`: from that entry's end, its separator with it, unless
/// a comment lies between; then the run's own lines go, and the kept entry's separator alone
/// when the run has no trailing one.
fn after_kept(
    previous: usize,
    start: usize,
    last: &Entry,
    text: &str,
    comments: &[Range<usize>],
    ranges: &mut Vec<Range<usize>>,
) {
    let plain = previous..last.range.end;
    if comments_in(comments, &(previous..start)).next().is_none() {
        ranges.push(plain);
        return;
    }
    // The run stands on lines of its own.
    let Some(before) = text.get(..start) else {
        ranges.push(plain);
        return;
    };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if !before[line_start..].trim().is_empty() || line_start <= previous {
        ranges.push(plain);
        return;
    }
    // The rest of a line holds nothing but blanks and comments: where its line break is.
    let rest_of_line = |from: usize| -> Option<usize> {
        let line_end = text.get(from..)?.find('\n').map_or(text.len(), |i| from + i);
        let mut at = from;
        for comment in comments_in(comments, &(from..line_end)) {
            if !text.get(at..comment.start)?.trim().is_empty() {
                return None;
            }
            at = comment.end;
        }
        text.get(at..line_end)?.trim().is_empty().then_some(line_end)
    };
    let close = last.siblings.inner.end.max(last.range.end);
    let trailing = text
        .get(last.range.end..close)
        .and_then(|after| {
            after
                .find(|c: char| !c.is_whitespace())
                .filter(|&i| after[i..].starts_with(','))
        })
        .map(|i| last.range.end + i + 1);
    match trailing {
        // The container takes a trailing separator: the kept entry keeps its own.
        Some(after_comma) => match rest_of_line(after_comma) {
            Some(line_end) => ranges.push(line_start..(line_end + 1).min(text.len())),
            None => ranges.push(line_start..after_comma),
        },
        // The kept entry's separator goes, and the run from the line break before it.
        None => {
            let Some(separator) = text
                .get(previous..start)
                .and_then(|gap| gap.find(|c: char| !c.is_whitespace()))
                .map(|i| previous + i)
                .filter(|&at| text[at..].starts_with(','))
            else {
                ranges.push(plain);
                return;
            };
            let mut line_break = line_start - 1;
            if text[..line_break].ends_with('\r') {
                line_break -= 1;
            }
            let end = rest_of_line(last.range.end).unwrap_or(last.range.end);
            let end = if text[..end].ends_with('\r') { end - 1 } else { end };
            ranges.extend([separator..separator + 1, line_break..end]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Surface;

    /// `text` with the entries named `keys` of its first call's `config` removed.
    fn removed(surface: Surface, text: &str, keys: &[&str]) -> String {
        let facts = crate::lang::facts::of_text(surface, text);
        let config = facts.calls[0]
            .arg("config")
            .and_then(|c| c.value.as_map())
            .expect("a config map");
        let entries: Vec<&Entry> = config
            .entries
            .iter()
            .filter(|e| keys.contains(&e.key.as_str()))
            .collect();
        let mut ranges = removal_ranges(&entries, text, &facts.comments);
        ranges.sort_by_key(|r| std::cmp::Reverse(r.start));
        let mut out = text.to_string();
        for range in ranges {
            out.replace_range(range, "");
        }
        out
    }

    #[test]
    fn comments_of_kept_entries_stay() {
        let call = |config: &str| format!("f.models.generate_content(model='m', config={{{config}}})\n");
        // Above the kept entry after the run.
        assert_eq!(
            removed(Surface::Python, &call("\n  'a': 1,\n  # b\n  'b': 2,\n"), &["a"]),
            call("\n  # b\n  'b': 2,\n")
        );
        // On the kept entry's line before a last entry without a trailing comma, with CRLF.
        assert_eq!(
            removed(
                Surface::Python,
                &call("\r\n  'b': 2,  # b\r\n  'a': 1\r\n"),
                &["a"]
            ),
            call("\r\n  'b': 2  # b\r\n")
        );
        // With a trailing comma: the run's line goes whole, its own comment with it.
        assert_eq!(
            removed(
                Surface::TypeScript,
                "f.models.generateContent({ model: 'm', config: {\n  b: 2, // b\n  a: 1, // a\n} });\n",
                &["a"]
            ),
            "f.models.generateContent({ model: 'm', config: {\n  b: 2, // b\n} });\n"
        );
        // On one line: a comment after the separator belongs to the entry after it; at the
        // end of a removed entry's line, to that entry.
        assert_eq!(
            removed(
                Surface::TypeScript,
                "f.models.generateContent({ model: 'm', config: { a: 1, /* b */ b: 2 } });\n",
                &["a"]
            ),
            "f.models.generateContent({ model: 'm', config: { /* b */ b: 2 } });\n"
        );
        assert_eq!(
            removed(Surface::Python, &call("'a': 1, # a\n 'b': 2"), &["a"]),
            call("'b': 2")
        );
        // A removed entry's comment directly above it goes with it.
        assert_eq!(
            removed(Surface::Python, &call("\n  # a\n  'a': 1,\n  'b': 2,\n"), &["a"]),
            call("\n  'b': 2,\n")
        );
    }
}
