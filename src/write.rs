//! Writing fixed files: atomically, keeping permissions, and never over a file that changed.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

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
    let mut temp = tempfile::NamedTempFile::new_in(dir)
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
