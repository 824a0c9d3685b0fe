//! The flags a ruff user reaches for: --output-file, --show-fixes, --exit-non-zero-on-fix,
//! --extend-select, --show-settings, --show-files, inline --config, --color, `rules --format
//! json`, --statistics as JSON, and the combinations that are refused.

mod common;
use std::process::{Command, Output};

use common::{PY, interlint, stderr, stdout, tree};

/// A call to the old method and a deprecated id: MIG001 and MIG009 (and no other rule).
const CALL: &str = "from google import genai\n\nclient = genai.Client()\nresp = client.models.generate_content(model=\"gemini-2.0-flash\", contents=\"hi\")\n";

fn codes(concise: &str) -> Vec<String> {
    let mut codes: Vec<String> = concise
        .lines()
        .filter_map(|l| l.split(": ").nth(1))
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_string)
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

fn with_env(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_interlint"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the binary runs")
}

/// A request whose unit cannot be rewritten: `--statistics` tallies why, under its rule, with the
/// place and the quoted code left out so that one cause counts once.
#[test]
fn statistics_tally_the_reasons_left() {
    let code = "from google import genai\nclient = genai.Client()\n\
        r = client.models.generate_content(model=\"gemini-3.5-flash\", contents=\"a\")\n\
        print(r.candidates[0].finish_reason)\n\
        s = client.models.generate_content(model=\"gemini-3.5-flash\", contents=\"b\")\n\
        print(s.candidates[0].finish_reason)\n";
    let dir = tree(&[("app.py", code)]);
    let o = interlint(dir.path(), &["--statistics", "app.py"]);
    let out = stdout(&o);
    assert!(
        out.contains(
            "2\tMIG001\tcreate-content-call\n \t  2 × [no-counterpart] the interactions API has no counterpart for \
             what this module depends on: reads `…`, why the answer ended\n"
        ),
        "{out}"
    );
    let o = interlint(dir.path(), &["--statistics", "--format", "json", "app.py"]);
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let mig001 = rows
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["code"] == "MIG001"))
        .expect("a MIG001 row");
    assert_eq!(
        mig001["reasons"],
        serde_json::json!([{
            "reason": "the interactions API has no counterpart for what this module depends on: reads `…`, why the answer ended",
            "class": "no-counterpart",
            "count": 2
        }])
    );
    // Each finding left unrewritten carries its reason and the reason's class in JSON.
    let (findings, reasons) = mig001_reasons(dir.path(), "app.py");
    assert_eq!(reasons.len(), 2, "{findings}");
    assert!(
        reasons.iter().all(|r| r["class"] == "no-counterpart"),
        "{findings}"
    );
    assert!(
        reasons[0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("finish_reason")),
        "{findings}"
    );
    // With unsafe fixes shown as fixable, a fixable finding has no reason to tally.
    let o = interlint(dir.path(), &["--statistics", "--unsafe-fixes", "app.py"]);
    assert!(
        stdout(&o).contains("× [no-counterpart] the interactions API has no counterpart"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn statistics_as_json_and_refused_combinations() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--statistics", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(
        rows,
        serde_json::json!([{"code": "MIG009", "name": "deprecated-model-id", "count": 2, "fixable": true, "unsafe_fixable": false}])
    );
    for (args, message) in [
        (
            &["--diff", "--format", "json"][..],
            "`--diff` writes a unified diff, which has no `--format json`",
        ),
        (
            &["--statistics", "--format", "sarif"][..],
            "not as `--format sarif`",
        ),
        (
            &["--show-fixes"][..],
            "`--show-fixes` lists the fixes of `--fix` or `--diff`",
        ),
        (
            &["--exit-zero", "--exit-non-zero-on-fix"][..],
            "cannot be used with",
        ),
        (&["--statistics", "--diff"][..], "cannot be used with"),
    ] {
        let o = interlint(dir.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}

#[test]
fn show_fixes_lists_what_was_fixed_per_file_and_rule() {
    let dir = tree(&[("app.py", PY), ("b.py", "m = \"gemini-2.0-flash\"\n")]);
    let o = interlint(dir.path(), &["--diff", "--show-fixes"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("--- a/app.py\n"), "{}", stdout(&o));
    assert_eq!(
        stderr(&o),
        "Would fix 3 findings:\n- app.py:\n    2 × MIG009 (deprecated-model-id)\n- b.py:\n    1 × MIG009 (deprecated-model-id)\nWould fix 3 findings (0 remaining).\n"
    );
    let o = interlint(dir.path(), &["--fix", "--show-fixes", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("stdout stays JSON");
    assert_eq!(json["summary"]["findings"], 0, "{json}");
    assert!(
        stderr(&o).starts_with("Fixed 3 findings:\n- app.py:\n"),
        "{}",
        stderr(&o)
    );
    let o = interlint(dir.path(), &["--fix", "--show-fixes"]);
    assert_eq!(stdout(&o), "Fixed nothing.\nAll checks passed.\n");
}

#[test]
fn exit_non_zero_on_fix() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(dir.path(), &["--fix", "--exit-non-zero-on-fix"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // Nothing left to fix: the hook passes.
    let o = interlint(dir.path(), &["--fix", "--exit-non-zero-on-fix"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = interlint(dir.path(), &["--fix"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn extend_select_adds_to_the_selection() {
    let dir = tree(&[("app.py", CALL), ("interlint.toml", "select = [\"MIG001\"]\n")]);
    let run = |args: &[&str]| {
        let mut all = vec!["--format", "concise"];
        all.extend_from_slice(args);
        codes(&stdout(&interlint(dir.path(), &all)))
    };
    assert_eq!(run(&[]), ["MIG001"]);
    assert_eq!(run(&["--extend-select", "mig009"]), ["MIG001", "MIG009"]);
    // A --select on the command line starts afresh, and can be extended too.
    assert_eq!(run(&["--select", "MIG009"]), ["MIG009"]);
    assert_eq!(
        run(&["--select", "MIG009", "--extend-select", "MIG001"]),
        ["MIG001", "MIG009"]
    );
    // Extending the default selection (every rule) keeps every rule; the more specific code
    // wins over an ignored prefix, as in ruff.
    let plain = tree(&[("app.py", CALL)]);
    let o = interlint(
        plain.path(),
        &[
            "--format",
            "concise",
            "--ignore",
            "MIG",
            "--extend-select",
            "MIG009",
        ],
    );
    assert_eq!(codes(&stdout(&o)), ["MIG009"]);
    let configured = tree(&[
        ("app.py", CALL),
        (
            "interlint.toml",
            "ignore = [\"MIG\"]\nextend-select = [\"MIG001\"]\n",
        ),
    ]);
    let o = interlint(configured.path(), &["--format", "concise"]);
    assert_eq!(codes(&stdout(&o)), ["MIG001"]);
}

#[test]
fn inline_config_settings_override_the_file() {
    let dir = tree(&[("app.py", CALL), ("interlint.toml", "select = [\"MIG001\"]\n")]);
    let o = interlint(
        dir.path(),
        &["--format", "concise", "--config", "select = [\"MIG009\"]"],
    );
    assert_eq!(codes(&stdout(&o)), ["MIG009"], "{}", stderr(&o));
    let o = interlint(
        dir.path(),
        &[
            "--format",
            "concise",
            "--config",
            "interlint.toml",
            "--config",
            "extend-select = [\"MIG009\"]",
        ],
    );
    assert_eq!(codes(&stdout(&o)), ["MIG001", "MIG009"], "{}", stderr(&o));
    let o = interlint(dir.path(), &["--config", "selct = [\"MIG009\"]"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a file, and not a `KEY = VALUE` setting") && stderr(&o).contains("selct"),
        "{}",
        stderr(&o)
    );
    let o = interlint(
        dir.path(),
        &["--config", "interlint.toml", "--config", "interlint.toml"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("only one configuration file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn show_settings_and_show_files() {
    let dir = tree(&[
        ("app.py", PY),
        ("docs/guide.md", "Use `gemini-2.0-flash`.\n"),
        (".venv/lib/x.py", PY),
        (
            "interlint.toml",
            "select = [\"MIG009\"]\nextend-exclude = [\"docs\"]\n[per-file-ignores]\n\"tests/*\" = [\"MIG\"]\n",
        ),
    ]);
    let o = interlint(dir.path(), &["--show-settings", "--extend-select", "MIG001"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("configuration file: interlint.toml\n"), "{out}");
    assert!(out.contains("\nrules (2): MIG001, MIG009\n"), "{out}");
    assert!(
        out.contains(", node_modules, site-packages, venv, docs\n"),
        "{out}"
    );
    assert!(out.contains("\nper-file ignores: tests/* = MIG\n"), "{out}");
    assert!(
        out.contains("\n  model-2.0-flash (deprecated) -> model-3.5-flash\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  model-pro (retired, no variants) -> model-3.5-flash\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  text-embedding-004 (retired, embeddings) -> (none)\n"),
        "{out}"
    );
    assert!(
        out.contains("\nspecialised kinds: image output (image), live (live, audio), "),
        "{out}"
    );
    let o = interlint(dir.path(), &["--show-files"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The configuration file in use is not checked, so not listed.
    assert_eq!(stdout(&o), "app.py\n");
    let o = interlint(dir.path(), &["--show-files", "app.py", "docs/guide.md"]);
    assert_eq!(stdout(&o), "app.py\ndocs/guide.md\n");
}

#[test]
fn output_file_takes_the_findings() {
    let dir = tree(&[("app.py", PY)]);
    let o = interlint(
        dir.path(),
        &["--format", "json", "--output-file", "reports/interlint.json"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let text = std::fs::read_to_string(dir.path().join("reports/interlint.json")).expect("written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json["summary"]["findings"], 2, "{json}");
    let o = interlint(dir.path(), &["-o", "app.py/x.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: cannot write the output file app.py/x.txt: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn color_when_asked_or_forced() {
    let dir = tree(&[("app.py", PY)]);
    let escape = |o: &Output| stdout(o).contains('\u{1b}');
    assert!(escape(&with_env(dir.path(), &["--color", "always"], &[])));
    assert!(!escape(&with_env(dir.path(), &[], &[])), "not a terminal");
    assert!(escape(&with_env(dir.path(), &[], &[("FORCE_COLOR", "1")])));
    assert!(escape(&with_env(
        dir.path(),
        &[],
        &[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]
    )));
    assert!(!escape(&with_env(
        dir.path(),
        &["--color", "never"],
        &[("FORCE_COLOR", "1")]
    )));
    let o = with_env(dir.path(), &["--color", "sometimes"], &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn rules_as_json() {
    let dir = tree(&[]);
    let o = interlint(dir.path(), &["rules", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rules: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)).expect("JSON");
    let text = stdout(&interlint(dir.path(), &["rules"]));
    let rows = text
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with("code"))
        .count();
    assert_eq!(rules.len(), rows);
    let mig009 = rules.iter().find(|r| r["code"] == "MIG009").expect("MIG009");
    assert_eq!(mig009["name"], "deprecated-model-id");
    assert!(
        mig009["fix"].as_str().is_some_and(|f| f.starts_with("safe")),
        "{mig009}"
    );
    assert!(
        mig009["explanation"]
            .as_str()
            .is_some_and(|e| e.starts_with("# MIG009 deprecated-model-id")),
        "{mig009}"
    );
}

#[test]
fn completions_offer_rule_codes() {
    let dir = tree(&[]);
    let script = stdout(&interlint(dir.path(), &["completions", "bash"]));
    let after = |marker: &str| {
        let at = script
            .find(marker)
            .unwrap_or_else(|| panic!("{marker} in {script}"));
        script[at..].lines().nth(1).unwrap_or_default().to_string()
    };
    let select = after("--select)");
    assert!(
        select.contains(" MIG009 ") && select.contains("\"ALL "),
        "{select}"
    );
    assert!(after("--ignore)").contains(" MCP007"));
    let explain = after("interlint__subcmd__explain)");
    assert!(explain.contains(" MIG009 "), "{explain}");
    // The codes stay out of --help.
    let help = stdout(&interlint(dir.path(), &["--help"]));
    assert!(!help.contains("MCP007"), "{help}");
    // `explain ALL`, which completion offers, lists every rule.
    let o = interlint(dir.path(), &["explain", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("MIG001 ") && stdout(&o).contains("\nMCP007 "));
}

#[test]
fn rules_fit_the_width_with_the_whole_text_in_json() {
    let dir = tree(&[]);
    for columns in [60usize, 80, 120] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_interlint"))
            .arg("rules")
            .current_dir(dir.path())
            .env("COLUMNS", columns.to_string())
            .output()
            .expect("the binary runs");
        let text = stdout(&o);
        for line in text.lines() {
            assert!(line.chars().count() <= columns, "{columns}: {line:?}");
        }
        // Every rule is there, its summary whole once the lines are joined.
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            joined.contains("MIG009 deprecated-model-id safe or unsafe"),
            "{joined}"
        );
        assert!(
            joined.contains(
                "A call of the predecessor create-content API (`generate_content`, `generateContent`)"
            ),
            "{joined}"
        );
    }
    // The fix column's whole sentence is in the JSON.
    let o = interlint(dir.path(), &["rules", "--format", "json"]);
    let rules: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)).expect("JSON");
    let mig009 = rules.iter().find(|r| r["code"] == "MIG009").expect("MIG009");
    assert!(
        mig009["fix"]
            .as_str()
            .is_some_and(|f| f.contains("unsafe in prose")),
        "{mig009}"
    );
}

/// The findings of `--format json` on `file`, and the `reason` of each MIG001 finding.
fn mig001_reasons(dir: &std::path::Path, file: &str) -> (serde_json::Value, Vec<serde_json::Value>) {
    let o = interlint(dir, &["--format", "json", file]);
    let findings: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let reasons = findings["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .filter(|f| f["code"] == "MIG001")
                .map(|f| f["reason"].clone())
                .collect()
        })
        .unwrap_or_default();
    (findings, reasons)
}

/// A call in the current client package's own project (its `package.json` names it) is left, and
/// its reason is classed `out-of-scope`: not this migration's, nothing for the team to decide.
#[test]
fn the_client_packages_own_code_is_out_of_scope() {
    let code = "import { GoogleGenAI } from \"@google/genai\";\n\
        const ai = new GoogleGenAI({});\n\
        export const r = await ai.models.generateContent({ model: \"gemini-3.5-flash\", contents: \"a\" });\n\
        console.log(r.candidates?.[0]?.finishReason);\n";
    let dir = tree(&[
        ("package.json", "{\"name\": \"@google/genai\"}"),
        ("test/app.ts", code),
    ]);
    let (findings, reasons) = mig001_reasons(dir.path(), "test/app.ts");
    assert_eq!(reasons.len(), 1, "{findings}");
    assert_eq!(reasons[0]["class"], "out-of-scope", "{findings}");
}
