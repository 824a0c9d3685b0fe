//! `--add-noqa` run as the binary: comments added where they keep each file's meaning, the
//! rest reported, and a second run changes nothing.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::{PY, interlint, stderr, stdout, tree};

const TS: &str = "const m = \"gemini-2.0-flash\";\nconst prompt = `\nsay gemini-2.5-pro\n`;\n";

const MD: &str = "# Models\n\nUse gemini-2.0-flash here.\n\n```python\nname = \"gemini-2.5-pro\"\n```\n";

const YML: &str = "model: gemini-2.0-flash\nprompt: |\n  use gemini-2.5-pro\n";

const JSON: &str = "{\"model\": \"gemini-2.0-flash\"}\n";

fn notebook() -> String {
    serde_json::json!({
        "cells": [
            {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [],
             "source": ["m = \"gemini-2.0-flash\"\n", "s = \"\"\"\n", "gemini-2.5-pro\n", "\"\"\""]},
            {"cell_type": "markdown", "metadata": {}, "source": ["Use gemini-2.0-flash.\n"]}
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5
    })
    .to_string()
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).expect("readable")
}

/// The bytes of every file of a folder, by name.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .map(|p| (p.display().to_string(), fs::read(&p).expect("readable")))
        .collect();
    files.sort();
    files
}

#[test]
fn comments_go_where_they_are_safe_and_the_rest_is_reported() {
    let nb = notebook();
    let dir = tree(&[
        ("app.py", PY),
        ("web.ts", TS),
        ("guide.md", MD),
        ("ci.yml", YML),
        ("req.json", JSON),
        ("n.ipynb", &nb),
    ]);
    let o = interlint(dir.path(), &["check", "--add-noqa", "--no-progress", "."]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // PY: 2 lines; TS: 1; MD: prose and code block; YML: 1; notebook: a code line and prose.
    assert!(
        err.contains("Added 8 interlint: ignore directives. 4 findings left without one"),
        "{err}"
    );
    assert!(
        err.contains("warning: req.json: 1 finding left without a suppression comment: JSON has no comments (use per-file-ignores)"),
        "{err}"
    );
    assert!(err.contains("warning: web.ts: 1 finding left"), "{err}");
    assert!(err.contains("warning: ci.yml: 1 finding left"), "{err}");
    assert!(err.contains("warning: n.ipynb: 1 finding left"), "{err}");
    assert!(stdout(&o).is_empty());

    assert_eq!(
        read(dir.path(), "app.py"),
        PY.replace(
            "contents=\"hi\")\n",
            "contents=\"hi\")  # interlint: ignore[MIG009]\n"
        )
        .replace(
            "name = \"gemini-2.5-pro\"\n",
            "name = \"gemini-2.5-pro\"  # interlint: ignore[MIG009]\n"
        )
    );
    assert_eq!(
        read(dir.path(), "guide.md"),
        "# Models\n\nUse gemini-2.0-flash here. <!-- interlint: ignore[MIG009] -->\n\n```python\nname = \"gemini-2.5-pro\"  # interlint: ignore[MIG009]\n```\n"
    );
    assert_eq!(
        read(dir.path(), "ci.yml"),
        format!("# interlint: ignore[MIG009]\n{YML}")
    );
    assert_eq!(read(dir.path(), "req.json"), JSON);

    // Python still parses; the notebook is JSON with its cells.
    let python = Command::new("python3")
        .args(["-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())"])
        .arg(dir.path().join("app.py"))
        .status()
        .expect("python3 runs");
    assert!(python.success());
    let value: serde_json::Value = serde_json::from_str(&read(dir.path(), "n.ipynb")).expect("still JSON");
    let cells = value["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 2);
    let code: String = cells[0]["source"]
        .as_array()
        .expect("lines")
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    assert_eq!(
        code,
        "m = \"gemini-2.0-flash\"  # interlint: ignore[MIG009]\ns = \"\"\"\ngemini-2.5-pro\n\"\"\""
    );

    // A check reports only what was left (the notebook is one line of JSON).
    let o = interlint(dir.path(), &["check", "--format", "json", "."]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    let mut left: Vec<(String, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["start"]["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            ("ci.yml".to_string(), 4),
            ("n.ipynb".to_string(), 1),
            ("req.json".to_string(), 1),
            ("web.ts".to_string(), 3),
        ]
    );

    // A second run changes no byte.
    let before = snapshot(dir.path());
    let o = interlint(dir.path(), &["check", "--add-noqa", "."]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("Added 0 interlint: ignore directives. 4 findings left"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn all_suppressed_exits_zero_and_crlf_and_bom_are_kept() {
    let crlf = "\u{feff}a = \"gemini-2.0-flash\"\r\nb = 1\r\n";
    let dir = tree(&[("a.py", crlf)]);
    let o = interlint(dir.path(), &["check", "--add-noqa", "a.py"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "Added 1 interlint: ignore directive.\n");
    assert_eq!(
        read(dir.path(), "a.py"),
        "\u{feff}a = \"gemini-2.0-flash\"  # interlint: ignore[MIG009]\r\nb = 1\r\n"
    );
    let o = interlint(dir.path(), &["check", "a.py"]);
    assert_eq!(o.status.code(), Some(0));
    // Quiet: no summary.
    let o = interlint(dir.path(), &["check", "--add-noqa", "--quiet", "a.py"]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
}

#[test]
fn add_noqa_refuses_fix_and_diff() {
    let dir = tree(&[("a.py", PY)]);
    for other in ["--fix", "--diff"] {
        let o = interlint(dir.path(), &["check", "--add-noqa", other, "a.py"]);
        assert_eq!(o.status.code(), Some(2), "{other}");
        assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    }
    assert_eq!(read(dir.path(), "a.py"), PY);
}

#[test]
fn standard_input_gets_the_text_with_comments() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args(["check", "--add-noqa", "--stdin-filename", "a.py"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(b"a = \"gemini-2.0-flash\"\n").expect("written");
    }
    let o = child.wait_with_output().expect("it ends");
    assert_eq!(
        stdout(&o),
        "a = \"gemini-2.0-flash\"  # interlint: ignore[MIG009]\n"
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn dead_directives_are_left_to_il001_and_codes_merge_in_any_case() {
    let text = "m = \"gemini-2.0-flash\"  # interlint: ignore[mig001]\nx = 1  # interlint: ignore[MIG009]\n";
    let dir = tree(&[("app.py", text)]);
    let o = interlint(dir.path(), &["--add-noqa"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.py")).expect("read"),
        "m = \"gemini-2.0-flash\"  # interlint: ignore[MIG001,MIG009]\nx = 1  # interlint: ignore[MIG009]\n"
    );
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(
        stdout(&o),
        "app.py:1:25: IL001 [*] Unused code MIG001 in `interlint: ignore[MIG001,MIG009]`\napp.py:2:8: IL001 [*] `interlint: ignore[MIG009]` suppresses nothing\n"
    );
}
