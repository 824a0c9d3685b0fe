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
    let name_width = all_rules().iter().map(|r| r.meta().name.len()).max().unwrap_or(4);
    let fix_width = all_rules().iter().map(|r| fix(r.meta()).len()).max().unwrap_or(3);
    writeln!(
        out,
        "{:<8} {:<name_width$} {:<fix_width$} summary (surfaces)",
        "code", "name", "fix"
    )?;
    for rule in all_rules() {
        let m = rule.meta();
        writeln!(
            out,
            "{:<8} {:<name_width$} {:<fix_width$} {} ({})",
            m.code,
            m.name,
            fix(m),
            m.summary,
            m.surfaces
        )?;
    }
    out.flush()?;
    Ok(EXIT_CLEAN)
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
