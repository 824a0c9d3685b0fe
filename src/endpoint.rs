//! The REST endpoints (`rules/endpoint.toml`): where a URL names the predecessor endpoint
//! (`.../v1beta/models/{model}:generateContent`) or the interactions endpoint, found in any text.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

pub const BUILTIN_ENDPOINT: &str = include_str!("../rules/endpoint.toml");

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interactions {
    pub path: String,
    pub header: String,
    pub revision: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Predecessor {
    pub methods: Vec<String>,
    pub stream_methods: Vec<String>,
    pub stream_query: Vec<String>,
}

/// Words that tie a file to the API (see `anchors` in rules/endpoint.toml).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchors {
    pub calls: Vec<String>,
    pub bodies: Vec<String>,
}

/// The client libraries' methods whose calls on an unfollowed object are still findings (see
/// `[unfollowed]` in rules/endpoint.toml).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Unfollowed {
    pub create: Vec<String>,
    pub stream: Vec<String>,
    pub chat: Vec<String>,
    pub turn: Vec<String>,
    pub stream_turn: Vec<String>,
    pub chat_words: Vec<String>,
}

/// The words of a request body of the predecessor endpoint written in code, and of the calls
/// that send it on (see `[sent-body]` in rules/endpoint.toml).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SentBodyWords {
    pub contents: Vec<String>,
    pub with: Vec<String>,
    pub serialise: Vec<String>,
    pub body_keys: Vec<String>,
    pub not_sending: Vec<String>,
}

/// What `interlint verify` assumes where the source document shows nothing (see the comment
/// of `[verify]` in rules/endpoint.toml).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Verify {
    pub base_url: String,
    pub api_key_header: String,
    pub api_key_env: String,
    pub brand: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    pub interactions: Interactions,
    pub predecessor: Predecessor,
    pub anchors: Anchors,
    #[serde(default)]
    pub unfollowed: Unfollowed,
    #[serde(default, rename = "sent-body")]
    pub sent_body: SentBodyWords,
    pub verify: Verify,
}

/// A URL of the predecessor endpoint, with the spans of its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredecessorUrl {
    /// From the version segment to the end of the method: `v1beta/models/{model}:generateContent`
    /// (`publishers/{p}/models/{model}:generateContent` on a platform-hosted URL).
    pub path: Range<usize>,
    /// The model as written: an id, or a variable of the surrounding language (`$MODEL`, `{}`).
    pub model: Range<usize>,
    /// The method after the colon.
    pub method: Range<usize>,
    pub stream: bool,
    /// Hosted by a cloud platform (`.../projects/P/locations/L/publishers/.../models/M`): another
    /// base URL and credential scheme, not rewritten.
    pub platform: bool,
    /// A query parameter asking for server-sent events, with one `&` or the `?`: the bytes to delete.
    pub stream_query: Option<Range<usize>>,
    /// Assembled from parts ([`Matcher::assembled_urls`]): reported, never rewritten.
    pub assembled: bool,
}

/// The built-in endpoint facts with the patterns built from them.
pub struct Matcher {
    pub endpoint: Endpoint,
    predecessor: Regex,
    interactions: Regex,
    /// `models/{m}:generateContent` without the version (a base URL holds it), or with the
    /// method a placeholder (`models/${model}:${method}`).
    assembled: Regex,
}

/// A method in a URL template, chosen elsewhere: `${method}`, `{method}`, `{}`, `%s`.
const METHOD_PLACEHOLDER: &str = r"\$\{[^}\s]*\}|\{[^}\s]*\}|%s";

/// A model in a URL: an id, or a placeholder of a language or template (`${MODEL:-id}`,
/// `{{model}}`, `{model}`, `{}`, `<MODEL>`, `%s`, `$MODEL`).
const MODEL: &str =
    r"\$\{[^}\s]*\}|\{\{[^}\s]*\}\}|\{[^}\s]*\}|<[^>\s/]*>|%s|\$[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9._\-]+";

pub static MATCHER: LazyLock<Matcher> = LazyLock::new(Matcher::builtin);

impl Matcher {
    fn builtin() -> Matcher {
        // The embedded table is checked by a unit test; a broken one leaves the matcher empty.
        let endpoint: Endpoint = toml::from_str(BUILTIN_ENDPOINT).unwrap_or_else(|_| Endpoint {
            interactions: Interactions {
                path: "/v1beta/interactions".into(),
                header: "Api-Revision".into(),
                revision: String::new(),
            },
            predecessor: Predecessor {
                methods: Vec::new(),
                stream_methods: Vec::new(),
                stream_query: Vec::new(),
            },
            anchors: Anchors::default(),
            unfollowed: Unfollowed::default(),
            sent_body: SentBodyWords::default(),
            verify: Verify::default(),
        });
        let methods: Vec<String> = endpoint
            .predecessor
            .methods
            .iter()
            .chain(&endpoint.predecessor.stream_methods)
            .map(|m| regex::escape(m))
            .collect();
        let methods = if methods.is_empty() {
            "$^".to_string()
        } else {
            methods.join("|")
        };
        let predecessor = Regex::new(&format!(
            r"/(?:(?P<version>v\d+(?:alpha|beta)?\d*)|(?P<publisher>publishers/[^/\s]+))/models/(?P<model>{MODEL}):(?P<method>{methods})\b"
        ))
        .unwrap_or_else(|_| Regex::new("$^").expect("empty pattern"));
        let interactions = Regex::new(&format!(
            r"{}(?:[?#\s'`)\x22]|$)",
            regex::escape(&endpoint.interactions.path)
        ))
        .unwrap_or_else(|_| Regex::new("$^").expect("empty pattern"));
        let assembled = Regex::new(&format!(
            r#"(?:^|[/}}'"`(])(?P<path>models/(?P<model>{MODEL}):(?P<method>{methods}|{METHOD_PLACEHOLDER}))"#
        ))
        .unwrap_or_else(|_| Regex::new("$^").expect("empty pattern"));
        Matcher {
            endpoint,
            predecessor,
            interactions,
            assembled,
        }
    }

    /// The predecessor URLs of `text[region]` that are assembled from parts, which
    /// [`Matcher::predecessor_urls`] does not see: `models/{m}:method` after a base URL that holds
    /// the version (`f"{self.base_url}/models/{m}:generateContent"`, `` `v1beta/models/${m}:...` ``
    /// without its leading slash), or a URL template that leaves the method to a placeholder
    /// (`models/${model}:${method}`; the strings that are a method alone are
    /// [`Matcher::method_literal`]). Each has `assembled` set.
    pub fn assembled_urls(&self, text: &str, region: Range<usize>) -> Vec<PredecessorUrl> {
        let Some(slice) = text.get(region.clone()) else {
            return Vec::new();
        };
        let base = region.start;
        let whole: Vec<Range<usize>> = self.predecessor.find_iter(slice).map(|m| m.range()).collect();
        let is_stream = |method: &str| {
            self.endpoint
                .predecessor
                .stream_methods
                .iter()
                .any(|m| m == method)
        };
        let mut out = Vec::new();
        for caps in self.assembled.captures_iter(slice) {
            let (Some(path), Some(model), Some(method)) =
                (caps.name("path"), caps.name("model"), caps.name("method"))
            else {
                continue;
            };
            if whole.iter().any(|w| w.start < path.end() && path.start() < w.end) {
                continue;
            }
            out.push(PredecessorUrl {
                path: base + path.start()..base + path.end(),
                model: base + model.start()..base + model.end(),
                method: base + method.start()..base + method.end(),
                stream: is_stream(method.as_str()),
                platform: false,
                stream_query: None,
                assembled: true,
            });
        }
        out
    }

    /// A string literal at `text[region]` (its quotes included or not) that is a predecessor
    /// method and nothing else (`'streamGenerateContent'`), as an assembled URL with no model.
    pub fn method_literal(&self, text: &str, region: Range<usize>) -> Option<PredecessorUrl> {
        let literal = text.get(region.clone())?;
        let method = literal.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
        if !self.is_method(method) {
            return None;
        }
        let start = region.start + literal.find(method)?;
        let end = start + method.len();
        Some(PredecessorUrl {
            path: start..end,
            model: start..start,
            method: start..end,
            stream: self
                .endpoint
                .predecessor
                .stream_methods
                .iter()
                .any(|m| m == method),
            platform: false,
            stream_query: None,
            assembled: true,
        })
    }

    /// Whether `word` is a predecessor method (`generateContent`, `streamGenerateContent`).
    pub fn is_method(&self, word: &str) -> bool {
        let p = &self.endpoint.predecessor;
        p.methods.iter().chain(&p.stream_methods).any(|m| m == word)
    }

    /// The predecessor URLs in `text[region]`.
    pub fn predecessor_urls(&self, text: &str, region: Range<usize>) -> Vec<PredecessorUrl> {
        let Some(slice) = text.get(region.clone()) else {
            return Vec::new();
        };
        let base = region.start;
        let mut out = Vec::new();
        for caps in self.predecessor.captures_iter(slice) {
            let (Some(whole), Some(model), Some(method)) =
                (caps.get(0), caps.name("model"), caps.name("method"))
            else {
                continue;
            };
            let platform = caps.name("publisher").is_some();
            let stream = self
                .endpoint
                .predecessor
                .stream_methods
                .iter()
                .any(|m| m == method.as_str());
            let stream_query = self
                .stream_query(slice, method.end())
                .map(|r| r.start + base..r.end + base);
            out.push(PredecessorUrl {
                path: base + whole.start() + 1..base + whole.end(),
                model: base + model.start()..base + model.end(),
                method: base + method.start()..base + method.end(),
                stream,
                platform,
                stream_query,
                assembled: false,
            });
        }
        out
    }

    /// The spans of the interactions path (`/v1beta/interactions`) in `text[region]`.
    pub fn interactions_urls(&self, text: &str, region: Range<usize>) -> Vec<Range<usize>> {
        let Some(slice) = text.get(region.clone()) else {
            return Vec::new();
        };
        let len = self.endpoint.interactions.path.len();
        self.interactions
            .find_iter(slice)
            .map(|m| region.start + m.start()..region.start + m.start() + len)
            .collect()
    }

    /// The `alt=sse` parameter of the query string starting at `at` (just after the method),
    /// with the separator that goes with it.
    fn stream_query(&self, text: &str, at: usize) -> Option<Range<usize>> {
        let rest = text.get(at..)?;
        let query = rest.strip_prefix('?')?;
        let end = query
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '#' | ')'))
            .unwrap_or(query.len());
        let query = &query[..end];
        let mut offset = 0;
        let params: Vec<(usize, &str)> = query
            .split('&')
            .map(|p| {
                let start = offset;
                offset += p.len() + 1;
                (start, p)
            })
            .collect();
        let index = params
            .iter()
            .position(|(_, p)| self.endpoint.predecessor.stream_query.iter().any(|q| q == p))?;
        let (start, param) = params[index];
        // Positions in `text`: the query starts after `?` at `at + 1`.
        let q = at + 1;
        Some(if params.len() == 1 {
            at..q + param.len()
        } else if index + 1 < params.len() {
            q + start..q + start + param.len() + 1
        } else {
            q + start - 1..q + start + param.len()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(text: &str) -> Vec<PredecessorUrl> {
        MATCHER.predecessor_urls(text, 0..text.len())
    }

    #[test]
    fn builtin_table_is_valid() {
        let endpoint: Endpoint = toml::from_str(BUILTIN_ENDPOINT).expect("rules/endpoint.toml");
        assert_eq!(endpoint.interactions.revision, "2026-05-20");
    }

    #[test]
    fn finds_the_parts_of_a_predecessor_url() {
        let text = "curl \"$BASE/v1beta/models/${MODEL:-x}:streamGenerateContent?alt=sse&key=$K\"";
        let found = urls(text);
        assert_eq!(found.len(), 1);
        let u = &found[0];
        assert_eq!(
            &text[u.path.clone()],
            "v1beta/models/${MODEL:-x}:streamGenerateContent"
        );
        assert_eq!(&text[u.model.clone()], "${MODEL:-x}");
        assert!(u.stream && !u.platform);
        assert_eq!(&text[u.stream_query.clone().unwrap()], "alt=sse&");
    }

    #[test]
    fn stream_query_positions() {
        for (text, removed) in [
            ("/v1beta/models/m:streamGenerateContent?alt=sse\"", "?alt=sse"),
            (
                "/v1beta/models/m:streamGenerateContent?key=1&alt=sse ",
                "&alt=sse",
            ),
            (
                "/v1beta/models/m:streamGenerateContent?a=1&alt=sse&b=2",
                "alt=sse&",
            ),
        ] {
            let u = &urls(text)[0];
            assert_eq!(&text[u.stream_query.clone().unwrap()], removed, "{text}");
        }
    }

    #[test]
    fn versions_placeholders_and_platforms() {
        for (text, model) in [
            (
                "https://h/v1/models/gemini-2.0-flash:generateContent",
                "gemini-2.0-flash",
            ),
            ("https://h/v1alpha/models/{{model}}:generateContent", "{{model}}"),
            ("format!(\"{}/v1beta/models/{}:generateContent\", b, m)", "{}"),
            ("f\"{BASE}/v1beta/models/{MODEL}:generateContent\"", "{MODEL}"),
        ] {
            let found = urls(text);
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(&text[found[0].model.clone()], model);
            assert!(!found[0].platform);
        }
        let text = "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google/models/gemini-2.0-flash:generateContent";
        let found = urls(text);
        assert!(found[0].platform);
        assert_eq!(
            &text[found[0].path.clone()],
            "publishers/google/models/gemini-2.0-flash:generateContent"
        );
    }

    #[test]
    fn other_services_are_not_predecessor_urls() {
        for text in [
            "https://api.openai.com/v1/chat/completions",
            "https://api-inference.huggingface.co/models/gpt2",
            "https://x/v1/models/foo:generate",
            "https://x/v1beta/models/m:generateContentX",
            "https://x/v1beta/models/m:countTokens",
            "https://x/v1beta/tunedModels/m:generateContent",
        ] {
            assert!(urls(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn interactions_path() {
        let text = "\"https://h/v1beta/interactions?key=1\" https://h/v1beta/interactions/abc https://h/v1beta/interactions";
        let found = MATCHER.interactions_urls(text, 0..text.len());
        assert_eq!(found.len(), 2);
    }
}
