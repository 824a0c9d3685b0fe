//! The request-field table (`rules/request_fields.toml`): where each field of a predecessor
//! request's config goes in an interactions request, and the thinking-budget mapping.

use serde::Deserialize;

pub const BUILTIN_REQUEST_FIELDS: &str = include_str!("../rules/request_fields.toml");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    GenerationConfig,
    TopLevel,
    Thinking,
    None,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestField {
    pub name: String,
    pub place: Place,
    #[serde(default)]
    pub sampling: bool,
    #[serde(default = "yes")]
    pub safe: bool,
    #[serde(default)]
    pub note: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThinkingLevel {
    pub max: i64,
    pub level: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThinkingMapping {
    pub dynamic: String,
    pub levels: Vec<ThinkingLevel>,
    pub above: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RequestFields {
    pub request_field: Vec<RequestField>,
    pub thinking: ThinkingMapping,
}

impl RequestFields {
    pub fn builtin() -> anyhow::Result<Self> {
        toml::from_str(BUILTIN_REQUEST_FIELDS)
            .map_err(|e| anyhow::anyhow!("the built-in table rules/request_fields.toml is invalid: {e}"))
    }

    /// Adds a team's entries; an entry for a known field replaces the built-in one.
    pub fn extend(&mut self, extra: Vec<RequestField>) {
        for field in extra {
            match self.request_field.iter_mut().find(|f| f.name == field.name) {
                Some(existing) => *existing = field,
                None => self.request_field.push(field),
            }
        }
    }

    /// The entry for a field written in snake_case or camelCase.
    pub fn get(&self, written: &str) -> Option<&RequestField> {
        let snake = snake_case(written);
        self.request_field.iter().find(|f| f.name == snake)
    }

    /// Whether the newest generation rejects the field (`temperature`, `topP`, ...).
    pub fn is_sampling(&self, written: &str) -> bool {
        self.get(written).is_some_and(|f| f.sampling)
    }

    /// Where `thinking_level` goes.
    pub fn thinking_level_place(&self) -> Place {
        self.get("thinking_level")
            .map_or(Place::GenerationConfig, |f| f.place)
    }

    /// The thinking level for a thinking budget.
    pub fn thinking_level(&self, budget: i64) -> &str {
        if budget < 0 {
            return &self.thinking.dynamic;
        }
        self.thinking
            .levels
            .iter()
            .find(|l| budget <= l.max)
            .map_or(&self.thinking.above, |l| &l.level)
    }
}

/// `topP` → `top_p`; snake_case stays as it is.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `top_p` → `topP`.
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_and_mapping() {
        let fields = RequestFields::builtin().expect("valid");
        assert_eq!(fields.get("topP").map(|f| f.place), Some(Place::GenerationConfig));
        assert!(fields.is_sampling("top_k"));
        assert!(!fields.is_sampling("max_output_tokens"));
        let levels: Vec<&str> = [0, 1, 1024, 1025, 8192, 8193, -1]
            .iter()
            .map(|b| fields.thinking_level(*b))
            .collect();
        assert_eq!(
            levels,
            ["minimal", "low", "low", "medium", "medium", "high", "high"]
        );
        assert_eq!(camel_case("max_output_tokens"), "maxOutputTokens");
        assert_eq!(snake_case("maxOutputTokens"), "max_output_tokens");
    }
}
