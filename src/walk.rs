//! Finding the files to check, like ruff: `.gitignore` and `.ignore` respected, hidden files
//! walked (but not version-control folders), symlinks not followed, `exclude` globs honoured.
//! A file named on the command line is always checked.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState};

use crate::settings::Settings;

/// The files to check, sorted, and the paths that could not be walked.
pub struct Walked {
    pub files: Vec<PathBuf>,
    pub errors: Vec<String>,
}

pub fn collect(paths: &[PathBuf], settings: &Settings, threads: usize) -> Walked {
    let files = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    for path in paths {
        let metadata = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                push(&errors, format!("{}: {}", path.display(), describe_io(&e)));
                continue;
            }
        };
        if !metadata.is_dir() {
            push(&files, path.clone());
            continue;
        }
        let walker = WalkBuilder::new(path)
            .hidden(false)
            .git_ignore(true)
            .git_exclude(true)
            .ignore(true)
            .parents(true)
            .require_git(false)
            .follow_links(false)
            .threads(threads)
            .build_parallel();
        walker.run(|| {
            let files = &files;
            let errors = &errors;
            Box::new(move |entry| {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        push(errors, e.to_string());
                        return WalkState::Continue;
                    }
                };
                // The root is always walked, even when a glob would exclude it.
                if entry.depth() > 0 && (is_vcs_folder(&entry) || settings.is_excluded(entry.path())) {
                    return WalkState::Skip;
                }
                if entry.file_type().is_some_and(|t| t.is_file()) && !settings.is_config_file(entry.path()) {
                    push(files, entry.into_path());
                }
                WalkState::Continue
            })
        });
    }
    let mut files = files.into_inner().unwrap_or_else(|e| e.into_inner());
    files.sort();
    files.dedup();
    Walked {
        files,
        errors: errors.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

fn is_vcs_folder(entry: &ignore::DirEntry) -> bool {
    entry.file_type().is_some_and(|t| t.is_dir())
        && entry
            .file_name()
            .to_str()
            .is_some_and(|n| crate::settings::VCS_FOLDERS.contains(&n))
}

fn push<T>(list: &Mutex<Vec<T>>, item: T) {
    list.lock().unwrap_or_else(|e| e.into_inner()).push(item);
}

/// An I/O error in the words users expect ("No such file or directory").
pub fn describe_io(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The path as findings show it: relative to the current folder when under it.
pub fn display_path(path: &Path, cwd: &Path) -> String {
    let shown = if path.is_absolute() {
        path.strip_prefix(cwd).unwrap_or(path)
    } else {
        path.strip_prefix("./").unwrap_or(path)
    };
    shown.display().to_string()
}
