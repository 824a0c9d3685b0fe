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
