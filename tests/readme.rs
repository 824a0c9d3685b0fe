//! The README's examples, run: what it says the tool prints is what the tool prints.

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md")
}

fn run(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The fenced blocks of the README: (info string, body).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
        blocks.push((info.to_string(), body.join("\n") + "\n"));
    }
    blocks
}

#[test]
fn set_up_commands_come_first() {
    let text = readme();
    let (info, body) = &blocks(&text)[0];
    assert_eq!(info, "sh");
    assert_eq!(
        body,
        "cargo install --locked --path . && interlint check fixtures/demo\ncargo test --locked\n"
    );
}

#[test]
fn shown_sessions_print_what_the_tool_prints() {
    let text = readme();
    let sessions: Vec<(String, String)> = blocks(&text)
        .into_iter()
        .filter_map(|(_, body)| {
            let (first, rest) = body.split_once('\n')?;
            let command = first.strip_prefix("$ interlint ")?;
            Some((command.to_string(), rest.to_string()))
        })
        .collect();
    assert!(!sessions.is_empty(), "the README shows a session");
    for (command, shown) in sessions {
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(run(&args), shown, "`interlint {command}`");
    }
}

#[test]
fn json_example_is_the_output() {
    let text = readme();
    let marker = "`interlint check --select MIG009 --format json fixtures/demo/app/summarize.py` prints:";
    let after = &text[text.find(marker).expect("the JSON example's command") + marker.len()..];
    let (_, body) = &blocks(after)[0];
    let shown: serde_json::Value = serde_json::from_str(body).expect("the example is JSON");
    let printed = run(&[
        "check",
        "--select",
        "MIG009",
        "--format",
        "json",
        "fixtures/demo/app/summarize.py",
    ]);
    let printed: serde_json::Value = serde_json::from_str(&printed).expect("the output is JSON");
    assert_eq!(shown, printed);
}
