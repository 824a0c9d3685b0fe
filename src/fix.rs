//! The fix engine: non-overlapping fixes per pass, re-lint, repeat until nothing applies.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::lang::{self, Surface};
use crate::registry::{Rule, RuleMeta};
use crate::settings::Settings;
use crate::source::LineEnding;

/// Passes before the fix loop gives up.
pub const MAX_PASSES: usize = 10;

/// Applies, left to right, every fix that starts after the end of the last one applied; the
/// others wait for the next pass. A fix whose edits overlap each other, or fall outside the
/// text or inside a character, is never applied. Identical fixes apply once. Newlines in the
/// replacement text follow the file's line ending.
///
/// Returns the new text and the number of fixes applied.
pub fn apply_fixes<'f>(
    text: &str,
    fixes: impl IntoIterator<Item = &'f Fix>,
    line_ending: LineEnding,
) -> (String, usize) {
    let chosen = plan_fixes(text, fixes);
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for fix in &chosen {
        for edit in &fix.edits {
            out.push_str(&text[copied..edit.range.start]);
            match line_ending {
                LineEnding::Lf => out.push_str(&edit.content),
                LineEnding::CrLf => out.push_str(&to_crlf(&edit.content)),
            }
            copied = edit.range.end;
        }
    }
    out.push_str(&text[copied..]);
    (out, chosen.len())
}

/// The fixes one pass applies, in order: well-formed, deduplicated, each starting after the
/// end of the one before.
pub fn plan_fixes<'f>(text: &str, fixes: impl IntoIterator<Item = &'f Fix>) -> Vec<&'f Fix> {
    let mut fixes: Vec<&Fix> = fixes.into_iter().filter(|f| is_well_formed(f, text)).collect();
    fixes.sort_by_key(|f| (f.start(), f.end()));
    fixes.dedup_by(|a, b| a.edits == b.edits);
    let mut chosen: Vec<&Fix> = Vec::with_capacity(fixes.len());
    for fix in fixes {
        if chosen.last().is_some_and(|last| fix.start() <= last.end()) {
            continue;
        }
        chosen.push(fix);
    }
    chosen
}

fn is_well_formed(fix: &Fix, text: &str) -> bool {
    let mut end = 0;
    for (i, edit) in fix.edits.iter().enumerate() {
        let r = &edit.range;
        if r.start > r.end
            || r.end > text.len()
            || !text.is_char_boundary(r.start)
            || !text.is_char_boundary(r.end)
        {
            return false;
        }
        if i > 0 && r.start < end {
            return false;
        }
        end = r.end;
    }
    !fix.edits.is_empty()
}

fn to_crlf(content: &str) -> String {
    content.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// How a file's fix loop ended.
#[derive(Debug, PartialEq, Eq)]
pub enum FixStatus {
    /// No fixable finding remains (or none was fixable), apart from fixes that were dropped.
    Done,
    /// Fixes kept appearing after [`MAX_PASSES`]; nothing is written.
    NotConverged { rules: Vec<String> },
}

/// A fix left out because applying it would have broken the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedFix {
    pub code: &'static str,
    /// Where its finding is, as `line:col` (and the notebook cell), in the text it was tried on.
    pub location: String,
    pub reason: String,
}

pub struct FixOutcome {
    /// The fixed text; the original when the loop did not end well.
    pub text: String,
    /// The rule of each fix applied, over all passes.
    pub fixed: Vec<&'static RuleMeta>,
    /// Findings of `text`.
    pub remaining: Vec<Diagnostic>,
    /// Findings of the text before any fix.
    pub found: usize,
    /// Findings the fixes brought (a rule's findings more than before: `temperature` that the
    /// new model does not accept, once its id is changed). The findings resolved are `found`
    /// less those of `remaining` that are not new.
    pub new: usize,
    pub status: FixStatus,
    /// Fixes left out, each with why; the rest of the file's fixes are applied.
    pub dropped: Vec<DroppedFix>,
    /// The syntax errors of the text before any fix, which no fix may add to.
    pub errors: usize,
}

/// What the file's own parser would reject: the surface's syntax errors, and for a TOML file
/// whether it still loads.
pub fn file_errors(path: &Path, surface: Surface, text: &str) -> usize {
    lang::syntax_errors(surface, text).saturating_add(toml_errors(path, text))
}

/// For a TOML file that no longer loads, a count no fix may reach; else 0.
pub fn toml_errors(path: &Path, text: &str) -> usize {
    let is_toml = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
    if is_toml && toml::from_str::<toml::Table>(text).is_err() {
        usize::MAX / 2
    } else {
        0
    }
}

/// A fix told apart from its position, so that a fix dropped in one pass is recognised when
/// the next pass proposes it again a few bytes further on: its rule, and the text each edit
/// replaces with what.
#[derive(PartialEq, Eq, Hash)]
struct FixKey {
    code: &'static str,
    edits: Vec<(String, String)>,
}

impl FixKey {
    fn of(diagnostic: &Diagnostic, fix: &Fix, text: &str) -> FixKey {
        FixKey {
            code: diagnostic.rule.code,
            edits: fix
                .edits
                .iter()
                .map(|e| {
                    (
                        text.get(e.range.clone()).unwrap_or_default().to_string(),
                        e.content.clone(),
                    )
                })
                .collect(),
        }
    }
}

/// Words an edit writes when it declares a name in JavaScript or TypeScript.
const DECLARING: &[&str] = &[
    "import", "require(", "const ", "let ", "var ", "class ", "function",
];

/// Why a fix is left out when the text it gives has more syntax errors than the original.
const INVALID_SYNTAX: &str = "would produce invalid syntax";

/// Why a fix is left out when its edits cannot be applied to the text (they overlap each other
/// or fall outside it), or it kept waiting behind another fix.
const NOT_APPLICABLE: &str = "its edits could not be applied to the file";

/// Runs the fix loop on a file's text. Each pass applies the non-overlapping fixes, then the
/// text is checked by the file's parser: a fix that breaks the file is dropped (and reported)
/// and the others of its pass are applied without it.
pub fn fix_text(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    path: &Path,
    surface: Surface,
    text: &str,
    line_ending: LineEnding,
    unsafe_fixes: bool,
) -> FixOutcome {
    let file = FileText {
        path,
        surface,
        text,
        line_ending,
    };
    fix_loop(settings, rules, &file, unsafe_fixes, None)
}

/// A file's text, with what the fix loop needs to know of it.
#[derive(Clone, Copy)]
pub struct FileText<'a> {
    pub path: &'a Path,
    pub surface: Surface,
    pub text: &'a str,
    pub line_ending: LineEnding,
}

/// The findings of a text already linted, and its syntax errors ([`file_errors`] but for its
/// redeclarations, which are counted when a fix could add one): where a fix loop starts
/// without linting the text again.
pub struct Start {
    pub diagnostics: Vec<Diagnostic>,
    pub errors: usize,
}

/// What fixing a text would resolve of its findings: `fixable` by the safe fixes (`--fix`),
/// `more_unsafe` by the unsafe fixes too (`--fix --unsafe-fixes`) among those left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WouldFix {
    pub fixable: usize,
    pub more_unsafe: usize,
}

impl FixOutcome {
    /// The findings the fixes resolved: those found before less those left that were there
    /// before (as [`crate::run::FileReport::resolved`] counts a file's).
    pub fn resolved(&self) -> usize {
        let left = self.remaining.len().saturating_sub(self.new);
        self.found.saturating_sub(left)
    }
}

/// What the fixes of a text would resolve, from its findings (`start`), in the pass that
/// linted it. With `unsafe_fixes`, one loop as `--fix --unsafe-fixes` runs it (`fixable` is
/// then what it resolves); else the safe loop as `--fix` runs it, and the unsafe fixes' loop
/// from where it ends, so that `more_unsafe` is what `--unsafe-fixes` resolves after `--fix`,
/// as [`more_unsafe`] finds it on a fixed text. With the counts, the text the last loop leaves
/// (`None` when no loop ran: the text stays as it is).
pub fn would_fix(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    file: &FileText,
    start: Start,
    unsafe_fixes: bool,
) -> (WouldFix, Option<String>) {
    let any_fix =
        |ds: &[Diagnostic], unsafe_fixes: bool| ds.iter().any(|d| d.applicable_fix(unsafe_fixes).is_some());
    if !any_fix(&start.diagnostics, true) {
        return (WouldFix::default(), None);
    }
    if unsafe_fixes {
        let outcome = fix_loop(settings, rules, file, true, Some(start));
        let would = WouldFix {
            fixable: outcome.resolved(),
            more_unsafe: 0,
        };
        return (would, Some(outcome.text));
    }
    let errors = start.errors;
    let safe_ran = any_fix(&start.diagnostics, false);
    let safe = if safe_ran {
        fix_loop(settings, rules, file, false, Some(start))
    } else {
        FixOutcome {
            text: file.text.to_string(),
            fixed: Vec::new(),
            found: start.diagnostics.len(),
            remaining: start.diagnostics,
            new: 0,
            status: FixStatus::Done,
            dropped: Vec::new(),
            errors,
        }
    };
    let fixable = safe.resolved();
    let fixed = FileText {
        text: &safe.text,
        ..*file
    };
    let start = Start {
        diagnostics: safe.remaining,
        errors,
    };
    let (more_unsafe, unsafe_text) = more_unsafe(settings, rules, &fixed, start);
    let would = WouldFix { fixable, more_unsafe };
    let text = unsafe_text.or_else(|| safe_ran.then_some(safe.text));
    (would, text)
}

/// What the unsafe fixes would resolve of a text's findings (`start`): on a text `--fix` left,
/// the "more with --unsafe-fixes" of its summary; with it, the text they leave (`None` when
/// none applies: the text stays as it is).
pub fn more_unsafe(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    file: &FileText,
    start: Start,
) -> (usize, Option<String>) {
    if !start.diagnostics.iter().any(|d| d.applicable_fix(true).is_some()) {
        return (0, None);
    }
    let outcome = fix_loop(settings, rules, file, true, Some(start));
    (outcome.resolved(), Some(outcome.text))
}

fn fix_loop(
    settings: &Settings,
    rules: &[&'static dyn Rule],
    file: &FileText,
    unsafe_fixes: bool,
    start: Option<Start>,
) -> FixOutcome {
    let FileText {
        path,
        surface,
        text,
        line_ending,
    } = *file;
    // Each text is read by the rules whose words it holds: a fix may bring in words
    // (`interactions.create`) that call on another rule.
    let rules_of = |t: &str| settings.select(rules, path, t.as_bytes());
    let lint = |t: &str| crate::engine::lint_text(settings, &rules_of(t), path, surface, t);
    // A fixed text is parsed once for its findings and its syntax errors together.
    let lint_and_errors = |t: &str| {
        let (diagnostics, errors) =
            crate::engine::lint_text_and_errors(settings, &rules_of(t), path, surface, t);
        (diagnostics, errors.saturating_add(toml_errors(path, t)))
    };
    let (original, baseline) = match start {
        Some(start) => (start.diagnostics, start.errors),
        None => lint_and_errors(text),
    };
    // A name declared twice is counted only in a text a fix could have added one to, against
    // the original's count, read once.
    let original_redeclarations = std::cell::OnceCell::new();
    let redeclares = |t: &str| {
        let now = lang::redeclarations(surface, t);
        now > 0 && now > *original_redeclarations.get_or_init(|| lang::redeclarations(surface, text))
    };
    let breaks = |t: &str| file_errors(path, surface, t) > baseline || redeclares(t);
    let mut current = text.to_string();
    let mut diagnostics = original.clone();
    let mut fixed = Vec::new();
    let mut passes = 0;
    let mut blocked: HashSet<FixKey> = HashSet::new();
    let mut dropped: Vec<DroppedFix> = Vec::new();
    // Passes of one fix each, after fixes that were fine alone broke the file together.
    let mut single_steps = 0;
    let mut retried = false;
    loop {
        let candidates: Vec<(&Diagnostic, &Fix)> = diagnostics
            .iter()
            .filter_map(|d| d.applicable_fix(unsafe_fixes).map(|f| (d, f)))
            .filter(|(_, f)| !is_no_op(f, &current))
            .filter(|(d, f)| !blocked.contains(&FixKey::of(d, f, &current)))
            .collect();
        if candidates.is_empty() {
            if blocked.is_empty() || retried {
                break;
            }
            // The fixes left out were judged against the text of their pass: once the other
            // fixes are in, each is tried once more, as a second run would try it (else a
            // second run changes the file again).
            retried = true;
            blocked.clear();
            dropped.clear();
            continue;
        }
        if passes == MAX_PASSES {
            let rules: BTreeSet<String> = candidates.iter().map(|(d, _)| d.rule.code.to_string()).collect();
            return FixOutcome {
                text: text.to_string(),
                fixed: Vec::new(),
                found: original.len(),
                new: 0,
                remaining: original,
                status: FixStatus::NotConverged {
                    rules: rules.into_iter().collect(),
                },
                dropped: Vec::new(),
                errors: baseline,
            };
        }
        let all: Vec<&Fix> = candidates.iter().map(|(_, f)| *f).collect();
        // Only an edit that writes a declaration can declare a name twice.
        let may_declare = all
            .iter()
            .flat_map(|f| &f.edits)
            .any(|e| DECLARING.iter().any(|word| e.content.contains(word)));
        let (mut next, mut applied) = apply_counted(&current, &all, &candidates, line_ending);
        let mut single_step = false;
        // The pass's text is linted once: its findings are the next pass's when it parses.
        let mut linted = (!applied.is_empty()).then(|| lint_and_errors(&next));
        if let Some((_, errors)) = &linted
            && (*errors > baseline || (may_declare && redeclares(&next)))
        {
            linted = None;
            // Leave out the fixes that break the file on their own ...
            let chosen: HashSet<*const Fix> = plan_fixes(&current, all.iter().copied())
                .into_iter()
                .map(|f| f as *const Fix)
                .collect();
            let applied_here: Vec<(&Diagnostic, &Fix)> = candidates
                .iter()
                .filter(|(_, f)| chosen.contains(&(*f as *const Fix)))
                .copied()
                .collect();
            let mut newly_blocked = 0;
            let index = crate::source::LineIndex::new(&current);
            for (d, f) in breaking(&current, &applied_here, line_ending, &breaks) {
                if blocked.insert(FixKey::of(d, f, &current)) {
                    newly_blocked += 1;
                    dropped.push(DroppedFix {
                        code: d.rule.code,
                        location: location(d, &current, &index),
                        reason: INVALID_SYNTAX.to_string(),
                    });
                }
            }
            let kept: Vec<&Fix> = candidates
                .iter()
                .filter(|(d, f)| !blocked.contains(&FixKey::of(d, f, &current)))
                .map(|(_, f)| *f)
                .collect();
            (next, applied) = apply_counted(&current, &kept, &candidates, line_ending);
            if !applied.is_empty() && breaks(&next) {
                // ... and when the rest are fine alone but not together, go one at a time:
                // the first that does not break the file on its own. (Error counts do not
                // add up, so the halving may have let through a fix that does.)
                (next, applied) = (current.clone(), Vec::new());
                for fix in plan_fixes(&current, kept.iter().copied()) {
                    let (one, fixed) = apply_counted(&current, &[fix], &candidates, line_ending);
                    if fixed.is_empty() {
                        continue;
                    }
                    if !breaks(&one) {
                        (next, applied) = (one, fixed);
                        break;
                    }
                    let found = candidates.iter().find(|(_, f)| std::ptr::eq(*f, fix));
                    if let Some((d, f)) = found
                        && blocked.insert(FixKey::of(d, f, &current))
                    {
                        newly_blocked += 1;
                        dropped.push(DroppedFix {
                            code: d.rule.code,
                            location: location(d, &current, &index),
                            reason: INVALID_SYNTAX.to_string(),
                        });
                    }
                }
                single_step = true;
            }
            if applied.is_empty() && newly_blocked > 0 {
                // Everything this pass proposed was dropped; what is left waits for the next.
                continue;
            }
        }
        if applied.is_empty() || next == current {
            break;
        }
        if single_step {
            single_steps += 1;
            if single_steps > MAX_SINGLE_STEPS {
                break;
            }
        } else {
            passes += 1;
        }
        fixed.extend(applied);
        current = next;
        diagnostics = match linted {
            Some((next_diagnostics, _)) => next_diagnostics,
            None => lint(&current),
        };
    }
    // A dropped fix's finding stays, without the fix, saying why. (The index of a notebook's
    // lines is built only for one.)
    let index = std::cell::OnceCell::new();
    let index = || index.get_or_init(|| crate::source::LineIndex::new(&current));
    let remaining: Vec<Diagnostic> = diagnostics
        .into_iter()
        .map(|mut d| {
            let key = d
                .applicable_fix(unsafe_fixes)
                .map(|f| FixKey::of(&d, f, &current));
            if key.is_some_and(|k| blocked.contains(&k)) {
                d.fix = None;
                d.message.push_str(&format!(" (fix skipped: {INVALID_SYNTAX})"));
            }
            if d.fix.as_ref().is_some_and(|f| is_no_op(f, &current)) {
                let fix = d.fix.take();
                if d.suggestion.is_none() {
                    d.suggestion = fix.map(|f| f.message);
                }
            }
            // Any other fix still applicable could not be applied: say so rather than mark
            // the finding fixable once more.
            if d.applicable_fix(unsafe_fixes).is_some() {
                dropped.push(DroppedFix {
                    code: d.rule.code,
                    location: location(&d, &current, index()),
                    reason: NOT_APPLICABLE.to_string(),
                });
                let fix = d.fix.take();
                d.message.push_str(&format!(" (fix skipped: {NOT_APPLICABLE})"));
                if d.suggestion.is_none() {
                    d.suggestion = fix.map(|f| f.message);
                }
            }
            d
        })
        .collect();
    FixOutcome {
        text: current,
        fixed,
        new: brought(&original, &remaining),
        remaining,
        found: original.len(),
        status: FixStatus::Done,
        dropped,
        errors: baseline,
    }
}

/// The findings of `after` that `before` did not have, counted per rule: a rule's findings over
/// its number before.
fn brought(before: &[Diagnostic], after: &[Diagnostic]) -> usize {
    let mut count: std::collections::HashMap<&str, isize> = std::collections::HashMap::new();
    for d in before {
        *count.entry(d.rule.code).or_default() -= 1;
    }
    for d in after {
        *count.entry(d.rule.code).or_default() += 1;
    }
    count.values().map(|&n| n.max(0).unsigned_abs()).sum()
}

/// Passes of one fix each, at most, once fixes broke the file together.
const MAX_SINGLE_STEPS: usize = 200;

/// Applies `fixes` as one pass; the count is of findings fixed, so that findings sharing one
/// fix (three entries removed together) count as three.
fn apply_counted(
    text: &str,
    fixes: &[&Fix],
    findings: &[(&Diagnostic, &Fix)],
    line_ending: LineEnding,
) -> (String, Vec<&'static RuleMeta>) {
    let chosen = plan_fixes(text, fixes.iter().copied());
    let (out, applied) = apply_fixes(text, chosen.iter().copied(), line_ending);
    if applied == 0 {
        return (out, Vec::new());
    }
    let chosen_edits: HashSet<&Vec<Edit>> = chosen.iter().map(|c| &c.edits).collect();
    let fixed = findings
        .iter()
        .filter(|(_, f)| chosen_edits.contains(&f.edits))
        .map(|(d, _)| d.rule)
        .collect();
    (out, fixed)
}

/// A fix that leaves the text as it is: never worth a pass, and never applied.
fn is_no_op(fix: &Fix, text: &str) -> bool {
    fix.edits
        .iter()
        .all(|e| text.get(e.range.clone()) == Some(e.content.as_str()))
}

/// The fixes among `group` (applied together in one pass, which broke the file) that break it
/// on their own, found by halving the group: a few parses per bad fix, not one per fix.
fn breaking<'d>(
    text: &str,
    group: &[(&'d Diagnostic, &'d Fix)],
    line_ending: LineEnding,
    breaks: &dyn Fn(&str) -> bool,
) -> Vec<(&'d Diagnostic, &'d Fix)> {
    let (out, applied) = apply_fixes(text, group.iter().map(|(_, f)| *f), line_ending);
    if applied == 0 || !breaks(&out) {
        return Vec::new();
    }
    if group.len() == 1 {
        return group.to_vec();
    }
    let (left, right) = group.split_at(group.len() / 2);
    let mut bad = breaking(text, left, line_ending, breaks);
    bad.extend(breaking(text, right, line_ending, breaks));
    bad
}

/// `line:col` of a finding in `text`, with its notebook cell.
fn location(diagnostic: &Diagnostic, text: &str, index: &crate::source::LineIndex) -> String {
    let at = index.position(text, diagnostic.range.start);
    match &diagnostic.cell {
        Some(cell) => format!(
            "{}:{} (cell {}, line {})",
            at.line, at.column, cell.cell, cell.start.line
        ),
        None => format!("{}:{}", at.line, at.column),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(edits: &[(usize, usize, &str)]) -> Fix {
        Fix::safe(
            "t",
            edits.iter().map(|(s, e, c)| Edit::replace(*s..*e, *c)).collect(),
        )
    }

    #[test]
    fn overlapping_fixes_wait() {
        let a = fix(&[(0, 3, "X")]);
        let b = fix(&[(2, 5, "Y")]);
        let c = fix(&[(6, 7, "Z")]);
        let (out, n) = apply_fixes("abcdefgh", [&a, &b, &c], LineEnding::Lf);
        assert_eq!((out.as_str(), n), ("XdefZh", 2));
    }

    #[test]
    fn identical_fixes_apply_once_and_crlf_is_kept() {
        let a = fix(&[(1, 2, "x\ny")]);
        let (out, n) = apply_fixes("a-b", [&a, &a.clone()], LineEnding::CrLf);
        assert_eq!((out.as_str(), n), ("ax\r\nyb", 1));
    }

    #[test]
    fn findings_a_fix_brings_are_counted_per_rule() {
        use crate::diagnostic::Severity;
        let d =
            |rule: &'static RuleMeta, message: &str| Diagnostic::new(rule, Severity::Error, message, 0..1);
        let id = crate::rules::ALL[8].meta();
        let fields = crate::rules::ALL[9].meta();
        let before = [d(id, "a"), d(id, "b"), d(fields, "x")];
        // The ids fixed; two findings of another rule appear, one of its own changes words.
        let after = [d(fields, "x'"), d(fields, "y"), d(fields, "z")];
        assert_eq!(brought(&before, &after), 2);
        assert_eq!(brought(&before, &before[..1]), 0);
    }

    /// The safe fixes of one rule on a Python text.
    fn fix_python(rule: &'static dyn Rule, text: &str) -> FixOutcome {
        let loaded = crate::config::LoadedConfig {
            config: Default::default(),
            path: None,
        };
        let settings = Settings::new(&loaded, crate::settings::Overrides::default(), Path::new("."))
            .expect("default settings");
        fix_text(
            &settings,
            &[rule],
            Path::new("t.py"),
            Surface::Python,
            text,
            LineEnding::Lf,
            false,
        )
    }

    /// Renames the keyword arguments `a` and `b` of the text to `c`: each fix is fine alone,
    /// both together repeat a keyword argument.
    struct RenameToC;

    static RENAME_META: crate::registry::RuleMeta = crate::registry::RuleMeta {
        code: "MIG009",
        name: "test-rename",
        summary: "",
        surfaces: "",
        fix: crate::registry::FixAvailability::Always,
        fix_safety: "safe",
        doc: "",
    };

    impl Rule for RenameToC {
        fn meta(&self) -> &'static crate::registry::RuleMeta {
            &RENAME_META
        }
        fn triggers(&self, _settings: &crate::tables::Tables) -> Vec<String> {
            Vec::new()
        }
        fn check(&self, doc: &crate::lang::Document, cx: &mut crate::registry::RuleContext) {
            for name in ["a=", "b="] {
                if let Some(at) = doc.text.find(name) {
                    let diagnostic = Diagnostic::new(
                        &RENAME_META,
                        crate::diagnostic::Severity::Error,
                        "rename",
                        at..at + 1,
                    )
                    .with_fix(Fix::safe("rename", vec![Edit::replace(at..at + 1, "c")]));
                    cx.report(diagnostic);
                }
            }
        }
    }

    #[test]
    fn fixes_fine_alone_but_broken_together_go_one_at_a_time_and_the_breaking_one_is_dropped() {
        static RULE: RenameToC = RenameToC;
        let outcome = fix_python(&RULE, "f(a=1, b=2)\n");
        assert_eq!(outcome.text, "f(c=1, b=2)\n");
        assert_eq!(outcome.fixed.len(), 1);
        assert_eq!(outcome.status, FixStatus::Done);
        assert_eq!(
            outcome.dropped,
            vec![DroppedFix {
                code: "MIG009",
                location: "1:8".into(),
                reason: INVALID_SYNTAX.into()
            }]
        );
        assert_eq!(outcome.remaining.len(), 1);
        assert!(outcome.remaining[0].fix.is_none());
        assert!(
            outcome.remaining[0]
                .message
                .ends_with("(fix skipped: would produce invalid syntax)")
        );
    }

    /// Proposes a fix whose edits overlap each other: it can never be applied.
    struct Tangled;

    impl Rule for Tangled {
        fn meta(&self) -> &'static crate::registry::RuleMeta {
            &RENAME_META
        }
        fn triggers(&self, _settings: &crate::tables::Tables) -> Vec<String> {
            Vec::new()
        }
        fn check(&self, doc: &crate::lang::Document, cx: &mut crate::registry::RuleContext) {
            let edits = vec![Edit::replace(0..3, "x"), Edit::replace(1..2, "y")];
            let len = doc.text.len().min(1);
            cx.report(
                Diagnostic::new(
                    &RENAME_META,
                    crate::diagnostic::Severity::Error,
                    "tangled",
                    0..len,
                )
                .with_fix(Fix::safe("untangle", edits)),
            );
        }
    }

    #[test]
    fn a_fix_that_cannot_be_applied_is_reported_not_left_fixable() {
        static RULE: Tangled = Tangled;
        let outcome = fix_python(&RULE, "abcdef\n");
        assert_eq!(outcome.text, "abcdef\n");
        assert_eq!(outcome.dropped.len(), 1);
        assert_eq!(outcome.dropped[0].reason, NOT_APPLICABLE);
        assert!(outcome.remaining[0].fix.is_none());
        assert_eq!(outcome.remaining[0].suggestion.as_deref(), Some("untangle"));
    }

    #[test]
    fn malformed_fixes_are_refused() {
        let outside = fix(&[(2, 9, "x")]);
        let inside_char = fix(&[(1, 2, "x")]);
        let (out, n) = apply_fixes("é!", [&outside, &inside_char], LineEnding::Lf);
        assert_eq!((out.as_str(), n), ("é!", 0));
    }
}
