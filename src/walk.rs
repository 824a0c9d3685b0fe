//! Finding the files to check, like ruff: `.gitignore` and `.ignore` respected, hidden files
//! walked (but not version-control folders), symlinks not followed, `exclude` globs honoured.
//! A file named on the command line is always checked, unless `--force-exclude` applies the
//! same rules to it (pre-commit names every file it hands over).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState};

use crate::settings::Settings;

/// The files to check (sorted by [`collect`]), and the paths that could not be walked.
pub struct Walked {
    pub files: Vec<PathBuf>,
    /// The files named on the command line: one that cannot be checked is an error.
    pub named: std::collections::HashSet<PathBuf>,
    pub errors: Vec<String>,
    /// interlint's temporary files left by a run that was killed while fixing.
    pub stale_temporaries: Vec<PathBuf>,
}

pub fn collect(paths: &[PathBuf], settings: &Settings, threads: usize, force_exclude: bool) -> Walked {
    let mut walked = walk(paths, settings, threads, force_exclude, None);
    // A key per path: comparing paths component by component, as `Path`'s order does, over and
    // over in a sort of a monorepo's files, cost a tenth of a run.
    walked.files.sort_by_cached_key(|p| order_key(p));
    walked.files.dedup();
    walked
}

/// Walks one folder and hands each file to `visit` as soon as it is found, on the walker's
/// threads: the files are checked while the folders are still being read, as ripgrep searches.
/// The files come back in no particular order.
pub fn stream(root: &Path, settings: &Settings, threads: usize, visit: &(dyn Fn(&Path) + Sync)) -> Walked {
    walk(&[root.to_path_buf()], settings, threads, false, Some(visit))
}

/// A key whose byte order is the order of paths (`Path`'s, component by component): each
/// component as its kind's rank, its bytes and a 0 (no file name holds a 0 byte).
pub fn order_key(path: &Path) -> Vec<u8> {
    use std::path::Component;
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for component in path.components() {
        let rank = match component {
            Component::Prefix(_) => 1,
            Component::RootDir => 2,
            Component::CurDir => 3,
            Component::ParentDir => 4,
            Component::Normal(_) => 5,
        };
        key.push(rank);
        key.extend_from_slice(component.as_os_str().as_encoded_bytes());
        key.push(0);
    }
    key
}

fn walk(
    paths: &[PathBuf],
    settings: &Settings,
    threads: usize,
    force_exclude: bool,
    visit: Option<&(dyn Fn(&Path) + Sync)>,
) -> Walked {
    let files = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let stale = Mutex::new(Vec::new());
    let mut named = std::collections::HashSet::new();
    for path in paths {
        let metadata = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                push(&errors, format!("{}: {}", path.display(), describe_io(&e)));
                continue;
            }
        };
        if !metadata.is_dir() {
            if !(force_exclude && is_walked_past(path, settings)) {
                if let Some(visit) = visit {
                    visit(path);
                }
                push(&files, path.clone());
                named.insert(path.clone());
            }
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
            let stale = &stale;
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
                    if crate::write::is_temporary(entry.file_name()) {
                        // Left by a run killed while fixing: never checked, removed by --fix.
                        if crate::write::is_stale_temporary(entry.path()) {
                            push(stale, entry.into_path());
                        }
                    } else {
                        if let Some(visit) = visit {
                            visit(entry.path());
                        }
                        push(files, entry.into_path());
                    }
                }
                WalkState::Continue
            })
        });
    }
    Walked {
        files: files.into_inner().unwrap_or_else(|e| e.into_inner()),
        named,
        errors: errors.into_inner().unwrap_or_else(|e| e.into_inner()),
        stale_temporaries: stale.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

/// Whether a walk would have passed over `path`: it or a folder above it is excluded or a
/// version-control folder, or `.ignore`/`.gitignore` files (of any folder above it, the
/// repository's `info/exclude`, git's global excludes) ignore it. The folder named on the
/// command line is not excluded by its own name when walked, nor is the current folder here.
pub fn is_walked_past(path: &Path, settings: &Settings) -> bool {
    let named: Vec<&Path> = path
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty() && *a != Path::new("."))
        .collect();
    if named
        .iter()
        .any(|a| settings.is_excluded(a) || a.file_name().is_some_and(is_vcs_name))
    {
        return true;
    }
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf());
    ignored_by_files(&absolute)
}

/// Whether the ignore files above `path` (absolute) ignore it; the nearest file that matches
/// decides, `.ignore` before `.gitignore` in a folder, as in a walk.
fn ignored_by_files(path: &Path) -> bool {
    use ignore::gitignore::{Gitignore, GitignoreBuilder};
    let matcher = |root: &Path, files: &[PathBuf]| -> Option<Gitignore> {
        let mut builder = GitignoreBuilder::new(root);
        for file in files.iter().filter(|f| f.is_file()) {
            // An unreadable or malformed line is skipped, as a walk skips it.
            let _ = builder.add(file);
        }
        builder.build().ok()
    };
    let decide = |gitignore: &Gitignore| {
        // The matcher panics on a path outside its root.
        if !path.starts_with(gitignore.path()) {
            return None;
        }
        let found = gitignore.matched_path_or_any_parents(path, false);
        (!found.is_none()).then(|| found.is_ignore())
    };
    for folder in path.ancestors().skip(1) {
        for name in [".ignore", ".gitignore"] {
            if let Some(ignored) = matcher(folder, &[folder.join(name)]).as_ref().and_then(decide) {
                return ignored;
            }
        }
        if folder.join(".git").exists() {
            let exclude = folder.join(".git").join("info").join("exclude");
            if let Some(ignored) = matcher(folder, &[exclude]).as_ref().and_then(decide) {
                return ignored;
            }
            break;
        }
    }
    // Git's global excludes (read from git's configuration): once per run, not per file.
    static GLOBAL: std::sync::OnceLock<Gitignore> = std::sync::OnceLock::new();
    decide(GLOBAL.get_or_init(|| Gitignore::global().0)).unwrap_or(false)
}

fn is_vcs_folder(entry: &ignore::DirEntry) -> bool {
    entry.file_type().is_some_and(|t| t.is_dir()) && is_vcs_name(entry.file_name())
}

fn is_vcs_name(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|n| crate::settings::VCS_FOLDERS.contains(&n))
}

fn push<T>(list: &Mutex<Vec<T>>, item: T) {
    list.lock().unwrap_or_else(|e| e.into_inner()).push(item);
}

pub use crate::source::describe_io;

/// The files that make a folder a project of its own: a package's manifest.
const PROJECT_MANIFESTS: &[&str] = &[
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "package.json",
    "Cargo.toml",
    "go.mod",
    "deno.json",
];

/// The project a file belongs to: the nearest folder above it holding a package manifest
/// (`pyproject.toml`, `package.json`, ...) or `.git`, else none (the empty path, which every
/// path starts with). A test pins what its package defines, not what a neighbouring package of
/// a monorepo, or a neighbouring repository of the same run, does.
pub fn project_of(path: &Path) -> PathBuf {
    let holds = |folder: &Path, name: &str| folder.join(name).exists();
    path.ancestors()
        .skip(1)
        .filter(|p| !p.as_os_str().is_empty())
        .find(|f| holds(f, ".git") || PROJECT_MANIFESTS.iter().any(|m| holds(f, m)))
        .map(Path::to_path_buf)
        .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_key_orders_paths_as_paths_do() {
        let mut paths: Vec<PathBuf> = [
            "a", "a/b", "a-b", "a.b", "a/b/c", "a/b-c", "a/bc", "/a", "/", "./a", "../a", "..", "b", "a/b/",
            "A", "é/x", "e/x", "a b/c",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let mut by_key = paths.clone();
        paths.sort();
        by_key.sort_by_cached_key(|p| order_key(p));
        assert_eq!(paths, by_key);
    }

    proptest! {
        #[test]
        fn the_key_and_the_path_compare_alike(
            a in "(/|\\./|\\.\\./)?([a-c.\\- ]{1,3}/){0,3}[a-c.\\- ]{0,3}",
            b in "(/|\\./|\\.\\./)?([a-c.\\- ]{1,3}/){0,3}[a-c.\\- ]{0,3}",
        ) {
            let (a, b) = (Path::new(&a), Path::new(&b));
            prop_assert_eq!(a.cmp(b), order_key(a).cmp(&order_key(b)), "{:?} {:?}", a, b);
        }
    }
}
