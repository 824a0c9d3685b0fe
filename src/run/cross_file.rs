//! The cross-file id pass: the model ids the test files of a run compare against, found before
//! (or, in a walk, after) the files are checked, so that MIG009's fix of such an id is unsafe
//! in every file of the project, not only in the test (a constant in `src/models.py` that
//! `tests/test_models.py` asserts on). The ids of one document are the analysis's
//! ([`crate::analysis::Analysis::compared_ids`]).
//!
//! Imports the analysis, the surfaces and the run's reports and reading limits (`super`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{FileReport, MINIFIED_LINE, longest_line_over, memchr_nul};
use crate::lang::Surface;
use crate::settings::Settings;
use crate::source::SourceText;

/// The model ids the test files among `files` compare against, each with the first test file
/// (in the order of `files`) that does, as `shown` writes its path: a safe MIG009 fix of such
/// an id in any file would break that test ([`crate::tables::Tables::compared_in_tests`]).
pub fn compared_in_tests(
    files: &[PathBuf],
    settings: &Settings,
    shown: &dyn Fn(&Path) -> String,
) -> crate::tables::ComparedInTests {
    let found: Vec<(PathBuf, Vec<String>)> = files
        .par_iter()
        .with_max_len(4)
        .filter_map(|path| {
            let ids = test_file_ids(path, settings);
            (!ids.is_empty()).then(|| (path.clone(), ids))
        })
        .collect();
    first_test_of_each(found, shown)
}

pub(super) fn first_test_of_each(
    found: Vec<(PathBuf, Vec<String>)>,
    shown: &dyn Fn(&Path) -> String,
) -> crate::tables::ComparedInTests {
    let mut out = crate::tables::ComparedInTests::default();
    for (path, ids) in found {
        let project = crate::walk::project_of(&path);
        for id in ids {
            let tests = out.ids.entry(id).or_default();
            if !tests.iter().any(|(p, _)| *p == project) {
                tests.push((project.clone(), shown(&path)));
            }
        }
    }
    out
}

/// The model ids a test file compares against; nothing for a file that is not a test, or
/// cannot be read (its check says why).
pub(super) fn test_file_ids(path: &Path, settings: &Settings) -> Vec<String> {
    let tables = &settings.tables;
    if !tables.models.tests.is_test_file(path) {
        return Vec::new();
    }
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    if bytes.len() as u64 > settings.max_file_size || memchr_nul(&bytes) {
        return Vec::new();
    }
    let Some(source) = SourceText::decode(bytes) else {
        return Vec::new();
    };
    let surface = Surface::from_path(path);
    if tables.matcher.find(&source.text, 0..source.text.len()).is_empty()
        || longest_line_over(&source.text, MINIFIED_LINE).is_some()
    {
        return Vec::new();
    }
    catch_unwind(AssertUnwindSafe(|| {
        crate::lang::documents(surface, &source.text)
            .iter()
            .flat_map(|doc| {
                crate::analysis::Analysis::new(doc, path, tables)
                    .compared_ids()
                    .ids
                    .clone()
            })
            .collect()
    }))
    .unwrap_or_default()
}

/// A report holds a safe MIG009 fix replacing an id a test of its project compares against
/// (the file is read again: a tree's reports no longer hold their text).
pub(super) fn has_safe_fix_of(report: &FileReport, compared: &crate::tables::ComparedInTests) -> bool {
    let mut fixed = report
        .diagnostics
        .iter()
        .filter(|d| {
            d.rule.code == "MIG009"
                && d.fix
                    .as_ref()
                    .is_some_and(|f| f.applicability == crate::diagnostic::Applicability::Safe)
        })
        .peekable();
    if fixed.peek().is_none() {
        return false;
    }
    let text = match &report.text {
        Some(source) => std::borrow::Cow::Borrowed(&source.text),
        None => match std::fs::read(&report.path).ok().and_then(SourceText::decode) {
            Some(source) => std::borrow::Cow::Owned(source.text),
            None => return false,
        },
    };
    fixed.any(|d| {
        text.get(d.range.clone())
            .is_some_and(|written| compared.test_of(written, &report.path).is_some())
    })
}
