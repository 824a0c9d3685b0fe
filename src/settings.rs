//! Everything a check needs, resolved once from the command line and the configuration.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobMatcher, GlobSet, GlobSetBuilder};

use crate::config::LoadedConfig;
use crate::prefilter::{Prefilter, Words};
use crate::registry::{self, Rule};
use crate::tables::Tables;

pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;
/// Folders of tools' caches, environments, installed packages and build output, never walked
/// unless `exclude` (or `--no-default-excludes`) replaces the list: ruff's default `exclude`
/// (`venv`, `node_modules`, `site-packages`, `dist`, ...) and the caches of JavaScript tools.
/// Hidden files are walked otherwise: `.env` files and CI workflows hold model ids.
pub const DEFAULT_EXCLUDE: &[&str] = &[
    ".angular",
    ".direnv",
    ".eggs",
    ".git-rewrite",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".next",
    ".nox",
    ".nuxt",
    ".pants.d",
    ".parcel-cache",
    ".pnpm-store",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svelte-kit",
    ".tox",
    ".turbo",
    ".venv",
    ".vscode",
    ".yarn",
    "__pypackages__",
    "_build",
    "buck-out",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
];
/// Version-control folders: never walked, whatever `exclude` says.
pub const VCS_FOLDERS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr"];

/// Choices of the command line that shape the settings.
#[derive(Debug, Default)]
pub struct Overrides {
    pub select: Option<Vec<String>>,
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
    pub model_prefixes: Vec<String>,
    pub max_file_size: Option<u64>,
    /// `--exclude`: replaces the configuration's `exclude` (and the default list).
    pub exclude: Option<Vec<String>>,
    /// `--extend-exclude`: added to the excludes.
    pub extend_exclude: Vec<String>,
    /// `--no-default-excludes`: no default list when neither the configuration nor the command
    /// line gives `exclude`.
    pub no_default_excludes: bool,
}

pub struct Settings {
    /// What the rules read: the model, request-field and client tables.
    pub tables: Tables,
    pub rules: Vec<&'static dyn Rule>,
    /// One search for the trigger words and anchors of every enabled rule.
    pub prefilter: Prefilter,
    pub exclude: GlobSet,
    /// The globs behind `exclude`, as configured (for `--show-settings`).
    pub exclude_globs: Vec<String>,
    per_file_ignores: Vec<(GlobMatcher, Vec<String>)>,
    /// Where globs are anchored: the configuration's folder, else the current one.
    pub root: PathBuf,
    /// The current folder, absolute.
    cwd: PathBuf,
    pub max_file_size: u64,
    /// The dedicated configuration file in use: it defines a team's ids, so it is not checked.
    pub config_file: Option<PathBuf>,
}

impl Settings {
    pub fn new(loaded: &LoadedConfig, overrides: Overrides, cwd: &Path) -> anyhow::Result<Self> {
        let config = &loaded.config;
        let tables = Tables::new(config, &overrides.model_prefixes)?;
        // As in ruff, a `--select` on the command line starts the selection afresh (the
        // configuration's `select`, `extend-select` and `ignore` are dropped); otherwise the
        // command line's `--extend-select` and `--ignore` add to the configuration's.
        let (mut select, extend, ignore) = match &overrides.select {
            Some(select) => (select.clone(), Vec::new(), overrides.ignore.clone()),
            None => {
                let mut ignore = config.ignore.clone().unwrap_or_default();
                ignore.extend(overrides.ignore.iter().cloned());
                let select = config.select.clone().unwrap_or_default();
                (select, config.extend_select.clone().unwrap_or_default(), ignore)
            }
        };
        let extend: Vec<String> = extend
            .into_iter()
            .chain(overrides.extend_select.iter().cloned())
            .collect();
        if select.is_empty() && !extend.is_empty() {
            // An empty selection is every rule: extending it must not narrow it.
            select.push("ALL".into());
        }
        select.extend(extend);
        let rules = registry::select_rules(&select, &ignore);
        let root = loaded.root().map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
        // As in ruff, `exclude` replaces the default list and `extend-exclude` adds to it.
        // The command line's `--exclude` replaces the configuration's, and its
        // `--extend-exclude` adds to both.
        let exclude_globs: Vec<String> = match overrides.exclude.as_ref().or(config.exclude.as_ref()) {
            Some(globs) => globs.clone(),
            None if overrides.no_default_excludes => Vec::new(),
            None => DEFAULT_EXCLUDE.iter().map(|s| s.to_string()).collect(),
        }
        .into_iter()
        .chain(config.extend_exclude.iter().flatten().cloned())
        .chain(overrides.extend_exclude.iter().cloned())
        .collect();
        let mut exclude = GlobSetBuilder::new();
        for glob in &exclude_globs {
            exclude.add(Glob::new(glob).map_err(|e| anyhow::anyhow!("exclude glob `{glob}`: {e}"))?);
        }
        let mut per_file_ignores = Vec::new();
        for (glob, codes) in config.per_file_ignores.iter().flatten() {
            per_file_ignores.push((Glob::new(glob)?.compile_matcher(), codes.clone()));
        }
        let mut settings = Settings {
            tables,
            rules,
            prefilter: Prefilter::default(),
            exclude: exclude.build()?,
            exclude_globs,
            per_file_ignores,
            root,
            cwd: std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf()),
            config_file: loaded
                .path
                .as_ref()
                .filter(|p| p.file_name().is_some_and(|n| n != "pyproject.toml"))
                .and_then(|p| std::fs::canonicalize(p).ok()),
            max_file_size: overrides
                .max_file_size
                .or(config.max_file_size)
                .unwrap_or(DEFAULT_MAX_FILE_SIZE),
        };
        let words = settings.rules.iter().map(|rule| Words {
            triggers: rule.triggers(&settings.tables),
            anchors: rule.anchors(&settings.tables),
        });
        settings.prefilter = Prefilter::new(words.collect())?;
        Ok(settings)
    }

    /// The rules among `rules` to run on a file: those its bytes hold the words of
    /// ([`Prefilter`]) or that claim it by its name; a rule the prefilter was not built for is
    /// kept. Empty: the file is not parsed.
    pub fn select(&self, rules: &[&'static dyn Rule], path: &Path, bytes: &[u8]) -> Vec<&'static dyn Rule> {
        let name = path.file_name().and_then(|n| n.to_str());
        // A notebook's outputs are never read: words there call on no rule.
        let met = if crate::lang::Surface::from_path(path) == crate::lang::Surface::Notebook {
            self.prefilter
                .select_parts(&crate::lang::notebook::read_bytes(bytes))
        } else {
            self.prefilter.select(bytes)
        };
        rules
            .iter()
            .copied()
            .filter(|rule| {
                let known = self.rules.iter().position(|k| registry::same_rule(*k, *rule));
                known.is_none_or(|i| met[i]) || name.is_some_and(|n| rule.claims_file(n))
            })
            .collect()
    }

    /// `path` joined to the current folder read once (`std::path::absolute` asks the system
    /// for it on every call, and every walked entry is matched against `exclude`).
    fn absolute(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        }
    }

    /// The path as globs see it: relative to the root when under it.
    fn relative<'p>(&self, path: &'p Path) -> &'p Path {
        let absolute = path.strip_prefix(&self.root).ok();
        absolute.unwrap_or(path)
    }

    /// Whether `path` is the configuration file in use.
    pub fn is_config_file(&self, path: &Path) -> bool {
        // Compare names first: resolving every walked path would cost a system call each.
        self.config_file.as_ref().is_some_and(|c| {
            c.file_name() == path.file_name() && std::fs::canonicalize(path).is_ok_and(|p| &p == c)
        })
    }

    /// Whether a walked path matches an `exclude` glob (by its relative path or its name).
    pub fn is_excluded(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        if path.file_name().is_some_and(|n| self.exclude.is_match(n)) {
            return true;
        }
        self.exclude.is_match(self.relative(&self.absolute(path)))
    }

    /// The `per-file-ignores` globs, each with its codes.
    pub fn per_file_ignores(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.per_file_ignores
            .iter()
            .map(|(glob, codes)| (glob.glob().glob(), codes.as_slice()))
    }

    /// The enabled rules minus those `per-file-ignores` turns off for this path.
    pub fn rules_for(&self, path: &Path) -> Vec<&'static dyn Rule> {
        if self.per_file_ignores.is_empty() {
            return self.rules.clone();
        }
        let absolute = self.absolute(path);
        let relative = self.relative(&absolute);
        let ignored: Vec<&String> = self
            .per_file_ignores
            .iter()
            .filter(|(glob, _)| glob.is_match(relative) || path.file_name().is_some_and(|n| glob.is_match(n)))
            .flat_map(|(_, codes)| codes)
            .collect();
        self.rules
            .iter()
            .copied()
            .filter(|rule| {
                !ignored
                    .iter()
                    .any(|c| rule.meta().code.starts_with(c.as_str()) || c.as_str() == "ALL")
            })
            .collect()
    }
}
