//! `--statistics`: one line per rule with its number of findings (or a JSON array of the same
//! rows, as ruff writes them).

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{Located, Style};

/// One rule's row: how many findings, and whether one of them has a fix that applies.
#[derive(serde::Serialize)]
struct Row<'a> {
    code: &'a str,
    name: &'a str,
    count: usize,
    fixable: bool,
}

fn rows<'a>(located: &[Located<'a>], style: Style) -> Vec<Row<'a>> {
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for l in located {
        let rule = l.diagnostic.rule;
        let row = rows.entry(rule.code).or_insert(Row {
            code: rule.code,
            name: rule.name,
            count: 0,
            fixable: false,
        });
        row.count += 1;
        row.fixable |= l.fixable(style);
    }
    let mut rows: Vec<Row> = rows.into_values().collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    rows
}

pub fn write_statistics(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    let rows = rows(located, style);
    let width = rows.iter().map(|r| r.count.to_string().len()).max().unwrap_or(1);
    for row in rows {
        let marker = if row.fixable { "[*] " } else { "" };
        writeln!(out, "{:>width$}\t{}\t{marker}{}", row.count, row.code, row.name)?;
    }
    Ok(())
}

pub fn write_statistics_json(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &rows(located, style))?;
    writeln!(out)
}
