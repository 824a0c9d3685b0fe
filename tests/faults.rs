//! Fixing under faults: a run killed half-way, a full disk, files that change under the walk.
//! Whatever happens, every file holds its old bytes or its complete fixed bytes.

mod common;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{interlint, stderr};

const OLD: &str = "from google import genai\n\nmodel = \"gemini-2.0-flash\"\n";
const NEW: &str = "from google import genai\n\nmodel = \"gemini-3.5-flash\"\n";

/// A tree of `n` files to fix, spread over folders of 100.
fn many_files(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for i in 0..n {
        let folder = dir.path().join(format!("pkg{}", i / 100));
        std::fs::create_dir_all(&folder).expect("mkdir");
        std::fs::write(folder.join(format!("m{i}.py")), OLD).expect("write");
    }
    dir
}

/// Every file of the tree: (old, fixed, temporary) counts; panics on a file that is neither,
/// and on an interlint temporary file when `temporaries` is false.
fn census(dir: &Path, temporaries: bool) -> (usize, usize, usize) {
    let (mut old, mut new, mut temporary) = (0, 0, 0);
    for folder in std::fs::read_dir(dir).expect("list") {
        for entry in std::fs::read_dir(folder.expect("entry").path()).expect("list") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            if name.contains(".interlint-") {
                assert!(temporaries, "a temporary file is left: {}", path.display());
                temporary += 1;
                continue;
            }
            match std::fs::read_to_string(&path).expect("read").as_str() {
                OLD => old += 1,
                NEW => new += 1,
                other => panic!(
                    "{} holds neither its old nor its fixed bytes: {other:?}",
                    path.display()
                ),
            }
        }
    }
    (old, new, temporary)
}

#[test]
fn a_fix_run_killed_at_any_moment_leaves_old_or_new_files() {
    const FILES: usize = 5000;
    let binary = env!("CARGO_BIN_EXE_interlint");
    let mut partial = 0;
    for delay_ms in [100, 500, 1500] {
        let dir = many_files(FILES);
        let mut child = Command::new(binary)
            .args(["--fix", "--no-progress", "--quiet"])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(delay_ms) {
            if child.try_wait().expect("wait").is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill();
        let _ = child.wait();
        let (old, new, temporary) = census(dir.path(), true);
        assert_eq!(old + new, FILES);
        if old > 0 && new > 0 {
            partial += 1;
        }
        // The next run fixes the rest and removes what the killed run left.
        let o = interlint(dir.path(), &["--fix", "--no-progress"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(census(dir.path(), false), (0, FILES, 0));
        eprintln!(
            "killed after {delay_ms} ms: {new} of {FILES} files fixed, {old} old, {temporary} temporary files left (removed by the next run)"
        );
    }
    // Some moment fell in the middle of the run (it takes seconds for 5,000 files).
    assert!(partial > 0, "no kill fell in the middle of a run");
}

#[test]
fn a_full_disk_keeps_the_old_bytes_and_the_other_files_are_fixed() {
    // A file size limit of 512 bytes: writing the fixed text of `big.py` fails with EFBIG
    // (SIGXFSZ ignored, as a full disk fails with ENOSPC); `small.py` fits.
    let big = format!("{OLD}{}\n", "# padding\n".repeat(100));
    let dir = common::tree(&[("big.py", big.as_str()), ("small.py", OLD)]);
    let o = Command::new("sh")
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f 1; exec \"$0\" --fix --no-progress .",
        ])
        .arg(env!("CARGO_BIN_EXE_interlint"))
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: big.py: cannot write a temporary file in") && err.contains("File too large"),
        "{err}"
    );
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!(read("big.py"), big);
    assert_eq!(read("small.py"), NEW);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn files_gone_or_replaced_after_the_walk_are_reported_and_the_run_goes_on() {
    use interlint::config::LoadedConfig;
    use interlint::run::{FixMode, Notice, RunOptions};
    use interlint::settings::{Overrides, Settings};
    let dir = common::tree(&[("a.py", OLD), ("b.py", OLD), ("c.py", OLD)]);
    let settings =
        Settings::new(&LoadedConfig::default(), Overrides::default(), dir.path()).expect("settings");
    // The walk found three files; then one was deleted and one replaced by a folder.
    let files: Vec<_> = ["a.py", "b.py", "c.py"]
        .iter()
        .map(|n| dir.path().join(n))
        .collect();
    std::fs::remove_file(&files[0]).expect("delete");
    std::fs::remove_file(&files[1]).expect("delete");
    std::fs::create_dir(&files[1]).expect("mkdir");
    let options = RunOptions {
        mode: FixMode::Apply,
        ..RunOptions::default()
    };
    let reports = interlint::run::run(&files, &settings, options, &indicatif::ProgressBar::hidden());
    let notice = |name: &str| {
        reports
            .iter()
            .find(|r| r.path.ends_with(name))
            .map(|r| r.notices.clone())
            .unwrap_or_default()
    };
    assert!(
        matches!(notice("a.py").as_slice(), [Notice::Unread(m)] if m == "cannot read: No such file or directory"),
        "{:?}",
        notice("a.py")
    );
    assert!(
        matches!(notice("b.py").as_slice(), [Notice::Unread(m)] if m.starts_with("cannot read: ")),
        "{:?}",
        notice("b.py")
    );
    assert_eq!(std::fs::read_to_string(&files[2]).expect("read"), NEW);
}

#[test]
fn minified_code_is_checked_as_text() {
    // One line of 300 KB: its syntax tree would take a hundred times its size.
    let filler = "var q=function(b,c){return b+c*2};".repeat(9000);
    let bundle = format!(
        "import {{GoogleGenAI}} from \"@google/genai\";const a=new GoogleGenAI({{}});{filler}a.models.generateContent({{model:\"gemini-2.0-flash\",contents:\"hi\"}});\n"
    );
    let dir = common::tree(&[("bundle.min.js", bundle.as_str())]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(&format!(
            "warning: bundle.min.js: a line of {} bytes (minified code): checked as text, for model ids and endpoint URLs only\n",
            bundle.len() - 1
        )),
        "{}",
        stderr(&o)
    );
    let out = common::stdout(&o);
    assert!(out.contains(": MIG009 ") && !out.contains("MIG001"), "{out}");
}

#[test]
fn json_data_files_are_checked_as_text() {
    // 120,000 keys: its syntax tree would take some 35 MB. Over the limit, it is read as text
    // (the model id is still found) and nothing is added to it by --add-noqa.
    let mut data = String::from("{\"model\": \"gemini-2.0-flash\", \"note\": \"a, b: [c] {d}\"");
    for i in 0..120_000 {
        data.push_str(&format!(",\n\"k{i}\": {i}"));
    }
    data.push_str("}\n");
    // Just under the limit (commas, colons and brackets inside strings do not count): parsed.
    let mut small = String::from("{\"s\": \"");
    small.push_str(&",:[{".repeat(30_000));
    small.push_str("\", \"m\": \"gemini-2.0-flash\"}\n");
    let dir = common::tree(&[("data.json", data.as_str()), ("small.json", small.as_str())]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "warning: data.json: over 100000 JSON values (a data file): checked as text, for model ids and endpoint URLs only\n\
         Found 2 findings (2 fixable with --fix).\n"
    );
    let out = common::stdout(&o);
    assert!(out.contains("data.json:1:12: MIG009 "), "{out}");
    assert!(out.contains("small.json:1:"), "{out}");
    let o = interlint(dir.path(), &["--add-noqa"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("data.json: 1 finding left without a suppression comment"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("data.json")).expect("read"),
        data
    );
}
