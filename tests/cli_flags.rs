//! Flags and subcommands spelled the way ruff users spell them.

mod common;
use common::{PY, interlint, stderr, stdout, tree};

#[test]
fn selectors_take_spaces_and_lowercase() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(
        dir.path(),
        &[
            "--select",
            "mig009, MIG001",
            "--ignore",
            " mig001",
            "--format",
            "concise",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2);
    let o = interlint(dir.path(), &["--select", "MIG009,XYZ1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown rule code or prefix `XYZ1`"),
        "{}",
        stderr(&o)
    );
    let config = tree(&[
        ("app.py", PY),
        ("interlint.toml", "select = [\"mig\"]\nmax-file-size = \"1K\"\n"),
    ]);
    let o = interlint(config.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn explain_a_prefix_and_rule_as_an_alias() {
    let dir = tree(&[]);
    let o = interlint(dir.path(), &["explain", "mcp"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("MCP001 "), "{out}");
    assert!(out.contains("\nMCP007 "), "{out}");
    assert!(!out.contains("not implemented"), "{out}");
    let o = interlint(dir.path(), &["rule", "MIG009"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("# MIG009 deprecated-model-id"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn max_file_size_with_a_unit_in_the_configuration() {
    let dir = tree(&[("app.py", PY), ("interlint.toml", "max-file-size = \"10\"\n")]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert!(
        stderr(&o).contains("warning: app.py: skipped: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_missing_configuration_file_is_named_once() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--config", "missing.toml", "app.py"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: cannot read configuration file missing.toml: No such file or directory\n"
    );
}

#[test]
fn a_missing_path_that_looks_like_a_command_is_pointed_at_it() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["rlues"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: rlues: no such file or folder; did you mean `interlint rules`?\n"
    );
    let o = interlint(dir.path(), &["explian", "MIG009"]);
    assert!(
        stderr(&o).contains("did you mean `interlint explain`?"),
        "{}",
        stderr(&o)
    );
    // The language server answers to ruff's and rust-analyzer's words for it: `interlint lsp`
    // suggested `interlint mcp` before there was one.
    let o = interlint(dir.path(), &["serve"]);
    assert!(
        stderr(&o).contains("did you mean `interlint server`?"),
        "{}",
        stderr(&o)
    );
    let o = interlint(dir.path(), &["lsp", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("language server"), "{}", stdout(&o));
    // A file of that name is checked as a file; a far-off name is just missing.
    let dir = tree(&[("rlues", "m = \"gemini-2.0-flash\"\n")]);
    assert_eq!(interlint(dir.path(), &["rlues"]).status.code(), Some(1));
    let o = interlint(dir.path(), &["nothing.py"]);
    assert_eq!(
        stderr(&o).lines().next(),
        Some("error: nothing.py: No such file or directory")
    );
}

#[test]
fn notebook_snippets_show_magics_as_written() {
    let notebook = r#"{"cells":[{"cell_type":"code","metadata":{},"execution_count":null,"outputs":[],"source":["%pip install google-generativeai\n","!pip install google-generativeai\n","m = \"gemini-2.0-flash\"\n"]}],"metadata":{},"nbformat":4,"nbformat_minor":5}"#;
    let dir = tree(&[("nb.ipynb", notebook)]);
    let out = stdout(&interlint(dir.path(), &["--select", "MIG011"]));
    assert!(out.contains("\n1 | %pip install google-generativeai\n"), "{out}");
    assert!(out.contains("\n2 | !pip install google-generativeai\n"), "{out}");
    assert!(!out.contains("#pip"), "{out}");
}

#[test]
fn suppressions_written_wrong_are_warned_about() {
    let text = "a = \"gemini-2.0-flash\"  # interlint: ignore MIG009\nb = \"gemini-2.0-flash\"  # interlint: ignore[MIG999]\nc = \"gemini-2.0-flash\"  # interlint: ignore[mig009]\n";
    let dir = tree(&[("app.py", text)]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "warning: app.py: line 1: `interlint: ignore MIG009` suppresses nothing: write `interlint: ignore[MIG009]`, with brackets\n\
         warning: app.py: line 2: `interlint: ignore[MIG999]`: MIG999 is not a rule code or prefix, so it suppresses nothing\n\
         Found 2 findings (2 fixable with --fix).\n"
    );
    // The third line's lowercase code suppresses its finding.
    assert!(!stdout(&o).contains("app.py:3:"), "{}", stdout(&o));
}

#[test]
fn unused_suppressions_are_judged_by_the_rules_enabled() {
    let text = "x = 1  # interlint: ignore[MIG009]\ny = 2  # interlint: ignore[MIG001]\n";
    let dir = tree(&[("app.py", text)]);
    // A file with no word of any other rule: its directives suppress nothing.
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(
        stdout(&o),
        "app.py:1:8: IL001 [*] `interlint: ignore[MIG009]` suppresses nothing\napp.py:2:8: IL001 [*] `interlint: ignore[MIG001]` suppresses nothing\n"
    );
    // A code whose rule is off is not judged.
    let o = interlint(dir.path(), &["--format", "concise", "--select", "MIG001,IL001"]);
    assert_eq!(
        stdout(&o),
        "app.py:2:8: IL001 [*] `interlint: ignore[MIG001]` suppresses nothing\n"
    );
    let o = interlint(dir.path(), &["--fix"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.py")).expect("read"),
        "x = 1\ny = 2\n"
    );
}

#[test]
fn version_subcommand_and_output_format_as_ruff_spells_them() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["version"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("interlint {}\n", env!("CARGO_PKG_VERSION")));
    let flag = interlint(dir.path(), &["--version"]);
    assert_eq!(stdout(&flag), stdout(&o));
    // `--output-format` is `--format`.
    let o = interlint(dir.path(), &["--output-format", "concise", "app.py"]);
    let same = interlint(dir.path(), &["--format", "concise", "app.py"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&same));
    assert!(stdout(&o).lines().count() > 0);
    let o = interlint(dir.path(), &["check", "--output-format", "json", "app.py"]);
    assert!(stdout(&o).trim_start().starts_with('{'), "{}", stdout(&o));
}

#[test]
fn a_selector_of_no_rule_is_an_error_naming_the_closest() {
    let dir = tree(&[("app.py", PY)]);
    // Before, MIG999 (a code the catalogue could hold) selected nothing and "All checks passed."
    let o = interlint(dir.path(), &["--select", "MIG999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`MIG999`: it selects no rule of this version; did you mean `MIG009`?"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("All checks passed"), "{}", stdout(&o));
    let o = interlint(dir.path(), &["--ignore", "IL002"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean `IL001`?"), "{}", stderr(&o));
    let config = tree(&[("app.py", PY), ("interlint.toml", "extend-select = [\"MCP9\"]\n")]);
    let o = interlint(config.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`extend-select`: unknown rule code or prefix `MCP9`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn nothing_checked_is_not_all_checks_passed() {
    let dir = tree(&[("app.py", PY), (".venv/lib.py", PY)]);
    std::fs::create_dir(dir.path().join("empty")).expect("a folder");
    let o = interlint(dir.path(), &["empty"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "No files were checked: no file under the paths given (excluded folders, and files `.gitignore` ignores, are not walked)."
    );
    let o = interlint(
        dir.path(),
        &["app.py", "--select", "MIG001", "--ignore", "MIG001"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("No files were checked: the selection enables no rule"),
        "{}",
        stdout(&o)
    );
    let o = interlint(dir.path(), &[".venv/lib.py", "--force-exclude"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("No files were checked: every file named is excluded"),
        "{}",
        stdout(&o)
    );
    // A run that checked something and found nothing still passes.
    let o = interlint(dir.path(), &["app.py", "--select", "MCP"]);
    assert_eq!(stdout(&o).trim(), "All checks passed.");
}

#[test]
fn stdin_filename_honours_force_exclude() {
    let dir = tree(&[("interlint.toml", "extend-exclude = [\"generated\"]\n")]);
    let o = common::interlint_stdin(
        dir.path(),
        &["--stdin-filename", "generated/app.py", "--force-exclude"],
        PY,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).starts_with("No files were checked: generated/app.py is excluded"),
        "{}",
        stdout(&o)
    );
    // With --fix the text goes back as it came.
    let o = common::interlint_stdin(
        dir.path(),
        &["--stdin-filename", "generated/app.py", "--force-exclude", "--fix"],
        PY,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), PY);
    // Without --force-exclude the name is checked, as ruff checks it.
    let o = common::interlint_stdin(dir.path(), &["--stdin-filename", "generated/app.py"], PY);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn exclude_and_extend_exclude_on_the_command_line() {
    let dir = tree(&[("app.py", PY), ("vendor/lib.py", PY), ("gen/out.py", PY)]);
    let files = |args: &[&str]| {
        let mut all = vec!["--show-files"];
        all.extend_from_slice(args);
        let o = interlint(dir.path(), &all);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o).lines().map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(files(&[]).len(), 3);
    assert_eq!(files(&["--extend-exclude", "vendor"]), ["app.py", "gen/out.py"]);
    assert_eq!(files(&["--exclude", "vendor,gen"]), ["app.py"]);
    assert_eq!(files(&["--exclude", "vendor", "--exclude", "gen"]), ["app.py"]);
    // --exclude replaces the default list: .venv is walked again.
    let venv = tree(&[(".venv/lib.py", PY)]);
    let o = interlint(venv.path(), &["--show-files", "--exclude", "build"]);
    assert_eq!(stdout(&o).trim(), ".venv/lib.py");
    let o = interlint(venv.path(), &["--exclude", "a[b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exclude glob `a[b`"), "{}", stderr(&o));
}

#[test]
fn fix_only_fixes_and_reports_only_the_fixes() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--fix-only"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o).trim(), "Fixed 2 findings.");
    let fixed = std::fs::read_to_string(dir.path().join("app.py")).unwrap_or_default();
    assert!(
        !fixed.contains("gemini-2.0-flash") && !fixed.contains("gemini-2.5-pro"),
        "{fixed}"
    );
    let o = interlint(dir.path(), &["--fix-only"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o).trim(), "No fixes applied.");
    // Findings no safe fix removes: not shown, not an exit status of 1.
    let demo = std::fs::read_to_string("fixtures/demo/app/summarize.py").expect("the demo");
    let left = tree(&[("summarize.py", &demo)]);
    assert_eq!(interlint(left.path(), &[]).status.code(), Some(1));
    let o = interlint(left.path(), &["--fix-only"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = interlint(dir.path(), &["--fix-only", "--diff"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A patch records a change: its findings are reported, but `--fix` leaves it as it is (a patch
/// whose lines are rewritten no longer applies).
#[test]
fn patches_are_reported_but_never_fixed() {
    let patch = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-MODEL = \"gemini-1.5-pro\"\n+MODEL = \"gemini-2.0-flash\"\n";
    let dir = tree(&[
        ("fix.diff", patch),
        ("patches/model.patch", patch),
        ("app.py", "MODEL = \"gemini-2.0-flash\"\n"),
    ]);
    let o = interlint(dir.path(), &["--fix", "--unsafe-fixes", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!(read("fix.diff"), patch);
    assert_eq!(read("patches/model.patch"), patch);
    assert_eq!(read("app.py"), "MODEL = \"gemini-3.5-flash\"\n");
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let findings = json["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 4, "{json}");
    for f in findings {
        assert!(f["fix"].is_null(), "{f}");
        let suggestion = f["suggestion"].as_str().unwrap_or_default();
        assert!(suggestion.contains("no longer applies"), "{suggestion}");
    }
}
