//! The edits that send a tool server's write to standard output to standard error instead, as
//! the language's table describes them ([`StdoutEdit`]): the callee's object or a name in it
//! replaced, or the keyword that says where to write replaced or added (with the import of its
//! module when the file lacks it).

use crate::diagnostic::Edit;
use crate::tool_server_facts::{Redirect, StdoutEdit, StdoutModule, StdoutWrite};

/// The fix's title and edits for a write, or `None` when the write cannot be redirected (a
/// keyword whose module the file does not import and has no import to stand by).
pub fn redirect(write: &StdoutWrite, module: &StdoutModule) -> Option<(String, Vec<Edit>)> {
    let (edit, at) = write.redirect.as_ref()?;
    match (edit, at) {
        (StdoutEdit::Object(new, title), Redirect::Replace(range)) => {
            Some((title.to_string(), vec![Edit::replace(range.clone(), *new)]))
        }
        (StdoutEdit::Name(new) | StdoutEdit::ObjectName(new), Redirect::Rename { range, name }) => {
            let replaced = write.callee.replacen(name.as_str(), new, 1);
            let title = format!("Write to standard error: `{replaced}`");
            Some((title, vec![Edit::replace(range.clone(), *new)]))
        }
        (
            StdoutEdit::Keyword {
                name,
                stderr,
                module: imported_module,
                titles,
                ..
            },
            at,
        ) => {
            let mut edits = Vec::new();
            match at {
                Redirect::Replace(value) => edits.push(Edit::replace(value.clone(), *stderr)),
                Redirect::AddKeyword { at, first } => {
                    let keyword = if *first {
                        format!("{name}={stderr}")
                    } else {
                        format!(", {name}={stderr}")
                    };
                    edits.push(Edit::replace(*at..*at, keyword));
                    if !module.imported {
                        let import_at = module.import_at?;
                        edits.push(Edit::replace(
                            import_at..import_at,
                            format!("import {imported_module}\n"),
                        ));
                    }
                }
                Redirect::Rename { .. } => return None,
            }
            let title = titles[usize::from(!module.imported)];
            Some((title.to_string(), edits))
        }
        _ => None,
    }
}
