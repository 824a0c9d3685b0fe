//! Where a suppression comment can go for the findings of one line of one document, best
//! first, in the document's comment syntax, carried to the file's bytes.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use super::scan;
use crate::diagnostic::{Diagnostic, Edit};
use crate::lang::{self, CommentStyle, Document, Surface, Syntax};
use crate::source::LineIndex;
use crate::suppress::LINE_DIRECTIVE;

/// Why a finding is left without a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    Json,
    NoCommentSyntax,
    Mdx,
    InString,
    Jsx,
    Continuation,
    Magic,
    YamlValue,
    MarkdownLine,
    NoPlace,
    Unverified,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Json => "JSON has no comments (use per-file-ignores)",
            Reason::NoCommentSyntax => {
                "interlint knows no comment syntax for this file (use per-file-ignores)"
            }
            Reason::Mdx => "MDX has no HTML comments (use per-file-ignores)",
            Reason::InString => "inside a string that runs over lines",
            Reason::Jsx => "inside JSX, where a comment would be text",
            Reason::Continuation => "on a line continued with a backslash",
            Reason::Magic => "on an IPython magic line",
            Reason::YamlValue => "inside a multi-line YAML value",
            Reason::MarkdownLine => "on a Markdown heading, table row, link definition or indented line",
            Reason::NoPlace => "no place for a comment that keeps the file's meaning",
            Reason::Unverified => "a comment there would change the file's findings, code or values",
        }
    }
}

/// A file's text, parsed into its documents.
pub struct File<'a> {
    pub path: &'a Path,
    pub surface: Surface,
    pub text: &'a str,
    pub docs: Vec<Document>,
    indexes: Vec<LineIndex>,
}

impl<'a> File<'a> {
    pub fn new(path: &'a Path, surface: Surface, text: &'a str) -> Self {
        lang::rust::reset_thread_spans();
        let docs = lang::documents(surface, text);
        let indexes = docs.iter().map(|d| LineIndex::new(&d.text)).collect();
        File {
            path,
            surface,
            text,
            docs,
            indexes,
        }
    }

    fn extension(&self) -> String {
        self.path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase()
    }

    fn file_name(&self) -> String {
        self.path
            .file_name()
            .and_then(|e| e.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase()
    }

    /// The document a file offset belongs to, and the offset in it: the smallest document
    /// holding it (a code block rather than the Markdown around it).
    pub fn locate(&self, offset: usize) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        for (i, doc) in self.docs.iter().enumerate() {
            let at = match &doc.map {
                None => (offset <= doc.text.len()).then_some(offset),
                Some(map) => doc_offset(map, doc.text.len(), offset),
            };
            // A shell document of a notebook cell holds the cell's other lines as blanks.
            let starts_text = |p: usize| {
                doc.text
                    .get(p..)
                    .and_then(|rest| rest.chars().next())
                    .is_some_and(|c| !c.is_whitespace())
            };
            let Some(at) = at.filter(|&p| starts_text(p)) else {
                continue;
            };
            if best.is_none_or(|(b, _)| doc.text.len() < self.docs[b].text.len()) {
                best = Some((i, at));
            }
        }
        best
    }

    /// The document's lines, without their line endings.
    fn lines(&self, d: usize) -> Vec<&str> {
        let doc = &self.docs[d];
        let index = &self.indexes[d];
        (0..index.line_count())
            .map(|l| &doc.text[index.line_range(l, &doc.text)])
            .collect()
    }

    pub fn line_of(&self, d: usize, offset: usize) -> usize {
        self.indexes[d].line_of(offset)
    }
}

/// The document offset whose file offset is `offset`, if the document holds that byte.
fn doc_offset(map: &lang::OffsetMap, len: usize, offset: usize) -> Option<usize> {
    // `map.offset` never decreases, and the offsets inside an escape sequence (`\"` in a
    // notebook) map to the next byte carried: the last document offset not past the file offset.
    let (mut lo, mut hi) = (0, len + 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if map.offset(mid) <= offset {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let at = lo.checked_sub(1)?;
    (map.offset(at) == offset).then_some(at)
}

/// The findings of one line of one document, and the places of their comment, best first.
pub struct Group {
    pub findings: Vec<usize>,
    pub candidates: Vec<Edit>,
    /// Why the line has no place (when `candidates` is empty), or why the best was refused.
    pub reason: Reason,
}

/// The findings grouped by document line, each group with its places.
pub fn plan(file: &File, findings: &[Diagnostic]) -> Vec<Group> {
    let mut lines: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    let mut lost = Vec::new();
    for (i, finding) in findings.iter().enumerate() {
        match file.locate(finding.range.start) {
            Some((d, at)) => lines.entry((d, file.line_of(d, at))).or_default().push(i),
            None => lost.push(i),
        }
    }
    let mut groups: Vec<Group> = lines
        .into_iter()
        .map(|((d, line), members)| {
            let mut codes: Vec<&str> = members.iter().map(|&i| findings[i].rule.code).collect();
            codes.sort_unstable();
            codes.dedup();
            let (places, reason) = places(file, d, line, &codes);
            let candidates = places
                .into_iter()
                .filter_map(|p| carry(file, d, p))
                .filter(|e| {
                    e.range.start <= e.range.end
                        && file.text.is_char_boundary(e.range.start)
                        && file.text.is_char_boundary(e.range.end)
                })
                .collect();
            Group {
                findings: members,
                candidates,
                reason,
            }
        })
        .collect();
    if !lost.is_empty() {
        groups.push(Group {
            findings: lost,
            candidates: Vec::new(),
            reason: Reason::NoPlace,
        });
    }
    groups
}

/// How comments are written in a document.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marker {
    Hash,
    Slash,
    Html,
}

impl Marker {
    fn directive(self, codes: &str) -> String {
        match self {
            Marker::Hash => format!("# interlint: ignore[{codes}]"),
            Marker::Slash => format!("// interlint: ignore[{codes}]"),
            Marker::Html => format!("<!-- interlint: ignore[{codes}] -->"),
        }
    }

    /// What separates a comment from the code before it.
    fn gap(self) -> &'static str {
        match self {
            Marker::Html => " ",
            _ => "  ",
        }
    }
}

/// A place for a comment, in the document's offsets.
enum Place {
    /// Replace the codes of a directive already there.
    Codes(Range<usize>, String),
    /// Insert at the end of a line.
    EndOfLine(usize, String),
    /// A line of its own before line `line`, indented with `indent`.
    OwnLine {
        line: usize,
        indent: String,
        directive: String,
    },
}

/// The places for a comment naming `codes` on `line` of document `d`, best first; and why the
/// places that are not there were refused.
fn places(file: &File, d: usize, line: usize, codes: &[&str]) -> (Vec<Place>, Reason) {
    let doc = &file.docs[d];
    let lines = file.lines(d);
    let line_start = file.indexes[d].line_range(line, &doc.text).start;
    let cx = LineCx {
        file,
        doc,
        index: &file.indexes[d],
        lines: &lines,
        line,
        line_start,
        codes,
    };
    let outcome = match doc.surface {
        Surface::Python | Surface::Shell => code(&cx, Marker::Hash),
        Surface::JavaScript | Surface::TypeScript | Surface::Tsx | Surface::Rust => code(&cx, Marker::Slash),
        Surface::Json if file.extension() == "jsonc" && doc.map.is_none() => code(&cx, Marker::Slash),
        Surface::Json => Err(Reason::Json),
        Surface::Markdown => markdown(&cx),
        Surface::Text(CommentStyle::Hash) => hash(&cx, 0..lines.len(), yaml_rules(&cx)),
        Surface::Text(CommentStyle::Slash) => slash(&cx),
        Surface::Text(_) | Surface::Http | Surface::Notebook => Err(Reason::NoCommentSyntax),
    };
    match outcome {
        Ok((places, reason)) if !places.is_empty() => (places, reason),
        Ok((_, reason)) | Err(reason) => (Vec::new(), reason),
    }
}

/// One line of one document, and the codes its comment names.
struct LineCx<'f> {
    file: &'f File<'f>,
    doc: &'f Document,
    index: &'f LineIndex,
    lines: &'f [&'f str],
    line: usize,
    line_start: usize,
    codes: &'f [&'f str],
}

impl LineCx<'_> {
    fn own(&self) -> &str {
        self.lines[self.line]
    }

    fn previous(&self) -> Option<&str> {
        self.line.checked_sub(1).map(|p| self.lines[p])
    }

    /// Where the line's text ends: a comment goes before trailing blanks (which may be a
    /// Markdown hard line break).
    fn end_of_line(&self) -> usize {
        self.line_start + self.own().trim_end().len()
    }

    fn codes(&self) -> String {
        self.codes.join(",")
    }

    fn indent(&self) -> String {
        let own = self.own();
        own[..own.len() - own.trim_start().len()].to_string()
    }

    fn end_of_line_place(&self, marker: Marker) -> Place {
        Place::EndOfLine(
            self.end_of_line(),
            format!("{}{}", marker.gap(), marker.directive(&self.codes())),
        )
    }

    fn own_line_place(&self, marker: Marker, indent: String) -> Place {
        Place::OwnLine {
            line: self.line,
            indent,
            directive: marker.directive(&self.codes()),
        }
    }

    /// A directive with codes already at the end of line `line`, extended with this line's
    /// codes: its place in the document. `alone` asks for one alone on its line.
    fn extend(&self, line: usize, alone: bool) -> Option<(usize, Place)> {
        let own = self.lines.get(line)?;
        let captures = LINE_DIRECTIVE.captures(own)?;
        let whole = captures.get(0)?;
        let is_alone = own[..whole.start()].trim().is_empty();
        if alone != is_alone {
            return None;
        }
        let listed = captures.get(1)?;
        let mut codes = crate::suppress::code_list(listed.as_str());
        codes.extend(self.codes.iter().map(|c| c.to_string()));
        codes.sort();
        codes.dedup();
        let line_start = self.index.line_range(line, &self.doc.text).start;
        Some((
            line_start + whole.start(),
            Place::Codes(
                line_start + listed.start()..line_start + listed.end(),
                codes.join(","),
            ),
        ))
    }
}

type Places = Result<(Vec<Place>, Reason), Reason>;

/// Code parsed by tree-sitter or syn: a comment at the end of the line, else alone on the line
/// before, wherever the parser says the place is between tokens.
fn code(cx: &LineCx, marker: Marker) -> Places {
    if let Some(magic) = cell_magic(cx) {
        // `%%writefile`, `%%html`, ...: the cell is not Python; only a timing magic keeps it so.
        if !matches!(magic.as_str(), "time" | "timeit" | "capture" | "prun") {
            return Err(Reason::Magic);
        }
    }
    let end_of_line = end_of_line_refused(cx);
    let own_line = own_line_refused(cx);
    let mut places = Vec::new();
    if let Some((at, place)) = cx.extend(cx.line, false)
        && literal_at(cx.doc, at).is_none()
    {
        places.push(place);
    }
    if own_line.is_none()
        && let Some((at, place)) = cx.line.checked_sub(1).and_then(|p| cx.extend(p, true))
        && literal_at(cx.doc, at).is_none()
    {
        places.push(place);
    }
    if end_of_line.is_none() {
        places.push(cx.end_of_line_place(marker));
    }
    if own_line.is_none() {
        places.push(cx.own_line_place(marker, cx.indent()));
    }
    Ok((places, end_of_line.or(own_line).unwrap_or(Reason::NoPlace)))
}

fn end_of_line_refused(cx: &LineCx) -> Option<Reason> {
    if cx.own().trim_end().ends_with('\\') {
        return Some(Reason::Continuation);
    }
    if let Some(magic) = magic_at(cx) {
        // A line magic (`%pip install x  # ...`) would take the comment as arguments; a shell
        // line (`!curl ...`) takes it as a shell comment, outside quotes.
        let shell = cx.own().trim().get(1..).unwrap_or_default();
        if magic != b'!' || !hash_comment_starts(shell) {
            return Some(Reason::Magic);
        }
    }
    literal_at(cx.doc, cx.end_of_line())
}

fn own_line_refused(cx: &LineCx) -> Option<Reason> {
    if cx.previous().is_some_and(|p| p.trim_end().ends_with('\\')) {
        return Some(Reason::Continuation);
    }
    // A cell magic (`%%bash`) must open its cell.
    if magic_at(cx).is_some() && cx.own().trim_start().starts_with("%%") {
        return Some(Reason::Magic);
    }
    // A Python file's encoding is declared on its first or second line.
    if cx.doc.surface == Surface::Python
        && cx.line <= 1
        && cx.lines.iter().take(2).any(|l| l.contains("coding"))
    {
        return Some(Reason::NoPlace);
    }
    // The prompts of a terminal session: a line of its own would read as output.
    if cx.doc.surface == Surface::Shell && !cx.doc.prompts.is_empty() {
        return Some(Reason::NoPlace);
    }
    literal_at(cx.doc, cx.line_start)
}

/// The magic character (`%`, `!`, `?`) of a notebook cell's magic line, as written in the file.
fn magic_at(cx: &LineCx) -> Option<u8> {
    let line_end = cx.line_start + cx.own().len();
    let magic = cx
        .doc
        .magics
        .iter()
        .find(|m| m.start >= cx.line_start && m.start <= line_end)?;
    let offset = cx.doc.map.as_ref().map_or(magic.start, |m| m.offset(magic.start));
    cx.file.text.as_bytes().get(offset).copied()
}

/// The name of the cell magic opening a notebook cell (`%%writefile` gives `writefile`).
fn cell_magic(cx: &LineCx) -> Option<String> {
    let first = cx.doc.magics.first()?;
    if !cx.doc.text[..first.start].trim().is_empty() {
        return None;
    }
    let line = cx.doc.text.get(first.clone())?;
    let name = line.strip_prefix("%%")?;
    Some(name.split_whitespace().next().unwrap_or_default().to_string())
}

/// Whether `# ...` appended to a line starts a comment (no quote left open on the line).
fn hash_comment_starts(line: &str) -> bool {
    let probe = format!("{line}  # x");
    lang::text::comment_ranges(CommentStyle::Hash, &probe)
        .iter()
        .any(|r| r.start == line.len() + 2)
}

/// Node kinds whose text a comment would join.
const LITERALS: &[&str] = &[
    "string",
    "template_string",
    "template_literal_type",
    "regex",
    "jsx_text",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "heredoc_redirect",
    "heredoc_body",
];

/// JSX, where `//` is text.
const JSX: &[&str] = &[
    "jsx_element",
    "jsx_opening_element",
    "jsx_closing_element",
    "jsx_self_closing_element",
];

/// Why a comment cannot go at `pos` of a code document: inside a string, a template literal,
/// a heredoc, JSX text; `None` when the parser puts `pos` between tokens.
fn literal_at(doc: &Document, pos: usize) -> Option<Reason> {
    match &doc.syntax {
        Syntax::TreeSitter(tree) => {
            let mut node = tree.root_node().descendant_for_byte_range(pos, pos);
            while let Some(n) = node {
                if n.start_byte() < pos && pos < n.end_byte() {
                    let kind = n.kind();
                    if kind == "jsx_expression" {
                        return None;
                    }
                    if LITERALS.contains(&kind) {
                        return Some(Reason::InString);
                    }
                    if JSX.contains(&kind) {
                        return Some(Reason::Jsx);
                    }
                }
                node = n.parent();
            }
            None
        }
        // The innermost string, JSX element or JSX expression around `pos`.
        Syntax::Lowered(tree) => {
            // The strings are the outermost ones, in order: only the last one starting before
            // `pos` can hold it.
            let before = tree.strings.partition_point(|s| (s.start as usize) < pos);
            let string = before
                .checked_sub(1)
                .and_then(|i| tree.strings.get(i))
                .map(|s| (*s, Some(Reason::InString)));
            let jsx = tree
                .jsx
                .iter()
                .map(|&(s, expression)| (s, (!expression).then_some(Reason::Jsx)));
            string
                .into_iter()
                .chain(jsx)
                .filter(|(s, _)| (s.start as usize) < pos && pos < s.end as usize)
                .min_by_key(|(s, _)| s.end - s.start)
                .and_then(|(_, reason)| reason)
        }
        Syntax::Json(json) => json.inside_string(pos).then_some(Reason::InString),
        // syn does not keep comments: the string literals' spans say where text is.
        _ if doc.surface == Surface::Rust => {
            scan::strictly_inside(&doc.scan_regions, pos).then_some(Reason::InString)
        }
        _ => Some(Reason::NoPlace),
    }
}

/// Markdown prose: an HTML comment at the end of the line, else alone on the line before.
fn markdown(cx: &LineCx) -> Places {
    if cx.file.extension() == "mdx" {
        return Err(Reason::Mdx);
    }
    if cx.doc.map.is_none()
        && let Some(end) = scan::front_matter_end(cx.lines)
        && cx.line < end
    {
        return hash(cx, 1..end, true);
    }
    let mut places = Vec::new();
    if let Some((_, place)) = cx.extend(cx.line, false) {
        places.push(place);
    }
    let own_line = scan::markdown_own_line_allowed(cx.lines, cx.line);
    if own_line && let Some((_, place)) = cx.line.checked_sub(1).and_then(|p| cx.extend(p, true)) {
        places.push(place);
    }
    if !scan::markdown_end_of_line_refused(cx.lines, cx.line) {
        places.push(cx.end_of_line_place(Marker::Html));
    }
    if own_line {
        places.push(cx.own_line_place(Marker::Html, cx.indent()));
    }
    Ok((places, Reason::MarkdownLine))
}

/// Whether a `#` text document follows YAML's rules: a YAML file, or a code block that reads
/// like one.
fn yaml_rules(cx: &LineCx) -> bool {
    match &cx.doc.map {
        None => matches!(cx.file.extension().as_str(), "yaml" | "yml"),
        Some(_) => scan::looks_like_yaml(cx.lines),
    }
}

/// `#` text files (YAML, TOML, .env, requirements, INI, Dockerfile, ...) not parsed: a comment
/// alone on the line before, indented like the line, where the scanners find no string, block
/// scalar or continuation running over that line. Lines `window` are the file's (or the
/// Markdown front matter's).
fn hash(cx: &LineCx, window: Range<usize>, yaml: bool) -> Places {
    let mut places = Vec::new();
    let text = &cx.doc.text;
    let comments = lang::text::comment_ranges(CommentStyle::Hash, text);
    let in_comment = |at: usize| comments.iter().any(|r| r.start <= at && at < r.end);
    if let Some((at, place)) = cx.extend(cx.line, false)
        && in_comment(at)
    {
        places.push(place);
    }
    let refused = hash_own_line_refused(cx, &window, yaml);
    if refused.is_none() {
        if cx.line > window.start
            && let Some((at, place)) = cx.extend(cx.line - 1, true)
            && in_comment(at)
        {
            places.push(place);
        }
        // Make reads a recipe's tab-indented line as shell, but a `#` line at the margin as
        // its own comment.
        let recipe = cx.file.file_name().contains("makefile") || cx.file.extension() == "mk";
        let indent = if recipe && cx.own().starts_with('\t') {
            String::new()
        } else {
            cx.indent()
        };
        places.push(cx.own_line_place(Marker::Hash, indent));
    }
    Ok((places, refused.unwrap_or(Reason::NoPlace)))
}

fn hash_own_line_refused(cx: &LineCx, window: &Range<usize>, yaml: bool) -> Option<Reason> {
    if cx.line > window.start && cx.previous().is_some_and(|p| p.trim_end().ends_with('\\')) {
        return Some(Reason::Continuation);
    }
    let text = &cx.doc.text;
    if !yaml {
        return scan::strictly_inside(&scan::literal_regions(text, CommentStyle::Hash), cx.line_start)
            .then_some(Reason::InString);
    }
    let window_lines = &cx.lines[window.clone()];
    let block = scan::yaml_block_lines(window_lines);
    if block[cx.line - window.start] || !scan::yaml_starts_node(cx.own()) {
        return Some(Reason::YamlValue);
    }
    // Quotes are read outside the block scalars, whose text may hold any quote, and outside
    // the window; every byte keeps its offset.
    let mut masked = Vec::with_capacity(text.len());
    for (k, line) in text.split_inclusive('\n').enumerate() {
        let outside = k < window.start || k >= window.end || block[k - window.start];
        masked.extend(line.bytes().map(|b| match b {
            b'\n' => b'\n',
            _ if outside || !b.is_ascii() => b' ',
            b => b,
        }));
    }
    let Ok(masked) = String::from_utf8(masked) else {
        return Some(Reason::YamlValue);
    };
    scan::strictly_inside(&scan::literal_regions(&masked, CommentStyle::Hash), cx.line_start)
        .then_some(Reason::YamlValue)
}

/// `//` text files (Go, Java, C, ...) not parsed: a comment at the end of the line, where no
/// quote is open and no raw or multi-line string runs over the line's end.
fn slash(cx: &LineCx) -> Places {
    let mut places = Vec::new();
    let text = &cx.doc.text;
    let comments = lang::text::comment_ranges(CommentStyle::Slash, text);
    if let Some((at, place)) = cx.extend(cx.line, false)
        && comments.iter().any(|r| r.start == at)
    {
        places.push(place);
    }
    let own = cx.own().trim_end();
    let probe = format!("{own}  // x");
    let opens_comment = lang::text::comment_ranges(CommentStyle::Slash, &probe)
        .iter()
        .any(|r| r.start == own.len() + 2);
    let refused = if own.ends_with('\\') {
        Some(Reason::Continuation)
    } else if !opens_comment
        || scan::strictly_inside(
            &scan::literal_regions(text, CommentStyle::Slash),
            cx.end_of_line(),
        )
    {
        Some(Reason::InString)
    } else {
        None
    };
    if refused.is_none() {
        places.push(cx.end_of_line_place(Marker::Slash));
    }
    Ok((places, refused.unwrap_or(Reason::NoPlace)))
}

/// A place as an edit of the file's bytes; `None` when it cannot be carried exactly.
fn carry(file: &File, d: usize, place: Place) -> Option<Edit> {
    let doc = &file.docs[d];
    let (edit, own_line) = match place {
        Place::Codes(range, codes) => (Edit::replace(range, codes), false),
        Place::EndOfLine(at, content) => (Edit::replace(at..at, content), false),
        Place::OwnLine {
            line,
            indent,
            directive,
        } => {
            let start = file.indexes[d].line_range(line, &doc.text).start;
            (
                Edit::replace(start..start, format!("{indent}{directive}\n")),
                true,
            )
        }
    };
    let Some(map) = &doc.map else {
        return Some(edit);
    };
    // A notebook cell's new line becomes a source string of its own.
    if !own_line || file.surface == Surface::Notebook {
        return map.edit(&edit);
    }
    // A code block's new line takes the prefix the block's lines have in the file (its fence's
    // indentation).
    let at = map.offset(edit.range.start);
    let line_start = file.text[..at].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &file.text[line_start..at];
    if !prefix.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    Some(Edit::replace(
        line_start..line_start,
        format!("{prefix}{}", edit.content),
    ))
}
