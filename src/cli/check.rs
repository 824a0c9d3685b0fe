//! The `check` command: walk, check, print; fix or diff.

use std::collections::HashSet;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use super::{CheckArgs, ColorChoice, EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS};
use crate::config::LoadedConfig;
use crate::output::{self, Counts, Format, Level, Message, Style};
use crate::run::{self, FileReport, FixMode, Notice, RunOptions};
use crate::settings::{Overrides, Settings};
use crate::walk::{self, display_path};

pub(super) fn check(mut args: CheckArgs) -> anyhow::Result<u8> {
    // `--fix-only` fixes as `--fix` does; only the report differs.
    args.fix |= args.fix_only;
    refuse_combinations(&args)?;
    if let Some(first) = args.paths.first()
        && std::fs::symlink_metadata(first).is_err()
        && let Some(command) = similar_command(first)
    {
        anyhow::bail!(
            "{}: no such file or folder; did you mean `interlint {command}`?",
            first.display()
        );
    }
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
    let make_settings = || -> anyhow::Result<(LoadedConfig, Settings)> {
        let loaded = crate::config::load_with(&args.config, &start)?;
        let overrides = Overrides {
            select: args.select.clone(),
            extend_select: args.extend_select.clone(),
            ignore: args.ignore.clone(),
            model_prefixes: args.model_prefixes.clone(),
            max_file_size: args.max_file_size,
            exclude: args.exclude.clone(),
            extend_exclude: args.extend_exclude.clone(),
            no_default_excludes: args.no_default_excludes,
        };
        let settings = Settings::new(&loaded, overrides, &cwd)?;
        Ok((loaded, settings))
    };
    let (loaded, mut settings) = make_settings()?;
    if args.show_settings {
        return super::show::settings(&mut output(&args)?, &loaded, &settings, &cwd);
    }
    let threads = args.jobs.unwrap_or(0);
    if threads > 0 {
        // A second call in the same process (tests) finds the pool already built: harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    if let Some(name) = &args.stdin_filename {
        if args.force_exclude && walk::is_walked_past(name, &settings) {
            return stdin_excluded(name, &args, &cwd);
        }
        return check_stdin(name, &settings, &args, &cwd);
    }
    if reads_stdin(&args) {
        return check_stdin(Path::new("-"), &settings, &args, &cwd);
    }
    if args.watch {
        return super::watch::watch(
            &args,
            settings,
            &cwd,
            &|| make_settings().map(|(_, s)| s),
            &check_paths,
        );
    }
    check_paths(&args, &mut settings, &cwd)
}

/// The subcommand a missing path was probably meant to be (`interlint rlues`).
fn similar_command(path: &Path) -> Option<String> {
    use clap::CommandFactory;
    let word = path
        .to_str()
        .filter(|w| w.len() > 2 && w.chars().all(|c| c.is_ascii_alphabetic()))?;
    let word = word.to_ascii_lowercase();
    let cli = super::Cli::command();
    let names = cli
        .get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
        .filter(|name| *name != "help");
    names
        .map(|name| (strsim::damerau_levenshtein(&word, name), name))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, name)| name.to_string())
}

/// Flags that do not go together: refused rather than one of them silently ignored.
fn refuse_combinations(args: &CheckArgs) -> anyhow::Result<()> {
    let format = args.format.unwrap_or(Format::Text);
    let name = |f: Format| {
        clap::ValueEnum::to_possible_value(&f).map_or_else(String::new, |v| v.get_name().to_string())
    };
    if args.diff && format != Format::Text {
        anyhow::bail!(
            "`--diff` writes a unified diff, which has no `--format {}`; leave out one of them",
            name(format)
        );
    }
    if args.statistics && matches!(format, Format::Sarif | Format::Github) {
        anyhow::bail!(
            "`--statistics` is written as a table, or as JSON with `--format json`, not as `--format {}`",
            name(format)
        );
    }
    if args.show_fixes && !(args.fix || args.diff) {
        anyhow::bail!("`--show-fixes` lists the fixes of `--fix` or `--diff`: add one of them");
    }
    let dashes = args.paths.iter().filter(|p| *p == Path::new("-")).count();
    if dashes > 0 && args.paths.len() > 1 {
        anyhow::bail!("`-` (standard input) cannot be checked together with other paths");
    }
    if reads_stdin(args) && (args.watch || args.show_files) {
        anyhow::bail!(
            "standard input cannot be {}",
            if args.watch {
                "watched"
            } else {
                "listed with --show-files"
            }
        );
    }
    Ok(())
}

fn reads_stdin(args: &CheckArgs) -> bool {
    args.stdin_filename.is_some() || args.paths.first().is_some_and(|p| p == Path::new("-"))
}

fn mode(args: &CheckArgs) -> FixMode {
    if args.add_noqa {
        FixMode::AddNoqa
    } else if args.diff {
        FixMode::Diff
    } else if args.fix {
        FixMode::Apply
    } else {
        FixMode::Check
    }
}

fn run_options(args: &CheckArgs) -> RunOptions {
    let format = args.format.unwrap_or(Format::Text);
    // The summary people read counts what the fixes resolve (JSON and SARIF carry each
    // finding's own fix): in a check, and after `--fix` for what `--unsafe-fixes` would add.
    let for_people = matches!(format, Format::Text | Format::Concise) && !args.quiet;
    let count_fixes = for_people
        && match mode(args) {
            FixMode::Check => true,
            FixMode::Apply => !args.fix_only && !args.unsafe_fixes,
            FixMode::Diff | FixMode::AddNoqa => false,
        };
    RunOptions {
        mode: mode(args),
        unsafe_fixes: args.unsafe_fixes,
        snippets: format == Format::Text && !args.statistics,
        keep_changes: false,
        count_fixes,
    }
}

/// Where the findings (or the diff, or the fixed text of standard input) go: standard output,
/// or the file of `--output-file`, made anew with the folders it needs.
pub(super) fn output(args: &CheckArgs) -> anyhow::Result<io::BufWriter<Box<dyn Write>>> {
    let Some(path) = &args.output_file else {
        return Ok(io::BufWriter::new(Box::new(io::stdout().lock())));
    };
    let cannot = |e: io::Error| {
        anyhow::anyhow!(
            "cannot write the output file {}: {}",
            path.display(),
            walk::describe_io(&e)
        )
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(cannot)?;
    }
    let file = std::fs::File::create(path).map_err(cannot)?;
    Ok(io::BufWriter::new(Box::new(file)))
}

/// Colours with `--color always`, or with `auto` when `FORCE_COLOR` is set, or when the text
/// goes to a terminal and `NO_COLOR` is not set.
pub(super) fn style(args: &CheckArgs) -> Style {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("FORCE_COLOR") => true,
        ColorChoice::Auto => args.output_file.is_none() && io::stdout().is_terminal() && !set("NO_COLOR"),
    };
    Style {
        color,
        unsafe_fixes: args.unsafe_fixes,
    }
}

/// One run over the paths of the command line: walk, check (or fix), report.
pub(super) fn check_paths(args: &CheckArgs, settings: &mut Settings, cwd: &Path) -> anyhow::Result<u8> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let threads = args.jobs.unwrap_or(0);
    // One folder checked without fixes: its files are checked while it is walked.
    if let [root] = paths.as_slice()
        && mode(args) == FixMode::Check
        && !args.show_files
        && root.is_dir()
    {
        let mut out = output(args)?;
        let progress = spinner(args);
        let shown = |path: &Path| display_path(path, cwd);
        let (walked, mut reports) =
            run::run_walking(root, settings, run_options(args), threads, &progress, &shown);
        progress.finish_and_clear();
        let mut messages = walk_messages(&walked.errors);
        messages.extend(file_messages(&mut reports, cwd, &walked.named));
        let had_error = print_messages(&messages, args);
        let mut counts = Counts::new(&reports, walked.files.len());
        counts.errors += walked.errors.len();
        counts.nothing_checked = nothing_checked(args, settings, walked.files.len());
        return write_report(args, &reports, &counts, &messages, had_error, cwd, &mut out);
    }
    let walked = walk::collect(&paths, settings, threads, args.force_exclude);
    let mut messages = walk_messages(&walked.errors);
    let mut had_error = print_messages(&messages, args);
    if matches!(mode(args), FixMode::Apply | FixMode::AddNoqa) {
        remove_stale_temporaries(&walked.stale_temporaries, cwd, args.quiet);
    }
    let mut out = output(args)?;
    if args.show_files {
        for file in &walked.files {
            writeln!(out, "{}", display_path(file, cwd))?;
        }
        out.flush()?;
        return Ok(if had_error { EXIT_ERROR } else { EXIT_CLEAN });
    }
    let progress = progress_bar(walked.files.len(), args);
    let shown = |path: &Path| display_path(path, cwd);
    settings.tables.compared_in_tests = run::compared_in_tests(&walked.files, settings, &shown);
    // The folders walked whole: a dependency file under one has all its project's sources here.
    let folders: Vec<PathBuf> = paths.iter().filter(|p| p.is_dir()).cloned().collect();
    let mut reports = run::run_in_phases(
        &walked.files,
        &folders,
        settings,
        run_options(args),
        &progress,
        &shown,
    );
    let settings = &*settings;
    progress.finish_and_clear();
    let file_messages = file_messages(&mut reports, cwd, &walked.named);
    had_error |= print_messages(&file_messages, args);
    messages.extend(file_messages);
    if mode(args) == FixMode::AddNoqa {
        return Ok(noqa_summary(&reports, had_error, args));
    }
    let mut counts = Counts::new(&reports, walked.files.len());
    counts.errors += walked.errors.len();
    counts.nothing_checked = nothing_checked(args, settings, walked.files.len());
    write_report(args, &reports, &counts, &messages, had_error, cwd, &mut out)
}

/// Why no rule ran on any file, when none did: said instead of "All checks passed.", as ruff
/// says "No Python files found".
fn nothing_checked(args: &CheckArgs, settings: &Settings, files: usize) -> Option<String> {
    if settings.rules.is_empty() {
        return Some("the selection enables no rule (`ignore` removes every rule `select` enables)".into());
    }
    if files > 0 {
        return None;
    }
    let named_files = !args.paths.is_empty() && args.paths.iter().all(|p| p.is_file());
    Some(if named_files && args.force_exclude {
        "every file named is excluded (`exclude` or `.gitignore`, applied by `--force-exclude`)".into()
    } else {
        "no file under the paths given (excluded folders, and files `.gitignore` ignores, are not walked)"
            .into()
    })
}

/// `--stdin-filename` naming an excluded file under `--force-exclude`: nothing is checked, as
/// ruff does; with `--fix` the text goes back unchanged.
fn stdin_excluded(name: &Path, args: &CheckArgs, cwd: &Path) -> anyhow::Result<u8> {
    let why = format!(
        "{} is excluded (`exclude` or `.gitignore`, applied by `--force-exclude`)",
        display_path(name, cwd)
    );
    let counts = Counts {
        nothing_checked: Some(why),
        ..Counts::default()
    };
    let mut out = output(args)?;
    if matches!(mode(args), FixMode::Apply | FixMode::AddNoqa) {
        io::copy(&mut io::stdin().lock(), &mut out)
            .map_err(|e| anyhow::anyhow!("cannot read standard input: {}", walk::describe_io(&e)))?;
        out.flush()?;
        if !args.quiet {
            eprintln!("{}", counts.summary(args.unsafe_fixes, true));
        }
        return Ok(EXIT_CLEAN);
    }
    write_report(args, &[], &counts, &[], false, cwd, &mut out)
}

/// `Added N interlint: ignore directives.` on stderr; the exit status says whether findings
/// were left without one.
fn noqa_summary(reports: &[FileReport], had_error: bool, args: &CheckArgs) -> u8 {
    let (added, left) = noqa_totals(reports);
    if !args.quiet {
        eprintln!("{}", crate::noqa::summary(added, left));
    }
    exit_code(had_error, left > 0, args.exit_zero)
}

/// The comments added and the findings left over a run.
fn noqa_totals(reports: &[FileReport]) -> (usize, usize) {
    reports.iter().fold((0, 0), |(added, left), r| {
        (added + r.directives_added, left + r.diagnostics.len())
    })
}

/// Removes the temporary files of a fix run that was killed half-way (its files hold their
/// old or their new bytes; the temporary file is the new bytes of one of them, already renamed
/// or never to be).
fn remove_stale_temporaries(stale: &[PathBuf], cwd: &Path, quiet: bool) {
    for path in stale {
        match std::fs::remove_file(path) {
            Ok(()) if !quiet => eprintln!(
                "note: removed {}, left by an interlint run that was stopped while fixing",
                display_path(path, cwd)
            ),
            Ok(()) => {}
            Err(e) => eprintln!(
                "warning: {}: cannot remove this temporary file of an earlier run: {}",
                display_path(path, cwd),
                walk::describe_io(&e)
            ),
        }
    }
}

/// Writes the findings (or the diff) and the summary, with the run's messages where the format
/// carries them (they are on stderr already); returns the exit status.
fn write_report(
    args: &CheckArgs,
    reports: &[FileReport],
    counts: &Counts,
    messages: &[Message],
    had_error: bool,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<u8> {
    let format = args.format.unwrap_or(Format::Text);
    let style = style(args);
    let fixed = args.exit_non_zero_on_fix && counts.applied > 0;
    if mode(args) == FixMode::Diff {
        let mut changed = false;
        for report in reports {
            changed |= write_diff(out, report, cwd)?;
        }
        out.flush()?;
        if args.show_fixes {
            output::write_fixes(&mut io::stderr().lock(), reports, cwd, true)?;
        }
        if !args.quiet {
            eprintln!("{}", diff_summary(counts));
        }
        return Ok(exit_code(had_error, changed, args.exit_zero));
    }
    if args.fix_only {
        return Ok(fix_only_end(counts, had_error, args));
    }
    let located = output::locate(reports, cwd);
    match (args.statistics, format) {
        (true, Format::Json) => output::write_statistics_json(out, &located, style)?,
        (true, _) => output::write_statistics(out, &located, style)?,
        (false, _) => output::write_findings(out, format, &located, counts, style, messages)?,
    }
    // Findings first, then the fixes listed and the summary (on stderr when the findings are
    // data for a program).
    out.flush()?;
    let for_people = matches!(format, Format::Text | Format::Concise);
    if args.show_fixes {
        match for_people {
            true => output::write_fixes(out, reports, cwd, false)?,
            false => output::write_fixes(&mut io::stderr().lock(), reports, cwd, false)?,
        }
    }
    let summary = counts.summary(args.unsafe_fixes, mode(args) == FixMode::Apply);
    if !args.quiet {
        match format {
            Format::Text => writeln!(out, "{summary}")?,
            Format::Concise => eprintln!("{summary}"),
            Format::Json | Format::Sarif | Format::Github => {}
        }
    }
    out.flush()?;
    Ok(exit_code(had_error, counts.findings > 0 || fixed, args.exit_zero))
}

/// How `--fix-only` ends: its summary on stderr, and an exit status that the findings left do
/// not make 1 (a fix does, with `--exit-non-zero-on-fix`).
fn fix_only_end(counts: &Counts, had_error: bool, args: &CheckArgs) -> u8 {
    if !args.quiet {
        eprintln!("{}", fix_only_summary(counts));
    }
    let fixed = args.exit_non_zero_on_fix && counts.applied > 0;
    exit_code(had_error, fixed, false)
}

/// `--fix-only`'s summary: what was fixed.
fn fix_only_summary(counts: &Counts) -> String {
    match counts.fixed {
        0 if counts.nothing_checked.is_some() && counts.errors == 0 => counts.summary(false, true),
        0 => "No fixes applied.".to_string(),
        n => format!("Fixed {n} {}.", crate::diagnostic::findings_noun(n)),
    }
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
fn write_diff(out: &mut dyn Write, report: &FileReport, cwd: &Path) -> io::Result<bool> {
    let (Some((old, new)), Some(source)) = (&report.change, &report.text) else {
        return Ok(false);
    };
    let path = display_path(&report.path, cwd);
    // A UTF-16 file's diff is shown as text: its bytes would not read as a diff.
    let (old, new) = match source.encoding {
        crate::source::Encoding::Utf8 => (
            String::from_utf8_lossy(&source.encode(old)).into_owned(),
            String::from_utf8_lossy(&source.encode(new)).into_owned(),
        ),
        _ => (old.clone(), new.clone()),
    };
    write!(out, "{}", output::unified_diff(&path, &old, &new))?;
    Ok(true)
}

fn diff_summary(counts: &Counts) -> String {
    let noun = crate::diagnostic::findings_noun;
    let remaining = counts.findings.saturating_sub(counts.new);
    let new = counts.new_findings(false);
    match (counts.fixed, remaining) {
        (0, 0) if counts.new == 0 => "No findings.".to_string(),
        (0, r) => format!("No fixes available ({r} {} remaining).{new}", noun(r)),
        (f, r) => format!("Would fix {f} {} ({r} remaining).{new}", noun(f)),
    }
}

/// The messages of the paths a walk could not read: errors.
fn walk_messages(errors: &[String]) -> Vec<Message> {
    errors
        .iter()
        .map(|error| Message {
            level: Level::Error,
            path: None,
            text: error.clone(),
        })
        .collect()
}

/// Each file's notices as messages. A file named on the command line that was not checked is
/// an error (a binary one is then skipped out loud); a binary file found by the walk is a note,
/// shown only with `--verbose`.
fn file_messages(reports: &mut [FileReport], cwd: &Path, named: &HashSet<PathBuf>) -> Vec<Message> {
    let mut messages = Vec::new();
    for report in reports {
        let is_named = named.contains(&report.path);
        if is_named {
            report.notices = std::mem::take(&mut report.notices)
                .into_iter()
                .map(Notice::for_named)
                .collect();
        }
        let path = display_path(&report.path, cwd);
        for notice in &report.notices {
            let level = if notice.is_error() || is_named && notice.is_skip() {
                Level::Error
            } else if *notice == Notice::Binary {
                Level::Note
            } else {
                Level::Warning
            };
            messages.push(Message {
                level,
                path: Some(path.clone()),
                text: notice.message().to_string(),
            });
        }
    }
    messages
}

/// Prints the messages on stderr: errors always, warnings unless `--quiet`, notes with
/// `--verbose`; returns whether one was an error.
fn print_messages(messages: &[Message], args: &CheckArgs) -> bool {
    let mut had_error = false;
    for message in messages {
        let shown = match message.level {
            Level::Error => {
                had_error = true;
                true
            }
            Level::Warning => !args.quiet,
            Level::Note => args.verbose && !args.quiet,
        };
        if shown {
            eprintln!("{}", message.line());
        }
    }
    had_error
}

/// A progress bar on stderr for runs over many files, only on a terminal.
/// The progress of a walk that checks as it goes: the files checked so far.
fn spinner(args: &CheckArgs) -> indicatif::ProgressBar {
    if args.quiet || args.no_progress || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} checking {pos} files") {
        bar.set_style(style);
    }
    bar
}

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

/// Checks standard input as a file named `name`. With `--fix`, the fixed text goes to the
/// output and everything else to stderr.
fn check_stdin(name: &Path, settings: &Settings, args: &CheckArgs, cwd: &Path) -> anyhow::Result<u8> {
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot read standard input: {}", walk::describe_io(&e)))?;
    let input = bytes.clone();
    let options = run_options(args);
    let report = run::check_bytes(name, bytes, settings, options, false);
    let mut reports = [report];
    let messages = file_messages(&mut reports, cwd, &HashSet::from([name.to_path_buf()]));
    let had_error = print_messages(&messages, args);
    let counts = Counts::new(&reports, 1);
    let mut out = output(args)?;
    if !matches!(options.mode, FixMode::Apply | FixMode::AddNoqa) {
        return write_report(args, &reports, &counts, &messages, had_error, cwd, &mut out);
    }
    // The fixed text (or the text with its comments) goes to the output, the rest to stderr.
    let report = &reports[0];
    match (&report.change, &report.text) {
        (Some((_, new)), Some(source)) => out.write_all(&source.encode(new))?,
        _ => out.write_all(&input)?,
    }
    out.flush()?;
    if args.fix_only {
        return Ok(fix_only_end(&counts, had_error, args));
    }
    let located = output::locate(&reports, cwd);
    let mut err = io::stderr().lock();
    let style = Style {
        color: false,
        ..style(args)
    };
    output::write_findings(&mut err, Format::Concise, &located, &counts, style, &[])?;
    if options.mode == FixMode::AddNoqa {
        return Ok(noqa_summary(&reports, had_error, args));
    }
    if args.show_fixes {
        output::write_fixes(&mut err, &reports, cwd, false)?;
    }
    if !args.quiet {
        writeln!(err, "{}", counts.summary(args.unsafe_fixes, true))?;
    }
    let fixed = args.exit_non_zero_on_fix && counts.applied > 0;
    Ok(exit_code(had_error, counts.findings > 0 || fixed, args.exit_zero))
}
