//! Property tests of the fix engine.

use interlint::diagnostic::{Edit, Fix};
use interlint::fix::{apply_fixes, plan_fixes};
use interlint::source::LineEnding;
use proptest::prelude::*;

/// Char-boundary offsets of a text.
fn boundaries(text: &str) -> Vec<usize> {
    let mut b: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    b.push(text.len());
    b
}

/// Applies edits from the end: the obvious reference.
fn reference(text: &str, edits: &[Edit]) -> String {
    let mut out = text.to_string();
    let mut sorted = edits.to_vec();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.range.start));
    for e in sorted {
        out.replace_range(e.range.clone(), &e.content);
    }
    out
}

fn text_strategy() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zé€\n \"#]{0,60}").expect("valid regex")
}

proptest! {
    #[test]
    fn non_overlapping_edits_equal_the_reference(
        text in text_strategy(),
        picks in proptest::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), "[a-z\n]{0,4}"), 0..8),
    ) {
        let b = boundaries(&text);
        // Sorted distinct cut points, paired into disjoint ranges with a gap between them.
        let mut cuts: Vec<usize> = picks.iter().flat_map(|(x, y, _)| [x.get(&b), y.get(&b)]).copied().collect();
        cuts.sort();
        cuts.dedup();
        let mut edits = Vec::new();
        let mut last_end: Option<usize> = None;
        for (pair, (_, _, content)) in cuts.chunks(2).zip(&picks) {
            let (start, end) = (pair[0], *pair.get(1).unwrap_or(&pair[0]));
            if last_end.is_some_and(|e| start <= e) {
                continue;
            }
            edits.push(Edit::replace(start..end, content.clone()));
            last_end = Some(end);
        }
        let fixes: Vec<Fix> = edits.iter().map(|e| Fix::safe("t", vec![e.clone()])).collect();
        let (out, applied) = apply_fixes(&text, &fixes, LineEnding::Lf);
        prop_assert_eq!(applied, edits.len());
        prop_assert_eq!(out, reference(&text, &edits));
    }

    #[test]
    fn overlapping_fixes_are_never_both_applied(
        text in text_strategy(),
        picks in proptest::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), "[a-z]{0,3}"), 0..10),
    ) {
        let b = boundaries(&text);
        let fixes: Vec<Fix> = picks
            .iter()
            .map(|(x, y, content)| {
                let (s, e) = (*x.get(&b), *y.get(&b));
                Fix::safe("t", vec![Edit::replace(s.min(e)..s.max(e), content.clone())])
            })
            .collect();
        let chosen = plan_fixes(&text, &fixes);
        for pair in chosen.windows(2) {
            prop_assert!(pair[1].start() > pair[0].end(), "overlap: {:?}", pair);
        }
        // What is applied is exactly the chosen fixes, and at least one when any was given.
        let edits: Vec<Edit> = chosen.iter().flat_map(|f| f.edits.clone()).collect();
        let (out, applied) = apply_fixes(&text, &fixes, LineEnding::Lf);
        prop_assert_eq!(applied, chosen.len());
        prop_assert_eq!(applied == 0, fixes.is_empty());
        prop_assert_eq!(out, reference(&text, &edits));
    }

    #[test]
    fn multi_edit_fixes_apply_whole_or_not_at_all(
        text in "[a-z]{20,40}",
        a in 0usize..10, b in 0usize..10,
    ) {
        // Fix one: two edits around fix two's single edit, which overlaps the first edit.
        let one = Fix::safe("one", vec![Edit::replace(a..a + 2, "X"), Edit::replace(a + 6..a + 7, "Y")]);
        let two = Fix::safe("two", vec![Edit::replace(a + 1..a + 1 + b.min(3), "Z")]);
        let (out, applied) = apply_fixes(&text, [&one, &two], LineEnding::Lf);
        prop_assert_eq!(applied, 1);
        prop_assert_eq!(out, reference(&text, &one.edits));
    }
}
