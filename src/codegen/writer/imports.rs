//! Imports of code written into a document: the import lines a rewrite's code needs
//! (`import base64`), and how the code names a member of a client module (`ThinkingLevel` of
//! `google.genai.types`) through what the document imports, adding the member to one of its
//! imports of that module when it must.

use crate::diagnostic::Edit;
use crate::lang::{Document, Syntax, ir};

/// The expression that names `member` of `module` at offset `at` of `doc` (`types.ThinkingLevel`,
/// `ThinkingLevel`), with the edits that import it: the member imported by name (or its alias),
/// through the module imported (`from google.genai import types`, `import * as genai from
/// "@google/genai"`), the member added to a document's named import of the module (`from
/// google.genai.types import A` → `A, ThinkingLevel`), or, in Python, through the client package
/// imported (`genai.types.ThinkingLevel`). `None` when the document imports none of these before
/// `at`. A notebook cell sees the imports of the cells before it, and adds to its own only.
pub(crate) fn client_member(
    doc: &Document,
    module: &str,
    member: &str,
    at: usize,
) -> Option<(String, Vec<Edit>)> {
    let (whole, base) = match &doc.module {
        Some((module, base)) => (&module.doc, *base),
        None => (doc, 0),
    };
    let Syntax::Lowered(tree) = &whole.syntax else {
        return None;
    };
    let python = matches!(whole.surface, crate::lang::Surface::Python);
    // `google.genai.types` → `google.genai` and `types`; `google.genai` → `google` and `genai`.
    let (parent, last) = module.rsplit_once('.').unwrap_or(("", module));
    let (grand, parent_last) = parent.rsplit_once('.').unwrap_or(("", parent));
    let mut through_module = None;
    let mut through_package = None;
    let mut named_list = None;
    for (id, node) in tree.nodes.iter().enumerate() {
        let ir::Kind::Import(import) = &node.kind else {
            continue;
        };
        let start = node.span.range().start;
        if start >= at + base || import.type_only || import.level > 0 || import.names.is_empty() {
            continue;
        }
        // An import inside a function binds its names there only.
        let mut up = ir::NodeId::try_from(id).ok()?;
        let mut local = false;
        while let Some(parent) = tree.parent(up) {
            local |= matches!(tree.kind(parent), ir::Kind::Function(_));
            up = parent;
        }
        if local {
            continue;
        }
        let from = import.module.as_ref().map(|m| &*m.name);
        for name in &import.names {
            let imported = &*name.name.name;
            let bound = name.bound();
            match from {
                Some(from) if from == module && imported == member => {
                    return Some((bound.to_string(), Vec::new()));
                }
                Some(from) if from == module && imported == "*" && !python => {
                    through_module.get_or_insert_with(|| format!("{bound}.{member}"));
                }
                Some(from) if python && from == parent && imported == last => {
                    through_module.get_or_insert_with(|| format!("{bound}.{member}"));
                }
                Some(from) if python && from == grand && imported == parent_last && !grand.is_empty() => {
                    through_package.get_or_insert_with(|| format!("{bound}.{last}.{member}"));
                }
                None if python && imported == module && name.alias.is_some() => {
                    through_module.get_or_insert_with(|| format!("{bound}.{member}"));
                }
                None if python && imported == parent && name.alias.is_some() => {
                    through_package.get_or_insert_with(|| format!("{bound}.{last}.{member}"));
                }
                _ => {}
            }
        }
        // A named import of the module in this document (a re-export binds nothing).
        let exported = whole
            .text
            .get(node.span.range())
            .is_some_and(|t| t.starts_with("export"));
        let named = import
            .names
            .iter()
            .rfind(|n| !matches!(&*n.name.name, "*" | "default"));
        if let Some(last_name) = named
            && from == Some(module)
            && !exported
            && start >= base
            && node.span.range().end <= base + doc.text.len()
        {
            named_list.get_or_insert(last_name.span.range().end - base);
        }
    }
    through_module
        .map(|name| (name, Vec::new()))
        .or_else(|| {
            named_list.map(|end| {
                let edit = Edit::replace(end..end, format!(", {member}"));
                (member.to_string(), vec![edit])
            })
        })
        .or_else(|| through_package.map(|name| (name, Vec::new())))
}

/// The modules written code may need imported, each with the call that shows it is used.
const IMPORTS: &[(&str, &[&str])] = &[
    ("base64", &["base64.b64encode(", "base64.b64decode("]),
    ("json", &["json.loads("]),
    ("pathlib", &["pathlib.Path("]),
    ("pydantic", &["pydantic.TypeAdapter("]),
];

/// The import lines code written into `doc` needs (`import base64`, `import json`), added once
/// after the module's first top-level import; an error when there is no such import to put it
/// by, or it would come after a top-level use at `at`.
pub(crate) fn import_edits(code: &str, doc: &Document, at: usize) -> Result<Vec<Edit>, String> {
    let top = &doc.facts().top_imports;
    let mut lines = String::new();
    for (module, calls) in IMPORTS {
        let Some(used) = calls.iter().find(|call| code.contains(**call)) else {
            continue;
        };
        if top.modules.iter().any(|m| m == module) {
            continue;
        }
        if top.insert_at.is_none_or(|insert| insert > at) {
            return Err(format!(
                "the rewrite calls `{used}...)`, and `import {module}` has no import to go by"
            ));
        }
        lines.push_str(&format!("import {module}\n"));
    }
    Ok(match top.insert_at {
        Some(insert) if !lines.is_empty() => vec![Edit::replace(insert..insert, lines)],
        _ => Vec::new(),
    })
}
