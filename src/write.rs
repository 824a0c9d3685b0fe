//! Writing fixed files: atomically, keeping permissions, and never over a file that changed.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

/// A fixed file is written to `.NAME.interlint-PID-XXXXXX.tmp` beside it, then renamed over it:
/// a walk passes such files over, and a fix run removes those of a run that is over (one
/// killed half-way leaves its temporary file; the user's file holds its old or its new bytes).
const TEMP_MARK: &str = ".interlint-";
const TEMP_SUFFIX: &str = ".tmp";

/// Whether a file name is one of interlint's temporary files.
pub fn is_temporary(name: &std::ffi::OsStr) -> bool {
    temporary_owner(name).is_some()
}

/// The process id in a temporary file's name.
fn temporary_owner(name: &std::ffi::OsStr) -> Option<u32> {
    let name = name.to_str()?.strip_prefix('.')?.strip_suffix(TEMP_SUFFIX)?;
    let (_, rest) = name.rsplit_once(TEMP_MARK)?;
    let (pid, random) = rest.split_once('-')?;
    (!random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(())?;
    pid.parse().ok()
}

/// Whether a temporary file belongs to a run that is over: its process is gone (where
/// `/proc` tells), else it is over an hour old.
pub fn is_stale_temporary(path: &Path) -> bool {
    let Some(pid) = path.file_name().and_then(temporary_owner) else {
        return false;
    };
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        return pid != std::process::id() && !proc.join(pid.to_string()).exists();
    }
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(3600))
}

/// Replaces the contents of `path` with `contents`, through a temporary file in the same folder
/// and a rename. Refuses when the file is read-only or no longer holds `original`.
pub fn write_atomic(path: &Path, original: &[u8], contents: &[u8]) -> anyhow::Result<()> {
    // Write through a symlink to its target, so the link stays a link.
    let target = std::fs::canonicalize(path).with_context(|| format!("cannot resolve {}", path.display()))?;
    let metadata = std::fs::metadata(&target).with_context(|| format!("cannot read {}", path.display()))?;
    if metadata.permissions().readonly() {
        bail!("the file is read-only; its fixes were not written");
    }
    let current = std::fs::read(&target).with_context(|| format!("cannot read {}", path.display()))?;
    if current != original {
        bail!("the file changed on disk while interlint was running; its fixes were not written");
    }
    let dir = target.parent().unwrap_or_else(|| Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}{TEMP_MARK}{}-", std::process::id()))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    temp.write_all(contents)
        .and_then(|()| temp.as_file().sync_all())
        .with_context(|| format!("cannot write a temporary file in {}", dir.display()))?;
    std::fs::set_permissions(temp.path(), metadata.permissions())
        .with_context(|| format!("cannot set the permissions of {}", path.display()))?;
    temp.persist(&target)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("app.py");
        std::fs::write(&path, "a\n").expect("write");
        write_atomic(&path, b"a\n", b"b\n").expect("written");
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("list").count(),
            1,
            "no temporary file left"
        );
        let own = format!(".app.py.interlint-{}-Ab12Cd.tmp", std::process::id());
        assert!(is_temporary(own.as_ref()));
        assert!(!is_stale_temporary(&dir.path().join(&own)), "this run's own");
        // Process ids are below 2^22 on Linux: this one runs nowhere.
        let gone = ".app.py.interlint-99999999-Ab12Cd.tmp";
        assert!(is_temporary(gone.as_ref()));
        assert!(is_stale_temporary(&dir.path().join(gone)));
        for other in [
            "app.py",
            ".app.py.tmp",
            ".x.interlint-12-.tmp",
            ".x.interlint-ab-Cd.tmp",
            "x.interlint-1-Ab.tmp",
        ] {
            assert!(!is_temporary(other.as_ref()), "{other}");
        }
    }
}
