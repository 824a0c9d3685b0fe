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

/// The GitHub Actions workflow of "In CI": its permissions, and its interlint steps run on a
/// copy of the demo as the runner would run them.
#[test]
fn ci_workflow_runs_as_written() {
    let text = readme();
    let marker = "<!-- tests/readme.rs runs this workflow's interlint steps -->";
    let after = &text[text.find(marker).expect("the workflow's marker") + marker.len()..];
    let (info, workflow) = &blocks(after)[0];
    assert_eq!(info, "yaml");
    let permissions = workflow
        .split_once("permissions:\n")
        .map(|(_, rest)| {
            rest.lines()
                .take_while(|l| l.starts_with("  "))
                .collect::<Vec<_>>()
        })
        .expect("a permissions block");
    assert!(
        permissions
            .iter()
            .any(|l| l.trim_start().starts_with("security-events: write")),
        "{permissions:?}"
    );
    assert!(
        workflow.contains("github/codeql-action/upload-sarif")
            && workflow.contains("sarif_file: interlint.sarif")
    );
    let steps: Vec<Vec<String>> = workflow
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- run: interlint "))
        .map(|command| command.split_whitespace().map(str::to_string).collect())
        .collect();
    assert_eq!(steps.len(), 2, "{workflow}");
    let demo = tempfile::tempdir().expect("a temporary folder");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo"),
        demo.path(),
    );
    let step = |args: &[String], dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_interlint"))
            .args(args)
            .current_dir(dir)
            .output()
            .expect("the binary runs")
    };
    // Annotations, and a failed step while findings remain.
    let annotations = step(&steps[0], demo.path());
    assert_eq!(annotations.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&annotations.stdout).starts_with("::error title=MIG"));
    // SARIF written, and the step passes with findings.
    let sarif = step(&steps[1], demo.path());
    assert_eq!(
        sarif.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&sarif.stderr)
    );
    let log: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(demo.path().join("interlint.sarif")).expect("interlint.sarif"),
    )
    .expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(29));
    // A broken configuration still fails the SARIF step.
    std::fs::write(demo.path().join("interlint.toml"), "select = [\"MIG999\"]\n").expect("written");
    let broken = step(&steps[1], demo.path());
    assert_eq!(broken.status.code(), Some(2));
}

fn copy(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("a folder").flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            std::fs::create_dir_all(&target).expect("a folder");
            copy(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copied");
        }
    }
}
