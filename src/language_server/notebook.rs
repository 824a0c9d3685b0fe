//! Notebooks synced cell by cell: the cells make a notebook file (`.ipynb` JSON) that the
//! engine checks as `check` checks one on disk, and its findings and fixes go back to the cells.

use lsp_types::{self as lsp, NotebookCellKind, Uri};
use serde_json::{Value, json};

use super::convert::TextIndex;
use crate::diagnostic::Diagnostic;

/// A notebook open in the client: its cells in order, each a text document of its own.
#[derive(Clone, Debug)]
pub struct Notebook {
    pub version: i32,
    pub cells: Vec<Cell>,
}

#[derive(Clone, Debug)]
pub struct Cell {
    pub kind: NotebookCellKind,
    pub uri: Uri,
}

/// The notebook file of cells' texts (with the language of its code cells), as Jupyter writes
/// one: each cell's source a list of lines.
pub fn file_text(cells: &[(NotebookCellKind, &str)], language: &str) -> String {
    let cells: Vec<Value> = cells
        .iter()
        .map(|(kind, text)| {
            let source: Vec<&str> = text.split_inclusive('\n').collect();
            match *kind {
                NotebookCellKind::Markup => json!({
                    "cell_type": "markdown",
                    "metadata": {},
                    "source": source,
                }),
                _ => json!({
                    "cell_type": "code",
                    "execution_count": null,
                    "metadata": {},
                    "outputs": [],
                    "source": source,
                }),
            }
        })
        .collect();
    let notebook = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": { "language": language, "name": language },
            "language_info": { "name": language },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    let mut text = serde_json::to_string_pretty(&notebook).unwrap_or_default();
    text.push('\n');
    text
}

/// The source of each cell of a notebook file, in order; `None` when the text is not a
/// notebook (a fix never makes one that is not: the engine re-reads what it writes).
pub fn cell_sources(text: &str) -> Option<Vec<String>> {
    let notebook: Value = serde_json::from_str(text).ok()?;
    let cells = notebook.get("cells")?.as_array()?;
    cells
        .iter()
        .map(|cell| match cell.get("source")? {
            Value::String(s) => Some(s.clone()),
            Value::Array(lines) => lines.iter().map(|l| l.as_str()).collect::<Option<String>>(),
            _ => None,
        })
        .collect()
}

/// The cell of a notebook finding, and its range in the cell's text.
pub(super) fn cell_range<'c>(cells: &'c [(Cell, String)], d: &Diagnostic) -> Option<(&'c Cell, lsp::Range)> {
    let location = d.cell.as_ref()?;
    let (cell, text) = cells.get(location.cell.checked_sub(1)?)?;
    let index = TextIndex::new(text);
    let position = |p: crate::source::Position| {
        let line = p.line.saturating_sub(1);
        lsp::Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            index.column_of_char(line, p.column.saturating_sub(1)),
        )
    };
    Some((
        cell,
        lsp::Range::new(position(location.start), position(location.end)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn cells_go_through_the_notebook_file_unchanged() {
        let cells = [
            (NotebookCellKind::Markup, "# Title\n\nSome *text*"),
            (NotebookCellKind::Code, "import os\nprint(\"é\")\n"),
            (NotebookCellKind::Code, ""),
        ];
        let text = file_text(&cells, "python");
        let sources = cell_sources(&text).unwrap_or_default();
        let expected: Vec<String> = cells.iter().map(|(_, t)| t.to_string()).collect();
        assert_eq!(sources, expected);
        assert_eq!(cell_sources("{\"cells\": 3}"), None);
    }
}
