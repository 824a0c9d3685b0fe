//! Imports of the client packages.

use std::ops::Range;

use super::values::is_client_path as is_client_module;
use super::{Analyzer, string_content};
use crate::lang::ir::{Kind, NodeId};
use crate::migration_facts::{Import, TypesImport};

impl Analyzer<'_> {
    /// The modules imported by the Python module's top-level `import` statements, and where a
    /// new import line goes (after the first of its top-level imports).
    pub(super) fn top_imports(&self) -> crate::migration_facts::TopImports {
        let mut top = crate::migration_facts::TopImports::default();
        for &node in &self.scopes.imports {
            let Kind::Import(import) = self.kind(node) else {
                continue;
            };
            if !self
                .parent(node)
                .is_some_and(|p| matches!(self.kind(p), Kind::Module(_)))
            {
                continue;
            }
            // The start of the next line (none when the import ends the text).
            let end = self.end(node);
            let next_line = self
                .text
                .get(end..)
                .and_then(|rest| rest.find('\n'))
                .map(|i| end + i + 1);
            if let Some(at) = next_line
                && top.insert_at.is_none_or(|first| at < first)
            {
                top.insert_at = Some(at);
            }
            if import.module.is_none() && import.level == 0 {
                top.modules.extend(
                    import
                        .names
                        .iter()
                        .filter(|n| n.alias.is_none())
                        .map(|n| n.name.name.to_string()),
                );
            }
        }
        top
    }

    /// A Python `import` / `from ... import` statement's imports of a client package.
    pub(super) fn python_imports(&self, node: NodeId, out: &mut Vec<Import>) {
        let Kind::Import(import) = self.kind(node) else {
            return;
        };
        let module: Option<(String, Range<usize>)> = match (&import.module, import.level) {
            (None, 0) => None,
            (module, level) => {
                let dots = ".".repeat(level as usize);
                let text = format!("{dots}{}", module.as_ref().map_or("", |m| &*m.name));
                let range = match module {
                    Some(m) => (m.span.start as usize).saturating_sub(level as usize)..m.span.end as usize,
                    None => self.range(node),
                };
                Some((text, range))
            }
        };
        let names: Vec<_> = import.names.iter().filter(|n| &*n.name.name != "*").collect();
        let statement = crate::migration_facts::line_removal(self.text, self.range(node));
        for (i, name) in names.iter().enumerate() {
            let path = &*name.name.name;
            let full = match &module {
                Some((m, _)) => format!("{m}.{path}"),
                None => path.to_string(),
            };
            if !is_client_module(&full) {
                continue;
            }
            let reported = match &module {
                Some((m, range)) if is_client_module(m) => (m.clone(), range.clone()),
                _ => (full.clone(), name.name.span.range()),
            };
            let types = full.ends_with(".types").then(|| {
                let binding = match &name.alias {
                    Some(a) => a.name.to_string(),
                    None => path.rsplit('.').next().unwrap_or_default().to_string(),
                };
                let used = self.scopes.names.total_uses.get(&binding).copied().unwrap_or(0) > 0
                    || self.elsewhere.contains(&binding);
                let removal = if names.len() == 1 {
                    without_blank_start(self.text, statement.clone())
                } else if let Some(next) = names.get(i + 1) {
                    name.span.start as usize..next.span.start as usize
                } else {
                    names[i - 1].span.end as usize..name.span.end as usize
                };
                TypesImport {
                    binding,
                    name_range: name.span.range(),
                    removal,
                    used,
                }
            });
            // `from google import genai, generativeai` reports each name, not the module twice.
            let (module_text, module_range) = match &module {
                Some((m, _)) if !is_client_module(m) => (full.clone(), name.span.range()),
                _ => reported,
            };
            if out.iter().any(|i: &Import| i.module_range == module_range) && types.is_none() {
                continue;
            }
            out.push(Import {
                module: module_text,
                statement: self.range(node),
                module_range,
                types,
            });
        }
    }

    /// `import ... from "pkg"`, `export ... from "pkg"`.
    pub(super) fn js_import(&self, node: NodeId) -> Option<Import> {
        let Kind::Import(import) = self.kind(node) else {
            return None;
        };
        let module = import.module.as_ref()?;
        Some(Import {
            module: module.name.to_string(),
            statement: self.range(node),
            module_range: string_content(module.span.range()),
            types: None,
        })
    }

    /// `require("pkg")`, `import("pkg")`.
    pub(super) fn dynamic_import(&self, call: NodeId) -> Option<Import> {
        let module = self.required_module(call)?;
        let Kind::Call(c) = self.kind(call) else {
            return None;
        };
        let source = c.args.first()?;
        Some(Import {
            module,
            statement: self.range(call),
            module_range: string_content(self.range(source.value)),
            types: None,
        })
    }
}

/// A deletion at the start of the file takes the blank lines after it too, so the file does
/// not begin with a blank line.
fn without_blank_start(text: &str, range: Range<usize>) -> Range<usize> {
    if range.start != 0 || !text[..range.end].ends_with('\n') {
        return range;
    }
    let rest = &text[range.end..];
    let blank = rest.len() - rest.trim_start_matches(['\n', '\r']).len();
    range.start..range.end + blank
}
