//! Jupyter notebooks (`.ipynb`): code cells as Python, Markdown cells as Markdown.
//!
//! The notebook is parsed as JSON with spans kept; each cell's `source` strings are decoded into
//! one document whose map points back into those strings, so a fix rewrites the cell in place
//! and the notebook stays valid JSON. Outputs and metadata are never read as code.

use super::Document;
use super::json::scan::{self, Node};
use super::treesitter;
use super::{CommentStyle, OffsetMap, Surface, json};

pub fn documents(text: &str) -> Vec<Document> {
    // Outputs and attachments (most of a notebook's bytes: printed text, base64 images) are never
    // read: the parser jumps over them.
    let parsed = scan::parse_skipping(text, &unread_values(text));
    // A notebook that is not valid JSON cannot be trusted cell by cell: read it as text.
    if parsed.errors > 0 {
        return vec![super::text::parse(CommentStyle::None, text.to_string())];
    }
    let Some(root) = parsed.values.first().filter(|n| n.is_object()) else {
        return Vec::new();
    };
    let code_surface = match kernel_language(root, text).as_deref() {
        None | Some("python") => Surface::Python,
        Some(_) => Surface::Text(CommentStyle::None),
    };
    let Some(cells) = member(root, text, "cells").filter(|n| n.is_array()) else {
        return Vec::new();
    };
    let mut docs: Vec<CellDocument> = Vec::new();
    for (index, cell) in cells.items().iter().filter(|n| n.is_object()).enumerate() {
        let surface = match member(cell, text, "cell_type")
            .map(|n| string_value(n, text))
            .as_deref()
        {
            Some("code") => code_surface,
            Some("markdown") => Surface::Markdown,
            _ => continue,
        };
        let Some(source) = member(cell, text, "source") else {
            continue;
        };
        let (mut content, map) = decode_source(source, text);
        // Findings show the cell as it is written (`%pip`, not the `#pip` the parser reads):
        // the masks below change single bytes, so offsets are the same in both.
        let shown: std::sync::Arc<str> = std::sync::Arc::from(content.as_str());
        // A `%%bash` cell is a shell script; its magic line reads as a shell comment.
        let surface = match shell_cell_magic(&content) {
            Some(at) if surface == Surface::Python => {
                content.replace_range(at..at + 1, "#");
                Surface::Shell
            }
            _ => surface,
        };
        // Its shell lines (`!curl ...`) are a shell script too, at the same offsets.
        let shell = (surface == Surface::Python)
            .then(|| shell_lines(&content))
            .flatten();
        let magics = if surface == Surface::Python {
            comment_out_magics(&mut content)
        } else {
            Vec::new()
        };
        let mut shell_docs = match shell {
            Some(shell) => super::embedded(Surface::Shell, shell, map.clone(), Some(index + 1)),
            None => Vec::new(),
        };
        let code = surface != Surface::Markdown;
        let mut cell_docs = super::embedded(surface, content, map, Some(index + 1));
        for cell in cell_docs
            .iter_mut()
            .chain(shell_docs.iter_mut())
            .filter_map(|d| d.cell.as_mut())
        {
            cell.text = std::sync::Arc::clone(&shown);
        }
        for doc in cell_docs {
            let module = code && doc.surface == Surface::Python;
            docs.push(CellDocument {
                doc,
                magics: magics.clone(),
                module,
            });
        }
        docs.extend(shell_docs.into_iter().map(|doc| CellDocument {
            doc,
            magics: Vec::new(),
            module: false,
        }));
    }
    link_cells(docs)
}

/// The insides of the values of `outputs` and `attachments` keys (`[...]`, `{...}`), found by a
/// scan that knows JSON strings; none when a bracket is unbalanced (the parser then reads all and
/// reports the error).
fn unread_values(text: &str) -> Vec<std::ops::Range<usize>> {
    const KEYS: [&[u8]; 2] = [b"outputs", b"attachments"];
    let bytes = text.as_bytes();
    let mut skip = Vec::new();
    let mut i = 0;
    while let Some(quote) = memchr::memchr(b'"', &bytes[i..]).map(|q| q + i) {
        let Some(end) = string_end(bytes, quote) else {
            return Vec::new();
        };
        i = end;
        if !KEYS.contains(&&bytes[quote + 1..end - 1]) {
            continue;
        }
        let after = |from: usize| (from..bytes.len()).find(|&j| !bytes[j].is_ascii_whitespace());
        let Some(colon) = after(end).filter(|&j| bytes[j] == b':') else {
            continue;
        };
        let Some(open) = after(colon + 1).filter(|&j| matches!(bytes[j], b'[' | b'{')) else {
            continue;
        };
        let Some(close) = closing_bracket(bytes, open) else {
            return Vec::new();
        };
        if close > open + 1 {
            skip.push(open + 1..close);
        }
        i = close + 1;
    }
    skip
}

/// The offset just past the JSON string opening at `quote`.
fn string_end(bytes: &[u8], quote: usize) -> Option<usize> {
    let mut j = quote + 1;
    loop {
        let k = memchr::memchr2(b'"', b'\\', &bytes[j..])? + j;
        if bytes[k] == b'\\' {
            j = k + 2;
            if j > bytes.len() {
                return None;
            }
        } else {
            return Some(k + 1);
        }
    }
}

/// The offset of the bracket closing the one at `open`, strings skipped.
fn closing_bracket(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = open;
    while j < bytes.len() {
        match bytes[j] {
            b'"' => {
                j = string_end(bytes, j)?;
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// The code cells as one module, in cell order: each cell's names resolve to what the earlier
/// cells bound, and no binding is "used only here" when another cell mentions its name.
fn link_cells(docs: Vec<CellDocument>) -> Vec<Document> {
    use std::collections::HashMap;
    let python_tree = |cell: &CellDocument| match (cell.module, &cell.doc.syntax) {
        (true, super::Syntax::TreeSitter(tree)) => Some(tree.clone()),
        _ => None,
    };
    // How often each cell mentions each name, and over all cells.
    let mut mentions: Vec<HashMap<String, usize>> = Vec::with_capacity(docs.len());
    let mut total: HashMap<String, usize> = HashMap::new();
    for cell in &docs {
        let doc = &cell.doc;
        let mut here: HashMap<String, usize> = HashMap::new();
        if let Some(tree) = python_tree(cell) {
            treesitter::visit(tree.root_node(), &mut |node| {
                if node.kind() == "identifier" {
                    *here
                        .entry(treesitter::text_of(node, &doc.text).to_string())
                        .or_default() += 1;
                }
                true
            });
        }
        for (name, n) in &here {
            *total.entry(name.clone()).or_default() += n;
        }
        mentions.push(here);
    }
    let module = module_of(&docs);
    let mut env = super::facts::Env::new();
    let mut out = Vec::with_capacity(docs.len());
    for (cell, here) in docs.into_iter().zip(&mentions) {
        let python = cell.module && matches!(cell.doc.syntax, super::Syntax::TreeSitter(_));
        let CellDocument { mut doc, magics, .. } = cell;
        if python {
            let elsewhere = super::facts::Elsewhere {
                total: Some(&total),
                here: Some(here),
            };
            let (facts, exports) = super::python_facts(&doc.text, &env, &elsewhere);
            doc.set_facts(facts);
            env.extend(exports);
            doc.magics = magics;
        }
        if let Some((module, bases)) = &module
            && let Some(base) = bases.get(out.len()).copied().flatten()
        {
            doc.module = Some((std::rc::Rc::clone(module), base));
        }
        out.push(doc);
    }
    out
}

/// The code cells as one module, parsed once, for what spans cells (see [`super::Module`]);
/// only for a notebook whose code names the API. With it, where each document starts in the
/// module (`None` for documents not in it).
#[allow(clippy::type_complexity)]
fn module_of(docs: &[CellDocument]) -> Option<(std::rc::Rc<super::Module>, Vec<Option<usize>>)> {
    const WORDS: [&str; 3] = ["generativeai", "generate_content", "GenerativeModel"];
    if !docs
        .iter()
        .any(|c| c.module && WORDS.iter().any(|w| c.doc.text.contains(w)))
    {
        return None;
    }
    let mut text = String::new();
    let mut cells = Vec::new();
    let mut bases = Vec::with_capacity(docs.len());
    for cell in docs {
        // A cell that is not Python (`%%writefile` text, a broken cell) stays out: one such
        // cell would otherwise leave the whole notebook without a module.
        if !cell.module || cell.doc.syntax_errors > 0 {
            bases.push(None);
            continue;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        let base = text.len();
        text.push_str(&cell.doc.text);
        cells.push(super::ModuleCell {
            base,
            len: cell.doc.text.len(),
            map: cell.doc.map.clone(),
        });
        bases.push(Some(base));
    }
    let doc = super::python::parse(text);
    if doc.syntax_errors > 0 {
        return None;
    }
    Some((std::rc::Rc::new(super::Module { doc, cells }), bases))
}

/// A document of a notebook cell, before the cells are linked.
struct CellDocument {
    doc: Document,
    /// Lines of IPython magics read as comments.
    magics: Vec<std::ops::Range<usize>>,
    /// Part of the notebook's module: Python in a code cell (not a code block of a Markdown cell).
    module: bool,
}

/// Why a notebook's text is not JSON (and is read as text), if it is not.
pub fn invalid_json(text: &str) -> Option<String> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .err()
        .map(|e| e.to_string())
}

/// `metadata.kernelspec.language` or `metadata.language_info.name`, lower-cased.
fn kernel_language(root: &Node, text: &str) -> Option<String> {
    let metadata = member(root, text, "metadata")?;
    let language = member(metadata, text, "kernelspec")
        .and_then(|k| member(k, text, "language"))
        .or_else(|| member(metadata, text, "language_info").and_then(|l| member(l, text, "name")))?;
    Some(string_value(language, text).to_ascii_lowercase())
}

/// The value of the member `key` of a JSON object node.
fn member<'t>(object: &'t Node, text: &str, key: &str) -> Option<&'t Node> {
    object
        .members()
        .iter()
        .filter_map(|m| m.pair())
        .find(|(k, _)| string_value(k, text) == key)
        .map(|(_, value)| value)
}

fn string_value(node: &Node, text: &str) -> String {
    if !node.is_string() {
        return String::new();
    }
    let (inner, start) = string_inner(node, text);
    let mut scratch = OffsetMap::new(true, false);
    json::decode_string_content(inner, start, 0, &mut scratch)
}

/// The text between a string node's quotes, and where it starts.
fn string_inner<'a>(node: &Node, text: &'a str) -> (&'a str, usize) {
    let range = node.range.clone();
    let start = (range.start + 1).min(range.end);
    let end = range.end.saturating_sub(1).max(start);
    (text.get(start..end).unwrap_or_default(), start)
}

/// A cell's source: one string, or an array of strings joined.
fn decode_source(source: &Node, text: &str) -> (String, OffsetMap) {
    let mut map = OffsetMap::new(true, false);
    let mut content = String::new();
    let mut items = super::JsonItems::default();
    let mut push = |node: &Node, content: &mut String, map: &mut OffsetMap| {
        let (inner, start) = string_inner(node, text);
        let decoded = json::decode_string_content(inner, start, content.len(), map);
        items.items.push(super::JsonItem {
            doc: content.len()..content.len() + decoded.len(),
            file: start..start + inner.len(),
            text: decoded.clone(),
        });
        content.push_str(&decoded);
    };
    match &source.kind {
        scan::Kind::String => push(source, &mut content, &mut map),
        scan::Kind::Array(values) => {
            let strings: Vec<&Node> = values.iter().filter(|n| n.is_string()).collect();
            for item in &strings {
                push(item, &mut content, &mut map);
            }
            items.array = true;
            items.separator = match strings.as_slice() {
                [a, b, ..] => text.get(a.range.end..b.range.start).unwrap_or(",\n").to_string(),
                [a] => {
                    let line_start = text[..a.range.start].rfind('\n').map_or(0, |i| i + 1);
                    let before = &text[line_start..a.range.start];
                    if before.trim().is_empty() {
                        format!(",\n{before}")
                    } else {
                        ", ".to_string()
                    }
                }
                [] => ",\n".to_string(),
            };
        }
        _ => {}
    }
    map.set_items(items);
    (content, map)
}

/// Where a cell's `%%bash` (`%%sh`, `%%script bash`) magic starts, when it has one.
fn shell_cell_magic(content: &str) -> Option<usize> {
    let first = content.lines().find(|l| !l.trim().is_empty())?;
    let words: Vec<&str> = first.split_whitespace().collect();
    let shell = match words.as_slice() {
        ["%%bash" | "%%sh", ..] => true,
        ["%%script", program, ..] => matches!(*program, "bash" | "sh" | "zsh"),
        _ => false,
    };
    shell.then(|| content.find("%%")).flatten()
}

/// A code cell's IPython shell lines (`!curl ...`, with the lines a trailing `\` continues) as a
/// shell script at the same byte offsets: the `!` and every other line blanked with spaces.
/// `None` when no shell line makes a request or reads one (`curl`, `wget`, `http`, `jq`): a cell
/// of `!pip install ...` lines needs no shell document.
fn shell_lines(content: &str) -> Option<String> {
    let mut out = String::with_capacity(content.len());
    let mut any = false;
    let mut continued = false;
    for line in content.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let shell = continued || trimmed.starts_with('!');
        if shell {
            let indent = line.len() - trimmed.len();
            out.push_str(&line[..indent]);
            let bangs = if continued {
                0
            } else {
                trimmed.len() - trimmed.trim_start_matches('!').len()
            };
            out.push_str(&" ".repeat(bangs));
            out.push_str(&trimmed[bangs..]);
            any |= ["curl", "wget", "http", "jq"].iter().any(|w| trimmed.contains(w));
        } else {
            for c in line.chars() {
                match c {
                    '\n' => out.push('\n'),
                    c => out.push_str(&" ".repeat(c.len_utf8())),
                }
            }
        }
        continued = shell && line.trim_end_matches(['\n', '\r']).ends_with('\\');
    }
    any.then_some(out)
}

/// IPython magics (`%pip`, `!ls`) are not Python: turn their first character into `#` so they
/// parse as comments, keeping every offset. Returns the magic lines (without the newline).
fn comment_out_magics(content: &mut String) -> Vec<std::ops::Range<usize>> {
    let mut lines = Vec::new();
    let mut at = 0;
    // A magic line ending in `\` goes on on the next line.
    let mut continued = false;
    for line in content.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let magic = continued || trimmed.starts_with(['%', '!', '?']);
        if magic && !trimmed.trim_end().is_empty() {
            let start = at + (line.len() - trimmed.len());
            lines.push(start..at + line.trim_end_matches(['\n', '\r']).len());
        }
        continued = magic && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        at += line.len();
    }
    for line in &lines {
        content.replace_range(line.start..line.start + 1, "#");
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Edit;

    #[test]
    fn outputs_and_attachments_are_skipped_and_the_cells_read_alike() {
        let text = concat!(
            r#"{"cells": [{"cell_type": "markdown", "attachments": {"a.png": {"image/png": "iVBO]}"}}, "#,
            r#""source": ["Use `gemini-1.5-flash`"]}, {"cell_type": "code", "outputs": [{"text": ["x \"]\" [", "#,
            r#""{\"outputs\": ["]}, {"data": {"k": [[1], {"2": 3}]}}], "source": ["m = \"gemini-1.5-flash\"\n"]}], "#,
            r#""metadata": {}}"#
        );
        let skip = unread_values(text);
        assert_eq!(skip.len(), 2);
        assert!(text[skip[0].clone()].starts_with(r#""a.png""#));
        assert!(text[skip[1].clone()].starts_with(r#"{"text""#));
        assert!(
            text[skip[1].end..].starts_with(r#"], "source""#),
            "{:?}",
            &text[skip[1].clone()]
        );
        // The same documents, at the same offsets, as from a full parse.
        let read = documents(text);
        assert_eq!(read.len(), 2);
        assert_eq!(read[1].text, "m = \"gemini-1.5-flash\"\n");
        let full = scan::parse(text);
        let part = scan::parse_skipping(text, &skip);
        let sources = |json: &scan::Json| {
            let mut found = Vec::new();
            let mut stack: Vec<&Node> = json.values.iter().collect();
            while let Some(node) = stack.pop() {
                for m in node.members() {
                    if let Some((k, v)) = m.pair()
                        && &text[k.range.clone()] == r#""source""#
                    {
                        found.push((m.range.clone(), v.range.clone()));
                    }
                    stack.extend(m.value.iter());
                }
                stack.extend(node.items());
            }
            found
        };
        assert_eq!(sources(&full), sources(&part));
        assert_eq!(part.errors, 0);
        // Unbalanced: nothing is skipped.
        assert!(unread_values(r#"{"outputs": [1, 2"#).is_empty());
        assert!(unread_values(r#"{"outputs": "[unterminated"#).is_empty());
    }

    #[test]
    fn bash_cells_are_shell_scripts() {
        let text = r#"{"cells": [{"cell_type": "code", "source": ["%%bash\n", "curl https://h/v1beta/models/m:generateContent -d @b.json\n"]}], "metadata": {}}"#;
        let docs = documents(text);
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].surface, Surface::Shell);
        assert!(docs[0].text.starts_with("#%bash\n"));
        assert_eq!(docs[0].facts().http.len(), 1);
    }

    #[test]
    fn cells_are_documents() {
        let text = r##"{"cells": [
 {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "text"]},
 {"cell_type": "code", "metadata": {}, "outputs": [{"text": "x = 'out'"}], "source": ["!pip install x\n", "y = \"in\""]}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"##;
        let docs = documents(text);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].surface, Surface::Markdown);
        assert_eq!(docs[0].cell.as_ref().map(|c| c.index), Some(1));
        assert_eq!(docs[1].surface, Surface::Python);
        assert_eq!(docs[1].cell.as_ref().map(|c| c.index), Some(2));
        assert_eq!(docs[1].text, "#pip install x\ny = \"in\"");
        assert_eq!(docs[1].syntax_errors, 0);
        let inner = docs[1].text.find("in\"").unwrap();
        let map = docs[1].map.as_ref().unwrap();
        assert_eq!(&text[map.range(inner..inner + 2)], "in");
    }

    #[test]
    fn invalid_notebooks_are_text() {
        let docs = documents("{\"cells\": [ \"m\" \"n\" ]}");
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].surface, Surface::Text(CommentStyle::None));
    }

    #[test]
    fn code_blocks_in_markdown_cells_map_across_escapes() {
        let text = r#"{"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["Intro\n", "```sh\n", "curl \"https://x/models/m:go\" \\\n", "```\n"]}]}"#;
        let docs = documents(text);
        let block = docs
            .iter()
            .find(|d| d.surface == Surface::Shell)
            .expect("the block");
        let m = block.text.find("m:go").expect("in the block");
        let map = block.map.as_ref().expect("embedded");
        assert_eq!(&text[map.range(m..m + 4)], "m:go");
        let edit = map.edit(&Edit::replace(m..m + 1, "n")).expect("carried");
        assert_eq!(&text[edit.range], "m");
        let origin = block.cell.as_ref().expect("in a cell");
        assert_eq!(&origin.text[origin.offset(m)..origin.offset(m) + 4], "m:go");
    }
}
