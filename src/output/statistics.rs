//! `--statistics`: one line per rule with its number of findings (or a JSON array of the same
//! rows, as ruff writes them), and under it the reasons its findings were left unrewritten, with
//! how many each holds back and the class of each (`no-counterpart`: a decision for the team;
//! `out-of-scope`; `not-followed`: work by hand): the size of the manual rest of a migration.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{Located, Style};

/// One rule's row: how many findings, and whether one of them has a fix that applies, or one
/// that `--unsafe-fixes` would apply.
#[derive(serde::Serialize)]
struct Row<'a> {
    code: &'a str,
    name: &'a str,
    count: usize,
    fixable: bool,
    /// A finding has an unsafe fix, which needs `--unsafe-fixes` (false with it: `fixable` says).
    unsafe_fixable: bool,
    /// Why findings have no rewrite, most frequent first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    reasons: Vec<Reason>,
}

#[derive(serde::Serialize)]
struct Reason {
    reason: String,
    /// `no-counterpart` (a decision), `out-of-scope` or `not-followed` (work by hand).
    class: &'static str,
    count: usize,
}

/// A reason as a tally's key: its place (`line 12: `, `cell 3, line 2: `, `(line 66)`) dropped and
/// the code it quotes written `…`, so that one cause counts once.
fn reason_key(reason: &str) -> String {
    static PLACE: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?:^|; )(?:cell \d+, )?line \d+: |\s*\(line \d+\)").ok()
    });
    static QUOTE: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"`[^`]*`").ok());
    let mut key = reason.to_string();
    if let Some(place) = PLACE.as_ref() {
        key = place
            .replace_all(
                &key,
                |c: &regex::Captures| if c[0].starts_with("; ") { "; " } else { "" },
            )
            .into_owned();
    }
    if let Some(quote) = QUOTE.as_ref() {
        key = quote.replace_all(&key, "`…`").into_owned();
    }
    key
}

fn rows<'a>(located: &[Located<'a>], style: Style) -> Vec<Row<'a>> {
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    let mut reasons: BTreeMap<&str, BTreeMap<(&'static str, String), usize>> = BTreeMap::new();
    for l in located {
        let rule = l.diagnostic.rule;
        let row = rows.entry(rule.code).or_insert(Row {
            code: rule.code,
            name: rule.name,
            count: 0,
            fixable: false,
            unsafe_fixable: false,
            reasons: Vec::new(),
        });
        row.count += 1;
        row.fixable |= l.fixable(style);
        row.unsafe_fixable |= !style.unsafe_fixes
            && l.diagnostic
                .fix
                .as_ref()
                .is_some_and(|f| f.applicability == crate::diagnostic::Applicability::Unsafe);
        if let Some(reason) = &l.diagnostic.reason
            && !l.fixable(style)
        {
            *reasons
                .entry(rule.code)
                .or_default()
                .entry((
                    l.diagnostic
                        .reason_class
                        .unwrap_or(crate::diagnostic::ReasonClass::NotFollowed)
                        .as_str(),
                    reason_key(reason),
                ))
                .or_default() += 1;
        }
    }
    for (code, tally) in reasons {
        if let Some(row) = rows.get_mut(code) {
            row.reasons = tally
                .into_iter()
                .map(|((class, reason), count)| Reason { reason, class, count })
                .collect();
            row.reasons
                .sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.reason.cmp(&b.reason)));
        }
    }
    let mut rows: Vec<Row> = rows.into_values().collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    rows
}

pub fn write_statistics(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    let rows = rows(located, style);
    let width = rows.iter().map(|r| r.count.to_string().len()).max().unwrap_or(1);
    for row in rows {
        // As ruff marks them: `[*]` a fix `--fix` applies, `[-]` one only `--unsafe-fixes` does.
        let marker = match (row.fixable, row.unsafe_fixable) {
            (true, _) => "[*] ",
            (false, true) => "[-] ",
            (false, false) => "",
        };
        writeln!(out, "{:>width$}\t{}\t{marker}{}", row.count, row.code, row.name)?;
        // Under the rule, each reason its findings were not rewritten, with how many.
        let counts = row
            .reasons
            .iter()
            .map(|r| r.count.to_string().len())
            .max()
            .unwrap_or(1);
        for reason in &row.reasons {
            writeln!(
                out,
                "{:>width$}\t  {:>counts$} × [{}] {}",
                "", reason.count, reason.class, reason.reason
            )?;
        }
    }
    Ok(())
}

pub fn write_statistics_json(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &rows(located, style))?;
    writeln!(out)
}
