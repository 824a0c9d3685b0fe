//! The server's state: open documents and notebooks, settings per folder, and the handling of
//! each message.

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crossbeam_channel::Sender;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{self as lsp, NotebookCellKind, Uri};
use serde_json::{Value, json};

use super::convert::{self, TextIndex};
use super::notebook::{self, Cell, Notebook};
use crate::diagnostic::{Diagnostic, Severity};
use crate::run::{self, RunOptions};
use crate::settings::{Overrides, Settings};

/// The configuration files whose change re-checks every open document.
const CONFIG_FILES: &[&str] = &["interlint.toml", ".interlint.toml", "pyproject.toml"];

/// What the client may set, in `initializationOptions` or `workspace/didChangeConfiguration`
/// (at the top level or under `interlint`).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Options {
    /// Offer unsafe fixes as quick fixes (marked as such).
    pub unsafe_fixes: bool,
    /// As `--select`, `--extend-select` and `--ignore`.
    pub select: Option<Vec<String>>,
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
}

impl Options {
    /// The options of a settings object (`{"interlint": {...}}`, or ours at the top level); an
    /// error names what is wrong. `None` when the object holds no settings of ours (null, or
    /// another tool's settings that a client sends every server).
    pub fn from_value(value: &Value) -> Result<Option<Self>, String> {
        const OURS: &[&str] = &["unsafeFixes", "select", "extendSelect", "ignore"];
        let value = match value.get("interlint") {
            Some(ours) => ours,
            None => match value.as_object() {
                Some(map) if !map.is_empty() && map.keys().all(|k| OURS.contains(&k.as_str())) => value,
                Some(map) if map.is_empty() => return Ok(Some(Options::default())),
                _ => return Ok(None),
            },
        };
        if value.is_null() {
            return Ok(Some(Options::default()));
        }
        let options: Options = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
        let selectors = options
            .select
            .iter()
            .flatten()
            .chain(&options.extend_select)
            .chain(&options.ignore);
        for selector in selectors {
            crate::codes::parse_selector(selector)?;
        }
        Ok(Some(options))
    }
}

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

pub(super) struct Server {
    sender: Sender<Message>,
    /// The workspace's folder: where settings are anchored when no configuration file is.
    root: PathBuf,
    pub options: Options,
    pub documents: HashMap<Uri, Document>,
    notebooks: HashMap<Uri, Notebook>,
    /// Settings per folder, each from the configuration found from it; cleared when a
    /// configuration file or the client's settings change.
    settings: HashMap<PathBuf, Result<Rc<Settings>, String>>,
    /// Errors already shown to the user (a broken configuration), not shown at every keystroke.
    shown: HashSet<String>,
    /// The client pulls diagnostics (`textDocument/diagnostic`); else they are published.
    pull: bool,
    refresh: bool,
    watch_files: bool,
    /// The client resolves code actions' edits (`codeAction/resolve`): the costly ones (a
    /// suppression comment, fix all) are made only for the action chosen.
    pub resolve_edits: bool,
    /// Where each rule's documentation page is written, for the diagnostics' links.
    docs: Option<PathBuf>,
    next_id: i32,
}

impl Server {
    pub fn new(sender: Sender<Message>, params: &lsp::InitializeParams) -> Self {
        let capabilities = &params.capabilities;
        let pull = capabilities
            .text_document
            .as_ref()
            .is_some_and(|t| t.diagnostic.is_some());
        let resolve_edits = capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.code_action.as_ref())
            .and_then(|c| c.resolve_support.as_ref())
            .is_some_and(|r| r.properties.iter().any(|p| p == "edit"));
        let workspace = capabilities.workspace.as_ref();
        let refresh = workspace
            .and_then(|w| w.diagnostic.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false);
        let watch_files = workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        #[allow(deprecated)]
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|folders| folders.first())
            .map(|folder| &folder.uri)
            .or(params.root_uri.as_ref())
            .and_then(convert::path_of)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let mut server = Server {
            sender,
            root,
            options: Options::default(),
            documents: HashMap::new(),
            notebooks: HashMap::new(),
            settings: HashMap::new(),
            shown: HashSet::new(),
            pull,
            refresh,
            watch_files,
            resolve_edits,
            docs: docs_folder(),
            next_id: 0,
        };
        if let Some(options) = &params.initialization_options {
            server.set_options(options);
        }
        server
    }

    pub fn initialize_result(&self) -> Value {
        let mut capabilities = json!({
            "positionEncoding": "utf-16",
            "textDocumentSync": {
                "openClose": true,
                "change": 2,
                "save": { "includeText": false },
            },
            "notebookDocumentSync": {
                "notebookSelector": [{ "notebook": { "notebookType": "jupyter-notebook" }, "cells": [{ "language": "python" }, { "language": "markdown" }] }],
            },
            "codeActionProvider": {
                "codeActionKinds": ["quickfix", "source.fixAll.interlint"],
                "resolveProvider": self.resolve_edits,
            },
            "hoverProvider": true,
        });
        if self.pull {
            capabilities["diagnosticProvider"] = json!({
                "identifier": "interlint",
                "interFileDependencies": false,
                "workspaceDiagnostics": false,
            });
        }
        json!({
            "capabilities": capabilities,
            "serverInfo": { "name": "interlint", "version": env!("CARGO_PKG_VERSION") },
        })
    }

    /// After the handshake: asks to hear of changes to configuration files.
    pub fn initialized(&mut self) {
        if !self.watch_files {
            return;
        }
        let watchers: Vec<Value> = CONFIG_FILES
            .iter()
            .map(|name| json!({ "globPattern": format!("**/{name}") }))
            .collect();
        let params = json!({
            "registrations": [{
                "id": "interlint-configuration",
                "method": "workspace/didChangeWatchedFiles",
                "registerOptions": { "watchers": watchers },
            }],
        });
        self.send_request("client/registerCapability", params);
    }

    // ---- messages --------------------------------------------------------------------

    pub fn request(&mut self, request: Request) {
        let id = request.id.clone();
        let method = request.method.clone();
        let outcome = catch_unwind(AssertUnwindSafe(|| self.handle_request(request)));
        let reply = match outcome {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(panic) => {
                let message = self.internal_error(&method, &*panic);
                Response::new_err(id, ErrorCode::InternalError as i32, message)
            }
        };
        self.send(reply.into());
    }

    pub fn notification(&mut self, notification: Notification) {
        let method = notification.method.clone();
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| self.handle_notification(notification))) {
            self.internal_error(&method, &*panic);
        }
    }

    /// Shows a panic to the user and goes on: one bad document does not end the session.
    fn internal_error(&mut self, method: &str, panic: &(dyn std::any::Any + Send)) -> String {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let message = format!(
            "interlint: internal error while handling {method} ({what}); please report it at the interlint issue tracker"
        );
        self.show(lsp::MessageType::ERROR, &message);
        message
    }

    fn handle_request(&mut self, request: Request) -> Result<Value, (ErrorCode, String)> {
        fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, (ErrorCode, String)> {
            serde_json::from_value(request.params).map_err(|e| {
                (
                    ErrorCode::InvalidParams,
                    format!("invalid parameters of {}: {e}", request.method),
                )
            })
        }
        let to_value =
            |v: Result<Value, serde_json::Error>| v.map_err(|e| (ErrorCode::InternalError, e.to_string()));
        match request.method.as_str() {
            "textDocument/diagnostic" => {
                let params: lsp::DocumentDiagnosticParams = params(request)?;
                let items = self.diagnostics_of(&params.text_document.uri);
                to_value(serde_json::to_value(json!({ "kind": "full", "items": items })))
            }
            "textDocument/codeAction" => {
                let params: lsp::CodeActionParams = params(request)?;
                let actions = self.code_actions(&params);
                to_value(serde_json::to_value(actions))
            }
            "codeAction/resolve" => {
                let action: lsp::CodeAction = params(request)?;
                to_value(serde_json::to_value(self.resolve_action(action)))
            }
            "textDocument/hover" => {
                let params: lsp::HoverParams = params(request)?;
                let hover = self.hover(
                    &params.text_document_position_params.text_document.uri,
                    params.text_document_position_params.position,
                );
                to_value(serde_json::to_value(hover))
            }
            method => Err((
                ErrorCode::MethodNotFound,
                format!("interlint server does not answer {method}"),
            )),
        }
    }

    fn handle_notification(&mut self, notification: Notification) {
        fn params<P: serde::de::DeserializeOwned>(
            server: &mut Server,
            notification: Notification,
        ) -> Option<P> {
            match serde_json::from_value(notification.params) {
                Ok(params) => Some(params),
                Err(e) => {
                    server.log(&format!("invalid parameters of {}: {e}", notification.method));
                    None
                }
            }
        }
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                let Some(p) = params::<lsp::DidOpenTextDocumentParams>(self, notification) else {
                    return;
                };
                let uri = p.text_document.uri.clone();
                self.open(p.text_document, None);
                self.changed(&uri);
            }
            "textDocument/didChange" => {
                let Some(p) = params::<lsp::DidChangeTextDocumentParams>(self, notification) else {
                    return;
                };
                let uri = p.text_document.uri;
                if let Some(doc) = self.documents.get_mut(&uri) {
                    apply_changes(&mut doc.text, &p.content_changes);
                    doc.version = p.text_document.version;
                }
                self.changed(&uri);
            }
            "textDocument/didSave" => {
                let Some(p) = params::<lsp::DidSaveTextDocumentParams>(self, notification) else {
                    return;
                };
                if convert::path_of(&p.text_document.uri).is_some_and(|path| is_config_file(&path)) {
                    self.reload();
                }
            }
            "textDocument/didClose" => {
                let Some(p) = params::<lsp::DidCloseTextDocumentParams>(self, notification) else {
                    return;
                };
                let uri = p.text_document.uri;
                if self.documents.remove(&uri).is_some() && !self.pull {
                    self.publish(uri, Vec::new(), None);
                }
            }
            "notebookDocument/didOpen" => {
                let Some(p) = params::<lsp::DidOpenNotebookDocumentParams>(self, notification) else {
                    return;
                };
                self.open_notebook(p);
            }
            "notebookDocument/didChange" => {
                let Some(p) = params::<lsp::DidChangeNotebookDocumentParams>(self, notification) else {
                    return;
                };
                self.change_notebook(p);
            }
            "notebookDocument/didClose" => {
                let Some(p) = params::<lsp::DidCloseNotebookDocumentParams>(self, notification) else {
                    return;
                };
                self.notebooks.remove(&p.notebook_document.uri);
                for cell in p.cell_text_documents {
                    if self.documents.remove(&cell.uri).is_some() && !self.pull {
                        self.publish(cell.uri, Vec::new(), None);
                    }
                }
            }
            "workspace/didChangeConfiguration" => {
                let Some(p) = params::<lsp::DidChangeConfigurationParams>(self, notification) else {
                    return;
                };
                if self.set_options(&p.settings) {
                    self.reload();
                }
            }
            "workspace/didChangeWatchedFiles" => {
                let Some(p) = params::<lsp::DidChangeWatchedFilesParams>(self, notification) else {
                    return;
                };
                let config = p
                    .changes
                    .iter()
                    .any(|c| convert::path_of(&c.uri).is_some_and(|path| is_config_file(&path)));
                if config {
                    self.reload();
                }
            }
            // `initialized`, `$/cancelRequest`, `$/setTrace`, `notebookDocument/didSave`, and
            // what else a client sends that needs no answer.
            _ => {}
        }
    }

    /// Takes the client's settings; false (with the error shown) when they are not valid. A
    /// settings object with none of ours keeps those in effect (and the configuration files
    /// are read again).
    fn set_options(&mut self, value: &Value) -> bool {
        match Options::from_value(value) {
            Ok(Some(options)) => {
                self.options = options;
                true
            }
            Ok(None) => true,
            Err(e) => {
                self.show(
                    lsp::MessageType::ERROR,
                    &format!("interlint: invalid settings, kept the ones before: {e}"),
                );
                false
            }
        }
    }

    /// After a change of configuration: settings are read again, and every open document
    /// checked again.
    fn reload(&mut self) {
        self.settings.clear();
        self.shown.clear();
        if self.pull {
            if self.refresh {
                self.send_request("workspace/diagnostic/refresh", Value::Null);
            }
            return;
        }
        let uris: Vec<Uri> = self
            .documents
            .iter()
            .filter(|(_, d)| d.notebook.is_none())
            .map(|(uri, _)| uri.clone())
            .chain(self.notebooks.keys().cloned())
            .collect();
        for uri in uris {
            self.changed(&uri);
        }
    }

    /// Keeps a document the client opened (a file, or a cell of `notebook`).
    fn open(&mut self, item: lsp::TextDocumentItem, notebook: Option<&Uri>) {
        let document = Document {
            text: item.text,
            version: item.version,
            language: item.language_id,
            notebook: notebook.cloned(),
        };
        self.documents.insert(item.uri, document);
    }

    // ---- notebooks ---------------------------------------------------------------------

    fn open_notebook(&mut self, p: lsp::DidOpenNotebookDocumentParams) {
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

    fn change_notebook(&mut self, p: lsp::DidChangeNotebookDocumentParams) {
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

    // ---- checking ------------------------------------------------------------------------

    /// After a document (or a notebook, or one of its cells) changed: its diagnostics, pushed
    /// unless the client pulls them.
    fn changed(&mut self, uri: &Uri) {
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
    fn cell_diagnostics(&mut self, notebook: &Uri) -> HashMap<Uri, Vec<lsp::Diagnostic>> {
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

    /// The settings of a file: from the configuration found from its folder, with the
    /// client's options over it.
    fn settings_for(&mut self, path: &Path) -> Option<Rc<Settings>> {
        let folder = path.parent().unwrap_or(&self.root).to_path_buf();
        let entry = match self.settings.get(&folder) {
            Some(entry) => entry.clone(),
            None => {
                let entry = self.load_settings(&folder);
                self.settings.insert(folder, entry.clone());
                entry
            }
        };
        match entry {
            Ok(settings) => Some(settings),
            Err(message) => {
                if self.shown.insert(message.clone()) {
                    self.show(lsp::MessageType::ERROR, &format!("interlint: {message}"));
                }
                None
            }
        }
    }

    fn load_settings(&self, folder: &Path) -> Result<Rc<Settings>, String> {
        let loaded = crate::config::load_with(&[], folder).map_err(|e| e.to_string())?;
        let overrides = Overrides {
            select: self.options.select.clone(),
            extend_select: self.options.extend_select.clone(),
            ignore: self.options.ignore.clone(),
            ..Overrides::default()
        };
        Settings::new(&loaded, overrides, &self.root)
            .map(Rc::new)
            .map_err(|e| format!("{e:#}"))
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

    // ---- output ----------------------------------------------------------------------------

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp::Diagnostic>, version: Option<i32>) {
        let params = lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Notification::new("textDocument/publishDiagnostics".into(), params).into());
    }

    fn show(&self, kind: lsp::MessageType, message: &str) {
        let params = lsp::ShowMessageParams {
            typ: kind,
            message: message.to_string(),
        };
        self.send(Notification::new("window/showMessage".into(), params).into());
    }

    fn log(&self, message: &str) {
        let params = lsp::LogMessageParams {
            typ: lsp::MessageType::WARNING,
            message: message.to_string(),
        };
        self.send(Notification::new("window/logMessage".into(), params).into());
    }

    fn send_request(&mut self, method: &str, params: Value) {
        self.next_id += 1;
        let id = RequestId::from(format!("interlint-{}", self.next_id));
        self.send(Request::new(id, method.into(), params).into());
    }

    fn send(&self, message: Message) {
        // The client has gone: the loop ends with the connection.
        let _ = self.sender.send(message);
    }
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

/// Applies a client's changes to a document's text, in order.
fn apply_changes(text: &mut String, changes: &[lsp::TextDocumentContentChangeEvent]) {
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

fn is_config_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| CONFIG_FILES.contains(&n))
}

/// Whether the configuration excludes a file, or a folder above it (as `--force-exclude`).
fn is_excluded(path: &Path, settings: &Settings) -> bool {
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

/// The folder each rule's documentation page is written to (the diagnostics link to it): in
/// the user's cache, once per version. `None` when it cannot be written.
fn docs_folder() -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .or_else(|| std::env::var_os("LOCALAPPDATA").map(PathBuf::from))?;
    let folder = cache
        .join("interlint")
        .join(env!("CARGO_PKG_VERSION"))
        .join("rules");
    std::fs::create_dir_all(&folder).ok()?;
    for rule in crate::registry::all_rules() {
        let meta = rule.meta();
        let page = folder.join(format!("{}.md", meta.code));
        let same = std::fs::read_to_string(&page).is_ok_and(|t| t == meta.doc);
        if !same {
            // Written whole, then renamed: a second server never reads half a page.
            let mut file = tempfile::NamedTempFile::new_in(&folder).ok()?;
            std::io::Write::write_all(&mut file, meta.doc.as_bytes()).ok()?;
            file.persist(&page).ok()?;
        }
    }
    std::fs::canonicalize(&folder).ok()
}
