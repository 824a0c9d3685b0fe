//! MIG011 client-package: dependencies on the legacy client package or on the current one below
//! the version that has interactions, and imports of the legacy package.

mod entries;

use std::ops::Range;

use regex::Regex;

use crate::analysis::packages::{
    dependency_file_language, imports_legacy_package, is_inside_package, legacy_module, project_holds_package,
};
use crate::clients::{compare_versions, normalize_python_name, version_numbers};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::{Document, Surface};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::{ClientLanguage, StillImported, Tables};
use entries::{Current, Form};

pub struct ClientPackage;

static META: RuleMeta = RuleMeta {
    code: "MIG011",
    name: "client-package",
    summary: "A dependency on the legacy client package or on the current one below 2.0.0; legacy imports",
    surfaces: "requirements*.txt, pyproject.toml, setup.cfg, setup.py, package.json, notebooks, Python, JavaScript, TypeScript",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe",
    doc: include_str!("../../rules/docs/MIG011.md"),
};

impl Rule for ClientPackage {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, settings: &Tables) -> Vec<String> {
        super::mig::client_words(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let settings = cx.settings;
        match doc.surface {
            Surface::Python | Surface::JavaScript | Surface::TypeScript | Surface::Tsx => {
                legacy_imports(doc, cx)
            }
            Surface::Json if cx.file_name == "package.json" => return package_json(doc, cx),
            _ => {}
        }
        let dependency_file = dependency_file_language(cx.path) == Some(ClientLanguage::Python);
        let regions: Vec<Range<usize>> = if doc.cell.is_some() {
            doc.magics
                .iter()
                .filter(|r| doc.text.get((*r).clone()).is_some_and(|l| l.contains("install")))
                .cloned()
                .collect()
        } else if dependency_file {
            doc.scan_regions.clone()
        } else {
            return;
        };
        if regions.is_empty() {
            return;
        }
        let Some(pattern) = settings
            .requirement_pattern
            .get_or_init(|| requirement_pattern(settings))
            .as_ref()
        else {
            return;
        };
        let minimum = version_numbers(&settings.clients.minimum_version);
        // Whether the legacy package may go, asked once: the files of its project, or the
        // notebook's own cells.
        let mut still_imported = None;
        for region in regions {
            let Some(text) = doc.text.get(region.clone()) else {
                continue;
            };
            for caps in pattern.captures_iter(text) {
                let (Some(name), Some(whole)) = (caps.name("name"), caps.get(0)) else {
                    continue;
                };
                // A whole name: not part of a longer one (`google-genai-extras`, `my.google-genai`).
                let before = text[..name.start()].chars().next_back();
                let after = text[whole.end()..].chars().next();
                if before.is_some_and(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
                    || after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    continue;
                }
                let normalized = normalize_python_name(name.as_str());
                let at = |m: regex::Match| region.start + m.start()..region.start + m.end();
                if settings
                    .clients
                    .python
                    .legacy
                    .iter()
                    .any(|l| normalize_python_name(l) == normalized)
                {
                    // The legacy package's own project names itself (`name="google-generativeai"`).
                    if name_of_project_is_package(cx.path, &settings.clients.python.legacy_modules) {
                        continue;
                    }
                    let still = *still_imported.get_or_insert_with(|| python_still_imported(doc, cx));
                    let diagnostic =
                        legacy_requirement(doc, cx, name.as_str(), at(name), region.clone(), still);
                    cx.report(diagnostic);
                    continue;
                }
                let Some(spec) = caps.name("spec").or(caps.name("poetry")) else {
                    continue;
                };
                if !admits_below(spec.as_str(), &minimum) {
                    continue;
                }
                // Upper bounds and exclusions above the minimum stay: `>=1.65,<3` → `>=2.0.0,<3`.
                let mut wanted = format!(">={}", settings.clients.minimum_version);
                for bound in bounds_above(spec.as_str(), ',', &minimum) {
                    wanted.push(',');
                    wanted.push_str(&bound);
                }
                let written = if caps.name("poetry").is_some() {
                    format!("{} = \"{}\"", name.as_str(), spec.as_str())
                } else {
                    format!("{}{}", name.as_str(), spec.as_str().trim())
                };
                let message = format!(
                    "`{written}` allows versions below {}; interactions need {} or later",
                    settings.clients.minimum_version, settings.clients.minimum_version
                );
                let range = at(spec);
                // Keep the spacing around the specifier.
                let trimmed = spec.as_str().trim();
                let lead = spec.as_str().len() - spec.as_str().trim_start().len();
                let range = range.start + lead..range.start + lead + trimmed.len();
                cx.report(
                    Diagnostic::new(&META, Severity::Error, message, range.clone()).with_fix(Fix::new(
                        Applicability::Unsafe,
                        format!("Require `{wanted}`"),
                        vec![Edit::replace(range, wanted.clone())],
                    )),
                );
            }
        }
    }
}

/// The finding of a Python dependency on the legacy package, named at `range` in `region`;
/// with an unsafe fix that drops it once nothing imports the package any more (`still`).
fn legacy_requirement(
    doc: &Document,
    cx: &RuleContext,
    name: &str,
    range: Range<usize>,
    region: Range<usize>,
    still: StillImported,
) -> Diagnostic {
    let settings = cx.settings;
    let current = settings
        .clients
        .python
        .current
        .first()
        .cloned()
        .unwrap_or_default();
    let requirement = format!("{current}>={}", settings.clients.minimum_version);
    let message = format!("`{name}` is the legacy client package; interactions need `{current}`");
    let pip = doc.cell.is_some();
    let diagnostic = Diagnostic::new(&META, Severity::Error, message, range.clone())
        .with_suggestion(legacy_suggestion(&format!("`{requirement}`"), still, pip));
    if still != StillImported::No {
        return diagnostic;
    }
    let packages = Current {
        names: &settings.clients.python.current,
        requirement: &requirement,
        name: &current,
    };
    let form = if pip {
        // The notebook's cells up to this line's end, in the module they make.
        let (text, end) = match &doc.module {
            Some((module, base)) => (module.doc.text.as_str(), base + region.end),
            None => (doc.text.as_str(), region.end),
        };
        Form::PipLine {
            installed_before: entries::installs_current(text.get(..end).unwrap_or_default(), &packages),
        }
    } else {
        match cx.file_name.to_ascii_lowercase().as_str() {
            "pyproject.toml" => Form::Pyproject,
            "setup.cfg" => Form::SetupCfg,
            "setup.py" => Form::SetupPy,
            _ => Form::Requirements,
        }
    };
    match entries::legacy_entry(form, &doc.text, range, region, &packages) {
        Some(edit) => diagnostic.with_fix(Fix::new(
            Applicability::Unsafe,
            legacy_fix_message(name, &current, edit.removed, pip, &requirement),
            edit.edits,
        )),
        None => diagnostic,
    }
}

/// Whether the project of a Python dependency file (or the notebook of a `%pip install` line)
/// still imports the legacy package.
fn python_still_imported<'t>(doc: &Document, cx: &RuleContext<'t>) -> StillImported<'t> {
    if doc.cell.is_some() {
        // A notebook's pip line installs for the notebook's own cells, read as one module.
        let module = doc.module.as_ref().map_or(doc, |(module, _)| &module.doc);
        return if imports_legacy_package(module, cx.settings) {
            StillImported::By("the notebook")
        } else {
            StillImported::No
        };
    }
    // `setup.py` is checked with the dependency files: its own imports are read here.
    if doc.surface == Surface::Python && imports_legacy_package(doc, cx.settings) {
        return StillImported::By(cx.file_name);
    }
    cx.settings.legacy_imports.of(cx.path, ClientLanguage::Python)
}

/// The suggestion of a legacy dependency: what to depend on instead, and what still imports the
/// package (the notebook itself, for a `%pip install` line).
fn legacy_suggestion(instead: &str, still: StillImported, notebook: bool) -> String {
    let mut suggestion = format!("Depend on {instead} instead and change the imports to the current package");
    match still {
        StillImported::By(_) if notebook => {
            suggestion.push_str(" (the notebook still imports the legacy package)")
        }
        StillImported::By(importer) => {
            suggestion.push_str(&format!(" (`{importer}` still imports the legacy package)"))
        }
        StillImported::Unknown | StillImported::No => {}
    }
    suggestion
}

fn legacy_fix_message(legacy: &str, current: &str, removed: bool, pip: bool, requirement: &str) -> String {
    let why = if pip {
        "the notebook no longer imports it"
    } else {
        "no file of the project imports it any more"
    };
    match (removed, pip) {
        (true, _) => format!("Remove `{legacy}`, declared beside `{current}`: {why}"),
        (false, true) => format!("Install `{current}` instead: {why}"),
        (false, false) => format!("Replace with `{requirement}`: {why}"),
    }
}

/// `import google.generativeai as genai`, `from google import generativeai`; in JavaScript
/// `import ... from "@google/generative-ai"`, `require(...)`, `import(...)`.
fn legacy_imports(doc: &Document, cx: &mut RuleContext) {
    let python = doc.surface == Surface::Python;
    let (legacy, separator, advice) = if python {
        (
            &cx.settings.clients.python.legacy_modules,
            '.',
            "Import the current package (`from google import genai`) and create a client with `genai.Client()`",
        )
    } else {
        (
            &cx.settings.clients.javascript.legacy_modules,
            '/',
            "Import `GoogleGenAI` from the current package and create a client with `new GoogleGenAI({})`",
        )
    };
    for import in &doc.facts().imports {
        let module = &import.module;
        let Some(package) = legacy_module(module, legacy, separator) else {
            continue;
        };
        // The legacy package's own sources import themselves: nothing there to migrate.
        if python && (is_inside_package(cx.path, package) || project_holds_package(cx.path, package)) {
            continue;
        }
        let message = format!("`{module}` is the legacy client package");
        cx.report(
            Diagnostic::new(&META, Severity::Error, message, import.module_range.clone())
                .with_suggestion(advice),
        );
    }
}

/// Whether the project of a dependency file (`setup.py`, `pyproject.toml`) is one of the legacy
/// packages: its folder holds the package's source folder.
fn name_of_project_is_package(path: &std::path::Path, modules: &[String]) -> bool {
    let Some(folder) = path.parent() else {
        return false;
    };
    modules.iter().any(|module| {
        let package: std::path::PathBuf = module.split('.').collect();
        folder.join(package).join("__init__.py").is_file()
    })
}

/// A `package.json`'s dependencies on the legacy package, or on the current one below the
/// minimum version (npm ranges: `||` alternatives of space-separated comparators).
fn package_json(doc: &Document, cx: &mut RuleContext) {
    let settings = cx.settings;
    let packages = &settings.clients.javascript;
    let minimum_text = &settings.clients.minimum_version;
    let minimum = version_numbers(minimum_text);
    let dependencies = crate::lang::json::package_dependencies(doc);
    for dependency in &dependencies {
        if packages.legacy.contains(&dependency.name) {
            let diagnostic = legacy_package_dependency(doc, cx, dependency, &dependencies);
            cx.report(diagnostic);
            continue;
        }
        if !packages.current.contains(&dependency.name) {
            continue;
        }
        let below = dependency.version.split("||").any(|alternative| {
            admits_below(
                &alternative.split_whitespace().collect::<Vec<_>>().join(","),
                &minimum,
            )
        });
        if !below {
            continue;
        }
        // An upper bound above the minimum stays (`>=1 <4` → `>=2.0.0 <4`); else a caret range.
        let bounds: Vec<String> = dependency
            .version
            .split("||")
            .flat_map(|alternative| bounds_above(alternative, ' ', &minimum))
            .collect();
        let wanted = if bounds.is_empty() || dependency.version.contains("||") {
            format!("^{minimum_text}")
        } else {
            format!(">={minimum_text} {}", bounds.join(" "))
        };
        let message = format!(
            "`\"{}\": \"{}\"` allows versions below {minimum_text}; interactions need {minimum_text} or later",
            dependency.name, dependency.version
        );
        cx.report(
            Diagnostic::new(&META, Severity::Error, message, dependency.version_range.clone()).with_fix(
                Fix::new(
                    Applicability::Unsafe,
                    format!("Require `{wanted}`"),
                    vec![Edit::replace(dependency.version_range.clone(), wanted.clone())],
                ),
            ),
        );
    }
}

/// The finding of a `package.json` dependency on the legacy package; with an unsafe fix that
/// drops it once nothing imports the package any more: the property goes when the current
/// package is declared in the same object (or in `dependencies`), else it names the current
/// package.
fn legacy_package_dependency(
    doc: &Document,
    cx: &RuleContext,
    dependency: &crate::lang::json::Dependency,
    dependencies: &[crate::lang::json::Dependency],
) -> Diagnostic {
    let settings = cx.settings;
    let packages = &settings.clients.javascript;
    let current = packages.current.first().cloned().unwrap_or_default();
    let wanted = format!("^{}", settings.clients.minimum_version);
    let requirement = format!("\"{current}\": \"{wanted}\"");
    let message = format!(
        "`{}` is the legacy client package; interactions need `{current}`",
        dependency.name
    );
    let still = settings.legacy_imports.of(cx.path, ClientLanguage::JavaScript);
    let diagnostic = Diagnostic::new(&META, Severity::Error, message, dependency.name_range.clone())
        .with_suggestion(legacy_suggestion(&format!("`{requirement}`"), still, false));
    if still != StillImported::No {
        return diagnostic;
    }
    // In the same object, or in `dependencies`, which every install installs.
    let beside = dependencies.iter().any(|d| {
        (d.section == dependency.section || d.section == "dependencies") && packages.current.contains(&d.name)
    });
    // From the key's opening quote to the value's closing one.
    let property = dependency.name_range.start.saturating_sub(1)..dependency.version_range.end + 1;
    let edits = if beside {
        entries::json_property_removal(&doc.text, property)
            .map(|range| vec![Edit::replace(range, String::new())])
    } else {
        Some(vec![
            Edit::replace(dependency.name_range.clone(), current.clone()),
            Edit::replace(dependency.version_range.clone(), wanted),
        ])
    };
    match edits {
        Some(edits) => diagnostic.with_fix(Fix::new(
            Applicability::Unsafe,
            legacy_fix_message(&dependency.name, &current, beside, false, &requirement),
            edits,
        )),
        None => diagnostic,
    }
}

/// A requirement naming a client package: `name[extras] specifier` (pip, PEP 621) or
/// `name = "spec"` / `name = { version = "spec" }` (Poetry).
fn requirement_pattern(settings: &Tables) -> Option<Regex> {
    let p = &settings.clients.python;
    let names: Vec<String> = p
        .current
        .iter()
        .chain(&p.legacy)
        .map(|n| {
            normalize_python_name(n)
                .split('-')
                .map(regex::escape)
                .collect::<Vec<_>>()
                .join("[-_.]")
        })
        .collect();
    if names.is_empty() {
        return None;
    }
    let op = r"(?:===|==|~=|!=|<=|>=|<|>)";
    let version = r"[0-9A-Za-z.*+!_-]+";
    let pattern = format!(
        r#"(?i)(?P<name>{names})(?:\s*\[[^\]\n]*\])?(?:(?P<spec>\s*{op}\s*{version}(?:\s*,\s*{op}\s*{version})*)|\s*=\s*(?:\{{[^}}\n]*?version\s*=\s*)?["'](?P<poetry>[^"'\n]+)["'])?"#,
        names = names.join("|"),
    );
    Regex::new(&pattern).ok()
}

/// Whether a version specifier (pip or Poetry) admits a version below `minimum`.
fn admits_below(spec: &str, minimum: &[u64]) -> bool {
    let mut lows: Vec<Vec<u64>> = Vec::new();
    let mut below_minimum_cap = false;
    for clause in spec.split(',') {
        let clause = clause.trim();
        let (op, version) = split_clause(clause);
        let numbers = version_numbers(version);
        if numbers.is_empty() {
            continue;
        }
        let below = compare_versions(&numbers, minimum) == std::cmp::Ordering::Less;
        match op {
            "==" | "===" | "~=" | "^" | "~" | "" | ">=" | ">" => lows.push(numbers),
            "<" => below_minimum_cap |= compare_versions(&numbers, minimum) != std::cmp::Ordering::Greater,
            "<=" => below_minimum_cap |= below,
            _ => {}
        }
    }
    below_minimum_cap
        || lows
            .iter()
            .max_by(|a, b| compare_versions(a, b))
            .is_some_and(|low| compare_versions(low, minimum) == std::cmp::Ordering::Less)
}

/// The clauses of a specifier that cap or exclude versions above `minimum` (`<3`, `<=2.9`,
/// `!=2.1.0`), as written: a rewrite of the lower bound keeps them.
fn bounds_above(spec: &str, separator: char, minimum: &[u64]) -> Vec<String> {
    let mut kept = Vec::new();
    for clause in spec.split(separator) {
        let clause = clause.trim();
        let (op, version) = split_clause(clause);
        let numbers = version_numbers(version);
        if numbers.is_empty() {
            continue;
        }
        let order = compare_versions(&numbers, minimum);
        let keep = match op {
            "<" => order == std::cmp::Ordering::Greater,
            "<=" | "!=" => order != std::cmp::Ordering::Less,
            _ => false,
        };
        if keep {
            kept.push(format!("{op}{version}"));
        }
    }
    kept
}

fn split_clause(clause: &str) -> (&str, &str) {
    for op in ["===", "==", "~=", "!=", "<=", ">=", "<", ">", "^", "~"] {
        if let Some(rest) = clause.strip_prefix(op) {
            return (op, rest.trim());
        }
    }
    ("", clause)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers() {
        let two = [2, 0, 0];
        for below in [
            "==1.2.0", "<2", "~=1.10", "^1.2", ">=1.0.0", ">=1.0,<2", "1.2.0", "<=1.9", "<2.0.0",
        ] {
            assert!(admits_below(below, &two), "{below}");
        }
        for fine in [">=2.0.0", "==2.1", "^2.0", ">=2", "!=1.0", "*", ">=2.0,<3"] {
            assert!(!admits_below(fine, &two), "{fine}");
        }
        assert_eq!(bounds_above(">=1.65.0,<3.0.0", ',', &two), ["<3.0.0"]);
        assert_eq!(
            bounds_above(">=1.0, <2, !=2.1.0, <=4", ',', &two),
            ["!=2.1.0", "<=4"]
        );
        assert_eq!(bounds_above(">=1.0.0 <4.0.0", ' ', &two), ["<4.0.0"]);
        assert!(bounds_above("^1.2", ' ', &two).is_empty());
    }
}
