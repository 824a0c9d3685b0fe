//! One run over many files: read, prefilter, check or fix, in parallel. The snippet windows of
//! the findings are [`snippets`]'s, the pass over the test files that finds the model ids they
//! compare against is [`cross_file`]'s.

mod cross_file;
mod snippets;

pub use cross_file::compared_in_tests;
use cross_file::{first_test_of_each, has_safe_fix_of, test_file_ids};
pub use snippets::{Place, places};

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::fix::{self, FixStatus};
use crate::lang::Surface;
use crate::registry::Rule;
use crate::settings::Settings;
use crate::source::SourceText;
use crate::walk::describe_io;

/// What a run does with fixes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FixMode {
    /// Report only.
    #[default]
    Check,
    /// Apply fixes and write the files.
    Apply,
    /// Compute fixes and show them as a diff; write nothing.
    Diff,
    /// Add a suppression comment for every finding (`--add-noqa`); fix nothing.
    AddNoqa,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    pub mode: FixMode,
    pub unsafe_fixes: bool,
    /// Keep each finding's source lines for display (the `text` format).
    pub snippets: bool,
    /// Keep the old and new text of each file fixed in place (`FileReport::change`), for a diff
    /// of what was written; else it goes once written (on a monorepo, hundreds of megabytes of
    /// notebooks).
    pub keep_changes: bool,
    /// Count what the fixes would resolve, for a summary people read
    /// ([`FileReport::would_fix`]): in a check, what `--fix` resolves and what
    /// `--unsafe-fixes` then resolves; under `--fix` or `--diff` without unsafe fixes, what
    /// they would resolve of the findings left.
    pub count_fixes: bool,
}

/// A message about a file that is not a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Skipped, as documented (not UTF-8, too large).
    Skipped(String),
    /// A binary file holding a trigger word, skipped without a word (as ruff and ripgrep do),
    /// shown with `--verbose`; an error when the file was named on the command line.
    Binary,
    /// Something the user should know that does not make the run fail (a fix left out).
    Warning(String),
    /// Something went wrong: the run exits with status 2.
    Error(String),
    /// The file could not be read (permission denied, gone since the walk found it): an
    /// error, as [`Notice::Error`], and the file is not counted as checked.
    Unread(String),
}

/// The outcome for one file.
#[derive(Debug, Default)]
pub struct FileReport {
    pub path: PathBuf,
    /// The text the findings refer to (after fixing, when fixes were written): kept only for a
    /// text given on standard input or under `--diff`, which write it out.
    pub text: Option<SourceText>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where each finding is, resolved while the text was at hand.
    pub places: Vec<Place>,
    /// The rule of each fix applied (or, under `--diff`, that would be applied).
    pub fixed: Vec<&'static crate::registry::RuleMeta>,
    /// Under `--fix` or `--diff`: the findings of the file before its fixes. Those resolved
    /// (this less the findings left) are what the summary counts as fixed, so that fixed and
    /// remaining add up to the findings a check reports.
    pub found: Option<usize>,
    /// Under `--fix` or `--diff`: the findings the fixes brought ([`crate::fix::FixOutcome::new`]).
    pub new: usize,
    /// Under `--diff` or for standard input: the original and fixed text.
    pub change: Option<(String, String)>,
    /// Under `--add-noqa`: the suppression comments added or extended.
    pub directives_added: usize,
    /// With [`RunOptions::count_fixes`]: what the fixes would resolve, counted by the fix loop
    /// in the pass that checked the file (a fix of a migration unit resolves findings that
    /// carry no fix of their own; a fix can make another possible in a later pass).
    pub would_fix: Option<crate::fix::WouldFix>,
    /// Whether the file (Python, a notebook, JavaScript or TypeScript) imports a legacy client
    /// package once the run's fixes are made, or may (it could not be read): its project still
    /// depends on the package ([`crate::tables::LegacyImports`]). Not something to report: a
    /// report holding only this is empty.
    pub imports_legacy: bool,
    pub notices: Vec<Notice>,
}

impl Notice {
    /// What the notice says.
    pub fn message(&self) -> &str {
        match self {
            Notice::Binary => "skipped: binary file",
            Notice::Skipped(m) | Notice::Warning(m) | Notice::Error(m) | Notice::Unread(m) => m,
        }
    }

    /// Whether the run exits with status 2 for it.
    pub fn is_error(&self) -> bool {
        matches!(self, Notice::Error(_) | Notice::Unread(_))
    }

    /// Whether the file was not checked.
    pub fn is_skip(&self) -> bool {
        matches!(self, Notice::Skipped(_) | Notice::Binary)
    }

    /// The notice of a file named on the command line: a binary file is skipped out loud.
    pub fn for_named(self) -> Self {
        match self {
            Notice::Binary => Notice::Skipped("skipped: binary file".into()),
            other => other,
        }
    }
}

impl FileReport {
    /// Under `--fix` or `--diff`: the findings the fixes resolved (found before less those left
    /// that were there before).
    pub fn resolved(&self) -> usize {
        let left = self.diagnostics.len().saturating_sub(self.new);
        self.found.map_or(0, |found| found.saturating_sub(left))
    }

    /// Nothing to report: no finding, no fix, no notice.
    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
            && self.fixed.is_empty()
            && self.change.is_none()
            && self.directives_added == 0
            && self.notices.is_empty()
    }

    fn notice(path: &Path, notice: Notice) -> Self {
        FileReport {
            path: path.to_path_buf(),
            notices: vec![notice],
            ..FileReport::default()
        }
    }
}

/// Checks every file, in parallel; the reports of the files with something to say (a finding,
/// a fix, a notice) come back in the order of `files`.
pub fn run(
    files: &[PathBuf],
    settings: &Settings,
    options: RunOptions,
    progress: &indicatif::ProgressBar,
) -> Vec<FileReport> {
    check_files(files, settings, options, progress, &|_| {})
}

/// [`run`], showing each file's report to `seen` before the empty ones are dropped.
fn check_files(
    files: &[PathBuf],
    settings: &Settings,
    options: RunOptions,
    progress: &indicatif::ProgressBar,
    seen: &(dyn Fn(&FileReport) + Sync),
) -> Vec<FileReport> {
    files
        .par_iter()
        // Split down to a few files per task: the files that take long are bunched together
        // (a vendored SDK, a folder of notebooks), and a thread can only take over work that
        // is still split off; with rayon's default, one thread was left alone with a long
        // stretch of them for the last third of a run over a monorepo.
        .with_max_len(4)
        .filter_map(|path| {
            let report = check_path(path, settings, options);
            seen(&report);
            progress.inc(1);
            // Most files of a tree have nothing: a report each would be kept until the end.
            (!report.is_empty()).then_some(report)
        })
        .collect()
}

/// [`run`] over the files of a walk, the dependency files after the sources: whether a
/// dependency file's project still imports a legacy client package, once the fixes of its
/// sources are made, is known only then ([`crate::tables::Tables::legacy_imports`]). `walked`
/// are the folders the walk went through whole (the folders of the command line); `shown`
/// writes a path as the user sees it.
pub fn run_in_phases(
    files: &[PathBuf],
    walked: &[PathBuf],
    settings: &mut Settings,
    options: RunOptions,
    progress: &indicatif::ProgressBar,
    shown: &dyn Fn(&Path) -> String,
) -> Vec<FileReport> {
    let (dependencies, sources): (Vec<PathBuf>, Vec<PathBuf>) = files
        .iter()
        .cloned()
        .partition(|path| crate::analysis::packages::dependency_file_language(path).is_some());
    let importers = std::sync::Mutex::new(Vec::new());
    let mut reports = check_files(&sources, settings, options, progress, &|report| {
        note_importer(report, &importers)
    });
    settings.tables.legacy_imports = legacy_imports(walked, take(&importers), shown);
    if !dependencies.is_empty() {
        reports.extend(run(&dependencies, settings, options, progress));
        reports.sort_by_cached_key(|r| crate::walk::order_key(&r.path));
    }
    reports
}

/// Keeps the path of a source that still imports a legacy client package
/// ([`FileReport::imports_legacy`]).
fn note_importer(report: &FileReport, importers: &std::sync::Mutex<Vec<PathBuf>>) {
    if report.imports_legacy {
        importers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(report.path.clone());
    }
}

fn take(importers: &std::sync::Mutex<Vec<PathBuf>>) -> Vec<PathBuf> {
    std::mem::take(&mut *importers.lock().unwrap_or_else(|e| e.into_inner()))
}

/// What the run knows of the sources that still import a legacy client package
/// ([`crate::tables::LegacyImports`]).
fn legacy_imports(
    walked: &[PathBuf],
    mut paths: Vec<PathBuf>,
    shown: &dyn Fn(&Path) -> String,
) -> crate::tables::LegacyImports {
    paths.sort_by_cached_key(|path| crate::walk::order_key(path));
    let importers = paths
        .into_iter()
        .filter_map(|path| {
            let (language, _) = importing_language(&path)?;
            Some(crate::tables::LegacyImporter {
                shown: shown(&path),
                path,
                language,
            })
        })
        .collect();
    crate::tables::LegacyImports {
        walked: walked.to_vec(),
        importers,
    }
}

/// Walks one folder and checks each file as the walk finds it (see [`walk::stream`]); the
/// reports of the files with something to say come back in the order of their paths, as from
/// [`run`] over the sorted files.
///
/// The dependency files wait until the walk ends: whether their project still imports a legacy
/// client package is known once its sources are checked ([`run_in_phases`]). The test files'
/// compared model ids ([`compared_in_tests`]) are only known once every file is checked: the
/// reports a safe fix of such an id is in are checked again with them.
pub fn run_walking(
    root: &Path,
    settings: &mut Settings,
    options: RunOptions,
    threads: usize,
    progress: &indicatif::ProgressBar,
    shown: &dyn Fn(&Path) -> String,
) -> (crate::walk::Walked, Vec<FileReport>) {
    let reports = std::sync::Mutex::new(Vec::new());
    let compared = std::sync::Mutex::new(Vec::new());
    let importers = std::sync::Mutex::new(Vec::new());
    let dependencies = std::sync::Mutex::new(Vec::new());
    let visit = |path: &Path, settings: &Settings| {
        let report = check_path(path, settings, options);
        note_importer(&report, &importers);
        let ids = test_file_ids(path, settings);
        progress.inc(1);
        if !ids.is_empty() {
            compared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((path.to_path_buf(), ids));
        }
        if !report.is_empty() {
            reports.lock().unwrap_or_else(|e| e.into_inner()).push(report);
        }
    };
    let walked = {
        let settings = &*settings;
        crate::walk::stream(root, settings, threads, &|path| {
            if crate::analysis::packages::dependency_file_language(path).is_some() {
                dependencies
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(path.to_path_buf());
            } else {
                visit(path, settings);
            }
        })
    };
    settings.tables.legacy_imports = legacy_imports(&[root.to_path_buf()], take(&importers), shown);
    let dependencies = dependencies.into_inner().unwrap_or_else(|e| e.into_inner());
    {
        let settings = &*settings;
        dependencies
            .par_iter()
            .with_max_len(4)
            .for_each(|path| visit(path, settings));
    }
    let mut reports = reports.into_inner().unwrap_or_else(|e| e.into_inner());
    reports.sort_by_cached_key(|r| crate::walk::order_key(&r.path));
    let mut compared = compared.into_inner().unwrap_or_else(|e| e.into_inner());
    compared.sort_by_cached_key(|(path, _)| crate::walk::order_key(path));
    settings.tables.compared_in_tests = first_test_of_each(compared, shown);
    if !settings.tables.compared_in_tests.is_empty() {
        let settings = &*settings;
        for report in &mut reports {
            if has_safe_fix_of(report, &settings.tables.compared_in_tests) {
                *report = check_path(&report.path, settings, options);
            }
        }
    }
    (walked, reports)
}

/// Reads and checks one file (fixes, with `options`, are written back under `Apply`).
pub fn check_path(path: &Path, settings: &Settings, options: RunOptions) -> FileReport {
    let cannot_read = |e: std::io::Error| FileReport {
        imports_legacy: may_import(path),
        ..FileReport::notice(path, Notice::Unread(format!("cannot read: {}", describe_io(&e))))
    };
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return cannot_read(e),
    };
    let len = match file.metadata() {
        Ok(m) => m.len(),
        Err(e) => return cannot_read(e),
    };
    if len > settings.max_file_size {
        return FileReport {
            imports_legacy: may_import(path),
            ..FileReport::notice(
                path,
                Notice::Skipped(format!(
                    "skipped: {len} bytes is over the --max-file-size of {} bytes",
                    settings.max_file_size
                )),
            )
        };
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0).saturating_add(1));
    if let Err(e) = std::io::Read::read_to_end(&mut file, &mut bytes) {
        return cannot_read(e);
    }
    check_bytes(path, bytes, settings, options, true)
}

/// Checks one file's contents; with `write`, fixes go back to `path`.
pub fn check_bytes(
    path: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
    options: RunOptions,
    write: bool,
) -> FileReport {
    // A UTF-16 file (Windows tools write them, with a byte-order mark) is read as its text:
    // the words are searched for, and NUL bytes looked for, in UTF-8.
    let mut utf16 = None;
    let bytes = if crate::source::utf16_encoding(&bytes).is_some() {
        match SourceText::decode_any(bytes) {
            crate::source::Decoded::Text(source) => {
                let text = source.text.clone().into_bytes();
                utf16 = Some(source);
                text
            }
            _ => {
                return FileReport {
                    imports_legacy: may_import(path),
                    ..FileReport::notice(
                        path,
                        Notice::Skipped(
                            "skipped: starts with a UTF-16 byte-order mark but is not valid UTF-16".into(),
                        ),
                    )
                };
            }
        }
    } else {
        bytes
    };
    // Most files of a tree have none of the words: they are turned away before the path is
    // matched against `per-file-ignores`.
    let selected = settings.select(&settings.rules, path, &bytes);
    if selected.is_empty() {
        // No rule's word, but perhaps a legacy import no rule reads for itself
        // (`from google import generativeai`).
        let imports_legacy = names_legacy(path, &bytes, &settings.tables)
            && std::str::from_utf8(&bytes).map_or(true, |text| imports_legacy(path, text, &settings.tables));
        return FileReport {
            path: path.to_path_buf(),
            imports_legacy,
            ..FileReport::default()
        };
    }
    let enabled = settings.rules_for(path);
    // A fix changes the text the rules read: `fix_text` selects again, among every rule
    // enabled for the file, for each text it makes.
    let rules = match options.mode {
        FixMode::Check | FixMode::AddNoqa => selected
            .into_iter()
            .filter(|r| enabled.iter().any(|e| crate::registry::same_rule(*e, *r)))
            .collect(),
        FixMode::Apply | FixMode::Diff => enabled,
    };
    if utf16.is_none() && memchr_nul(&bytes) {
        // A `.ts` video stream, say; a source that names the legacy package may import it.
        return FileReport {
            imports_legacy: names_legacy(path, &bytes, &settings.tables),
            ..FileReport::notice(path, Notice::Binary)
        };
    }
    let Some(source) = utf16.or_else(|| SourceText::decode(bytes)) else {
        return FileReport {
            imports_legacy: may_import(path),
            ..FileReport::notice(path, Notice::Skipped("skipped: not valid UTF-8".into()))
        };
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut report = check_source(path, source, &rules, settings, options, write);
        if let Some(source) = &report.text {
            report.places = places(&source.text, &report.diagnostics, options.snippets);
        }
        // A file of a tree is not written out again: its text goes now, not after the run.
        if write && options.mode != FixMode::Diff {
            report.text = None;
            if !options.keep_changes {
                report.change = None;
            }
        }
        report
    }));
    outcome.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        FileReport {
            imports_legacy: may_import(path),
            ..FileReport::notice(
                path,
                Notice::Error(format!(
                    "internal error while checking this file ({what}); please report it at the interlint issue tracker"
                )),
            )
        }
    })
}

fn memchr_nul(bytes: &[u8]) -> bool {
    bytes.contains(&0)
}

/// Whether a file that was not read may import a legacy client package: a source too large
/// to read, or one that could not be read.
fn may_import(path: &Path) -> bool {
    crate::tables::ClientLanguage::of_source(Surface::from_path(path)).is_some()
}

/// The language of the client package a file can import, and whether its imports are read
/// from its syntax tree. The scripts of web pages and components (`.html`, `.vue`, `.svelte`,
/// `.astro`) are not parsed: naming the package there counts as importing it.
fn importing_language(path: &Path) -> Option<(crate::tables::ClientLanguage, bool)> {
    if let Some(language) = crate::tables::ClientLanguage::of_source(Surface::from_path(path)) {
        return Some((language, true));
    }
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    matches!(extension.as_str(), "html" | "htm" | "vue" | "svelte" | "astro")
        .then_some((crate::tables::ClientLanguage::JavaScript, false))
}

/// Whether a source's bytes name a legacy client package's import path at all.
fn names_legacy(path: &Path, bytes: &[u8], tables: &crate::tables::Tables) -> bool {
    importing_language(path).is_some_and(|(language, _)| {
        crate::analysis::packages::legacy_import_words(tables, language)
            .iter()
            .any(|word| memchr::memmem::find(bytes, word.as_bytes()).is_some())
    })
}

/// [`FileReport::imports_legacy`] of a source's text as the fixes leave it.
fn imports_legacy(path: &Path, text: &str, tables: &crate::tables::Tables) -> bool {
    if !names_legacy(path, text.as_bytes(), tables) {
        return false;
    }
    // Minified code is checked as text, not parsed; a web page's scripts are not parsed either.
    if longest_line_over(text, MINIFIED_LINE).is_some()
        || importing_language(path).is_some_and(|(_, parsed)| !parsed)
    {
        return true;
    }
    let surface = Surface::from_path(path);
    catch_unwind(AssertUnwindSafe(|| {
        crate::lang::documents(surface, text)
            .iter()
            .any(|doc| crate::analysis::packages::imports_legacy_package(doc, tables))
    }))
    .unwrap_or(true)
}

/// The suppression directives of a text written wrong ([`crate::suppress::problems`]), at
/// their offsets in the file: a notebook's are read in its cells, not in its JSON lines.
fn directive_problems(surface: Surface, text: &str) -> Vec<(usize, String)> {
    if surface != Surface::Notebook || !text.contains("interlint:") {
        return crate::suppress::problems(text);
    }
    let mut found: Vec<(usize, String)> = crate::lang::documents(surface, text)
        .iter()
        .flat_map(|doc| {
            crate::suppress::problems(&doc.text)
                .into_iter()
                .map(|(at, problem)| (doc.map.as_ref().map_or(at, |m| m.offset(at)), problem))
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// A line this long marks minified code, which is checked as text.
const MINIFIED_LINE: usize = 256 * 1024;

/// The length of the text's longest line, when it is over `limit` bytes.
fn longest_line_over(text: &str, limit: usize) -> Option<usize> {
    if text.len() <= limit {
        return None;
    }
    let longest = text.split('\n').map(str::len).max().unwrap_or(0);
    (longest > limit).then_some(longest)
}

/// A file this big is checked while no other is (`BIG_FILE_LOCK`): its syntax tree takes
/// forty times its size (1.2 MB of JavaScript: 40 MB), and on a monorepo a vendored SDK's
/// bundles come side by side (three of them in `@google/genai/dist`).
const BIG_FILE: usize = 512 * 1024;

static BIG_FILE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The turn of a big file: when it ends, the memory its syntax tree took goes back to the
/// system. glibc keeps freed memory in each thread's arena for reuse, and a run over a
/// monorepo, whose threads each parse a few big files, otherwise ends up holding the peak of
/// every thread at once.
struct BigFile<'a> {
    _turn: std::sync::MutexGuard<'a, ()>,
}

impl Drop for BigFile<'_> {
    fn drop(&mut self) {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: malloc_trim only hands free pages back; it touches no memory in use.
        unsafe {
            libc::malloc_trim(0);
        }
    }
}

/// A JSON document with more values than this is a data file, which is checked as text.
const JSON_DATA_VALUES: usize = 100_000;

/// Whether a JSON text holds more than `limit` values, counted by the `{`, `[`, `:` and `,`
/// outside strings. Each takes a byte, so a shorter text is not read.
fn json_values_over(text: &str, limit: usize) -> bool {
    if text.len() <= limit {
        return false;
    }
    let (mut count, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b'{' | b'[' | b':' | b',') {
            count += 1;
            if count > limit {
                return true;
            }
        }
    }
    false
}

fn check_source(
    path: &Path,
    source: SourceText,
    rules: &[&'static dyn Rule],
    settings: &Settings,
    options: RunOptions,
    write: bool,
) -> FileReport {
    let mut surface = Surface::from_path(path);
    let mut report = FileReport {
        path: path.to_path_buf(),
        ..FileReport::default()
    };
    if matches!(surface, Surface::JavaScript | Surface::TypeScript | Surface::Tsx)
        && let Some(longest) = longest_line_over(&source.text, MINIFIED_LINE)
    {
        // A minified bundle: its syntax tree would take over a hundred times its size in
        // memory (10 MB of code: 1.2 GB), for findings no one fixes in a build's output.
        surface = Surface::Text(crate::lang::CommentStyle::Slash);
        report.notices.push(Notice::Warning(format!(
            "a line of {longest} bytes (minified code): checked as text, for model ids and endpoint URLs only"
        )));
    }
    if surface == Surface::Json && json_values_over(&source.text, JSON_DATA_VALUES) {
        // Its syntax tree would take some 300 bytes a value (a million keys: 570 MB), and a
        // data file of this size is no request body. JSON has no comments: --add-noqa
        // leaves it, as it leaves a parsed one.
        surface = Surface::Text(crate::lang::CommentStyle::None);
        report.notices.push(Notice::Warning(format!(
            "over {JSON_DATA_VALUES} JSON values (a data file): checked as text, for model ids and endpoint URLs only"
        )));
    }
    if surface == Surface::Notebook
        && let Some(reason) = crate::lang::notebook::invalid_json(&source.text)
    {
        report.notices.push(Notice::Warning(format!(
            "not valid notebook JSON: {reason}, checked as text"
        )));
    }
    // Held to the end of the check. Safe: nothing in a file's check runs on the thread pool.
    let _big = (source.text.len() > BIG_FILE).then(|| BigFile {
        _turn: BIG_FILE_LOCK.lock().unwrap_or_else(|e| e.into_inner()),
    });
    let problems = directive_problems(surface, &source.text);
    if !problems.is_empty() {
        let index = crate::source::LineIndex::new(&source.text);
        for (at, problem) in problems {
            let line = index.line_of(at) + 1;
            report
                .notices
                .push(Notice::Warning(format!("line {line}: {problem}")));
        }
    }
    if options.mode == FixMode::AddNoqa {
        return add_noqa(report, source, rules, settings, surface, write);
    }
    let file = fix::FileText {
        path,
        surface,
        text: &source.text,
        line_ending: source.line_ending,
    };
    if options.mode == FixMode::Check && options.count_fixes {
        let (diagnostics, errors) =
            crate::engine::lint_text_and_errors(settings, rules, path, surface, &source.text);
        let mut left = None;
        if diagnostics.iter().any(|d| d.applicable_fix(true).is_some()) {
            let start = fix::Start {
                diagnostics: diagnostics.clone(),
                errors: errors.saturating_add(fix::toml_errors(path, &source.text)),
            };
            let enabled = settings.rules_for(path);
            let (would, text) = fix::would_fix(settings, &enabled, &file, start, options.unsafe_fixes);
            report.would_fix = Some(would);
            left = text;
        }
        // What the fixes counted leave: the legacy dependency's own fix is unsafe, and counted
        // with the unsafe fixes that remove the last legacy import.
        report.imports_legacy =
            imports_legacy(path, left.as_deref().unwrap_or(&source.text), &settings.tables);
        report.diagnostics = diagnostics;
        report.text = Some(source);
        return report;
    }
    if options.mode == FixMode::Check {
        // Without counting, no fix loop runs: the sources as they are.
        report.imports_legacy = imports_legacy(path, &source.text, &settings.tables);
        report.diagnostics = crate::engine::lint_text(settings, rules, path, surface, &source.text);
        report.text = Some(source);
        return report;
    }
    let outcome = fix::fix_text(
        settings,
        rules,
        path,
        surface,
        &source.text,
        source.line_ending,
        options.unsafe_fixes,
    );
    match &outcome.status {
        FixStatus::Done => {}
        FixStatus::NotConverged { rules } => report.notices.push(Notice::Error(format!(
            "fixes did not converge after {} passes (rules {}); the file was not changed",
            fix::MAX_PASSES,
            rules.join(", ")
        ))),
    }
    for dropped in &outcome.dropped {
        report.notices.push(Notice::Warning(format!(
            "the fix of {} at {} was not applied: {}; the file's other fixes were",
            dropped.code, dropped.location, dropped.reason
        )));
    }
    let mut left = None;
    if options.count_fixes && !options.unsafe_fixes && outcome.status == FixStatus::Done {
        let fixed = fix::FileText {
            text: &outcome.text,
            ..file
        };
        let start = fix::Start {
            diagnostics: outcome.remaining.clone(),
            errors: outcome.errors,
        };
        let (more_unsafe, text) = fix::more_unsafe(settings, rules, &fixed, start);
        report.would_fix = Some(fix::WouldFix {
            fixable: 0,
            more_unsafe,
        });
        left = text;
    }
    // What the fixes leave (those counted for "more with --unsafe-fixes" too).
    report.imports_legacy = imports_legacy(path, left.as_deref().unwrap_or(&outcome.text), &settings.tables);
    report.fixed = outcome.fixed;
    report.found = Some(outcome.found);
    report.new = outcome.new;
    report.diagnostics = outcome.remaining;
    if outcome.text != source.text {
        if options.mode == FixMode::Apply
            && write
            // The bytes read are the decoded text re-encoded: nothing else needs keeping.
            && let Err(e) = crate::write::write_atomic(path, &source.encode(&source.text), &source.encode(&outcome.text))
        {
            report.notices.push(Notice::Error(format!("{e:#}")));
            // Nothing was written: the findings are those of the file as it is.
            report.imports_legacy = imports_legacy(path, &source.text, &settings.tables);
            report.fixed = Vec::new();
            report.diagnostics = crate::engine::lint_text(settings, rules, path, surface, &source.text);
            report.found = Some(report.diagnostics.len());
            report.new = 0;
            report.text = Some(source);
            return report;
        }
        report.change = Some((source.text.clone(), outcome.text.clone()));
    }
    // The remaining findings refer to the fixed text (under --diff: the text as it would be).
    report.text = Some(SourceText {
        text: outcome.text,
        ..source
    });
    report
}

/// `--add-noqa`: the file with a suppression comment for every finding that can have one,
/// written when `write`; the findings left are the report's, with a warning saying why.
fn add_noqa(
    mut report: FileReport,
    source: SourceText,
    rules: &[&'static dyn Rule],
    settings: &Settings,
    surface: Surface,
    write: bool,
) -> FileReport {
    let path = report.path.clone();
    let outcome = crate::noqa::add_noqa(settings, rules, &path, surface, &source.text, source.line_ending);
    if let Some(warning) = crate::noqa::left_warning(&outcome.left) {
        report.notices.push(Notice::Warning(warning));
    }
    report.diagnostics = outcome.left.into_iter().map(|(d, _)| d).collect();
    if outcome.text != source.text {
        if write
            && let Err(e) =
                crate::write::write_atomic(&path, &source.encode(&source.text), &source.encode(&outcome.text))
        {
            report.notices.push(Notice::Error(format!("{e:#}")));
            // Nothing was written: the findings are those of the file as it is.
            report.diagnostics = crate::engine::lint_text(settings, rules, &path, surface, &source.text);
            report.text = Some(source);
            return report;
        }
        report.directives_added = outcome.added;
        report.change = Some((source.text.clone(), outcome.text.clone()));
    }
    report.text = Some(SourceText {
        text: outcome.text,
        ..source
    });
    report
}
