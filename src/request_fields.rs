//! The request-field table (`rules/request_fields.toml`): where each field of a predecessor
//! request's config goes in an interactions request, and the thinking-budget mapping.

use std::collections::BTreeMap;

use serde::Deserialize;

pub const BUILTIN_REQUEST_FIELDS: &str = include_str!("../rules/request_fields.toml");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    GenerationConfig,
    TopLevel,
    /// A config object whose entries are placed one by one (`thinking_config`).
    Nested,
    Thinking,
    /// A setting of each content of the input whose kind takes it (`media_resolution` →
    /// each image's and video's `resolution`).
    Content,
    /// An option of the call rather than a field of the request (JavaScript's `abortSignal`,
    /// the second argument's `signal`: `interactions.create(params, { signal })`).
    RequestOption,
    /// No counterpart, and none needed: a setting of how the old endpoint sampled (`top_k`, the
    /// penalties) that the unsafe rewrite drops, naming it and its value.
    Drop,
    None,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RequestField {
    pub name: String,
    pub place: Place,
    /// The config object the field sits in (`thinking_config`); `None`: the config itself.
    #[serde(default)]
    pub within: Option<String>,
    /// Its name in an interactions request, when it differs (`include_thoughts` →
    /// `thinking_summaries`).
    #[serde(default)]
    pub rename: Option<String>,
    /// A literal value → the value in an interactions request (`ANY` → `any`).
    #[serde(default)]
    pub values: Option<BTreeMap<String, String>>,
    /// The interactions endpoint takes a plain string.
    #[serde(default)]
    pub string: bool,
    /// The value's own keys are written in snake_case too.
    #[serde(default)]
    pub snake_keys: bool,
    /// The value is a list of objects whose keys are renamed by this map (an unlisted key has
    /// no place), each value a string or an enum member written in lower case without
    /// `item_value_prefix` (`HARM_CATEGORY_HATE_SPEECH` → `hate_speech`).
    #[serde(default)]
    pub item_keys: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub item_value_prefix: Option<String>,
    #[serde(default)]
    pub sampling: bool,
    #[serde(default = "yes")]
    pub safe: bool,
    #[serde(default)]
    pub note: Option<String>,
    /// The value the service assumed when the field was absent (`candidate_count = 1`): an
    /// entry holding it as a literal is dropped ([`Place::Drop`]); any other value keeps the
    /// field's own place.
    #[serde(default)]
    pub default: Option<i64>,
    /// The value is a predecessor speech config, written as the interactions list of
    /// `{voice, language, speaker}`.
    #[serde(default)]
    pub speech: bool,
    /// The model families a request's model belongs to where the field has its place
    /// (`model-3`: `model-3-flash-preview`, `model-3.1-pro-preview`, ...); a request to
    /// another model keeps the field, with the note. Empty: the newest generation.
    #[serde(default)]
    pub models: Vec<String>,
}

impl RequestField {
    /// The name the field has in an interactions request.
    pub fn target(&self) -> &str {
        self.rename.as_deref().unwrap_or(&self.name)
    }

    /// The interactions value for a literal written in the old request (either case).
    pub fn mapped_value(&self, literal: &str) -> Option<&str> {
        self.values
            .as_ref()?
            .iter()
            .find(|(old, _)| old.eq_ignore_ascii_case(literal))
            .map(|(_, new)| new.as_str())
    }
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
    pub usage: UsageMapping,
    pub function_calls: FunctionCallsMapping,
    /// The interactions contents by kind (`image`, ...): their mime types and path extensions.
    pub contents: std::collections::BTreeMap<String, ContentKind>,
    /// A part's own media resolution (`PartMediaResolutionLevel` member) → an image or video
    /// content's `resolution`.
    #[serde(default)]
    pub part_resolution: std::collections::BTreeMap<String, String>,
    /// Built-in tools whose old declaration is an empty object (`{"google_search": {}}`) and
    /// whose interactions tool is its type alone (`{"type": "google_search"}`).
    #[serde(default)]
    pub type_only_tools: Vec<String>,
    /// Built-in tools whose settings the interactions tool has under the same names: each
    /// tool's settings carried over.
    #[serde(default)]
    pub flat_tools: std::collections::BTreeMap<String, Vec<String>>,
    /// The sources of the old `retrieval` tool, as the interactions `retrieval` tool names them.
    #[serde(default)]
    pub retrieval_source: Vec<RetrievalSource>,
    /// Reads of a response's grounding metadata as reads of an interaction's steps.
    #[serde(default)]
    pub grounding_read: Vec<GroundingRead>,
}

/// A source of the old `retrieval` tool (`vertex_rag_store`) as the interactions `retrieval`
/// tool names it (the `[[retrieval-source]]` table of `rules/request_fields.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RetrievalSource {
    /// The old source's key.
    pub old: String,
    /// Its member of the new tool's `retrieval_types`.
    pub retrieval_type: String,
    /// The new tool's key of the source's settings.
    pub config: String,
    /// Settings carried over: old name → new.
    #[serde(default)]
    pub fields: std::collections::BTreeMap<String, String>,
    /// A setting naming one value, listed under the new name.
    #[serde(default)]
    pub one_item_lists: std::collections::BTreeMap<String, String>,
    /// A list setting whose values each become an object of one key: old name → [new name, key].
    #[serde(default)]
    pub item_maps: std::collections::BTreeMap<String, (String, String)>,
}

/// A read of a first candidate's grounding metadata (`metadata`, then `after`) as a read of the
/// interaction's steps (the `[[grounding-read]]` table of `rules/request_fields.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GroundingRead {
    /// `grounding_metadata` or `url_context_metadata`.
    pub metadata: String,
    /// What is read of the metadata, dotted and in snake_case; empty: the metadata whole.
    pub after: String,
    /// The types of the steps read.
    #[serde(default)]
    pub steps: Vec<String>,
    /// The list of each step whose items are read (`arguments.queries`); absent: the step.
    #[serde(default)]
    pub items: Option<String>,
    /// The member read of each item; absent: the item.
    #[serde(default)]
    pub member: Option<String>,
    /// The first value or none, instead of the list.
    #[serde(default)]
    pub first: bool,
    /// The annotations of this type of the answer's text contents, instead of steps.
    #[serde(default)]
    pub annotations: Option<String>,
    /// Rewritten only where the value is shown.
    #[serde(default)]
    pub shown: bool,
}

/// The mime types an interactions content of one kind declares, and the path extensions of
/// files of that kind.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ContentKind {
    pub mime_types: Vec<String>,
    pub extensions: Vec<String>,
    /// The settings a content of this kind has of its own (`resolution`).
    #[serde(default)]
    pub takes: Vec<String>,
    /// The mime type of a file of this kind by its path's extension, where the content is the
    /// file read from its path (a PIL image opened from one).
    #[serde(default)]
    pub extension_mime_types: std::collections::BTreeMap<String, String>,
    /// A mime type naming any file of this kind (`video/*`): the content is of this kind, and
    /// names no mime type.
    #[serde(default)]
    pub any_mime_type: Option<String>,
    /// The starts of URLs of files of this kind that need no mime type (a YouTube URL).
    #[serde(default)]
    pub uri_prefixes: Vec<String>,
}

/// The built-in table's contents (they are not configurable): the kind of a mime type.
pub fn content_kind_of_mime(mime: &str) -> Option<&'static str> {
    builtin_contents()
        .iter()
        .find(|(_, kind)| kind.mime_types.iter().any(|m| m == mime))
        .map(|(name, _)| name.as_str())
}

/// The kind whose mime type of any file of it is `mime` (`video/*` → `video`).
pub fn content_kind_of_any_mime(mime: &str) -> Option<&'static str> {
    builtin_contents()
        .iter()
        .find(|(_, kind)| kind.any_mime_type.as_deref() == Some(mime))
        .map(|(name, _)| name.as_str())
}

/// The kind of the file a URL names, when the URL needs no mime type (a YouTube URL → `video`).
pub fn content_kind_of_uri(uri: &str) -> Option<&'static str> {
    builtin_contents()
        .iter()
        .find(|(_, kind)| kind.uri_prefixes.iter().any(|p| uri.starts_with(p.as_str())))
        .map(|(name, _)| name.as_str())
}

/// Whether a content of `kind` (`image`) has the setting `setting` (`resolution`) of its own.
pub fn content_kind_takes(kind: &str, setting: &str) -> bool {
    builtin_contents()
        .get(kind)
        .is_some_and(|k| k.takes.iter().any(|s| s == setting))
}

/// The kind of a file by its path's extension (lower case, without the dot).
pub fn content_kind_of_extension(extension: &str) -> Option<&'static str> {
    builtin_contents()
        .iter()
        .find(|(_, kind)| kind.extensions.iter().any(|e| e == extension))
        .map(|(name, _)| name.as_str())
}

/// The kind and mime type of a file read from its path, by the path's extension (lower case,
/// without the dot): `("image", "image/jpeg")` for `jpg`.
pub fn content_of_extension(extension: &str) -> Option<(&'static str, &'static str)> {
    builtin_contents().iter().find_map(|(name, kind)| {
        kind.extension_mime_types
            .get(extension)
            .map(|mime| (name.as_str(), mime.as_str()))
    })
}

/// The `resolution` of an image or video content for a part's own media resolution, by the
/// level's member name (`MEDIA_RESOLUTION_HIGH` → `high`).
pub fn part_resolution(level: &str) -> Option<&'static str> {
    static LEVELS: std::sync::LazyLock<std::collections::BTreeMap<String, String>> =
        std::sync::LazyLock::new(|| {
            RequestFields::builtin()
                .map(|f| f.part_resolution)
                .unwrap_or_default()
        });
    LEVELS.get(level).map(String::as_str)
}

fn builtin_contents() -> &'static std::collections::BTreeMap<String, ContentKind> {
    static CONTENTS: std::sync::LazyLock<std::collections::BTreeMap<String, ContentKind>> =
        std::sync::LazyLock::new(|| RequestFields::builtin().map(|f| f.contents).unwrap_or_default());
    &CONTENTS
}

/// A response's token counts (`usage_metadata`) as an interaction's (`usage`), field by field.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsageMapping {
    /// The interaction's field.
    pub field: String,
    /// Each predecessor count (snake_case) and the interaction's.
    pub names: std::collections::BTreeMap<String, String>,
}

/// A response's function calls as an interaction's steps of one type, member by member.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionCallsMapping {
    /// The steps' `type`.
    pub step: String,
    /// Each member of a predecessor function call (snake_case) and the step's.
    pub names: std::collections::BTreeMap<String, String>,
}

impl RequestFields {
    pub fn builtin() -> anyhow::Result<Self> {
        toml::from_str(BUILTIN_REQUEST_FIELDS)
            .map_err(|e| anyhow::anyhow!("the built-in table rules/request_fields.toml is invalid: {e}"))
    }

    /// Adds a team's entries; an entry for a known field (same name, same `within`) replaces
    /// the built-in one.
    pub fn extend(&mut self, extra: Vec<RequestField>) {
        for field in extra {
            match self
                .request_field
                .iter_mut()
                .find(|f| f.name == field.name && f.within == field.within)
            {
                Some(existing) => *existing = field,
                None => self.request_field.push(field),
            }
        }
    }

    /// The entry for a field of the config itself, written in snake_case or camelCase.
    pub fn get(&self, written: &str) -> Option<&RequestField> {
        self.get_within(None, written)
    }

    /// The entry for a field of the config object `within` (`None`: the config itself).
    pub fn get_within(&self, within: Option<&str>, written: &str) -> Option<&RequestField> {
        let snake = snake_case(written);
        self.request_field
            .iter()
            .find(|f| f.name == snake && f.within.as_deref() == within)
    }

    /// Whether `snake` names a field of an interactions request or of its `generation_config`
    /// (the targets of the table, and `generation_config` itself).
    pub fn is_interactions_name(&self, snake: &str) -> bool {
        snake == "generation_config"
            || self
                .request_field
                .iter()
                .any(|f| matches!(f.place, Place::GenerationConfig | Place::TopLevel) && f.target() == snake)
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
        let mode = fields
            .get_within(Some("function_calling_config"), "mode")
            .expect("mode");
        assert_eq!(mode.target(), "tool_choice");
        assert_eq!(mode.mapped_value("any"), Some("any"));
        assert_eq!(mode.mapped_value("ANY"), Some("any"));
        assert!(fields.get("mode").is_none());
        assert!(fields.is_interactions_name("thinking_summaries"));
        assert_eq!(snake_case("maxOutputTokens"), "max_output_tokens");
    }
}
