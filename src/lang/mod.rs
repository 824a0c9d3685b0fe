//! Surfaces: how each kind of file is parsed into documents the rules can read.
//!
//! A file yields one or more [`Document`]s. Most files are one document; a Markdown file is its
//! prose plus one document per fenced code block, and a notebook is one document per cell. A
//! document embedded in a file carries an [`OffsetMap`] so that findings and edits made in the
//! document's own text land on the right bytes of the file.

pub mod bindings;
pub mod facts;
pub mod http;
pub mod ir;
pub mod javascript;
pub mod json;
pub mod markdown;
pub mod notebook;
pub mod python;
pub mod rest;
pub mod rust;
pub mod rust_requests;
pub mod shell;
pub mod text;
pub mod tool_server;
pub mod treesitter;

use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, OnceLock};

pub use treesitter::Tree;

use crate::diagnostic::Edit;
use crate::migration_facts::Facts;

/// How comments are written in a text file interlint does not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentStyle {
    /// No comments known: every byte is text.
    None,
    /// `#` to the end of the line (YAML, TOML, .env, INI).
    Hash,
    /// `//` and `/* */` (Go, Java, C and kin).
    Slash,
    /// `#` or `//` at the start of a line (REST-client `.http` files).
    LineStart,
    /// No comments, and the text is prose for people (`.rst`, `.txt`, a `CHANGELOG`): like
    /// Markdown prose, it may name an old model id on purpose.
    Prose,
}

/// The kinds of file interlint reads (SPEC section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    Python,
    Notebook,
    JavaScript,
    TypeScript,
    Tsx,
    Rust,
    Json,
    Shell,
    /// REST-client request files (`.http`, `.rest`).
    Http,
    Markdown,
    Text(CommentStyle),
}

impl Surface {
    /// The surface of a file, from its name.
    pub fn from_path(path: &Path) -> Surface {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
        match ext {
            "py" | "pyi" => Surface::Python,
            "ipynb" => Surface::Notebook,
            "js" | "mjs" | "cjs" | "jsx" => Surface::JavaScript,
            "ts" | "mts" | "cts" => Surface::TypeScript,
            "tsx" => Surface::Tsx,
            "rs" => Surface::Rust,
            "json" | "jsonc" => Surface::Json,
            "sh" | "bash" | "zsh" => Surface::Shell,
            "md" | "mdx" | "markdown" => Surface::Markdown,
            "http" | "rest" => Surface::Http,
            _ => Surface::Text(text_comment_style(&name, ext)),
        }
    }

    /// The surface of a Markdown code block, from the first word of its info string.
    pub fn from_info_string(info: &str) -> Surface {
        let lang = info
            .trim_start_matches('{')
            .trim_start_matches('.')
            .split(|c: char| c.is_whitespace() || c == ',' || c == '}' || c == '{')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match lang.as_str() {
            "python" | "py" | "python3" | "ipython" | "ipython3" | "pycon" => Surface::Python,
            "javascript" | "js" | "jsx" | "mjs" | "cjs" | "node" => Surface::JavaScript,
            "typescript" | "ts" | "mts" | "cts" => Surface::TypeScript,
            "tsx" => Surface::Tsx,
            "rust" | "rs" => Surface::Rust,
            "json" | "jsonc" => Surface::Json,
            "sh" | "bash" | "shell" | "zsh" | "console" | "shell-session" | "shellsession" | "curl" => {
                Surface::Shell
            }
            "http" | "rest" => Surface::Http,
            "yaml" | "yml" | "toml" | "env" | "dotenv" | "ini" | "dockerfile" | "ruby" | "rb" | "r" => {
                Surface::Text(CommentStyle::Hash)
            }
            "go" | "java" | "kotlin" | "kt" | "c" | "cpp" | "c++" | "csharp" | "cs" | "swift" | "dart"
            | "scala" | "php" => Surface::Text(CommentStyle::Slash),
            _ => Surface::Text(CommentStyle::None),
        }
    }

    /// Prose for people: Markdown outside its code blocks (a notebook's Markdown cells too) and
    /// plain-text documents. A sentence there may name an old id on purpose (a changelog, a
    /// deprecation list), so rewriting it is a suggestion to review, not a safe fix.
    pub fn is_prose(self) -> bool {
        matches!(self, Surface::Markdown | Surface::Text(CommentStyle::Prose))
    }

    pub fn name(self) -> &'static str {
        match self {
            Surface::Python => "Python",
            Surface::Notebook => "Notebook",
            Surface::JavaScript => "JavaScript",
            Surface::TypeScript => "TypeScript",
            Surface::Tsx => "TSX",
            Surface::Rust => "Rust",
            Surface::Json => "JSON",
            Surface::Shell => "Shell",
            Surface::Http => "HTTP",
            Surface::Markdown => "Markdown",
            Surface::Text(_) => "Text",
        }
    }
}

fn text_comment_style(name: &str, ext: &str) -> CommentStyle {
    match ext {
        "yaml" | "yml" | "toml" | "env" | "ini" | "cfg" | "conf" | "properties" | "rb" | "r" | "pl"
        | "tf" | "hcl" | "dockerfile" => CommentStyle::Hash,
        "go" | "java" | "kt" | "kts" | "c" | "h" | "cc" | "cpp" | "hpp" | "cs" | "swift" | "dart"
        | "scala" | "php" | "groovy" | "gradle" => CommentStyle::Slash,
        _ if name == "dockerfile" || name == "makefile" || name.starts_with(".env") => CommentStyle::Hash,
        "txt" if name.starts_with("requirements") || name.starts_with("constraints") => CommentStyle::Hash,
        "txt" | "rst" | "adoc" | "asciidoc" => CommentStyle::Prose,
        _ if ["changelog", "changes", "history", "news", "readme"].contains(&name) => CommentStyle::Prose,
        _ => CommentStyle::None,
    }
}

/// Where a document's bytes lie in its file.
///
/// Segments are runs of bytes that are identical in the document and in the file; an edit can be
/// carried to the file only when it lies within one segment. `json_string` says the file holds
/// the document inside JSON strings, so replacement text is escaped on the way.
#[derive(Clone, Debug, Default)]
pub struct OffsetMap {
    segments: Vec<Segment>,
    json_string: bool,
    /// Multi-line replacement text would need the file's per-line prefixes (indentation of a
    /// Markdown list, say); such edits are refused.
    single_line_edits: bool,
    /// For a notebook cell: its source strings, so an edit across them can rewrite them whole.
    items: Option<JsonItems>,
}

/// The JSON strings a notebook cell's source is made of.
#[derive(Clone, Debug, Default)]
pub struct JsonItems {
    pub items: Vec<JsonItem>,
    /// The source is an array of line strings (else one string).
    pub array: bool,
    /// What separates two strings of the array (`,\n    `).
    pub separator: String,
}

#[derive(Clone, Debug)]
pub struct JsonItem {
    /// The decoded string's place in the document.
    pub doc: Range<usize>,
    /// The string's content in the file, between its quotes.
    pub file: Range<usize>,
    /// The decoded string.
    pub text: String,
}

#[derive(Clone, Copy, Debug)]
struct Segment {
    doc: usize,
    file: usize,
    len: usize,
}

impl OffsetMap {
    pub fn new(json_string: bool, single_line_edits: bool) -> Self {
        OffsetMap {
            segments: Vec::new(),
            json_string,
            single_line_edits,
            items: None,
        }
    }

    pub fn set_items(&mut self, items: JsonItems) {
        self.items = Some(items);
    }

    /// Records that `len` bytes at `doc` in the document are the bytes at `file` in the file.
    pub fn push(&mut self, doc: usize, file: usize, len: usize) {
        if let Some(last) = self.segments.last_mut()
            && last.doc + last.len == doc
            && last.file + last.len == file
        {
            last.len += len;
            return;
        }
        if len > 0 {
            self.segments.push(Segment { doc, file, len });
        }
    }

    /// The file offset of a document offset; an offset between segments (inside an escape
    /// sequence) goes to the start of the next segment.
    pub fn offset(&self, pos: usize) -> usize {
        let i = self.segments.partition_point(|s| s.doc + s.len < pos);
        match self.segments.get(i) {
            Some(s) if pos >= s.doc => s.file + (pos - s.doc),
            Some(s) => s.file,
            None => self.segments.last().map_or(0, |s| s.file + s.len),
        }
    }

    pub fn range(&self, range: Range<usize>) -> Range<usize> {
        let start = self.offset(range.start);
        let end = self.offset(range.end).max(start);
        start..end
    }

    /// The edit on the file's bytes, when the document's edit can be carried over exactly.
    pub fn edit(&self, edit: &Edit) -> Option<Edit> {
        // The first segment holding the edit (a notebook cell has one per line, and may have as
        // many edits): the first ending at or after its end, if it starts at or before its start.
        let first = self.segments.partition_point(|s| s.doc + s.len < edit.range.end);
        let Some(segment) = self.segments.get(first).filter(|s| s.doc <= edit.range.start) else {
            return self.items_edit(edit);
        };
        if self.single_line_edits && edit.content.contains('\n') {
            return None;
        }
        // New lines in a notebook cell's source go into source strings of their own.
        if edit.content.contains('\n')
            && self.items.is_some()
            && let Some(split) = self.items_edit(edit)
        {
            return Some(split);
        }
        let start = segment.file + (edit.range.start - segment.doc);
        let end = segment.file + (edit.range.end - segment.doc);
        let content = if self.json_string {
            json::escape_string_content(&edit.content)
        } else {
            edit.content.clone()
        };
        Some(Edit::replace(start..end, content))
    }

    /// A fix's edits on the file's bytes. Edits carried one by one may collide in the file (two
    /// edits on one line of a notebook cell each rewrite that line's JSON string); then the fix is
    /// carried as one edit from its first to its last byte, which applies together or not at all.
    pub fn carry(&self, edits: &[Edit], doc_text: &str) -> Option<Vec<Edit>> {
        let carried: Option<Vec<Edit>> = edits.iter().map(|e| self.edit(e)).collect();
        if let Some(mut carried) = carried {
            carried.sort_by_key(|e| (e.range.start, e.range.end));
            if carried.windows(2).all(|w| w[0].range.end <= w[1].range.start) {
                return Some(carried);
            }
        }
        if edits.len() < 2 {
            return None;
        }
        let start = edits.iter().map(|e| e.range.start).min()?;
        let end = edits.iter().map(|e| e.range.end).max()?;
        let mut content = String::new();
        let mut at = start;
        let mut sorted: Vec<&Edit> = edits.iter().collect();
        sorted.sort_by_key(|e| (e.range.start, e.range.end));
        for edit in sorted {
            content.push_str(doc_text.get(at..edit.range.start)?);
            content.push_str(&edit.content);
            at = edit.range.end;
        }
        content.push_str(doc_text.get(at..end)?);
        self.edit(&Edit::replace(start..end, content)).map(|e| vec![e])
    }

    /// An edit across a notebook cell's source strings (or escapes) rewrites the strings it
    /// touches: the new text is split into lines again and each written as a JSON string.
    fn items_edit(&self, edit: &Edit) -> Option<Edit> {
        let items = self.items.as_ref()?;
        let (a, b) = (edit.range.start, edit.range.end);
        let last_index = items.items.len().checked_sub(1)?;
        let i = items
            .items
            .iter()
            .enumerate()
            .position(|(k, it)| it.doc.start <= a && (a < it.doc.end || k == last_index))?;
        let j = items
            .items
            .iter()
            .enumerate()
            .position(|(k, it)| k >= i && it.doc.start <= b && b <= it.doc.end)?;
        let (first, last) = (&items.items[i], &items.items[j]);
        let mut text = first.text.get(..a - first.doc.start)?.to_string();
        text.push_str(&edit.content);
        text.push_str(last.text.get(b - last.doc.start..)?);
        if !items.array {
            return Some(Edit::replace(
                first.file.start..last.file.end,
                json::escape_string_content(&text),
            ));
        }
        // Strings left empty go with their separator rather than stay as `""`.
        if text.is_empty() && items.array {
            if let Some(next) = items.items.get(j + 1) {
                return Some(Edit::replace(
                    first.file.start.checked_sub(1)?..next.file.start.checked_sub(1)?,
                    "",
                ));
            }
            if let Some(previous) = i.checked_sub(1).and_then(|p| items.items.get(p)) {
                return Some(Edit::replace(previous.file.end + 1..last.file.end + 1, ""));
            }
        }
        let mut lines: Vec<String> = text
            .split_inclusive('\n')
            .map(|l| format!("\"{}\"", json::escape_string_content(l)))
            .collect();
        if lines.is_empty() {
            lines.push("\"\"".to_string());
        }
        Some(Edit::replace(
            first.file.start.checked_sub(1)?..last.file.end + 1,
            lines.join(&items.separator),
        ))
    }
}

/// One document of a file, parsed.
pub struct Document {
    pub surface: Surface,
    pub text: String,
    pub syntax: Syntax,
    /// Byte ranges where model ids and URLs can appear as data: string literals in code, the
    /// text outside comments elsewhere.
    pub scan_regions: Vec<Range<usize>>,
    /// `None` for a document that is the whole file.
    pub map: Option<OffsetMap>,
    /// For a document in a notebook: which cell, for display.
    pub cell: Option<CellOrigin>,
    /// Syntax errors found by the parser; fixes may not add to them.
    pub syntax_errors: usize,
    /// Lines of IPython magics (`%pip install ...`, `!ls`) in a notebook cell, which the parser
    /// reads in IPython mode.
    pub magics: Vec<Range<usize>>,
    /// Offsets of a terminal session's prompts (`$ `, `> `) that read as spaces in a shell
    /// document, so that its commands parse.
    pub prompts: Vec<usize>,
    /// What the document does with the API; computed on first use (or, for a notebook cell,
    /// with what the earlier cells bound).
    facts: OnceLock<Facts>,
    /// For a code cell of a notebook: the module its cells make, and where this cell starts in
    /// the module's text.
    pub module: Option<(std::rc::Rc<Module>, usize)>,
}

/// A notebook's code cells read as one module, for what spans cells (a legacy client imported
/// in one cell and used in others, a config bound in one cell for requests in others): the
/// cells' texts joined by newlines, parsed as one Python document.
pub struct Module {
    pub doc: Document,
    pub cells: Vec<ModuleCell>,
}

/// Where a cell's text lies in its module, and how its offsets reach the file.
#[derive(Debug)]
pub struct ModuleCell {
    /// 1-based index of the cell in the notebook.
    pub number: usize,
    pub base: usize,
    pub len: usize,
    pub map: Option<OffsetMap>,
}

impl Module {
    /// Where an offset of the module is, for a message: `cell 3, line 2`.
    pub fn place(&self, offset: usize) -> String {
        let text = &self.doc.text;
        match self
            .cells
            .iter()
            .find(|c| c.base <= offset && offset <= c.base + c.len)
        {
            Some(cell) => {
                let line = text.get(cell.base..offset).map_or(0, |t| t.matches('\n').count()) + 1;
                format!("cell {}, line {line}", cell.number)
            }
            None => format!(
                "line {}",
                text.get(..offset).map_or(0, |t| t.matches('\n').count()) + 1
            ),
        }
    }

    /// Module edits as edits of the file: each carried through its cell's map; `None` when one
    /// spans cells or cannot be carried exactly.
    pub fn file_edits(&self, edits: &[crate::diagnostic::Edit]) -> Option<Vec<crate::diagnostic::Edit>> {
        // A deletion of a cell's last line ends on the newline joining it to the next cell: it
        // ends with the cell.
        let edits: Vec<crate::diagnostic::Edit> = edits
            .iter()
            .map(|e| {
                let mut e = e.clone();
                if let Some(cell) = self.cells.iter().find(|c| e.range.end == c.base + c.len + 1)
                    && e.range.start >= cell.base
                    && e.content.is_empty()
                {
                    e.range.end -= 1;
                }
                e
            })
            .collect();
        let edits = edits.as_slice();
        let mut out = Vec::new();
        for cell in &self.cells {
            let local: Vec<crate::diagnostic::Edit> = edits
                .iter()
                .filter(|e| e.range.start >= cell.base && e.range.end <= cell.base + cell.len)
                .map(|e| {
                    crate::diagnostic::Edit::replace(
                        e.range.start - cell.base..e.range.end - cell.base,
                        e.content.clone(),
                    )
                })
                .collect();
            if local.is_empty() {
                continue;
            }
            let text = self.doc.text.get(cell.base..cell.base + cell.len)?;
            match &cell.map {
                Some(map) => out.extend(map.carry(&local, text)?),
                None => out.extend(local),
            }
        }
        let carried: usize = edits
            .iter()
            .filter(|e| {
                self.cells
                    .iter()
                    .any(|c| e.range.start >= c.base && e.range.end <= c.base + c.len)
            })
            .count();
        if carried != edits.len() {
            return None;
        }
        out.sort_by_key(|e| (e.range.start, e.range.end));
        Some(out)
    }
}

/// Where a notebook document lies in its cell, so findings can be shown relative to the cell.
#[derive(Clone, Debug)]
pub struct CellOrigin {
    /// 1-based index of the cell in the notebook.
    pub index: usize,
    /// The cell's decoded source.
    pub text: Arc<str>,
    /// From the document to the cell's text; `None` when the document is the whole cell.
    pub map: Option<OffsetMap>,
}

impl CellOrigin {
    /// The offset in the cell's text of a document offset.
    pub fn offset(&self, pos: usize) -> usize {
        self.map.as_ref().map_or(pos, |m| m.offset(pos))
    }
}

/// The parse result a rule can walk.
pub enum Syntax {
    /// Shell.
    TreeSitter(Tree),
    /// Python and JavaScript/TypeScript, lowered into the shared form.
    Lowered(Box<ir::Tree>),
    /// A JSON document's values with their spans.
    Json(json::scan::Json),
    Rust(Box<syn::File>),
    None,
}

impl Document {
    /// Where an offset is, for a message: `line 12`, `cell 3, line 2` in a notebook's cell.
    pub fn place_of(&self, offset: usize) -> String {
        let line = self.text.get(..offset).map_or(0, |t| t.matches('\n').count()) + 1;
        match &self.cell {
            Some(cell) => format!("cell {}, line {line}", cell.index),
            None => format!("line {line}"),
        }
    }

    fn whole(
        surface: Surface,
        text: String,
        syntax: Syntax,
        scan_regions: Vec<Range<usize>>,
        syntax_errors: usize,
    ) -> Self {
        Document {
            surface,
            text,
            syntax,
            scan_regions,
            map: None,
            cell: None,
            syntax_errors,
            magics: Vec::new(),
            prompts: Vec::new(),
            facts: OnceLock::new(),
            module: None,
        }
    }

    /// What the document does with the API.
    pub fn facts(&self) -> &Facts {
        self.facts.get_or_init(|| match (&self.surface, &self.syntax) {
            (Surface::Python, Syntax::Lowered(tree)) => {
                python_facts(tree, &self.text, &facts::Env::new(), &Default::default()).0
            }
            (Surface::JavaScript | Surface::TypeScript | Surface::Tsx, Syntax::Lowered(tree)) => {
                let env = facts::Env::new();
                let elsewhere = facts::Elsewhere::default();
                facts::extract(
                    tree,
                    &self.text,
                    &facts::JavaScript,
                    &facts::JavaScriptLegacy,
                    &env,
                    &elsewhere,
                )
                .0
            }
            (Surface::Shell, Syntax::TreeSitter(tree)) => shell::facts(tree, &self.text, &self.prompts),
            (Surface::Json, Syntax::Json(json)) => json::facts(json, &self.text),
            (Surface::Http, _) => http::facts(&self.text),
            (Surface::Rust, Syntax::Rust(file)) => rust_requests::facts(file, &self.text),
            _ => Facts::default(),
        })
    }

    /// Sets the facts computed with a context the document alone does not have.
    pub fn set_facts(&self, facts: Facts) {
        let _ = self.facts.set(facts);
    }
}

/// The facts of a Python text (a notebook cell: with what the earlier cells bound and the names
/// the other cells mention), and what its top-level names hold.
pub fn python_facts(
    tree: &ir::Tree,
    text: &str,
    env: &facts::Env,
    elsewhere: &facts::Elsewhere<'_>,
) -> (Facts, facts::Env) {
    facts::extract(tree, text, &facts::Python, &facts::PythonLegacy, env, elsewhere)
}

/// Parses one text of a surface into its documents.
pub fn documents(surface: Surface, text: &str) -> Vec<Document> {
    match surface {
        Surface::Python => vec![python::parse(text.to_string())],
        Surface::JavaScript | Surface::TypeScript | Surface::Tsx => {
            vec![javascript::parse(surface, text.to_string())]
        }
        Surface::Rust => vec![rust::parse(text.to_string())],
        Surface::Json => vec![json::parse(text.to_string())],
        Surface::Shell => vec![shell::parse(text.to_string())],
        Surface::Http => vec![http::parse(text.to_string())],
        Surface::Text(style) => vec![text::parse(style, text.to_string())],
        Surface::Markdown => markdown::documents(text),
        Surface::Notebook => notebook::documents(text),
    }
}

/// Parses an embedded text (a code block, a notebook cell) as a surface's document.
pub fn embedded(surface: Surface, text: String, map: OffsetMap, cell: Option<usize>) -> Vec<Document> {
    let cell_text: Option<Arc<str>> = cell.map(|_| Arc::from(text.as_str()));
    let docs = match surface {
        Surface::Markdown => markdown::documents(&text),
        Surface::Notebook => Vec::new(),
        _ => documents(surface, &text),
    };
    placed(docs, &map, cell.zip(cell_text))
}

/// Documents of an embedded text, placed in the file by the text's map (and in their notebook
/// cell, with its index and source).
fn placed(mut docs: Vec<Document>, map: &OffsetMap, cell: Option<(usize, Arc<str>)>) -> Vec<Document> {
    for doc in &mut docs {
        let inner = doc.map.take();
        if let Some((index, text)) = &cell {
            doc.cell = Some(CellOrigin {
                index: *index,
                text: Arc::clone(text),
                map: inner.clone(),
            });
        }
        doc.map = Some(match inner {
            // A document nested twice (a code block in a notebook's Markdown cell) maps through
            // both maps.
            Some(inner) => compose(&inner, map),
            None => map.clone(),
        });
    }
    docs
}

fn compose(inner: &OffsetMap, outer: &OffsetMap) -> OffsetMap {
    let mut map = OffsetMap::new(
        outer.json_string || inner.json_string,
        outer.single_line_edits || inner.single_line_edits,
    );
    for s in &inner.segments {
        // Split the inner segment where the outer map breaks (at escape sequences, say), and
        // step over the bytes the outer map does not carry.
        let mut done = 0;
        while done < s.len {
            let mid = s.file + done;
            let i = outer.segments.partition_point(|o| o.doc + o.len <= mid);
            let Some(o) = outer.segments.get(i) else {
                break;
            };
            if o.doc > mid {
                done = o.doc - s.file;
                continue;
            }
            let take = (s.len - done).min(o.doc + o.len - mid);
            map.push(s.doc + done, o.file + (mid - o.doc), take);
            done += take;
        }
    }
    map
}

/// The number of syntax errors of a whole file, summed over its documents, as the language's
/// own parser counts them: `ruff_python_parser` for Python (and the repeated keyword arguments
/// CPython rejects when it compiles), `oxc_parser` for JavaScript and TypeScript, the JSON
/// scanner for JSON (empty slots included), and what the other surfaces' parsers report. Fixes
/// may not add to it.
pub fn syntax_errors(surface: Surface, text: &str) -> usize {
    match surface {
        Surface::Notebook if serde_json::from_str::<serde_json::Value>(text).is_err() => usize::MAX / 2,
        _ => errors_of(surface, text, &documents(surface, text)),
    }
}

/// The names a text declares twice in one scope where its language refuses that (JavaScript and
/// TypeScript modules), as its parser's semantic checks tell; 0 elsewhere. Python rebinds a
/// name freely, so a repeated import there is no error.
pub fn redeclarations(surface: Surface, text: &str) -> usize {
    match surface {
        Surface::JavaScript | Surface::TypeScript | Surface::Tsx => {
            javascript::lower::redeclarations(surface, text)
        }
        _ => 0,
    }
}

/// [`syntax_errors`] of a text whose documents are already parsed.
pub fn errors_of(surface: Surface, text: &str, docs: &[Document]) -> usize {
    match surface {
        Surface::Notebook if serde_json::from_str::<serde::de::IgnoredAny>(text).is_err() => usize::MAX / 2,
        _ => docs.iter().map(|d| d.syntax_errors).sum(),
    }
}

#[cfg(test)]
mod tests {
    /// The parsers are as strict as CPython, TypeScript and JSON: a fix that leaves an empty
    /// slot or a repeated keyword argument is refused.
    #[test]
    fn empty_slots_and_python_arguments_are_errors() {
        for (surface, bad) in [
            (Surface::Python, "config = { , }\n"),
            (Surface::Python, "x = {\"a\": 1,\n    ,\n}\n"),
            (Surface::Python, "f(a, , b)\n"),
            (Surface::Python, "f(,)\n"),
            (Surface::Python, "f(a=1, a=2)\n"),
            (Surface::Python, "f(a=1, b)\n"),
            (Surface::JavaScript, "const x = { , };\n"),
            (Surface::TypeScript, "f(a, /* c */ , b);\n"),
            (Surface::Tsx, "const x = {a: 1, , b: 2};\n"),
            // CPython rejects Python 2's print statement (tree-sitter-python read it).
            (Surface::Python, "print \"hello\"\n"),
            (Surface::Json, "{ , }\n"),
            (Surface::Json, "[1, , 2]\n"),
        ] {
            assert!(syntax_errors(surface, bad) > 0, "{surface:?} accepted {bad:?}");
        }
        for (surface, good) in [
            (
                Surface::Python,
                "config = {\"a\": 1,}\nf(a, *b, c=1, *d, **e)\nf(x for x in y)\n",
            ),
            (Surface::Python, "print(a, )\nt = (1,)\n"),
            (
                Surface::JavaScript,
                "const [, b] = x;\nconst y = [a, , b];\nf(a,);\n",
            ),
            (Surface::TypeScript, "const x = {a: 1,};\n"),
        ] {
            assert_eq!(syntax_errors(surface, good), 0, "{surface:?} rejected {good:?}");
        }
    }

    use super::*;

    #[test]
    fn an_edit_goes_to_the_first_segment_holding_it() {
        let mut map = OffsetMap::new(false, false);
        // Document lines of 4 bytes, each 10 bytes further on in the file.
        for line in 0..100 {
            map.push(line * 4, line * 10, 4);
        }
        let file_range = |start, end| map.edit(&Edit::replace(start..end, "x")).map(|e| e.range);
        assert_eq!(file_range(9, 11), Some(21..23));
        // At a line's end: the line before, as an insertion.
        assert_eq!(file_range(8, 8), Some(14..14));
        assert_eq!(file_range(8, 9), Some(20..21));
        // Across two lines: not one segment.
        assert_eq!(file_range(7, 9), None);
        assert_eq!(file_range(400, 401), None);
    }
}
