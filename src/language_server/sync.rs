//! Documents and notebooks kept in step with the client: opened, edited cell by cell, closed.

use lsp_types::{self as lsp, Uri};

use super::documents::{Document, apply_changes};
use super::notebook::{Cell, Notebook};
use super::session::Session;

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

    pub(super) fn open_notebook(&mut self, p: lsp::DidOpenNotebookDocumentParams) {
        let uri = p.notebook_document.uri.clone();
        for item in p.cell_text_documents {
            self.open(item, Some(&uri));
        }
        let cells = p
            .notebook_document
            .cells
            .into_iter()
            .map(|c| Cell {
                kind: c.kind,
                uri: c.document,
            })
            .collect();
        self.notebooks.insert(
            uri.clone(),
            Notebook {
                version: p.notebook_document.version,
                cells,
            },
        );
        self.changed(&uri);
    }

    pub(super) fn change_notebook(&mut self, p: lsp::DidChangeNotebookDocumentParams) {
        let uri = p.notebook_document.uri.clone();
        let mut closed = Vec::new();
        if let Some(cells) = p.change.cells {
            if let Some(structure) = cells.structure {
                for item in structure.did_open.into_iter().flatten() {
                    self.open(item, Some(&uri));
                }
                for item in structure.did_close.into_iter().flatten() {
                    self.documents.remove(&item.uri);
                    closed.push(item.uri);
                }
                if let Some(notebook) = self.notebooks.get_mut(&uri) {
                    let array = structure.array;
                    let start = (array.start as usize).min(notebook.cells.len());
                    let end = (start + array.delete_count as usize).min(notebook.cells.len());
                    let new = array.cells.into_iter().flatten().map(|c| Cell {
                        kind: c.kind,
                        uri: c.document,
                    });
                    notebook.cells.splice(start..end, new);
                }
            }
            for changed in cells.data.into_iter().flatten() {
                if let Some(cell) = self
                    .notebooks
                    .get_mut(&uri)
                    .and_then(|n| n.cells.iter_mut().find(|c| c.uri == changed.document))
                {
                    cell.kind = changed.kind;
                }
            }
            for content in cells.text_content.into_iter().flatten() {
                if let Some(doc) = self.documents.get_mut(&content.document.uri) {
                    apply_changes(&mut doc.text, &content.changes);
                    doc.version = content.document.version;
                }
            }
        }
        if let Some(notebook) = self.notebooks.get_mut(&uri) {
            notebook.version = p.notebook_document.version;
        }
        if !self.pull {
            for cell in closed {
                self.publish(cell, Vec::new(), None);
            }
        }
        self.changed(&uri);
    }
}
