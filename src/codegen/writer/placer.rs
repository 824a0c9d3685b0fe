//! Placement: the arguments of an interactions request gathered as a config's entries are
//! placed one by one (the generation settings into one `generation_config`, the direct fields as
//! arguments), with the entries that have no place or a value that cannot be carried, written at
//! the end as the arguments or as why not. Which field goes where is the caller's to say
//! (`request::fields`, by the request-field table); this writes it.

use std::ops::Range;

use super::Dialect;
use crate::request_fields::Place;

/// A config's entries as an interactions request's arguments.
pub(crate) struct Placed {
    pub(crate) arguments: Vec<String>,
    /// Statements binding names whose values were written into the arguments.
    pub(crate) inlined: Vec<Range<usize>>,
    /// The settings each content of the input of a kind that takes them carries (`resolution`,
    /// written), for the caller that writes the input.
    pub(crate) content: Vec<(String, String)>,
    /// Options of the call ([`Place::RequestOption`]: `("signal", value)`), for the caller that
    /// writes the call (JavaScript's alone).
    pub(crate) options: Vec<(String, String)>,
}

impl Placed {
    /// Why a caller that writes no options of the call cannot take these arguments: an option
    /// it would drop.
    pub(crate) fn without_options(self) -> Result<Placed, String> {
        match self.options.first() {
            Some((name, _)) => Err(format!(
                "the config sets the call's `{name}` option, which interlint writes for a request of its own \
                 alone (`interactions.create(params, {{ {name} }})`)"
            )),
            None => Ok(self),
        }
    }
}

/// The fields of an interactions request as they are placed, and what could not be.
pub(crate) struct Placer {
    dialect: Dialect,
    generation: Vec<(String, String)>,
    arguments: Vec<(String, String)>,
    /// Where `generation_config` goes among the arguments: where its first entry was.
    generation_at: Option<usize>,
    /// Settings of the input's contents ([`Place::Content`]).
    content: Vec<(String, String)>,
    /// Options of the call ([`Place::RequestOption`]).
    options: Vec<(String, String)>,
    unplaced: Vec<String>,
    /// Entries the request-field table does not know (`abortSignal`, `http_options`).
    unknown: Vec<String>,
    notes: Vec<String>,
    /// Entries that have a place but a value that cannot be carried there.
    problems: Vec<String>,
    /// Bindings of names whose value was written into the request instead.
    inlined: Vec<Range<usize>>,
}

impl Placer {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Placer {
            dialect,
            generation: Vec::new(),
            arguments: Vec::new(),
            generation_at: None,
            content: Vec::new(),
            options: Vec::new(),
            unplaced: Vec::new(),
            unknown: Vec::new(),
            notes: Vec::new(),
            problems: Vec::new(),
            inlined: Vec::new(),
        }
    }

    /// One field of the interactions request; a field set twice (`thinking_level` and a budget)
    /// is not guessed between.
    pub(crate) fn put(&mut self, place: Place, name: &str, value: String, shown: &str) {
        // Only JavaScript's client takes options of a call in a second argument.
        if place == Place::RequestOption && self.dialect != Dialect::JavaScript {
            self.problems.push(format!(
                "`{shown}` is an option of the JavaScript client's call, which this request has no place for"
            ));
            return;
        }
        let taken = match place {
            Place::GenerationConfig => &self.generation,
            Place::Content => &self.content,
            Place::RequestOption => &self.options,
            _ => &self.arguments,
        };
        if taken.iter().any(|(n, _)| n == name) {
            self.problems
                .push(format!("`{shown}` sets `{name}`, which another entry sets too"));
            return;
        }
        match place {
            Place::GenerationConfig => {
                self.generation_at.get_or_insert(self.arguments.len());
                self.generation.push((name.to_string(), value));
            }
            Place::Content => self.content.push((name.to_string(), value)),
            Place::RequestOption => self.options.push((name.to_string(), value)),
            _ => self.arguments.push((name.to_string(), value)),
        }
    }

    /// An entry (`shown` as written) with no place in an interactions request, with the note
    /// that says why, once.
    pub(crate) fn unplaced(&mut self, shown: String, note: Option<&String>) {
        self.unplaced.push(shown);
        if let Some(note) = note
            && !self.notes.contains(note)
        {
            self.notes.push(note.clone());
        }
    }

    /// An entry (`shown` as written) the request-field table does not know: where it goes, if
    /// anywhere, is not known (a limit, not a missing counterpart).
    pub(crate) fn unknown(&mut self, shown: String) {
        self.unknown.push(shown);
    }

    /// An entry that has a place but a value that cannot be carried there.
    pub(crate) fn problem(&mut self, problem: String) {
        self.problems.push(problem);
    }

    /// Statements binding names whose values were written into the request instead (they go).
    pub(crate) fn inline(&mut self, statements: impl IntoIterator<Item = Range<usize>>) {
        self.inlined.extend(statements);
    }

    /// The arguments, and the statements binding names that were inlined.
    pub(crate) fn finish(self) -> Result<Placed, String> {
        let mut reasons = Vec::new();
        if !self.unplaced.is_empty() {
            let names: Vec<String> = self.unplaced.iter().map(|n| format!("`{n}`")).collect();
            reasons.push(format!(
                "the config's {} {} no place in an interactions request",
                names.join(", "),
                if names.len() == 1 { "has" } else { "have" }
            ));
            reasons.extend(self.notes);
        }
        if !self.unknown.is_empty() {
            let names: Vec<String> = self.unknown.iter().map(|n| format!("`{n}`")).collect();
            reasons.push(format!(
                "the config's {} {} not in interlint's table of request fields, which does not say where {} in an \
                 interactions request",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 { "it goes" } else { "they go" }
            ));
        }
        reasons.extend(self.problems);
        if !reasons.is_empty() {
            return Err(reasons.join("; "));
        }
        let dialect = self.dialect;
        let mut arguments: Vec<String> = self
            .arguments
            .iter()
            .map(|(name, value)| dialect.argument(name, value))
            .collect();
        if let Some(at) = self.generation_at {
            arguments.insert(
                at,
                dialect.argument("generation_config", &dialect.map(&self.generation)),
            );
        }
        Ok(Placed {
            arguments,
            inlined: self.inlined,
            content: self.content,
            options: self.options,
        })
    }
}
