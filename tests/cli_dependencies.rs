//! The legacy package leaves with its imports (MIG011): once no source of a walked project
//! imports it after the run's fixes, its entry in the project's dependency files is replaced by
//! the current package, or removed when that is declared beside it (an unsafe fix).

mod common;
use common::{interlint, interlint_stdin, stderr, stdout, tree};

use std::path::Path;

/// A legacy program that MIG001's unsafe fix migrates whole, its import included.
const MIGRATED: &str = "import google.generativeai as genai\n\ngenai.configure(api_key=\"KEY\")\nmodel = genai.GenerativeModel(\"gemini-2.5-flash\")\nresponse = model.generate_content(\"Tell me a story\")\nprint(response.text)\n";

/// A legacy import no fix removes: nothing here calls the create-content endpoint.
const KEPT: &str =
    "import google.generativeai as genai\n\nfor m in genai.list_models():\n    print(m.name)\n";

/// The same in TypeScript.
const MIGRATED_TS: &str = "import { GoogleGenerativeAI } from \"@google/generative-ai\";\n\nconst genAI = new GoogleGenerativeAI(process.env.API_KEY ?? \"\");\nconst model = genAI.getGenerativeModel({ model: \"gemini-2.5-flash\" });\n\nexport async function ask(prompt: string) {\n  const result = await model.generateContent(prompt);\n  return result.response.text();\n}\n";

const FIX: &[&str] = &["check", "--fix", "--unsafe-fixes", "--no-progress", "."];

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).expect("readable")
}

/// `--fix --unsafe-fixes` over the folder; then again, which must change nothing.
fn fix_twice(dir: &Path, files: &[&str]) {
    let o = interlint(dir, FIX);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
    let once: Vec<String> = files.iter().map(|f| read(dir, f)).collect();
    let o = interlint(dir, FIX);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
    let twice: Vec<String> = files.iter().map(|f| read(dir, f)).collect();
    assert_eq!(once, twice, "a second run changed files:\n{}", stderr(&o));
}

#[test]
fn the_requirement_follows_the_last_import_out() {
    let requirements =
        "google-generativeai[dev]==0.8.3 ; python_version >= \"3.9\"  # the client\nrequests==2.32.3\n";
    let dir = tree(&[("app.py", MIGRATED), ("requirements.txt", requirements)]);
    // A check counts the dependency's fix with the unsafe fixes that remove the import ...
    let o = interlint(dir.path(), &["check", "--no-progress", "."]);
    assert!(
        stdout(&o)
            .contains("help: Replace with `google-genai>=2.0.0`: no file of the project imports it any more"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("Found 5 findings (1 fixable with --fix, 4 more with --unsafe-fixes)."),
        "{}",
        stdout(&o)
    );
    // ... `--diff` shows it ...
    let o = interlint(
        dir.path(),
        &["check", "--diff", "--unsafe-fixes", "--no-progress", "."],
    );
    insta::assert_snapshot!("requirement_replaced_diff", stdout(&o));
    // ... and `--fix --unsafe-fixes` makes it, in the same run, as counted.
    let o = interlint(dir.path(), FIX);
    assert!(
        stdout(&o).contains("Found 5 findings (5 fixed, 0 remaining)."),
        "{}",
        stdout(&o)
    );
    assert!(!read(dir.path(), "app.py").contains("generativeai"));
    assert_eq!(
        read(dir.path(), "requirements.txt"),
        "google-genai>=2.0.0 ; python_version >= \"3.9\"  # the client\nrequests==2.32.3\n"
    );
    fix_twice(dir.path(), &["app.py", "requirements.txt"]);
}

#[test]
fn an_import_no_fix_removes_keeps_the_requirement() {
    let requirements = "google-generativeai>=0.8.3\n";
    let dir = tree(&[
        ("app.py", MIGRATED),
        ("tools/models.py", KEPT),
        ("requirements.txt", requirements),
    ]);
    let o = interlint(dir.path(), &["check", "--no-progress", "."]);
    assert!(
        stdout(&o).contains("(`tools/models.py` still imports the legacy package)"),
        "{}",
        stdout(&o)
    );
    fix_twice(dir.path(), &["app.py", "requirements.txt"]);
    assert!(!read(dir.path(), "app.py").contains("generativeai"));
    assert_eq!(read(dir.path(), "requirements.txt"), requirements);
    // A file that suppresses the import's finding still imports the package.
    let dir = tree(&[
        ("app.py", MIGRATED),
        (
            "tools/models.py",
            &KEPT.replacen("as genai\n", "as genai  # interlint: ignore[MIG011]\n", 1),
        ),
        ("requirements.txt", requirements),
    ]);
    fix_twice(dir.path(), &["app.py", "requirements.txt"]);
    assert_eq!(read(dir.path(), "requirements.txt"), requirements);
}

#[test]
fn the_current_package_beside_it_removes_the_legacy_line() {
    let dir = tree(&[
        ("app.py", MIGRATED),
        (
            "requirements.txt",
            "# clients\ngoogle-genai==1.2.0\ngoogle-generativeai>=0.8.3\nrequests\n",
        ),
    ]);
    fix_twice(dir.path(), &["app.py", "requirements.txt"]);
    // The current package's own requirement is raised too.
    assert_eq!(
        read(dir.path(), "requirements.txt"),
        "# clients\ngoogle-genai>=2.0.0\nrequests\n"
    );
}

#[test]
fn pyproject_lists_and_poetry_tables() {
    let pyproject = r#"[project]
name = "summarizer"
version = "0.1.0"
dependencies = [
    "google-generativeai>=0.8.3; python_version >= '3.9'",
    "httpx>=0.27",
]

[project.optional-dependencies]
ai = ["google-genai>=2.0.0", "google-generativeai"]

[tool.poetry.dependencies]
python = "^3.11"
google-generativeai = { version = "^0.8.0", python = ">=3.9" }

[tool.poetry.group.dev.dependencies]
google-generativeai = "^0.8.0"
google-genai = "^2.0"
pytest = "*"
"#;
    let dir = tree(&[("src/summarizer/app.py", MIGRATED), ("pyproject.toml", pyproject)]);
    fix_twice(dir.path(), &["src/summarizer/app.py", "pyproject.toml"]);
    let fixed = read(dir.path(), "pyproject.toml");
    assert_eq!(
        fixed,
        r#"[project]
name = "summarizer"
version = "0.1.0"
dependencies = [
    "google-genai>=2.0.0; python_version >= '3.9'",
    "httpx>=0.27",
]

[project.optional-dependencies]
ai = ["google-genai>=2.0.0"]

[tool.poetry.dependencies]
python = "^3.11"
google-genai = { version = ">=2.0.0", python = ">=3.9" }

[tool.poetry.group.dev.dependencies]
google-genai = "^2.0"
pytest = "*"
"#
    );
    assert!(toml::from_str::<toml::Table>(&fixed).is_ok());
}

#[test]
fn setup_cfg_and_setup_py() {
    let setup_cfg =
        "[options]\ninstall_requires =\n    google-genai\n    google-generativeai>=0.8\n    click\n";
    let setup_py = "from setuptools import setup\n\nsetup(\n    name=\"summarizer\",\n    install_requires=[\"google-generativeai>=0.8\", \"requests\"],\n)\n";
    let dir = tree(&[
        ("summarizer/app.py", MIGRATED),
        ("setup.cfg", setup_cfg),
        ("setup.py", setup_py),
    ]);
    fix_twice(dir.path(), &["setup.cfg", "setup.py"]);
    assert_eq!(
        read(dir.path(), "setup.cfg"),
        "[options]\ninstall_requires =\n    google-genai\n    click\n"
    );
    assert_eq!(
        read(dir.path(), "setup.py"),
        "from setuptools import setup\n\nsetup(\n    name=\"summarizer\",\n    install_requires=[\"google-genai>=2.0.0\", \"requests\"],\n)\n"
    );
}

#[test]
fn package_json_with_both_packages_loses_the_legacy_key() {
    let package = "{\n  \"name\": \"demo\",\n  \"dependencies\": {\n    \"@google/genai\": \"^2.1.0\",\n    \"@google/generative-ai\": \"^0.21.0\",\n    \"express\": \"^4.21.0\"\n  },\n  \"devDependencies\": {\n    \"typescript\": \"^5.6.0\",\n    \"@google/generative-ai\": \"^0.21.0\"\n  }\n}\n";
    let dir = tree(&[("src/ask.ts", MIGRATED_TS), ("package.json", package)]);
    fix_twice(dir.path(), &["src/ask.ts", "package.json"]);
    assert!(!read(dir.path(), "src/ask.ts").contains("generative-ai"));
    let fixed = read(dir.path(), "package.json");
    assert_eq!(
        fixed,
        "{\n  \"name\": \"demo\",\n  \"dependencies\": {\n    \"@google/genai\": \"^2.1.0\",\n    \"express\": \"^4.21.0\"\n  },\n  \"devDependencies\": {\n    \"typescript\": \"^5.6.0\"\n  }\n}\n"
    );
    assert!(serde_json::from_str::<serde_json::Value>(&fixed).is_ok());
    // Alone, the legacy package is replaced by the current one.
    let dir = tree(&[
        ("src/ask.ts", MIGRATED_TS),
        (
            "package.json",
            "{\"dependencies\": {\"@google/generative-ai\": \"^0.21.0\"}}\n",
        ),
    ]);
    fix_twice(dir.path(), &["src/ask.ts", "package.json"]);
    assert_eq!(
        read(dir.path(), "package.json"),
        "{\"dependencies\": {\"@google/genai\": \"^2.0.0\"}}\n"
    );
}

#[test]
fn a_run_that_does_not_see_the_whole_project_leaves_the_dependency() {
    let requirements = "google-generativeai>=0.8.3\n";
    let dir = tree(&[("app.py", MIGRATED), ("requirements.txt", requirements)]);
    // Files named one by one: the rest of the project is not known.
    let o = interlint(
        dir.path(),
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--no-progress",
            "app.py",
            "requirements.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!read(dir.path(), "app.py").contains("generativeai"));
    assert_eq!(read(dir.path(), "requirements.txt"), requirements);
    // Standard input: neither.
    let o = interlint_stdin(
        dir.path(),
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--stdin-filename",
            "requirements.txt",
        ],
        requirements,
    );
    assert_eq!(stdout(&o), requirements, "{}", stderr(&o));
    // A folder holding the dependency file: now it is.
    let o = interlint(dir.path(), FIX);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(read(dir.path(), "requirements.txt"), "google-genai>=2.0.0\n");
}

#[test]
fn each_project_of_a_tree_answers_for_itself() {
    let requirements = "google-generativeai>=0.8.3\n";
    let dir = tree(&[
        ("web/app.py", MIGRATED),
        ("web/requirements.txt", requirements),
        ("worker/jobs.py", KEPT),
        ("worker/requirements.txt", requirements),
    ]);
    fix_twice(dir.path(), &["web/requirements.txt", "worker/requirements.txt"]);
    assert_eq!(read(dir.path(), "web/requirements.txt"), "google-genai>=2.0.0\n");
    assert_eq!(read(dir.path(), "worker/requirements.txt"), requirements);
}

#[test]
fn imports_interlint_does_not_parse_keep_the_package() {
    let package = "{\"dependencies\": {\"@google/generative-ai\": \"^0.21.0\"}}\n";
    // A component's script, and a module loaded from a CDN.
    for (name, text) in [
        (
            "src/App.vue",
            "<script setup>\nimport { GoogleGenerativeAI } from \"@google/generative-ai\";\n</script>\n",
        ),
        (
            "src/cdn.js",
            "import { GoogleGenerativeAI } from \"https://esm.run/@google/generative-ai\";\nexport const ai = new GoogleGenerativeAI(\"KEY\");\n",
        ),
    ] {
        let dir = tree(&[
            ("src/ask.ts", MIGRATED_TS),
            (name, text),
            ("package.json", package),
        ]);
        fix_twice(dir.path(), &["src/ask.ts", "package.json"]);
        assert!(!read(dir.path(), "src/ask.ts").contains("generative-ai"));
        assert_eq!(read(dir.path(), "package.json"), package, "{name}");
    }
}
