//! Jupyter notebooks (`.ipynb`): code cells as Python, Markdown cells as Markdown.
//!
//! The notebook is parsed as JSON with spans kept; each cell's `source` strings are decoded into
//! one document whose map points back into those strings, so a fix rewrites the cell in place
//! and the notebook stays valid JSON. Outputs and metadata are never read as code.

use super::Document;
use super::json::scan::{self, Node};
use super::{CommentStyle, OffsetMap, Surface, json};

pub fn documents(text: &str) -> Vec<Document> {
    // Outputs and attachments (most of a notebook's bytes: printed text, base64 images) are never
    // read: the parser jumps over them.
    let parsed = scan::parse_skipping(text, &unread_values(text.as_bytes()));
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
    // The documents in cell order; a Python code cell's waits for the module its cells make.
    let mut slots: Vec<Slot> = Vec::new();
    let mut code: Vec<CodeCell> = Vec::new();
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
        // Findings show the cell as it is written (`%%bash`, not the `#%bash` the shell parser
        // reads): the mask below changes one byte, so offsets are the same in both.
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
        let shell_docs = match shell {
            Some(shell) => super::embedded(Surface::Shell, shell, map.clone(), Some(index + 1)),
            None => Vec::new(),
        };
        if surface == Surface::Python {
            slots.push(Slot::Code(code.len()));
            code.push(CodeCell {
                magics: magic_lines(&content),
                content,
                map,
                index: index + 1,
            });
        } else {
            let mut cell_docs = super::embedded(surface, content, map, Some(index + 1));
            for doc in &mut cell_docs {
                if let Some(cell) = doc.cell.as_mut() {
                    cell.text = std::sync::Arc::clone(&shown);
                }
            }
            slots.extend(
                cell_docs
                    .into_iter()
                    .map(|doc| Slot::Ready(Box::new(CellDocument::apart(doc)))),
            );
        }
        slots.extend(
            shell_docs
                .into_iter()
                .map(|doc| Slot::Ready(Box::new(CellDocument::apart(doc)))),
        );
    }
    let (mut code_docs, module) = code_cells(code);
    let mut docs = Vec::with_capacity(slots.len());
    for slot in slots {
        match slot {
            Slot::Ready(doc) => docs.push(*doc),
            Slot::Code(i) => {
                if let Some(doc) = code_docs.get_mut(i).and_then(Option::take) {
                    docs.push(doc);
                }
            }
        }
    }
    link_cells(docs, module)
}

/// A document of a notebook, or the place of a Python code cell's.
enum Slot {
    Ready(Box<CellDocument>),
    Code(usize),
}

/// A Python code cell's source, before it is parsed.
struct CodeCell {
    content: String,
    map: OffsetMap,
    /// 1-based index of the cell in the notebook.
    index: usize,
    magics: Vec<std::ops::Range<usize>>,
}

/// The code cells' documents and, for a notebook whose code names the API, the module
/// they make (see [`super::Module`]) with where each document starts in it.
///
/// The cells are joined and parsed once, as one module in IPython mode, and each cell's tree is
/// lowered from that parse. A cell opened by a cell magic whose body may not be Python
/// (`%%writefile`, `%%bigquery`; not `%%time`) is first parsed alone, and stays out of the
/// module when it does not parse, as a cell with an error must not change what the others
/// read. When the module still has a syntax error (or a statement runs from one cell into the
/// next), each cell is parsed alone, and the module is made of the cells that parse.
fn code_cells(cells: Vec<CodeCell>) -> (Vec<Option<CellDocument>>, Option<ModuleOf>) {
    // The interactions call too: a notebook whose requests a first pass of fixes rewrote is still
    // one module for the next pass (a config another cell sets a field of stays typed).
    const WORDS: [&str; 5] = [
        "generativeai",
        "generate_content",
        "GenerativeModel",
        "chats.create",
        "interactions.create",
    ];
    let whole = cells.iter().any(|c| WORDS.iter().any(|w| c.content.contains(w)));
    // The cells read alone: those whose cell magic may hold another language.
    let mut alone: Vec<Option<Document>> = cells
        .iter()
        .map(|c| (!python_cell(&c.content)).then(|| super::python::parse_cell(c.content.clone())))
        .collect();
    let mut text = String::new();
    let mut joined = Vec::new();
    let mut ranges = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        if alone[i].as_ref().is_some_and(|d| d.syntax_errors > 0) {
            continue;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        joined.push(i);
        ranges.push(text.len()..text.len() + cell.content.len());
        text.push_str(&cell.content);
    }
    let lowered = super::python::lower::lower_cells(&text, &ranges, whole)
        .filter(|(trees, _)| trees.iter().all(|t| super::ir::repeated_keywords(t) == 0));
    let parsed_once = lowered.is_some();
    // Each cell's tree from the module's parse; none where the cells are read alone.
    let mut trees: Vec<Option<super::ir::Tree>> = cells.iter().map(|_| None).collect();
    let module = match lowered {
        Some((cell_trees, module_tree)) => {
            let mut bases = vec![None; cells.len()];
            for ((&i, range), tree) in joined.iter().zip(&ranges).zip(cell_trees) {
                bases[i] = Some(range.start);
                trees[i] = Some(tree);
            }
            module_tree.map(|tree| {
                let module_cells = joined
                    .iter()
                    .zip(&ranges)
                    .map(|(&i, range)| super::ModuleCell {
                        number: cells[i].index,
                        base: range.start,
                        len: range.len(),
                        map: Some(cells[i].map.clone()),
                    })
                    .collect();
                let doc = super::python::document(text, tree);
                let module = super::Module {
                    doc,
                    cells: module_cells,
                };
                (std::rc::Rc::new(module), bases)
            })
        }
        None => None,
    };
    let docs: Vec<CellDocument> = cells
        .into_iter()
        .zip(trees)
        .zip(alone.iter_mut())
        .map(|((cell, tree), alone)| cell.document(tree, alone.take()))
        .collect();
    // The module of the cells that parse alone, when the joined cells did not parse.
    let module = match parsed_once {
        true => module,
        false => whole.then(|| module_of(&docs)).flatten(),
    };
    (docs.into_iter().map(Some).collect(), module)
}

/// Whether a code cell is Python throughout: it has no cell magic, or one whose body is Python
/// (`%%time`, `%%capture`: IPython's, as ruff lists them).
fn python_cell(content: &str) -> bool {
    const PYTHON: [&str; 8] = [
        "capture", "debug", "prun", "pypy", "python", "python3", "time", "timeit",
    ];
    let Some(first) = content.lines().find(|l| !l.trim().is_empty()) else {
        return true;
    };
    match first.trim_start().strip_prefix("%%") {
        None => true,
        Some(magic) => PYTHON.contains(&magic.split_whitespace().next().unwrap_or_default()),
    }
}

impl CodeCell {
    /// The cell's document, placed in the notebook: from its tree in the module's parse, else
    /// as it was read alone, else read alone now.
    fn document(self, tree: Option<super::ir::Tree>, alone: Option<Document>) -> CellDocument {
        let shown: std::sync::Arc<str> = std::sync::Arc::from(self.content.as_str());
        let doc = match (tree, alone) {
            (Some(tree), _) => super::python::document(self.content, tree),
            (None, Some(doc)) => doc,
            (None, None) => super::python::parse_cell(self.content),
        };
        let mut docs = super::placed(vec![doc], &self.map, Some((self.index, shown)));
        let doc = docs
            .pop()
            .unwrap_or_else(|| super::text::parse(CommentStyle::None, String::new()));
        CellDocument {
            doc,
            magics: self.magics,
            module: true,
        }
    }
}

impl CellDocument {
    /// A document that is not part of the notebook's module.
    fn apart(doc: Document) -> CellDocument {
        CellDocument {
            doc,
            magics: Vec::new(),
            module: false,
        }
    }
}

/// The module of a notebook's code cells, with where each document starts in it.
type ModuleOf = (std::rc::Rc<super::Module>, Vec<Option<usize>>);

/// The bytes of a notebook that its documents are read from: all but the insides of its
/// outputs and attachments (most of its bytes: printed text, base64 images), which no rule
/// reads, in order. The whole when a bracket is unbalanced, as the parser then reads it all.
pub fn read_bytes(bytes: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut at = 0;
    for skip in unread_values(bytes) {
        parts.push(&bytes[at..skip.start]);
        at = skip.end;
    }
    parts.push(&bytes[at..]);
    parts
}

/// The insides of the values of `outputs` and `attachments` keys (`[...]`, `{...}`), found by a
/// scan that knows JSON strings; none when a bracket is unbalanced (the parser then reads all and
/// reports the error).
fn unread_values(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    const KEYS: [&[u8]; 2] = [b"outputs", b"attachments"];
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
fn link_cells(docs: Vec<CellDocument>, module: Option<ModuleOf>) -> Vec<Document> {
    use std::collections::HashMap;
    // How often each cell mentions each name, and over all cells.
    let mut mentions: Vec<HashMap<String, usize>> = Vec::with_capacity(docs.len());
    let mut total: HashMap<String, usize> = HashMap::new();
    for cell in &docs {
        let doc = &cell.doc;
        let mut here: HashMap<String, usize> = HashMap::new();
        if let (true, super::Syntax::Lowered(tree)) = (cell.module, &cell.doc.syntax) {
            for name in &tree.identifiers {
                *here
                    .entry(doc.text.get(name.range()).unwrap_or_default().to_string())
                    .or_default() += 1;
            }
        }
        for (name, n) in &here {
            *total.entry(name.clone()).or_default() += n;
        }
        mentions.push(here);
    }
    let mut env = super::facts::Env::new();
    let mut out = Vec::with_capacity(docs.len());
    // The code cells seen, in order: the index of a cell's start in the module's bases.
    let mut code = 0;
    for (cell, here) in docs.into_iter().zip(&mentions) {
        let CellDocument {
            mut doc,
            magics,
            module: in_module,
        } = cell;
        if in_module && let super::Syntax::Lowered(tree) = &doc.syntax {
            let elsewhere = super::facts::Elsewhere {
                total: Some(&total),
                here: Some(here),
            };
            let (facts, exports) = super::python_facts(tree, &doc.text, &env, &elsewhere);
            doc.set_facts(facts);
            env.extend(exports);
            doc.magics = magics;
        }
        if in_module {
            if let Some((module, bases)) = &module
                && let Some(base) = bases.get(code).copied().flatten()
            {
                doc.module = Some((std::rc::Rc::clone(module), base));
            }
            code += 1;
        }
        out.push(doc);
    }
    out
}

/// The code cells that parse alone, joined and parsed as one module, for what spans cells (see
/// [`super::Module`]); with where each document starts in it (`None` for documents not in it).
fn module_of(docs: &[CellDocument]) -> Option<ModuleOf> {
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
            number: cell.doc.cell.as_ref().map_or(0, |c| c.index),
            base,
            len: cell.doc.text.len(),
            map: cell.doc.map.clone(),
        });
        bases.push(Some(base));
    }
    let tree = super::python::lower::lower(&text, true);
    let doc = super::python::document(text, tree);
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
    let blank = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
    if !content.lines().any(|line| line.trim_start().starts_with('!')) {
        return None;
    }
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
            blank(&mut out, bangs);
            out.push_str(&trimmed[bangs..]);
            any |= ["curl", "wget", "http", "jq"].iter().any(|w| trimmed.contains(w));
        } else {
            for c in line.chars() {
                match c {
                    '\n' => out.push('\n'),
                    c => blank(&mut out, c.len_utf8()),
                }
            }
        }
        continued = shell && line.trim_end_matches(['\n', '\r']).ends_with('\\');
    }
    any.then_some(out)
}

/// The lines of a cell's IPython magics (`%pip install ...`, `!ls`, `?help`, and the lines a
/// trailing `\` continues), without their newlines: where `--add-noqa` cannot write a Python
/// comment and where packages are installed. The parser reads them as escape commands.
fn magic_lines(content: &str) -> Vec<std::ops::Range<usize>> {
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
        let skip = unread_values(text.as_bytes());
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
        assert!(unread_values(br#"{"outputs": [1, 2"#).is_empty());
        assert!(unread_values(br#"{"outputs": "[unterminated"#).is_empty());
    }

    /// The prefilter reads what the documents are made of: an id printed in an output calls on
    /// no rule; all of an unbalanced notebook is read.
    #[test]
    fn outputs_are_not_read_bytes() {
        let text = br#"{"cells": [{"cell_type": "code", "outputs": [{"text": ["gemini-1.5-flash"]}], "source": ["x = 1"]}]}"#;
        let read: Vec<u8> = read_bytes(text).concat();
        assert!(
            !read.windows(6).any(|w| w == b"gemini"),
            "{}",
            String::from_utf8_lossy(&read)
        );
        assert!(read.windows(5).any(|w| w == b"x = 1"));
        let broken = br#"{"outputs": ["gemini-1.5-flash""#;
        assert_eq!(read_bytes(broken), [&broken[..]]);
    }

    /// A notebook of code cells.
    fn notebook(cells: &[&str]) -> String {
        let cells: Vec<serde_json::Value> = cells
            .iter()
            .map(|source| serde_json::json!({"cell_type": "code", "metadata": {}, "outputs": [], "source": [source]}))
            .collect();
        serde_json::json!({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).to_string()
    }

    fn tree(doc: &Document) -> String {
        match &doc.syntax {
            super::super::Syntax::Lowered(tree) => format!("{tree:?}"),
            _ => String::new(),
        }
    }

    #[test]
    fn code_cells_are_one_module_parsed_in_ipython_mode() {
        let cells = [
            "%pip install -q google-generativeai\nimport google.generativeai as genai",
            // Only IPython reads `!ls` as a value.
            "files = !ls\nmodel = genai.GenerativeModel('gemini-1.5-flash')  # the model",
            "%%time\nr = model.generate_content(f'Hi {files!r}')",
            "%%writefile chats.yaml\n- messages:\n  - user: Hi",
            "print(r.text)\nlen?",
        ];
        let docs = documents(&notebook(&cells));
        assert_eq!(docs.len(), 5);
        let errors: Vec<usize> = docs.iter().map(|d| d.syntax_errors).collect();
        assert_eq!(
            errors.iter().map(|&e| e > 0).collect::<Vec<_>>(),
            [false, false, false, true, false]
        );
        for (doc, cell) in docs.iter().zip(cells) {
            assert_eq!(doc.text, cell, "a cell is read as it is written");
            // Each cell's tree, lowered from the module's parse, is the cell's own.
            let alone = crate::lang::python::parse_cell(cell.to_string());
            assert_eq!(tree(doc), tree(&alone), "{cell}");
        }
        // The `%%writefile` cell of YAML stays out of the module; the others are in it where
        // their text is.
        assert!(docs[3].module.is_none());
        let (module, _) = docs[0].module.as_ref().expect("a module");
        assert_eq!(module.cells.len(), 4);
        for doc in docs.iter().filter(|d| d.module.is_some()) {
            let (_, base) = doc.module.as_ref().expect("in the module");
            assert_eq!(&module.doc.text[*base..*base + doc.text.len()], doc.text);
        }
        assert_eq!(module.doc.syntax_errors, 0);
        // The legacy client's unit spans the cells.
        let legacy = &module.doc.facts().legacy;
        assert_eq!(legacy.len(), 1);
        assert_eq!(legacy[0].calls.len(), 1);
        // What an earlier cell bound is known in a later one.
        let calls = &docs[2].facts().calls;
        assert_eq!(calls.len(), 1, "{calls:?}");
    }

    #[test]
    fn a_broken_cell_leaves_the_others_as_they_read_alone() {
        let cells = [
            "import google.generativeai as genai\nmodel = genai.GenerativeModel('gemini-1.5-flash')",
            "print(\"unclosed",
            "r = model.generate_content('Hi')",
        ];
        let docs = documents(&notebook(&cells));
        let errors: Vec<usize> = docs.iter().map(|d| d.syntax_errors).collect();
        assert_eq!(errors[0], 0);
        assert!(errors[1] > 0);
        assert_eq!(errors[2], 0);
        assert!(docs[1].module.is_none());
        let (module, base) = docs[2].module.as_ref().expect("a module");
        assert_eq!(&module.doc.text[*base..], cells[2]);
        assert_eq!(module.doc.facts().legacy.len(), 1);
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
        assert_eq!(docs[1].text, "!pip install x\ny = \"in\"");
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
