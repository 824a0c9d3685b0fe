//! The configuration file: `interlint.toml`, `.interlint.toml` or `[tool.interlint]` in
//! `pyproject.toml`, found by searching upwards from the first path checked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::models::ModelEntry;

/// Keys of the configuration file. Unknown keys are errors, so a typo is never ignored.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    pub select: Option<Vec<String>>,
    /// Codes or prefixes enabled on top of `select`.
    pub extend_select: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    /// Globs of paths never walked into (a path named on the command line is still checked,
    /// unless `--force-exclude`); replaces the default list.
    pub exclude: Option<Vec<String>>,
    /// Globs added to `exclude` (or to its default list).
    pub extend_exclude: Option<Vec<String>>,
    /// Glob → codes ignored in the files it matches.
    pub per_file_ignores: Option<BTreeMap<String, Vec<String>>>,
    pub model_prefixes: Option<Vec<String>>,
    /// A team's own model ids, in the shape of `rules/models.toml`.
    pub model: Option<Vec<ModelEntry>>,
    /// Bytes, or a size with a unit as `--max-file-size` takes it (`"10M"`).
    #[serde(default, deserialize_with = "size")]
    pub max_file_size: Option<u64>,
    /// Entries of the request-field table, in the shape of `rules/request_fields.toml`; an
    /// entry for a known field replaces the built-in one.
    pub request_field: Option<Vec<crate::request_fields::RequestField>>,
    /// The client packages, in the shape of `rules/clients.toml` (replaces the built-in table).
    pub clients: Option<crate::clients::Clients>,
}

/// A `--config` argument: a file, or a `KEY = VALUE` setting written as in the file.
#[derive(Clone, Debug)]
pub enum ConfigArg {
    File(PathBuf),
    Setting(Box<Config>),
}

/// Reads a `--config` argument as ruff does: an existing file is a file; text with `=` that
/// is not one is a setting, which must parse; anything else is a file (that cannot be read).
pub fn parse_config_arg(value: &str) -> Result<ConfigArg, String> {
    let path = Path::new(value);
    if path.is_file() || !value.contains('=') {
        return Ok(ConfigArg::File(path.to_path_buf()));
    }
    parse_str(value)
        .map(|config| ConfigArg::Setting(Box::new(config)))
        .map_err(|e| format!("not a file, and not a `KEY = VALUE` setting of the configuration: {e}"))
}

impl Config {
    /// The keys `over` sets replace this configuration's (a setting given with `--config`).
    fn overlay(&mut self, over: Config) {
        macro_rules! take {
            ($($key:ident),*) => {$(
                if over.$key.is_some() {
                    self.$key = over.$key;
                }
            )*};
        }
        // Every key is named: a new key that is not taken over does not compile.
        let Config {
            select: _,
            extend_select: _,
            ignore: _,
            exclude: _,
            extend_exclude: _,
            per_file_ignores: _,
            model_prefixes: _,
            model: _,
            max_file_size: _,
            request_field: _,
            clients: _,
        } = &over;
        take!(
            select,
            extend_select,
            ignore,
            exclude,
            extend_exclude,
            per_file_ignores,
            model_prefixes,
            model,
            max_file_size,
            request_field,
            clients
        );
    }
}

/// Loads the configuration the `--config` arguments name (at most one file; without one, the
/// nearest above `start`), with their settings laid over it in order.
pub fn load_with(args: &[ConfigArg], start: &Path) -> Result<LoadedConfig, ConfigError> {
    let mut files = args.iter().filter_map(|a| match a {
        ConfigArg::File(path) => Some(path.as_path()),
        ConfigArg::Setting(_) => None,
    });
    let file = files.next();
    if let Some(second) = files.next() {
        return Err(ConfigError::Invalid {
            path: second.to_path_buf(),
            message: "only one configuration file can be given with --config (settings as `KEY = VALUE` can be added)".into(),
        });
    }
    let mut loaded = load(file, start)?;
    for arg in args {
        if let ConfigArg::Setting(setting) = arg {
            loaded.config.overlay((**setting).clone());
        }
    }
    Ok(loaded)
}

/// A configuration and the file it came from.
#[derive(Debug, Default)]
pub struct LoadedConfig {
    pub config: Config,
    pub path: Option<PathBuf>,
}

impl LoadedConfig {
    /// The directory relative to which globs are matched.
    pub fn root(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The system's message is part of this one (not a `source`, which would print it twice).
    #[error("cannot read configuration file {}: {}", path.display(), crate::source::describe_io(error))]
    Read { path: PathBuf, error: std::io::Error },
    #[error("invalid configuration in {path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

#[derive(Deserialize)]
struct PyProject {
    tool: Option<PyProjectTool>,
}

#[derive(Deserialize)]
struct PyProjectTool {
    interlint: Option<toml::Value>,
}

/// Loads `explicit`, or else the nearest configuration above `start`.
pub fn load(explicit: Option<&Path>, start: &Path) -> Result<LoadedConfig, ConfigError> {
    if let Some(path) = explicit {
        let config = parse_file(path, is_pyproject(path))?;
        return Ok(LoadedConfig {
            config: config.unwrap_or_default(),
            path: Some(path.to_path_buf()),
        });
    }
    let start = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
    let mut dir = if start.is_dir() {
        Some(start.as_path())
    } else {
        start.parent()
    };
    while let Some(current) = dir {
        for name in ["interlint.toml", ".interlint.toml", "pyproject.toml"] {
            let candidate = current.join(name);
            if !candidate.is_file() {
                continue;
            }
            if let Some(config) = parse_file(&candidate, name == "pyproject.toml")? {
                return Ok(LoadedConfig {
                    config,
                    path: Some(candidate),
                });
            }
        }
        dir = current.parent();
    }
    Ok(LoadedConfig {
        config: Config::default(),
        path: None,
    })
}

fn is_pyproject(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "pyproject.toml")
}

/// `None` for a `pyproject.toml` without a `[tool.interlint]` table.
fn parse_file(path: &Path, pyproject: bool) -> Result<Option<Config>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let invalid = |message: String| ConfigError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    if !pyproject {
        return parse_str(&text).map(Some).map_err(invalid);
    }
    let project: PyProject = toml::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    let Some(table) = project.tool.and_then(|t| t.interlint) else {
        return Ok(None);
    };
    let mut config = Config::deserialize(table).map_err(|e| invalid(format!("[tool.interlint]: {e}")))?;
    normalize(&mut config);
    validate(&config).map_err(invalid)?;
    Ok(Some(config))
}

/// Parses and validates the text of an `interlint.toml`.
pub fn parse_str(text: &str) -> Result<Config, String> {
    let mut config: Config = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
    normalize(&mut config);
    validate(&config)?;
    Ok(config)
}

/// Rule codes as interlint compares them: `" mig009"` is `MIG009`.
fn normalize(config: &mut Config) {
    let codes = config.per_file_ignores.iter_mut().flat_map(|m| m.values_mut());
    for list in [&mut config.select, &mut config.extend_select, &mut config.ignore]
        .into_iter()
        .flatten()
        .chain(codes)
    {
        for code in list.iter_mut() {
            *code = crate::codes::normalize_selector(code);
        }
    }
}

fn validate(config: &Config) -> Result<(), String> {
    for (key, codes) in [
        ("select", &config.select),
        ("extend-select", &config.extend_select),
        ("ignore", &config.ignore),
    ] {
        for code in codes.iter().flatten() {
            if !crate::codes::selects_a_rule(&crate::codes::normalize_selector(code)) {
                return Err(format!("`{key}`: {}", crate::codes::no_rule_selected(code)));
            }
        }
    }
    for (glob, codes) in config.per_file_ignores.iter().flatten() {
        globset::Glob::new(glob).map_err(|e| format!("`per-file-ignores`: invalid glob `{glob}`: {e}"))?;
        for code in codes {
            if !crate::codes::is_known_selector(code) {
                return Err(format!(
                    "`per-file-ignores` for `{glob}`: unknown rule code or prefix `{code}`"
                ));
            }
        }
    }
    for (key, globs) in [
        ("exclude", &config.exclude),
        ("extend-exclude", &config.extend_exclude),
    ] {
        for glob in globs.iter().flatten() {
            globset::Glob::new(glob).map_err(|e| format!("`{key}`: invalid glob `{glob}`: {e}"))?;
        }
    }
    for prefix in config.model_prefixes.iter().flatten() {
        validate_prefix(prefix).map_err(|e| format!("`model-prefixes`: {e}"))?;
    }
    if config.model_prefixes.as_ref().is_some_and(Vec::is_empty) {
        return Err("`model-prefixes`: the list is empty, so no model id could ever match".into());
    }
    for entry in config.model.iter().flatten() {
        if entry.id.trim().is_empty() || entry.replacement.as_ref().is_some_and(|r| r.trim().is_empty()) {
            return Err(format!(
                "`model`: entry `{}` needs a non-empty `id`, and a non-empty `replacement` when it has one",
                entry.id
            ));
        }
    }
    Ok(())
}

/// A size in bytes, or with a K, M or G suffix (binary units; `10M`, `10MiB`, `512K`).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    let n: u64 = digits.parse().map_err(|_| format!("`{text}` is not a size"))?;
    let factor = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return Err(format!("`{text}`: unknown unit `{unit}` (use K, M or G)")),
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// `max-file-size = 10485760` or `max-file-size = "10M"`.
fn size<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Size {
        Bytes(u64),
        Text(String),
    }
    match Size::deserialize(deserializer)? {
        Size::Bytes(n) => Ok(Some(n)),
        Size::Text(text) => parse_size(&text).map(Some).map_err(serde::de::Error::custom),
    }
}

/// Names of interlint's dedicated configuration files.
pub const FILE_NAMES: [&str; 2] = ["interlint.toml", ".interlint.toml"];

/// The byte ranges of a file that hold interlint's own configuration, which is never reported
/// or rewritten (its `[[model]]` entries name the very ids it deprecates): the whole of an
/// `interlint.toml` or `.interlint.toml`, and in a `pyproject.toml` each `[tool.interlint]`
/// table and subtable, and `interlint` keys of a `[tool]` table or dotted `tool.interlint.*`
/// keys (from that line to the next table).
pub fn own_ranges(file_name: &str, text: &str) -> Vec<std::ops::Range<usize>> {
    if FILE_NAMES.contains(&file_name) {
        return std::iter::once(0..text.len()).collect();
    }
    if file_name != "pyproject.toml" {
        return Vec::new();
    }
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    let mut open: Option<usize> = None;
    let mut table = String::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            let name = trimmed.trim_start_matches('[');
            let name: String = name[..name.find(']').unwrap_or(name.len())]
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
                .collect();
            let own = name == "tool.interlint" || name.starts_with("tool.interlint.");
            match open {
                Some(from) if !own => {
                    ranges.push(from..start);
                    open = None;
                }
                None if own => open = Some(start),
                _ => {}
            }
            table = name;
            continue;
        }
        let key: String = trimmed
            .chars()
            .take_while(|c| *c != '=')
            .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
            .collect();
        let own = match table.as_str() {
            "" => key.starts_with("tool.interlint.") || key == "tool.interlint",
            "tool" => key.starts_with("interlint.") || key == "interlint",
            _ => false,
        };
        if own && open.is_none() {
            open = Some(start);
        }
    }
    if let Some(from) = open {
        ranges.push(from..text.len());
    }
    ranges
}

/// A brand word: letters, digits, `_` and `-`, not empty.
pub fn validate_prefix(prefix: &str) -> Result<(), String> {
    if prefix.is_empty()
        || !prefix
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "`{prefix}` is not a brand word (letters, digits, `_` or `-`)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_ranges_of_a_pyproject() {
        let text = "[project]\nname = \"x\"\n[tool.interlint]\nselect = [\"MIG\"]\n[[tool.interlint.model]]\nid = \"acme-1\"\n[tool.ruff]\nline-length = 9\n[ tool . \"interlint\" ]\nx = 1\n";
        let ranges = own_ranges("pyproject.toml", text);
        let own: Vec<&str> = ranges.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(
            own,
            [
                "[tool.interlint]\nselect = [\"MIG\"]\n[[tool.interlint.model]]\nid = \"acme-1\"\n",
                "[ tool . \"interlint\" ]\nx = 1\n"
            ]
        );
        let dotted = "tool.interlint.select = [\"MIG\"]\n[project]\nm = 1\n[tool]\nruff.x = 1\ninterlint = { ignore = [] }\n";
        let own: Vec<&str> = own_ranges("pyproject.toml", dotted)
            .into_iter()
            .map(|r| &dotted[r])
            .collect();
        assert_eq!(
            own,
            [
                "tool.interlint.select = [\"MIG\"]\n",
                "interlint = { ignore = [] }\n"
            ]
        );
        assert_eq!(own_ranges("interlint.toml", "a = 1\n"), vec![0..6]);
        assert!(own_ranges("Cargo.toml", text).is_empty());
    }

    #[test]
    fn sizes_and_codes_as_users_write_them() {
        let config = parse_str("max-file-size = \"10M\"\nselect = [\" mig009\"]\n").unwrap();
        assert_eq!(config.max_file_size, Some(10 << 20));
        assert_eq!(config.select, Some(vec!["MIG009".to_string()]));
        assert_eq!(parse_str("max-file-size = 12\n").unwrap().max_file_size, Some(12));
        let err = parse_str("max-file-size = \"ten\"\n").unwrap_err();
        assert!(err.contains("`ten` is not a size"), "{err}");
    }

    #[test]
    fn unknown_keys_are_named() {
        let err = parse_str("selct = [\"MIG\"]\n").unwrap_err();
        assert!(err.contains("selct"), "{err}");
    }

    #[test]
    fn bad_codes_are_named() {
        let err = parse_str("ignore = [\"XYZ1\"]\n").unwrap_err();
        assert!(err.contains("`ignore`") && err.contains("XYZ1"), "{err}");
    }

    #[test]
    fn full_config() {
        let config = parse_str(
            r#"
select = ["MIG"]
exclude = ["vendor/**"]
model-prefixes = ["gemini"]
[per-file-ignores]
"docs/*.md" = ["MIG009"]
[[model]]
id = "acme-tuned-1"
status = "deprecated"
replacement = "acme-tuned-2"
"#,
        )
        .unwrap();
        assert_eq!(config.model.unwrap()[0].id, "acme-tuned-1");
    }

    #[test]
    fn a_model_entry_may_have_no_replacement() {
        let config =
            parse_str("[[model]]\nid = \"acme-old\"\nstatus = \"retired\"\nvariants = false\n").unwrap();
        let entry = &config.model.unwrap()[0];
        assert_eq!(entry.replacement, None);
        assert!(!entry.variants);
        let err = parse_str("[[model]]\nid = \"acme-old\"\nstatus = \"retired\"\nreplacement = \" \"\n")
            .unwrap_err();
        assert!(err.contains("non-empty `replacement`"), "{err}");
    }
}
