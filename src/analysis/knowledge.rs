//! What an application knows about models, as opposed to what it asks of one: a model id that
//! is an entry of a collection (a list, tuple, set or sequence, an enum's member, a
//! `Literal[...]`), a key of a mapping, a field of a table of models (an object in a list, a
//! value keyed by a model name), an operand of a comparison or a string test (`==`, `===`,
//! `in`, `includes`, `startswith`, `case`) or an option of a picker (`<option value=...>`).
//! Replacing such an id changes what the application does (two entries of a table become one
//! model, a branch for the old model becomes dead) rather than which model a request uses; a
//! request reads an id from an argument, a setting or a default, which are none of these.

use std::ops::Range;

use crate::lang::json::scan::{Json, Step};
use crate::lang::{CommentStyle, Document, Surface, Syntax, ir};

/// Why an id is knowledge about models, for the finding's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Known {
    /// An entry of a list, array, tuple, set or sequence (the word its language has for it).
    Entry(&'static str),
    /// A member of an enum.
    EnumMember,
    /// A literal of a type (`Literal["..."]`, a TypeScript union of strings).
    TypeLiteral,
    /// A key of a mapping.
    Key,
    /// A field of an entry of a table of models: an object in a list, or a value keyed by a
    /// model name.
    TableField,
    /// An operand of a comparison or a string test, as written (`==`, `includes`, `case`).
    Compared(String),
    /// An option of a picker (`<option value="...">`).
    PickerOption,
    /// The key looked up in a table of models (`PRICES["..."]`, `limits.get("...")`).
    Lookup,
}

impl Known {
    /// What the id is, as a phrase: "an entry of a list", "compared with `==`".
    pub fn describe(&self) -> String {
        match self {
            Known::Entry(word) => {
                let article = if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                format!("an entry of {article} {word}")
            }
            Known::EnumMember => "the value of an enum's member".to_string(),
            Known::TypeLiteral => "a literal of a type".to_string(),
            Known::Key => "a key of a mapping".to_string(),
            Known::TableField => "a field of a table of models".to_string(),
            Known::Compared(how) => format!("compared with `{how}`"),
            Known::PickerOption => "an option of a picker".to_string(),
            Known::Lookup => "the key looked up in a table of models".to_string(),
        }
    }
}

/// The comparison operators, as written between two operands.
const OPERATORS: &[&str] = &["==", "!=", "===", "!==", "in", "not in", "is", "is not"];

/// Methods whose string argument is tested against a value (`m.includes("x")`,
/// `m.startswith("x")`, `models.has("x")`).
const TESTS: &[&str] = &[
    "includes",
    "startsWith",
    "endsWith",
    "indexOf",
    "lastIndexOf",
    "startswith",
    "endswith",
    "find",
    "rfind",
    "has",
    "match",
    "test",
];

/// What tells knowledge apart, from the settings.
pub struct Words<'a> {
    /// The brand words of model ids, by which a mapping keyed by model names is told.
    pub prefixes: &'a [String],
    /// The assertion calls of tests, by their last name (`assertEqual`, `toBe`): an id given
    /// to one is compared against.
    pub assertions: &'a [String],
    /// What may be written right before an id in its string: the `models/` resource prefix,
    /// a router's provider prefix (`gemini/`, `google/`).
    pub leads: &'a [String],
}

/// For each of `ranges` (model ids as found, `models/` or a provider prefix left out), whether
/// the document holds it as knowledge about models, and as what. An id is knowledge when the
/// string holding it is (a string that says more, `"gemini-1.5-pro (plan)"`, is as much an
/// entry of its table).
pub fn known(doc: &Document, ranges: &[Range<usize>], words: &Words) -> Vec<Option<Known>> {
    let text = doc.text.as_str();
    let in_picker = |range: &Range<usize>| picker_option(text, range.start);
    match (&doc.surface, &doc.syntax) {
        (
            Surface::Python | Surface::JavaScript | Surface::TypeScript | Surface::Tsx,
            Syntax::Lowered(tree),
        ) => {
            let index = TreeIndex::new(tree);
            let python = doc.surface == Surface::Python;
            ranges
                .iter()
                .map(|r| in_tree(tree, text, &index, r, python, words).or_else(|| in_picker(r)))
                .collect()
        }
        (Surface::Json, Syntax::Json(json)) => ranges.iter().map(|r| in_json(json, text, r, words)).collect(),
        (Surface::Text(CommentStyle::Hash), _) => {
            let lists = super::elements::text_lists(text);
            ranges
                .iter()
                .map(|r| {
                    let listed = lists
                        .iter()
                        .flat_map(|g| &g.elements)
                        .any(|e| e.range == *r || e.range == with_lead(text, r, words.leads));
                    if listed {
                        return Some(Known::Entry("list"));
                    }
                    in_text_line(text, r, words.leads).or_else(|| in_picker(r))
                })
                .collect()
        }
        _ => ranges.iter().map(in_picker).collect(),
    }
}

/// `range` widened to the lead written before it (`models/`, `gemini/`), if any.
fn with_lead(text: &str, range: &Range<usize>, leads: &[String]) -> Range<usize> {
    let before = text.get(..range.start).unwrap_or_default();
    match leads.iter().find(|lead| before.ends_with(lead.as_str())) {
        Some(lead) => range.start - lead.len()..range.end,
        None => range.clone(),
    }
}

/// The string literals and string keys of a tree, ordered by where they start.
struct TreeIndex {
    strings: Vec<(ir::Span, ir::NodeId)>,
    /// String keys of dict and object literals: the key's span (quotes included) and its dict.
    keys: Vec<(ir::Span, ir::NodeId)>,
}

impl TreeIndex {
    fn new(tree: &ir::Tree) -> Self {
        let mut strings = Vec::new();
        let mut keys = Vec::new();
        for (id, node) in tree.nodes.iter().enumerate() {
            match &node.kind {
                ir::Kind::Str(_) => strings.push((node.span, id as ir::NodeId)),
                ir::Kind::Dict(dict) => {
                    for entry in &dict.items {
                        if let ir::Key::Str(key) = &entry.key {
                            keys.push((key.span, id as ir::NodeId));
                        }
                    }
                }
                _ => {}
            }
        }
        strings.sort();
        keys.sort();
        TreeIndex { strings, keys }
    }

    /// The last of `spans` starting at or before `range` that holds it.
    fn holding(spans: &[(ir::Span, ir::NodeId)], range: &Range<usize>) -> Option<(ir::Span, ir::NodeId)> {
        let before = spans.partition_point(|(span, _)| span.start as usize <= range.start);
        let &(span, id) = spans.get(before.checked_sub(1)?)?;
        let r = span.range();
        (r.start <= range.start && range.end <= r.end).then_some((span, id))
    }
}

fn in_tree(
    tree: &ir::Tree,
    text: &str,
    index: &TreeIndex,
    range: &Range<usize>,
    python: bool,
    words: &Words,
) -> Option<Known> {
    if TreeIndex::holding(&index.keys, range).is_some() {
        return Some(Known::Key);
    }
    let Some((span, string)) = TreeIndex::holding(&index.strings, range) else {
        // Not a literal of the tree: a pattern of Python's `match` (`case "a":`) or a
        // TypeScript type (`type M = "a" | "b"`), which the shared form leaves out.
        let quote = with_lead(text, range, words.leads).start.checked_sub(1)?;
        if matches!(text.get(quote..quote + 1), Some("'" | "\"")) && after_case(text, quote) {
            return Some(Known::Compared("case".to_string()));
        }
        return (!python && union_member(text, range)).then_some(Known::TypeLiteral);
    };
    if after_case(text, span.start as usize) {
        return Some(Known::Compared("case".to_string()));
    }
    let known = holder(tree, text, string, python, words)?;
    // An entry of a table is the id, or starts with it (`"gemini-1.5-pro (plan)"`); a string
    // that only mentions one (a prompt in a list of messages) is none.
    let ir::Kind::Str(value) = tree.kind(string) else {
        return None;
    };
    match known {
        Known::Compared(_) | Known::Key => Some(known),
        _ => starts_with_id(value, text.get(range.clone())?, words.leads).then_some(known),
    }
}

/// Whether a string's value begins with the id (after a lead: `models/`, `gemini/`).
fn starts_with_id(value: &str, id: &str, leads: &[String]) -> bool {
    let value = value.trim_start();
    let value = leads
        .iter()
        .find_map(|lead| value.strip_prefix(lead.as_str()))
        .unwrap_or(value);
    value.starts_with(id)
}

/// What holds the string literal `string`, as knowledge about models, if anything does.
fn holder(tree: &ir::Tree, text: &str, string: ir::NodeId, python: bool, words: &Words) -> Option<Known> {
    // Up through parentheses and type assertions, then through the containers holding it.
    let mut node = string;
    let mut first = true;
    loop {
        let parent = tree.parent(node)?;
        match tree.kind(parent) {
            ir::Kind::Paren(_) | ir::Kind::Cast(_) => {}
            ir::Kind::List(_) => return Some(entry(first, if python { "list" } else { "array" })),
            ir::Kind::Tuple(_) if first && literal_type(tree, tree.parent(parent)) => {
                return Some(Known::TypeLiteral);
            }
            ir::Kind::Tuple(_) => return Some(entry(first, "tuple")),
            ir::Kind::Set(_) => return Some(entry(first, "set")),
            ir::Kind::Dict(dict) => {
                let entry = dict.items.iter().find(|e| e.value == node)?;
                let key = match &entry.key {
                    ir::Key::Name(key) | ir::Key::Str(key) => text.get(key.span.range()),
                    _ => None,
                };
                if key.is_some_and(|k| names_a_model(k, words.prefixes)) {
                    return Some(Known::TableField);
                }
                first = false;
            }
            ir::Kind::Index { index, .. } if first && *index == node => {
                return Some(if literal_type(tree, Some(parent)) {
                    Known::TypeLiteral
                } else {
                    Known::Lookup
                });
            }
            ir::Kind::Call(call) if first => {
                // A test of a string (`m.includes("x")`), or an assertion (`toBe("x")`).
                let name = match tree.kind(tree.unwrap(call.callee)) {
                    ir::Kind::Member(member) => &member.name.name,
                    ir::Kind::Name(name) => name,
                    _ => return None,
                };
                let method = matches!(tree.kind(tree.unwrap(call.callee)), ir::Kind::Member(_));
                if method && &**name == "get" && call.args.first().is_some_and(|a| a.value == node) {
                    return Some(Known::Lookup);
                }
                let tested = call.args.iter().any(|a| a.value == node)
                    && ((method && TESTS.contains(&name.as_ref()))
                        || words.assertions.iter().any(|a| **a == **name));
                return tested.then(|| Known::Compared(name.to_string()));
            }
            ir::Kind::Binary { left, right, .. } if first => {
                return operator(text, tree.range(*left).end, tree.range(*right).start).map(Known::Compared);
            }
            ir::Kind::Other(children) if first => {
                // An enum's member (TypeScript), or a Python comparison, lowered as its operands
                // with the operator written between an operand and its neighbours.
                if !python && is_ts_enum(text, tree.range(parent)) {
                    return Some(Known::EnumMember);
                }
                return neighbour_operator(tree, text, children, node).map(Known::Compared);
            }
            ir::Kind::Assign(assign) if first && python && assign.value == Some(node) => {
                return super::elements::is_enum_member(tree, parent).then_some(Known::EnumMember);
            }
            _ => return None,
        }
        node = parent;
    }
}

/// Whether `node` is a subscript of `Literal` (`Literal[...]`, `typing.Literal[...]`).
fn literal_type(tree: &ir::Tree, node: Option<ir::NodeId>) -> bool {
    let Some(ir::Kind::Index { object, .. }) = node.map(|n| tree.kind(n)) else {
        return false;
    };
    tree.dotted(*object)
        .is_some_and(|d| d.rsplit('.').next() == Some("Literal"))
}

/// An entry of a collection: the id itself (`first`), or a field of an object that is one.
fn entry(first: bool, word: &'static str) -> Known {
    if first {
        Known::Entry(word)
    } else {
        Known::TableField
    }
}

/// Whether a mapping key names a model (`"gemini/gemini-2.0-flash"`, `gemini-1.5-pro`): a
/// brand word followed by `-` and a digit.
fn names_a_model(key: &str, prefixes: &[String]) -> bool {
    prefixes.iter().any(|p| {
        key.match_indices(p.as_str()).any(|(at, _)| {
            let rest = &key.as_bytes()[at + p.len()..];
            rest.first() == Some(&b'-') && rest.get(1).is_some_and(u8::is_ascii_digit)
        })
    })
}

/// The comparison operator written between `node` and a neighbour among `children` (a Python
/// comparison is lowered as its operands, the operators written between them).
pub(super) fn neighbour_operator(
    tree: &ir::Tree,
    text: &str,
    children: &[ir::NodeId],
    node: ir::NodeId,
) -> Option<String> {
    let i = children.iter().position(|&c| c == node)?;
    let here = tree.range(node);
    let before = i
        .checked_sub(1)
        .and_then(|p| children.get(p))
        .and_then(|&p| operator(text, tree.range(p).end, here.start));
    before.or_else(|| {
        children
            .get(i + 1)
            .and_then(|&n| operator(text, here.end, tree.range(n).start))
    })
}

/// The comparison operator written between two operands, if the text between them is one.
pub(super) fn operator(text: &str, from: usize, to: usize) -> Option<String> {
    let between = text.get(from..to)?;
    let words = between.split_whitespace().collect::<Vec<_>>().join(" ");
    OPERATORS.contains(&words.as_str()).then_some(words)
}

/// Whether the literal starting at `start` follows a `case` keyword (a `switch` of JavaScript,
/// a `match` of Python).
fn after_case(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default().trim_end();
    before.strip_suffix("case").is_some_and(|rest| {
        !rest
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
    })
}

/// Whether the quoted id at `range` stands between `|`s of a TypeScript union type.
fn union_member(text: &str, range: &Range<usize>) -> bool {
    let quote = range.start.checked_sub(1).and_then(|q| text.get(q..range.start));
    if !matches!(quote, Some("'" | "\"")) {
        return false;
    }
    let before = text.get(..range.start - 1).unwrap_or_default().trim_end();
    let after = text.get(range.end + 1..).unwrap_or_default().trim_start();
    before.ends_with('|') || after.starts_with('|')
}

/// Whether the text at `range` is a TypeScript enum declaration (`enum`, `const enum`,
/// `declare enum`).
fn is_ts_enum(text: &str, range: Range<usize>) -> bool {
    super::elements::is_ts_enum(text, range)
}

/// Whether the id at `at` is the value or the label of an HTML `<option>` on its line.
fn picker_option(text: &str, at: usize) -> Option<Known> {
    const WINDOW: usize = 512;
    let from = crate::source::floor_char_boundary(text, at.saturating_sub(WINDOW));
    let line = text.get(from..at)?;
    let line = &line[line.rfind('\n').map_or(0, |i| i + 1)..];
    let open = line.rfind("<option")?;
    (!line[open..].contains("</option")).then_some(Known::PickerOption)
}

fn in_json(json: &Json, text: &str, range: &Range<usize>, words: &Words) -> Option<Known> {
    let prefixes = words.prefixes;
    let path = json.path(range.clone());
    let (node, step) = path.last()?;
    let id = text.get(range.clone())?;
    if !node.is_string() || !starts_with_id(text.get(node.inner())?, id, words.leads) {
        return None;
    }
    match step {
        Step::Item(_) => return Some(Known::Entry("array")),
        Step::Key(..) => return Some(Known::Key),
        _ => {}
    }
    // A field of an object in an array, or a value keyed by a model name.
    for (_, step) in path.iter().rev() {
        match step {
            Step::Item(_) => return Some(Known::TableField),
            Step::Value(_, member) => {
                let keyed = member
                    .key
                    .as_ref()
                    .and_then(|k| text.get(k.range.clone()))
                    .is_some_and(|k| names_a_model(k, prefixes));
                if keyed {
                    return Some(Known::TableField);
                }
            }
            _ => {}
        }
    }
    None
}

/// An id on a line of a YAML or TOML text: a key (`gemini-1.5-pro:`), or a field of an item
/// of a sequence (`- name: gemini-1.5-pro`).
fn in_text_line(text: &str, range: &Range<usize>, leads: &[String]) -> Option<Known> {
    let start = text.get(..range.start)?.rfind('\n').map_or(0, |i| i + 1);
    let end = text
        .get(range.end..)?
        .find('\n')
        .map_or(text.len(), |i| range.end + i);
    let line = text.get(start..end)?;
    let content = line.trim_start();
    let at = range.start - (start + line.len() - content.len());
    let strip_quotes = |s: &str| {
        let s = s.trim_matches(['"', '\'']);
        leads
            .iter()
            .find_map(|lead| s.strip_prefix(lead.as_str()))
            .unwrap_or(s)
            .to_string()
    };
    // A key: the line starts with the id (quoted or not) and a `:` (YAML) or `=` (TOML)
    // follows it.
    let id = text.get(range.clone())?;
    let head = content.split([':', '=']).next().unwrap_or_default().trim();
    if content.contains([':', '=']) && strip_quotes(head) == id && at <= 1 {
        return Some(Known::Key);
    }
    // A TOML table named by the id (`[overrides."gemini-1.5-pro"]`).
    if content.starts_with('[') && content.trim_end().ends_with(']') && !content.contains('=') {
        return Some(Known::Key);
    }
    // `- key: id`: a field of an item of a sequence.
    let item = content.strip_prefix("- ")?;
    let (_, value) = item.split_once(':')?;
    (strip_quotes(value.trim()) == id).then_some(Known::TableField)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known_of(surface: Surface, text: &str, piece: &str) -> Option<Known> {
        let docs = crate::lang::documents(surface, text);
        let at = text.find(piece).unwrap_or_else(|| panic!("{piece} in the text"));
        let prefixes = ["gemini".to_string(), "model".to_string()];
        let assertions = ["assertEqual".to_string(), "toBe".to_string()];
        let leads = [
            "models/".to_string(),
            "gemini/".to_string(),
            "google/".to_string(),
        ];
        let words = Words {
            prefixes: &prefixes,
            assertions: &assertions,
            leads: &leads,
        };
        let ranges = vec![at..at + piece.len(); 1];
        known(&docs[0], &ranges, &words).remove(0)
    }

    #[test]
    fn python_knowledge_and_requests() {
        let text = r#"MODEL = "gemini-1.0"
SUPPORTED = ["gemini-1.1", "gemini-1.2"]
PAIRS = [("gemini-1.3", False)]
LIMITS = {"gemini-1.4": 100}
TABLE = [{"name": "gemini-1.5", "vision": True}]
ALIASES = {"gemini/gemini-1.6": "gemini-1.6"}
Kind = Literal["gemini-1.7", "gemini-3.1"]
if model == "gemini-1.8" or "gemini-1.9" in model or model.startswith("gemini-2.1"):
    pass
match model:
    case "gemini-2.2":
        pass
class M(str, Enum):
    A = "gemini-2.3"
client.models.generate_content(model="gemini-2.4", contents="hi")
f(os.getenv("MODEL", "gemini-2.5"))
CONFIG = {"chat": {"model": "gemini-2.6"}}
PROMPT = "use gemini-2.7 here"
PRICE = PRICES["gemini-2.9"] + LIMITS.get("gemini-3.2", 0)
self.assertEqual(m, "gemini-2.8")
ROUTED = ["google/gemini-3.3", "gemini/gemini-3.4"]
litellm.completion(model="gemini/gemini-3.5")
"#;
        let of = |p| known_of(Surface::Python, text, p);
        // An id after a provider prefix is as much an entry of its table.
        assert_eq!(of("gemini-3.3"), Some(Known::Entry("list")));
        assert_eq!(of("gemini-3.4"), Some(Known::Entry("list")));
        assert_eq!(of("gemini-3.5"), None);
        assert_eq!(of("gemini-1.0"), None);
        assert_eq!(of("gemini-1.1"), Some(Known::Entry("list")));
        assert_eq!(of("gemini-1.3"), Some(Known::Entry("tuple")));
        assert_eq!(of("gemini-1.4"), Some(Known::Key));
        assert_eq!(of("gemini-1.5"), Some(Known::TableField));
        assert_eq!(of("gemini-1.7"), Some(Known::TypeLiteral));
        assert_eq!(of("gemini-3.1"), Some(Known::TypeLiteral));
        assert_eq!(of("gemini-1.8"), Some(Known::Compared("==".into())));
        assert_eq!(of("gemini-1.9"), Some(Known::Compared("in".into())));
        assert_eq!(of("gemini-2.1"), Some(Known::Compared("startswith".into())));
        assert_eq!(of("gemini-2.2"), Some(Known::Compared("case".into())));
        assert_eq!(of("gemini-2.3"), Some(Known::EnumMember));
        assert_eq!(of("gemini-2.4"), None);
        assert_eq!(of("gemini-2.5"), None);
        assert_eq!(of("gemini-2.6"), None);
        assert_eq!(of("gemini-2.7"), None);
        assert_eq!(of("gemini-2.9"), Some(Known::Lookup));
        assert_eq!(of("gemini-3.2"), Some(Known::Lookup));
        assert_eq!(of("gemini-2.8"), Some(Known::Compared("assertEqual".into())));
    }

    #[test]
    fn a_value_keyed_by_a_model_name() {
        let text = "ALIASES = {\"gemini/gemini-1.6\": \"gemini-1.6\"}\n";
        let at = text.rfind("gemini-1.6").expect("the value");
        let docs = crate::lang::documents(Surface::Python, text);
        let prefixes = ["gemini".to_string()];
        let words = Words {
            prefixes: &prefixes,
            assertions: &[],
            leads: &[],
        };
        let ranges = vec![at..at + 10; 1];
        assert_eq!(known(&docs[0], &ranges, &words), [Some(Known::TableField)]);
    }

    #[test]
    fn javascript_knowledge_and_requests() {
        let text = r#"const SUPPORTED = ['gemini-1.1', 'gemini-1.2'];
const DEFAULTS = [{ id: 'gemini-1.3', model: 'gemini-1.4' }];
if (value.includes('gemini-1.5') || m === 'gemini-1.6 (plan)') {}
expect(m).toBe('gemini-2.4');
switch (m) { case 'gemini-1.7': break; }
enum M { A = 'gemini-1.8' }
type Id = 'gemini-1.9' | 'gemini-2.1';
ai.models.generateContent({ model: 'gemini-2.2', contents: 'hi' });
const settings = { google_model: 'gemini-2.3' };
"#;
        let of = |p| known_of(Surface::TypeScript, text, p);
        assert_eq!(of("gemini-1.1"), Some(Known::Entry("array")));
        assert_eq!(of("gemini-1.3"), Some(Known::TableField));
        assert_eq!(of("gemini-1.4"), Some(Known::TableField));
        assert_eq!(of("gemini-1.5"), Some(Known::Compared("includes".into())));
        assert_eq!(of("gemini-1.6"), Some(Known::Compared("===".into())));
        assert_eq!(of("gemini-1.7"), Some(Known::Compared("case".into())));
        assert_eq!(of("gemini-1.8"), Some(Known::EnumMember));
        assert_eq!(of("gemini-1.9"), Some(Known::TypeLiteral));
        assert_eq!(of("gemini-2.1"), Some(Known::TypeLiteral));
        assert_eq!(of("gemini-2.2"), None);
        assert_eq!(of("gemini-2.3"), None);
        assert_eq!(of("gemini-2.4"), Some(Known::Compared("toBe".into())));
    }

    #[test]
    fn json_yaml_and_html() {
        let json = r#"{"models": ["gemini-1.1"], "table": [{"id": "gemini-1.2"}], "gemini-1.3": 1, "model": "gemini-1.4"}"#;
        let of = |p| known_of(Surface::Json, json, p);
        assert_eq!(of("gemini-1.1"), Some(Known::Entry("array")));
        assert_eq!(of("gemini-1.2"), Some(Known::TableField));
        assert_eq!(of("gemini-1.3"), Some(Known::Key));
        assert_eq!(of("gemini-1.4"), None);
        let yaml = "models:\n  - gemini-1.1\n  - name: gemini-1.2\n    vision: true\ngemini-1.3:\n  tokens: 1\nmodel: gemini-1.4\nenv:\n  - MODEL=gemini-1.5\n\"gemini-1.6\" = 1\nMODEL=gemini-1.7\n[overrides.\"gemini-1.8\"]\n";
        let of = |p| known_of(Surface::Text(CommentStyle::Hash), yaml, p);
        assert_eq!(of("gemini-1.1"), Some(Known::Entry("list")));
        assert_eq!(of("gemini-1.2"), Some(Known::TableField));
        assert_eq!(of("gemini-1.3"), Some(Known::Key));
        assert_eq!(of("gemini-1.4"), None);
        assert_eq!(of("gemini-1.5"), None);
        assert_eq!(of("gemini-1.6"), Some(Known::Key));
        assert_eq!(of("gemini-1.7"), None);
        assert_eq!(of("gemini-1.8"), Some(Known::Key));
        let html = "<select>\n  <option value=\"gemini-1.1\">Gemini gemini-1.2</option>\n</select>\n<p>gemini-1.3</p>\n";
        let of = |p| known_of(Surface::Text(CommentStyle::None), html, p);
        assert_eq!(of("gemini-1.1"), Some(Known::PickerOption));
        assert_eq!(of("gemini-1.2"), Some(Known::PickerOption));
        assert_eq!(of("gemini-1.3"), None);
    }
}
