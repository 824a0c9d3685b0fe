//! `--watch`: check, then check again whenever a file under the paths changes.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

use super::CheckArgs;
use crate::settings::Settings;

/// Changes that come together (an editor's save, a fix run) make one new check.
const SETTLE: Duration = Duration::from_millis(150);

/// One check of the paths of the command line (`check`'s, handed in by it: a watch only says
/// when to check again).
pub(super) type CheckPaths = dyn Fn(&CheckArgs, &mut Settings, &Path) -> anyhow::Result<u8>;

/// Runs `check_paths` until interrupted. `make_settings` reads the configuration again when a
/// change touches a configuration file.
pub(super) fn watch(
    args: &CheckArgs,
    settings: Settings,
    cwd: &Path,
    make_settings: &dyn Fn() -> anyhow::Result<Settings>,
    check_paths: &CheckPaths,
) -> anyhow::Result<u8> {
    let (tx, rx) = mpsc::channel();
    let mut watcher =
        notify::recommended_watcher(tx).map_err(|e| anyhow::anyhow!("cannot watch for changes: {e}"))?;
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    for path in &paths {
        watcher
            .watch(path, RecursiveMode::Recursive)
            .map_err(|e| anyhow::anyhow!("cannot watch {}: {e}", path.display()))?;
    }
    let output = args
        .output_file
        .as_ref()
        .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()));
    let own = own_outputs();
    let mut settings = settings;
    loop {
        check_paths(args, &mut settings, cwd)?;
        if !args.quiet {
            eprintln!("Watching for changes (Ctrl-C to stop).");
        }
        let mut changed: Vec<PathBuf> = Vec::new();
        // Wait for a change that matters, then for the changes that come with it.
        while changed.is_empty() {
            let Ok(event) = rx.recv() else {
                return Ok(super::EXIT_CLEAN);
            };
            changed.extend(relevant(event, &settings, output.as_deref(), &own));
        }
        while let Ok(event) = rx.recv_timeout(SETTLE) {
            changed.extend(relevant(event, &settings, output.as_deref(), &own));
        }
        changed.sort();
        changed.dedup();
        let is_config = |p: &PathBuf| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| crate::config::FILE_NAMES.contains(&n) || n == "pyproject.toml")
        };
        if changed.iter().any(is_config) {
            match make_settings() {
                Ok(new) => settings = new,
                Err(e) => eprintln!("error: {e:#} (the previous configuration stays in use)"),
            }
        }
        if !args.quiet {
            let first = crate::walk::display_path(&changed[0], cwd);
            let more = match changed.len() - 1 {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            eprintln!("\nChange in {first}{more}: checking again.");
        }
    }
}

/// The files this process's standard output and error are written to (`2> log.txt` in the
/// watched folder), as (device, inode): what interlint writes there is no change.
#[cfg(unix)]
fn own_outputs() -> Vec<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let id = |fd: std::os::fd::BorrowedFd| {
        let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
        let metadata = file.metadata().ok()?;
        metadata.is_file().then(|| (metadata.dev(), metadata.ino()))
    };
    [id(std::io::stdout().as_fd()), id(std::io::stderr().as_fd())]
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(not(unix))]
fn own_outputs() -> Vec<(u64, u64)> {
    Vec::new()
}

#[cfg(unix)]
fn is_own_output(path: &Path, own: &[(u64, u64)]) -> bool {
    use std::os::unix::fs::MetadataExt;
    !own.is_empty() && std::fs::metadata(path).is_ok_and(|m| own.contains(&(m.dev(), m.ino())))
}

#[cfg(not(unix))]
fn is_own_output(_: &Path, _: &[(u64, u64)]) -> bool {
    false
}

/// The paths of an event that a walk would check (or a configuration file): reading files
/// (access events), interlint's own output (the output file, a redirected standard output or
/// error), files gone again (a fix's temporary file) and ignored folders (`target/`, `.git/`)
/// are no change.
fn relevant(
    event: notify::Result<notify::Event>,
    settings: &Settings,
    output: Option<&Path>,
    own: &[(u64, u64)],
) -> Vec<PathBuf> {
    let Ok(event) = event else {
        return Vec::new();
    };
    if !matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) | EventKind::Any
    ) {
        return Vec::new();
    }
    let removed = matches!(event.kind, EventKind::Remove(_));
    event
        .paths
        .into_iter()
        .filter(|p| removed || p.exists())
        .filter(|p| !is_own_output(p, own))
        .filter(|p| output.is_none_or(|o| std::path::absolute(p).ok().as_deref() != Some(o)))
        .filter(|p| !crate::walk::is_walked_past(p, settings))
        .collect()
}
