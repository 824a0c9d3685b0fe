//! `interlint mcp`: a client spawns the server and speaks the Model Context Protocol over its
//! stdio (newline-delimited JSON-RPC), as an agent does.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Client {
    fn start(root: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_interlint"))
            .args(["mcp", "--root"])
            .arg(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn interlint mcp");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "interlint", "{init}");
        assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
        client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    /// Sends one line as it is, and returns the next line the server writes.
    fn send_raw(&mut self, line: &str) -> Value {
        self.send_bytes(line.as_bytes())
    }

    /// Sends one line of bytes as they are (not necessarily UTF-8), and returns the next line
    /// the server writes.
    fn send_bytes(&mut self, line: &[u8]) -> Value {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).expect("read");
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {reply}"))
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends a request and returns its response. Every line the server writes on stdout must be
    /// a JSON-RPC message: anything else would corrupt the protocol stream.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "the server closed stdout");
            let message: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}"));
            assert_eq!(message["jsonrpc"], "2.0", "{line}");
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// Calls a tool: its text and whether it is an error result.
    fn call(&mut self, tool: &str, arguments: Value) -> (String, bool) {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = &response["result"];
        let content = result["content"].as_array().expect("content");
        assert_eq!(content.len(), 1, "{response}");
        assert_eq!(content[0]["type"], "text");
        let text = content[0]["text"].as_str().expect("text").to_string();
        (text, result["isError"] == json!(true))
    }

    fn call_json(&mut self, tool: &str, mut arguments: Value) -> Value {
        arguments["response_format"] = json!("json");
        let (text, error) = self.call(tool, arguments);
        assert!(!error, "{text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// Closes stdin: the server ends, exit 0, with only notes on stderr.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let output = self.child.wait_with_output().expect("wait");
        assert!(output.status.success(), "{output:?}");
        let rest = String::from_utf8_lossy(&output.stdout).to_string();
        assert!(rest.trim().is_empty(), "stdout after the session: {rest}");
        String::from_utf8_lossy(&output.stderr).to_string()
    }
}

/// `n` lines, each with a deprecated model id (one finding, safely fixable).
fn deprecated_ids(n: usize) -> String {
    (0..n).map(|i| format!("M{i} = \"gemini-2.0-flash\"\n")).collect()
}

#[test]
fn tools_are_listed_with_titles_schemas_and_annotations() {
    let dir = common::tree(&[("a.py", "x = 1\n")]);
    let mut client = Client::start(dir.path());
    let list = client.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "interlint_check",
            "interlint_fix",
            "interlint_explain",
            "interlint_rules"
        ]
    );
    for tool in tools {
        let name = tool["name"].as_str().unwrap_or_default();
        assert!(tool["title"].is_string(), "{name}");
        assert!(
            tool["description"].as_str().is_some_and(|d| d.len() > 60),
            "{name}"
        );
        assert_eq!(
            tool["inputSchema"]["additionalProperties"],
            json!(false),
            "{name}"
        );
        let a = &tool["annotations"];
        let read_only = name != "interlint_fix";
        assert_eq!(a["readOnlyHint"], json!(read_only), "{name}");
        assert_eq!(a["destructiveHint"], json!(!read_only), "{name}");
        assert_eq!(a["idempotentHint"], json!(true), "{name}");
        assert_eq!(a["openWorldHint"], json!(false), "{name}");
    }
    // The list tools take the bounds and formats of rules/mcp.toml.
    let check = &tools[0]["inputSchema"]["properties"];
    assert_eq!(check["limit"]["minimum"], 1);
    assert_eq!(check["limit"]["maximum"], 100);
    assert_eq!(check["limit"]["default"], 20);
    assert_eq!(check["offset"]["minimum"], 0);
    assert_eq!(check["response_format"]["enum"], json!(["markdown", "json"]));
    assert_eq!(check["response_format"]["default"], "markdown");
    assert_eq!(tools[1]["inputSchema"]["properties"]["dry_run"]["default"], true);
    assert_eq!(tools[2]["inputSchema"]["required"], json!(["code"]));
    let stderr = client.finish();
    assert!(stderr.starts_with("interlint mcp: serving "), "{stderr}");
}

#[test]
fn check_pages_through_the_findings() {
    let text = deprecated_ids(25);
    let dir = common::tree(&[("app.py", text.as_str()), ("clean.py", "x = 1\n")]);
    let mut client = Client::start(dir.path());
    let first = client.call_json("interlint_check", json!({}));
    assert_eq!(first["total"], 25, "{first}");
    assert_eq!(first["count"], 20);
    assert_eq!(first["offset"], 0);
    assert_eq!(first["has_more"], true);
    assert_eq!(first["next_offset"], 20);
    assert_eq!(first["files_checked"], 2);
    assert_eq!(first["findings"].as_array().map(Vec::len), Some(20));
    assert_eq!(first["findings"][0]["code"], "MIG009");
    assert_eq!(first["findings"][0]["path"], "app.py");
    assert_eq!(first["findings"][0]["start"], json!({"line": 1, "column": 7}));
    assert!(first.get("truncated").is_none());
    let last = client.call_json("interlint_check", json!({"offset": 20, "limit": 10}));
    assert_eq!(
        (last["count"].clone(), last["has_more"].clone()),
        (json!(5), json!(false))
    );
    assert!(last.get("next_offset").is_none(), "{last}");
    assert_eq!(last["findings"][0]["start"]["line"], 21);
    // Markdown, the default: the same page for people.
    let (page, error) = client.call("interlint_check", json!({"limit": 2, "paths": ["app.py"]}));
    assert!(!error);
    assert!(
        page.starts_with(
            "25 findings in 1 of 1 file checked (25 fixable with interlint_fix). Findings 1 to 2:\n"
        ),
        "{page}"
    );
    assert!(
        page.contains("\n- `app.py:1:7` **MIG009** Model id `gemini-2.0-flash` is deprecated"),
        "{page}"
    );
    assert!(
        page.contains("More: call interlint_check again with offset 2."),
        "{page}"
    );
    // select and ignore narrow the rules.
    let none = client.call_json("interlint_check", json!({"ignore": ["MIG009"]}));
    assert_eq!(none["total"], 0);
    let (clean, _) = client.call("interlint_check", json!({"paths": ["clean.py"]}));
    assert_eq!(clean, "No findings in 1 file checked.\n");
    client.finish();
}

/// A finding left without a rewrite carries why and the reason's class, in JSON and on the page.
#[test]
fn check_says_why_a_finding_is_left_and_what_that_asks() {
    let code = "from google import genai\nclient = genai.Client()\n\
        r = client.models.generate_content(model=\"gemini-3.5-flash\", contents=\"a\")\n\
        print(r.candidates[0].finish_reason)\n";
    let dir = common::tree(&[("app.py", code)]);
    let mut client = Client::start(dir.path());
    let found = client.call_json("interlint_check", json!({"select": ["MIG001"]}));
    assert_eq!(
        found["findings"][0]["reason"]["class"], "no-counterpart",
        "{found}"
    );
    let (page, error) = client.call("interlint_check", json!({"select": ["MIG001"]}));
    assert!(!error);
    assert!(
        page.contains(
            " [left, no-counterpart: the interactions API has no counterpart for what this module depends on: \
             reads `finish_reason`, why the answer ended (line 4)]"
        ),
        "{page}"
    );
    client.finish();
}

#[test]
fn long_pages_are_truncated_under_the_character_limit() {
    // 100 findings of about 400 characters of JSON each: over 25,000 characters a page.
    let text = deprecated_ids(100);
    let dir = common::tree(&[("app.py", text.as_str())]);
    let mut client = Client::start(dir.path());
    let (raw, error) = client.call(
        "interlint_check",
        json!({"limit": 100, "response_format": "json"}),
    );
    assert!(!error);
    assert!(
        raw.chars().count() <= 25_000,
        "{} characters",
        raw.chars().count()
    );
    let page: Value = serde_json::from_str(&raw).expect("json");
    assert_eq!(page["truncated"], true, "{page}");
    let count = page["count"].as_u64().expect("count");
    assert!((1..=50).contains(&count), "{count}");
    assert_eq!(page["has_more"], true);
    assert_eq!(page["next_offset"], json!(count));
    let message = page["truncation_message"].as_str().expect("message");
    assert!(
        message.contains(&format!("to {count} findings")) && message.contains(&format!("offset {count}")),
        "{message}"
    );
    // The same findings fit in Markdown, one line each: not cut.
    let (text, _) = client.call("interlint_check", json!({"limit": 100}));
    assert!(text.chars().count() <= 25_000);
    assert!(!text.contains("truncated"), "{text}");
    assert_eq!(text.matches("\n- `app.py:").count(), 100);
    client.finish();
}

#[test]
fn fix_is_a_dry_run_unless_told_and_a_second_fix_changes_nothing() {
    let dir = common::tree(&[("app.py", "MODEL = \"gemini-2.0-flash\"\n")]);
    let file = dir.path().join("app.py");
    let mut client = Client::start(dir.path());
    let (diff, error) = client.call("interlint_fix", json!({}));
    assert!(!error, "{diff}");
    assert!(
        diff.starts_with("Dry run: 1 fix in 1 file would be applied"),
        "{diff}"
    );
    assert!(
        diff.contains("```diff\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-MODEL = \"gemini-2.0-flash\"\n+MODEL = \"gemini-3.5-flash\"\n```"),
        "{diff}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "MODEL = \"gemini-2.0-flash\"\n"
    );
    let applied = client.call_json("interlint_fix", json!({"dry_run": false}));
    assert_eq!(applied["dry_run"], false);
    assert_eq!(applied["fixes"], 1);
    assert_eq!(applied["files"][0]["path"], "app.py");
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "MODEL = \"gemini-3.5-flash\"\n"
    );
    let (again, _) = client.call("interlint_fix", json!({"dry_run": false}));
    assert_eq!(again, "No fixes to apply in 1 file; 0 findings left.\n");
    client.finish();
}

#[test]
fn explain_and_rules() {
    let dir = common::tree(&[]);
    let mut client = Client::start(dir.path());
    let (doc, error) = client.call("interlint_explain", json!({"code": "mig009"}));
    assert!(!error);
    assert!(doc.starts_with("# MIG009 deprecated-model-id\n"), "{doc}");
    let rule = client.call_json("interlint_explain", json!({"code": "MCP001"}));
    assert_eq!(rule["name"], "tool-description");
    let (missing, error) = client.call("interlint_explain", json!({"code": "XYZ123"}));
    assert!(error);
    assert_eq!(
        missing,
        "Error: Resource not found: no rule `XYZ123`; interlint_rules lists the rules"
    );
    let page = client.call_json("interlint_rules", json!({"limit": 5}));
    let total = page["total"].as_u64().expect("total");
    assert!(total > 20, "{page}");
    assert_eq!(page["count"], 5);
    assert_eq!(page["rules"][0]["code"], "MIG001");
    assert_eq!(page["next_offset"], 5);
    let mcp = client.call_json("interlint_rules", json!({"select": "MCP", "limit": 100}));
    assert!(mcp["rules"].as_array().is_some_and(|r| {
        r.iter()
            .all(|r| r["code"].as_str().is_some_and(|c| c.starts_with("MCP")))
    }));
    assert_eq!(mcp["has_more"], false);
    client.finish();
}

#[test]
fn bad_input_and_paths_outside_the_root_are_error_results() {
    let outside = common::tree(&[("secret.py", "M = \"gemini-2.0-flash\"\n")]);
    let dir = common::tree(&[("app.py", "x = 1\n")]);
    let mut client = Client::start(dir.path());
    let cases = [
        (
            "interlint_check",
            json!({"limit": 0}),
            "Error: Input rejected by the schema: limit: 0 is less than the minimum of 1",
        ),
        (
            "interlint_check",
            json!({"colour": "red"}),
            "Error: Input rejected by the schema: Additional properties are not allowed ('colour' was unexpected)",
        ),
        (
            "interlint_check",
            json!({"response_format": "xml"}),
            "Error: Input rejected by the schema: response_format: \"xml\" is not one of \"markdown\" or \"json\"",
        ),
        (
            "interlint_fix",
            json!({"dry_run": "no"}),
            "Error: Input rejected by the schema: dry_run: \"no\" is not of type \"boolean\"",
        ),
        (
            "interlint_explain",
            json!({}),
            "Error: Input rejected by the schema: \"code\" is a required property",
        ),
        ("interlint_check", json!({"select": ["NOPE1"]}), "Error: select: "),
        (
            "interlint_check",
            json!({"paths": ["missing.py"]}),
            "Error: cannot read `missing.py`: No such file or directory",
        ),
        (
            "interlint_nope",
            json!({}),
            "Error: no tool named `interlint_nope`",
        ),
    ];
    for (tool, arguments, expected) in cases {
        let (text, error) = client.call(tool, arguments.clone());
        assert!(error, "{tool} {arguments}: {text}");
        assert!(text.starts_with(expected), "{tool} {arguments}: {text}");
    }
    let secret = outside.path().join("secret.py");
    let relative = format!(
        "../{}/secret.py",
        outside
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
    );
    for path in [secret.to_string_lossy().to_string(), relative, "..".to_string()] {
        for (tool, arguments) in [
            ("interlint_check", json!({"paths": [path]})),
            ("interlint_fix", json!({"paths": [path], "dry_run": false})),
        ] {
            let (text, error) = client.call(tool, arguments);
            assert!(error, "{tool} {path}: {text}");
            assert!(
                text.starts_with(&format!("Error: path `{path}` is outside the server's root ")),
                "{text}"
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(&secret).expect("read"),
        "M = \"gemini-2.0-flash\"\n"
    );
    client.finish();
}

#[test]
fn lines_that_are_not_messages_get_json_rpc_errors() {
    let dir = common::tree(&[]);
    let mut client = Client::start(dir.path());
    let parse = client.send_raw("{not json");
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    assert_eq!(parse["id"], Value::Null);
    let invalid = client.send_raw(r#"{"id": 7, "hello": "world"}"#);
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
    assert_eq!(invalid["id"], 7);
    // The session goes on.
    let listed = client.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    client.finish();
}

#[test]
fn a_line_that_is_not_utf8_gets_a_parse_error_and_the_session_goes_on() {
    let dir = common::tree(&[]);
    let mut client = Client::start(dir.path());
    // A request whose string is Latin-1: before, the server ended the session here, exit 0,
    // without a word.
    let latin1 = b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"interlint_explain\",\"arguments\":{\"code\":\"caf\xE9\"}}}";
    let parse = client.send_bytes(latin1);
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    assert_eq!(parse["id"], Value::Null, "{parse}");
    assert!(
        parse["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("not UTF-8")),
        "{parse}"
    );
    // The next line, valid, is answered; so is one ended by CR LF.
    let (text, error) = client.call("interlint_explain", json!({"code": "MIG009"}));
    assert!(!error && text.contains("MIG009"), "{text}");
    let pong = client.send_raw("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}\r");
    assert_eq!(pong["id"], 99, "{pong}");
    assert!(pong["result"].is_object(), "{pong}");
    client.finish();
}

#[test]
fn fix_pages_its_diffs_as_it_says() {
    let files: Vec<(String, String)> = (0..3)
        .map(|i| {
            (
                format!("app{i}.py"),
                format!("MODEL = \"gemini-2.0-flash\"  # {i}\n"),
            )
        })
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = common::tree(&refs);
    let mut client = Client::start(dir.path());
    let (first, error) = client.call("interlint_fix", json!({"limit": 2}));
    assert!(!error, "{first}");
    assert_eq!(first.matches("```diff").count(), 2, "{first}");
    assert!(
        first.contains("Shown: the diffs of files 1 to 2 of 3. More: call interlint_fix again with dry_run true and offset 2."),
        "{first}"
    );
    let (rest, _) = client.call("interlint_fix", json!({"limit": 2, "offset": 2}));
    assert_eq!(rest.matches("```diff").count(), 1, "{rest}");
    assert!(rest.contains("app2.py") && !rest.contains("More:"), "{rest}");
    let page = client.call_json("interlint_fix", json!({"limit": 1}));
    assert_eq!(page["next_offset"], 1, "{page}");
    assert_eq!(page["files"].as_array().map(Vec::len), Some(1));
    // Applied: every file is written, and the message says where the other diffs are.
    let (applied, _) = client.call("interlint_fix", json!({"dry_run": false, "limit": 1}));
    assert!(applied.starts_with("Applied 3 fixes in 3 files"), "{applied}");
    assert!(
        applied.contains("every file was written; read the other diffs with `git diff`"),
        "{applied}"
    );
    for (path, _) in &files {
        let text = std::fs::read_to_string(dir.path().join(path)).expect("read");
        assert!(text.contains("gemini-3.5-flash"), "{path}: {text}");
    }
    client.finish();
}

#[test]
fn files_not_checked_are_notices_and_not_counted_as_checked() {
    let dir = common::tree(&[("ok.py", "x = 1\n")]);
    std::fs::write(dir.path().join("latin1.txt"), b"caf\xE9 gemini-2.0-flash\n").expect("write");
    let mut client = Client::start(dir.path());
    let checked = client.call_json("interlint_check", json!({}));
    assert_eq!(checked["files_checked"], 1, "{checked}");
    assert_eq!(
        checked["notices"],
        json!(["warning: latin1.txt: skipped: not valid UTF-8"]),
        "{checked}"
    );
    let (text, _) = client.call("interlint_check", json!({}));
    assert!(text.starts_with("No findings in 1 file checked.\n"), "{text}");
    client.finish();
}
