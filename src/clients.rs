//! The service's client packages (`rules/clients.toml`).

use serde::Deserialize;

pub const BUILTIN_CLIENTS: &str = include_str!("../rules/clients.toml");

#[derive(Clone, Debug, Deserialize)]
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

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Clients {
    pub minimum_version: String,
    pub python: Packages,
    pub javascript: Packages,
    /// How each library spells the methods the analyses follow; the built-in one is read
    /// ([`spellings`]), a configuration's is not.
    #[serde(default)]
    pub spelling: Spellings,
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

/// The built-in spellings of rules/clients.toml. The table is checked when a run starts
/// ([`Clients::builtin`]) and by a test; were it invalid, no method would match.
pub fn spellings() -> &'static Spellings {
    static SPELLINGS: std::sync::LazyLock<Spellings> = std::sync::LazyLock::new(|| {
        Clients::builtin()
            .map(|clients| clients.spelling)
            .unwrap_or_default()
    });
    &SPELLINGS
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
}
