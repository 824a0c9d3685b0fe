//! The rule registry: every rule's metadata, its documentation page, and rule selection.

use std::rc::Rc;

use crate::analysis::Analysis;
use crate::analysis::suppressions::{DocPlace, Tracker};
use crate::diagnostic::Diagnostic;
use crate::lang::Document;
use crate::tables::Tables;

pub use crate::diagnostic::{FixAvailability, RuleMeta};

/// What a rule gets while checking one document.
pub struct RuleContext<'a> {
    pub settings: &'a Tables,
    /// The file's name (`requirements-dev.txt`), for rules that read only some files.
    pub file_name: &'a str,
    /// The file's path as given to the run.
    pub path: &'a std::path::Path,
    /// What several rules read of the document, worked out once.
    pub analysis: &'a Analysis<'a>,
    pub diagnostics: Vec<Diagnostic>,
}

impl RuleContext<'_> {
    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }
}

pub trait Rule: Send + Sync {
    fn meta(&self) -> &'static RuleMeta;

    /// Words of which at least one appears in any file this rule can report on; a file with none
    /// of the enabled rules' words is never parsed.
    fn triggers(&self, settings: &Tables) -> Vec<String>;

    /// Words of which one must also appear for the rule to run on a file: the words that tie a
    /// file to the API or the protocol (a call name, a client package, a model id, a tool-server
    /// import), where a rule's own triggers may be ordinary words of other code
    /// (`temperature`, `mcp`). `None`: the triggers alone decide.
    fn anchors(&self, _settings: &Tables) -> Option<Vec<String>> {
        None
    }

    /// Whether a file is to be checked by its name alone, whatever its bytes hold (a
    /// `*benchmark-manifest*.json` file that is truncated before its `$schema`, say).
    fn claims_file(&self, _file_name: &str) -> bool {
        false
    }

    /// Reports findings on one document; ranges and edits are in the document's own text.
    fn check(&self, doc: &Document, cx: &mut RuleContext);

    /// Whether the rule judges a file's suppression directives once the other rules have run
    /// on all of its documents (IL001): the engine then collects them for
    /// [`judge_directives`](Rule::judge_directives).
    fn judges_directives(&self) -> bool {
        false
    }

    /// The findings on a file's suppression directives, each with the document it is in;
    /// `enabled`: the rules enabled for the file.
    fn judge_directives(
        &self,
        _directives: Tracker,
        _enabled: &[&'static dyn Rule],
    ) -> Vec<(Diagnostic, Rc<DocPlace>)> {
        Vec::new()
    }
}

/// Whether two rule references are the same rule. Most rules are zero-sized statics, whose
/// addresses may coincide; each has its own metadata static, which does not.
pub fn same_rule(a: &dyn Rule, b: &dyn Rule) -> bool {
    std::ptr::eq(a.meta(), b.meta())
}

/// Every rule interlint has, in code order.
/// A rule's fix as `rules` shows it: "none", "safe", "unsafe" or "safe or unsafe".
pub fn fix_label(m: &RuleMeta) -> String {
    match m.fix {
        FixAvailability::None => "none".to_string(),
        _ => m.fix_safety.to_string(),
    }
}

pub fn all_rules() -> &'static [&'static dyn Rule] {
    crate::rules::ALL
}

pub fn find_rule(code: &str) -> Option<&'static dyn Rule> {
    all_rules()
        .iter()
        .copied()
        .find(|r| r.meta().code.eq_ignore_ascii_case(code))
}

/// The command line's parser of selectors: [`parse_selector`](crate::codes::parse_selector), and
/// the rule codes and their prefixes as possible values, which shell completions offer.
#[derive(Clone, Copy, Debug)]
pub struct SelectorParser;

impl clap::builder::TypedValueParser for SelectorParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new()
            .try_map(|s| crate::codes::parse_selector(&s))
            .parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let codes = all_rules().iter().map(|r| r.meta().code);
        let mut prefixes: Vec<&'static str> = codes.clone().filter_map(|c| c.get(..3)).collect();
        prefixes.dedup();
        let values = std::iter::once("ALL").chain(prefixes).chain(codes).map(|v| {
            let help = find_rule(v).map(|r| r.meta().name);
            clap::builder::PossibleValue::new(v).help(help.unwrap_or_default())
        });
        Some(Box::new(values))
    }
}

fn matches(selector: &str, code: &str) -> bool {
    selector == "ALL" || code.starts_with(selector)
}

/// The rules enabled by `select` (all when empty) minus `ignore`. The most specific selector
/// wins, as in ruff: `--select MIG009 --ignore MIG` keeps MIG009.
pub fn select_rules(select: &[String], ignore: &[String]) -> Vec<&'static dyn Rule> {
    all_rules()
        .iter()
        .copied()
        .filter(|rule| {
            let code = rule.meta().code;
            let selected = select.iter().filter(|s| matches(s, code)).map(|s| s.len()).max();
            let selected = if select.is_empty() { Some(0) } else { selected };
            let ignored = ignore.iter().filter(|s| matches(s, code)).map(|s| s.len()).max();
            match (selected, ignored) {
                (Some(s), Some(i)) => s > i,
                (Some(_), None) => true,
                (None, _) => false,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(select: &[&str], ignore: &[&str]) -> Vec<&'static str> {
        let s: Vec<String> = select.iter().map(|s| s.to_string()).collect();
        let i: Vec<String> = ignore.iter().map(|s| s.to_string()).collect();
        select_rules(&s, &i).iter().map(|r| r.meta().code).collect()
    }

    /// What users read (`explain`, `rules`, hovers) names facts, never a document they do not
    /// have.
    #[test]
    fn rule_pages_cite_no_document_the_user_lacks() {
        let cited = regex::Regex::new(r"(?i)source document|\bsection \d|\bSPEC section|migration rule \d")
            .expect("valid regex");
        for rule in all_rules() {
            let m = rule.meta();
            for text in [m.doc, m.summary, m.fix_safety, m.surfaces] {
                assert!(
                    !cited.is_match(text),
                    "{}: {:?}",
                    m.code,
                    cited.find(text).map(|f| f.as_str())
                );
            }
        }
    }

    #[test]
    fn selection() {
        let all: Vec<&str> = all_rules().iter().map(|r| r.meta().code).collect();
        assert_eq!(codes(&[], &[]), all);
        assert_eq!(codes(&["ALL"], &[]), all);
        assert!(!codes(&["MIG"], &["MIG009"]).contains(&"MIG009"));
        assert_eq!(
            codes(&["MIG00"], &["MIG001", "MIG002", "MIG003"]),
            ["MIG004", "MIG005", "MIG006", "MIG007", "MIG008", "MIG009"]
        );
        assert_eq!(codes(&["MIG009"], &["MIG"]), ["MIG009"]);
        assert_eq!(
            codes(&["MAN"], &["MAN001"]),
            ["MAN002", "MAN003", "MAN004", "MAN005", "MAN006", "MAN007"]
        );
        assert!(!codes(&["MIG"], &[]).contains(&"MAN001"));
    }

    #[test]
    fn the_codes_are_those_of_the_rules() {
        let all: Vec<&str> = all_rules().iter().map(|r| r.meta().code).collect();
        assert_eq!(crate::codes::CODES, all);
    }

    #[test]
    fn rules_are_told_apart_though_they_are_zero_sized() {
        let rules = all_rules();
        for (i, a) in rules.iter().enumerate() {
            for (j, b) in rules.iter().enumerate() {
                assert_eq!(same_rule(*a, *b), i == j, "{} {}", a.meta().code, b.meta().code);
            }
        }
    }

    #[test]
    fn every_rule_has_a_doc_page() {
        for rule in all_rules() {
            let meta = rule.meta();
            assert!(
                meta.doc.starts_with(&format!("# {} {}", meta.code, meta.name)),
                "{}",
                meta.code
            );
            for section in ["## What it does", "## Why", "## Example", "## Fix safety"] {
                assert!(meta.doc.contains(section), "{} lacks {section}", meta.code);
            }
        }
    }
}
