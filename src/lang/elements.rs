//! The string elements of a document's lists and the string values of its enums' members,
//! grouped by the collection they belong to: Python lists, tuples and sets and JavaScript arrays
//! from the shared form, Python enums (a class with a base named `*Enum`) and TypeScript `enum`s,
//! JSON arrays from their scan, and YAML sequences and TOML arrays from the lines of a text
//! file. A rewrite of one element can then be checked against its siblings: two equal entries
//! of one list, or two members of one enum with the same value (Python makes the second an
//! alias of the first), change what a program does.

use std::ops::Range;

use super::json::scan::{Json, Step};
use super::{CommentStyle, Document, Surface, Syntax, ir};

/// A string element as written: where its text is (inside the quotes, when it has them) and
/// its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub range: Range<usize>,
    pub value: String,
}

/// What holds a group of elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    /// A list, array, tuple, set or sequence, by the word its language has for it.
    List(&'static str),
    /// The members of an enum; `alias` when two members with one value are one member, the
    /// second an alias of the first (Python).
    Enum { alias: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub collection: Collection,
    pub elements: Vec<Element>,
}

/// The groups of string elements of the collections that have an element holding one of
/// `ranges`, one group per collection (a group of one element is left out).
pub fn sibling_elements(doc: &Document, ranges: &[Range<usize>]) -> Vec<Group> {
    let groups = match (&doc.surface, &doc.syntax) {
        (Surface::Json, Syntax::Json(json)) => json_elements(json, &doc.text, ranges),
        (
            Surface::Python | Surface::JavaScript | Surface::TypeScript | Surface::Tsx,
            Syntax::Lowered(tree),
        ) => tree_elements(tree, &doc.text, doc.surface, ranges),
        (Surface::Text(CommentStyle::Hash), _) => text_elements(&doc.text)
            .into_iter()
            .filter(|g| {
                g.elements
                    .iter()
                    .any(|e| ranges.iter().any(|r| holds(&e.range, r)))
            })
            .collect(),
        _ => Vec::new(),
    };
    groups.into_iter().filter(|g| g.elements.len() > 1).collect()
}

fn holds(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// JSON arrays with a string item holding one of `ranges`.
fn json_elements(json: &Json, text: &str, ranges: &[Range<usize>]) -> Vec<Group> {
    let mut groups = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for range in ranges {
        let path = json.path(range.clone());
        let Some((node, Step::Item(array))) = path.last() else {
            continue;
        };
        if !node.is_string() || seen.contains(&array.range.start) {
            continue;
        }
        seen.push(array.range.start);
        let elements = array
            .items()
            .iter()
            .filter(|item| item.is_string())
            .filter_map(|item| {
                let inner = item.inner();
                Some(Element {
                    value: text.get(inner.clone())?.to_string(),
                    range: inner,
                })
            })
            .collect();
        groups.push(Group {
            collection: Collection::List("array"),
            elements,
        });
    }
    groups
}

/// Python lists, tuples, sets and enums, JavaScript arrays and TypeScript enums with a string
/// element holding one of `ranges`.
fn tree_elements(tree: &ir::Tree, text: &str, surface: Surface, ranges: &[Range<usize>]) -> Vec<Group> {
    let mut strings: Vec<(ir::Span, ir::NodeId)> = tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n.kind, ir::Kind::Str(_)))
        .map(|(id, n)| (n.span, id as ir::NodeId))
        .collect();
    strings.sort();
    let python = surface == Surface::Python;
    let mut groups = Vec::new();
    let mut seen: Vec<ir::NodeId> = Vec::new();
    for range in ranges {
        let before = strings.partition_point(|(span, _)| span.start as usize <= range.start);
        let Some(&(span, string)) = before.checked_sub(1).and_then(|i| strings.get(i)) else {
            continue;
        };
        if !holds(&span.range(), range) {
            continue;
        }
        // The element: the string, with the parentheses around it.
        let mut element = string;
        let mut parent = tree.parent(element);
        while let Some(p) = parent.filter(|&p| matches!(tree.kind(p), ir::Kind::Paren(_))) {
            element = p;
            parent = tree.parent(p);
        }
        let Some(parent) = parent else {
            continue;
        };
        let found = match tree.kind(parent) {
            ir::Kind::List(c) | ir::Kind::Tuple(c) | ir::Kind::Set(c) => {
                let word = match tree.kind(parent) {
                    ir::Kind::List(_) if python => "list",
                    ir::Kind::List(_) => "array",
                    ir::Kind::Tuple(_) => "tuple",
                    _ => "set",
                };
                Some((parent, Collection::List(word), c.items.clone()))
            }
            ir::Kind::Assign(assign) if python && assign.value == Some(element) => enum_class(tree, parent)
                .map(|(class, members)| (class, Collection::Enum { alias: true }, members)),
            ir::Kind::Other(children) if !python && is_ts_enum(text, tree.range(parent)) => {
                Some((parent, Collection::Enum { alias: false }, children.clone()))
            }
            _ => None,
        };
        let Some((collection_node, collection, items)) = found else {
            continue;
        };
        if seen.contains(&collection_node) {
            continue;
        }
        seen.push(collection_node);
        let elements = items
            .iter()
            .filter_map(|&item| string_element(tree, text, tree.unwrap(item)))
            .collect();
        groups.push(Group { collection, elements });
    }
    groups
}

/// The class of a Python enum whose body holds the assignment `assign` (`NAME = "value"`), with
/// the values of its members' assignments.
fn enum_class(tree: &ir::Tree, assign: ir::NodeId) -> Option<(ir::NodeId, Vec<ir::NodeId>)> {
    let member = |statement: ir::NodeId| match tree.kind(statement) {
        ir::Kind::Assign(a) => match (a.targets.as_slice(), a.value) {
            ([target], Some(value)) if tree.name(*target).is_some_and(|n| !n.starts_with('_')) => Some(value),
            _ => None,
        },
        _ => None,
    };
    member(assign)?;
    let class = tree.parent(assign)?;
    let ir::Kind::Class(c) = tree.kind(class) else {
        return None;
    };
    let is_enum = c.bases.iter().any(|&base| {
        tree.dotted(base)
            .is_some_and(|path| path.rsplit('.').next().is_some_and(|last| last.ends_with("Enum")))
    });
    if !is_enum || !c.body.contains(&assign) {
        return None;
    }
    Some((class, c.body.iter().filter_map(|&s| member(s)).collect()))
}

/// Whether the text at `range` is a TypeScript enum declaration (`enum`, `const enum`,
/// `declare enum`).
fn is_ts_enum(text: &str, range: Range<usize>) -> bool {
    let Some(mut rest) = text.get(range) else {
        return false;
    };
    for word in ["declare", "const"] {
        if let Some(after) = rest
            .strip_prefix(word)
            .filter(|a| a.starts_with(char::is_whitespace))
        {
            rest = after.trim_start();
        }
    }
    rest.strip_prefix("enum")
        .is_some_and(|after| after.starts_with(char::is_whitespace))
}

/// A string literal node as an element: its value and where its text is between the quotes.
fn string_element(tree: &ir::Tree, text: &str, node: ir::NodeId) -> Option<Element> {
    let ir::Kind::Str(value) = tree.kind(node) else {
        return None;
    };
    let range = tree.range(node);
    let written = text.get(range.clone())?;
    // A prefix (`r`, `b`), then one or three quotes on each side.
    let open = written.find(['"', '\'', '`'])?;
    let quote = &written[open..];
    let width = if quote.starts_with("\"\"\"") || quote.starts_with("'''") {
        3
    } else {
        1
    };
    let start = range.start + open + width;
    let end = range.end.saturating_sub(width).max(start);
    Some(Element {
        range: start..end,
        value: value.to_string(),
    })
}

/// The lists of a YAML or TOML text: YAML block sequences of scalars (`- item` lines at one
/// indentation), and flow sequences and TOML arrays (`[a, "b"]`, over several lines too) that
/// are a value (after `key:`, `key =` or `- `). Block scalars and multi-line strings are
/// stepped over.
pub fn text_elements(text: &str) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    // The open block sequence: its indentation and group.
    let mut sequence: Option<(usize, usize)> = None;
    let mut skip_deeper: Option<usize> = None;
    let mut in_multiline: Option<&str> = None;
    let mut flow_until = 0;
    for (start, line) in super::keys::lines(text) {
        if start < flow_until {
            continue;
        }
        if let Some(delimiter) = in_multiline {
            if line.contains(delimiter) {
                in_multiline = None;
            }
            continue;
        }
        let content = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - content.len();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some(depth) = skip_deeper {
            if indent > depth {
                continue;
            }
            skip_deeper = None;
        }
        let item = content
            .strip_prefix("- ")
            .or_else(|| (content == "-").then_some(""));
        if sequence.is_some_and(|(i, _)| indent < i || (indent == i && item.is_none())) {
            sequence = None;
        }
        // The value the line holds: after `- `, after a key's `:` or `=`.
        let value_at = match item {
            Some(rest) => Some(start + line.len() - rest.len()),
            None => key_value(content).map(|v| start + line.len() - v.len()),
        };
        let Some(value_at) = value_at else {
            continue;
        };
        let value = text
            .get(value_at..start + line.len())
            .unwrap_or_default()
            .trim_start();
        let value_at = start + line.len() - value.len();
        if value.starts_with('[') {
            if let Some((found, end)) = flow_sequence(text, value_at) {
                groups.extend(found);
                flow_until = end;
            }
            continue;
        }
        if value.starts_with('|') || value.starts_with('>') {
            skip_deeper = Some(indent);
        }
        for delimiter in ["\"\"\"", "'''"] {
            if value.starts_with(delimiter) && !value[3..].contains(delimiter) {
                in_multiline = Some(delimiter);
            }
        }
        // A scalar item of a block sequence (not a mapping, not a nested collection).
        if item.is_some() && key_value(value).is_none() && !value.starts_with(['{', '|', '>', '&', '*', '!'])
        {
            let Some(element) = scalar(text, value_at, start + line.len()) else {
                continue;
            };
            let group = match sequence {
                Some((i, g)) if i == indent => g,
                _ => {
                    groups.push(Group {
                        collection: Collection::List("list"),
                        elements: Vec::new(),
                    });
                    sequence = Some((indent, groups.len() - 1));
                    groups.len() - 1
                }
            };
            groups[group].elements.push(element);
        }
    }
    groups.into_iter().filter(|g| g.elements.len() > 1).collect()
}

/// The value after a key at the start of `s` (`key: value`, `key = value`, quoted keys too).
fn key_value(s: &str) -> Option<&str> {
    let end = match s.chars().next()? {
        q @ ('"' | '\'') => s[1..].find(q)? + 2,
        _ => s.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))?,
    };
    let rest = s.get(end..)?.trim_start_matches([' ', '\t']);
    if let Some(value) = rest.strip_prefix(':') {
        (value.is_empty() || value.starts_with([' ', '\t'])).then_some(value)
    } else {
        rest.strip_prefix('=')
    }
}

/// A scalar written from `start` to the end of its line `end`: a quoted string's inside, or a
/// plain scalar up to a comment.
fn scalar(text: &str, start: usize, end: usize) -> Option<Element> {
    let written = text.get(start..end)?;
    let element = |from: usize, to: usize| {
        Some(Element {
            value: text.get(from..to)?.to_string(),
            range: from..to,
        })
    };
    match written.chars().next()? {
        q @ ('"' | '\'') => {
            let close = written[1..].find(q)? + 1;
            element(start + 1, start + close)
        }
        _ => {
            let plain = written.find(" #").map_or(written, |i| &written[..i]).trim_end();
            (!plain.is_empty()).then(|| element(start, start + plain.len()))?
        }
    }
}

/// The flow sequence whose `[` is at `open`: its groups (one per array, nested ones included),
/// and where it ends. Items are quoted strings or plain scalars; comments (`#`) are stepped
/// over, and so are inline tables and mappings (`{...}`), which are no scalar.
fn flow_sequence(text: &str, open: usize) -> Option<(Vec<Group>, usize)> {
    let bytes = text.as_bytes();
    let mut groups: Vec<Group> = Vec::new();
    // Open arrays: their group and where their current item started.
    let mut stack: Vec<(usize, Option<usize>)> = Vec::new();
    let mut braces = 0usize;
    let mut i = open;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' | b'\'' => {
                let close = closing_quote(text, i)?;
                if braces == 0
                    && let Some((group, item @ None)) = stack.last_mut()
                {
                    *item = Some(i);
                    groups[*group].elements.push(Element {
                        value: text[i + 1..close].to_string(),
                        range: i + 1..close,
                    });
                }
                i = close + 1;
                continue;
            }
            b'#' => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'{' => {
                if braces == 0
                    && let Some((_, item)) = stack.last_mut()
                {
                    item.get_or_insert(i);
                }
                braces += 1;
            }
            b'}' => braces = braces.saturating_sub(1),
            _ if braces > 0 => {}
            b'[' => {
                // An array is an item of the enclosing one, and no scalar.
                if let Some((_, item)) = stack.last_mut() {
                    item.get_or_insert(i);
                }
                groups.push(Group {
                    collection: Collection::List("array"),
                    elements: Vec::new(),
                });
                stack.push((groups.len() - 1, None));
            }
            b',' | b']' => {
                if let Some((group, item)) = stack.last_mut()
                    && let Some(from) = item.take()
                    && !matches!(bytes[from], b'"' | b'\'' | b'[' | b'{')
                {
                    // A plain scalar item.
                    let plain = text[from..i].trim_end();
                    groups[*group].elements.push(Element {
                        value: plain.to_string(),
                        range: from..from + plain.len(),
                    });
                }
                if c == b']' {
                    stack.pop()?;
                    if stack.is_empty() {
                        return Some((
                            groups.into_iter().filter(|g| g.elements.len() > 1).collect(),
                            i + 1,
                        ));
                    }
                }
            }
            _ if !c.is_ascii_whitespace() => {
                if let Some((_, item @ None)) = stack.last_mut() {
                    *item = Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where the quote closing the string opened at `open` is (a `\` escapes in `"` strings).
fn closing_quote(text: &str, open: usize) -> Option<usize> {
    let quote = *text.as_bytes().get(open)?;
    let mut escaped = false;
    for (i, &b) in text.as_bytes().iter().enumerate().skip(open + 1) {
        if escaped {
            escaped = false;
        } else if b == b'\\' && quote == b'"' {
            escaped = true;
        } else if b == quote {
            return Some(i);
        } else if b == b'\n' {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(groups: &[Group]) -> Vec<Vec<String>> {
        groups
            .iter()
            .map(|g| g.elements.iter().map(|e| e.value.clone()).collect())
            .collect()
    }

    fn elements_of(surface: Surface, text: &str, piece: &str) -> Vec<Group> {
        let docs = crate::lang::documents(surface, text);
        let at = text.find(piece).expect("the piece");
        let ranges: Vec<Range<usize>> = std::iter::once(at..at + piece.len()).collect();
        sibling_elements(&docs[0], &ranges)
    }

    #[test]
    fn python_lists_tuples_sets_and_enums() {
        let text = "A = ['x', (\"y\"), f(), 'z']\nB = ('p', 'q')\nC = {'s', 't'}\nclass M(str, enum.Enum):\n    \"\"\"doc\"\"\"\n    X = 'e1'\n    _hidden = 'h'\n    Y = 'e2'\nclass N:\n    X = 'n1'\n    Y = 'n2'\nD = {'k': 'v', 'l': 'w'}\n";
        let of = |piece| values(&elements_of(Surface::Python, text, piece));
        assert_eq!(of("'x'"), [["x", "y", "z"]]);
        assert_eq!(of("'q'"), [["p", "q"]]);
        assert_eq!(of("'t'"), [["s", "t"]]);
        assert_eq!(of("'e2'"), [["e1", "e2"]]);
        assert!(of("'n2'").is_empty());
        assert!(of("'w'").is_empty());
        let groups = elements_of(Surface::Python, text, "\"y\"");
        assert_eq!(groups[0].collection, Collection::List("list"));
        assert_eq!(&text[groups[0].elements[1].range.clone()], "y");
    }

    #[test]
    fn javascript_arrays_and_typescript_enums() {
        let text = "const a = ['x', `y`, ...rest];\nexport const enum M { X = 'e1', Y = \"e2\", Z = 3 }\nconst o = { X: 'o1', Y: 'o2' };\n";
        let of = |piece| values(&elements_of(Surface::TypeScript, text, piece));
        assert_eq!(of("'x'"), [["x", "y"]]);
        let groups = elements_of(Surface::TypeScript, text, "'e1'");
        assert_eq!(values(&groups), [["e1", "e2"]]);
        assert_eq!(groups[0].collection, Collection::Enum { alias: false });
        assert!(of("'o1'").is_empty());
    }

    #[test]
    fn json_arrays() {
        let text = "{\"models\": [\"a\", \"b\", 3, {\"c\": \"d\"}], \"x\": \"a\"}";
        let of = |piece| values(&elements_of(Surface::Json, text, piece));
        assert_eq!(of("\"b\""), [["a", "b"]]);
        assert!(of("\"d\"").is_empty());
    }

    #[test]
    fn yaml_sequences_and_toml_arrays() {
        let text = "models:\n  - gemini-a\n  - \"gemini-b\"  # note\n  - name: x\nother: [a, 'b', [c, d], {e: f, g: [h, i]}]\nscript: |\n  - e\n  - f\nlist = [\n  \"g\", # comment\n  \"h\",\n]\n[table]\nk = 1\n";
        let groups = text_elements(text);
        assert_eq!(
            values(&groups),
            [
                vec!["gemini-a", "gemini-b"],
                vec!["a", "b"],
                vec!["c", "d"],
                vec!["g", "h"]
            ]
        );
        assert_eq!(&text[groups[0].elements[1].range.clone()], "gemini-b");
    }
}
