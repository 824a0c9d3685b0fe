//! `--watch`: a check at the start, and another after each change.

mod common;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{PY, tree};

#[test]
fn watch_checks_again_after_a_change() {
    // The report is written into the watched folder, by --output-file or by a redirection of
    // standard output: neither is a change (else the watch would loop).
    watch_writing_the_report_by(true);
    watch_writing_the_report_by(false);
}

fn watch_writing_the_report_by(output_file: bool) {
    let dir = tree(&[("app.py", PY), ("interlint.toml", "select = [\"MIG009\"]\n")]);
    let mut command = Command::new(env!("CARGO_BIN_EXE_interlint"));
    command
        .args(["--watch", "--format", "concise"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped());
    if output_file {
        command
            .args(["--output-file", "report.txt"])
            .stdout(Stdio::null());
    } else {
        let file = std::fs::File::create(dir.path().join("report.txt")).expect("create");
        command.stdout(file);
    }
    let mut child = KillOnDrop(command.spawn().expect("spawn"));
    let stderr = child.0.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    // Each wait has a deadline, so a watch that loops fails the test instead of hanging it.
    let mut wait_for = |needle: &str| {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while let Ok(line) = rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
            seen.push(line.clone());
            if line.contains(needle) {
                return;
            }
        }
        panic!("no `{needle}` in {seen:#?}");
    };
    wait_for("Watching for changes");
    let report = || std::fs::read_to_string(dir.path().join("report.txt")).unwrap_or_default();
    assert!(report().contains("app.py:5:9: MIG009"), "{}", report());
    // The report written into the watched folder is not a change: no loop.
    std::fs::write(dir.path().join("new.py"), "m = \"gemini-1.5-pro\"\n").expect("write");
    wait_for("Change in new.py: checking again.");
    wait_for("Watching for changes");
    assert!(report().contains("new.py:1:6: MIG009"), "{}", report());
    let before = report().len();
    // A change of the configuration is read.
    std::fs::write(dir.path().join("interlint.toml"), "select = [\"MIG001\"]\n").expect("write");
    wait_for("Change in interlint.toml");
    wait_for("Watching for changes");
    // MIG001 finds nothing: the report (replaced, or appended to) has no new line.
    assert!(report().is_empty() || report().len() == before, "{}", report());
    let quiet = rx.recv_timeout(Duration::from_millis(1500));
    assert!(quiet.is_err(), "a check without a change: {quiet:?}");
}

/// The watching process ends with the test, whether it passes or fails.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
