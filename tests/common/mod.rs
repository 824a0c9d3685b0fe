//! Helpers of the command-line tests: run the binary in a folder, build a tree of files.
#![allow(dead_code)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

pub const PY: &str = "from google import genai\n\nclient = genai.Client()\nresp = client.models.count_tokens(model=\"gemini-2.0-flash\", contents=\"hi\")\nname = \"gemini-2.5-pro\"\n";

pub fn interlint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    }
    dir
}

/// interlint with `input` on standard input.
pub fn interlint_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("interlint starts");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).expect("written");
    }
    child.wait_with_output().expect("interlint ends")
}
