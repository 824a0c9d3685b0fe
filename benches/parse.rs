//! Parsing every Python and JavaScript/TypeScript file of a tree with its language's parser
//! (ruff_python_parser, oxc_parser), lowering it into the shared form, and extracting its facts.
//!
//!     cargo bench --bench parse -- TREE
//!
//! One process, the same files, each parser over all of them in turn; seconds are wall time.

use std::path::{Path, PathBuf};
use std::time::Instant;

use interlint::lang::{self, Surface};

fn files(dir: &Path, out: &mut Vec<(PathBuf, Surface)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != ".git") {
                files(&path, out);
            }
            continue;
        }
        let surface = Surface::from_path(&path);
        if matches!(
            surface,
            Surface::Python | Surface::JavaScript | Surface::TypeScript | Surface::Tsx
        ) {
            out.push((path, surface));
        }
    }
}

fn main() {
    let Some(tree) = std::env::args().skip(1).find(|a| !a.starts_with('-')) else {
        eprintln!("usage: cargo bench --bench parse -- TREE");
        return;
    };
    let mut paths = Vec::new();
    files(Path::new(&tree), &mut paths);
    let texts: Vec<(String, Surface)> = paths
        .iter()
        .filter_map(|(p, s)| std::fs::read_to_string(p).ok().map(|t| (t, *s)))
        // Minified bundles are checked as text, never parsed.
        .filter(|(t, _)| t.lines().all(|l| l.len() < 256 * 1024))
        .collect();
    for (name, python) in [("Python", true), ("JavaScript/TypeScript", false)] {
        let set: Vec<&(String, Surface)> = texts
            .iter()
            .filter(|(_, s)| (*s == Surface::Python) == python)
            .collect();
        let bytes: usize = set.iter().map(|(t, _)| t.len()).sum();
        let start = Instant::now();
        let mut nodes = 0usize;
        for (text, surface) in &set {
            let tree = if python {
                lang::python::lower::lower(text, false)
            } else {
                lang::javascript::lower::lower(*surface, text)
            };
            nodes += tree.nodes.len();
        }
        let lowered = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let mut calls = 0usize;
        for (text, surface) in &set {
            calls += lang::facts::of_text(*surface, text).calls.len();
        }
        let facts = start.elapsed().as_secs_f64();
        println!(
            "{name}: {} files, {:.1} MB: parsed and lowered {lowered:.2} s ({nodes} nodes); with the facts {facts:.2} s ({calls} calls)",
            set.len(),
            bytes as f64 / 1e6,
        );
    }
}
