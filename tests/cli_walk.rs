//! Which files a run reads: hidden files, default and configured excludes, `.gitignore`,
//! interlint's own configuration, and `--force-exclude` for paths named by pre-commit.

mod common;
use common::{interlint, stderr, stdout, tree};

const ID: &str = "MODEL=gemini-2.0-flash\n";

fn concise_paths(o: &std::process::Output) -> Vec<String> {
    let mut paths: Vec<String> = stdout(o)
        .lines()
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect();
    paths.dedup();
    paths
}

#[test]
fn hidden_files_are_walked_but_not_tool_caches_or_git() {
    let dir = tree(&[
        (".env", ID),
        (".env.example", ID),
        (".github/workflows/ci.yml", "env:\n  MODEL: gemini-2.0-flash\n"),
        (".gitlab-ci.yml", "variables:\n  MODEL: gemini-2.0-flash\n"),
        (".devcontainer/devcontainer.env", ID),
        (".venv/lib/site.py", "m = \"gemini-2.0-flash\"\n"),
        (".tox/py312/x.py", "m = \"gemini-2.0-flash\"\n"),
        (".mypy_cache/x.json", "{\"m\": \"gemini-2.0-flash\"}\n"),
        (".git/COMMIT_EDITMSG", "use gemini-2.0-flash\n"),
        (".gitignore", "build/\n"),
        ("build/gen.py", "m = \"gemini-2.0-flash\"\n"),
    ]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        concise_paths(&o),
        [
            ".devcontainer/devcontainer.env",
            ".env",
            ".env.example",
            ".github/workflows/ci.yml",
            ".gitlab-ci.yml",
        ],
        "{}",
        stdout(&o)
    );
    // Named explicitly, an ignored file is checked.
    let o = interlint(dir.path(), &["build/gen.py"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn exclude_replaces_the_default_list_and_extend_exclude_adds_to_it() {
    let files = [
        (".venv/lib/site.py", "m = \"gemini-2.0-flash\"\n"),
        ("vendor/v.py", "m = \"gemini-2.0-flash\"\n"),
        (".git/config", "gemini-2.0-flash\n"),
    ];
    let extend = tree(&[
        files[0],
        files[1],
        files[2],
        ("interlint.toml", "extend-exclude = [\"vendor\"]\n"),
    ]);
    let o = interlint(extend.path(), &["--format", "concise"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let replace = tree(&[
        files[0],
        files[1],
        files[2],
        ("interlint.toml", "exclude = [\"vendor\"]\n"),
    ]);
    let o = interlint(replace.path(), &["--format", "concise"]);
    // `.venv` is walked once the list is replaced; `.git` never is.
    assert_eq!(concise_paths(&o), [".venv/lib/site.py"], "{}", stdout(&o));
}

/// Without a `.gitignore`, installed packages and build output are not walked (as ruff's
/// default `exclude`): a project's un-ignored `venv/` holds the client library itself, whose
/// findings would bury the project's own.
#[test]
fn installed_packages_and_build_output_are_not_walked_without_a_gitignore() {
    let py = "m = \"gemini-2.0-flash\"\n";
    let dir = tree(&[
        ("app.py", py),
        ("venv/lib/python3.12/site-packages/google/genai/models.py", py),
        ("env/lib/python3.12/site-packages/google/genai/models.py", py),
        ("web/node_modules/@google/genai/dist/index.js", py),
        ("__pypackages__/3.12/lib/x.py", py),
        ("dist/bundle.js", py),
        ("docs/_build/html/x.js", py),
        (".ipynb_checkpoints/nb-checkpoint.py", py),
        ("vendor/site.py", py),
    ]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(concise_paths(&o), ["app.py", "vendor/site.py"], "{}", stdout(&o));
    // --no-default-excludes walks them all.
    let o = interlint(dir.path(), &["--format", "concise", "--no-default-excludes"]);
    assert_eq!(concise_paths(&o).len(), 9, "{}", stdout(&o));
    // A configured `exclude` replaces the list, as in ruff.
    std::fs::write(dir.path().join("interlint.toml"), "exclude = [\"vendor\"]\n").expect("write");
    let o = interlint(dir.path(), &["--format", "concise"]);
    assert_eq!(concise_paths(&o).len(), 8, "{}", stdout(&o));
    assert!(!stdout(&o).contains("vendor/site.py"), "{}", stdout(&o));
}

#[test]
fn interlint_configuration_is_never_reported_or_rewritten() {
    let pyproject = "[project]\nname = \"app\"\ndescription = \"uses gemini-2.0-flash\"\n\n[tool.interlint]\nselect = [\"MIG009\"]\n\n[[tool.interlint.model]]\nid = \"acme-tuned-1\"\nstatus = \"deprecated\"\nreplacement = \"acme-tuned-2\"\n\n[[tool.interlint.model]]\nid = \"gemini-2.0-flash\"\nstatus = \"deprecated\"\nreplacement = \"gemini-3.5-flash\"\n";
    let dedicated =
        "[[model]]\nid = \"acme-tuned-1\"\nstatus = \"deprecated\"\nreplacement = \"acme-tuned-2\"\n";
    let dir = tree(&[
        ("pyproject.toml", pyproject),
        ("sub/interlint.toml", dedicated),
        ("app.py", "m = \"acme-tuned-1\"\n"),
    ]);
    let o = interlint(dir.path(), &["--format", "concise"]);
    // The project's description is prose outside the table: reported.
    assert_eq!(concise_paths(&o), ["app.py", "pyproject.toml"], "{}", stdout(&o));
    assert!(stdout(&o).starts_with("app.py:1:6: MIG009"), "{}", stdout(&o));
    assert!(stdout(&o).contains("pyproject.toml:3:"), "{}", stdout(&o));
    let o = interlint(dir.path(), &["--fix", "--unsafe-fixes", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!(read("app.py"), "m = \"acme-tuned-2\"\n");
    assert_eq!(
        read("pyproject.toml"),
        pyproject.replacen("uses gemini-2.0-flash", "uses gemini-3.5-flash", 1)
    );
    assert_eq!(read("sub/interlint.toml"), dedicated);
    // Named on the command line, a dedicated configuration file is not checked either.
    let o = interlint(dir.path(), &["--format", "concise", "sub/interlint.toml"]);
    assert_eq!(stdout(&o), "", "{}", stderr(&o));
}

#[test]
fn force_exclude_applies_exclude_and_gitignore_to_named_paths() {
    let id = "m = \"gemini-2.0-flash\"\n";
    let dir = tree(&[
        ("interlint.toml", "extend-exclude = [\"vendor/**\", \"legacy\"]\n"),
        (".gitignore", "build/\n*.gen.py\n!keep.gen.py\n"),
        ("vendor/lib/v.py", id),
        ("legacy/old/l.py", id),
        ("build/b.py", id),
        ("src/x.gen.py", id),
        ("src/keep.gen.py", id),
        (".venv/lib/site.py", id),
        ("app.py", id),
    ]);
    let named = [
        "vendor/lib/v.py",
        "legacy/old/l.py",
        "./build/b.py",
        "src/x.gen.py",
        "src/keep.gen.py",
        ".venv/lib/site.py",
        "app.py",
    ];
    let args = |extra: &[&'static str]| -> Vec<&str> {
        let mut args = vec!["check", "--format", "concise"];
        args.extend_from_slice(extra);
        args.extend(named);
        args
    };
    let o = interlint(dir.path(), &args(&[]));
    assert_eq!(concise_paths(&o).len(), named.len(), "{}", stdout(&o));
    let o = interlint(dir.path(), &args(&["--force-exclude"]));
    assert_eq!(concise_paths(&o), ["app.py", "src/keep.gen.py"], "{}", stdout(&o));
    let o = interlint(dir.path(), &args(&["--force-exclude", "--fix"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!(read("vendor/lib/v.py"), id);
    assert_eq!(read("build/b.py"), id);
    assert_ne!(read("app.py"), id);
}
