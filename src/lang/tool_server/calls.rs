//! Writes to standard output and HTTP calls without a timeout: which calls they are is the
//! language's table; finding them, and where the edit that sends a write to standard error
//! goes, is written once (the edit's code is `codegen::stdout`'s).

use super::{Language, Source};
use crate::lang::ir::{ArgKind, Call, Kind};
use crate::tool_server_facts::{Redirect, StdoutEdit, StdoutModule, StdoutWrite, UntimedCall};

/// A call that writes to standard output, and how it is sent to standard error instead.
pub struct Stdout {
    /// The callee as written (`console.log`, `print`).
    pub callee: &'static str,
    pub edit: StdoutEdit,
    /// The call in a message (`print(...)`); empty for the callee's own `callee(...)`.
    pub what: &'static str,
}

/// What the stdout fixes need to know of the file: whether it imports the module a keyword
/// fix names (`sys`), and where the import goes otherwise.
pub struct StdoutFixes<'l> {
    language: &'l Language,
    pub module: StdoutModule,
}

impl<'l> StdoutFixes<'l> {
    pub fn new(s: &Source, language: &'l Language) -> Self {
        let module = language.stdout.iter().find_map(|w| match w.edit {
            StdoutEdit::Keyword { module, .. } => Some(module),
            _ => None,
        });
        let Some(module) = module else {
            return StdoutFixes {
                language,
                module: StdoutModule::default(),
            };
        };
        let mut imported = false;
        let mut after_future = None;
        let mut before = None;
        let Kind::Module(body) = s.kind(s.tree.root()) else {
            return StdoutFixes {
                language,
                module: StdoutModule::default(),
            };
        };
        for &statement in body {
            let Kind::Import(import) = s.kind(statement) else {
                continue;
            };
            match &import.module {
                None if import.level == 0 => {
                    imported |= import
                        .names
                        .iter()
                        .any(|n| &*n.name.name == module && n.alias.is_none());
                }
                Some(m) if &*m.name == "__future__" && import.level == 0 => {
                    after_future = Some(s.range(statement).end);
                    continue;
                }
                _ => {}
            }
            before = before.or(Some(s.range(statement).start));
        }
        let import_at = match (before, after_future) {
            (Some(at), _) => Some(at),
            (None, Some(end)) => Some(s.text[end..].find('\n').map_or(s.text.len(), |i| end + i + 1)),
            (None, None) => None,
        };
        StdoutFixes {
            language,
            module: StdoutModule {
                imported,
                import_at: import_at.filter(|_| !imported),
            },
        }
    }

    /// The write a call is, with where the edit that sends it to standard error goes.
    pub fn write(&self, s: &Source, call: &Call) -> Option<StdoutWrite> {
        let callee = s.callee(call);
        let write = self.language.stdout.iter().find(|w| w.callee == callee)?;
        let range = s.range(call.callee);
        let what = match write.what {
            "" => format!("{callee}(...)"),
            what => what.to_string(),
        };
        let member = |id| match s.kind(id) {
            Kind::Member(m) => Some(m),
            _ => None,
        };
        let rename = |name: &crate::lang::ir::Ident| Redirect::Rename {
            range: name.span.range(),
            name: name.name.to_string(),
        };
        let redirect = match &write.edit {
            StdoutEdit::Object(..) => {
                if call.bare_generator {
                    return None;
                }
                Redirect::Replace(s.range(member(call.callee)?.object))
            }
            StdoutEdit::Name(_) => rename(&member(call.callee)?.name),
            StdoutEdit::ObjectName(_) => rename(&member(member(call.callee)?.object)?.name),
            StdoutEdit::Keyword { name, stdout, .. } => {
                plain_arguments(call)?;
                match s.keyword(call, name) {
                    Some(file) if s.text(file) == *stdout => Redirect::Replace(s.range(file)),
                    Some(_) => return None,
                    None => match call.args.last() {
                        Some(last) => Redirect::AddKeyword {
                            at: last.span.end as usize,
                            first: false,
                        },
                        None => Redirect::AddKeyword {
                            at: call.parens.start as usize + 1,
                            first: true,
                        },
                    },
                }
            }
        };
        Some(StdoutWrite {
            range,
            what,
            callee: callee.to_string(),
            redirect: Some((&write.edit, redirect)),
        })
    }
}

/// A call's arguments when they can be read: none is `**kwargs`, and the call is not
/// `f(x for x in xs)`.
fn plain_arguments(call: &Call) -> Option<&[crate::lang::ir::Arg]> {
    let spread = call.args.iter().any(|a| a.kind == ArgKind::KeywordSpread);
    (!spread && !call.bare_generator).then_some(call.args.as_slice())
}

/// An HTTP call and where its timeout is given.
pub struct Timed {
    /// Whether a callee as written is the call.
    pub callee: fn(&str) -> bool,
    pub at: TimeoutAt,
    /// How to give it a timeout, in the language's own words.
    pub advice: &'static str,
    /// The call is not reported in a file holding this text (`axios.defaults.timeout`).
    pub unless: Option<&'static str>,
}

pub enum TimeoutAt {
    /// A keyword argument, or the positional argument at `position`.
    Keyword {
        name: &'static str,
        position: Option<usize>,
    },
    /// A key of the options object at argument `index`.
    Option { index: usize, key: &'static str },
}

/// The HTTP call a call is, when it sets no timeout.
pub fn untimed(s: &Source, language: &Language, call: &Call) -> Option<UntimedCall> {
    let name = s.callee(call);
    let range = s.range(call.callee);
    if let Some(none) = &language.none_timeout
        && let TimeoutAt::Keyword { name: keyword, .. } = none.at
        && plain_arguments(call).is_some()
        && s.keyword(call, keyword)
            .is_some_and(|t| matches!(s.kind(t), Kind::Null))
        && (none.callee)(name)
    {
        return Some(UntimedCall {
            range,
            what: format!("{name}(..., {keyword}=None)"),
            advice: none.advice.to_string(),
        });
    }
    let timed = language.timed.iter().find(|t| (t.callee)(name))?;
    if timed.unless.is_some_and(|u| s.text.contains(u)) {
        return None;
    }
    let missing = match timed.at {
        TimeoutAt::Keyword { name, position } => {
            plain_arguments(call)?;
            s.keyword(call, name).is_none() && position.is_none_or(|p| s.positional(call).len() <= p)
        }
        TimeoutAt::Option { index, key } => {
            if call.args.is_empty() {
                return None;
            }
            match call.args.get(index) {
                None => true,
                Some(a) if a.kind != ArgKind::Positional => false,
                Some(a) => {
                    let options = s.tree.unwrap(a.value);
                    matches!(s.kind(options), Kind::Dict(_))
                        && !s.spreads(options)
                        && !s.entries(options).iter().any(|(k, _)| *k == key)
                }
            }
        }
    };
    missing.then(|| UntimedCall {
        range,
        what: format!("{name}(...)"),
        advice: timed.advice.to_string(),
    })
}
