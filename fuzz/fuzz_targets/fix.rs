#![no_main]

#[path = "common.rs"]
mod common;

/// The first byte picks the kind of file; the rest is its text.
const NAMES: &[&str] = &[
    "app.py",
    "app.ts",
    "app.js",
    "notebook.ipynb",
    "call.sh",
    "request.json",
    "README.md",
    "main.rs",
    "config.yaml",
    "pyproject.toml",
    "requests.http",
    "eval.benchmark-manifest.json",
];

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some((first, rest)) = data.split_first() {
        common::fix(NAMES[usize::from(*first) % NAMES.len()], rest);
    }
});
