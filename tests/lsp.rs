//! `interlint server`, driven by an in-memory client as an editor drives it: initialize, open,
//! change, diagnostics, code actions applied to the text, fix all, hover, settings, notebooks.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next_id: i32,
    /// Notifications received while waiting for something else.
    pending: Vec<Notification>,
}

impl Client {
    fn start(capabilities: Value, options: Value, root: &Path) -> (Client, Value) {
        let (server, client) = Connection::memory();
        let thread = std::thread::spawn(move || {
            interlint::language_server::run(&server).expect("the server ends cleanly");
        });
        let mut client = Client {
            connection: client,
            server: Some(thread),
            next_id: 0,
            pending: Vec::new(),
        };
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        client.notify("initialized", json!({}));
        (client, result)
    }

    fn send(&self, message: Message) {
        self.connection
            .sender
            .send(message)
            .expect("the server is listening");
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Notification::new(method.into(), params).into());
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        match self.request_raw(method, params).response_result {
            Ok(result) => result,
            Err(error) => panic!("{method} failed: {error:?}"),
        }
    }

    fn request_raw(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Request::new(id.clone(), method.into(), params).into());
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => return response,
                Message::Response(_) => {}
                Message::Notification(n) => self.pending.push(n),
                Message::Request(r) => {
                    // The server's own requests (registerCapability, refresh): accepted.
                    self.send(Response::new_ok(r.id, Value::Null).into());
                }
            }
        }
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(WAIT)
            .expect("the server answers in time")
    }

    /// The next notification of `method` (for `uri`, when given).
    fn notification(&mut self, method: &str, uri: Option<&str>) -> Value {
        let matches = |n: &Notification| n.method == method && uri.is_none_or(|u| n.params["uri"] == u);
        if let Some(i) = self.pending.iter().position(matches) {
            return self.pending.remove(i).params;
        }
        loop {
            match self.receive() {
                Message::Notification(n) if matches(&n) => return n.params,
                Message::Notification(n) => self.pending.push(n),
                Message::Request(r) => self.send(Response::new_ok(r.id, Value::Null).into()),
                Message::Response(_) => {}
            }
        }
    }

    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let params = self.notification("textDocument/publishDiagnostics", Some(uri));
        params["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn open(&self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
        );
    }

    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            server.join().expect("the server thread ends");
        }
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Applies a workspace edit's edits of one document to its text, as an editor does.
fn apply(text: &str, edit: &Value, uri: &str) -> String {
    let edits = edit["changes"][uri].as_array().cloned().unwrap_or_default();
    let offset = |text: &str, p: &Value| -> usize {
        let (line, character) = (
            p["line"].as_u64().unwrap_or(0),
            p["character"].as_u64().unwrap_or(0),
        );
        let mut at = 0;
        for _ in 0..line {
            at += text[at..].find('\n').map_or(text.len() - at, |i| i + 1);
        }
        let mut units = 0;
        for (i, c) in text[at..].char_indices() {
            if units >= character as usize || c == '\n' {
                return at + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut ranges: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
                e["newText"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    ranges.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut out = text.to_string();
    for (start, end, new) in ranges {
        out.replace_range(start..end, &new);
    }
    out
}

fn whole(text: &str) -> Value {
    let lines = text.split('\n').count();
    json!({ "start": { "line": 0, "character": 0 }, "end": { "line": lines, "character": 0 } })
}

fn actions(client: &mut Client, uri: &str, range: Value, only: Option<Vec<&str>>) -> Vec<Value> {
    let mut context = json!({ "diagnostics": [] });
    if let Some(only) = only {
        context["only"] = json!(only);
    }
    let result = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": context }),
    );
    result.as_array().cloned().unwrap_or_default()
}

fn titles(actions: &[Value]) -> Vec<String> {
    actions
        .iter()
        .map(|a| a["title"].as_str().unwrap_or_default().to_string())
        .collect()
}

const APP: &str = "import os\n\nMODEL = \"gemini-1.5-pro\"  # é𝄞\nOTHER = \"gemini-2.0-flash\"\n";

#[test]
fn diagnostics_quick_fixes_fix_all_and_hover() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("app.py");
    std::fs::write(&path, APP).expect("written");
    let (mut client, init) = Client::start(json!({}), Value::Null, dir.path());
    let caps = &init["capabilities"];
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["textDocumentSync"]["change"], 2);
    assert!(
        caps.get("diagnosticProvider").is_none(),
        "published, not pulled: {caps}"
    );
    assert_eq!(init["serverInfo"]["name"], "interlint");

    let uri = uri(&path);
    client.open(&uri, "python", APP);
    let found = client.diagnostics(&uri);
    assert_eq!(found.len(), 2, "{found:#?}");
    let first = &found[0];
    assert_eq!(first["code"], "MIG009");
    assert_eq!(first["source"], "interlint");
    assert_eq!(first["severity"], 1);
    assert_eq!(
        first["range"],
        json!({ "start": { "line": 2, "character": 9 }, "end": { "line": 2, "character": 23 } })
    );
    assert!(
        first["message"]
            .as_str()
            .unwrap_or_default()
            .contains("gemini-1.5-pro")
    );
    let href = first["codeDescription"]["href"].as_str().unwrap_or_default();
    assert!(
        href.starts_with("file://") && href.ends_with("/MIG009.md"),
        "{href}"
    );

    // A quick fix per finding, and a comment to disable it; applied, the text is fixed.
    let at_first = json!({ "start": { "line": 2, "character": 12 }, "end": { "line": 2, "character": 12 } });
    let offered = actions(&mut client, &uri, at_first, None);
    let names = titles(&offered);
    assert_eq!(
        names,
        [
            "interlint (MIG009): Replace with `gemini-3.5-flash`",
            "interlint (MIG009): Disable for this line",
            "interlint: Fix all auto-fixable problems",
        ],
        "{offered:#?}"
    );
    assert_eq!(offered[0]["kind"], "quickfix");
    assert_eq!(offered[0]["isPreferred"], true);
    assert_eq!(offered[0]["diagnostics"][0]["code"], "MIG009");
    let fixed = apply(APP, &offered[0]["edit"], &uri);
    assert_eq!(
        fixed,
        "import os\n\nMODEL = \"gemini-3.5-flash\"  # é𝄞\nOTHER = \"gemini-2.0-flash\"\n"
    );
    let ignored = apply(APP, &offered[1]["edit"], &uri);
    assert_eq!(
        ignored,
        "import os\n\nMODEL = \"gemini-1.5-pro\"  # é𝄞  # interlint: ignore[MIG009]\nOTHER = \"gemini-2.0-flash\"\n"
    );
    let all = apply(APP, &offered[2]["edit"], &uri);
    assert_eq!(
        all,
        "import os\n\nMODEL = \"gemini-3.5-flash\"  # é𝄞\nOTHER = \"gemini-3.5-flash\"\n"
    );
    // Only what was asked for: on save, an editor asks for the fix-all kind alone.
    let on_save = actions(&mut client, &uri, whole(APP), Some(vec!["source.fixAll"]));
    assert_eq!(titles(&on_save), ["interlint: Fix all auto-fixable problems"]);
    assert_eq!(on_save[0]["kind"], "source.fixAll.interlint");

    // An incremental change, as the editor sends it: the applied quick fix.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "range": { "start": { "line": 2, "character": 9 }, "end": { "line": 2, "character": 23 } }, "text": "gemini-3.5-flash" }],
        }),
    );
    let after = client.diagnostics(&uri);
    assert_eq!(after.len(), 1, "{after:#?}");
    assert_eq!(after[0]["range"]["start"]["line"], 3);

    // Hover on the finding: the rule's documentation.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 3, "character": 12 } }),
    );
    let doc = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(doc.starts_with("# MIG009"), "{doc}");
    assert_eq!(hover["contents"]["kind"], "markdown");
    // Nowhere near a finding: nothing.
    let nothing = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 2 } }),
    );
    assert_eq!(nothing, Value::Null);

    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    assert!(client.diagnostics(&uri).is_empty());
    client.shutdown();
}

#[test]
fn hover_on_a_code_of_a_suppression_comment() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("app.js");
    let text = "const m = \"gemini-1.5-pro\"; // interlint: ignore[MIG009]\n";
    let (mut client, _) = Client::start(json!({}), Value::Null, dir.path());
    let uri = uri(&path);
    client.open(&uri, "javascript", text);
    assert!(client.diagnostics(&uri).is_empty());
    let at = text.find("MIG009").unwrap_or_default() + 3;
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": at } }),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|d| d.starts_with("# MIG009")),
        "{hover}"
    );
    assert_eq!(hover["range"]["start"]["character"], at - 3);
    client.shutdown();
}

#[test]
fn settings_and_configuration_changes_check_again() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("app.py");
    let (mut client, _) = Client::start(
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
        json!({ "unsafeFixes": false }),
        dir.path(),
    );
    let uri = uri(&path);
    client.open(&uri, "python", APP);
    assert_eq!(client.diagnostics(&uri).len(), 2);

    // The client's settings: ignore MIG009.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "interlint": { "ignore": ["MIG009"] } } }),
    );
    assert!(client.diagnostics(&uri).is_empty());
    // Settings with none of ours (null, or another server's) keep ours.
    client.notify("workspace/didChangeConfiguration", json!({ "settings": null }));
    assert!(client.diagnostics(&uri).is_empty());
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "python": { "analysis": { "typeCheckingMode": "strict" } } } }),
    );
    assert!(client.diagnostics(&uri).is_empty());
    // Ours at the top level, as some clients send them; a misspelt one is refused.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "ignore": ["MIG0"] } }),
    );
    assert!(client.diagnostics(&uri).is_empty());
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "interlint": { "unsafe_fixes": true } } }),
    );
    let shown = client.notification("window/showMessage", None);
    assert!(
        shown["message"]
            .as_str()
            .unwrap_or_default()
            .contains("unsafe_fixes"),
        "{shown}"
    );

    // A selector that selects no rule is refused, said, and the settings before are kept.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "interlint": { "select": ["MIG999"] } } }),
    );
    let shown = client.notification("window/showMessage", None);
    let message = shown["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("MIG999") && message.contains("MIG009"),
        "{message}"
    );
    assert_eq!(shown["type"], 1);

    // Back to none; then a configuration file that ignores MIG009, found from the document.
    client.notify("workspace/didChangeConfiguration", json!({ "settings": {} }));
    assert_eq!(client.diagnostics(&uri).len(), 2);
    std::fs::write(dir.path().join("interlint.toml"), "ignore = [\"MIG009\"]\n").expect("written");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": format!("file://{}/interlint.toml", dir.path().display()), "type": 1 }] }),
    );
    assert!(client.diagnostics(&uri).is_empty());

    // A broken configuration: said once, and no diagnostics rather than wrong ones.
    std::fs::write(dir.path().join("interlint.toml"), "select = [\"MIG999\"]\n").expect("written");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": format!("file://{}/interlint.toml", dir.path().display()), "type": 2 }] }),
    );
    let shown = client.notification("window/showMessage", None);
    assert!(
        shown["message"]
            .as_str()
            .unwrap_or_default()
            .contains("interlint.toml"),
        "{shown}"
    );
    assert!(client.diagnostics(&uri).is_empty());
    client.shutdown();
}

#[test]
fn unsafe_fixes_are_offered_only_when_the_settings_allow() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("summarize.py");
    let text = std::fs::read_to_string("fixtures/demo/app/summarize.py").expect("the demo");
    let offered = |options: Value| {
        let (mut client, _) = Client::start(json!({}), options, dir.path());
        let uri = uri(&path);
        client.open(&uri, "python", &text);
        client.diagnostics(&uri);
        let found = actions(&mut client, &uri, whole(&text), Some(vec!["quickfix"]));
        client.shutdown();
        titles(&found)
    };
    let safe = offered(Value::Null);
    assert!(!safe.iter().any(|t| t.contains("(unsafe fix)")), "{safe:#?}");
    let all = offered(json!({ "unsafeFixes": true }));
    assert!(all.iter().any(|t| t.contains("(unsafe fix)")), "{all:#?}");
}

#[test]
fn pulled_diagnostics_when_the_client_pulls() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("app.py");
    let (mut client, init) = Client::start(
        json!({ "textDocument": { "diagnostic": { "dynamicRegistration": false } } }),
        Value::Null,
        dir.path(),
    );
    assert_eq!(
        init["capabilities"]["diagnosticProvider"]["identifier"],
        "interlint"
    );
    let uri = uri(&path);
    client.open(&uri, "python", APP);
    let report = client.request(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(report["kind"], "full");
    assert_eq!(report["items"].as_array().map(Vec::len), Some(2));
    client.shutdown();
}

#[test]
fn notebook_cells_get_their_own_diagnostics_and_fixes() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let notebook = format!("file://{}/explore.ipynb", dir.path().display());
    let cell = |n: usize| format!("vscode-notebook-cell:{}/explore.ipynb#C{n}", dir.path().display());
    let (mut client, init) = Client::start(json!({}), Value::Null, dir.path());
    assert!(init["capabilities"]["notebookDocumentSync"].is_object());
    let markdown = "# Explore\nUses gemini-2.0-flash.\n";
    let code = "from google import genai\n\nclient = genai.Client()\nMODEL = \"gemini-1.5-pro\"\n";
    client.notify(
        "notebookDocument/didOpen",
        json!({
            "notebookDocument": {
                "uri": notebook, "notebookType": "jupyter-notebook", "version": 1,
                "cells": [{ "kind": 1, "document": cell(1) }, { "kind": 2, "document": cell(2) }],
            },
            "cellTextDocuments": [
                { "uri": cell(1), "languageId": "markdown", "version": 1, "text": markdown },
                { "uri": cell(2), "languageId": "python", "version": 1, "text": code },
            ],
        }),
    );
    let first = client.diagnostics(&cell(1));
    let second = client.diagnostics(&cell(2));
    assert_eq!(first.len(), 1, "{first:#?}");
    assert_eq!(first[0]["range"]["start"], json!({ "line": 1, "character": 5 }));
    assert_eq!(second.len(), 1, "{second:#?}");
    assert_eq!(
        second[0]["range"],
        json!({ "start": { "line": 3, "character": 9 }, "end": { "line": 3, "character": 23 } })
    );
    // The quick fix edits the cell, not the notebook file.
    let range = second[0]["range"].clone();
    let offered = actions(&mut client, &cell(2), range, Some(vec!["quickfix"]));
    assert_eq!(
        titles(&offered)[0],
        "interlint (MIG009): Replace with `gemini-3.5-flash`"
    );
    assert_eq!(
        apply(code, &offered[0]["edit"], &cell(2)),
        code.replace("gemini-1.5-pro", "gemini-3.5-flash")
    );
    assert_eq!(
        offered[0]["edit"]["changes"].as_object().map(|m| m.len()),
        Some(1)
    );

    // A cell's text changes: its diagnostics follow.
    client.notify(
        "notebookDocument/didChange",
        json!({
            "notebookDocument": { "uri": notebook, "version": 2 },
            "change": { "cells": { "textContent": [{
                "document": { "uri": cell(2), "version": 2 },
                "changes": [{ "text": "MODEL = \"gemini-3.5-flash\"\n" }],
            }] } },
        }),
    );
    assert_eq!(client.diagnostics(&cell(1)).len(), 1);
    assert!(client.diagnostics(&cell(2)).is_empty());

    // A cell added at the start: the cells after it keep their findings.
    client.notify(
        "notebookDocument/didChange",
        json!({
            "notebookDocument": { "uri": notebook, "version": 3 },
            "change": { "cells": { "structure": {
                "array": { "start": 0, "deleteCount": 0, "cells": [{ "kind": 2, "document": cell(3) }] },
                "didOpen": [{ "uri": cell(3), "languageId": "python", "version": 1, "text": "x = \"gemini-1.5-flash\"\n" }],
            } } },
        }),
    );
    let mut published: HashMap<String, usize> = HashMap::new();
    for n in [3, 1, 2] {
        published.insert(cell(n), client.diagnostics(&cell(n)).len());
    }
    assert_eq!(published[&cell(3)], 1);
    assert_eq!(published[&cell(1)], 1);
    assert_eq!(published[&cell(2)], 0);
    client.shutdown();
}

#[test]
fn bad_requests_get_errors_and_the_session_goes_on() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (mut client, _) = Client::start(json!({}), Value::Null, dir.path());
    let unknown = client.request_raw("textDocument/formatting", json!({}));
    assert_eq!(unknown.response_result.err().map(|e| e.code), Some(-32601));
    let invalid = client.request_raw("textDocument/hover", json!({ "position": 3 }));
    assert_eq!(invalid.response_result.err().map(|e| e.code), Some(-32602));
    // Another view of a file (a diff's `git:` side) is not checked; an unsaved one is.
    client.open("git:/repo/app.py?%7B%22ref%22%3A%22HEAD%22%7D", "python", APP);
    assert!(
        client
            .diagnostics("git:/repo/app.py?%7B%22ref%22%3A%22HEAD%22%7D")
            .is_empty()
    );
    client.open("untitled:Untitled-1", "python", APP);
    assert_eq!(client.diagnostics("untitled:Untitled-1").len(), 2);
    // A document never opened: no findings, no error.
    let none = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": "file:///nowhere.py" }, "range": whole(""), "context": { "diagnostics": [] } }),
    );
    assert_eq!(none, json!([]));
    client.shutdown();
}

/// The real binary over stdio: a body that is not JSON gets a parse error, and the session
/// goes on to answer the next request.
#[test]
fn malformed_messages_over_stdio_get_json_rpc_errors() {
    use std::io::{Read, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_interlint"))
        .arg("server")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let mut input = String::new();
    input.push_str(&frame(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    ));
    input.push_str(&frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
    input.push_str(&frame("{this is not json"));
    input.push_str(&frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#));
    input.push_str(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("written");
    drop(stdin);
    let mut output = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut output)
        .expect("read");
    let status = child.wait().expect("the server ends");
    assert!(status.success(), "{status:?}");
    assert!(
        output.contains(r#""error":{"code":-32700"#) && output.contains(r#""id":null"#),
        "{output}"
    );
    assert!(output.contains(r#""id":2,"result":null"#), "{output}");
}

#[test]
fn costly_edits_are_made_when_the_action_is_resolved() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("app.py");
    let (mut client, init) = Client::start(
        json!({ "textDocument": { "codeAction": { "resolveSupport": { "properties": ["edit"] } } } }),
        Value::Null,
        dir.path(),
    );
    assert_eq!(
        init["capabilities"]["codeActionProvider"]["resolveProvider"],
        true
    );
    let uri = uri(&path);
    client.open(&uri, "python", APP);
    client.diagnostics(&uri);
    let at_first = json!({ "start": { "line": 2, "character": 12 }, "end": { "line": 2, "character": 12 } });
    let offered = actions(&mut client, &uri, at_first, None);
    assert_eq!(offered.len(), 3, "{offered:#?}");
    // The quick fix is cheap and comes whole; the comment and fix all come when chosen.
    assert!(offered[0]["edit"].is_object());
    assert!(
        offered[1].get("edit").is_none() && offered[1]["data"].is_object(),
        "{offered:#?}"
    );
    assert!(
        offered[2].get("edit").is_none() && offered[2]["data"].is_object(),
        "{offered:#?}"
    );
    let noqa = client.request("codeAction/resolve", offered[1].clone());
    assert_eq!(
        apply(APP, &noqa["edit"], &uri),
        "import os\n\nMODEL = \"gemini-1.5-pro\"  # é𝄞  # interlint: ignore[MIG009]\nOTHER = \"gemini-2.0-flash\"\n"
    );
    let all = client.request("codeAction/resolve", offered[2].clone());
    assert_eq!(
        apply(APP, &all["edit"], &uri),
        "import os\n\nMODEL = \"gemini-3.5-flash\"  # é𝄞\nOTHER = \"gemini-3.5-flash\"\n"
    );
    // Resolved after the finding is gone: no edit, no error.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": "x = 1\n" }] }),
    );
    client.diagnostics(&uri);
    let stale = client.request("codeAction/resolve", offered[1].clone());
    assert!(stale.get("edit").is_none(), "{stale}");
    client.shutdown();
}
