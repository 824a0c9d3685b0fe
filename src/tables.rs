//! What the rules read of the settings: the model table and brand prefixes, the request-field
//! and client-package tables, built in and extended or replaced by the configuration. A rule
//! gets these and nothing else of the run's [`Settings`](crate::settings::Settings), which hold
//! the rules themselves.

use crate::clients::Clients;
use crate::config::Config;
use crate::models::{ModelMatcher, ModelTable};
use crate::request_fields::RequestFields;

/// See [`Tables::compared_in_tests`].
#[derive(Debug, Default)]
pub struct ComparedInTests {
    /// Id → (the test's project folder, the test as shown).
    pub ids: std::collections::BTreeMap<String, Vec<(std::path::PathBuf, String)>>,
}

impl ComparedInTests {
    /// The test of `path`'s project that compares against `id`, if any.
    pub fn test_of(&self, id: &str, path: &std::path::Path) -> Option<&str> {
        self.ids
            .get(id)?
            .iter()
            .find(|(project, _)| path.starts_with(project))
            .map(|(_, test)| test.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// The language of a client package: which sources import it, which files declare it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientLanguage {
    /// Python and notebooks; `requirements*.txt`, `pyproject.toml`, `setup.cfg`, `setup.py`.
    Python,
    /// JavaScript and TypeScript; `package.json`.
    JavaScript,
}

impl ClientLanguage {
    /// The language of the sources of a surface that can import a client package.
    pub fn of_source(surface: crate::lang::Surface) -> Option<Self> {
        use crate::lang::Surface;
        match surface {
            Surface::Python | Surface::Notebook => Some(ClientLanguage::Python),
            Surface::JavaScript | Surface::TypeScript | Surface::Tsx => Some(ClientLanguage::JavaScript),
            _ => None,
        }
    }
}

/// See [`Tables::legacy_imports`].
#[derive(Debug, Default)]
pub struct LegacyImports {
    /// The folders the run walked whole (the folders of its command line): a dependency file
    /// under one of them has every source of its project in the run. Empty when the run is of
    /// files named one by one, standard input or an editor's document.
    pub walked: Vec<std::path::PathBuf>,
    /// The sources of the run that still import a legacy client package once the run's fixes
    /// are made (or that could not be read), in the order of their paths.
    pub importers: Vec<LegacyImporter>,
}

/// A source that imports a legacy client package ([`LegacyImports`]).
#[derive(Debug)]
pub struct LegacyImporter {
    pub path: std::path::PathBuf,
    pub language: ClientLanguage,
    /// The path as shown to the user.
    pub shown: String,
}

/// Whether the sources of a dependency file's project still import the legacy package it
/// declares ([`LegacyImports::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StillImported<'a> {
    /// The run did not read the whole project.
    Unknown,
    /// This source of the project does (as shown to the user).
    By(&'a str),
    /// None does.
    No,
}

impl LegacyImports {
    /// Whether the sources of `language` under the folder of `dependency_file` (its project)
    /// still import the legacy package, once the run's fixes are made.
    pub fn of(&self, dependency_file: &std::path::Path, language: ClientLanguage) -> StillImported<'_> {
        let Some(project) = dependency_file.parent() else {
            return StillImported::Unknown;
        };
        if !self.walked.iter().any(|root| project.starts_with(root)) {
            return StillImported::Unknown;
        }
        match self
            .importers
            .iter()
            .find(|i| i.language == language && i.path.starts_with(project))
        {
            Some(importer) => StillImported::By(&importer.shown),
            None => StillImported::No,
        }
    }
}

pub const DEFAULT_PREFIXES: &[&str] = &["model", "gemini"];

pub struct Tables {
    pub models: ModelTable,
    /// Brand prefixes of model ids (`model`, `gemini`).
    pub prefixes: Vec<String>,
    pub fields: RequestFields,
    pub clients: Clients,
    /// MIG011's requirement pattern, built from `clients` on first use.
    pub requirement_pattern: std::sync::OnceLock<Option<regex::Regex>>,
    pub matcher: ModelMatcher,
    /// The model ids, as written, that the test files of the run compare against, each with
    /// the project of each such test and the first test of that project as shown to the user: a
    /// safe MIG009 fix of the id elsewhere in the project would break the test. Filled by the
    /// run before the files are checked ([`crate::run::compared_in_tests`]).
    pub compared_in_tests: ComparedInTests,
    /// Which sources still import a legacy client package once the run's fixes are made: a
    /// dependency file whose project no longer does can drop the package (MIG011). Filled by a
    /// run over folders after their sources are checked and before their dependency files are
    /// ([`crate::run::run_walking`], [`crate::run::run_in_phases`]); otherwise empty, and
    /// nothing is known.
    pub legacy_imports: LegacyImports,
}

impl Tables {
    /// The tables of a configuration; `model_prefixes`, when not empty, replaces its
    /// `model-prefixes` (the command line's `--model-prefix`).
    pub fn new(config: &Config, model_prefixes: &[String]) -> anyhow::Result<Self> {
        let mut models = ModelTable::builtin()?;
        models.extend(config.model.clone().unwrap_or_default());
        let prefixes: Vec<String> = if !model_prefixes.is_empty() {
            model_prefixes.to_vec()
        } else if let Some(p) = &config.model_prefixes {
            p.clone()
        } else {
            DEFAULT_PREFIXES.iter().map(|s| s.to_string()).collect()
        };
        let matcher = ModelMatcher::new(&models, &prefixes)?;
        let mut fields = RequestFields::builtin()?;
        fields.extend(config.request_field.clone().unwrap_or_default());
        let clients = match &config.clients {
            Some(c) => c.clone(),
            None => Clients::builtin()?,
        };
        Ok(Tables {
            models,
            prefixes,
            fields,
            clients,
            requirement_pattern: std::sync::OnceLock::new(),
            matcher,
            compared_in_tests: ComparedInTests::default(),
            legacy_imports: LegacyImports::default(),
        })
    }

    /// Whether a model id (as written, perhaps `models/...`) is of the family `family` (as the
    /// tables write it, with the neutral brand word): the family itself or a model whose id
    /// goes on from it after a `.` or a `-` (`model-3` holds `model-3.1-flash-lite`, not
    /// `model-30`), with any configured brand prefix.
    pub fn is_of_family(&self, id: &str, family: &str) -> bool {
        let id = id.strip_prefix("models/").unwrap_or(id);
        self.prefixes.iter().any(|p| {
            let family = crate::models::with_prefix(family, p);
            id.strip_prefix(family.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '-']))
        })
    }

    /// Whether a model id (as written, perhaps `models/...` or versioned) is of the newest
    /// generation, with any configured brand prefix.
    pub fn is_newest_generation(&self, id: &str) -> bool {
        let id = id.strip_prefix("models/").unwrap_or(id);
        self.models.newest_generation.iter().any(|newest| {
            self.prefixes
                .iter()
                .any(|p| crate::models::with_prefix(newest, p) == id)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Tables;
    use crate::config::Config;

    #[test]
    fn a_family_holds_its_versions_and_not_a_longer_number() {
        let tables = Tables::new(&Config::default(), &[]).expect("built-in tables");
        assert!(tables.is_of_family("gemini-3.1-flash-lite", "model-3"));
        assert!(tables.is_of_family("models/gemini-3-flash-preview", "model-3"));
        assert!(tables.is_of_family("model-3.5-flash", "model-3"));
        assert!(!tables.is_of_family("gemini-30-flash", "model-3"));
        assert!(!tables.is_of_family("gemini-2.5-flash", "model-3"));
        assert!(!tables.is_of_family("tunedModels/describer-7", "model-3"));
    }
}
