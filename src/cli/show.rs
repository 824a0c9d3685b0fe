//! `--show-settings`: the settings a check would run with, resolved from the configuration
//! file, `--config` settings and the flags.

use std::io::Write;
use std::path::Path;

use super::EXIT_CLEAN;
use crate::config::LoadedConfig;
use crate::settings::Settings;
use crate::walk::display_path;

pub(super) fn settings(
    out: &mut dyn Write,
    loaded: &LoadedConfig,
    settings: &Settings,
    cwd: &Path,
) -> anyhow::Result<u8> {
    let config = match &loaded.path {
        Some(path) => display_path(path, cwd),
        None => "none (the built-in defaults)".to_string(),
    };
    writeln!(out, "configuration file: {config}")?;
    writeln!(out, "globs are relative to: {}", settings.root.display())?;
    let rules: Vec<&str> = settings.rules.iter().map(|r| r.meta().code).collect();
    writeln!(out, "rules ({}): {}", rules.len(), list(&rules))?;
    writeln!(out, "model prefixes: {}", list(&settings.tables.prefixes))?;
    writeln!(out, "max file size: {} bytes", settings.max_file_size)?;
    writeln!(out, "exclude: {}", list(&settings.exclude_globs))?;
    writeln!(out, "never walked: {}", list(crate::settings::VCS_FOLDERS))?;
    let per_file: Vec<String> = settings
        .per_file_ignores()
        .map(|(glob, codes)| format!("{glob} = {}", codes.join(", ")))
        .collect();
    writeln!(out, "per-file ignores: {}", list(&per_file))?;
    writeln!(out, "models ({}):", settings.tables.models.entries.len())?;
    let models = &settings.tables.models;
    for entry in &models.entries {
        let mut status = entry.status.as_str().to_string();
        if let Some(kind) = models.kind_of(&entry.id) {
            status.push_str(", ");
            status.push_str(&kind.kind);
        }
        if !entry.variants {
            status.push_str(", no variants");
        }
        writeln!(
            out,
            "  {} ({status}) -> {}",
            entry.id,
            entry.replacement.as_deref().unwrap_or("(none)")
        )?;
    }
    let kinds: Vec<String> = models
        .specialised
        .iter()
        .map(|k| format!("{} ({})", k.kind, k.words.join(", ")))
        .collect();
    writeln!(out, "specialised kinds: {}", list(&kinds))?;
    writeln!(
        out,
        "newest generation: {}",
        list(&settings.tables.models.newest_generation)
    )?;
    out.flush()?;
    Ok(EXIT_CLEAN)
}

fn list<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return "(none)".to_string();
    }
    items.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", ")
}
