//! The subcommands other than `check`: rules, explain, schema, completions.

use std::io::{self, Write};
use std::path::Path;

use clap::CommandFactory;

use super::{Cli, EXIT_CLEAN, RulesFormat};
use crate::codes;
use crate::registry::{self, all_rules};
use crate::settings::{Overrides, Settings};

/// A rule as `rules --format json` writes it.
#[derive(serde::Serialize)]
struct RuleRow {
    code: &'static str,
    name: &'static str,
    summary: &'static str,
    surfaces: &'static str,
    /// "none", "safe", "unsafe" or "safe or unsafe".
    fix: String,
    /// The rule's documentation page (Markdown), as `explain` prints it.
    explanation: &'static str,
}

pub(super) fn print_rules(format: RulesFormat) -> anyhow::Result<u8> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let fix = registry::fix_label;
    if format == RulesFormat::Json {
        let rows: Vec<RuleRow> = all_rules()
            .iter()
            .map(|r| {
                let m = r.meta();
                RuleRow {
                    code: m.code,
                    name: m.name,
                    summary: m.summary,
                    surfaces: m.surfaces,
                    fix: fix(m),
                    explanation: m.doc,
                }
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(EXIT_CLEAN);
    }
    // The table fits the terminal: the fix column says none, safe, unsafe or "safe or unsafe"
    // (the whole sentence is in `--format json` and `explain`), and the summary wraps under
    // itself.
    let name_width = all_rules().iter().map(|r| r.meta().name.len()).max().unwrap_or(4);
    let fix_width = all_rules()
        .iter()
        .map(|r| short_fix(r.meta()).len())
        .max()
        .unwrap_or(3);
    let indent = 8 + 1 + name_width + 1 + fix_width + 1;
    let width = table_width();
    // Too narrow for a summary beside the columns: it goes under them, indented.
    let (indent, beside) = match width.saturating_sub(indent) >= 40 {
        true => (indent, true),
        false => (4, false),
    };
    let header = format!("{:<8} {:<name_width$} {:<fix_width$}", "code", "name", "fix");
    match beside {
        true => writeln!(out, "{header} summary (surfaces)")?,
        false => writeln!(out, "{}\n    summary (surfaces)", header.trim_end())?,
    }
    for rule in all_rules() {
        let m = rule.meta();
        let text = format!("{} ({})", m.summary, m.surfaces);
        let lines = wrap(&text, width.saturating_sub(indent));
        let mut lines = lines.iter();
        let row = format!(
            "{:<8} {:<name_width$} {:<fix_width$}",
            m.code,
            m.name,
            short_fix(m)
        );
        match beside {
            true => writeln!(out, "{row} {}", lines.next().map_or("", String::as_str))?,
            false => writeln!(out, "{}", row.trim_end())?,
        }
        for line in lines {
            writeln!(out, "{:indent$}{line}", "")?;
        }
    }
    out.flush()?;
    Ok(EXIT_CLEAN)
}

/// A rule's fix in a word or three: "none", "safe", "unsafe" or "safe or unsafe".
fn short_fix(m: &crate::diagnostic::RuleMeta) -> &'static str {
    let label = registry::fix_label(m);
    let unsafe_ = label.contains("unsafe");
    let safe = label.replace("unsafe", "").contains("safe");
    match (safe, unsafe_) {
        (true, true) => "safe or unsafe",
        (true, false) => "safe",
        (false, true) => "unsafe",
        (false, false) => "none",
    }
}

/// The width `rules` fits: the terminal's, else `COLUMNS`, else 100 columns.
fn table_width() -> usize {
    if let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size_of(io::stdout()) {
        return usize::from(w);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&c: &usize| c > 0)
        .unwrap_or(100)
}

/// Words of `text` in lines of at most `width` characters (a longer word on a line of its own);
/// under 20 columns, one line.
fn wrap(text: &str, width: usize) -> Vec<String> {
    if width < 20 {
        return vec![text.to_string()];
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    // A word longer than a line is cut into lines of its own.
    let chunks = text.split_whitespace().flat_map(|word| {
        let chars: Vec<char> = word.chars().collect();
        chars
            .chunks(width)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
    });
    for word in chunks {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    lines.push(line);
    lines
}

/// Generated whole, then written: clap_complete panics on a write error.
pub(super) fn print_completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "interlint", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(EXIT_CLEAN)
}

/// `interlint 0.1.0`, as clap prints it for `--version`.
pub(super) fn print_version() -> anyhow::Result<u8> {
    let mut out = io::stdout().lock();
    writeln!(out, "interlint {}", env!("CARGO_PKG_VERSION"))?;
    out.flush()?;
    Ok(EXIT_CLEAN)
}

pub(super) fn print_schema(name: crate::manifest::SchemaName) -> anyhow::Result<u8> {
    io::stdout().lock().write_all(name.text().as_bytes())?;
    Ok(EXIT_CLEAN)
}

pub(super) fn print_triggers() -> anyhow::Result<u8> {
    let settings = Settings::new(
        &crate::config::LoadedConfig::default(),
        Overrides::default(),
        Path::new("."),
    )?;
    let mut words: Vec<String> = settings.prefilter.words().to_vec();
    words.sort();
    words.dedup();
    let mut out = io::BufWriter::new(io::stdout().lock());
    for word in words {
        writeln!(out, "{word}")?;
    }
    out.flush()?;
    Ok(EXIT_CLEAN)
}

pub(super) fn explain(code: &str) -> anyhow::Result<u8> {
    let mut out = io::stdout().lock();
    if let Some(rule) = registry::find_rule(code) {
        out.write_all(rule.meta().doc.as_bytes())?;
        out.flush()?;
        return Ok(EXIT_CLEAN);
    }
    let selector = codes::normalize_selector(code);
    // A prefix (`MIG`, `MCP00`): the rules it selects.
    let rules: Vec<_> = all_rules()
        .iter()
        .map(|r| r.meta())
        .filter(|m| selector == "ALL" || !selector.is_empty() && m.code.starts_with(selector.as_str()))
        .collect();
    if !rules.is_empty() {
        for m in &rules {
            writeln!(out, "{:<8} {:<28} {}", m.code, m.name, m.summary)?;
        }
        writeln!(
            out,
            "\n`interlint explain {}` prints one rule's documentation.",
            rules[0].code
        )?;
        out.flush()?;
        return Ok(EXIT_CLEAN);
    }
    if codes::is_known_selector(&selector) {
        anyhow::bail!(
            "rule {selector} is in the catalogue but not implemented in this version; `interlint rules` lists the rules there are"
        )
    }
    anyhow::bail!("unknown rule `{code}`; `interlint rules` lists every rule")
}
