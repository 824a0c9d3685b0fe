//! The prefilter: one multi-word search over a file's bytes says which rules can report on it,
//! before anything is decoded or parsed.
//!
//! A rule runs on a file that holds one of its trigger words and, when the rule has anchors,
//! one of those too ([`Rule::anchors`]): `temperature` or `mcp` alone, ordinary words of other
//! code, make no parse; next to a model id or a `FastMCP` import they do.

use aho_corasick::AhoCorasick;

use crate::registry::Rule;
use crate::settings::Settings;

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
    search: Option<AhoCorasick>,
    words: Vec<String>,
    /// One per rule, in the order of the rules the prefilter was built for.
    needs: Vec<Need>,
}

impl Prefilter {
    pub fn new(rules: &[&'static dyn Rule], settings: &Settings) -> anyhow::Result<Self> {
        let mut words: Vec<String> = Vec::new();
        let mut index = |word: String| match words.iter().position(|w| *w == word) {
            Some(i) => i,
            None => {
                words.push(word);
                words.len() - 1
            }
        };
        let mut needs = Vec::with_capacity(rules.len());
        for rule in rules {
            let triggers: Vec<usize> = rule.triggers(settings).into_iter().map(&mut index).collect();
            let anchors = rule
                .anchors(settings)
                .map(|a| a.into_iter().map(&mut index).collect());
            needs.push(Need { triggers, anchors });
        }
        let search = if words.is_empty() {
            None
        } else {
            Some(AhoCorasick::new(&words)?)
        };
        Ok(Prefilter { search, words, needs })
    }

    /// Every word searched for, triggers and anchors.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// For each rule, whether the bytes hold what it needs. The search stops as soon as every
    /// rule is decided.
    pub fn select(&self, bytes: &[u8]) -> Vec<bool> {
        let mut met = vec![false; self.needs.len()];
        let Some(search) = &self.search else {
            return met;
        };
        let mut seen = vec![false; self.words.len()];
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
                break;
            }
        }
        met
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LoadedConfig;
    use crate::settings::Overrides;

    fn selected(text: &str) -> Vec<&'static str> {
        let settings = Settings::new(
            &LoadedConfig::default(),
            Overrides::default(),
            std::path::Path::new("."),
        )
        .expect("built-in settings");
        let met = settings.prefilter.select(text.as_bytes());
        settings
            .rules
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
