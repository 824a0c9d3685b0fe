//! The writer kit, at the bottom of codegen: how code is written into a document, whatever it
//! says. [`Dialect`] prints the pieces of a request in the document's language; [`imports`]
//! adds the imports written code needs and names a member of a client module; [`edits`]
//! computes the ranges that remove statements and entries, and joins edits; [`placer`] gathers
//! a request's arguments as a config's entries are placed and writes them; [`lines`] answers
//! questions about the lines and words of a text (where an offset is, for a message).
//!
//! It reads the facts (`migration_facts`, `lang`), the tables and the edits' type, and nothing else of
//! codegen: every other codegen module may import it.

pub(crate) mod edits;
pub(crate) mod imports;
pub(crate) mod lines;
pub(crate) mod placer;

use crate::lang::{Document, Surface};

/// How a language writes the pieces of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Keyword arguments and dicts.
    Python,
    /// One request object with properties; JavaScript and TypeScript.
    JavaScript,
    /// A JSON request body (in a curl command, a `.http` file, a JSON file, Rust's `json!`);
    /// the answer is read by a `jq` path.
    Json,
}

impl Dialect {
    pub(crate) fn of(doc: &Document) -> Self {
        match doc.surface {
            Surface::JavaScript | Surface::TypeScript | Surface::Tsx => Dialect::JavaScript,
            Surface::Python | Surface::Notebook => Dialect::Python,
            _ => Dialect::Json,
        }
    }

    /// One step of indentation: four spaces in Python, two in JavaScript.
    pub(crate) fn indent_step(self) -> &'static str {
        match self {
            Dialect::JavaScript => "  ",
            _ => "    ",
        }
    }

    /// A named argument: `name=value`, or a property of the request object.
    pub(crate) fn argument(self, name: &str, value: &str) -> String {
        match self {
            Dialect::Python => format!("{name}={value}"),
            // `{ tools }` rather than `{ tools: tools }`.
            Dialect::JavaScript if name == value => name.to_string(),
            Dialect::JavaScript | Dialect::Json => format!("{}: {value}", self.key(name)),
        }
    }

    /// An entry in a map, written like `like` (a keyword or a dict key).
    pub(crate) fn entry(self, key: &str, value: &str, keyword: bool) -> String {
        match self {
            Dialect::Python if keyword => format!("{key}={value}"),
            _ => format!("{}: {value}", self.key(key)),
        }
    }

    pub(crate) fn map(self, entries: &[(String, String)]) -> String {
        let inner: Vec<String> = entries
            .iter()
            .map(|(k, v)| format!("{}: {v}", self.key(k)))
            .collect();
        match self {
            Dialect::Python | Dialect::Json => format!("{{{}}}", inner.join(", ")),
            Dialect::JavaScript => format!("{{ {} }}", inner.join(", ")),
        }
    }

    /// A map key: a string in Python, a bare name in JavaScript when it is one.
    pub(crate) fn key(self, key: &str) -> String {
        let bare = !key.is_empty()
            && !key.starts_with(|c: char| c.is_ascii_digit())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        match self {
            Dialect::JavaScript if bare => key.to_string(),
            _ => self.string(key),
        }
    }

    pub(crate) fn string(self, value: &str) -> String {
        serde_json::Value::String(value.to_string()).to_string()
    }

    pub(crate) fn true_value(self) -> &'static str {
        match self {
            Dialect::Python => "True",
            Dialect::JavaScript | Dialect::Json => "true",
        }
    }

    /// How an interactions result's answer text is read. The client libraries add
    /// `output_text` to an interaction (the text of its last model output, `Optional[str]` /
    /// `string | undefined` as the old `text` was) and it type-checks, where
    /// `steps[-1].content[0].text` does not (`content` is on some step kinds only). A response
    /// body read by a `jq` filter has only what the service sends: its last step's text.
    pub(crate) fn answer_text(self, receiver: &str) -> String {
        match self {
            Dialect::Python | Dialect::JavaScript => format!("{receiver}.output_text"),
            Dialect::Json => format!("{receiver}.steps[-1].content[0].text"),
        }
    }

    /// How a `jq` filter's read of a predecessor response body (`chain`, from `.candidates`)
    /// reads an interaction's body: the answer's first part → the last step's first content
    /// ([`Dialect::answer_text`]), every part's text → the last step's contents' texts. `None`:
    /// a read interlint does not rewrite (a function call, grounding, a candidate's other
    /// members).
    pub(crate) fn jq_answer(chain: &str) -> Option<String> {
        let chain = chain.strip_prefix(".candidates")?;
        match chain {
            "[0].content.parts[0].text" => Some(Dialect::Json.answer_text("")),
            "[].content.parts[].text" | "[0].content.parts[].text" => {
                Some(".steps[-1].content[].text".to_string())
            }
            _ => None,
        }
    }

    /// An interactions call, for messages: `client.interactions.create(model=..., input=...)`
    /// with the named arguments `extra` (name, value) after the two.
    pub(crate) fn create_call(self, extra: &[(&str, &str)]) -> String {
        let mut args = vec![self.argument("model", "..."), self.argument("input", "...")];
        args.extend(extra.iter().map(|(name, value)| self.argument(name, value)));
        match self {
            Dialect::Python => format!("client.interactions.create({})", args.join(", ")),
            Dialect::JavaScript => format!("ai.interactions.create({{ {} }})", args.join(", ")),
            Dialect::Json => format!("POST /v1beta/interactions {{{}}}", args.join(", ")),
        }
    }
}
