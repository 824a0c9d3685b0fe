//! `--show-fixes`: the fixes applied (or that would be), per file and rule, as ruff lists them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use crate::run::FileReport;
use crate::walk::display_path;

pub fn write_fixes(out: &mut dyn Write, reports: &[FileReport], cwd: &Path, would: bool) -> io::Result<()> {
    // The findings resolved, as the summary's "N fixed" counts them: a unit's fix also
    // resolves findings with no fix of their own (the reads of its result).
    let total: usize = reports.iter().map(FileReport::resolved).sum();
    let verb = if would { "Would fix" } else { "Fixed" };
    if reports.iter().all(|r| r.fixed.is_empty()) {
        return writeln!(out, "{verb} nothing.");
    }
    writeln!(out, "{verb} {total} {}:", crate::diagnostic::findings_noun(total))?;
    for report in reports.iter().filter(|r| !r.fixed.is_empty()) {
        writeln!(out, "- {}:", display_path(&report.path, cwd))?;
        let mut rules: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for rule in &report.fixed {
            *rules.entry((rule.code, rule.name)).or_default() += 1;
        }
        for ((code, name), n) in rules {
            writeln!(out, "    {n} × {code} ({name})")?;
        }
        let with_them = report.resolved().saturating_sub(report.fixed.len());
        if with_them > 0 {
            let noun = crate::diagnostic::findings_noun(with_them);
            writeln!(out, "    {with_them} {noun} resolved with those fixes")?;
        }
    }
    Ok(())
}
