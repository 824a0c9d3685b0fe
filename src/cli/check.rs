//! The `check` command: walk, check, print; fix or diff.

use std::collections::HashSet;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use super::{CheckArgs, EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS};
use crate::output::{self, Counts, Format, Style};
use crate::run::{self, FileReport, FixMode, Notice, RunOptions};
use crate::settings::{Overrides, Settings};
use crate::walk::{self, display_path};

pub(super) fn check(args: CheckArgs) -> anyhow::Result<u8> {
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
        mode: if args.add_noqa {
            FixMode::AddNoqa
        } else if args.diff {
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
    if options.mode == FixMode::AddNoqa {
        let (added, left) = crate::noqa::totals(&reports);
        if !args.quiet {
            eprintln!("{}", crate::noqa::summary(added, left));
        }
        return Ok(exit_code(had_error, left > 0, args.exit_zero));
    }
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
        FixMode::Apply | FixMode::AddNoqa => {
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
