//! The tools of `interlint mcp`: their definitions (title, description, strict input schema
//! with the bounds of rules/mcp.toml, annotations), the checking of their arguments, and the
//! calls. A call returns its text, or the message of an error result (without `Error: `).

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use super::page;
use crate::run::{FileReport, FixMode, Notice, RunOptions};
use crate::settings::{Overrides, Settings};
use crate::tool_server_facts::{Bound, Conventions, conventions};
use crate::walk::display_path;

pub const INSTRUCTIONS: &str = "interlint finds every place that must change for the migration from the generateContent \
endpoint to the interactions endpoint (calls, REST requests, response reads, request fields, deprecated model ids), \
and checks benchmark manifests and tool servers. Start with interlint_check on the paths of interest, read a rule \
with interlint_explain, then call interlint_fix with dry_run true to see the diff before applying it with dry_run false. \
Paths are relative to the server's root.";

pub const CHECK: &str = "interlint_check";
pub const FIX: &str = "interlint_fix";
pub const EXPLAIN: &str = "interlint_explain";
pub const RULES: &str = "interlint_rules";

/// One tool, as `tools/list` shows it.
struct Definition {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    schema: Value,
    read_only: bool,
    destructive: bool,
    idempotent: bool,
}

fn bound(c: &Conventions, name: &str) -> Bound {
    c.bounds.get(name).cloned().unwrap_or_default()
}

/// An integer input with the bounds of rules/mcp.toml.
fn integer(c: &Conventions, name: &str, description: &str) -> Value {
    let b = bound(c, name);
    let mut schema = json!({"type": "integer", "description": description});
    for (key, value) in [
        ("minimum", b.minimum),
        ("maximum", b.maximum),
        ("default", b.default),
    ] {
        if let Some(v) = value {
            schema[key] = json!(v as i64);
        }
    }
    schema
}

fn response_format(c: &Conventions) -> Value {
    json!({
        "type": "string",
        "enum": c.response_formats,
        "default": c.response_formats.first(),
        "description": "markdown for people, json for programs",
    })
}

fn codes(description: &str) -> Value {
    json!({
        "type": "array",
        "items": {"type": "string", "pattern": "^[A-Za-z]{1,8}[0-9]{0,4}$"},
        "maxItems": 50,
        "description": description,
    })
}

fn paths() -> Value {
    json!({
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": 4096},
        "minItems": 1,
        "maxItems": 100,
        "default": ["."],
        "description": "Files or folders, relative to the server's root (default: the whole root). \
                        .gitignore and the configuration's exclude are honoured.",
    })
}

fn strict(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

fn all_definitions(c: &Conventions) -> Vec<Definition> {
    let select = codes(
        "Rule codes or prefixes to run, e.g. [\"MIG009\"] or [\"MCP\"] (default: the configuration's selection)",
    );
    let ignore = codes("Rule codes or prefixes not to run");
    vec![
        Definition {
            name: CHECK,
            title: "Check files for migration findings",
            description: "Checks files for code that must change for the interactions endpoint and for deprecated model \
                ids (and benchmark manifests and tool servers), as `interlint check` does. Returns one page of findings \
                (path:line:column, rule code, message, whether a fix exists, or why not with the reason's class: \
                no-counterpart, a decision; out-of-scope; not-followed, work by hand) with total, count, offset, \
                has_more and next_offset; page with offset. Read-only: nothing is written. Use interlint_fix to apply fixes.",
            schema: strict(
                json!({
                    "paths": paths(),
                    "select": select.clone(),
                    "ignore": ignore.clone(),
                    "unsafe_fixes": {"type": "boolean", "default": false, "description": "Count unsafe fixes as fixable"},
                    "limit": integer(c, "limit", "Findings per page"),
                    "offset": integer(c, "offset", "Findings to skip (next_offset of the previous page)"),
                    "response_format": response_format(c),
                }),
                &[],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
        },
        Definition {
            name: FIX,
            title: "Fix migration findings",
            description: "Applies interlint's fixes to files, as `interlint check --fix` does, and returns the unified diff \
                of the change and the findings left. dry_run (default true) only shows the diff and writes nothing; with \
                dry_run false the files are rewritten atomically. A second call changes nothing. unsafe_fixes also applies \
                the fixes that may change behaviour (review the diff).",
            schema: strict(
                json!({
                    "paths": paths(),
                    "select": select,
                    "ignore": ignore,
                    "unsafe_fixes": {"type": "boolean", "default": false, "description": "Also apply unsafe fixes"},
                    "dry_run": {"type": "boolean", "default": true, "description": "Only show the diff; write nothing"},
                    "limit": integer(c, "limit", "File diffs per page (the fix itself is never paged)"),
                    "offset": integer(c, "offset", "File diffs to skip (next_offset of the previous page)"),
                    "response_format": response_format(c),
                }),
                &[],
            ),
            read_only: false,
            destructive: true,
            idempotent: true,
        },
        Definition {
            name: EXPLAIN,
            title: "Explain a rule",
            description: "Returns the documentation of one rule (what it finds, why, an example and its fix), as \
                `interlint explain CODE` prints it. Use interlint_rules to list the codes.",
            schema: strict(
                json!({
                    "code": {"type": "string", "pattern": "^[A-Za-z]{2,8}[0-9]{1,4}$", "description": "A rule code, e.g. MIG009"},
                    "response_format": response_format(c),
                }),
                &["code"],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
        },
        Definition {
            name: RULES,
            title: "List the rules",
            description: "Lists interlint's rules (code, name, summary, surfaces, fix safety), as `interlint rules` does, \
                one page at a time with total, count, offset, has_more and next_offset.",
            schema: strict(
                json!({
                    "select": {"type": "string", "pattern": "^[A-Za-z]{1,8}[0-9]{0,4}$", "description": "Only the rules whose code starts with this prefix, e.g. MCP"},
                    "limit": integer(c, "limit", "Rules per page"),
                    "offset": integer(c, "offset", "Rules to skip (next_offset of the previous page)"),
                    "response_format": response_format(c),
                }),
                &[],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    ]
}

/// The tools as `tools/list` returns them.
pub fn definitions() -> Vec<Tool> {
    let Some(c) = conventions() else {
        return Vec::new();
    };
    all_definitions(c)
        .into_iter()
        .map(|d| {
            let schema: JsonObject = match d.schema {
                Value::Object(map) => map,
                _ => JsonObject::new(),
            };
            let annotations = ToolAnnotations::with_title(d.title)
                .read_only(d.read_only)
                .destructive(d.destructive)
                .idempotent(d.idempotent)
                .open_world(false);
            Tool::new(d.name, d.description, Arc::new(schema))
                .with_title(d.title)
                .with_annotations(annotations)
        })
        .collect()
}

/// The validators of the tools' input schemas, compiled once.
fn validators() -> &'static [(&'static str, jsonschema::Validator)] {
    static COMPILED: OnceLock<Vec<(&'static str, jsonschema::Validator)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        conventions()
            .map(all_definitions)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|d| Some((d.name, jsonschema::draft202012::new(&d.schema).ok()?)))
            .collect()
    })
}

/// The arguments' problems, in the words of the source document's section 7.
fn check_arguments(tool: &str, arguments: &Value) -> Result<(), String> {
    let Some((_, validator)) = validators().iter().find(|(name, _)| *name == tool) else {
        return Err(format!(
            "no tool named `{tool}`; the tools are {CHECK}, {FIX}, {EXPLAIN} and {RULES}"
        ));
    };
    let problems: Vec<String> = validator
        .iter_errors(arguments)
        .map(|e| {
            let at = e.instance_path().to_string();
            match at.trim_start_matches('/') {
                "" => e.to_string(),
                field => format!("{}: {e}", field.replace('/', ".")),
            }
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("Input rejected by the schema: {}", problems.join("; ")))
    }
}

/// Runs a tool on its arguments.
pub fn call(root: &Path, tool: &str, arguments: JsonObject) -> Result<String, String> {
    let arguments = Value::Object(arguments);
    check_arguments(tool, &arguments)?;
    let c = conventions().ok_or("interlint's tool-server conventions are unreadable")?;
    let args = Arguments { value: &arguments, c };
    match tool {
        CHECK => check(root, &args),
        FIX => fix(root, &args),
        EXPLAIN => explain(&args),
        RULES => rules(&args),
        _ => Err(format!("no tool named `{tool}`")),
    }
}

/// Arguments already checked against their schema, with the schema's defaults.
struct Arguments<'a> {
    value: &'a Value,
    c: &'static Conventions,
}

impl Arguments<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.value.get(key).filter(|v| !v.is_null())
    }

    fn flag(&self, key: &str, default: bool) -> bool {
        self.get(key).and_then(Value::as_bool).unwrap_or(default)
    }

    fn number(&self, key: &str) -> usize {
        let default = bound(self.c, key).default.unwrap_or(0.0) as usize;
        self.get(key)
            .and_then(Value::as_u64)
            .map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn strings(&self, key: &str) -> Option<Vec<String>> {
        let list = self.get(key)?.as_array()?;
        Some(
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        )
    }

    fn json(&self) -> bool {
        let default = self.c.response_formats.first().map(String::as_str);
        self.get("response_format").and_then(Value::as_str).or(default) == Some("json")
    }
}

/// A path of the arguments, inside the root: refused when it leads out of it, by `..`, an
/// absolute path or a symbolic link.
fn confine(root: &Path, path: &str) -> Result<PathBuf, String> {
    let outside = || format!("path `{path}` is outside the server's root {}", root.display());
    let mut lexical = root.to_path_buf();
    for part in Path::new(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !lexical.pop() || !lexical.starts_with(root) {
                    return Err(outside());
                }
            }
            Component::Normal(name) => lexical.push(name),
            Component::RootDir | Component::Prefix(_) => lexical = PathBuf::from(part.as_os_str()),
        }
    }
    if !lexical.starts_with(root) {
        return Err(outside());
    }
    let real = lexical
        .canonicalize()
        .map_err(|e| format!("cannot read `{path}`: {}", crate::walk::describe_io(&e)))?;
    if !real.starts_with(root) {
        return Err(outside());
    }
    Ok(real)
}

fn selectors(args: &Arguments, key: &str) -> Result<Option<Vec<String>>, String> {
    let Some(list) = args.strings(key) else {
        return Ok(None);
    };
    list.iter()
        .map(|s| crate::codes::parse_selector(s).map_err(|e| format!("{key}: {e}")))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// What a check or fix run found.
struct Outcome {
    reports: Vec<FileReport>,
    /// The files checked: those the walk found, less those skipped or that could not be read
    /// (each in the notices).
    files: usize,
    errors: Vec<String>,
}

fn run(root: &Path, args: &Arguments, mode: FixMode) -> Result<Outcome, String> {
    let paths = match args.strings("paths") {
        Some(list) => list
            .iter()
            .map(|p| confine(root, p))
            .collect::<Result<Vec<_>, _>>()?,
        None => vec![root.to_path_buf()],
    };
    let loaded = crate::config::load_with(&[], root).map_err(|e| format!("{e:#}"))?;
    let overrides = Overrides {
        select: selectors(args, "select")?,
        ignore: selectors(args, "ignore")?.unwrap_or_default(),
        ..Overrides::default()
    };
    let settings = Settings::new(&loaded, overrides, root).map_err(|e| format!("{e:#}"))?;
    let walked = crate::walk::collect(&paths, &settings, 0, false);
    let options = RunOptions {
        mode,
        unsafe_fixes: args.flag("unsafe_fixes", false),
        snippets: false,
        keep_changes: true,
        count_fixes: false,
    };
    let reports = crate::run::run(
        &walked.files,
        &settings,
        options,
        &indicatif::ProgressBar::hidden(),
    );
    Ok(Outcome {
        files: crate::output::Counts::new(&reports, walked.files.len()).checked(),
        errors: walked.errors,
        reports,
    })
}

/// A page's closing list of the run's notices, when it has any.
fn push_notices(text: &mut String, notices: &[String]) {
    if notices.is_empty() {
        return;
    }
    text.push_str("\nNotices:\n");
    for n in notices {
        text.push_str(&format!("- {n}\n"));
    }
}

/// The notices of a run (files skipped, warnings, errors), one line each.
fn notices(outcome: &Outcome, root: &Path) -> Vec<String> {
    let mut lines: Vec<String> = outcome.errors.iter().map(|e| format!("error: {e}")).collect();
    for report in &outcome.reports {
        for notice in &report.notices {
            let (level, message) = match notice {
                Notice::Binary => continue,
                Notice::Skipped(m) | Notice::Warning(m) => ("warning", m),
                Notice::Error(m) | Notice::Unread(m) => ("error", m),
            };
            lines.push(format!(
                "{level}: {}: {message}",
                display_path(&report.path, root)
            ));
        }
    }
    lines
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn check(root: &Path, args: &Arguments) -> Result<String, String> {
    let outcome = run(root, args, FixMode::Check)?;
    let located = crate::output::locate(&outcome.reports, root);
    let notices = notices(&outcome, root);
    let unsafe_fixes = args.flag("unsafe_fixes", false);
    let fixable = |l: &crate::output::Located| {
        l.diagnostic
            .fix
            .as_ref()
            .is_some_and(|f| unsafe_fixes || f.applicability == crate::diagnostic::Applicability::Safe)
    };
    let files_with = {
        let mut paths: Vec<&str> = located.iter().map(|l| l.path.as_str()).collect();
        paths.dedup();
        paths.len()
    };
    let fixable_count = located.iter().filter(|l| fixable(l)).count();
    let json = args.json();
    Ok(page::render(
        &located,
        args.number("offset"),
        args.number("limit"),
        args.c.character_limit,
        "findings",
        |items, info| {
            if json {
                let mut value = info.json(
                    "findings",
                    items.iter().map(crate::output::json_finding).collect(),
                );
                value["files_checked"] = outcome.files.into();
                value["fixable"] = fixable_count.into();
                value["notices"] = notices.clone().into();
                return value.to_string();
            }
            let mut text = if info.total == 0 {
                format!(
                    "No findings in {} checked.\n",
                    plural(outcome.files, "file", "files")
                )
            } else {
                format!(
                    "{} in {} of {} checked ({fixable_count} fixable with {FIX}).{}\n",
                    plural(info.total, "finding", "findings"),
                    files_with,
                    plural(outcome.files, "file", "files"),
                    match info.count {
                        0 => format!(" None from offset {}.", info.offset),
                        n => format!(" Findings {} to {}:", info.offset + 1, info.offset + n),
                    }
                )
            };
            for l in items {
                // A finding left without a rewrite says why, and what that asks of the caller:
                // a decision (`no-counterpart`), nothing (`out-of-scope`), work (`not-followed`).
                let fix = match (&l.diagnostic.fix, &l.diagnostic.reason, l.diagnostic.reason_class) {
                    (Some(f), _, _) => format!(" [fix: {}]", f.applicability.as_str()),
                    (None, Some(reason), Some(class)) => format!(" [left, {}: {reason}]", class.as_str()),
                    _ => String::new(),
                };
                text.push_str(&format!(
                    "\n- `{}:{}:{}` **{}** {}{fix}",
                    l.path, l.start.line, l.start.column, l.diagnostic.rule.code, l.diagnostic.message
                ));
            }
            if !items.is_empty() {
                text.push('\n');
            }
            if let Some(next) = info.next_offset {
                text.push_str(&format!("\nMore: call {CHECK} again with offset {next}.\n"));
            }
            if let Some(message) = &info.truncation_message {
                text.push_str(&format!("\n{message}\n"));
            }
            push_notices(&mut text, &notices);
            text
        },
    ))
}

fn fix(root: &Path, args: &Arguments) -> Result<String, String> {
    let dry_run = args.flag("dry_run", true);
    let mode = if dry_run { FixMode::Diff } else { FixMode::Apply };
    let outcome = run(root, args, mode)?;
    let notices = notices(&outcome, root);
    let diffs: Vec<(String, String)> = outcome
        .reports
        .iter()
        .filter_map(|r| {
            let (old, new) = r.change.as_ref()?;
            let path = display_path(&r.path, root);
            let diff = crate::output::unified_diff(&path, old, new);
            Some((path, diff))
        })
        .collect();
    let fixes: usize = outcome.reports.iter().map(|r| r.fixed.len()).sum();
    let remaining: usize = outcome.reports.iter().map(|r| r.diagnostics.len()).sum();
    let json = args.json();
    let summary = match (dry_run, fixes) {
        (_, 0) => format!(
            "No fixes to apply in {}; {} left.",
            plural(outcome.files, "file", "files"),
            plural(remaining, "finding", "findings")
        ),
        (true, n) => format!(
            "Dry run: {} in {} would be applied, and {} would be left. Nothing was written; call {FIX} with \
             dry_run false to apply them.",
            plural(n, "fix", "fixes"),
            plural(diffs.len(), "file", "files"),
            plural(remaining, "finding", "findings")
        ),
        (false, n) => format!(
            "Applied {} in {}; {} left.",
            plural(n, "fix", "fixes"),
            plural(diffs.len(), "file", "files"),
            plural(remaining, "finding", "findings")
        ),
    };
    // The files' diffs are the items, a page of them; the fix itself is whole. A dry run is
    // paged by calling it again with the next offset; an applied fix's other diffs are gone
    // from here (the files are written), and the message says where to read them.
    Ok(page::render(
        &diffs,
        args.number("offset"),
        args.number("limit"),
        args.c.character_limit,
        "file diffs",
        |items, info| {
            if json {
                let files: Vec<Value> = items
                    .iter()
                    .map(|(path, diff)| json!({"path": path, "diff": diff}))
                    .collect();
                let mut value = info.json("files", files);
                value["dry_run"] = dry_run.into();
                value["fixes"] = fixes.into();
                value["remaining"] = remaining.into();
                value["summary"] = summary.clone().into();
                value["notices"] = notices.clone().into();
                return value.to_string();
            }
            let mut text = format!("{summary}\n");
            for (_, diff) in items {
                let fence = fence(diff);
                text.push_str(&format!("\n{fence}diff\n{diff}{fence}\n"));
            }
            if let Some(next) = info.next_offset {
                let shown = format!(
                    "Shown: the diffs of files {} to {} of {}.",
                    info.offset + 1,
                    next,
                    info.total
                );
                text.push_str(&match dry_run {
                    true => format!("\n{shown} More: call {FIX} again with dry_run true and offset {next}.\n"),
                    false => format!(
                        "\n{shown} The fix itself is whole: every file was written; read the other diffs with \
                         `git diff` (calling {FIX} again changes nothing).\n"
                    ),
                });
            }
            if let Some(message) = info.truncation_message.as_ref().filter(|_| dry_run) {
                text.push_str(&format!("\n{message}\n"));
            }
            push_notices(&mut text, &notices);
            text
        },
    ))
}

/// A Markdown code fence longer than any run of backticks in `text` (a diff of a Markdown
/// file holds fences of its own).
fn fence(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

fn explain(args: &Arguments) -> Result<String, String> {
    let code = args.get("code").and_then(Value::as_str).unwrap_or_default();
    let Some(rule) = crate::registry::find_rule(code) else {
        return Err(format!(
            "Resource not found: no rule `{code}`; {RULES} lists the rules"
        ));
    };
    let m = rule.meta();
    if args.json() {
        return Ok(json!({
            "code": m.code,
            "name": m.name,
            "summary": m.summary,
            "surfaces": m.surfaces,
            "fix": crate::registry::fix_label(m),
            "explanation": m.doc,
        })
        .to_string());
    }
    Ok(m.doc.to_string())
}

fn rules(args: &Arguments) -> Result<String, String> {
    let prefix = args
        .get("select")
        .and_then(Value::as_str)
        .map(crate::codes::normalize_selector)
        .unwrap_or_default();
    let metas: Vec<&crate::registry::RuleMeta> = crate::registry::all_rules()
        .iter()
        .map(|r| r.meta())
        .filter(|m| m.code.starts_with(prefix.as_str()))
        .collect();
    let json = args.json();
    Ok(page::render(
        &metas,
        args.number("offset"),
        args.number("limit"),
        args.c.character_limit,
        "rules",
        |items, info| {
            if json {
                let rows = items
                    .iter()
                    .map(|m| {
                        json!({
                            "code": m.code,
                            "name": m.name,
                            "summary": m.summary,
                            "surfaces": m.surfaces,
                            "fix": crate::registry::fix_label(m),
                        })
                    })
                    .collect();
                return info.json("rules", rows).to_string();
            }
            let mut text = match info.total {
                0 => format!("No rule's code starts with `{prefix}`.\n"),
                total => format!("{} (showing {}):\n", plural(total, "rule", "rules"), info.count),
            };
            for m in items {
                text.push_str(&format!(
                    "\n- **{}** `{}`: {} ({}; fix: {})",
                    m.code,
                    m.name,
                    m.summary,
                    m.surfaces,
                    crate::registry::fix_label(m)
                ));
            }
            if !items.is_empty() {
                text.push('\n');
            }
            if let Some(next) = info.next_offset {
                text.push_str(&format!("\nMore: call {RULES} again with offset {next}.\n"));
            }
            if let Some(message) = &info.truncation_message {
                text.push_str(&format!("\n{message}\n"));
            }
            text
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_compile_and_are_strict() {
        assert_eq!(validators().len(), 4);
        for tool in definitions() {
            assert_eq!(
                tool.input_schema.get("additionalProperties"),
                Some(&json!(false)),
                "{}",
                tool.name
            );
            assert!(tool.description.as_deref().is_some_and(|d| d.len() > 40));
            assert!(tool.title.is_some() && tool.annotations.is_some());
        }
        assert!(check_arguments(CHECK, &json!({"limit": 20})).is_ok());
        let e = check_arguments(CHECK, &json!({"limit": 500, "colour": 1})).unwrap_err();
        assert!(e.starts_with("Input rejected by the schema: "), "{e}");
        assert!(e.contains("limit: 500 is greater than the maximum of 100"), "{e}");
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn fences_outlast_the_diff() {
        assert_eq!(fence("-a\n+b\n"), "```");
        assert_eq!(fence(" ```python\n-x\n"), "````");
        assert_eq!(fence("`````"), "``````");
    }

    #[test]
    fn paths_stay_under_the_root() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("root");
        std::fs::create_dir(root.join("a")).expect("mkdir");
        assert_eq!(confine(&root, "a/../a").expect("inside"), root.join("a"));
        assert_eq!(confine(&root, ".").expect("root"), root);
        for outside in ["..", "a/../..", "/etc", "../x"] {
            let e = confine(&root, outside).unwrap_err();
            assert!(e.contains("outside the server's root"), "{outside}: {e}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", root.join("link")).expect("symlink");
            assert!(confine(&root, "link").unwrap_err().contains("outside"));
        }
        assert!(
            confine(&root, "missing")
                .unwrap_err()
                .starts_with("cannot read `missing`")
        );
    }
}
