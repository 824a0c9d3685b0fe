//! Every fixture, fixed with `--fix` and with `--fix --unsafe-fixes`, still parses with its
//! language's own parser where that parser is installed: Python's `ast`, `node --check`, the
//! TypeScript parser, `bash -n`, `json` (no new duplicate keys), `tomllib`, and a notebook's
//! JSON and code cells. tree-sitter's error recovery lets through text these reject (`{ , }`),
//! so the engine's own re-check is not the last word.

use std::path::{Path, PathBuf};
use std::process::Command;

use interlint::config::LoadedConfig;
use interlint::run::{self, FixMode, RunOptions};
use interlint::settings::{Overrides, Settings};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn fixed_fixtures_parse_with_reference_parsers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded = LoadedConfig {
        config: Default::default(),
        path: None,
    };
    let settings = Settings::new(&loaded, Overrides::default(), root).expect("default settings");
    let mut paths = Vec::new();
    files(&root.join("fixtures"), &mut paths);
    paths.sort();
    let work = tempfile::tempdir().expect("temp dir");
    let mut manifest = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        for unsafe_fixes in [false, true] {
            let options = RunOptions {
                mode: FixMode::Diff,
                unsafe_fixes,
                ..RunOptions::default()
            };
            let report = run::check_bytes(path, bytes.clone(), &settings, options, false);
            let Some((before, after)) = report.change else {
                continue;
            };
            let n = manifest.len();
            let before_path = work.path().join(format!("{n}.before.{ext}"));
            let after_path = work.path().join(format!("{n}.after.{ext}"));
            std::fs::write(&before_path, before).expect("write");
            std::fs::write(&after_path, after).expect("write");
            let name = format!(
                "{}{}",
                path.strip_prefix(root).unwrap_or(path).display(),
                if unsafe_fixes { " (--unsafe-fixes)" } else { "" }
            );
            manifest.push(serde_json::json!({
                "name": name,
                "ext": ext,
                "before": before_path,
                "after": after_path,
            }));
        }
    }
    assert!(manifest.len() > 50, "too few fixed fixtures: {}", manifest.len());
    let manifest_path = work.path().join("manifest.json");
    std::fs::write(&manifest_path, serde_json::to_string(&manifest).expect("json")).expect("write");
    let script = root.join("tests/support/reference_parsers.py");
    let output = match Command::new("python3").arg(&script).arg(&manifest_path).output() {
        Ok(output) => output,
        Err(e) => {
            eprintln!("python3 is not installed ({e}): reference parsers skipped");
            return;
        }
    };
    let summary = String::from_utf8_lossy(&output.stdout);
    eprintln!("{summary}{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "fixed fixtures that no longer parse: {summary}"
    );
}
