//! Collections a model id can be an entry of, where the shared form does not say: YAML
//! sequences and TOML arrays read from the lines of a text file, Python enums (a class with a
//! base named `*Enum`) and TypeScript `enum`s. [`super::knowledge`] tells from them what an
//! application knows about models.

use std::ops::Range;

use crate::lang::ir;

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
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub collection: Collection,
    pub elements: Vec<Element>,
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

/// Whether the assignment `assign` is a member of a Python enum (`NAME = "value"` in the body
/// of a class with a base named `*Enum`).
pub fn is_enum_member(tree: &ir::Tree, assign: ir::NodeId) -> bool {
    enum_class(tree, assign).is_some()
}

/// Whether the text at `range` is a TypeScript enum declaration (`enum`, `const enum`,
/// `declare enum`).
pub fn is_ts_enum(text: &str, range: Range<usize>) -> bool {
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

/// The lists of a YAML or TOML text: YAML block sequences of scalars (`- item` lines at one
/// indentation), and flow sequences and TOML arrays (`[a, "b"]`, over several lines too) that
/// are a value (after `key:`, `key =` or `- `). Block scalars and multi-line strings are
/// stepped over.
pub fn text_elements(text: &str) -> Vec<Group> {
    text_lists(text)
        .into_iter()
        .filter(|g| g.elements.len() > 1)
        .collect()
}

/// The lists of a YAML or TOML text, as [`text_elements`], those of one element included.
pub fn text_lists(text: &str) -> Vec<Group> {
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
    groups
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
