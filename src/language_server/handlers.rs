//! The handling of each message: requests answered, notifications acted on, and a panic in
//! either shown to the user without ending the session.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_server::{ErrorCode, Notification, Request, Response};
use lsp_types as lsp;
use serde_json::{Value, json};

use super::convert;
use super::documents::apply_changes;
use super::session::{Session, is_config_file};

impl Session {
    pub(super) fn request(&mut self, request: Request) {
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

    pub(super) fn notification(&mut self, notification: Notification) {
        let method = notification.method.clone();
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| self.handle_notification(notification))) {
            self.internal_error(&method, &*panic);
        }
    }

    /// Shows a panic to the user and goes on: one bad document does not end the session.
    pub(super) fn internal_error(&mut self, method: &str, panic: &(dyn std::any::Any + Send)) -> String {
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

    pub(super) fn handle_request(&mut self, request: Request) -> Result<Value, (ErrorCode, String)> {
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

    pub(super) fn handle_notification(&mut self, notification: Notification) {
        fn params<P: serde::de::DeserializeOwned>(
            server: &mut Session,
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
}
