//! The command line as users run it: exit codes, formats, and the safety of `--fix`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use std::io::Write;

mod common;
use common::{PY, interlint, stderr, stdout, tree};

#[test]
fn text_format_and_exit_code_1() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["check", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    insta::assert_snapshot!("text", stdout(&o));
}

#[test]
fn default_command_is_check() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn concise_is_one_line_per_finding() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--format", "concise", "app.py"]);
    insta::assert_snapshot!("concise", stdout(&o));
    assert_eq!(stderr(&o).trim(), "Found 2 findings (2 fixable with --fix).");
}

#[test]
fn json_format() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--format", "json", "app.py"]);
    assert_eq!(o.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(value["version"], 1);
    assert_eq!(value["summary"]["findings"], 2);
    insta::assert_snapshot!("json", stdout(&o));
}

#[test]
fn sarif_format() {
    let dir = tree(&[("src/app.py", PY)]);
    let o = interlint(dir.path(), &["--format", "sarif"]);
    let value: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(value["version"], "2.1.0");
    let run = &value["runs"][0];
    assert!(
        run["tool"]["driver"]["rules"][0]["help"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("Fix safety"))
    );
    let location = &run["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/app.py");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 4);
    assert_eq!(location["region"]["startColumn"], 42);
    let replacement = &run["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(replacement["insertedContent"]["text"], "gemini-3.5-flash");
}

#[test]
fn github_format() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--format", "github", "app.py"]);
    insta::assert_snapshot!("github", stdout(&o));
}

#[test]
fn statistics() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--statistics", "app.py"]);
    assert!(
        stdout(&o).starts_with("2\tMIG009\t[*] deprecated-model-id\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn clean_tree_exits_0() {
    let dir = tree(&[("app.py", "import requests\nprint(requests.get(url).text)\n")]);
    let o = interlint(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim(), "All checks passed.");
}

#[test]
fn exit_zero_and_quiet() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--exit-zero", "--quiet", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
}

#[test]
fn diff_touches_no_file() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--diff"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("diff", stdout(&o));
    assert_eq!(stderr(&o).trim(), "Would fix 2 findings (0 remaining).");
    assert_eq!(fs::read_to_string(dir.path().join("app.py")).expect("read"), PY);
    // The diff applies with git.
    let git = Command::new("git")
        .args(["apply", "--check", "-"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .spawn();
    if let Ok(mut child) = git {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&o.stdout)
            .expect("write");
        assert!(child.wait().expect("git runs").success());
    }
    // No change to show: exit 0.
    let clean = tree(&[("a.py", "x = 1\n")]);
    assert_eq!(interlint(clean.path(), &["--diff"]).status.code(), Some(0));
}

#[test]
fn fix_twice_is_idempotent() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--fix"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("Found 2 findings (2 fixed, 0 remaining)."),
        "{}",
        stdout(&o)
    );
    let fixed = fs::read_to_string(dir.path().join("app.py")).expect("read");
    assert_eq!(
        fixed,
        PY.replace("gemini-2.0-flash", "gemini-3.5-flash")
            .replace("gemini-2.5-pro", "gemini-3.1-pro-preview")
    );
    let again = interlint(dir.path(), &["--fix"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(
        fs::read_to_string(dir.path().join("app.py")).expect("read"),
        fixed
    );
}

#[test]
fn crlf_bom_and_permissions_are_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("win.py");
    let original = b"\xEF\xBB\xBFm = \"gemini-2.0-flash\"\r\n# caf\xC3\xA9\r\nn = 1";
    fs::write(&path, original).expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
    let o = interlint(dir.path(), &["--fix", "win.py"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fixed = fs::read(&path).expect("read");
    assert_eq!(
        fixed,
        b"\xEF\xBB\xBFm = \"gemini-3.5-flash\"\r\n# caf\xC3\xA9\r\nn = 1"
    );
    let mode = fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn read_only_file_is_an_error_and_others_are_fixed() {
    let dir = tree(&[("a.py", PY), ("b.py", PY)]);
    let ro = dir.path().join("a.py");
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).expect("chmod");
    let o = interlint(dir.path(), &["--fix", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error: a.py: the file is read-only"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read_to_string(&ro).expect("read"), PY);
    assert!(
        !fs::read_to_string(dir.path().join("b.py"))
            .expect("read")
            .contains("gemini-2.0-flash")
    );
    // The unfixed file's findings are still reported.
    assert_eq!(stdout(&o).lines().filter(|l| l.starts_with("a.py:")).count(), 2);
}

#[test]
fn nonexistent_path_exits_2() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["missing.py", "app.py"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error: missing.py: No such file or directory"),
        "{}",
        stderr(&o)
    );
    // Findings of the other path are still printed.
    assert!(stdout(&o).contains("app.py:4:42"));
}

#[test]
fn invalid_config_names_the_key() {
    let dir = tree(&[("interlint.toml", "selct = [\"MIG\"]\n"), ("app.py", PY)]);
    let o = interlint(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("interlint.toml") && err.contains("selct"), "{err}");
    let dir = tree(&[
        ("pyproject.toml", "[tool.interlint]\nignore = [\"NOPE\"]\n"),
        ("app.py", PY),
    ]);
    let o = interlint(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`ignore`: unknown rule code or prefix `NOPE`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unknown_selector_on_the_command_line_exits_2() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--select", "FOO"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("FOO"));
}

#[test]
fn config_is_found_upwards_and_applies() {
    let config = "ignore = [\"MIG009\"]\n";
    let dir = tree(&[
        ("pyproject.toml", &format!("[tool.interlint]\n{config}")),
        ("pkg/app.py", PY),
    ]);
    let o = interlint(&dir.path().join("pkg"), &["app.py"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // The command line can select it back.
    let o = interlint(&dir.path().join("pkg"), &["--select", "MIG009", "app.py"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn config_extra_models_prefixes_exclude_and_per_file_ignores() {
    let config = r#"
model-prefixes = ["gemini"]
exclude = ["vendor"]
[per-file-ignores]
"docs/*.md" = ["MIG009"]
[[model]]
id = "acme-tuned-1"
status = "deprecated"
replacement = "acme-tuned-2"
"#;
    let dir = tree(&[
        ("interlint.toml", config),
        (
            "a.py",
            "a = \"acme-tuned-1\"\nb = \"model-2.0-flash\"\nc = \"gemini-2.0-flash\"\n",
        ),
        ("vendor/v.py", PY),
        ("docs/guide.md", "Use gemini-2.0-flash.\n"),
    ]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    insta::assert_snapshot!("config_effects", stdout(&o));
    // An excluded file named on the command line is still checked.
    let o = interlint(dir.path(), &["--format", "concise", "vendor/v.py"]);
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
}

#[test]
fn model_prefix_flag_replaces_the_list() {
    let dir = tree(&[(
        "a.py",
        "a = \"model-2.0-flash\"\nb = \"gemini-2.0-flash\"\nc = \"brand-2.0-flash\"\n",
    )]);
    let o = interlint(dir.path(), &["--format", "concise", "--model-prefix", "brand"]);
    assert_eq!(
        stdout(&o),
        "a.py:3:6: MIG009 [*] Model id `brand-2.0-flash` is deprecated; use `brand-3.5-flash`\n"
    );
}

#[test]
fn symlink_loop_does_not_hang() {
    let dir = tree(&[("app.py", PY)]);
    std::os::unix::fs::symlink(dir.path(), dir.path().join("loop")).expect("symlink");
    std::os::unix::fs::symlink("self", dir.path().join("self")).expect("symlink");
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
}

#[test]
fn non_utf8_files_are_skipped_with_a_note_and_binary_files_silently() {
    let dir = tree(&[("app.py", PY)]);
    fs::write(dir.path().join("blob.bin"), b"\x00\x01gemini-2.0-flash\x00").expect("write");
    fs::write(dir.path().join("latin1.txt"), b"caf\xE9 gemini-2.0-flash\n").expect("write");
    fs::write(dir.path().join("image.png"), b"\x89PNG\x00\x00no ids here").expect("write");
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    // A binary file is skipped without a word (shown with --verbose), a text file that is not
    // UTF-8 with one, and counted.
    assert!(!err.contains("blob.bin"), "{err}");
    assert!(err.contains("1 file skipped (see above)"), "{err}");
    assert!(
        err.contains("warning: latin1.txt: skipped: not valid UTF-8"),
        "{err}"
    );
    // A binary file without any trigger word is of no interest: no note.
    assert!(!err.contains("image.png"), "{err}");
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn too_large_file_is_skipped() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--max-file-size", "10", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("app.py: skipped:"), "{}", stderr(&o));
}

#[test]
fn stdin_with_fix_prints_the_fixed_code() {
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_interlint"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(PY.as_bytes())
            .expect("write");
        child.wait_with_output().expect("output")
    };
    let o = run(&["--stdin-filename", "app.py", "--fix"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("model=\"gemini-3.5-flash\""));
    let o = run(&["--stdin-filename", "app.py", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("app.py:4:42: MIG009"), "{}", stdout(&o));
}

#[test]
fn rules_explain_and_completions() {
    let dir = tree(&[]);
    let o = interlint(dir.path(), &["rules"]);
    assert_eq!(o.status.code(), Some(0));
    for code in ["MIG009", "MIG012", "MAN001", "MAN007", "MCP001", "MCP007"] {
        assert!(stdout(&o).contains(code), "{code}");
    }
    let o = interlint(dir.path(), &["explain", "MCP004"]);
    assert!(stdout(&o).starts_with("# MCP004 stdout-in-stdio-server"));
    let o = interlint(dir.path(), &["explain", "MIG009"]);
    assert!(stdout(&o).starts_with("# MIG009 deprecated-model-id"));
    let o = interlint(dir.path(), &["explain", "MIG012"]);
    assert!(stdout(&o).starts_with("# MIG012 grounding-metadata"));
    let o = interlint(dir.path(), &["explain", "NOPE1"]);
    assert_eq!(o.status.code(), Some(2));
    let o = interlint(dir.path(), &["completions", "bash"]);
    assert!(stdout(&o).contains("interlint"));
    let o = interlint(dir.path(), &["--format", "xml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn changed_on_disk_is_never_overwritten() {
    // Exercised at the library level: the write refuses when the bytes on disk differ.
    let dir = tree(&[("a.py", PY)]);
    let path = dir.path().join("a.py");
    let err = interlint::write::write_atomic(&path, b"something else", b"new").expect_err("refused");
    assert!(err.to_string().contains("changed on disk"), "{err}");
    assert_eq!(fs::read_to_string(&path).expect("read"), PY);
}

#[test]
fn a_fix_that_breaks_syntax_is_dropped_and_the_others_applied() {
    // A team's replacement with a quote would end the Python string early; the deprecated id
    // on the next line is still fixed, and the run fails on the finding left, not on an error.
    let config = "[[model]]\nid = \"acme-1\"\nstatus = \"deprecated\"\nreplacement = 'acme\"2'\n";
    let source = "name = \"acme-1\"\nother = \"gemini-2.0-flash\"\n";
    let dir = tree(&[("interlint.toml", config), ("a.py", source)]);
    let o = interlint(dir.path(), &["--fix", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "warning: a.py: the fix of MIG009 at 1:9 was not applied: would produce invalid syntax; \
             the file's other fixes were"
        ),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("a.py:1:9: MIG009 Model id `acme-1` is deprecated; use `acme\"2` (fix skipped: would produce invalid syntax)"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("a.py")).expect("read"),
        "name = \"acme-1\"\nother = \"gemini-3.5-flash\"\n"
    );
}

#[test]
fn fixes_that_do_not_converge_write_nothing() {
    let config = "[[model]]\nid = \"acme-a\"\nstatus = \"deprecated\"\nreplacement = \"acme-b\"\n\
                  [[model]]\nid = \"acme-b\"\nstatus = \"deprecated\"\nreplacement = \"acme-a\"\n";
    let source = "name = \"acme-a\"\n";
    let dir = tree(&[("interlint.toml", config), ("a.py", source)]);
    let o = interlint(dir.path(), &["--fix"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("fixes did not converge after 10 passes (rules MIG009); the file was not changed"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read_to_string(dir.path().join("a.py")).expect("read"), source);
}

#[test]
fn notebook_fix_keeps_valid_json_and_names_the_cell() {
    let nb = r#"{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["Uses gemini-1.5-pro."]},
  {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["gemini-2.0-flash\n"]}],
   "source": ["!pip install -q google-genai\n", "m = \"gemini-2.0-flash\"\n", "print(\"say \\\"hi\\\"\", m)"]}
 ],
 "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"#;
    let dir = tree(&[("nb.ipynb", nb)]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    insta::assert_snapshot!("notebook_concise", stdout(&o));
    // The Markdown cell is prose: its id is replaced only with --unsafe-fixes.
    let o = interlint(dir.path(), &["--fix"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let fixed = fs::read_to_string(dir.path().join("nb.ipynb")).expect("read");
    let value: serde_json::Value = serde_json::from_str(&fixed).expect("still valid JSON");
    assert_eq!(value["cells"][1]["source"][1], "m = \"gemini-3.5-flash\"\n");
    assert_eq!(value["cells"][0]["source"][0], "Uses gemini-1.5-pro.");
    let o = interlint(dir.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fixed = fs::read_to_string(dir.path().join("nb.ipynb")).expect("read");
    let value: serde_json::Value = serde_json::from_str(&fixed).expect("still valid JSON");
    assert_eq!(value["cells"][0]["source"][0], "Uses gemini-3.5-flash.");
    // Outputs are not touched.
    assert_eq!(value["cells"][1]["outputs"][0]["text"][0], "gemini-2.0-flash\n");
}

#[test]
fn markdown_prose_ids_need_unsafe_fixes() {
    let doc = "Deprecated: gemini-1.5-pro and `gemini-2.0-flash`.\n\n```python\nMODEL = \"gemini-2.0-flash\"\n```\n";
    let dir = tree(&[("CHANGES.md", doc), ("notes.txt", "Removed gemini-2.0-flash.\n")]);
    let o = interlint(dir.path(), &["--fix"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        fs::read_to_string(dir.path().join("CHANGES.md")).expect("read"),
        "Deprecated: gemini-1.5-pro and `gemini-2.0-flash`.\n\n```python\nMODEL = \"gemini-3.5-flash\"\n```\n",
        "only the code block is fixed"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("notes.txt")).expect("read"),
        "Removed gemini-2.0-flash.\n"
    );
    let o = interlint(dir.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        fs::read_to_string(dir.path().join("CHANGES.md")).expect("read"),
        "Deprecated: gemini-3.5-flash and `gemini-3.5-flash`.\n\n```python\nMODEL = \"gemini-3.5-flash\"\n```\n"
    );
}

#[test]
fn demo_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = interlint(root, &["check", "fixtures/demo", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("build/"), "ignored files are not checked");
    insta::assert_snapshot!("demo_concise", stdout(&o));
    let o = interlint(root, &["check", "fixtures/demo", "--diff"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("demo_diff", stdout(&o));
}

/// The migration of the issue, end to end: `--fix` applies only the safe parts, and there are
/// none: the new id would make the request send settings the new model rejects, and removing
/// them as a side effect is no safe fix (SPEC 2), so the id change is unsafe too. `--fix
/// --unsafe-fixes` reaches the whole migration through passes that each do a small part.
#[test]
fn migration_example_end_to_end() {
    const BEFORE: &str = include_str!("../fixtures/python/migration_example.py");
    const ALL: &str = r#"client = genai.Client()

def summarize(text):
    response = client.interactions.create(
        model="model-3.5-flash",
        input=text,
        generation_config={"thinking_level": "low"},
    )
    return response.output_text
"#;
    assert_migration("py", BEFORE, BEFORE, ALL);
}

/// The JavaScript migration of the issue, written as the issue writes it (`model-...` ids, no
/// imports): `.at(-1)` since JavaScript has no negative index, snake_case request fields. As in
/// Python, nothing of it is safe.
#[test]
fn javascript_migration_example_end_to_end() {
    const BEFORE: &str = r#"const response = await ai.models.generateContent({
  model: "model-2.5-flash",
  contents: prompt,
  config: {
    temperature: 0.2,
    topK: 40,
    thinkingConfig: { thinkingBudget: 0 },
  },
});
console.log(response.text);
"#;
    const ALL: &str = r#"const response = await ai.interactions.create({
  model: "model-3.5-flash",
  input: prompt,
  generation_config: { thinking_level: "minimal" },
});
console.log(response.output_text);
"#;
    for ext in ["ts", "js", "tsx", "mjs"] {
        assert_migration(ext, BEFORE, BEFORE, ALL);
    }
}

/// `--fix` turns `before` into `safe` (findings remain), `--fix --unsafe-fixes` into `all`
/// (none remain), and both results are fixed points.
fn assert_migration(ext: &str, before: &str, safe: &str, all: &str) {
    let (safe_name, all_name) = (format!("safe.{ext}"), format!("all.{ext}"));
    let dir = tree(&[(&safe_name, before), (&all_name, before)]);
    let read = |name: &str| fs::read_to_string(dir.path().join(name)).expect("read");
    let o = interlint(dir.path(), &["--fix", &safe_name]);
    assert_eq!(o.status.code(), Some(1), "unsafe findings remain: {}", stdout(&o));
    assert_eq!(read(&safe_name), safe, "{ext}");
    let o = interlint(dir.path(), &["--fix", "--unsafe-fixes", &all_name]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(read(&all_name), all, "{ext}");
    let o = interlint(dir.path(), &["--fix", "--unsafe-fixes", &all_name]);
    assert_eq!(read(&all_name), all);
    assert_eq!(o.status.code(), Some(0));
    let o = interlint(dir.path(), &["--fix", &safe_name]);
    assert_eq!(read(&safe_name), safe);
    assert_eq!(o.status.code(), Some(1));
}

/// A team moves a field of the request-field table without a code change.
#[test]
fn request_field_table_is_configurable() {
    const CALL: &str = "r = client.models.generate_content(model=\"gemini-3.5-flash\", contents=\"x\", config={\"thinking_config\": {\"thinking_budget\": 0}})\n";
    let config = "[[request-field]]\nname = \"thinking_level\"\nplace = \"top-level\"\n";
    let dir = tree(&[("app.py", CALL), ("interlint.toml", config)]);
    let o = interlint(dir.path(), &["--diff", "--unsafe-fixes", "app.py"]);
    assert!(
        stdout(&o).contains("+r = client.interactions.create(model=\"gemini-3.5-flash\", input=\"x\", thinking_level=\"minimal\")"),
        "{}",
        stdout(&o)
    );
    let dir = tree(&[
        ("app.py", CALL),
        (
            "interlint.toml",
            "[[request-field]]\nname = \"x\"\nplace = \"nowhere\"\n",
        ),
    ]);
    let o = interlint(dir.path(), &["app.py"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("interlint.toml"), "{}", stderr(&o));
}

/// The issue's curl migration, in a script and in a Markdown code block: `--fix` changes
/// nothing, as the new id would make the body's `temperature` a setting the new model rejects;
/// `--unsafe-fixes` replaces the id, drops the field and moves the request to the interactions
/// endpoint. The fixed body is valid JSON.
#[test]
fn curl_migration_end_to_end() {
    const BEFORE: &str = "curl \"https://api.example.com/v1beta/models/model-2.0-flash:generateContent?key=$API_KEY\" \\\n  -H 'Content-Type: application/json' \\\n  -X POST \\\n  -d '{\"contents\": [{\"parts\": [{\"text\": \"Hello\"}]}], \"generationConfig\": {\"temperature\": 0.5}}'\n";
    const ALL: &str = "curl \"https://api.example.com/v1beta/interactions?key=$API_KEY\" \\\n  -H 'Content-Type: application/json' \\\n  -H 'Api-Revision: 2026-05-20' \\\n  -X POST \\\n  -d '{\"model\": \"model-3.5-flash\", \"input\": \"Hello\"}'\n";
    assert_migration("sh", BEFORE, BEFORE, ALL);
    let fenced = |code: &str| format!("# Calling the service\n\nWith curl:\n\n```sh\n{code}```\n");
    assert_migration("md", &fenced(BEFORE), &fenced(BEFORE), &fenced(ALL));
    let body = ALL
        .split("-d '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a body");
    serde_json::from_str::<serde_json::Value>(body).expect("the fixed body is JSON");
}

#[test]
fn schema_command_prints_the_manifest_schema() {
    let dir = tree(&[]);
    let o = interlint(dir.path(), &["schema", "benchmark-manifest"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let printed: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("the schema is JSON");
    let file = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/schemas/v1/benchmark-manifest.schema.json"),
    )
    .expect("schema file");
    assert_eq!(stdout(&o), file);
    assert_eq!(printed["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(printed["properties"]["intents"]["minItems"], 6);
    let o = interlint(dir.path(), &["schema", "no-such-schema"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn manifests_by_name_and_by_schema_with_fix() {
    let manifest = "{\"schemaVersion\": \"1\", \"benchmarkVersion\": \"1\", \"status\": \"frozen\",\n \"intents\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"],\n \"heldOut\": {\"index\": \"i\", \"casesPerIntent\": \"30\", \"diversification\": \"five-sub-intents-by-six-archetypes\"},\n \"abstention\": {}, \"labelsFrozen\": true}\n";
    let dir = tree(&[
        ("bench/benchmark-manifest.json", manifest),
        // Truncated before any trigger word: claimed by its name, reported, never a panic.
        ("bench/old.benchmark-manifest.json", "{\n  \"schemaVer"),
        ("bench/other.json", manifest),
    ]);
    let o = interlint(dir.path(), &["--format", "concise", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("bench/old.benchmark-manifest.json:2:12: MAN001"),
        "{out}"
    );
    assert_eq!(out.matches("bench/benchmark-manifest.json").count(), 2, "{out}");
    assert!(!out.contains("other.json"), "{out}");
    let o = interlint(
        dir.path(),
        &["--fix", "--select", "MAN", "bench/benchmark-manifest.json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fixed = fs::read_to_string(dir.path().join("bench/benchmark-manifest.json")).expect("read");
    assert_eq!(
        fixed,
        manifest
            .replace("\"1\", \"bench", "1, \"bench")
            .replace("\"30\"", "30")
    );
    let o = interlint(dir.path(), &["--select", "MAN", "bench/benchmark-manifest.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn stdio_server_prints_are_sent_to_stderr_by_fix() {
    let server = "import sys\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"notes\")\n\nif __name__ == \"__main__\":\n    print(\"starting\")\n    mcp.run()\n";
    let dir = tree(&[
        ("server.py", server),
        (
            "http_server.py",
            &server.replace("mcp.run()", "mcp.run(transport=\"streamable-http\")"),
        ),
    ]);
    let o = interlint(dir.path(), &["--select", "MCP", "--format", "concise", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "server.py:7:5: MCP004 [*] `print(...)` writes to standard output, which carries the protocol of this stdio server\n"
    );
    let o = interlint(dir.path(), &["--select", "MCP", "--fix", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let fixed = fs::read_to_string(dir.path().join("server.py")).expect("read");
    assert_eq!(
        fixed,
        server.replace("print(\"starting\")", "print(\"starting\", file=sys.stderr)")
    );
}

#[test]
fn concise_and_github_stay_one_line_for_multi_line_expressions() {
    let source = "import google.generativeai as genai\n\nmodel = genai.GenerativeModel(\"gemini-2.0-flash\")\n\
                  print(model.generate_content(\n    \"a long prompt\",\n    stream=False,\n).text)\n";
    let dir = tree(&[("a.py", source)]);
    for format in ["concise", "github"] {
        let o = interlint(dir.path(), &["--format", format]);
        let out = stdout(&o);
        let json = interlint(dir.path(), &["--format", "json"]);
        let findings = serde_json::from_str::<serde_json::Value>(&stdout(&json)).expect("json")["findings"]
            .as_array()
            .map_or(0, Vec::len);
        assert!(findings >= 3, "{}", stdout(&json));
        assert_eq!(out.lines().count(), findings, "{format}:\n{out}");
        assert!(
            out.contains("`model.generate_content(\"a long prompt\", stream=False).text`"),
            "{out}"
        );
    }
}

/// A test asserting on a constant of another file: a safe-only fix changes neither (the test
/// would fail), whether the folder is walked while checked or the files are named. A project of
/// its own in the same run (another folder with its manifest, in the same repository) keeps its
/// safe fix.
#[test]
fn an_id_a_test_in_another_file_compares_against_is_not_safely_fixed() {
    let dir = tree(&[
        ("app/pyproject.toml", "[project]\nname = \"app\"\n"),
        (
            "app/src/models.py",
            "DEFAULT = \"gemini-1.5-flash\"\nOTHER = \"gemini-1.5-pro\"\n",
        ),
        (
            "app/tests/test_models.py",
            "from src.models import DEFAULT\n\n\ndef test_default():\n    assert DEFAULT == \"gemini-1.5-flash\"\n",
        ),
        ("other/pyproject.toml", "[project]\nname = \"other\"\n"),
        // One repository holds both packages (a monorepo): each package is a project still.
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("other/app.py", "MODEL = \"gemini-1.5-flash\"\n"),
    ]);
    let applicability = |args: &[&str]| -> Vec<(String, String, String)> {
        let o = interlint(dir.path(), args);
        let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| {
                (
                    f["path"].as_str().unwrap_or_default().to_string(),
                    f["fix"]["applicability"].as_str().unwrap_or_default().to_string(),
                    f["fix"]["message"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    let walked = applicability(&["check", "--format", "json", "."]);
    assert_eq!(
        walked,
        applicability(&["check", "--format", "json", "app/src", "app/tests", "other"])
    );
    let of_constant = &walked[0];
    assert_eq!(of_constant.0, "app/src/models.py");
    assert_eq!(of_constant.1, "unsafe");
    assert!(
        of_constant
            .2
            .contains("a test in `app/tests/test_models.py` compares against this id"),
        "{of_constant:?}"
    );
    // The id no test compares against keeps its safe fix, and so does the other project's.
    assert_eq!(walked[1].1, "safe");
    assert_eq!(walked[3].0, "other/app.py");
    assert_eq!(walked[3].1, "safe");
    let o = interlint(dir.path(), &["check", "--fix", "."]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let fixed = fs::read_to_string(dir.path().join("app/src/models.py")).expect("read");
    assert_eq!(
        fixed,
        "DEFAULT = \"gemini-1.5-flash\"\nOTHER = \"gemini-3.5-flash\"\n"
    );
    interlint(dir.path(), &["check", "--fix", "--unsafe-fixes", "."]);
    let fixed = fs::read_to_string(dir.path().join("app/src/models.py")).expect("read");
    assert_eq!(
        fixed,
        "DEFAULT = \"gemini-3.5-flash\"\nOTHER = \"gemini-3.5-flash\"\n"
    );
}
