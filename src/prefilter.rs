//! The prefilter: one multi-word search over a file's bytes says which rules can report on it,
//! before anything is decoded or parsed.
//!
//! A rule runs on a file that holds one of its trigger words and, when the rule has anchors,
//! one of those too ([`Rule::anchors`](crate::registry::Rule::anchors)): `temperature` or `mcp`
//! alone, ordinary words of other code, make no parse; next to a model id or a `FastMCP` import
//! they do. The prefilter is given the words, not the rules.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// The words of one rule: its triggers, and its anchors if it has any.
#[derive(Debug)]
pub struct Words {
    pub triggers: Vec<String>,
    pub anchors: Option<Vec<String>>,
}

/// What one rule needs to find in a file: indices into the searched words.
#[derive(Debug)]
struct Need {
    triggers: Vec<usize>,
    anchors: Option<Vec<usize>>,
}

impl Need {
    fn met(&self, seen: &[bool]) -> bool {
        let any = |words: &[usize]| words.iter().any(|&w| seen[w]);
        any(&self.triggers) && self.anchors.as_deref().is_none_or(any)
    }
}

#[derive(Debug, Default)]
pub struct Prefilter {
    /// The first stage: no rule can run on a file without one of these words (every rule's
    /// anchors, or its triggers when it has none; a word that holds another is left out). Few
    /// and specific, they are searched with a vectorised prefilter, and most files stop here.
    gate: Option<AhoCorasick>,
    #[cfg_attr(not(test), allow(dead_code))]
    gate_words: usize,
    /// The second stage: every word, in the order of `words`, searched overlapping: every
    /// word found at every position, in one pass.
    search: Option<AhoCorasick>,
    words: Vec<String>,
    /// One per rule, in the order of the rules the prefilter was built for.
    needs: Vec<Need>,
}

impl Prefilter {
    /// The prefilter of rules with these words, one [`Words`] per rule.
    pub fn new(rules: Vec<Words>) -> anyhow::Result<Self> {
        let mut words: Vec<String> = Vec::new();
        let mut index = |word: String| match words.iter().position(|w| *w == word) {
            Some(i) => i,
            None => {
                words.push(word);
                words.len() - 1
            }
        };
        let mut needs = Vec::with_capacity(rules.len());
        let mut gate: Vec<String> = Vec::new();
        for rule in rules {
            let trigger_words = rule.triggers;
            let anchors = rule.anchors;
            gate.extend(anchors.clone().unwrap_or_else(|| trigger_words.clone()));
            let triggers: Vec<usize> = trigger_words.into_iter().map(&mut index).collect();
            let anchors = anchors.map(|a| a.into_iter().map(&mut index).collect());
            needs.push(Need { triggers, anchors });
        }
        gate.sort();
        gate.dedup();
        let cover: Vec<&String> = gate
            .iter()
            .filter(|word| {
                !gate
                    .iter()
                    .any(|other| other != *word && word.contains(other.as_str()))
            })
            .collect();
        let gate_words = cover.len();
        let gate = automaton(cover.into_iter(), MatchKind::LeftmostFirst)?;
        let search = automaton(words.iter(), MatchKind::Standard)?;
        Ok(Prefilter {
            gate,
            gate_words,
            search,
            words,
            needs,
        })
    }

    /// Every word searched for, triggers and anchors.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// For each rule, whether the bytes hold what it needs. The search stops as soon as every
    /// rule is decided.
    ///
    /// One overlapping search visits every word at every position (`gemini-` inside
    /// `gemini-1.5-flash`, words inside and across other words), skipping ahead between
    /// candidates with the automaton's literal prefilter, as `rg` does.
    pub fn select(&self, bytes: &[u8]) -> Vec<bool> {
        self.select_parts(&[bytes])
    }

    /// [`Prefilter::select`] of the bytes of `parts` together, where no word spans two parts
    /// (the parts of a notebook that are read).
    pub fn select_parts(&self, parts: &[&[u8]]) -> Vec<bool> {
        let mut met = vec![false; self.needs.len()];
        let (Some(gate), Some(search)) = (&self.gate, &self.search) else {
            return met;
        };
        if !parts.iter().any(|bytes| gate.is_match(bytes)) {
            return met;
        }
        let mut seen = vec![false; self.words.len()];
        for bytes in parts {
            for found in search.find_overlapping_iter(bytes) {
                let word = found.pattern().as_usize();
                if std::mem::replace(&mut seen[word], true) {
                    continue;
                }
                let mut all = true;
                for (need, met) in self.needs.iter().zip(met.iter_mut()) {
                    *met = *met || need.met(&seen);
                    all &= *met;
                }
                if all {
                    return met;
                }
            }
        }
        met
    }
}

/// A search for any of `words` (literals; pattern `i` is the `i`-th word); `None` for no words.
/// A DFA: a few hundred words make a contiguous NFA's transitions the search's cost, and a
/// DFA's table is small at this size. aho-corasick puts its vectorised (Teddy) or rare-byte
/// prefilter in front of either, as the regex engine does for literals.
fn automaton<'a>(
    words: impl Iterator<Item = &'a String>,
    kind: MatchKind,
) -> anyhow::Result<Option<AhoCorasick>> {
    let words: Vec<&String> = words.collect();
    if words.is_empty() {
        return Ok(None);
    }
    Ok(Some(
        AhoCorasick::builder()
            .match_kind(kind)
            .kind(Some(AhoCorasickKind::DFA))
            .build(words)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::registry::all_rules;
    use crate::tables::Tables;

    /// The prefilter of every rule with the built-in tables, as the settings of a run without a
    /// configuration build it.
    static PREFILTER: std::sync::LazyLock<Prefilter> = std::sync::LazyLock::new(|| {
        let tables = Tables::new(&Config::default(), &[]).expect("built-in tables");
        let words = all_rules().iter().map(|rule| Words {
            triggers: rule.triggers(&tables),
            anchors: rule.anchors(&tables),
        });
        Prefilter::new(words.collect()).expect("built-in prefilter")
    });

    fn selected(text: &str) -> Vec<&'static str> {
        let met = PREFILTER.select(text.as_bytes());
        all_rules()
            .iter()
            .zip(met)
            .filter(|(_, m)| *m)
            .map(|(r, _)| r.meta().code)
            .collect()
    }

    #[test]
    fn ordinary_words_alone_select_nothing() {
        assert!(selected("temperature = 0.7\nmcp_client = connect()\n").is_empty());
        assert!(selected("const mcp = new Client(); // top_k, genai, interactions").is_empty());
        assert!(selected("response_format = {'type': 'json_object'}\n").is_empty());
    }

    #[test]
    fn words_inside_and_across_other_words_are_found() {
        // `model-2.0-flash` starts `model-2.0-flash-lite`; `genai` ends `import genai`.
        assert_eq!(selected("x = 'model-2.0-flash-lite'"), ["MIG009"]);
        let codes = selected("from google import genai\n");
        assert!(codes.contains(&"MIG008"), "{codes:?}");
        let codes = selected("import google.generativeai\n");
        assert!(codes.contains(&"MIG011"), "{codes:?}");
    }

    proptest::proptest! {
        /// The search finds exactly the words a plain substring test finds, in texts made of
        /// words cut and glued together.
        #[test]
        fn the_search_finds_every_word_a_substring_test_finds(
            pieces in proptest::collection::vec((0usize..200, 0usize..40, 0usize..40, "[ .a-z]{0,3}"), 0..12)
        ) {
            let words = PREFILTER.words();
            let mut text = String::new();
            for (word, from, to, glue) in pieces {
                let word = &words[word % words.len()];
                let (from, to) = (from.min(word.len()), to.min(word.len()));
                text.push_str(word.get(from.min(to)..to.max(from)).unwrap_or(word));
                text.push_str(&glue);
            }
            let seen: Vec<bool> = words.iter().map(|w| text.contains(w.as_str())).collect();
            let expected: Vec<bool> = PREFILTER.needs.iter().map(|n| n.met(&seen)).collect();
            proptest::prop_assert_eq!(PREFILTER.select(text.as_bytes()), expected, "{}", text);
        }
    }

    #[test]
    fn the_first_stage_is_small_enough_for_the_vectorised_search() {
        // aho-corasick's vectorised (Teddy) literal search takes up to 64 words.
        let n = PREFILTER.gate_words;
        assert!((1..=64).contains(&n), "{n} words");
    }

    #[test]
    fn an_anchor_lets_the_rules_whose_words_are_there_run() {
        let codes = selected("from google import genai\nconfig = {'temperature': 0}\n");
        assert!(codes.contains(&"MIG010"), "{codes:?}");
        assert!(codes.contains(&"MIG008"), "{codes:?}");
        assert!(!codes.contains(&"MIG006"), "{codes:?}");
        assert!(!codes.contains(&"MCP001"), "{codes:?}");
        assert_eq!(selected("model = 'gemini-2.0-flash'\n"), ["MIG009"]);
        let codes = selected("from mcp.server.fastmcp import FastMCP\n");
        assert!(
            codes.contains(&"MCP001") && codes.contains(&"MCP007"),
            "{codes:?}"
        );
        assert!(!codes.iter().any(|c| c.starts_with("MIG")), "{codes:?}");
    }
}
