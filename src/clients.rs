//! The service's client packages (`rules/clients.toml`).

use serde::Deserialize;

pub const BUILTIN_CLIENTS: &str = include_str!("../rules/clients.toml");

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Packages {
    pub current: Vec<String>,
    pub legacy: Vec<String>,
    pub legacy_modules: Vec<String>,
    /// Import paths of the current package: its own project is where its create-content method
    /// is implemented and tested.
    #[serde(default)]
    pub current_modules: Vec<String>,
    /// SDKs of the legacy client's shape that are not the legacy package (Vertex AI's): reported,
    /// never migrated.
    #[serde(default)]
    pub other_legacy_modules: Vec<String>,
    /// Typed wrapper classes of a create-content request (MIG008).
    #[serde(default)]
    pub typed_wrappers: Vec<String>,
    /// The wrappers that exist only for a create-content request (`GenerateContentConfig`):
    /// reported wherever they are built, the others only where they go into a request.
    #[serde(default)]
    pub request_types: Vec<String>,
    /// Fields a wrapper class sets without being told (`UserContent` → `role = "user"`): a
    /// plain object written for it must say them.
    #[serde(default)]
    pub implied_fields: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Clients {
    pub minimum_version: String,
    pub python: Packages,
    pub javascript: Packages,
    /// How each library spells the methods the analyses follow; the built-in one is read
    /// ([`spellings`]), a configuration's is not.
    #[serde(default)]
    pub spelling: Spellings,
    /// How each legacy package spells what its migration units are made of; the built-in one is
    /// read ([`legacy_spellings`]), a configuration's is not.
    #[serde(default)]
    pub legacy_spelling: LegacySpellings,
}

/// The methods of a client library the analyses follow, as the language spells them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Spelling {
    /// The create-content method (`generate_content`).
    pub create: String,
    /// Its streaming form (`generate_content_stream`).
    pub create_stream: String,
    /// A legacy chat's start (`start_chat`).
    pub start_chat: String,
    /// A chat's turn (`send_message`) and its streaming form (`send_message_stream`).
    pub send: String,
    pub send_stream: String,
    /// A result's function calls (`function_calls`) and a part's (`function_call`).
    pub function_calls: String,
    pub function_call: String,
    /// A result's usage (`usage_metadata`) and a candidate's grounding (`grounding_metadata`).
    pub usage: String,
    pub grounding: String,
    /// A result's code execution getters (`executable_code`, `code_execution_result`).
    pub executable_code: String,
    pub code_execution_result: String,
    /// The old client's error classes (`APIError`), which an interactions call does not raise.
    pub errors: Vec<String>,
    /// A result's getter of its first candidate's parts (`parts`), where the client has one.
    #[serde(default)]
    pub parts: Option<String>,
    /// A result's getter of its parsed structured output (`parsed`), where the client has one.
    #[serde(default)]
    pub parsed: Option<String>,
    /// A result's getter of its first candidate's inline data, in base64 (`data`), where the
    /// client has one.
    #[serde(default)]
    pub inline_data: Option<String>,
    /// The module of the client's request types (`google.genai.types`, `@google/genai`).
    pub types_module: String,
    /// The enum of a predecessor config's thinking level there (`ThinkingLevel`).
    pub thinking_level: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spellings {
    pub python: Spelling,
    pub javascript: Spelling,
}

/// What a legacy package's migration units are made of, as the language spells it; a name the
/// package does not have is empty.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LegacySpelling {
    /// The model's create-content method (`generate_content`).
    pub create: String,
    /// Its streaming form (`generateContentStream`; Python streams with `stream=True`).
    #[serde(default)]
    pub create_stream: String,
    /// Its coroutine (`generate_content_async`), reported as the blocking method.
    #[serde(default)]
    pub create_async: String,
    /// The model's token count (`count_tokens`) and its chat's start (`start_chat`).
    pub count: String,
    pub start_chat: String,
    /// The model's settings that make a request's config.
    pub settings: Vec<String>,
    /// The generation config among them, inlined entry by entry.
    pub generation_config: String,
    /// The settings that must be lists (the legacy clients took shorthands too).
    pub lists: Vec<String>,
    /// The strings the legacy client took as `tools` for a built-in tool (`"code_execution"`).
    #[serde(default)]
    pub tool_shorthands: Vec<String>,
    /// The model class, called by its name or through the module (`GenerativeModel`).
    #[serde(default)]
    pub model_class: String,
    /// The model class's constructor from a cached content (`from_cached_content`).
    #[serde(default)]
    pub from_cache: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacySpellings {
    pub python: LegacySpelling,
    pub javascript: LegacySpelling,
}

/// The built-in table, read once (empty were it invalid).
fn builtin() -> &'static Clients {
    static BUILTIN: std::sync::LazyLock<Clients> =
        std::sync::LazyLock::new(|| Clients::builtin().unwrap_or_default());
    &BUILTIN
}

/// The built-in spellings of rules/clients.toml. The table is checked when a run starts
/// ([`Clients::builtin`]) and by a test; were it invalid, no method would match.
pub fn spellings() -> &'static Spellings {
    &builtin().spelling
}

/// The built-in spellings of the legacy packages (rules/clients.toml `[legacy-spelling]`),
/// checked as [`spellings`] are.
pub fn legacy_spellings() -> &'static LegacySpellings {
    &builtin().legacy_spelling
}

impl Clients {
    pub fn builtin() -> anyhow::Result<Self> {
        toml::from_str(BUILTIN_CLIENTS)
            .map_err(|e| anyhow::anyhow!("the built-in table rules/clients.toml is invalid: {e}"))
    }
}

/// A Python package name normalised as pip compares them (PEP 503): `Google_GenAI` → `google-genai`.
pub fn normalize_python_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut dash = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            dash = true;
            continue;
        }
        if dash && !out.is_empty() {
            out.push('-');
        }
        dash = false;
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A version as numbers (`1.10.2` → [1, 10, 2]); pre-release tails are ignored.
pub fn version_numbers(version: &str) -> Vec<u64> {
    version
        .trim()
        .trim_start_matches(['v', 'V'])
        .split('.')
        .map_while(|part| {
            let digits: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        })
        .collect()
}

/// Compares two versions number by number, missing numbers being zero.
pub fn compare_versions(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    let len = a.len().max(b.len());
    for i in 0..len {
        let (x, y) = (a.get(i).copied().unwrap_or(0), b.get(i).copied().unwrap_or(0));
        if x != y {
            return x.cmp(&y);
        }
    }
    std::cmp::Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_versions() {
        assert_eq!(normalize_python_name("Google_GenAI"), "google-genai");
        assert_eq!(
            normalize_python_name("google.generativeai"),
            "google-generativeai"
        );
        assert_eq!(version_numbers("1.10.2rc1"), [1, 10, 2]);
        assert_eq!(compare_versions(&[2], &[2, 0, 0]), std::cmp::Ordering::Equal);
        assert!(Clients::builtin().is_ok());
    }
}

#[cfg(test)]
mod spelling_tests {
    use super::*;

    #[test]
    fn the_builtin_table_spells_every_method_in_both_languages() {
        let spelled = spellings();
        for (language, s) in [("python", &spelled.python), ("javascript", &spelled.javascript)] {
            let all = [
                &s.create,
                &s.create_stream,
                &s.start_chat,
                &s.send,
                &s.send_stream,
                &s.function_calls,
                &s.function_call,
                &s.usage,
                &s.grounding,
                &s.types_module,
                &s.thinking_level,
            ];
            assert!(all.iter().all(|w| !w.is_empty()), "{language}: {s:?}");
        }
        assert_eq!(spelled.python.create, "generate_content");
        assert_eq!(spelled.javascript.send_stream, "sendMessageStream");
    }

    #[test]
    fn the_builtin_table_spells_the_legacy_packages() {
        let spelled = legacy_spellings();
        for (language, s) in [("python", &spelled.python), ("javascript", &spelled.javascript)] {
            let all = [&s.create, &s.count, &s.start_chat, &s.generation_config];
            assert!(all.iter().all(|w| !w.is_empty()), "{language}: {s:?}");
            assert!(s.settings.contains(&s.generation_config), "{language}: {s:?}");
            assert!(
                s.lists.iter().all(|l| s.settings.contains(l)),
                "{language}: {s:?}"
            );
        }
        assert_eq!(spelled.python.model_class, "GenerativeModel");
        assert_eq!(spelled.javascript.create_stream, "generateContentStream");
    }
}
