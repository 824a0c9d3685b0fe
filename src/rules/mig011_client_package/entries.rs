//! Where a legacy package's entry lies in a dependency file, and the edits that drop it: removed
//! when the current package is declared beside it (in the same file, list, table or section),
//! else replaced by the current package. Markers stay; the legacy package's version specifier
//! and extras go. An entry whose surroundings are not plain enough to edit (hashes, line
//! continuations, a Poetry table with a git source) gets no edit.

use std::ops::Range;

use crate::clients::normalize_python_name;
use crate::diagnostic::Edit;

/// The kinds of dependency file, by how an entry is written in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// `requirements*.txt`, `constraints*.txt`, `.in`: one requirement a line.
    Requirements,
    /// `pyproject.toml`: a string of a dependency array (PEP 621, PEP 735, uv, PDM), or a key of
    /// a Poetry dependency table.
    Pyproject,
    /// `setup.cfg`: a line of `install_requires` or of an extra.
    SetupCfg,
    /// `setup.py`: a string of a requirement list.
    SetupPy,
    /// A notebook's `%pip install` / `!pip install` line; `installed_before`: a pip line of the
    /// notebook installs the current package before this one's end (in this cell or an earlier
    /// one).
    PipLine { installed_before: bool },
}

/// What drops the entry, and whether it removes it or replaces it.
pub(super) struct EntryEdit {
    pub edits: Vec<Edit>,
    pub removed: bool,
}

/// The package an entry is replaced with: the current package's name (Python spelling) and the
/// requirement written for it (`google-genai>=2.0.0`).
pub(super) struct Current<'a> {
    pub names: &'a [String],
    pub requirement: &'a str,
    pub name: &'a str,
}

impl Current<'_> {
    /// Whether a requirement's leading name is the current package's.
    fn is_named_by(&self, requirement: &str) -> bool {
        let name = leading_name(requirement);
        !name.is_empty()
            && self
                .names
                .iter()
                .any(|c| normalize_python_name(c) == normalize_python_name(name))
    }
}

/// The edit of the legacy package's entry whose name is at `name` in `text`; `region` is the
/// notebook line a pip entry is on.
pub(super) fn legacy_entry(
    form: Form,
    text: &str,
    name: Range<usize>,
    region: Range<usize>,
    current: &Current,
) -> Option<EntryEdit> {
    match form {
        Form::Requirements => requirements(text, name, current),
        Form::Pyproject => {
            let before = text.get(..name.start)?.chars().next_back();
            if matches!(before, Some('"' | '\'')) {
                list_item(text, name, current, Language::Toml)
            } else {
                poetry(text, name, current)
            }
        }
        Form::SetupCfg => setup_cfg(text, name, current),
        Form::SetupPy => list_item(text, name, current, Language::Python),
        Form::PipLine { installed_before } => pip_line(text, name, region, current, installed_before),
    }
}

/// The name a requirement starts with (`google-genai` of `google-genai[aiohttp]>=1`).
fn leading_name(requirement: &str) -> &str {
    let requirement = requirement.trim_start();
    let end = requirement
        .find(|c: char| !(c.is_ascii_alphanumeric() || "._-".contains(c)))
        .unwrap_or(requirement.len());
    &requirement[..end]
}

/// The line holding `at`: its start, the end of its content (before `\r\n` or `\n`) and the
/// start of the next line (the end of the text on the last).
fn line_of(text: &str, at: usize) -> (usize, usize, usize) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let (end, next) = match text[at..].find('\n') {
        Some(i) => (at + i, at + i + 1),
        None => (text.len(), text.len()),
    };
    let end = if text[..end].ends_with('\r') { end - 1 } else { end };
    (start, end, next)
}

/// Where the requirement starting at `start` ends: before its environment marker (`;`), an
/// inline comment (` #`, with `comments`) or `limit`, and the spaces before them.
fn requirement_end(text: &str, start: usize, limit: usize, comments: bool) -> usize {
    let part = &text[start..limit];
    let mut end = part.find(';').unwrap_or(part.len());
    if comments && let Some(hash) = part[..end].find(" #").or_else(|| part[..end].find("\t#")) {
        end = hash;
    }
    start + part[..end].trim_end().len()
}

fn replace(range: Range<usize>, content: &str) -> Option<EntryEdit> {
    Some(EntryEdit {
        edits: vec![Edit::replace(range, content.to_string())],
        removed: false,
    })
}

fn remove(range: Range<usize>) -> Option<EntryEdit> {
    Some(EntryEdit {
        edits: vec![Edit::replace(range, String::new())],
        removed: true,
    })
}

/// A requirements file's line: the legacy requirement starts it. Not in a file pinned with
/// hashes (the current package's hashes are not known), nor on a continued line.
fn requirements(text: &str, name: Range<usize>, current: &Current) -> Option<EntryEdit> {
    if text.contains("--hash") {
        return None;
    }
    let (start, end, next) = line_of(text, name.start);
    if !text[start..name.start].trim().is_empty() || text[start..end].trim_end().ends_with('\\') {
        return None;
    }
    let previous = text[..start].trim_end_matches(['\n', '\r']);
    if start > 0 && previous.ends_with('\\') {
        return None;
    }
    let declared = text.lines().any(|line| {
        let line = line.split(" #").next().unwrap_or_default();
        !line.trim_start().starts_with(['#', '-']) && current.is_named_by(line)
    });
    if declared {
        return remove(start..next);
    }
    replace(
        name.start..requirement_end(text, name.start, end, true),
        current.requirement,
    )
}

/// A `setup.cfg` line of a requirement list (`install_requires`, an extra): its own line below
/// the key, or the value on the key's line.
fn setup_cfg(text: &str, name: Range<usize>, current: &Current) -> Option<EntryEdit> {
    let (start, end, next) = line_of(text, name.start);
    let before = &text[start..name.start];
    let own_line = before.trim().is_empty() && !before.is_empty();
    let on_key_line = !before.starts_with([' ', '\t']) && before.trim_end().ends_with('=');
    if !own_line && !on_key_line {
        return None;
    }
    // The key's line, and the lines of its value.
    let mut key_start = start;
    while own_line && key_start > 0 {
        let (previous, _, _) = line_of(text, key_start - 1);
        key_start = previous;
        let line = &text[previous..];
        if !line.starts_with([' ', '\t', '\n', '\r']) {
            break;
        }
    }
    let (_, key_end, mut value_end) = line_of(text, key_start);
    let key_line = &text[key_start..key_end];
    let key = key_line.split('=').next().unwrap_or_default().trim();
    let section = text[..key_start]
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('['))
        .unwrap_or_default()
        .trim();
    if !key_line.contains('=') || !(key.ends_with("requires") || section == "[options.extras_require]") {
        return None;
    }
    while value_end < text.len() {
        let (_, _, after) = line_of(text, value_end);
        let line = &text[value_end..after];
        if !(line.starts_with([' ', '\t']) || line.trim().is_empty()) {
            break;
        }
        value_end = after;
    }
    let value = &text[key_start..value_end];
    let declared = value.lines().enumerate().any(|(i, line)| {
        let line = if i == 0 {
            line.split_once('=').map_or("", |(_, v)| v)
        } else {
            line
        };
        // A value on one line is a `;`-separated list.
        line.split(';').any(|r| current.is_named_by(r))
    });
    match (declared, own_line) {
        (true, true) => remove(start..next),
        (true, false) => None,
        (false, _) => replace(
            name.start..requirement_end(text, name.start, end, false),
            current.requirement,
        ),
    }
}

/// A Poetry dependency: `google-generativeai = "^0.8"` or `= { version = "^0.8", python = "..." }`
/// in a table of dependencies. A table with a source (`git`, `path`, `url`) or extras is left.
fn poetry(text: &str, name: Range<usize>, current: &Current) -> Option<EntryEdit> {
    const KEYS: &[&str] = &[
        "version",
        "python",
        "markers",
        "optional",
        "platform",
        "allow-prereleases",
        "source",
    ];
    let (start, end, next) = line_of(text, name.start);
    if !text[start..name.start].trim().is_empty() {
        return None;
    }
    let header = |at: usize| {
        text[..at]
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('['))
            .map(str::trim)
    };
    if !header(start).is_some_and(|h| h.ends_with("dependencies]")) {
        return None;
    }
    let rest = text[name.end..end].trim_start();
    let value = rest.strip_prefix('=')?.trim_start();
    let value_start = end - value.len();
    let version = if value.starts_with(['"', '\'']) {
        string_content(text, value_start)?
    } else if value.starts_with('{') {
        let parsed: toml::Table = toml::from_str(&format!("v = {value}")).ok()?;
        let table = parsed.get("v")?.as_table()?;
        if table.keys().any(|k| !KEYS.contains(&k.as_str())) || !table.get("version")?.is_str() {
            return None;
        }
        // The string after `version =`.
        let quote = value.match_indices("version").find_map(|(at, _)| {
            let after = value[at + "version".len()..]
                .trim_start()
                .strip_prefix('=')?
                .trim_start();
            after.starts_with(['"', '\'']).then_some(after)
        })?;
        string_content(text, end - quote.len())?
    } else {
        return None;
    };
    // The table ends at the next header.
    let table_end = text[next..].find("\n[").map_or(text.len(), |i| next + i + 1);
    let table_start = text[..start].rfind("\n[").map_or(0, |i| i + 1);
    let declared = text[table_start..table_end]
        .lines()
        .any(|line| line.contains('=') && current.is_named_by(line.split('=').next().unwrap_or_default()));
    if declared {
        return remove(start..next);
    }
    let minimum = current.requirement.strip_prefix(current.name)?;
    Some(EntryEdit {
        edits: vec![
            Edit::replace(name, current.name.to_string()),
            Edit::replace(version, minimum.to_string()),
        ],
        removed: false,
    })
}

/// The content of the one-line string literal whose opening quote is at `quote`.
fn string_content(text: &str, quote: usize) -> Option<Range<usize>> {
    let q = text[quote..].chars().next()?;
    let (_, end, _) = line_of(text, quote);
    let close = text[quote + 1..end].find(q)?;
    Some(quote + 1..quote + 1 + close)
}

/// How strings, comments and brackets are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    /// TOML: a `[` that opens a line outside any value is a table's header; `'...'` has no
    /// escapes.
    Toml,
    Python,
}

/// The string literals and bracket pairs of a text.
struct Scan {
    /// Each string literal on one line, quotes included, with the bracket around it.
    strings: Vec<(Range<usize>, Option<usize>)>,
    /// The closing bracket of each opening one.
    closes: std::collections::HashMap<usize, usize>,
}

fn scan(text: &str, language: Language) -> Scan {
    let bytes = text.as_bytes();
    let mut out = Scan {
        strings: Vec::new(),
        closes: std::collections::HashMap::new(),
    };
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut line_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'"' | b'\'' => {
                let triple = if b == b'"' { "\"\"\"" } else { "'''" };
                if text[i..].starts_with(triple) {
                    let close = text[i + 3..].find(triple);
                    i = close.map_or(bytes.len(), |n| i + 3 + n + 3);
                } else {
                    let escapes = !(language == Language::Toml && b == b'\'');
                    let mut j = i + 1;
                    while j < bytes.len() && bytes[j] != b && bytes[j] != b'\n' {
                        j += if escapes && bytes[j] == b'\\' { 2 } else { 1 };
                    }
                    let end = (j + 1).min(bytes.len());
                    if bytes.get(j) == Some(&b) {
                        out.strings.push((i..end, stack.last().map(|(_, at)| *at)));
                    }
                    i = end;
                }
            }
            b'[' if language == Language::Toml && stack.is_empty() && line_start => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'[' | b'(' | b'{' => {
                stack.push((b, i));
                i += 1;
            }
            b']' | b')' | b'}' => {
                let open = match b {
                    b']' => b'[',
                    b')' => b'(',
                    _ => b'{',
                };
                if stack.last().is_some_and(|(o, _)| *o == open)
                    && let Some((_, at)) = stack.pop()
                {
                    out.closes.insert(at, i);
                }
                i += 1;
            }
            _ => i += 1,
        }
        line_start = false;
    }
    out
}

/// A string of a requirement list (`dependencies = [...]` in `pyproject.toml`,
/// `install_requires=[...]` in `setup.py`): its content is replaced, or the string removed with
/// its comma.
fn list_item(text: &str, name: Range<usize>, current: &Current, language: Language) -> Option<EntryEdit> {
    let quote = name.start.checked_sub(1)?;
    let scanned = scan(text, language);
    let (item, open) = scanned
        .strings
        .iter()
        .find(|(s, _)| s.start == quote)
        .map(|(s, open)| (s.clone(), *open))?;
    let open = open.filter(|at| text.as_bytes()[*at] == b'[')?;
    let close = *scanned.closes.get(&open)?;
    if !holds_requirements(text, open, language) {
        return None;
    }
    let declared = scanned.strings.iter().any(|(s, o)| {
        *o == Some(open) && s.start != item.start && current.is_named_by(&text[s.start + 1..s.end - 1])
    });
    if declared {
        return remove(item_removal(text, item, open, close)?);
    }
    replace(
        name.start..requirement_end(text, name.start, item.end - 1, false),
        current.requirement,
    )
}

/// Whether the list opened at `open` is one of requirements: in TOML, the value of a key ending
/// in `dependencies` or of `requires`, or any list of a table of them (`[dependency-groups]`,
/// `[project.optional-dependencies]`); in Python, a list assigned to a name of requirements
/// (`install_requires=`, `REQUIREMENTS =`) or a value of a dict (`extras_require`).
fn holds_requirements(text: &str, open: usize, language: Language) -> bool {
    let before = text[..open].trim_end();
    if language == Language::Python && before.ends_with(':') {
        return true;
    }
    let Some(before) = before.strip_suffix('=') else {
        return false;
    };
    let key = before
        .trim_end()
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || "_-\"'".contains(c)))
        .next()
        .unwrap_or_default()
        .trim_matches(['"', '\''])
        .to_ascii_lowercase();
    match language {
        Language::Python => key.contains("requ") || key.contains("dep"),
        Language::Toml => {
            let header = text[..open]
                .lines()
                .rev()
                .find(|l| l.trim_start().starts_with('['))
                .map(str::trim)
                .unwrap_or_default();
            key.ends_with("dependencies")
                || key == "requires"
                || header.ends_with("dependencies]")
                || header == "[dependency-groups]"
        }
    }
}

/// The range that removes a list's item with its comma, keeping the list's layout: the item's
/// whole line when it is alone on it, else the item and the comma after it (the comma before
/// it, for the last item).
fn item_removal(text: &str, item: Range<usize>, open: usize, close: usize) -> Option<Range<usize>> {
    let after = &text[item.end..close];
    let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
    if after[gap..].starts_with(',') {
        let comma_end = item.end + gap + 1;
        let (line_start, line_end, next) = line_of(text, item.start);
        let rest = text[comma_end..line_end].trim();
        if text[line_start..item.start].trim().is_empty() && (rest.is_empty() || rest.starts_with('#')) {
            return Some(line_start..next);
        }
        let spaces =
            text[comma_end..close].len() - text[comma_end..close].trim_start_matches([' ', '\t']).len();
        return Some(item.start..comma_end + spaces);
    }
    if !after.trim().is_empty() {
        return None;
    }
    // The last item: from the comma before it, with nothing but spaces in between.
    let before = &text[open + 1..item.start];
    let trimmed = before.trim_end();
    trimmed.ends_with(',').then(|| open + trimmed.len()..item.end)
}

/// Whether one of the pip lines of a notebook's text installs the current package.
pub(super) fn installs_current(text: &str, current: &Current) -> bool {
    text.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with(['%', '!']) && line.contains("install"))
        .flat_map(str::split_whitespace)
        .any(|word| current.is_named_by(word.trim_matches(['"', '\''])))
}

/// A notebook's pip line: the legacy package's word is replaced by the current package's name
/// (no version: a shell reads `>` as a redirection), or removed when the notebook installs the
/// current package by then (`installed_before`).
fn pip_line(
    text: &str,
    name: Range<usize>,
    region: Range<usize>,
    current: &Current,
    installed_before: bool,
) -> Option<EntryEdit> {
    let before = text[..name.start].chars().next_back()?;
    let (token, content_end) = if before == '"' || before == '\'' {
        let close = text[name.start..region.end].find(before)? + name.start;
        (name.start - 1..close + 1, close)
    } else if before.is_whitespace() {
        let end = text[name.start..region.end]
            .find(char::is_whitespace)
            .map_or(region.end, |i| name.start + i);
        (name.start..end, end)
    } else {
        return None;
    };
    if installed_before {
        let spaces = text[..token.start].len() - text[..token.start].trim_end_matches([' ', '\t']).len();
        // The line goes when nothing else would be installed by it (`pip install` alone fails).
        let rest = format!(
            "{}{}",
            &text[region.start..token.start],
            &text[token.end..region.end]
        );
        let installs = rest
            .split_once("install")
            .is_some_and(|(_, args)| args.split_whitespace().any(|a| !a.starts_with('-')));
        if !installs {
            let end = if text[region.end..].starts_with('\n') {
                region.end + 1
            } else {
                region.end
            };
            return remove(region.start..end);
        }
        return remove(token.start - spaces..token.end);
    }
    replace(name.start..content_end, current.name)
}

/// The range that removes a `package.json` property (`"key": "value"`, from the key's opening
/// quote to the value's closing one) with its comma, keeping the object's layout.
pub(super) fn json_property_removal(text: &str, property: Range<usize>) -> Option<Range<usize>> {
    let after = &text[property.end..];
    let gap = after.len() - after.trim_start().len();
    if after[gap..].starts_with(',') {
        let comma_end = property.end + gap + 1;
        let (line_start, line_end, next) = line_of(text, property.start);
        if text[line_start..property.start].trim().is_empty()
            && comma_end <= line_end
            && text[comma_end..line_end].trim().is_empty()
        {
            return Some(line_start..next);
        }
        let rest = &text[comma_end..];
        let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        return Some(property.start..comma_end + spaces);
    }
    // The last property: from the comma before it.
    let before = text[..property.start].trim_end();
    before.ends_with(',').then(|| before.len() - 1..property.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, edit: &EntryEdit) -> String {
        let mut out = text.to_string();
        let mut edits: Vec<&Edit> = edit.edits.iter().collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
        for e in edits {
            out.replace_range(e.range.clone(), &e.content);
        }
        out
    }

    fn fixed(form: Form, text: &str) -> Option<String> {
        let names = ["google-genai".to_string()];
        let current = Current {
            names: &names,
            requirement: "google-genai>=2.0.0",
            name: "google-genai",
        };
        let start = text.find("google-generativeai")?;
        let name = start..start + "google-generativeai".len();
        let (line_start, line_end, _) = line_of(text, start);
        legacy_entry(form, text, name, line_start..line_end, &current).map(|e| apply(text, &e))
    }

    #[test]
    fn requirements_lines() {
        let text = "requests\ngoogle-generativeai[dev]==0.8.3 ; python_version >= \"3.9\"  # pinned\n";
        assert_eq!(
            fixed(Form::Requirements, text).as_deref(),
            Some("requests\ngoogle-genai>=2.0.0 ; python_version >= \"3.9\"  # pinned\n")
        );
        let text = "google-generativeai>=0.8\r\nGoogle_GenAI==1.2\r\n";
        assert_eq!(
            fixed(Form::Requirements, text).as_deref(),
            Some("Google_GenAI==1.2\r\n")
        );
        for left in [
            "google-generativeai==0.8 \\\n    --hash=sha256:00\n",
            "x @ https://e/x.whl#egg=google-generativeai\n",
            "-e git+https://e/r.git#egg=google-generativeai\n",
        ] {
            assert_eq!(fixed(Form::Requirements, left), None, "{left}");
        }
    }

    #[test]
    fn pyproject_lists() {
        let text = "[project]\nkeywords = [\"google-generativeai\"]\n";
        assert_eq!(fixed(Form::Pyproject, text), None);
        let text = "[project]\ndependencies = [\n    \"google-generativeai>=0.8; python_version>='3.9'\",\n    \"httpx\",\n]\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            Some(
                "[project]\ndependencies = [\n    \"google-genai>=2.0.0; python_version>='3.9'\",\n    \"httpx\",\n]\n"
            )
        );
        let text =
            "[project]\ndependencies = [\n    \"google-genai\",\n    \"google-generativeai\" # old\n]\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            None,
            "a comment after the last item: left"
        );
        let text = "[project]\ndependencies = [\"google-generativeai>=0.8\", \"google-genai\"]\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            Some("[project]\ndependencies = [\"google-genai\"]\n")
        );
        let text = "[project]\ndependencies = [\"google-genai\", 'google-generativeai']\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            Some("[project]\ndependencies = [\"google-genai\"]\n")
        );
        let text = "[project]\ndependencies = [\"google-genai\"]\n[project.optional-dependencies]\nai = [\n  \"google-generativeai\",\n]\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            Some(
                "[project]\ndependencies = [\"google-genai\"]\n[project.optional-dependencies]\nai = [\n  \"google-genai>=2.0.0\",\n]\n"
            ),
            "another list's current package is not this list's"
        );
    }

    #[test]
    fn poetry_tables() {
        let text = "[tool.poetry.dependencies]\npython = \"^3.11\"\ngoogle-generativeai = { version = \"^0.8.0\", python = \">=3.9\" }\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            Some(
                "[tool.poetry.dependencies]\npython = \"^3.11\"\ngoogle-genai = { version = \">=2.0.0\", python = \">=3.9\" }\n"
            )
        );
        let text = "[tool.poetry.dependencies]\ngoogle-generativeai = \"^0.8\"\ngoogle-genai = \"^1.2\"\n[tool.black]\n";
        assert_eq!(
            fixed(Form::Pyproject, text).as_deref(),
            Some("[tool.poetry.dependencies]\ngoogle-genai = \"^1.2\"\n[tool.black]\n")
        );
        for left in [
            "[tool.poetry.dependencies]\ngoogle-generativeai = { git = \"https://e/r.git\" }\n",
            "[tool.poetry.dependencies]\ngoogle-generativeai = { version = \"^0.8\", extras = [\"x\"] }\n",
            "[tool.other]\ngoogle-generativeai = \"^0.8\"\n",
        ] {
            assert_eq!(fixed(Form::Pyproject, left), None, "{left}");
        }
    }

    #[test]
    fn setup_files() {
        let text = "[options]\ninstall_requires =\n    google-generativeai>=0.8\n    click\n";
        assert_eq!(
            fixed(Form::SetupCfg, text).as_deref(),
            Some("[options]\ninstall_requires =\n    google-genai>=2.0.0\n    click\n")
        );
        let text = "[options]\ninstall_requires =\n    google-genai\n    google-generativeai>=0.8\n[x]\n";
        assert_eq!(
            fixed(Form::SetupCfg, text).as_deref(),
            Some("[options]\ninstall_requires =\n    google-genai\n[x]\n")
        );
        let text = "setup(\n    install_requires=[\"google-generativeai>=0.8\", \"requests\"],\n)\n";
        assert_eq!(
            fixed(Form::SetupPy, text).as_deref(),
            Some("setup(\n    install_requires=[\"google-genai>=2.0.0\", \"requests\"],\n)\n")
        );
        let text = "setup(\n    install_requires=[\n        \"google-genai\",\n        \"google-generativeai\",\n    ],\n)\n";
        assert_eq!(
            fixed(Form::SetupPy, text).as_deref(),
            Some("setup(\n    install_requires=[\n        \"google-genai\",\n    ],\n)\n")
        );
        let text = "setup(keywords=[\"google-generativeai\"])\n";
        assert_eq!(fixed(Form::SetupPy, text), None);
    }

    #[test]
    fn pip_lines() {
        let text = "!pip install -q -U google-generativeai==0.8.3 pillow";
        assert_eq!(
            fixed(
                Form::PipLine {
                    installed_before: false
                },
                text
            )
            .as_deref(),
            Some("!pip install -q -U google-genai pillow")
        );
        let text = "%pip install \"google-generativeai>=0.8\" google-genai";
        assert_eq!(
            fixed(
                Form::PipLine {
                    installed_before: true
                },
                text
            )
            .as_deref(),
            Some("%pip install google-genai")
        );
        let text = "%pip install -q google-generativeai";
        assert_eq!(
            fixed(
                Form::PipLine {
                    installed_before: true
                },
                text
            )
            .as_deref(),
            Some("")
        );
        let text = "%pip install 'google-generativeai>=0.8'";
        assert_eq!(
            fixed(
                Form::PipLine {
                    installed_before: false
                },
                text
            )
            .as_deref(),
            Some("%pip install 'google-genai'")
        );
    }

    #[test]
    fn json_properties() {
        let text = "{\n  \"a\": \"1\",\n  \"b\": \"2\",\n  \"c\": \"3\"\n}\n";
        let range = |key: &str| {
            let start = text.find(&format!("\"{key}\"")).unwrap_or(0);
            start..start + 8
        };
        let removed = |r: Range<usize>| {
            let mut t = text.to_string();
            t.replace_range(r, "");
            t
        };
        let r = json_property_removal(text, range("b")).map(removed);
        assert_eq!(r.as_deref(), Some("{\n  \"a\": \"1\",\n  \"c\": \"3\"\n}\n"));
        let r = json_property_removal(text, range("c")).map(removed);
        assert_eq!(r.as_deref(), Some("{\n  \"a\": \"1\",\n  \"b\": \"2\"\n}\n"));
        let text = "{\"a\": \"1\", \"b\": \"2\"}";
        let start = text.find("\"a\"").unwrap_or(0);
        let mut t = text.to_string();
        if let Some(r) = json_property_removal(text, start..start + 8) {
            t.replace_range(r, "");
        }
        assert_eq!(t, "{\"b\": \"2\"}");
    }
}
