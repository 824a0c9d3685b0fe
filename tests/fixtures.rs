//! Fixture tests: every file under `fixtures/<rule or case>/` is checked, its findings and the
//! diff of its fully fixed text are snapshotted, and the fixed text is checked again: it must
//! parse no worse than the original, have nothing left to fix, and not change when fixed twice.

use std::fmt::Write as _;
use std::path::Path;

use interlint::config::LoadedConfig;
use interlint::lang::{self, Surface};
use interlint::output::{self, Counts, Format, Style};
use interlint::registry::FixAvailability;
use interlint::run::{self, FixMode, RunOptions};
use interlint::settings::{Overrides, Settings};

fn settings() -> Settings {
    let loaded = LoadedConfig {
        config: Default::default(),
        path: None,
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Settings::new(&loaded, Overrides::default(), root).expect("default settings")
}

fn check(path: &Path, bytes: &[u8], settings: &Settings, mode: FixMode) -> run::FileReport {
    let options = RunOptions {
        mode,
        unsafe_fixes: true,
        ..RunOptions::default()
    };
    run::check_bytes(path, bytes.to_vec(), settings, options, false)
}

/// Findings in the concise format, each followed by its fix or suggestion.
fn describe(report: &run::FileReport, root: &Path) -> String {
    let reports = std::slice::from_ref(report);
    let located = output::locate(reports, root);
    let style = Style {
        color: false,
        unsafe_fixes: true,
    };
    let mut out = String::new();
    for l in &located {
        let mut line = Vec::new();
        output::write_findings(
            &mut line,
            Format::Concise,
            std::slice::from_ref(l),
            &Counts::default(),
            style,
            &[],
        )
        .expect("write to memory");
        out.push_str(&String::from_utf8_lossy(&line));
        let d = l.diagnostic;
        let _ = writeln!(out, "    severity: {}", d.severity.as_str());
        if let Some(fix) = &d.fix {
            let _ = writeln!(out, "    fix ({}): {}", fix.applicability.as_str(), fix.message);
        }
        if let Some(s) = &d.suggestion {
            let _ = writeln!(out, "    suggestion: {s}");
        }
    }
    out
}

/// The prefilter runs only the rules whose words a text holds: every rule run on the text (a
/// fixture, or the text its fixes make) finds nothing more.
fn assert_prefilter_keeps_every_finding(settings: &Settings, path: &Path, text: &str) {
    let surface = Surface::from_path(path);
    let key = |d: &interlint::diagnostic::Diagnostic| (d.rule.code, d.range.clone(), d.message.clone());
    let selected = settings.select(&settings.rules, path, text.as_bytes());
    let filtered = interlint::engine::lint_text(settings, &selected, path, surface, text);
    let every_rule = interlint::engine::lint_text(settings, &settings.rules, path, surface, text);
    assert_eq!(
        filtered.iter().map(key).collect::<Vec<_>>(),
        every_rule.iter().map(key).collect::<Vec<_>>(),
        "the prefilter left out a rule that reports on {}",
        path.display()
    );
}

fn fixture_snapshot(path: &Path, expect_none: bool) -> String {
    let settings = settings();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).expect("fixture readable");
    let checked = check(path, &bytes, &settings, FixMode::Check);
    // What a rule declares about its fixes is what it emits.
    for d in &checked.diagnostics {
        match d.rule.fix {
            FixAvailability::None => assert!(d.fix.is_none(), "{} declares no fix", d.rule.code),
            FixAvailability::Always => assert!(d.fix.is_some(), "{} declares a fix always", d.rule.code),
            FixAvailability::Sometimes => {}
        }
        // ... and its fixes are of the safety it declares (`interlint rules` shows it).
        if let Some(fix) = &d.fix {
            let label = interlint::registry::fix_label(d.rule);
            let declared = match fix.applicability {
                interlint::diagnostic::Applicability::Unsafe => label.contains("unsafe"),
                _ => label.replace("unsafe", "").contains("safe"),
            };
            assert!(
                declared,
                "{} emits a {} fix but declares `{label}`",
                d.rule.code,
                fix.applicability.as_str()
            );
        }
        assert!(
            d.fix.is_some() || d.suggestion.is_some() || d.rule.code == "MIG009",
            "{} has neither a fix nor a suggestion: {}",
            d.rule.code,
            d.message
        );
    }
    if let Some(source) = interlint::source::SourceText::decode(bytes.clone()) {
        assert_prefilter_keeps_every_finding(&settings, path, &source.text);
    }
    if expect_none {
        assert!(
            checked.diagnostics.is_empty(),
            "a negative fixture has findings:\n{}",
            describe(&checked, root)
        );
    }
    let fixed = check(path, &bytes, &settings, FixMode::Diff);
    let mut snapshot = String::from("## Findings\n");
    snapshot.push_str(&describe(&checked, root));
    // Notices (a dropped fix, a notebook read as text) are part of what the fixture asserts.
    for (when, report) in [("check", &checked), ("fix", &fixed)] {
        for notice in &report.notices {
            let _ = writeln!(snapshot, "    notice ({when}): {notice:?}");
        }
    }
    snapshot.push_str("\n## Fixed (--fix --unsafe-fixes)\n");
    match &fixed.change {
        Some((old, new)) => {
            let display = path.strip_prefix(root).unwrap_or(path).display().to_string();
            snapshot.push_str(&output::unified_diff(&display, old, new));
            let surface = Surface::from_path(path);
            assert!(
                lang::syntax_errors(surface, new) <= lang::syntax_errors(surface, old),
                "the fixed text parses worse"
            );
            assert_prefilter_keeps_every_finding(&settings, path, new);
            // Fixed again: nothing changes, nothing fixable remains.
            let again = check(path, new.as_bytes(), &settings, FixMode::Diff);
            assert!(again.change.is_none(), "fixing twice changed the text again");
            assert!(
                again.diagnostics.iter().all(|d| d.fix.is_none()),
                "fixable findings remain after fixing"
            );
        }
        None => snapshot.push_str("(no change)\n"),
    }
    snapshot
}

#[test]
fn mig009_fixtures() {
    insta::glob!("../fixtures/mig009", "*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("mig009", fixture_snapshot(path, false));
        }
    });
}

#[test]
fn python_fixtures() {
    insta::glob!("../fixtures/python", "**/*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("python", fixture_snapshot(path, false));
        }
    });
}

#[test]
fn javascript_fixtures() {
    insta::glob!("../fixtures/javascript", "**/*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("javascript", fixture_snapshot(path, false));
        }
    });
}

#[test]
fn negative_fixtures_have_no_findings() {
    insta::glob!("../fixtures/negatives", "*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("negatives", fixture_snapshot(path, true));
        }
    });
}

#[test]
fn rest_fixtures() {
    insta::glob!("../fixtures/rest", "**/*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("rest", fixture_snapshot(path, false));
        }
    });
}

#[test]
fn manifest_fixtures() {
    insta::glob!("../fixtures/manifest", "*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("manifest", fixture_snapshot(path, false));
        }
    });
}

/// One fixture per defect of the fix engine and per precision case found on real code
/// (issue 14): each must fix cleanly or say why not.
#[test]
fn fix_safety_fixtures() {
    insta::glob!("../fixtures/fix-safety", "**/*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("fix_safety", fixture_snapshot(path, false));
        }
    });
}

#[test]
fn mcp_fixtures() {
    insta::glob!("../fixtures/mcp", "**/*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("mcp", fixture_snapshot(path, false));
        }
    });
}

#[test]
fn suppression_fixtures() {
    insta::glob!("../fixtures/suppression", "*", |path| {
        if path.is_file() {
            insta::assert_snapshot!("suppression", fixture_snapshot(path, false));
        }
    });
}
