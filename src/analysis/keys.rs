//! The keys of a document's mappings, grouped by the mapping they belong to: JSON objects,
//! Python dicts and JavaScript objects from their syntax trees; YAML mappings, TOML tables and
//! INI sections from the lines of a text file. A rewrite of a key can then be checked against
//! its siblings: two equal keys in one mapping make a TOML file that no longer loads and a JSON
//! object whose loader keeps only one of the values.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::lang::json::scan::{Json, Step};
use crate::lang::{CommentStyle, Document, Surface, Syntax, ir};

/// A key as written: where its text is (inside the quotes) and that text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub range: Range<usize>,
    pub text: String,
}

/// The keys of the mappings of a document that have a key holding one of `ranges`, one group
/// per mapping (in a text file, of every mapping). A group may hold the same key text more than
/// once (a TOML table named by a header and by its sub-tables' headers): that is one key, not
/// two.
pub fn sibling_keys(doc: &Document, ranges: &[Range<usize>]) -> Vec<Vec<Key>> {
    match (&doc.surface, &doc.syntax) {
        (Surface::Json, Syntax::Json(json)) => json_keys(json, &doc.text, ranges),
        (
            Surface::Python | Surface::JavaScript | Surface::TypeScript | Surface::Tsx,
            Syntax::Lowered(tree),
        ) => tree_keys(tree, &doc.text, ranges),
        (Surface::Text(CommentStyle::Hash), _) => {
            let mut groups: Vec<Vec<Key>> = yaml_mappings(&doc.text)
                .into_iter()
                .filter(|g| g.len() > 1)
                .collect();
            groups.extend(toml_keys(&doc.text));
            groups
        }
        _ => Vec::new(),
    }
}

/// JSON objects with a key holding one of `ranges`: their pairs' keys, as [`tree_keys`] reads
/// them in a syntax tree.
fn json_keys(json: &Json, text: &str, ranges: &[Range<usize>]) -> Vec<Vec<Key>> {
    let mut groups = Vec::new();
    let mut mappings: Vec<usize> = Vec::new();
    for range in ranges {
        // The nearest member holds the range in its key or in its value (an array's items are
        // not members: the search goes on above them).
        let nearest = json
            .path(range.clone())
            .into_iter()
            .rev()
            .find_map(|(_, step)| match step {
                Step::Key(object, _) => Some(Some(object)),
                Step::Value(..) => Some(None),
                Step::Item(_) | Step::Top => None,
            });
        let Some(Some(object)) = nearest else {
            continue;
        };
        if mappings.contains(&object.range.start) {
            continue;
        }
        mappings.push(object.range.start);
        let keys: Vec<Key> = object
            .members()
            .iter()
            .filter_map(|m| m.pair())
            .filter_map(|(key, _)| {
                let range = key.inner();
                Some(Key {
                    text: text.get(range.clone())?.to_string(),
                    range,
                })
            })
            .collect();
        if keys.len() > 1 {
            groups.push(keys);
        }
    }
    groups
}

/// Python dicts and JavaScript objects with a key holding one of `ranges`: their pairs' literal
/// keys. The nearest pair around a range holds it in its key or in its value; in its value, so
/// does every pair above it, and the range is no key.
fn tree_keys(tree: &ir::Tree, text: &str, ranges: &[Range<usize>]) -> Vec<Vec<Key>> {
    let pair = |e: &ir::Entry| match &e.key {
        ir::Key::Name(k) => k.span != e.span,
        ir::Key::Str(_) | ir::Key::Computed(_) => true,
        ir::Key::Spread | ir::Key::Method(_) => false,
    };
    // Every pair of every mapping, by where it starts, with the furthest end up to it: the
    // innermost pair around a range is the last one starting before it that ends after it, and
    // the search stops where no earlier pair reaches the range.
    let mut pairs: Vec<(ir::NodeId, &ir::Entry)> = Vec::new();
    for (id, node) in tree.nodes.iter().enumerate() {
        if let ir::Kind::Dict(d) = &node.kind {
            pairs.extend(d.items.iter().filter(|e| pair(e)).map(|e| (id as ir::NodeId, e)));
        }
    }
    pairs.sort_by_key(|(_, e)| (e.span.start, std::cmp::Reverse(e.span.end)));
    let mut reach = Vec::with_capacity(pairs.len());
    let mut furthest = 0;
    for (_, e) in &pairs {
        furthest = furthest.max(e.span.end as usize);
        reach.push(furthest);
    }
    let mut groups = Vec::new();
    let mut mappings: Vec<ir::NodeId> = Vec::new();
    for range in ranges {
        let before = pairs.partition_point(|(_, e)| e.span.start as usize <= range.start);
        let mut nearest: Option<(ir::NodeId, &ir::Entry)> = None;
        for i in (0..before).rev() {
            if reach[i] < range.end {
                break;
            }
            let (id, e) = pairs[i];
            if range.end <= e.span.end as usize {
                nearest = Some((id, e));
                break;
            }
        }
        let Some((mapping, entry)) = nearest else {
            continue;
        };
        let in_key = key_span(tree, text, &entry.key).is_some_and(|k| {
            let k = k.range();
            k.start <= range.start && range.end <= k.end
        });
        if !in_key || mappings.contains(&mapping) {
            continue;
        }
        mappings.push(mapping);
        let ir::Kind::Dict(d) = tree.kind(mapping) else {
            continue;
        };
        let keys: Vec<Key> = d
            .items
            .iter()
            .filter(|e| pair(e))
            .filter_map(|e| literal_key(tree, text, &e.key))
            .collect();
        if keys.len() > 1 {
            groups.push(keys);
        }
    }
    groups
}

/// Where a key is written: a string with its quotes, a name, a number.
fn key_span(tree: &ir::Tree, text: &str, key: &ir::Key) -> Option<ir::Span> {
    match key {
        ir::Key::Name(k) | ir::Key::Str(k) => Some(k.span),
        ir::Key::Computed(k) => {
            let span = tree.span(*k);
            // `[expr]` is no key as written.
            let bracketed = text
                .get(..span.start as usize)
                .is_some_and(|before| before.trim_end().ends_with('['));
            (!bracketed).then_some(span)
        }
        _ => None,
    }
}

/// The text of a literal key: a string's content without its quotes (not an f-string or a
/// template), a bare property name, a number.
fn literal_key(tree: &ir::Tree, text: &str, key: &ir::Key) -> Option<Key> {
    let range = match key {
        ir::Key::Name(k) => k.span.range(),
        ir::Key::Str(k) => {
            let written = text.get(k.span.range())?;
            // A prefix (`r`, `b`), then one or three quotes on each side.
            let open = written.find(['"', '\''])?;
            let quote = &written[open..];
            let width = if quote.starts_with("\"\"\"") || quote.starts_with("'''") {
                3
            } else {
                1
            };
            let start = k.span.start as usize + open + width;
            let end = (k.span.end as usize).saturating_sub(width);
            start..end.max(start)
        }
        ir::Key::Computed(k) if matches!(tree.kind(*k), ir::Kind::Int(_) | ir::Kind::Number) => {
            key_span(tree, text, key)?.range()
        }
        _ => return None,
    };
    Some(Key {
        text: text.get(range.clone())?.to_string(),
        range,
    })
}

/// One line of a text file, with where it starts.
pub(super) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n').map(move |line| {
        let start = at;
        at += line.len();
        (start, line.trim_end_matches(['\n', '\r']))
    })
}

/// A quoted key (`"a.b"`, `'a'`) or a bare one made of `bare` characters, at the start of
/// `s`: its text range within `s` and where it ends.
fn key_at(s: &str, bare: impl Fn(char) -> bool) -> Option<(Range<usize>, usize)> {
    match s.chars().next()? {
        q @ ('"' | '\'') => {
            let mut escaped = false;
            for (i, c) in s.char_indices().skip(1) {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    return Some((1..i, i + 1));
                }
            }
            None
        }
        _ => {
            let end = s.find(|c: char| !bare(c)).unwrap_or(s.len());
            (end > 0).then_some((0..end, end))
        }
    }
}

/// YAML block mappings (see [`yaml_mappings`]) with more than one key.
#[cfg(test)]
fn yaml_keys(text: &str) -> Vec<Vec<Key>> {
    yaml_mappings(text).into_iter().filter(|g| g.len() > 1).collect()
}

/// Every YAML block mapping of a text, in order, a mapping of a single key included: a key line `key: value` (or `- key: value`, which starts a mapping in a
/// sequence) belongs to the mapping of the keys at its indentation since the last line less
/// indented or the last item at its indentation. Block scalars and quoted values that go on
/// over several lines are stepped over.
pub fn yaml_mappings(text: &str) -> Vec<Vec<Key>> {
    let plain = |c: char| {
        !matches!(c, ':' | '#' | '"' | '\'' | '=' | '{' | '}' | '[' | ']' | ',') && !c.is_whitespace()
    };
    let mut groups: Vec<Vec<Key>> = Vec::new();
    // (indentation of the keys, their group)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    // Lines more indented than this belong to a block scalar or a quoted value.
    let mut skip_deeper: Option<usize> = None;
    let mut open_quote: Option<char> = None;
    for (start, line) in lines(text) {
        if let Some(q) = open_quote {
            if line.contains(q) {
                open_quote = None;
            }
            continue;
        }
        let content = line.trim_start_matches(' ');
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
        let mut column = indent;
        let mut rest = content;
        let mut item = false;
        while let Some(after) = rest.strip_prefix("- ") {
            let trimmed = after.trim_start_matches(' ');
            column += rest.len() - trimmed.len();
            rest = trimmed;
            item = true;
        }
        let key = key_at(rest, plain).and_then(|(range, end)| {
            let after = rest[end..].trim_start_matches(' ');
            let value = after.strip_prefix(':')?;
            (value.is_empty() || value.starts_with(' ')).then(|| (range, value.trim()))
        });
        while stack
            .last()
            .is_some_and(|(i, _)| *i > column || (!item && key.is_none() && *i >= column))
        {
            stack.pop();
        }
        let Some((range, value)) = key else {
            continue;
        };
        let group = match stack.last() {
            Some((i, g)) if *i == column && !item => *g,
            _ => {
                if stack.last().is_some_and(|(i, _)| *i == column) {
                    stack.pop();
                }
                groups.push(Vec::new());
                stack.push((column, groups.len() - 1));
                groups.len() - 1
            }
        };
        let at = start + column;
        groups[group].push(Key {
            text: rest[range.clone()].to_string(),
            range: at + range.start..at + range.end,
        });
        if value.starts_with('|') || value.starts_with('>') {
            skip_deeper = Some(column);
        } else if let Some(q) = value.chars().next().filter(|c| matches!(c, '"' | '\''))
            && key_at(value, |_| false).is_none()
        {
            open_quote = Some(q);
        }
    }
    groups
}

/// A dotted TOML key (`a."b.c".d`) at the start of `s`: its segments and where it ends.
fn dotted_key(s: &str, base: usize) -> Option<(Vec<Key>, usize)> {
    let bare = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut keys = Vec::new();
    let mut at = 0;
    loop {
        let skipped = s[at..].len() - s[at..].trim_start_matches([' ', '\t']).len();
        at += skipped;
        let (range, end) = key_at(&s[at..], bare)?;
        keys.push(Key {
            text: s[at + range.start..at + range.end].to_string(),
            range: base + at + range.start..base + at + range.end,
        });
        at += end;
        let skipped = s[at..].len() - s[at..].trim_start_matches([' ', '\t']).len();
        match s[at + skipped..].strip_prefix('.') {
            Some(_) => at += skipped + 1,
            None => return Some((keys, at + skipped)),
        }
    }
}

/// TOML tables (and INI sections): every key path the file defines, from its `[table]` and
/// `[[array]]` headers and its `key = value` lines, grouped by the table that holds them.
/// Multi-line strings and arrays are stepped over.
fn toml_keys(text: &str) -> Vec<Vec<Key>> {
    let mut groups: BTreeMap<Vec<String>, Vec<Key>> = BTreeMap::new();
    let mut table: Vec<Key> = Vec::new();
    let mut arrays = 0;
    let mut depth = 0i32;
    let mut in_multiline: Option<&str> = None;
    let add = |path: &[Key], groups: &mut BTreeMap<Vec<String>, Vec<Key>>| {
        for (i, key) in path.iter().enumerate() {
            let parent: Vec<String> = path[..i].iter().map(|k| k.text.clone()).collect();
            let group = groups.entry(parent).or_default();
            if !group.iter().any(|k| k.range == key.range) {
                group.push(key.clone());
            }
        }
    };
    for (start, line) in lines(text) {
        if let Some(delimiter) = in_multiline {
            if line.contains(delimiter) {
                in_multiline = None;
            }
            continue;
        }
        if depth > 0 {
            depth += bracket_depth(line);
            continue;
        }
        let content = line.trim_start_matches([' ', '\t']);
        let at = start + line.len() - content.len();
        if let Some(header) = content.strip_prefix('[') {
            let array = header.starts_with('[');
            let header = header.trim_start_matches('[');
            let base = at + content.len() - header.len();
            let Some((mut path, end)) = dotted_key(header, base) else {
                continue;
            };
            if !header[end..].starts_with(']') {
                continue;
            }
            if array {
                // Each element of an array of tables is a table of its own.
                arrays += 1;
                add(&path, &mut groups);
                if let Some(last) = path.last_mut() {
                    last.text = format!("{}[{arrays}]", last.text);
                }
                table = path;
                continue;
            }
            add(&path, &mut groups);
            table = path;
            continue;
        }
        let Some((keys, end)) = dotted_key(content, at) else {
            continue;
        };
        let Some(value) = content[end..].strip_prefix('=') else {
            continue;
        };
        let mut path = table.clone();
        path.extend(keys);
        add(&path, &mut groups);
        let value = value.trim_start();
        for delimiter in ["\"\"\"", "'''"] {
            if value.starts_with(delimiter) && !value[3..].contains(delimiter) {
                in_multiline = Some(delimiter);
            }
        }
        depth = bracket_depth(value).max(0);
    }
    groups
        .into_values()
        .filter(|g| g.iter().any(|k| k.text != g[0].text))
        .collect()
}

/// How many more `[` and `{` than `]` and `}` a line of values opens, outside strings and
/// comments.
fn bracket_depth(line: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                '#' => break,
                _ => {}
            },
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(groups: Vec<Vec<Key>>) -> Vec<Vec<String>> {
        groups
            .into_iter()
            .map(|g| g.into_iter().map(|k| k.text).collect())
            .collect()
    }

    /// The groups of keys around each written piece of `text`.
    fn code_keys(surface: Surface, text: &str, pieces: &[&str]) -> Vec<Vec<String>> {
        let docs = crate::lang::documents(surface, text);
        let ranges: Vec<Range<usize>> = pieces
            .iter()
            .filter_map(|p| text.find(p).map(|at| at..at + p.len()))
            .collect();
        texts(sibling_keys(&docs[0], &ranges))
    }

    #[test]
    fn keys_of_python_dicts_and_javascript_objects() {
        let python = "c = {'model': 'x', r'temp': {\"top_k\": 1, \"top_p\": 2}, 3: 'n', **rest}\n";
        // A key of the outer dict, a key of the inner one, a value (no key).
        assert_eq!(
            code_keys(Surface::Python, python, &["model"]),
            [["model", "temp", "3"]]
        );
        assert_eq!(
            code_keys(Surface::Python, python, &["top_p"]),
            [["top_k", "top_p"]]
        );
        assert!(code_keys(Surface::Python, python, &["'x'"]).is_empty());
        // Two ranges in one mapping make one group.
        assert_eq!(code_keys(Surface::Python, python, &["model", "temp"]).len(), 1);
        let js = "const c = { model: 'x', 'temp': { topK: 1, topP: 2 }, 3: 'n', short, [k]: 1, m() {} };\n";
        assert_eq!(
            code_keys(Surface::TypeScript, js, &["model"]),
            [["model", "temp", "3"]]
        );
        assert_eq!(code_keys(Surface::TypeScript, js, &["topP"]), [["topK", "topP"]]);
        assert!(code_keys(Surface::TypeScript, js, &["short"]).is_empty());
        assert!(code_keys(Surface::TypeScript, js, &["topK: 1"]).is_empty());
    }

    #[test]
    fn yaml_mappings_by_indentation_and_items() {
        let text = "models:\n  \"gemini-2.0-flash\": {a: 1}\n  gemini-3.5-flash:\n    b: |\n      c: d\n    e: 2\nlist:\n  - x: 1\n    y: 2\n  - x: 3\n";
        assert_eq!(
            texts(yaml_keys(text)),
            [
                vec!["models", "list"],
                vec!["gemini-2.0-flash", "gemini-3.5-flash"],
                vec!["b", "e"],
                vec!["x", "y"],
            ]
        );
        let key = &yaml_keys(text)[1][0];
        assert_eq!(&text[key.range.clone()], "gemini-2.0-flash");
    }

    #[test]
    fn toml_tables_and_dotted_keys() {
        let text = "[overrides]\na = 1\n[overrides.\"model-2.0-flash\"]\nx = [\n  \"y = 1\",\n]\n[overrides.'model-3.5-flash']\ns = \"\"\"\nk = 2\n\"\"\"\n";
        let groups = texts(toml_keys(text));
        assert_eq!(groups, [["a", "model-2.0-flash", "model-3.5-flash"]]);
        assert!(!groups.iter().flatten().any(|k| k == "y" || k == "k"));
        let text = "[[m]]\nid = 1\n[[m]]\nid = 2\n";
        assert!(
            texts(toml_keys(text))
                .iter()
                .all(|g| g.iter().filter(|k| *k == "id").count() < 2)
        );
    }
}
