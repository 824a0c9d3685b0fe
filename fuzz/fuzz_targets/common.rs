//! What every fuzz target does: check a text as a file of some name with every rule (the
//! prefilter is bypassed, so every rule meets every input), or fix it and check the fix.
#![allow(dead_code)]

use std::path::Path;
use std::sync::OnceLock;

use interlint::config::LoadedConfig;
use interlint::fix::{FixStatus, file_errors, fix_text};
use interlint::lang::Surface;
use interlint::settings::{Overrides, Settings};
use interlint::source::LineEnding;

fn settings() -> &'static Settings {
    static SETTINGS: OnceLock<Settings> = OnceLock::new();
    SETTINGS.get_or_init(|| {
        Settings::new(&LoadedConfig::default(), Overrides::default(), Path::new("/"))
            .expect("the built-in settings load")
    })
}

/// The input as text: the fuzzer's bytes when interlint would read them as a file's text (it
/// skips a file with a NUL byte as binary, and one that is not UTF-8).
fn text(data: &[u8]) -> Option<&str> {
    if data.contains(&0) {
        return None;
    }
    std::str::from_utf8(data).ok()
}

/// Parses `data` as the file `name` and runs every rule on it.
pub fn check(name: &str, data: &[u8]) {
    let Some(text) = text(data) else {
        return;
    };
    let settings = settings();
    let path = Path::new(name);
    let surface = Surface::from_path(path);
    let _ = interlint::engine::lint_text_and_errors(settings, &settings.rules, path, surface, text);
}

/// `data`'s first byte picks the name among `names`; the rest is the text.
pub fn check_as_one_of(names: &[&str], data: &[u8]) {
    if let Some((first, rest)) = data.split_first() {
        check(names[usize::from(*first) % names.len()], rest);
    }
}

/// Fixes `data` as the file `name` (unsafe fixes too) and checks what the fix engine
/// promises: the fixed text parses no worse, and fixing it again changes nothing.
pub fn fix(name: &str, data: &[u8]) {
    let Some(text) = text(data) else {
        return;
    };
    let settings = settings();
    let path = Path::new(name);
    let surface = Surface::from_path(path);
    let outcome = fix_text(
        settings,
        &settings.rules,
        path,
        surface,
        text,
        LineEnding::Lf,
        true,
    );
    if outcome.text == text {
        return;
    }
    let before = file_errors(path, surface, text);
    let after = file_errors(path, surface, &outcome.text);
    assert!(
        after <= before,
        "the fix of {name} added syntax errors ({before} -> {after})"
    );
    if outcome.status == FixStatus::Done {
        let again = fix_text(
            settings,
            &settings.rules,
            path,
            surface,
            &outcome.text,
            LineEnding::Lf,
            true,
        );
        assert!(
            again.text == outcome.text,
            "fixing {name} a second time changed it again"
        );
    }
}
