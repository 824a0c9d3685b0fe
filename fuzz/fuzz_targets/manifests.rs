#![no_main]

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::check_as_one_of(
    &[
        "pyproject.toml",
        "requirements.txt",
        "package.json",
        "Cargo.toml",
        "config.yaml",
        ".env"
    ],
    data
));
