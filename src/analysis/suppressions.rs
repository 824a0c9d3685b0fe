//! The suppression directives of a file's documents, collected across them by the engine for
//! the rule that judges which suppress nothing (IL001): a Markdown file's prose and its code
//! blocks, or a notebook cell's Python and its shell lines, read the same lines, and a directive
//! is used when it suppressed a finding in any of them.
//!
//! Imports the surfaces' documents and `suppress` only.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::rc::Rc;

use crate::lang::{self, Document};
use crate::suppress::{Directive, LineDirectives};

/// A document's text and where it lies in the file, kept for the directives found in it.
pub struct DocPlace {
    pub text: String,
    pub map: Option<lang::OffsetMap>,
    pub cell: Option<lang::CellOrigin>,
}

/// The directives of a file's documents, by their place in the file, with what each
/// suppressed in any document: a Markdown file's prose and its code blocks, or a notebook
/// cell's Python and its shell lines, read the same lines.
#[derive(Default)]
pub struct Tracker {
    found: BTreeMap<usize, (Directive, Rc<DocPlace>)>,
}

impl Tracker {
    /// Adds the directives of one document, judged by that document's findings (a directive
    /// already found at the same place of the file, from another document, gains what this
    /// one used).
    pub fn add(&mut self, doc: &Document, directives: LineDirectives) {
        let mut place: Option<Rc<DocPlace>> = None;
        for directive in directives.into_directives() {
            let start = directive.span.start;
            let at = doc.map.as_ref().map_or(start, |m| m.offset(start));
            match self.found.entry(at) {
                Entry::Occupied(mut seen) => {
                    seen.get_mut().0.used.extend(directive.used);
                }
                Entry::Vacant(new) => {
                    let place = place.get_or_insert_with(|| {
                        Rc::new(DocPlace {
                            text: doc.text.clone(),
                            map: doc.map.clone(),
                            cell: doc.cell.clone(),
                        })
                    });
                    new.insert((directive, Rc::clone(place)));
                }
            }
        }
    }

    /// Every directive found, by its place in the file, with what it suppressed and the
    /// document it was found in.
    pub fn into_found(self) -> impl Iterator<Item = (Directive, Rc<DocPlace>)> {
        self.found.into_values()
    }
}
