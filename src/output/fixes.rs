//! `--show-fixes`: the fixes applied (or that would be), per file and rule, as ruff lists them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use crate::run::FileReport;
use crate::walk::display_path;

pub fn write_fixes(out: &mut dyn Write, reports: &[FileReport], cwd: &Path, would: bool) -> io::Result<()> {
    let total: usize = reports.iter().map(|r| r.fixed.len()).sum();
    let verb = if would { "Would fix" } else { "Fixed" };
    if total == 0 {
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
    }
    Ok(())
}
