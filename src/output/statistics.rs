//! `--statistics`: one line per rule with its number of findings.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{Located, Style};

pub fn write_statistics(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    let mut rows: BTreeMap<&str, (usize, bool, &str)> = BTreeMap::new();
    for l in located {
        let row = rows
            .entry(l.diagnostic.rule.code)
            .or_insert((0, false, l.diagnostic.rule.name));
        row.0 += 1;
        row.1 |= l.fixable(style);
    }
    let mut rows: Vec<_> = rows.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    let width = rows
        .iter()
        .map(|(_, (n, _, _))| n.to_string().len())
        .max()
        .unwrap_or(1);
    for (code, (count, fixable, name)) in rows {
        let marker = if fixable { "[*] " } else { "" };
        writeln!(out, "{count:>width$}\t{code}\t{marker}{name}")?;
    }
    Ok(())
}
