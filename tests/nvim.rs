//! End to end with a real editor: Neovim, configured with the README's snippet itself (read
//! from README.md, so that the README cannot drift from what works), starts `interlint server`
//! when a Python file is opened; its built-in client shows the finding of a deprecated model
//! id, applies the quick fix and writes the file, and a second file of the same folder gets the
//! same client (tests/nvim/quickfix.lua). The snippet branches on the Neovim version (0.7, as
//! Debian ships it, has no `vim.lsp.start`); the test runs the `nvim` found first on `PATH`.
//! Skipped, with a note, where `nvim` is not installed; `.ci/run` installs it where the machine
//! allows.

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
    // The project's root is the folder of its configuration, above the file opened.
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("interlint.toml"), "# interlint's settings\n").expect("written");
    let target = root.join("src/app.py");
    std::fs::write(
        &target,
        "from google import genai\n\nMODEL = \"gemini-1.5-pro\"\n",
    )
    .expect("written");
    let second = root.join("src/other.py");
    std::fs::write(&second, "x = 1\n").expect("written");
    let init = dir.path().join("init.lua");
    std::fs::write(&init, readme_snippet()).expect("written");
    let log = dir.path().join("transcript.txt");
    let script = std::path::absolute("tests/nvim/quickfix.lua").expect("the script's path");
    // The snippet runs `interlint` by name, as a user's PATH has it.
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_interlint"));
    let path = std::env::join_paths(bin.parent().into_iter().map(std::path::Path::to_path_buf).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let mut child = Command::new(nvim)
        .args(["--headless", "-i", "NONE", "-n", "--noplugin", "-u"])
        .arg(&init)
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .current_dir(dir.path())
        .env("PATH", path)
        .env("INTERLINT_TARGET", &target)
        .env("INTERLINT_SECOND", &second)
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
        transcript.contains(&format!("attached: interlint at {}", root.display())),
        "{transcript}"
    );
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
    assert!(
        transcript.contains("second file: the same client"),
        "{transcript}"
    );
    let fixed = std::fs::read_to_string(&target).expect("the file");
    assert_eq!(
        fixed,
        "from google import genai\n\nMODEL = \"gemini-3.5-flash\"\n"
    );
}

/// The README's Neovim snippet: the one `lua` block of its "In your editor" section.
fn readme_snippet() -> String {
    let readme = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let section = readme
        .split_once("\n## In your editor")
        .map(|(_, rest)| rest)
        .expect("the README's section \"In your editor\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut blocks = section.split("\n```lua\n").skip(1);
    let block = blocks.next().expect("a ```lua block in \"In your editor\"");
    assert!(blocks.next().is_none(), "one ```lua block in \"In your editor\"");
    let (snippet, _) = block.split_once("\n```").expect("the block's end");
    format!("{snippet}\n")
}

#[test]
fn the_readme_has_the_neovim_snippet() {
    // Read even where Neovim is not installed: the test above runs it where it is.
    let snippet = readme_snippet();
    assert!(snippet.contains("vim.lsp.start(config)"), "{snippet}");
    assert!(snippet.contains("vim.lsp.start_client(config)"), "{snippet}");
    assert!(!snippet.contains("vim.fs."), "vim.fs is Neovim 0.8+: {snippet}");
}

fn find_nvim() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("nvim"))
        .find(|candidate| candidate.is_file())
}
