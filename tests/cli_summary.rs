//! What a run says about what it did not check, and how it ends when its output is closed.

use std::process::{Command, Stdio};

mod common;
use common::{PY, interlint, stderr, stdout, tree};

#[test]
fn named_paths_that_cannot_be_checked_exit_2_and_are_counted() {
    let dir = tree(&[("app.py", PY), ("ok.py", "x = 1\n")]);
    std::fs::write(dir.path().join("latin1.txt"), b"caf\xE9 gemini-2.0-flash\n").expect("write");
    std::fs::write(dir.path().join("blob.bin"), b"\x00\x01gemini-2.0-flash\x00").expect("write");
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["--max-file-size", "10", "app.py"],
            "error: app.py: skipped: ",
            "No file checked. 1 file skipped (see above).",
        ),
        (
            &["latin1.txt", "ok.py"],
            "error: latin1.txt: skipped: not valid UTF-8",
            "No findings in 1 checked file. 1 file skipped (see above).",
        ),
        (
            &["blob.bin"],
            "error: blob.bin: skipped: binary file",
            "No file checked. 1 file skipped (see above).",
        ),
        (
            &["missing.py", "ok.py"],
            "error: missing.py: No such file or directory",
            "No findings in 1 checked file. 1 error (see above).",
        ),
        (
            &["missing.py", "app.py"],
            "error: missing.py: No such file or directory",
            "Found 2 findings (2 fixable with --fix). 1 error (see above).",
        ),
    ];
    for (args, error, summary) in cases {
        let o = interlint(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(error), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stdout(&o).lines().last(),
            Some(summary),
            "{args:?}: {}",
            stdout(&o)
        );
    }
    // Found by a walk, a file too large is a warning, counted; the run does not fail for it.
    let o = interlint(dir.path(), &["--max-file-size", "20", "--exit-zero"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: app.py: skipped: "),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        stdout(&o).lines().last(),
        Some("No findings in 2 checked files. 2 files skipped (see above).")
    );
}

#[test]
fn binary_files_of_a_walk_are_shown_with_verbose_only() {
    let dir = tree(&[("app.py", PY)]);
    std::fs::write(dir.path().join("blob.bin"), b"\x00\x01gemini-2.0-flash\x00").expect("write");
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(stderr(&o), "Found 2 findings (2 fixable with --fix).\n");
    let o = interlint(dir.path(), &["--format", "concise", "--verbose"]);
    assert!(
        stderr(&o).starts_with("note: blob.bin: skipped: binary file\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dash_reads_standard_input() {
    let dir = tree(&[]);
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_interlint"))
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // A run refused before it reads closes the pipe: the write may fail.
        let _ = std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), PY.as_bytes());
        child.wait_with_output().expect("wait")
    };
    let o = run(&["-", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("-:4:"), "{}", stdout(&o));
    let o = run(&["check", "-", "--stdin-filename", "app.py", "--format", "concise"]);
    assert!(stdout(&o).starts_with("app.py:4:"), "{}", stdout(&o));
    let o = run(&["-", "app.py"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`-` (standard input) cannot be checked together"),
        "{}",
        stderr(&o)
    );
}

/// Runs `args` with its standard output closed after `keep` bytes (a reader such as `head`) or
/// sent to `/dev/full`.
fn with_output(args: &[&str], dir: &std::path::Path, full: bool) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_interlint"));
    command.args(args).current_dir(dir).stderr(Stdio::piped());
    if full {
        let devfull = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        command.stdout(devfull);
        return command.output().expect("runs");
    }
    let mut child = command.stdout(Stdio::piped()).spawn().expect("spawn");
    // Read nothing and close: the next write finds the pipe closed.
    drop(child.stdout.take());
    child.wait_with_output().expect("wait")
}

#[test]
fn a_closed_output_ends_quietly_and_a_full_one_is_an_error() {
    let many = "m = \"gemini-2.0-flash\"\n".repeat(5000);
    let dir = tree(&[("app.py", &many)]);
    let commands: [&[&str]; 6] = [
        &["completions", "fish"],
        &["completions", "zsh"],
        &["explain", "MIG009"],
        &["rules"],
        &["--help"],
        &["check", "app.py", "--format", "json"],
    ];
    for args in commands {
        let closed = with_output(args, dir.path(), false);
        let err = stderr(&closed);
        assert!(
            !err.contains("panicked") && !err.contains("error"),
            "{args:?}: {err}"
        );
        assert_eq!(closed.status.code(), Some(0), "{args:?}: {err}");
        if std::path::Path::new("/dev/full").exists() {
            let full = with_output(args, dir.path(), true);
            let err = stderr(&full);
            assert_eq!(full.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.starts_with("error: cannot write the output: No space left on device"),
                "{args:?}: {err}"
            );
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
}

/// The numbers of a summary, in order.
fn numbers(line: &str) -> Vec<usize> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// Copies the demo repository into a fresh folder.
fn demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let copy = |from: &std::path::Path, to: &std::path::Path| {
        for entry in walk(from) {
            let target = to.join(entry.strip_prefix(from).expect("under"));
            std::fs::create_dir_all(target.parent().expect("a parent")).expect("folders");
            std::fs::copy(&entry, &target).expect("copied");
        }
    };
    copy(std::path::Path::new("fixtures/demo"), dir.path());
    dir
}

fn walk(folder: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn the_summary_adds_up() {
    let dir = demo();
    let last = |o: &std::process::Output, err: bool| {
        let text = if err { stderr(o) } else { stdout(o) };
        text.lines().last().unwrap_or_default().to_string()
    };
    let check = last(&interlint(dir.path(), &[]), false);
    let [found, fixable, more] = numbers(&check)[..] else {
        panic!("{check}");
    };
    assert!(check.starts_with("Found") && more > 0, "{check}");
    // --diff fixes what check said, and the rest remains.
    let diff = last(&interlint(dir.path(), &["--diff"]), true);
    assert_eq!(numbers(&diff), [fixable, found - fixable], "{check} / {diff}");
    let diff = last(&interlint(dir.path(), &["--diff", "--unsafe-fixes"]), true);
    assert_eq!(
        numbers(&diff),
        [fixable + more, found - fixable - more],
        "{check} / {diff}"
    );
    let unsafe_check = last(&interlint(dir.path(), &["--unsafe-fixes"]), false);
    assert_eq!(numbers(&unsafe_check), [found, fixable + more], "{unsafe_check}");
    // --fix: the findings of the check, fixed and remaining.
    let fixed = last(&interlint(dir.path(), &["--fix", "--unsafe-fixes"]), false);
    assert_eq!(
        numbers(&fixed),
        [found, fixable + more, found - fixable - more],
        "{fixed}"
    );
    let after = last(&interlint(dir.path(), &[]), false);
    assert_eq!(numbers(&after)[0], found - fixable - more, "{after}");
}

#[test]
fn utf16_files_with_a_byte_order_mark_are_decoded_and_written_back_as_they_were() {
    let text = "MODEL = \"gemini-2.0-flash\"\r\nnote = \"é\"\r\n";
    let utf16 = |bom: [u8; 2], unit: fn(u16) -> [u8; 2], text: &str| {
        let mut bytes = bom.to_vec();
        text.encode_utf16()
            .for_each(|u| bytes.extend_from_slice(&unit(u)));
        bytes
    };
    let dir = tree(&[]);
    let le = utf16([0xFF, 0xFE], u16::to_le_bytes, text);
    std::fs::write(dir.path().join("le.py"), &le).expect("write");
    std::fs::write(
        dir.path().join("be.py"),
        utf16([0xFE, 0xFF], u16::to_be_bytes, text),
    )
    .expect("write");
    std::fs::write(dir.path().join("bad.py"), [0xFF, 0xFE, 0x00, 0xD8]).expect("write");
    let o = interlint(dir.path(), &["--format", "concise", "be.py", "le.py"]);
    assert_eq!(
        stdout(&o),
        "be.py:1:10: MIG009 [*] Model id `gemini-2.0-flash` is deprecated; use `gemini-3.5-flash`\n\
         le.py:1:10: MIG009 [*] Model id `gemini-2.0-flash` is deprecated; use `gemini-3.5-flash`\n"
    );
    // Named, a file that only starts like UTF-16 is skipped out loud.
    let o = interlint(dir.path(), &["bad.py"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.py: skipped: starts with a UTF-16 byte-order mark but is not valid UTF-16")
    );
    // Fixed, the file keeps its encoding, byte-order mark and line endings.
    let o = interlint(dir.path(), &["--fix", "le.py"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fixed = std::fs::read(dir.path().join("le.py")).expect("read");
    assert_eq!(
        fixed,
        utf16(
            [0xFF, 0xFE],
            u16::to_le_bytes,
            &text.replace("gemini-2.0-flash", "gemini-3.5-flash")
        )
    );
}

/// One count everywhere (on the demo project, whose migration units resolve reads with no fix
/// of their own): a check's "K fixable with --fix, M more with --unsafe-fixes" is what `--fix`
/// then reports as "K fixed" with the same "M more", `--show-fixes` lists K, and a check of the
/// fixed tree says "M more" again; `--fix --unsafe-fixes` fixes what `check --unsafe-fixes`
/// called fixable.
#[test]
fn check_fix_and_show_fixes_count_alike() {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copy");
            }
        }
    }
    let number = |text: &str, after: &str, before: &str| -> usize {
        let at = text
            .find(before)
            .unwrap_or_else(|| panic!("`{before}` in {text}"));
        let head = &text[..at];
        let from = head.rfind(after).map_or(0, |i| i + after.len());
        head[from..]
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("a number before `{before}` in {text}"))
    };
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo");
    let dir = tempfile::tempdir().expect("tempdir");
    copy(&demo, dir.path());
    let last = |o: &std::process::Output| {
        stdout(o)
            .trim_end()
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    let o = interlint(dir.path(), &["--no-progress"]);
    let summary = last(&o);
    let fixable = number(&summary, "(", " fixable with --fix");
    let more = number(&summary, ", ", " more with --unsafe-fixes");
    assert!(fixable > 0 && more > 0, "{summary}");
    let o = interlint(dir.path(), &["--unsafe-fixes", "--no-progress"]);
    let with_unsafe = number(&last(&o), "(", " fixable with --fix");

    let o = interlint(dir.path(), &["--fix", "--show-fixes", "--no-progress"]);
    let out = stdout(&o);
    let summary = last(&o);
    assert_eq!(number(&summary, "(", " fixed"), fixable, "{summary}");
    assert_eq!(
        number(&summary, ", ", " more with --unsafe-fixes"),
        more,
        "{summary}"
    );
    assert_eq!(number(&out, "Fixed", " findings:"), fixable, "{out}");
    let o = interlint(dir.path(), &["--no-progress"]);
    assert_eq!(
        number(&last(&o), "(", " more with --unsafe-fixes"),
        more,
        "{}",
        last(&o)
    );

    let fresh = tempfile::tempdir().expect("tempdir");
    copy(&demo, fresh.path());
    let o = interlint(
        fresh.path(),
        &["--fix", "--unsafe-fixes", "--show-fixes", "--no-progress"],
    );
    let out = stdout(&o);
    let summary = last(&o);
    assert_eq!(number(&summary, "(", " fixed"), with_unsafe, "{summary}");
    assert_eq!(number(&out, "Fixed", " findings:"), with_unsafe, "{out}");
}

/// `--statistics` marks a rule `[*]` when `--fix` fixes one of its findings and `[-]` when only
/// `--unsafe-fixes` does, as ruff does; JSON says both.
#[test]
fn statistics_mark_fixes_that_need_unsafe_fixes() {
    let dir = tree(&[(
        "app.py",
        "from google import genai\n\nclient = genai.Client()\nr = client.models.generate_content(model=\"gemini-2.0-flash\", contents=\"hi\")\nprint(r.text)\n",
    )]);
    let o = interlint(dir.path(), &["--statistics", "--no-progress"]);
    let out = stdout(&o);
    assert!(out.contains("MIG009\t[*] deprecated-model-id"), "{out}");
    assert!(out.contains("MIG001\t[-] create-content-call"), "{out}");
    let o = interlint(dir.path(), &["--statistics", "--unsafe-fixes", "--no-progress"]);
    assert!(
        stdout(&o).contains("MIG001\t[*] create-content-call"),
        "{}",
        stdout(&o)
    );
    let o = interlint(dir.path(), &["--statistics", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let mig001 = rows
        .as_array()
        .and_then(|r| r.iter().find(|r| r["code"] == "MIG001"))
        .expect("MIG001");
    assert_eq!(mig001["fixable"], false);
    assert_eq!(mig001["unsafe_fixable"], true);
}

/// A tree with findings and three files skipped: not UTF-8 (in a folder), bad UTF-16, and over
/// a `--max-file-size` of 400 bytes; and a binary file, skipped without a word.
fn skipped_tree() -> tempfile::TempDir {
    let big = format!("{}MODEL = \"gemini-2.0-flash\"\n", "x = 1\n".repeat(100));
    let dir = tree(&[("app.py", PY), ("big.py", big.as_str())]);
    std::fs::create_dir(dir.path().join("docs")).expect("mkdir");
    std::fs::write(dir.path().join("docs/latin1.txt"), b"caf\xE9 gemini-2.0-flash\n").expect("write");
    std::fs::write(dir.path().join("bad16.txt"), b"\xFF\xFE\x00\xD8gemini-2.0-flash").expect("write");
    std::fs::write(dir.path().join("blob.bin"), b"\x00\x01gemini-2.0-flash\x00").expect("write");
    dir
}

#[test]
fn skipped_files_are_annotations_in_github_output() {
    let dir = skipped_tree();
    // --quiet keeps stderr short; the annotations are output, and stay.
    for quiet in [false, true] {
        let mut args = vec!["--format", "github", "--max-file-size", "400"];
        if quiet {
            args.push("--quiet");
        }
        let o = interlint(dir.path(), &args);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        // The findings of app.py, then one warning command per file skipped, on the file.
        assert_eq!(lines.len(), 5, "{out}");
        assert!(lines[0].starts_with("::error title=MIG009"), "{out}");
        assert!(lines[1].starts_with("::warning title=MIG009"), "{out}");
        assert_eq!(
            lines[2..],
            [
                "::warning file=bad16.txt::skipped: starts with a UTF-16 byte-order mark but is not valid UTF-16",
                "::warning file=big.py::skipped: 627 bytes is over the --max-file-size of 400 bytes",
                "::warning file=docs/latin1.txt::skipped: not valid UTF-8",
            ],
            "{out}"
        );
        assert!(!out.contains("blob.bin"), "{out}");
        assert_eq!(
            stderr(&o).contains("warning: big.py: skipped"),
            !quiet,
            "{}",
            stderr(&o)
        );
    }
    // Named on the command line, a file that is not checked is an error, there as on stderr.
    let o = interlint(dir.path(), &["--format", "github", "docs/latin1.txt", "blob.bin"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "::error file=blob.bin::skipped: binary file\n::error file=docs/latin1.txt::skipped: not valid UTF-8\n"
    );
}

#[test]
fn skipped_files_are_tool_notifications_in_sarif() {
    let dir = skipped_tree();
    let o = interlint(dir.path(), &["--format", "sarif", "--max-file-size", "400"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    let run = &log["runs"][0];
    assert_eq!(run["results"].as_array().map(Vec::len), Some(2), "{run}");
    let invocation = &run["invocations"][0];
    // Files skipped are warnings: the run did what it says it does (exit status 1, findings).
    assert_eq!(invocation["executionSuccessful"], true, "{invocation}");
    let notifications = invocation["toolExecutionNotifications"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let seen: Vec<(String, String, String)> = notifications
        .iter()
        .map(|n| {
            let artifact = &n["locations"][0]["physicalLocation"]["artifactLocation"];
            assert_eq!(artifact["uriBaseId"], "%SRCROOT%", "{n}");
            let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            (
                text(&n["level"]),
                text(&artifact["uri"]),
                text(&n["message"]["text"]),
            )
        })
        .collect();
    let expected = [
        (
            "bad16.txt",
            "skipped: starts with a UTF-16 byte-order mark but is not valid UTF-16",
        ),
        (
            "big.py",
            "skipped: 627 bytes is over the --max-file-size of 400 bytes",
        ),
        ("docs/latin1.txt", "skipped: not valid UTF-8"),
    ]
    .map(|(uri, text)| ("warning".to_string(), uri.to_string(), text.to_string()));
    assert_eq!(seen, expected, "{invocation}");
    // A clean run has a successful invocation and no notification; a file named and not
    // checked fails it (exit status 2), as an error notification.
    let o = interlint(dir.path(), &["--format", "sarif", "app.py"]);
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    assert_eq!(
        log["runs"][0]["invocations"],
        serde_json::json!([{"executionSuccessful": true}])
    );
    let o = interlint(dir.path(), &["--format", "sarif", "app.py", "docs/latin1.txt"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false, "{invocation}");
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["level"], "error",
        "{invocation}"
    );
}

/// Runs interlint in `dir` as a user that the permissions of its files hold back: this one, or,
/// where this one reads a file whose permissions say no (root), the unprivileged uid and gid
/// 65534. `None`, with a note, where that user cannot run it (the binary out of its reach).
fn interlint_held_back(
    dir: &std::path::Path,
    args: &[&str],
    privileged: bool,
) -> Option<std::process::Output> {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_interlint"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    if privileged {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        command.uid(65534).gid(65534);
    }
    match command.output() {
        Ok(output) => Some(output),
        Err(e) => {
            eprintln!(
                "note: interlint cannot run as uid 65534 here ({e}); the unreadable-file test is skipped"
            );
            None
        }
    }
}

#[test]
fn an_unreadable_file_is_an_error_and_not_counted_as_checked() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree(&[("ok.py", "x = 1\n"), ("secret.py", PY)]);
    let secret = dir.path().join("secret.py");
    std::fs::set_permissions(dir.path().join("ok.py"), std::fs::Permissions::from_mode(0o644))
        .expect("chmod");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // Root reads it all the same: interlint is then run as another user.
    let privileged = std::fs::read(&secret).is_ok();
    let run = |args: &[&str]| interlint_held_back(dir.path(), args, privileged);
    let Some(o) = run(&[]) else {
        return;
    };
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error: secret.py: cannot read: Permission denied"),
        "{}",
        stderr(&o)
    );
    // Before, "No findings in 2 checked files.": the file not read was counted as checked.
    assert_eq!(
        stdout(&o).lines().last(),
        Some("No findings in 1 checked file. 1 error (see above)."),
        "{}",
        stdout(&o)
    );
    // Named on the command line, beside another file and alone.
    for args in [&["ok.py", "secret.py"][..], &["secret.py"]] {
        let Some(o) = run(args) else {
            return;
        };
        let expected = match args.len() {
            1 => "No file checked. 1 error (see above).",
            _ => "No findings in 1 checked file. 1 error (see above).",
        };
        assert_eq!(stdout(&o).lines().last(), Some(expected), "{args:?}");
    }
    let Some(o) = run(&["--format", "github"]) else {
        return;
    };
    assert_eq!(
        stdout(&o),
        "::error file=secret.py::cannot read: Permission denied\n"
    );
    let Some(o) = run(&["--format", "sarif"]) else {
        return;
    };
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF is JSON");
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false, "{invocation}");
    let notification = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "error", "{invocation}");
    assert_eq!(notification["message"]["text"], "cannot read: Permission denied");
    assert_eq!(
        notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "secret.py"
    );
}
