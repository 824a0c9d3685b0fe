//! The facts of every Python and JavaScript/TypeScript file of a tree, as a document gives them
//! and from the shared form, compared, legacy units included. The tree-sitter extraction they
//! were ported from is gone (the last comparison with it, legacy units included: no file
//! differs on small or large, at 12fff05); what is left checks that a document's facts are
//! those of its text.
//!
//!     cargo bench --bench facts_parity -- TREE

use std::path::{Path, PathBuf};

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
        eprintln!("usage: cargo bench --bench facts_parity -- TREE");
        return;
    };
    let mut paths = Vec::new();
    files(Path::new(&tree), &mut paths);
    let (mut same, mut differ) = (0, 0);
    for (path, surface) in &paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if !text.lines().all(|l| l.len() < 256 * 1024) {
            continue;
        }
        let docs = lang::documents(*surface, &text);
        let Some(doc) = docs.first() else { continue };
        let mut old = doc.facts().clone();
        // The order of the comments means nothing.
        old.comments.sort_by_key(|c| (c.start, c.end));
        let mut new = lang::facts::of_text(*surface, &text);
        // Comments: the new walk sees every one (the old one skipped those in parameter lists,
        // say); none may be lost.
        let lost = old.comments.iter().filter(|c| !new.comments.contains(c)).count();
        if lost > 0 {
            println!("LOST {lost} comments: {}", path.display());
            for c in old.comments.iter().filter(|c| !new.comments.contains(c)) {
                println!("   {c:?} {:?}", text.get(c.clone()));
            }
        }
        old.comments.clear();
        new.comments.clear();
        // What matters to the rules: calls, reads, and wrappers and imports of the client
        // packages.
        let client = |m: &Option<String>| m.as_deref().is_none_or(|m| m.contains("@google/gen"));
        for f in [&mut old, &mut new] {
            f.wrappers.retain(|w| client(&w.module));
            f.imports
                .retain(|i| client(&Some(i.module.clone())) || i.module.contains("genai"));
        }
        let (a, b) = (format!("{old:#?}"), format!("{new:#?}"));
        if a == b {
            same += 1;
        } else {
            differ += 1;
            if differ <= 100000 {
                println!("=== {}", path.display());
                let diff = similar::TextDiff::from_lines(&a, &b);
                let text = diff.unified_diff().context_radius(4).to_string();
                for line in text.lines().take(40) {
                    println!("{line}");
                }
            } else {
                println!("=== {}", path.display());
            }
        }
    }
    println!("same {same}, differ {differ}");
}
