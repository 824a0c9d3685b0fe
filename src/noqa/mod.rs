//! `--add-noqa`: an `interlint: ignore[CODE]` comment for every finding left, as ruff's
//! `--add-noqa` does, so that a team can turn interlint on over a large codebase and work the
//! findings off later.
//!
//! A comment goes only where it cannot change what the file means: at the end of the finding's
//! line, or alone on the line before, in the comment syntax of the document the finding is in
//! (a notebook cell's, a Markdown code block's). [`place`] proposes the places, best first, and
//! refuses the unsafe ones (inside a multi-line string, after a line continuation, in a YAML
//! block scalar, in JSON); [`verify`] re-reads every text made before it is kept: the findings
//! meant to be suppressed are gone, no other finding came or went, the parsers see the same
//! code apart from comments, and nothing reads a new syntax error.

mod place;
mod scan;
mod verify;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use crate::diagnostic::{Diagnostic, Edit};
use crate::lang::Surface;
use crate::registry::Rule;
use crate::settings::Settings;
use crate::source::LineEnding;

pub use place::Reason;

/// Passes over a file: a second one extends the comment a first one wrote, when two documents
/// (a notebook cell's Python and shell lines) want a comment on the same line.
const MAX_PASSES: usize = 3;

/// A file's text with its suppression comments.
#[derive(Debug)]
pub struct Outcome {
    /// The new text (the original when nothing was added).
    pub text: String,
    /// Comments added, or extended with more codes.
    pub added: usize,
    /// The findings of `text` left without a comment, each with why.
    pub left: Vec<(Diagnostic, Reason)>,
}

/// The text of a file with a suppression comment for each of its findings, where one is safe.
pub fn add_noqa(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &Path,
    surface: Surface,
    text: &str,
    line_ending: LineEnding,
) -> Outcome {
    add_noqa_for(settings, rules, path, surface, text, line_ending, None)
}

/// [`add_noqa`] for every finding, or with `only` for that one finding of the text: its comment
/// names its code alone (the quick fix of an editor).
pub fn add_noqa_for(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &Path,
    surface: Surface,
    text: &str,
    line_ending: LineEnding,
    only: Option<&Diagnostic>,
) -> Outcome {
    // IL001 (a directive that suppresses nothing) is not suppressed with a directive: as with
    // ruff's RUF100, `--fix` removes the dead directive instead.
    let lint = |t: &str| {
        let mut found = crate::engine::lint_text(settings, rules, path, surface, t);
        found.retain(|d| !std::ptr::eq(d.rule, &crate::rules::UNUSED_SUPPRESSION));
        found.retain(|d| only.is_none_or(|o| o.rule.code == d.rule.code));
        found
    };
    let mut current = text.to_string();
    let mut findings = lint(&current);
    let mut added = 0;
    // Places that did not verify, as (the line, the comment): never proposed again.
    let mut blocked: HashSet<(String, String)> = HashSet::new();
    for pass in 0..MAX_PASSES {
        if findings.is_empty() {
            break;
        }
        let file = place::File::new(path, surface, &current);
        let groups = place::plan(&file, &findings);
        // One finding: its line's comment, in the first pass (the text the finding was of).
        let wanted = |g: &place::Group| {
            only.is_none_or(|o| pass == 0 && g.findings.iter().any(|&i| findings[i].range == o.range))
        };
        let candidates: Vec<Vec<Edit>> = groups
            .iter()
            .map(|g| {
                g.candidates
                    .iter()
                    .filter(|_| wanted(g))
                    .filter(|e| !blocked.contains(&block_key(&current, e)))
                    .cloned()
                    .collect()
            })
            .collect();
        let baseline = verify::Baseline::new(&file);
        let check = |chosen: &[(usize, &Edit)]| {
            let edits: Vec<Edit> = chosen.iter().map(|(_, e)| (*e).clone()).collect();
            let suppressed: Vec<usize> = chosen
                .iter()
                .flat_map(|(g, _)| groups[*g].findings.iter().copied())
                .collect();
            let (new, applied) = apply(&current, &edits, line_ending);
            let verdict = verify::verify(&baseline, &findings, &suppressed, &applied, &new, &lint);
            verdict.map(|remaining| (new, remaining))
        };
        // The best place of each line, one comment per place; a second comment for the same
        // place waits for the next pass, which extends the first.
        let mut chosen: Vec<(usize, &Edit)> = Vec::new();
        let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
        for (g, list) in candidates.iter().enumerate() {
            if let Some(edit) = list.first()
                && !taken.iter().any(|t| touches(t, &edit.range))
            {
                taken.push(edit.range.clone());
                chosen.push((g, edit));
            }
        }
        if chosen.is_empty() {
            // Nothing more to place: this plan says why the rest is left.
            let left = reasons(&groups, findings);
            return Outcome {
                text: current,
                added,
                left,
            };
        }
        let accepted = match check(&chosen) {
            Some(done) => Some((done, chosen.len())),
            None => {
                // Some place changed the file: each line on its own, each place in turn.
                let mut good: Vec<(usize, &Edit)> = Vec::new();
                for (g, _) in &chosen {
                    for edit in &candidates[*g] {
                        if check(&[(*g, edit)]).is_some() {
                            good.push((*g, edit));
                            break;
                        }
                        blocked.insert(block_key(&current, edit));
                    }
                }
                good.sort_by_key(|(_, e)| e.range.start);
                let disjoint = good.windows(2).all(|w| !touches(&w[0].1.range, &w[1].1.range));
                match (good.is_empty(), disjoint) {
                    (false, true) => check(&good).map(|done| (done, good.len())),
                    _ => None,
                }
            }
        };
        let Some(((new, remaining), count)) = accepted else {
            break;
        };
        added += count;
        current = new;
        findings = remaining;
    }
    let left = if findings.is_empty() {
        Vec::new()
    } else {
        let file = place::File::new(path, surface, &current);
        reasons(&place::plan(&file, &findings), findings)
    };
    Outcome {
        text: current,
        added,
        left,
    }
}

/// Two edits that cannot go in one pass: they overlap, or insert at the same place.
fn touches(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    a.start < b.end && b.start < a.end || a.start == b.start || a.end == b.end
}

/// A place told apart from its offset: the line it is on and the text it writes.
fn block_key(text: &str, edit: &Edit) -> (String, String) {
    let before = text.get(..edit.range.start).unwrap_or_default();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let end = text
        .get(edit.range.end..)
        .and_then(|after| after.find('\n'))
        .map_or(text.len(), |i| edit.range.end + i);
    let line = text.get(start..end).unwrap_or_default();
    (line.to_string(), edit.content.clone())
}

/// Why each finding left has no comment: the reason its line has no place, else that its
/// places did not verify.
fn reasons(groups: &[place::Group], findings: Vec<Diagnostic>) -> Vec<(Diagnostic, Reason)> {
    let mut why = vec![Reason::Unverified; findings.len()];
    for group in groups {
        // A line with places left them all blocked, or the passes ran out.
        let reason = if group.candidates.is_empty() {
            group.reason
        } else {
            Reason::Unverified
        };
        for &i in &group.findings {
            why[i] = reason;
        }
    }
    findings.into_iter().zip(why).collect()
}

/// Applies disjoint edits, with the file's line ending in new lines; also returns the edits as
/// applied (their content as written), for carrying offsets over.
fn apply(text: &str, edits: &[Edit], line_ending: LineEnding) -> (String, Vec<Edit>) {
    let mut sorted: Vec<Edit> = edits
        .iter()
        .map(|e| match line_ending {
            LineEnding::Lf => e.clone(),
            LineEnding::CrLf => Edit::replace(
                e.range.clone(),
                e.content.replace("\r\n", "\n").replace('\n', "\r\n"),
            ),
        })
        .collect();
    sorted.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len() + 64 * sorted.len());
    let mut at = 0;
    for edit in &sorted {
        out.push_str(&text[at..edit.range.start]);
        out.push_str(&edit.content);
        at = edit.range.end;
    }
    out.push_str(&text[at..]);
    (out, sorted)
}

/// The warning of a file with findings left: how many, and why.
pub fn left_warning(left: &[(Diagnostic, Reason)]) -> Option<String> {
    if left.is_empty() {
        return None;
    }
    let mut by_reason: BTreeMap<Reason, usize> = BTreeMap::new();
    for (_, reason) in left {
        *by_reason.entry(*reason).or_default() += 1;
    }
    let why = if by_reason.len() == 1 {
        by_reason
            .keys()
            .map(|r| r.describe().to_string())
            .collect::<Vec<_>>()
    } else {
        by_reason
            .iter()
            .map(|(r, n)| format!("{n} {}", r.describe()))
            .collect()
    };
    Some(format!(
        "{} left without a suppression comment: {}",
        findings(left.len()),
        why.join("; ")
    ))
}

fn findings(n: usize) -> String {
    format!("{n} {}", crate::diagnostic::findings_noun(n))
}

/// The run's last line, as ruff words it.
pub fn summary(added: usize, left: usize) -> String {
    let noun = if added == 1 { "directive" } else { "directives" };
    let mut line = format!("Added {added} interlint: ignore {noun}.");
    if left > 0 {
        line.push_str(&format!(
            " {} left without one (see the warnings above).",
            findings(left)
        ));
    }
    line
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn settings() -> Settings {
        let loaded = crate::config::LoadedConfig {
            config: Default::default(),
            path: None,
        };
        Settings::new(&loaded, crate::settings::Overrides::default(), Path::new("."))
            .expect("default settings")
    }

    /// `--add-noqa` on a text named `name`.
    fn noqa(name: &str, text: &str) -> Outcome {
        let settings = settings();
        let path = Path::new(name);
        let rules = settings.rules_for(path);
        let line_ending = crate::source::SourceText::from_string(text.to_string()).line_ending;
        add_noqa(
            &settings,
            &rules,
            path,
            Surface::from_path(path),
            text,
            line_ending,
        )
    }

    /// The new text, after checking that a second run changes nothing and leaves the same.
    fn added(name: &str, text: &str) -> (String, Vec<Reason>) {
        let first = noqa(name, text);
        let second = noqa(name, &first.text);
        assert_eq!(second.text, first.text, "a second run changed {name}");
        assert_eq!(second.added, 0);
        let reasons: Vec<Reason> = first.left.iter().map(|(_, r)| *r).collect();
        let again: Vec<Reason> = second.left.iter().map(|(_, r)| *r).collect();
        assert_eq!(reasons, again);
        (first.text, reasons)
    }

    #[test]
    fn python_end_of_line_one_comment_per_line_codes_sorted() {
        let text = "from google import genai\nclient = genai.Client()\nr = client.models.generate_content(model=\"gemini-1.5-pro\", contents=\"x\")\n";
        let (new, left) = added("a.py", text);
        assert_eq!(
            new,
            "from google import genai\nclient = genai.Client()\nr = client.models.generate_content(model=\"gemini-1.5-pro\", contents=\"x\")  # interlint: ignore[MIG001,MIG009]\n"
        );
        assert!(left.is_empty());
    }

    #[test]
    fn an_existing_directive_is_extended() {
        let text = "a = \"gemini-1.5-pro\"  # interlint: ignore[MIG001]\n# interlint: ignore[MIG002]\nb = \"gemini-1.5-flash\"\n";
        let (new, left) = added("a.py", text);
        assert_eq!(
            new,
            "a = \"gemini-1.5-pro\"  # interlint: ignore[MIG001,MIG009]\n# interlint: ignore[MIG002,MIG009]\nb = \"gemini-1.5-flash\"\n"
        );
        assert!(left.is_empty());
    }

    #[test]
    fn python_triple_quoted_string_is_left_byte_identical() {
        let text = "PROMPT = \"\"\"\nuse gemini-1.5-pro\nplease\n\"\"\"\n";
        let (new, left) = added("a.py", text);
        assert_eq!(new, text);
        assert_eq!(left, [Reason::InString]);
        // Its first line is outside the string: the line before takes the comment.
        let text = "PROMPT = \"\"\"gemini-1.5-pro\nplease\n\"\"\"\n";
        let (new, left) = added("a.py", text);
        assert_eq!(new, format!("# interlint: ignore[MIG009]\n{text}"));
        assert!(left.is_empty());
    }

    #[test]
    fn a_backslash_continuation_takes_the_line_before_or_nothing() {
        let text = "x = \"gemini-1.5-pro\" + \\\n    \"gemini-1.5-flash\"\n";
        let (new, left) = added("a.py", text);
        // The first line cannot end with a comment; the second line can.
        assert_eq!(
            new,
            "# interlint: ignore[MIG009]\nx = \"gemini-1.5-pro\" + \\\n    \"gemini-1.5-flash\"  # interlint: ignore[MIG009]\n"
        );
        assert!(left.is_empty());
        let text =
            "curl -X POST \\\n  https://h/v1beta/models/gemini-1.5-pro:generateContent \\\n  -d '{}'\n";
        let (new, left) = added("a.sh", text);
        assert_eq!(new, text);
        assert_eq!(left, [Reason::Continuation, Reason::Continuation]);
    }

    #[test]
    fn js_template_literal_and_jsx_are_left() {
        let text = "const a = \"gemini-1.5-pro\";\nconst t = `\ngemini-1.5-flash\n`;\n";
        let (new, left) = added("a.ts", text);
        assert_eq!(
            new,
            "const a = \"gemini-1.5-pro\";  // interlint: ignore[MIG009]\nconst t = `\ngemini-1.5-flash\n`;\n"
        );
        assert_eq!(left, [Reason::InString]);
        let text = "const x = (\n  <p>\n    gemini-1.5-pro\n  </p>\n);\n";
        let (new, left) = added("a.tsx", text);
        assert_eq!(new, text);
        assert_eq!(left.len(), 1);
    }

    #[test]
    fn rust_raw_string_is_left() {
        let text = "const A: &str = \"gemini-1.5-pro\";\nconst B: &str = r#\"\ngemini-1.5-flash\n\"#;\n";
        let (new, left) = added("a.rs", text);
        assert_eq!(
            new,
            "const A: &str = \"gemini-1.5-pro\";  // interlint: ignore[MIG009]\nconst B: &str = r#\"\ngemini-1.5-flash\n\"#;\n"
        );
        assert_eq!(left, [Reason::InString]);
    }

    #[test]
    fn yaml_block_scalar_is_left_and_keys_take_the_line_before() {
        let text = "model: gemini-1.5-pro\nprompt: |\n  use gemini-1.5-flash\nlist:\n  - gemini-1.5-pro\n";
        let (new, left) = added("a.yml", text);
        assert_eq!(
            new,
            "# interlint: ignore[MIG009]\nmodel: gemini-1.5-pro\nprompt: |\n  use gemini-1.5-flash\nlist:\n  # interlint: ignore[MIG009]\n  - gemini-1.5-pro\n"
        );
        assert_eq!(left, [Reason::YamlValue]);
    }

    #[test]
    fn toml_multi_line_string_is_left_and_values_kept() {
        let text = "model = \"gemini-1.5-pro\"\nprompt = \"\"\"\ngemini-1.5-flash\n\"\"\"\n";
        let (new, left) = added("a.toml", text);
        assert_eq!(
            new,
            "# interlint: ignore[MIG009]\nmodel = \"gemini-1.5-pro\"\nprompt = \"\"\"\ngemini-1.5-flash\n\"\"\"\n"
        );
        assert_eq!(left, [Reason::InString]);
    }

    #[test]
    fn json_and_plain_text_are_left() {
        let (new, left) = added("a.json", "{\"model\": \"gemini-1.5-pro\"}\n");
        assert_eq!(new, "{\"model\": \"gemini-1.5-pro\"}\n");
        assert_eq!(left, [Reason::Json]);
        let (_, left) = added("notes.txt", "We used gemini-1.5-pro.\n");
        assert_eq!(left, [Reason::NoCommentSyntax]);
    }

    #[test]
    fn markdown_prose_code_blocks_and_headings() {
        let text = "# Use gemini-1.5-pro\n\nTry gemini-1.5-flash.  \nNext line.\n\n  ```python\n  m = \"gemini-1.5-pro\"\n  ```\n";
        let (new, left) = added("a.md", text);
        assert_eq!(
            new,
            "<!-- interlint: ignore[MIG009] -->\n# Use gemini-1.5-pro\n\nTry gemini-1.5-flash. <!-- interlint: ignore[MIG009] -->  \nNext line.\n\n  ```python\n  m = \"gemini-1.5-pro\"  # interlint: ignore[MIG009]\n  ```\n"
        );
        assert!(left.is_empty());
        let (_, left) = added("a.mdx", "Use gemini-1.5-pro.\n");
        assert_eq!(left, [Reason::Mdx]);
    }

    #[test]
    fn go_raw_string_is_left() {
        let text = "m := \"gemini-1.5-pro\"\ns := `\ngemini-1.5-flash\n`\n";
        let (new, left) = added("a.go", text);
        assert_eq!(
            new,
            "m := \"gemini-1.5-pro\"  // interlint: ignore[MIG009]\ns := `\ngemini-1.5-flash\n`\n"
        );
        assert_eq!(left, [Reason::InString]);
    }

    #[test]
    fn crlf_is_kept() {
        let text = "a = \"gemini-1.5-pro\"\r\nx = \"\"\"\r\n\"\"\"\r\n";
        let (new, _) = added("a.py", text);
        assert_eq!(
            new,
            "a = \"gemini-1.5-pro\"  # interlint: ignore[MIG009]\r\nx = \"\"\"\r\n\"\"\"\r\n"
        );
        let text = "k: v\r\nmodel: gemini-1.5-pro\r\n";
        let (new, _) = added("a.yaml", text);
        assert_eq!(
            new,
            "k: v\r\n# interlint: ignore[MIG009]\r\nmodel: gemini-1.5-pro\r\n"
        );
    }

    #[test]
    fn notebook_cells_take_comments_inside_their_json_strings() {
        let text = r##"{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["%pip install google-generativeai\n", "m = \"gemini-1.5-pro\"\n", "s = \"\"\"\n", "gemini-1.5-flash\n", "\"\"\""]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}"##;
        let (new, left) = added("a.ipynb", text);
        let value: serde_json::Value = serde_json::from_str(&new).expect("still JSON");
        let source: Vec<&str> = value["cells"][0]["source"]
            .as_array()
            .expect("an array")
            .iter()
            .filter_map(|s| s.as_str())
            .collect();
        assert_eq!(
            source,
            [
                "# interlint: ignore[MIG011]\n",
                "%pip install google-generativeai\n",
                "m = \"gemini-1.5-pro\"  # interlint: ignore[MIG009]\n",
                "s = \"\"\"\n",
                "gemini-1.5-flash\n",
                "\"\"\""
            ]
        );
        assert_eq!(left, [Reason::InString]);
    }

    #[test]
    fn summary_and_warning_words() {
        assert_eq!(summary(1, 0), "Added 1 interlint: ignore directive.");
        assert_eq!(
            summary(0, 2),
            "Added 0 interlint: ignore directives. 2 findings left without one (see the warnings above)."
        );
    }
}
