//! The hooks of `.pre-commit-hooks.yaml`, run by the real `pre-commit` tool in a throwaway
//! repository. Skipped (with a note) where `pre-commit` is not installed.

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::tree;

/// `(id, entry)` of each hook of the repository's `.pre-commit-hooks.yaml`.
fn hooks() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"))
        .expect("the hooks file");
    let mut hooks = Vec::new();
    let mut id = None;
    for line in text.lines() {
        let line = line.trim_start_matches(['-', ' ']);
        if let Some(value) = line.strip_prefix("id:") {
            id = Some(value.trim().to_string());
        } else if let Some(value) = line.strip_prefix("entry:") {
            hooks.push((id.take().expect("id before entry"), value.trim().to_string()));
        }
    }
    hooks
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", dir.join(".pre-commit-home"))
        .env("NO_COLOR", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("runs")
}

#[test]
fn hooks_run_under_pre_commit_and_honour_exclude() {
    if Command::new("pre-commit").arg("--version").output().is_err() {
        eprintln!("pre-commit is not installed: hook test skipped");
        return;
    }
    let id = "m = \"gemini-2.0-flash\"\n";
    let dir = tree(&[
        ("interlint.toml", "extend-exclude = [\"vendor/**\"]\n"),
        ("vendor/v.py", id),
        ("app.py", id),
        (".gitignore", ".pre-commit-home/\n"),
    ]);
    // The hooks as published, run as local hooks of the binary under test (`language: rust`
    // would build the crate again).
    let binary = env!("CARGO_BIN_EXE_interlint");
    let mut config = String::from("repos:\n- repo: local\n  hooks:\n");
    for (id, entry) in hooks() {
        let entry = entry.replacen("interlint", binary, 1);
        config.push_str(&format!(
            "  - id: {id}\n    name: {id}\n    entry: {entry}\n    language: system\n    types: [text]\n    stages: [manual]\n"
        ));
    }
    std::fs::write(dir.path().join(".pre-commit-config.yaml"), config).expect("write");
    let git = |args: &[&str]| run(dir.path(), "git", args);
    assert!(git(&["init", "-q"]).status.success());
    assert!(git(&["add", "-A"]).status.success());

    let check = run(
        dir.path(),
        "pre-commit",
        &["run", "interlint", "--all-files", "--hook-stage", "manual"],
    );
    let out = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{out}");
    assert!(out.contains("app.py:1:6: MIG009"), "{out}");
    assert!(!out.contains("vendor"), "{out}");

    let fix = run(
        dir.path(),
        "pre-commit",
        &["run", "interlint-fix", "--all-files", "--hook-stage", "manual"],
    );
    let out = String::from_utf8_lossy(&fix.stdout);
    // pre-commit fails a hook that changed files.
    assert_eq!(fix.status.code(), Some(1), "{out}");
    assert!(out.contains("files were modified by this hook"), "{out}");
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!(read("app.py"), "m = \"gemini-3.5-flash\"\n");
    assert_eq!(read("vendor/v.py"), id);
    assert!(git(&["add", "-A"]).status.success());
    let again = run(
        dir.path(),
        "pre-commit",
        &["run", "--all-files", "--hook-stage", "manual"],
    );
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}
