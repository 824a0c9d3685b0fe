//! The command line (SPEC section 1).

use std::collections::HashSet;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::output::{self, Counts, Format, Style};
use crate::registry::{self, all_rules};
use crate::run::{self, FileReport, FixMode, Notice, RunOptions};
use crate::settings::{Overrides, Settings};
use crate::walk::{self, display_path};

/// Finds code, requests and documents written against the generateContent endpoint and
/// rewrites them for the interactions endpoint.
#[derive(Debug, Parser)]
#[command(name = "interlint", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check files (the default command).
    Check(CheckArgs),
    /// Print the table of every rule: code, name, surfaces, fix.
    Rules {
        /// Print the words the default rule set's prefilter searches (triggers and anchors), one per line (for benchmarks).
        #[arg(long, hide = true)]
        triggers: bool,
    },
    /// Print a rule's documentation (or the rules of a prefix such as MIG).
    #[command(alias = "rule")]
    Explain {
        /// A rule code, such as MIG009.
        code: String,
    },
    /// Print a JSON Schema interlint checks documents against.
    Schema {
        /// The schema's name.
        #[arg(value_enum)]
        name: crate::manifest::SchemaName,
    },
    /// Print a shell completion script.
    Completions { shell: clap_complete::Shell },
}

#[derive(Debug, Default, clap::Args)]
struct CheckArgs {
    /// Files or folders to check, or `-` for standard input [default: .]
    paths: Vec<PathBuf>,
    /// Apply safe fixes in place.
    #[arg(long)]
    fix: bool,
    /// Also apply (with --fix or --diff) or show unsafe fixes.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print a unified diff of the fixes; change no file.
    #[arg(long)]
    diff: bool,
    /// Output format [default: text]
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Rule codes or prefixes to enable (comma-separated), replacing the configuration's.
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = registry::parse_selector)]
    select: Option<Vec<String>>,
    /// Rule codes or prefixes to disable (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = registry::parse_selector)]
    ignore: Vec<String>,
    /// Configuration file [default: interlint.toml, .interlint.toml or [tool.interlint] in pyproject.toml, searched upwards]
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Brand word of model ids; repeatable [default: model, gemini]
    #[arg(long = "model-prefix", value_name = "WORD")]
    model_prefixes: Vec<String>,
    /// Read one file from standard input, checked as if it had this name.
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<PathBuf>,
    /// Exit with 0 even when findings remain.
    #[arg(long)]
    exit_zero: bool,
    /// Print findings and errors only: no summary, no notes, no progress.
    #[arg(long, short)]
    quiet: bool,
    /// Also show what is skipped without a word (binary files).
    #[arg(long, short)]
    verbose: bool,
    /// Never show a progress indicator.
    #[arg(long)]
    no_progress: bool,
    /// Threads to use [default: the number of CPUs]
    #[arg(long, short, value_name = "N")]
    jobs: Option<usize>,
    /// Print the number of findings per rule instead of the findings.
    #[arg(long)]
    statistics: bool,
    /// Apply `exclude` and `.gitignore` to paths named on the command line too (for pre-commit,
    /// which names every file).
    #[arg(long)]
    force_exclude: bool,
    /// Skip files larger than this (bytes, or with a K, M or G suffix) [default: 10M]
    #[arg(long, value_name = "SIZE", value_parser = crate::config::parse_size)]
    max_file_size: Option<u64>,
}

/// Exit statuses (SPEC section 1).
const EXIT_CLEAN: u8 = 0;
const EXIT_FINDINGS: u8 = 1;
const EXIT_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help, version or a usage error; clap prints it, quietly on a closed pipe.
        Err(e) => {
            if let Err(io) = e.print()
                && io.kind() != io::ErrorKind::BrokenPipe
            {
                eprintln!("error: cannot write the output: {}", walk::describe_io(&io));
                return ExitCode::from(EXIT_ERROR);
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_ERROR));
        }
    };
    let result = match cli.command {
        Some(Command::Rules { triggers: false }) => print_rules(),
        Some(Command::Rules { triggers: true }) => print_triggers(),
        Some(Command::Explain { code }) => explain(&code),
        Some(Command::Schema { name }) => print_schema(name),
        Some(Command::Completions { shell }) => print_completions(shell),
        Some(Command::Check(args)) => check(args),
        None => check(cli.check),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // The only I/O errors left to here are the output's: a reader that closed the pipe
            // (`| head`) has what it wanted, as with ripgrep; a full disk is an error.
            match e.downcast_ref::<io::Error>() {
                Some(io) if io.kind() == io::ErrorKind::BrokenPipe => return ExitCode::from(EXIT_CLEAN),
                Some(io) => eprintln!("error: cannot write the output: {}", walk::describe_io(io)),
                None => eprintln!("error: {e:#}"),
            }
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn print_rules() -> anyhow::Result<u8> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let fix = |m: &registry::RuleMeta| match m.fix {
        registry::FixAvailability::None => "none".to_string(),
        _ => m.fix_safety.to_string(),
    };
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
fn print_completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "interlint", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(EXIT_CLEAN)
}

fn print_schema(name: crate::manifest::SchemaName) -> anyhow::Result<u8> {
    io::stdout().lock().write_all(name.text().as_bytes())?;
    Ok(EXIT_CLEAN)
}

fn print_triggers() -> anyhow::Result<u8> {
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

fn explain(code: &str) -> anyhow::Result<u8> {
    let mut out = io::stdout().lock();
    if let Some(rule) = registry::find_rule(code) {
        out.write_all(rule.meta().doc.as_bytes())?;
        out.flush()?;
        return Ok(EXIT_CLEAN);
    }
    let selector = registry::normalize_selector(code);
    // A prefix (`MIG`, `MCP00`): the rules it selects.
    let rules: Vec<_> = all_rules()
        .iter()
        .map(|r| r.meta())
        .filter(|m| !selector.is_empty() && m.code.starts_with(selector.as_str()))
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
    if registry::is_known_selector(&selector) {
        anyhow::bail!(
            "rule {selector} is in the catalogue but not implemented in this version; `interlint rules` lists the rules there are"
        )
    }
    anyhow::bail!("unknown rule `{code}`; `interlint rules` lists every rule")
}

fn check(args: CheckArgs) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()
        .map_err(|e| anyhow::anyhow!("cannot read the current folder: {}", walk::describe_io(&e)))?;
    for prefix in &args.model_prefixes {
        crate::config::validate_prefix(prefix).map_err(|e| anyhow::anyhow!("--model-prefix: {e}"))?;
    }
    let start = match (&args.stdin_filename, args.paths.first()) {
        (Some(name), _) => name
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
        (None, Some(path)) => path.clone(),
        (None, None) => cwd.clone(),
    };
    let loaded = crate::config::load(args.config.as_deref(), &start)?;
    let overrides = Overrides {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        model_prefixes: args.model_prefixes.clone(),
        max_file_size: args.max_file_size,
    };
    let settings = Settings::new(&loaded, overrides, &cwd)?;
    let options = RunOptions {
        mode: if args.diff {
            FixMode::Diff
        } else if args.fix {
            FixMode::Apply
        } else {
            FixMode::Check
        },
        unsafe_fixes: args.unsafe_fixes,
        snippets: args.format.unwrap_or(Format::Text) == Format::Text && !args.statistics,
    };
    let threads = args.jobs.unwrap_or(0);
    if threads > 0 {
        // A second call in the same process (tests) finds the pool already built: harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }

    let dash = Path::new("-");
    if args.paths.iter().any(|p| p == dash) && args.paths.len() > 1 {
        anyhow::bail!("`-` (standard input) cannot be checked together with other paths");
    }
    if let Some(name) = &args.stdin_filename {
        return check_stdin(name, &settings, options, &args, &cwd);
    }
    if args.paths.first().is_some_and(|p| p == dash) {
        return check_stdin(dash, &settings, options, &args, &cwd);
    }

    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let walked = walk::collect(&paths, &settings, threads, args.force_exclude);
    let mut had_error = false;
    for error in &walked.errors {
        eprintln!("error: {error}");
        had_error = true;
    }
    let progress = progress_bar(walked.files.len(), &args);
    let mut reports = run::run(&walked.files, &settings, options, &progress);
    progress.finish_and_clear();
    had_error |= print_notices(&mut reports, &cwd, &walked.named, &args);
    let mut counts = Counts::new(&reports, walked.files.len());
    counts.errors += walked.errors.len();
    let format = args.format.unwrap_or(Format::Text);
    let style = Style {
        color: io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        unsafe_fixes: args.unsafe_fixes,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    if options.mode == FixMode::Diff {
        let mut changed = false;
        for report in &reports {
            changed |= write_diff(&mut out, report, &cwd)?;
        }
        out.flush()?;
        if !args.quiet {
            eprintln!("{}", diff_summary(&counts));
        }
        return Ok(exit_code(had_error, changed, args.exit_zero));
    }
    let located = output::locate(&reports, &cwd);
    if args.statistics {
        output::write_statistics(&mut out, &located, style)?;
    } else {
        output::write_findings(&mut out, format, &located, &counts, style)?;
    }
    // Findings first, then a summary on stderr.
    out.flush()?;
    let summary = counts.summary(args.unsafe_fixes, options.mode == FixMode::Apply);
    if !args.quiet {
        match format {
            Format::Text => writeln!(out, "{summary}")?,
            Format::Concise => eprintln!("{summary}"),
            Format::Json | Format::Sarif | Format::Github => {}
        }
    }
    out.flush()?;
    Ok(exit_code(had_error, counts.findings > 0, args.exit_zero))
}

fn exit_code(had_error: bool, findings: bool, exit_zero: bool) -> u8 {
    if had_error {
        EXIT_ERROR
    } else if findings && !exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// Writes a report's change as a unified diff (with the byte-order mark, so `git apply` matches
/// the file's bytes); returns whether there was one.
fn write_diff(out: &mut impl Write, report: &FileReport, cwd: &Path) -> io::Result<bool> {
    let (Some((old, new)), Some(source)) = (&report.change, &report.text) else {
        return Ok(false);
    };
    let path = display_path(&report.path, cwd);
    let old = String::from_utf8_lossy(&source.encode(old)).into_owned();
    let new = String::from_utf8_lossy(&source.encode(new)).into_owned();
    write!(out, "{}", output::unified_diff(&path, &old, &new))?;
    Ok(true)
}

fn diff_summary(counts: &Counts) -> String {
    let noun = output::findings_noun;
    match (counts.fixed, counts.findings) {
        (0, 0) => "No findings.".to_string(),
        (0, r) => format!("No fixes available ({r} {} remaining).", noun(r)),
        (f, r) => format!("Would fix {f} {} ({r} remaining).", noun(f)),
    }
}

/// Prints each file's notices on stderr; returns whether one was an error. A file named on the
/// command line that was not checked is an error; a binary file found by the walk is shown only
/// with `--verbose`.
fn print_notices(reports: &mut [FileReport], cwd: &Path, named: &HashSet<PathBuf>, args: &CheckArgs) -> bool {
    let mut had_error = false;
    for report in reports {
        let is_named = named.contains(&report.path);
        if is_named {
            report.notices = std::mem::take(&mut report.notices)
                .into_iter()
                .map(Notice::for_named)
                .collect();
        }
        for notice in &report.notices {
            let path = display_path(&report.path, cwd);
            let message = match notice {
                Notice::Binary => "skipped: binary file",
                Notice::Skipped(message) | Notice::Warning(message) | Notice::Error(message) => message,
            };
            let error = matches!(notice, Notice::Error(_)) || is_named && notice.is_skip();
            match notice {
                _ if error => {
                    had_error = true;
                    eprintln!("error: {path}: {message}");
                }
                Notice::Binary if args.verbose && !args.quiet => eprintln!("note: {path}: {message}"),
                Notice::Skipped(_) | Notice::Warning(_) if !args.quiet => {
                    eprintln!("warning: {path}: {message}")
                }
                _ => {}
            }
        }
    }
    had_error
}

/// A progress bar on stderr for runs over many files, only on a terminal.
fn progress_bar(files: usize, args: &CheckArgs) -> indicatif::ProgressBar {
    const MANY_FILES: usize = 200;
    if args.quiet || args.no_progress || files < MANY_FILES || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar =
        indicatif::ProgressBar::with_draw_target(Some(files as u64), indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} checking {pos}/{len} files {wide_bar}")
    {
        bar.set_style(style);
    }
    bar
}

fn check_stdin(
    name: &Path,
    settings: &Settings,
    options: RunOptions,
    args: &CheckArgs,
    cwd: &Path,
) -> anyhow::Result<u8> {
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot read standard input: {}", walk::describe_io(&e)))?;
    let input = bytes.clone();
    let report = run::check_bytes(name, bytes, settings, options, false);
    let mut reports = [report];
    let had_error = print_notices(&mut reports, cwd, &HashSet::from([name.to_path_buf()]), args);
    let report = &reports[0];
    let counts = Counts::new(&reports, 1);
    let style = Style {
        color: false,
        unsafe_fixes: args.unsafe_fixes,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let code = match options.mode {
        FixMode::Apply => {
            // The fixed code goes to stdout, everything else to stderr.
            match (&report.change, &report.text) {
                (Some((_, new)), Some(source)) => out.write_all(&source.encode(new))?,
                _ => out.write_all(&input)?,
            }
            out.flush()?;
            let located = output::locate(&reports, cwd);
            let mut err = io::stderr().lock();
            output::write_findings(&mut err, Format::Concise, &located, &counts, style)?;
            if !args.quiet {
                writeln!(err, "{}", counts.summary(args.unsafe_fixes, true))?;
            }
            exit_code(had_error, counts.findings > 0, args.exit_zero)
        }
        FixMode::Diff => {
            let changed = write_diff(&mut out, report, cwd)?;
            out.flush()?;
            if !args.quiet {
                eprintln!("{}", diff_summary(&counts));
            }
            exit_code(had_error, changed, args.exit_zero)
        }
        FixMode::Check => {
            let located = output::locate(&reports, cwd);
            let format = args.format.unwrap_or(Format::Text);
            output::write_findings(&mut out, format, &located, &counts, style)?;
            if !args.quiet && matches!(format, Format::Text) {
                writeln!(out, "{}", counts.summary(args.unsafe_fixes, false))?;
            }
            exit_code(had_error, counts.findings > 0, args.exit_zero)
        }
    };
    out.flush()?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        use crate::config::parse_size;
        assert_eq!(parse_size("10"), Ok(10));
        assert_eq!(parse_size("10K"), Ok(10 * 1024));
        assert_eq!(parse_size("10MiB"), Ok(10 << 20));
        assert!(parse_size("ten").is_err());
        assert!(parse_size("1T").is_err());
    }

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
