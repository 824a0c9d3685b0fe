//! The documents open in the client (a file, or a notebook's cell) and one check's outcome:
//! the data that the session keeps, and how a client's edits apply to a text.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use lsp_types::{self as lsp, Uri};

use super::convert::TextIndex;
use super::notebook::Cell;
use crate::diagnostic::Diagnostic;
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
pub(super) fn untitled_name(language: &str) -> String {
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
