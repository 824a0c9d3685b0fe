//! End to end with a real editor: Neovim's built-in LSP client attaches `interlint server`,
//! shows the finding of a file with a deprecated model id, applies the quick fix and writes the
//! file (tests/nvim/quickfix.lua). Skipped, with a note, where `nvim` is not installed;
//! `.ci/run` installs it where the machine allows.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn neovim_applies_the_quick_fix() {
    let Some(nvim) = find_nvim() else {
        eprintln!("note: nvim is not installed; the Neovim end-to-end test is skipped");
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let target = dir.path().join("app.py");
    std::fs::write(
        &target,
        "from google import genai\n\nMODEL = \"gemini-1.5-pro\"\n",
    )
    .expect("written");
    let log = dir.path().join("transcript.txt");
    let script = std::path::absolute("tests/nvim/quickfix.lua").expect("the script's path");
    let mut child = Command::new(nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .current_dir(dir.path())
        .env("INTERLINT_BIN", env!("CARGO_BIN_EXE_interlint"))
        .env("INTERLINT_TARGET", &target)
        .env("INTERLINT_LOG", &log)
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("nvim's status") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("nvim did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    let transcript = std::fs::read_to_string(&log).unwrap_or_default();
    // The transcript is what the closing note shows: printed with --nocapture.
    println!("{transcript}");
    assert!(status.success(), "nvim: {status:?}\n{stderr}\n{transcript}");
    assert!(!transcript.contains("error:"), "{transcript}\n{stderr}");
    assert!(
        transcript.contains("diagnostic 3:10 interlint [MIG009] Model id `gemini-1.5-pro` is deprecated"),
        "{transcript}"
    );
    assert!(
        transcript.contains("applied: interlint (MIG009): Replace with `gemini-3.5-flash`"),
        "{transcript}"
    );
    assert!(
        transcript.contains("diagnostics after the fix: 0"),
        "{transcript}"
    );
    let fixed = std::fs::read_to_string(&target).expect("the file");
    assert_eq!(
        fixed,
        "from google import genai\n\nMODEL = \"gemini-3.5-flash\"\n"
    );
}

fn find_nvim() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("nvim"))
        .find(|candidate| candidate.is_file())
}
