//! The session: the client's capabilities and options, the open documents and notebooks, the
//! settings per folder, and what the server sends (diagnostics, messages, requests).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crossbeam_channel::Sender;
use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::{self as lsp, Uri};
use serde_json::{Value, json};

use super::convert;
use super::documents::Document;
use super::notebook::Notebook;
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

pub(super) struct Session {
    pub(super) sender: Sender<Message>,
    /// The workspace's folder: where settings are anchored when no configuration file is.
    pub(super) root: PathBuf,
    pub(super) options: Options,
    pub(super) documents: HashMap<Uri, Document>,
    pub(super) notebooks: HashMap<Uri, Notebook>,
    /// Settings per folder, each from the configuration found from it; cleared when a
    /// configuration file or the client's settings change.
    pub(super) settings: HashMap<PathBuf, Result<Rc<Settings>, String>>,
    /// Errors already shown to the user (a broken configuration), not shown at every keystroke.
    pub(super) shown: HashSet<String>,
    /// The client pulls diagnostics (`textDocument/diagnostic`); else they are published.
    pub(super) pull: bool,
    pub(super) refresh: bool,
    pub(super) watch_files: bool,
    /// The client resolves code actions' edits (`codeAction/resolve`): the costly ones (a
    /// suppression comment, fix all) are made only for the action chosen.
    pub(super) resolve_edits: bool,
    /// Where each rule's documentation page is written, for the diagnostics' links.
    pub(super) docs: Option<PathBuf>,
    pub(super) next_id: i32,
}

impl Session {
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
        let mut server = Session {
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

    /// Takes the client's settings; false (with the error shown) when they are not valid. A
    /// settings object with none of ours keeps those in effect (and the configuration files
    /// are read again).
    pub(super) fn set_options(&mut self, value: &Value) -> bool {
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
    pub(super) fn reload(&mut self) {
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

    /// The settings of a file: from the configuration found from its folder, with the
    /// client's options over it.
    pub(super) fn settings_for(&mut self, path: &Path) -> Option<Rc<Settings>> {
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

    pub(super) fn load_settings(&self, folder: &Path) -> Result<Rc<Settings>, String> {
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

    // ---- output ----------------------------------------------------------------------------

    pub(super) fn publish(&self, uri: Uri, diagnostics: Vec<lsp::Diagnostic>, version: Option<i32>) {
        let params = lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Notification::new("textDocument/publishDiagnostics".into(), params).into());
    }

    pub(super) fn show(&self, kind: lsp::MessageType, message: &str) {
        let params = lsp::ShowMessageParams {
            typ: kind,
            message: message.to_string(),
        };
        self.send(Notification::new("window/showMessage".into(), params).into());
    }

    pub(super) fn log(&self, message: &str) {
        let params = lsp::LogMessageParams {
            typ: lsp::MessageType::WARNING,
            message: message.to_string(),
        };
        self.send(Notification::new("window/logMessage".into(), params).into());
    }

    pub(super) fn send_request(&mut self, method: &str, params: Value) {
        self.next_id += 1;
        let id = RequestId::from(format!("interlint-{}", self.next_id));
        self.send(Request::new(id, method.into(), params).into());
    }

    pub(super) fn send(&self, message: Message) {
        // The client has gone: the loop ends with the connection.
        let _ = self.sender.send(message);
    }
}

pub(super) fn is_config_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| CONFIG_FILES.contains(&n))
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
