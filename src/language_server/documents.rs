//! The documents open in the client: kept as the client edits them, checked as `check` checks
//! their files, and their findings turned into the protocol's diagnostics.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use lsp_types::{self as lsp, NotebookCellKind, Uri};

use super::convert::{self, TextIndex};
use super::notebook::{self, Cell};
use super::session::Session;
use crate::diagnostic::{Diagnostic, Severity};
use crate::run::{self, RunOptions};
use crate::settings::Settings;

/// A text document open in the client: a file, or a notebook's cell.
pub(super) struct Document {
    pub text: String,
    pub version: i32,
    pub language: String,
    /// The notebook the document is a cell of.
    pub notebook: Option<Uri>,
}

/// One check of a file (or of a notebook's cells, as one notebook file).
pub(super) struct Checked {
    /// The document checked; `None` for a notebook (its cells are in `cells`).
    pub uri: Option<Uri>,
    pub path: PathBuf,
    pub settings: Rc<Settings>,
    /// The text the engine read, without a byte-order mark.
    pub text: String,
    /// The line ending new lines of a fix take.
    pub line_ending: crate::source::LineEnding,
    /// Bytes before `text` in the document: a byte-order mark's.
    pub bom: usize,
    pub findings: Vec<Diagnostic>,
    /// For a notebook: its cells, in order.
    pub cells: Option<Vec<(Cell, String)>>,
}

impl Session {
    /// Keeps a document the client opened (a file, or a cell of `notebook`).
    pub(super) fn open(&mut self, item: lsp::TextDocumentItem, notebook: Option<&Uri>) {
        let document = Document {
            text: item.text,
            version: item.version,
            language: item.language_id,
            notebook: notebook.cloned(),
        };
        self.documents.insert(item.uri, document);
    }

    /// After a document (or a notebook, or one of its cells) changed: its diagnostics, pushed
    /// unless the client pulls them.
    pub(super) fn changed(&mut self, uri: &Uri) {
        if self.pull {
            return;
        }
        let notebook = match self.documents.get(uri) {
            Some(doc) => doc.notebook.clone(),
            None if self.notebooks.contains_key(uri) => Some(uri.clone()),
            None => return,
        };
        match notebook {
            Some(notebook) => {
                let Some(cells) = self.notebooks.get(&notebook).map(|n| n.cells.clone()) else {
                    return;
                };
                let mut per_cell = self.cell_diagnostics(&notebook);
                for cell in cells {
                    let items = per_cell.remove(&cell.uri).unwrap_or_default();
                    let version = self.documents.get(&cell.uri).map(|d| d.version);
                    self.publish(cell.uri, items, version);
                }
            }
            None => {
                let items = self.diagnostics_of(uri);
                let version = self.documents.get(uri).map(|d| d.version);
                self.publish(uri.clone(), items, version);
            }
        }
    }

    /// The diagnostics of an open document (of a notebook's cell: the cell's).
    pub(super) fn diagnostics_of(&mut self, uri: &Uri) -> Vec<lsp::Diagnostic> {
        if let Some(notebook) = self.documents.get(uri).and_then(|d| d.notebook.clone()) {
            return self.cell_diagnostics(&notebook).remove(uri).unwrap_or_default();
        }
        let Some(checked) = self.check(uri) else {
            return Vec::new();
        };
        let Some(doc) = self.documents.get(uri) else {
            return Vec::new();
        };
        let index = TextIndex::new(&doc.text);
        checked
            .findings
            .iter()
            .map(|d| {
                self.to_lsp(
                    d,
                    index.range(d.range.start + checked.bom..d.range.end + checked.bom),
                )
            })
            .collect()
    }

    /// Checks an open document or notebook as `check` checks its file. `None` for a file the
    /// configuration excludes, or whose configuration is broken (shown once).
    pub(super) fn check(&mut self, uri: &Uri) -> Option<Checked> {
        let (path, document, cells) = if let Some(notebook) = self.notebooks.get(uri) {
            let mut texts: Vec<(Cell, String)> = Vec::new();
            let mut language = None;
            for cell in &notebook.cells {
                let doc = self.documents.get(&cell.uri);
                if cell.kind == NotebookCellKind::Code && language.is_none() {
                    language = doc.map(|d| d.language.clone());
                }
                texts.push((cell.clone(), doc.map(|d| d.text.clone()).unwrap_or_default()));
            }
            let pairs: Vec<(NotebookCellKind, &str)> =
                texts.iter().map(|(c, t)| (c.kind.clone(), t.as_str())).collect();
            let text = notebook::file_text(&pairs, language.as_deref().unwrap_or("python"));
            let path = convert::path_of(uri).unwrap_or_else(|| self.root.join("untitled.ipynb"));
            (path, text, Some(texts))
        } else {
            let doc = self.documents.get(uri)?;
            // A file, or an unsaved one; not another view of a file (`git:` in a diff, an
            // editor's output panel), whose findings would stand twice.
            let path = match convert::path_of(uri) {
                Some(path) => path,
                None if uri.as_str().starts_with("untitled:") => self.root.join(untitled_name(&doc.language)),
                None => return None,
            };
            (path, doc.text.clone(), None)
        };
        let settings = self.settings_for(&path)?;
        if is_excluded(&path, &settings) {
            return None;
        }
        let bom = if document.starts_with(crate::source::BOM) {
            crate::source::BOM.len()
        } else {
            0
        };
        let report = run::check_bytes(
            &path,
            document.into_bytes(),
            &settings,
            RunOptions::default(),
            false,
        );
        for notice in &report.notices {
            if notice.is_error() {
                let message = format!("interlint: {}: {}", path.display(), notice.message());
                self.show(lsp::MessageType::ERROR, &message);
            }
        }
        let source = report.text?;
        let (text, line_ending) = (source.text, source.line_ending);
        Some(Checked {
            uri: cells.is_none().then(|| uri.clone()),
            path,
            settings,
            text,
            line_ending,
            bom,
            findings: report.diagnostics,
            cells,
        })
    }

    pub(super) fn to_lsp(&self, d: &Diagnostic, range: lsp::Range) -> lsp::Diagnostic {
        let code = d.rule.code;
        let href = self
            .docs
            .as_ref()
            .and_then(|folder| convert::uri_of(&folder.join(format!("{code}.md"))));
        let mut message = d.message.clone();
        if let Some(suggestion) = &d.suggestion {
            message.push('\n');
            message.push_str(suggestion);
        }
        lsp::Diagnostic {
            range,
            severity: Some(match d.severity {
                Severity::Error => lsp::DiagnosticSeverity::ERROR,
                Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            }),
            code: Some(lsp::NumberOrString::String(code.to_string())),
            code_description: href.map(|href| lsp::CodeDescription { href }),
            source: Some("interlint".into()),
            message,
            ..lsp::Diagnostic::default()
        }
    }
}

/// Applies a client's changes to a document's text, in order.
pub(super) fn apply_changes(text: &mut String, changes: &[lsp::TextDocumentContentChangeEvent]) {
    for change in changes {
        match change.range {
            Some(range) => {
                let index = TextIndex::new(text);
                let start = index.offset(range.start);
                let end = index.offset(range.end).max(start);
                text.replace_range(start..end, &change.text);
            }
            None => text.clone_from(&change.text),
        }
    }
}

/// Whether the configuration excludes a file, or a folder above it (as `--force-exclude`).
pub(super) fn is_excluded(path: &Path, settings: &Settings) -> bool {
    path.ancestors().any(|a| {
        settings.is_excluded(a)
            || a.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| crate::settings::VCS_FOLDERS.contains(&n))
    })
}

/// The name an unsaved document is checked under, from its language.
fn untitled_name(language: &str) -> String {
    let extension = match language {
        "python" => "py",
        "javascript" => "js",
        "javascriptreact" => "jsx",
        "typescript" => "ts",
        "typescriptreact" => "tsx",
        "markdown" => "md",
        "json" | "jsonc" => "json",
        "shellscript" | "sh" | "bash" => "sh",
        "yaml" => "yaml",
        "toml" => "toml",
        "rust" => "rs",
        "http" => "http",
        "dotenv" => return ".env".into(),
        _ => "txt",
    };
    format!("untitled.{extension}")
}
