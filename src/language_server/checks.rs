//! Checks of open documents and notebooks, as `check` checks their files, and their findings
//! as the protocol's diagnostics (a notebook's, by cell).

use std::collections::HashMap;

use lsp_types::{self as lsp, NotebookCellKind, Uri};

use super::convert::{self, TextIndex};
use super::documents::{Checked, is_excluded, untitled_name};
use super::notebook::{self, Cell, cell_range};
use super::session::Session;
use crate::diagnostic::{Diagnostic, Severity};
use crate::run::{self, RunOptions};

impl Session {
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

    /// The diagnostics of a notebook's cells, by cell.
    pub(super) fn cell_diagnostics(&mut self, notebook: &Uri) -> HashMap<Uri, Vec<lsp::Diagnostic>> {
        let mut found: HashMap<Uri, Vec<lsp::Diagnostic>> = HashMap::new();
        let Some(checked) = self.check(notebook) else {
            return found;
        };
        let Some(cells) = &checked.cells else {
            return found;
        };
        for d in &checked.findings {
            let Some((cell, range)) = cell_range(cells, d) else {
                continue;
            };
            found
                .entry(cell.uri.clone())
                .or_default()
                .push(self.to_lsp(d, range));
        }
        found
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
