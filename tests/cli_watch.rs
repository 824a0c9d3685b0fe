//! `--watch`: a check at the start, and another after each change.

mod common;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{PY, tree};

#[test]
fn watch_checks_again_after_a_change() {
    let dir = tree(&[("app.py", PY), ("interlint.toml", "select = [\"MIG009\"]\n")]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args(["--watch", "--format", "concise", "--output-file", "report.txt"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let mut wait_for = |needle: &str| {
        while let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) {
            seen.push(line.clone());
            if line.contains(needle) {
                return;
            }
        }
        panic!("no `{needle}` in {seen:#?}");
    };
    wait_for("Watching for changes");
    let report = || std::fs::read_to_string(dir.path().join("report.txt")).unwrap_or_default();
    assert_eq!(report().lines().count(), 2, "{}", report());
    // The report written into the watched folder is not a change: no loop.
    std::fs::write(dir.path().join("new.py"), "m = \"gemini-1.5-pro\"\n").expect("write");
    wait_for("Change in new.py: checking again.");
    wait_for("Watching for changes");
    assert!(report().contains("new.py:1:6: MIG009"), "{}", report());
    // A change of the configuration is read.
    std::fs::write(dir.path().join("interlint.toml"), "select = [\"MIG001\"]\n").expect("write");
    wait_for("Change in interlint.toml");
    wait_for("Watching for changes");
    assert_eq!(report(), "");
    let quiet = rx.recv_timeout(Duration::from_millis(1500));
    assert!(quiet.is_err(), "a check without a change: {quiet:?}");
    let _ = child.kill();
    let _ = child.wait();
}
