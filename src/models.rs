//! The model table (`rules/models.toml`) and the whole-token matcher built from it.

use std::ops::Range;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;
use serde::Deserialize;

/// The built-in table, embedded at build time.
pub const BUILTIN_MODELS: &str = include_str!("../rules/models.toml");

/// The neutral brand word the table is written with.
pub const NEUTRAL_PREFIX: &str = "model";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelStatus {
    /// Shut down: a request naming it fails.
    Retired,
    Deprecated,
    MigrationRecommended,
}

impl ModelStatus {
    /// As the model table writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelStatus::Retired => "retired",
            ModelStatus::Deprecated => "deprecated",
            ModelStatus::MigrationRecommended => "migration-recommended",
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    pub id: String,
    pub status: ModelStatus,
    /// The recommended id; none when the service names no successor (the finding then has no
    /// fix).
    #[serde(default)]
    pub replacement: Option<String>,
    /// Versioned variants (`-001`, `-latest`, ...) are reported as this id; `false` when such a
    /// token is another model (`model-pro-latest` is not `model-pro`).
    #[serde(default = "yes")]
    pub variants: bool,
}

fn yes() -> bool {
    true
}

/// A kind of specialised model (image output, live, speech, embeddings): a text model never
/// replaces one (the `[[specialised]]` tables).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Specialised {
    /// As messages name it (`image output`).
    pub kind: String,
    /// The words that name the kind in an id: a whole part of it between dashes.
    pub words: Vec<String>,
    /// Output modalities a request asks for (`response_modalities`) that make a text id's use
    /// one of this kind.
    #[serde(default)]
    pub modalities: Vec<String>,
    /// Calls (the last names of the callee, `live.connect`) whose model is used this way.
    #[serde(default)]
    pub calls: Vec<String>,
    /// The id the service names for the kind's retired models, for the suggestion.
    #[serde(default)]
    pub successor: Option<String>,
    /// Why a replacement of this kind still needs review (its fix is unsafe).
    #[serde(default)]
    pub caution: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ModelFile {
    newest_generation: Vec<String>,
    version_suffixes: Vec<String>,
    #[serde(default)]
    id_prefixes: Vec<String>,
    #[serde(default)]
    provider_prefixes: Vec<String>,
    #[serde(default)]
    answered_by_keys: Vec<String>,
    #[serde(default)]
    tests: TestFiles,
    #[serde(default)]
    specialised: Vec<Specialised>,
    model: Vec<ModelEntry>,
}

/// What makes a file a test, and the calls with which a test compares (the `[tests]` table).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TestFiles {
    folders: Vec<String>,
    files: Vec<String>,
    assertions: Vec<String>,
}

/// Test files and their assertions, for MIG009's fix safety: an id a test compares against is
/// not changed by a safe fix.
#[derive(Clone, Debug, Default)]
pub struct Tests {
    /// Names of folders that hold tests.
    pub folders: Vec<String>,
    /// Names of test files.
    files: globset::GlobSet,
    /// The last names of calls that compare their arguments (`assertEqual`, `toBe`).
    pub assertions: Vec<String>,
}

impl Tests {
    fn new(table: TestFiles) -> anyhow::Result<Self> {
        let mut files = globset::GlobSetBuilder::new();
        for glob in &table.files {
            files.add(
                globset::Glob::new(glob).map_err(|e| {
                    anyhow::anyhow!("rules/models.toml: invalid test file glob `{glob}`: {e}")
                })?,
            );
        }
        Ok(Tests {
            folders: table.folders,
            files: files.build()?,
            assertions: table.assertions,
        })
    }

    /// Whether a file is a test: in a test folder, or named as one.
    pub fn is_test_file(&self, path: &std::path::Path) -> bool {
        let named = path.file_name().is_some_and(|name| self.files.is_match(name));
        named
            || path
                .parent()
                .into_iter()
                .flat_map(|p| p.components())
                .filter_map(|c| c.as_os_str().to_str())
                .any(|c| self.folders.iter().any(|f| f == c))
    }
}

/// Every known model id with its status and replacement, plus the newest generation.
#[derive(Clone, Debug)]
pub struct ModelTable {
    pub entries: Vec<ModelEntry>,
    pub newest_generation: Vec<String>,
    pub version_suffixes: Vec<String>,
    /// What may stand right before an id although it ends with `/`: resource prefixes
    /// (`models/`), anywhere; provider prefixes (`gemini/`), at the start of a token.
    pub id_prefixes: Vec<String>,
    pub provider_prefixes: Vec<String>,
    /// Keys under which a recorded response names the model that answered (`modelVersion`).
    pub answered_by_keys: Vec<String>,
    /// Test files and their assertions.
    pub tests: Tests,
    /// The kinds of specialised model.
    pub specialised: Vec<Specialised>,
}

impl ModelTable {
    pub fn builtin() -> anyhow::Result<Self> {
        let file: ModelFile = toml::from_str(BUILTIN_MODELS)
            .map_err(|e| anyhow::anyhow!("the built-in model table rules/models.toml is invalid: {e}"))?;
        Ok(ModelTable {
            entries: file.model,
            newest_generation: file.newest_generation,
            version_suffixes: file.version_suffixes,
            id_prefixes: file.id_prefixes,
            provider_prefixes: file.provider_prefixes,
            answered_by_keys: file.answered_by_keys,
            tests: Tests::new(file.tests)?,
            specialised: file.specialised,
        })
    }

    /// Adds a team's own entries; an entry with a known id replaces the built-in one.
    pub fn extend(&mut self, extra: Vec<ModelEntry>) {
        for entry in extra {
            match self.entries.iter_mut().find(|e| e.id == entry.id) {
                Some(existing) => *existing = entry,
                None => self.entries.push(entry),
            }
        }
    }
}

impl ModelTable {
    /// The id that replaces a found one, with the brand prefix it was written with: none when
    /// its entry names none, or names one of another kind (a text model for a specialised one,
    /// which it never replaces).
    pub fn replacement(&self, found: &ModelMatch) -> Option<String> {
        let entry = self.entries.get(found.entry)?;
        let replacement = entry.replacement.as_deref()?;
        let same_kind = match (self.kind_of(&entry.id), self.kind_of(replacement)) {
            (None, None) => true,
            (Some(a), Some(b)) => a.kind == b.kind,
            _ => false,
        };
        same_kind.then(|| with_prefix(replacement, &found.prefix))
    }

    /// What may stand right before an id: its resource and provider prefixes.
    pub fn leads(&self) -> Vec<String> {
        self.id_prefixes
            .iter()
            .chain(&self.provider_prefixes)
            .cloned()
            .collect()
    }

    /// The kind of specialised model an id names (`model-2.0-flash-live-001`: live), by a whole
    /// part of it between dashes; `None` for a text model.
    pub fn kind_of(&self, id: &str) -> Option<&Specialised> {
        let id = id.strip_prefix("models/").unwrap_or(id);
        self.specialised.iter().find(|kind| names_kind(id, &kind.words))
    }
}

/// Whether a part of `text` between dashes is one of `words` (ASCII case ignored).
fn names_kind(text: &str, words: &[String]) -> bool {
    text.split('-')
        .any(|part| words.iter().any(|w| w.eq_ignore_ascii_case(part)))
}

/// Writes a table id with a concrete brand prefix: `model-2.0-flash` + `gemini` →
/// `gemini-2.0-flash`. Ids that do not start with the neutral word are used as they are.
pub fn with_prefix(id: &str, prefix: &str) -> String {
    match id
        .strip_prefix(NEUTRAL_PREFIX)
        .filter(|rest| rest.starts_with('-'))
    {
        Some(rest) => format!("{prefix}{rest}"),
        None => id.to_string(),
    }
}

/// One model id found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelMatch {
    /// The whole token, version suffix included, `models/` excluded.
    pub range: Range<usize>,
    pub entry: usize,
    /// The brand prefix written in the text.
    pub prefix: String,
}

/// Finds model ids as whole tokens (SPEC 3.2).
pub struct ModelMatcher {
    automaton: AhoCorasick,
    /// Pattern index → (entry index, prefix, whether the entry takes version suffixes).
    patterns: Vec<(usize, String, bool)>,
    /// The written forms of every id, for the prefilter.
    pub spellings: Vec<String>,
    suffix: Regex,
    /// The words of the specialised kinds, which no version suffix takes in.
    kind_words: Vec<String>,
    id_prefixes: Vec<String>,
    provider_prefixes: Vec<String>,
}

impl ModelMatcher {
    pub fn new(table: &ModelTable, prefixes: &[String]) -> anyhow::Result<Self> {
        let mut spellings = Vec::new();
        let mut patterns = Vec::new();
        // An id written without a brand word (`learnlm-1.5-pro-experimental`, `embedding-001`)
        // takes its replacement with the first brand word that is not the neutral one
        // (`gemini-3.5-flash`, `gemini-embedding-001`).
        let brand = prefixes
            .iter()
            .find(|p| p.as_str() != NEUTRAL_PREFIX)
            .or(prefixes.first())
            .cloned()
            .unwrap_or_else(|| NEUTRAL_PREFIX.to_string());
        for (index, entry) in table.entries.iter().enumerate() {
            let mut seen = Vec::new();
            for prefix in prefixes {
                let spelled = with_prefix(&entry.id, prefix);
                if seen.contains(&spelled) {
                    continue;
                }
                seen.push(spelled.clone());
                let written_prefix =
                    if spelled == entry.id && !entry.id.starts_with(&format!("{NEUTRAL_PREFIX}-")) {
                        brand.clone()
                    } else {
                        prefix.clone()
                    };
                spellings.push(spelled);
                patterns.push((index, written_prefix, entry.variants));
            }
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&spellings)?;
        let alternatives = if table.version_suffixes.is_empty() {
            "(?:$^)".to_string()
        } else {
            table
                .version_suffixes
                .iter()
                .map(|s| format!("(?:{s})"))
                .collect::<Vec<_>>()
                .join("|")
        };
        let suffix = Regex::new(&format!("^(?:{alternatives})"))
            .map_err(|e| anyhow::anyhow!("invalid version suffix pattern: {e}"))?;
        Ok(ModelMatcher {
            automaton,
            patterns,
            spellings,
            suffix,
            kind_words: table
                .specialised
                .iter()
                .flat_map(|kind| kind.words.iter().cloned())
                .collect(),
            id_prefixes: table.id_prefixes.clone(),
            provider_prefixes: table.provider_prefixes.clone(),
        })
    }

    /// Every model id inside `region` of `text`. Boundaries are judged on the whole text, so a
    /// region may be the inside of a string literal.
    pub fn find(&self, text: &str, region: Range<usize>) -> Vec<ModelMatch> {
        let mut found = Vec::new();
        let Some(haystack) = text.get(region.clone()) else {
            return found;
        };
        for m in self.automaton.find_iter(haystack) {
            let start = region.start + m.start();
            let end = region.start + m.end();
            if !self.boundary_before(text, start) {
                continue;
            }
            let (entry, prefix, variants) = &self.patterns[m.pattern().as_usize()];
            let Some(token_end) = self.token_end(text, end, region.end, *variants) else {
                continue;
            };
            found.push(ModelMatch {
                range: start..token_end,
                entry: *entry,
                prefix: prefix.clone(),
            });
        }
        found
    }

    /// Whether an id may start at `start`: after a boundary (SPEC 3.2), a resource prefix
    /// (`models/`), or a provider prefix that starts its token (`"gemini/gemini-2.0-flash"`).
    fn boundary_before(&self, text: &str, start: usize) -> bool {
        let before = &text[..start];
        if self.id_prefixes.iter().any(|p| before.ends_with(p.as_str())) {
            return true;
        }
        if let Some(prefix) = self
            .provider_prefixes
            .iter()
            .find(|p| before.ends_with(p.as_str()))
        {
            return boundary_before(&before[..before.len() - prefix.len()]);
        }
        boundary_before(before)
    }

    /// `text` with every model id in it replaced by its recommended one (an id with none kept).
    pub fn replace_all(&self, table: &ModelTable, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for found in self.find(text, 0..text.len()) {
            let Some(replacement) = table.replacement(&found) else {
                continue;
            };
            out.push_str(&text[at..found.range.start]);
            out.push_str(&replacement);
            at = found.range.end;
        }
        out.push_str(&text[at..]);
        out
    }

    /// Where the token that starts with an id ending at `end` ends: after a version suffix when
    /// there is one (and the id takes `variants`); `None` when the id continues into a longer
    /// name. A suffix that holds a word of a specialised kind (`-exp-image-generation`) makes
    /// another model, not a version.
    fn token_end(&self, text: &str, end: usize, limit: usize, variants: bool) -> Option<usize> {
        if boundary_after(text, end) {
            return Some(end);
        }
        if !variants {
            return None;
        }
        let rest = text.get(end..limit)?;
        let suffix = self.suffix.find(rest)?;
        if names_kind(suffix.as_str(), &self.kind_words) {
            return None;
        }
        let token_end = end + suffix.end();
        boundary_after(text, token_end).then_some(token_end)
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// SPEC 3.2: the character before an id is not a letter, digit, `_`, `.` or `/`, nor a `-` that
/// follows a letter or digit.
fn boundary_before(before: &str) -> bool {
    let mut chars = before.chars().rev();
    match chars.next() {
        None => true,
        Some(c) if is_word_char(c) || c == '.' || c == '/' => false,
        Some('-') => !chars.next().is_some_and(char::is_alphanumeric),
        Some(_) => true,
    }
}

/// SPEC 3.2: the character after an id is not a letter, digit or `_`, nor a `-` or `.` that
/// continues the name.
fn boundary_after(text: &str, end: usize) -> bool {
    let mut chars = text[end..].chars();
    match chars.next() {
        None => true,
        Some(c) if is_word_char(c) => false,
        Some('-' | '.') => !chars.next().is_some_and(is_word_char),
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher() -> (ModelTable, ModelMatcher) {
        let table = ModelTable::builtin().unwrap();
        let prefixes = vec!["model".to_string(), "gemini".to_string()];
        let matcher = ModelMatcher::new(&table, &prefixes).unwrap();
        (table, matcher)
    }

    fn ids(text: &str) -> Vec<(String, String)> {
        let (table, matcher) = matcher();
        matcher
            .find(text, 0..text.len())
            .into_iter()
            .map(|m| (text[m.range].to_string(), table.entries[m.entry].id.clone()))
            .collect()
    }

    #[test]
    fn whole_tokens_only() {
        assert_eq!(
            ids("model-2.0-flash"),
            [("model-2.0-flash".into(), "model-2.0-flash".into())]
        );
        assert_eq!(ids("model-2.0-flash-lite")[0].1, "model-2.0-flash-lite");
        assert!(ids("my-model-2.0-flash").is_empty());
        assert!(ids("model-2.0-flashy").is_empty());
        assert!(ids("model-2.0-flash-proxy").is_empty());
        assert!(ids("model-2.0-flash.v2").is_empty());
        assert!(ids("xgemini-2.0-flash").is_empty());
        assert!(ids("gemini-1.5-flash-8b").is_empty());
        assert!(ids("a.gemini-2.0-flash").is_empty());
        assert!(ids("gemini_2_0_flash").is_empty());
    }

    #[test]
    fn variants_are_reported_as_their_base_id() {
        assert_eq!(ids("\"gemini-1.5-flash-002\"")[0].0, "gemini-1.5-flash-002");
        assert_eq!(ids("gemini-1.5-pro-latest")[0].1, "model-1.5-pro");
        assert_eq!(ids("gemini-2.0-flash-exp")[0].0, "gemini-2.0-flash-exp");
        assert_eq!(ids("gemini-1.5-flash-exp-0827")[0].0, "gemini-1.5-flash-exp-0827");
        assert_eq!(
            ids("models/gemini-2.0-flash:generateContent")[0].0,
            "gemini-2.0-flash"
        );
        assert_eq!(ids("${MODEL:-model-2.5-pro}")[0].0, "model-2.5-pro");
        assert_eq!(ids("Use gemini-2.0-flash.")[0].0, "gemini-2.0-flash");
        assert_eq!(ids("gemini-2.0-flash-001-x").len(), 0);
    }

    /// A router's provider prefix starts a request's id (LiteLLM `gemini/`, `vertex_ai/`,
    /// OpenRouter `google/`); inside a path it does not.
    #[test]
    fn provider_prefixes_start_an_id_only_at_the_start_of_a_token() {
        assert_eq!(ids(r#"model="gemini/gemini-1.5-flash""#)[0].0, "gemini-1.5-flash");
        assert_eq!(ids("'google/gemini-2.0-flash-001'")[0].0, "gemini-2.0-flash-001");
        assert_eq!(ids("vertex_ai/gemini-1.5-pro")[0].0, "gemini-1.5-pro");
        assert_eq!(ids("\"google/gemini-pro\"")[0].0, "gemini-pro");
        assert!(ids("assets/gemini/gemini-1.5-flash/x").is_empty());
        assert!(ids("docs/gemini-1.5-flash").is_empty());
        assert!(ids("mygemini/gemini-1.5-flash").is_empty());
    }

    #[test]
    fn test_files_by_folder_and_name() {
        let (table, _) = matcher();
        let tests = &table.tests;
        for path in [
            "repo/tests/helpers.py",
            "src/__tests__/a.ts",
            "pkg/test_models.py",
            "pkg/models_test.py",
            "conftest.py",
            "src/models.test.tsx",
            "src/models.spec.js",
        ] {
            assert!(tests.is_test_file(std::path::Path::new(path)), "{path}");
        }
        for path in [
            "src/models.py",
            "src/testing.py",
            "tests.py",
            "src/contest.py",
            "latest/app.ts",
        ] {
            assert!(!tests.is_test_file(std::path::Path::new(path)), "{path}");
        }
        assert!(tests.assertions.iter().any(|a| a == "assertEqual"));
    }

    /// The entry an id is reported as, its status and the replacement written for it.
    fn reported(text: &str) -> Option<(String, String, Option<String>)> {
        let (table, matcher) = matcher();
        let found = matcher.find(text, 0..text.len()).into_iter().next()?;
        let entry = &table.entries[found.entry];
        Some((
            entry.id.clone(),
            entry.status.as_str().to_string(),
            table.replacement(&found),
        ))
    }

    #[test]
    fn specialised_ids_are_not_versions_of_text_ids() {
        // Each is its own entry, of its kind, never replaced by a text model.
        for (id, entry, replacement) in [
            (
                "gemini-2.0-flash-preview-image-generation",
                "model-2.0-flash-preview-image-generation",
                None,
            ),
            (
                "gemini-2.0-flash-exp-image-generation",
                "model-2.0-flash-exp-image-generation",
                None,
            ),
            (
                "gemini-2.5-flash-image-preview",
                "model-2.5-flash-image-preview",
                None,
            ),
            (
                "gemini-2.0-flash-live-001",
                "model-2.0-flash-live-001",
                Some("gemini-2.5-flash-native-audio-preview-12-2025"),
            ),
            (
                "gemini-live-2.5-flash-preview",
                "model-live-2.5-flash-preview",
                Some("gemini-2.5-flash-native-audio-preview-12-2025"),
            ),
            ("text-embedding-004", "text-embedding-004", None),
            (
                "models/embedding-001",
                "embedding-001",
                Some("gemini-embedding-001"),
            ),
            (
                "gemini-embedding-exp-03-07",
                "model-embedding-exp-03-07",
                Some("gemini-embedding-001"),
            ),
        ] {
            let (found, status, written) = reported(&format!("\"{id}\"")).expect(id);
            assert_eq!(found, entry, "{id}");
            assert_eq!(status, "retired", "{id}");
            assert_eq!(written.as_deref(), replacement, "{id}");
        }
        // Served specialised models are no finding, and no version of a text model.
        for id in [
            "gemini-2.5-flash-preview-tts",
            "gemini-2.5-pro-preview-tts",
            "gemini-2.5-flash-image",
            "gemini-2.5-flash-native-audio-preview-09-2025",
            "gemini-2.5-flash-preview-native-audio-dialog",
            "gemini-2.5-flash-exp-native-audio-thinking-dialog",
            "gemini-embedding-001",
            "gemini-2.0-flash-exp-tts",
        ] {
            assert!(ids(id).is_empty(), "{id}: {:?}", ids(id));
        }
        // `-exp` alone is still a version of the text model.
        assert_eq!(
            reported("gemini-2.0-flash-exp").map(|r| r.0),
            Some("model-2.0-flash".to_string())
        );
    }

    #[test]
    fn no_version_suffix_takes_in_a_kind_word() {
        let mut table = ModelTable::builtin().unwrap();
        // A team's broad suffix would take `-exp-native-audio` in.
        table.version_suffixes.insert(0, "-exp(-[a-z]+)+".to_string());
        let matcher = ModelMatcher::new(&table, &["gemini".to_string()]).unwrap();
        let text = "gemini-2.0-flash-exp-native-audio gemini-2.0-flash-exp-image gemini-2.0-flash-exp-fast";
        let found: Vec<&str> = matcher
            .find(text, 0..text.len())
            .into_iter()
            .map(|m| &text[m.range])
            .collect();
        assert_eq!(found, ["gemini-2.0-flash-exp-fast"]);
    }

    #[test]
    fn retired_ids_are_whole_tokens() {
        for (text, entry) in [
            ("gemini-pro", "model-pro"),
            ("gemini-pro-vision", "model-pro-vision"),
            ("model-pro", "model-pro"),
            ("\"gemini-1.0-pro-001\"", "model-1.0-pro"),
            ("gemini-1.0-pro-latest", "model-1.0-pro"),
            ("gemini-1.0-pro-vision-latest", "model-1.0-pro-vision"),
            ("models/gemini-exp-1206", "model-exp-1206"),
            ("gemini-2.0-flash-thinking-exp", "model-2.0-flash-thinking-exp"),
            (
                "gemini-2.0-flash-thinking-exp-01-21",
                "model-2.0-flash-thinking-exp-01-21",
            ),
            (
                "gemini-2.0-flash-thinking-exp-1219",
                "model-2.0-flash-thinking-exp-1219",
            ),
            ("gemini-2.0-pro-exp-02-05", "model-2.0-pro-exp-02-05"),
            ("learnlm-1.5-pro-experimental", "learnlm-1.5-pro-experimental"),
            ("gemini-2.5-pro-preview-05-06", "model-2.5-pro-preview-05-06"),
        ] {
            let (found, status, _) = reported(text).expect(text);
            assert_eq!((found.as_str(), status.as_str()), (entry, "retired"), "{text}");
        }
        // Other models and other names.
        for text in [
            "gemini-pro-latest",
            "gemini-pro-1.5",
            "gemini-pro-vision-latest",
            "gemini-pro-badge",
            "gemini-pro.png",
            "images/google/gemini-pro",
            "my-gemini-pro",
            "gemini-1.0-ultra",
            "gemini-1.0-pro-tuned",
            "gemini-exp-1207",
            "learnlm-2.0-flash-experimental",
        ] {
            assert!(ids(text).is_empty(), "{text}: {:?}", ids(text));
        }
        // A still served preview of 2.5 Pro stays a version of it.
        assert_eq!(
            reported("gemini-2.5-pro-preview-01-01").map(|r| r.0),
            Some("model-2.5-pro".to_string())
        );
    }

    #[test]
    fn an_unbranded_id_takes_the_brand_word_of_the_configuration() {
        assert_eq!(
            reported("learnlm-1.5-pro-experimental").and_then(|r| r.2),
            Some("gemini-3.5-flash".to_string())
        );
        let table = ModelTable::builtin().unwrap();
        let matcher = ModelMatcher::new(&table, &["acme".to_string()]).unwrap();
        let found = matcher.find("embedding-001", 0..13);
        assert_eq!(
            table.replacement(&found[0]).as_deref(),
            Some("acme-embedding-001")
        );
    }

    #[test]
    fn the_table_never_replaces_a_model_by_one_of_another_kind() {
        let (table, _) = matcher();
        for entry in &table.entries {
            if let Some(replacement) = &entry.replacement {
                assert_eq!(
                    table.kind_of(&entry.id).map(|k| &k.kind),
                    table.kind_of(replacement).map(|k| &k.kind),
                    "{} -> {replacement}",
                    entry.id
                );
            }
        }
        // A team's entry that would: no replacement is written.
        let mut table = ModelTable::builtin().unwrap();
        table.extend(vec![ModelEntry {
            id: "model-2.0-flash-live-001".to_string(),
            status: ModelStatus::Deprecated,
            replacement: Some("model-3.5-flash".to_string()),
            variants: true,
        }]);
        let matcher = ModelMatcher::new(&table, &["gemini".to_string()]).unwrap();
        let found = matcher.find("gemini-2.0-flash-live-001", 0..25);
        assert_eq!(table.replacement(&found[0]), None);
    }

    #[test]
    fn prefixes_are_recorded() {
        let (_, matcher) = matcher();
        let text = "gemini-2.5-pro and model-2.5-pro";
        let found = matcher.find(text, 0..text.len());
        assert_eq!(found[0].prefix, "gemini");
        assert_eq!(found[1].prefix, "model");
        assert_eq!(
            with_prefix("model-3.1-pro-preview", "gemini"),
            "gemini-3.1-pro-preview"
        );
    }
}
