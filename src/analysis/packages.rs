//! Which client package a file belongs to or uses: the client library's own code and tests
//! (where its calls are made by design and stay), a document's imports of the legacy package,
//! the dependency files that declare a package. MIG011 and the rewrites of the MIG rules ask
//! here (through [`super::Analysis`] for the document checked), and so does the run, which
//! reads the legacy imports of a project before its dependency files.
//!
//! Imports the tables and the surfaces' documents only.

use std::path::Path;

use crate::lang::{Document, Surface};
use crate::tables::{ClientLanguage, Tables};

/// The language whose client package a dependency file declares, by the file's name:
/// `requirements*.txt`, `constraints*.txt` (and `.in`), `pyproject.toml`, `setup.cfg`,
/// `setup.py` for Python, `package.json` for JavaScript. A run checks these after the sources
/// ([`crate::run::run_in_phases`]).
pub fn dependency_file_language(path: &Path) -> Option<ClientLanguage> {
    let file_name = path.file_name()?.to_str()?;
    if file_name == "package.json" {
        return Some(ClientLanguage::JavaScript);
    }
    let name = file_name.to_ascii_lowercase();
    let python = (name.starts_with("requirements") || name.starts_with("constraints"))
        && (name.ends_with(".txt") || name.ends_with(".in"))
        || name == "pyproject.toml"
        || name == "setup.cfg"
        || name == "setup.py";
    python.then_some(ClientLanguage::Python)
}

/// The words one of the legacy package's import paths holds in every import of it: the last
/// part of a Python module (`generativeai`, as in `from google import generativeai`), a
/// JavaScript package's name.
pub fn legacy_import_words(settings: &Tables, language: ClientLanguage) -> Vec<String> {
    match language {
        ClientLanguage::Python => settings
            .clients
            .python
            .legacy_modules
            .iter()
            .filter_map(|m| m.rsplit('.').next())
            .map(str::to_string)
            .collect(),
        ClientLanguage::JavaScript => settings.clients.javascript.legacy_modules.clone(),
    }
}

/// Whether a document imports the legacy package (a Python document the Python one, a
/// JavaScript or TypeScript one the JavaScript one), also from a URL or with a registry's prefix
/// (`https://esm.run/@google/generative-ai`, `npm:@google/generative-ai@0.21`).
pub fn imports_legacy_package(doc: &Document, settings: &Tables) -> bool {
    let imports = &doc.facts().imports;
    match doc.surface {
        Surface::Python => {
            let legacy = &settings.clients.python.legacy_modules;
            imports
                .iter()
                .any(|i| legacy_module(&i.module, legacy, '.').is_some())
        }
        Surface::JavaScript | Surface::TypeScript | Surface::Tsx => {
            let legacy = &settings.clients.javascript.legacy_modules;
            imports.iter().any(|i| names_package(&i.module, legacy))
        }
        _ => false,
    }
}

/// Whether `doc` imports a client package, current or legacy (by the same reading as
/// [`imports_legacy_package`]).
pub fn imports_client_package(doc: &Document, settings: &Tables) -> bool {
    let imports = &doc.facts().imports;
    match doc.surface {
        Surface::Python => {
            let p = &settings.clients.python;
            imports.iter().any(|i| {
                legacy_module(&i.module, &p.legacy_modules, '.').is_some()
                    || legacy_module(&i.module, &p.current_modules, '.').is_some()
            })
        }
        Surface::JavaScript | Surface::TypeScript | Surface::Tsx => {
            let js = &settings.clients.javascript;
            imports.iter().any(|i| {
                names_package(&i.module, &js.legacy_modules) || names_package(&i.module, &js.current)
            })
        }
        _ => false,
    }
}

/// Whether a JavaScript module specifier names one of the packages `names`, wherever it is
/// loaded from: after a `/` or `:` (or at the start), before a `/`, `@`, `?` or `#` (or the end).
fn names_package(specifier: &str, names: &[String]) -> bool {
    names.iter().any(|name| {
        specifier.match_indices(name.as_str()).any(|(at, _)| {
            let before = specifier[..at].chars().next_back();
            let after = specifier[at + name.len()..].chars().next();
            before.is_none_or(|c| c == '/' || c == ':') && after.is_none_or(|c| "/@?#".contains(c))
        })
    })
}

/// The legacy package an import path is of (the package or one of its modules).
pub fn legacy_module<'l>(module: &str, legacy: &'l [String], separator: char) -> Option<&'l String> {
    legacy.iter().find(|l| {
        module == *l
            || module
                .strip_prefix(l.as_str())
                .is_some_and(|rest| rest.starts_with(separator))
    })
}

/// Whether `path` lies in the folder of the Python package `module` (`google.generativeai` →
/// `.../google/generativeai/...`).
pub fn is_inside_package(path: &Path, module: &str) -> bool {
    let parts: Vec<&str> = module.split('.').collect();
    let folders: Vec<&str> = path
        .parent()
        .into_iter()
        .flat_map(|p| p.components())
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    folders.windows(parts.len()).any(|w| w == parts.as_slice())
}

/// Folders above a file searched for the package's own source folder.
const PROJECT_DEPTH: usize = 6;

/// Whether a folder above `path` holds the Python package `module` itself
/// (`google/generativeai/__init__.py`): the file belongs to the package's own project (its tests,
/// its docs build), which imports the package by design.
pub fn project_holds_package(path: &Path, module: &str) -> bool {
    let package: std::path::PathBuf = module.split('.').collect();
    path.ancestors()
        .skip(1)
        .take(PROJECT_DEPTH)
        .any(|folder| folder.join(&package).join("__init__.py").is_file())
}

/// Whether a folder above `path` is the project of one of the JavaScript packages `names`: its
/// `package.json` names it (the package's own tests and samples use it by design).
pub fn js_project_is_package(path: &Path, names: &[String]) -> bool {
    path.ancestors().skip(1).take(PROJECT_DEPTH).any(|folder| {
        std::fs::read_to_string(folder.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|json| json.get("name")?.as_str().map(str::to_string))
            .is_some_and(|name| names.contains(&name))
    })
}

/// Whether a file of `surface` at `path` is the legacy client package's own code or tests
/// ([`in_legacy_project`]): the legacy client is used there by design.
pub fn own_legacy_code(path: &Path, settings: &Tables, surface: Surface) -> bool {
    in_legacy_project(
        path,
        settings,
        matches!(surface, Surface::Python | Surface::Notebook),
    )
}

/// Whether a file of `surface` at `path` is the current client package's own code or tests:
/// they call its create-content method by design (a test of `generate_content` tests that
/// method), so a rewrite to `interactions.create` would change what they test.
pub fn own_current_code(path: &Path, settings: &Tables, surface: Surface) -> bool {
    let python = matches!(surface, Surface::Python | Surface::Notebook);
    let packages = &settings.clients;
    let packages = if python {
        &packages.python
    } else {
        &packages.javascript
    };
    in_package_project(path, &packages.current_modules, &packages.current, python)
}

/// Whether the file is the legacy client package's own code or tests (in the package's own
/// project, under its source or a test folder), where the legacy client is used by design. Its
/// samples and docs are not: they show how to call the API and migrate like any user's code.
pub fn in_legacy_project(path: &Path, settings: &Tables, python: bool) -> bool {
    let packages = &settings.clients;
    if python {
        in_package_project(path, &packages.python.legacy_modules, &[], true)
    } else {
        in_package_project(path, &[], &packages.javascript.legacy, false)
    }
}

/// Whether the file is in a client package's own project: inside the Python package `modules`
/// name, or in a test folder of a project holding it (Python) or named one of `names` in its
/// `package.json` (JavaScript).
fn in_package_project(path: &Path, modules: &[String], names: &[String], python: bool) -> bool {
    let under_tests = path
        .parent()
        .into_iter()
        .flat_map(|p| p.components())
        .filter_map(|c| c.as_os_str().to_str())
        .any(|c| matches!(c, "tests" | "test" | "test-integration" | "__tests__"));
    if python {
        modules
            .iter()
            .any(|m| is_inside_package(path, m) || under_tests && project_holds_package(path, m))
    } else {
        under_tests && js_project_is_package(path, names)
    }
}
