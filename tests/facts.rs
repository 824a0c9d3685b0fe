//! The facts extracted from Python and TypeScript, kind by kind, each from one small program
//! written in both languages.
//!
//! Each test renders the facts of both programs as a summary (below) and compares the two:
//! lines that agree are shown once, indented by three spaces; a line only Python's facts have
//! starts with `py `, one only TypeScript's with `ts `. Tests whose two programs mean the same
//! and give the same facts say so with [`same`], which fails on any difference.
//!
//! The summary turns ranges into what they cover: the text of an expression (in backticks), or
//! the lines of a statement (`L3` is line 3 without its indentation and line break, `L3+` with
//! its line break, `L3:end` the empty range at the end of line 3). The two programs of a test
//! are written line for line, so that statements compare by their lines. Lines are compared
//! after a spelling normalisation ([`neutral`]): camelCase words as snake_case, `True`/`False`/
//! `None` as `true`/`false`/`null`, `@google/genai` and `@google/generative-ai` as
//! `google.genai` and `google.generativeai`; a shared line is shown in Python's spelling.
//!
//! Byte-level details a fix uses are summarised rather than shown: an entry's removal range as
//! whether it takes the separator after it (`+,`), the one before it (`,+`) or everything
//! between the brackets (`all`), its siblings as its place (`first`, `last`, `middle`, `only`),
//! a call's insertion point as the argument it follows. The fixtures' snapshots check the
//! bytes.
//!
//! Differences between the two extractors for programs that mean the same, each asserted as it
//! is (the test named shows both programs). The extractor is written once over the questions
//! whose answers depend on the language (`lang::facts::Language`, answered by
//! `lang/facts/python.rs` and `lang/facts/javascript.rs`) and on the legacy package
//! (`LegacyPackage`, in `lang/facts/legacy/`); each difference names the method whose two answers
//! make it, or says that the analysis is written once and why it still differs:
//!
//! 1. Where a new argument goes in a call without a request object: after the last argument in
//!    Python, after the opening parenthesis in TypeScript (its `insert_at` moves only for a
//!    request object). `model.generate_content("Hi")` / `model.generateContent("Hi")`,
//!    `chat.send_message("Hello")` / `chat.sendMessage("Hello")`, `generate_content(*args)` /
//!    `generateContent(...args)`. Tests `legacy_model_and_create`,
//!    `legacy_start_chat_and_send_message`, `spread_arguments`. `Language::arguments`.
//! 2. A legacy streaming request: Python's `model.generate_content(x, stream=True)` is a request
//!    of its unit (migrated, `stream`); TypeScript's `model.generateContentStream(x)` blocks the
//!    unit. Test `legacy_create_stream`. `Language::stream_keyword` (Python asks for a stream by a
//!    keyword) and the legacy package's spelling (`create-stream` in rules/clients.toml
//!    `[legacy-spelling]`: JavaScript's stream is a method of its own, whose result the unit
//!    reads itself).
//! 3. A legacy unit blocked by how its model is used: Python's keeps the import's range,
//!    TypeScript's has none (`0..0`). Tests `legacy_create_stream`,
//!    `legacy_start_chat_and_send_message`, `legacy_unit_blocked`. `LegacyPackage::unit`: the
//!    Python module's unit records its import first, the JavaScript class's once its clients and
//!    models are followed.
//! 4. A legacy import with no client made: Python's unit adds `client = genai.Client()` after
//!    the import; TypeScript's is blocked ("no client is made"). Test `imports`.
//!    `LegacyPackage::unit`: Python's module is configured, JavaScript's class makes clients.
//! 5. Client objects: TypeScript records `new GoogleGenAI({...})` and `new GoogleGenerativeAI(KEY)`
//!    as `Class` wrappers (going elsewhere); Python's `genai.Client(...)` is no wrapper. Tests
//!    `client_creation` and every legacy test. `Language::wrapper`.
//! 6. Other packages: TypeScript records an import of any package (`node:os`, `other`) and any
//!    imported name constructed, called or read a member of as a wrapper of that package;
//!    Python records only the client packages' imports and their `types` wrappers. Tests
//!    `imports`, `names_of_other_packages`. `Language::imports`, `Language::wrapper`.
//! 7. Enum members: TypeScript's `Type.STRING` is an `Enum` wrapper; Python's
//!    `types.Type.STRING` is nothing. Test `wrapper_enum`. `Language::member_wrapper`.
//! 8. A wrapper's arguments: Python gives a wrapper's keyword arguments as its `map`, and a
//!    wrapper used as a value is a `Map` named by the wrapper (`Content{...}`); TypeScript gives
//!    the object literal's range (`literal`), no map, and the value is `Other`. Tests
//!    `wrapper_class`, `wrapper_config_bound_to_a_name`. Python's wrappers name no `module`.
//!    `Language::wrapper`, `Language::call_value`.
//! 9. The typed-wrapper module's import: Python's `from google.genai import types` carries
//!    `types` (its binding, removal and whether it is used); TypeScript's
//!    `import * as types from "@google/genai"` carries none. Tests `imports`,
//!    `unused_types_import`. `Language::imports`.
//! 10. A model named by a name bound twice (`model = "a"`, then `model = "b"` under an `if`):
//!     Python resolves it to the last binding's literal (`"b"`, and the argument's value is that
//!     binding's); TypeScript's model is unresolved and the name has no value. Test
//!     `model_bound_twice`. `Language::scoping`: a JavaScript assignment from another block
//!     runs conditionally, so the name is not followed.
//! 11. A config bound once and used by two requests: Python marks the name `shared`; TypeScript
//!     does not. Test `config_shared_by_two_requests`. The analysis is written once
//!     (`shared_config`, for both languages); it looks for the name as a `config=` keyword
//!     argument, which only Python's requests have (a TypeScript config is a property of the
//!     request object).
//! 12. A wrapper passed to a function of the module whose parameter goes into a request: Python
//!     follows it into the request (`flow=request`); TypeScript stops at the call (`elsewhere`).
//!     Test `parameter_flowing_into_a_request`. `Language::follows_parameters`.
//! 13. A legacy model made from a cached content: its model (and its requests') is unresolved
//!     in Python, absent in TypeScript. Test `legacy_model_from_cached_content`.
//!     `Language::legacy_model`.
//! 14. A parameter annotated with the response type: Python reads `response.text` of
//!     `response: types.GenerateContentResponse` as a response's; TypeScript gives nothing for
//!     `response: GenerateContentResponse`. Test `response_as_an_annotated_parameter`. The scope
//!     walk binds a parameter to its annotation under Python's rules only (`Language::scoping`).
//!
//! Other differences come from the languages or the client libraries themselves, not from the
//! extractors, and are noted in their tests: a JavaScript chat takes its message in a request
//! object; the legacy JavaScript model takes its settings in an object and answers through
//! `result.response.text()` (its unit's `answers`); only Python's client has `response.parsed`
//! and `client.aio`; a JavaScript legacy request names its client; a new import and a client
//! creation are written in each language's own way.

use std::fmt::Write as _;
use std::ops::Range;

use interlint::codegen::legacy;
use interlint::codegen::writer::Dialect;
use interlint::lang::{Surface, documents};
use interlint::migration_facts::{
    Call, Entry, Facts, Flow, LegacyRequest, LegacyUnit, MapValue, ModelRef, Read, ReadKind, Value,
    ValueKind, Wrapper,
};

// ----- extraction -----

/// The facts of a program of one surface, with its text.
fn extract(surface: Surface, src: &str) -> (String, Facts) {
    let docs = documents(surface, src);
    assert_eq!(docs.len(), 1, "one document");
    let doc = &docs[0];
    assert_eq!(doc.syntax_errors, 0, "{src}");
    (doc.text.clone(), doc.facts().clone())
}

fn python(src: &str) -> Facts {
    extract(Surface::Python, src).1
}

fn typescript(src: &str) -> Facts {
    extract(Surface::TypeScript, src).1
}

/// The summary of a program's facts, a line per fact or detail.
fn summary(surface: Surface, src: &str) -> String {
    let (text, facts) = extract(surface, src);
    let r = Render {
        text: &text,
        surface,
        facts: &facts,
    };
    let mut out = String::new();
    for call in &facts.calls {
        r.call(&mut out, call);
    }
    for read in &facts.reads {
        r.read(&mut out, read);
    }
    for wrapper in &facts.wrappers {
        r.wrapper(&mut out, wrapper);
    }
    for import in &facts.imports {
        let _ = write!(
            out,
            "import {} stmt={} module={}",
            import.module,
            r.span(&import.statement),
            r.t(&import.module_range)
        );
        if let Some(types) = &import.types {
            let _ = write!(
                out,
                " types={} name={} removal={}{}",
                types.binding,
                r.t(&types.name_range),
                r.span(&types.removal),
                if types.used { " used" } else { "" }
            );
        }
        out.push('\n');
    }
    for comment in &facts.comments {
        let _ = writeln!(out, "comment {}", r.comment(comment));
    }
    assert!(facts.http.is_empty(), "no HTTP request in {src}");
    for unit in &facts.legacy {
        r.legacy(&mut out, unit);
    }
    out
}

/// A program written in a raw string starting on the line after its quote.
fn program(src: &str) -> &str {
    src.strip_prefix('\n').unwrap_or(src)
}

/// Both programs' summaries compared line by line: shared lines indented, the others marked
/// `py ` or `ts `.
fn compare(py: &str, ts: &str) -> String {
    let py = summary(Surface::Python, program(py));
    let ts = summary(Surface::TypeScript, program(ts));
    let py_lines: Vec<&str> = py.lines().collect();
    let ts_lines: Vec<&str> = ts.lines().collect();
    let py_neutral: Vec<String> = py_lines.iter().map(|l| neutral(l)).collect();
    let ts_neutral: Vec<String> = ts_lines.iter().map(|l| neutral(l)).collect();
    let diff = similar::capture_diff_slices(similar::Algorithm::Patience, &py_neutral, &ts_neutral);
    let mut out = String::new();
    for op in diff {
        for change in op.iter_changes(&py_neutral, &ts_neutral) {
            let (mark, line) = match change.tag() {
                similar::ChangeTag::Equal => ("   ", py_lines[change.old_index().unwrap_or_default()]),
                similar::ChangeTag::Delete => ("py ", py_lines[change.old_index().unwrap_or_default()]),
                similar::ChangeTag::Insert => ("ts ", ts_lines[change.new_index().unwrap_or_default()]),
            };
            let _ = writeln!(out, "{mark}{line}");
        }
    }
    out
}

/// Both programs' summaries, which must agree.
fn same(py: &str, ts: &str) -> String {
    let compared = compare(py, ts);
    assert!(
        compared.lines().all(|l| l.starts_with("   ")),
        "Python and TypeScript differ:\n{compared}"
    );
    compared.lines().map(|l| format!("{}\n", &l[3..])).collect()
}

/// A line in a spelling both languages share: camelCase words as snake_case, Python's
/// constants as JavaScript's, the client packages by their Python names.
fn neutral(line: &str) -> String {
    let line = line
        .replace("@google/generative-ai", "google.generativeai")
        .replace("@google/genai", "google.genai");
    let mut out = String::with_capacity(line.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let camel = word.starts_with(|c: char| c.is_ascii_lowercase())
            && word.contains(|c: char| c.is_ascii_uppercase());
        match word.as_str() {
            "True" => out.push_str("true"),
            "False" => out.push_str("false"),
            "None" => out.push_str("null"),
            _ if camel => {
                for c in word.chars() {
                    if c.is_ascii_uppercase() {
                        out.push('_');
                        out.push(c.to_ascii_lowercase());
                    } else {
                        out.push(c);
                    }
                }
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in line.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

// ----- rendering -----

/// The name spread (`*args`, `**kwargs`, `...rest`) just before the end of `text`.
fn spread_before(text: &str) -> Option<&str> {
    let name = text.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let spread = name.ends_with(['*']) || name.ends_with("...");
    (spread && name.len() < text.len()).then(|| &text[name.len()..])
}

struct Render<'a> {
    text: &'a str,
    surface: Surface,
    facts: &'a Facts,
}

impl Render<'_> {
    /// The text a range covers, in backticks, line breaks shown as `\n`.
    fn t(&self, range: &Range<usize>) -> String {
        match self.text.get(range.clone()) {
            Some(s) => format!("`{}`", s.replace('\n', "\\n")),
            None => format!("<bad range {range:?}>"),
        }
    }

    /// 1-based line of an offset, and where that line starts and ends (before its line break).
    fn line_of(&self, offset: usize) -> (usize, usize, usize) {
        let start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = self.text[offset..]
            .find('\n')
            .map_or(self.text.len(), |i| offset + i);
        (self.text[..offset].matches('\n').count() + 1, start, end)
    }

    /// A statement-like range by its lines (see the module's documentation), or its text when
    /// it does not cover whole lines.
    fn span(&self, range: &Range<usize>) -> String {
        if self.text.get(range.clone()).is_none() {
            return format!("<bad range {range:?}>");
        }
        let (first, first_start, first_end) = self.line_of(range.start);
        if range.is_empty() {
            let before = &self.text[first_start..range.start];
            return if range.start == first_end {
                format!("L{first}:end")
            } else if before.trim().is_empty() {
                format!("L{first}:start")
            } else {
                format!("L{first}:after {}", self.t(&(first_start..range.start)))
            };
        }
        let starts_line = self.text[first_start..range.start].trim().is_empty();
        let with_break = self.text[..range.end].ends_with('\n');
        let last_offset = if with_break { range.end - 1 } else { range.end };
        let (last, _, last_end) = self.line_of(last_offset);
        if starts_line && last_offset == last_end {
            let lines = if first == last {
                format!("L{first}")
            } else {
                format!("L{first}-{last}")
            };
            // With the line's indentation (a removal of the whole line).
            let indented = range.start == first_start && self.text[first_start..].starts_with([' ', '\t']);
            return format!(
                "{lines}{}{}",
                if indented { "(indent)" } else { "" },
                if with_break { "+" } else { "" }
            );
        }
        format!("L{first}:{}", self.t(range))
    }

    fn comment(&self, range: &Range<usize>) -> String {
        let text = &self.text[range.clone()];
        let body = match self.surface {
            Surface::Python => text.strip_prefix('#').map(|b| format!("line {:?}", b.trim())),
            _ => text
                .strip_prefix("//")
                .map(|b| format!("line {:?}", b.trim()))
                .or_else(|| {
                    text.strip_prefix("/*")
                        .and_then(|b| b.strip_suffix("*/"))
                        .map(|b| format!("block {:?}", b.trim()))
                }),
        };
        let (line, ..) = self.line_of(range.start);
        format!(
            "L{line} {}",
            body.unwrap_or_else(|| format!("other {}", self.t(range)))
        )
    }

    fn model(model: &ModelRef) -> String {
        match model {
            ModelRef::Literal(id) => format!("{id:?}"),
            ModelRef::Unresolved => "unresolved".into(),
            ModelRef::Absent => "absent".into(),
        }
    }

    fn call(&self, out: &mut String, call: &Call) {
        let _ = write!(out, "call {:?} {}", call.kind, self.t(&call.callee));
        if self.text.get(call.callee.clone()) != Some(call.callee_text.as_str()) {
            let _ = write!(out, " written {:?}", call.callee_text);
        }
        if call.range.start != call.callee.start || !self.text[call.range.clone()].ends_with(')') {
            let _ = write!(out, " range={}", self.t(&call.range));
        }
        let _ = write!(out, " model={}", Self::model(&call.model));
        if let Some(method) = &call.method {
            let _ = write!(out, " method={}", self.t(method));
        }
        if let Some(alias) = &call.alias {
            let _ = write!(out, " alias={alias}");
        }
        if call.spread {
            out.push_str(" spread");
        }
        out.push('\n');
        for entry in &call.args {
            let _ = writeln!(out, "  arg {}", self.entry(entry));
        }
        for value in &call.positional {
            let _ = writeln!(out, "  positional {}", self.value(value));
        }
        let insert = if let Some(entry) = call.args.iter().find(|e| e.range.end == call.insert_at) {
            format!("after arg {}", entry.key)
        } else if let Some(i) = call.positional.iter().position(|v| v.range.end == call.insert_at) {
            format!("after positional {i}")
        } else if let Some(spread) = spread_before(&self.text[..call.insert_at]) {
            format!("after the spread {spread}")
        } else if matches!(self.text[..call.insert_at].chars().last(), Some('(' | '{')) {
            "after the opening bracket".to_string()
        } else {
            format!(
                "after {}",
                self.t(&(call.insert_at.saturating_sub(10)..call.insert_at))
            )
        };
        let _ = write!(out, "  insert {insert}");
        if let Some(indent) = &call.arg_indent {
            let _ = write!(out, ", indent {indent:?}");
        }
        out.push('\n');
    }

    fn entry(&self, entry: &Entry) -> String {
        let mut out = format!("{}: {}", entry.key, self.value(&entry.value));
        if self
            .text
            .get(entry.key_range.clone())
            .is_none_or(|k| !k.contains(entry.key.as_str()))
        {
            let _ = write!(out, " key={}", self.t(&entry.key_range));
        }
        let place = match (entry.siblings.previous_end, entry.siblings.next_start) {
            (None, None) => "only",
            (None, Some(_)) => "first",
            (Some(_), None) => "last",
            (Some(_), Some(_)) => "middle",
        };
        let removal = if entry.removal == entry.siblings.inner {
            "all"
        } else if entry.removal == entry.range {
            "="
        } else if entry.removal.start == entry.range.start && entry.removal.end > entry.range.end {
            "+,"
        } else if entry.removal.end == entry.range.end && entry.removal.start < entry.range.start {
            ",+"
        } else {
            "?"
        };
        let _ = write!(out, " ({place} {removal})");
        if removal == "?" {
            let _ = write!(out, " removal={}", self.t(&entry.removal));
        }
        out
    }

    fn map(&self, map: &MapValue) -> String {
        let mut out = map.wrapper.clone().unwrap_or_default();
        out.push('{');
        let entries: Vec<String> = map
            .entries
            .iter()
            .map(|e| format!("{}: {}", e.key, self.value(&e.value)))
            .collect();
        out.push_str(&entries.join(", "));
        if !map.complete {
            out.push_str(if entries.is_empty() { ".." } else { ", .." });
        }
        out.push('}');
        out
    }

    fn value(&self, value: &Value) -> String {
        match &value.kind {
            ValueKind::Str(s) => format!("{s:?}"),
            ValueKind::Int(n) => n.to_string(),
            ValueKind::Bool(b) => b.to_string(),
            ValueKind::Map(map) => self.map(map),
            ValueKind::List(items) => {
                let items: Vec<String> = items.iter().map(|v| self.value(v)).collect();
                format!("[{}]", items.join(", "))
            }
            ValueKind::Name(name) => {
                let mut out = format!("name {}", name.name);
                if let Some(bound) = &name.value {
                    let _ = write!(out, " = {}", self.value(bound));
                }
                if let Some(statement) = &name.statement {
                    let _ = write!(out, " at {}", self.span(statement));
                }
                if name.single_use {
                    out.push_str(" single-use");
                }
                if let Some(shared) = &name.shared {
                    let calls: Vec<String> = shared.calls.iter().map(|c| self.span(c)).collect();
                    let _ = write!(
                        out,
                        " shared({} at {} by {})",
                        self.value(&shared.value),
                        self.span(&shared.statement),
                        calls.join(" ")
                    );
                }
                out
            }
            ValueKind::Other => self.t(&value.range),
        }
    }

    fn read(&self, out: &mut String, read: &Read) {
        let kind = match read.kind {
            ReadKind::Usage { member: Some((a, b)) } => format!("Usage {{ member: {} }}", self.t(&(a..b))),
            kind => format!("{kind:?}"),
        };
        let _ = write!(
            out,
            "read {kind} {} receiver={} origin={:?}",
            self.t(&read.range),
            self.t(&read.receiver),
            read.origin
        );
        if read.all_interactions {
            out.push_str(" all-interactions");
        }
        if read.detached {
            out.push_str(" detached");
        }
        out.push('\n');
    }

    fn flow(&self, flow: &Flow) -> String {
        match flow {
            Flow::Request(_) => "request".into(),
            Flow::Elsewhere => "elsewhere".into(),
            Flow::Inside(ranges) => {
                let outer: Vec<String> = ranges
                    .iter()
                    .map(|r| match self.facts.wrappers.iter().find(|w| w.range == *r) {
                        Some(w) => w.name.clone(),
                        None => self.t(r),
                    })
                    .collect();
                format!("inside {}", outer.join(" "))
            }
        }
    }

    fn wrapper(&self, out: &mut String, wrapper: &Wrapper) {
        let _ = write!(
            out,
            "wrapper {:?} {} callee={} flow={}",
            wrapper.kind,
            wrapper.name,
            self.t(&wrapper.callee),
            self.flow(&wrapper.flow)
        );
        // The argument list's parentheses (an enum member has none: empty at its end).
        let parens = (
            self.text.get(wrapper.open.clone()),
            self.text.get(wrapper.close.clone()),
        );
        let at_end = wrapper.open == (wrapper.range.end..wrapper.range.end) && wrapper.close == wrapper.open;
        if parens != (Some("("), Some(")")) && !at_end {
            let _ = write!(
                out,
                " open={} close={}",
                self.t(&wrapper.open),
                self.t(&wrapper.close)
            );
        }
        if wrapper.range.start != wrapper.callee.start {
            let _ = write!(out, " range={}", self.t(&wrapper.range));
        }
        out.push('\n');
        if let Some(module) = &wrapper.module {
            let _ = writeln!(out, "  module {module}");
        }
        if let Some(map) = &wrapper.map {
            let _ = writeln!(out, "  map {}", self.map(map));
        }
        if let Some(literal) = &wrapper.literal {
            let _ = writeln!(out, "  literal {}", self.t(literal));
        }
    }

    /// The dialect the legacy units' code is written in.
    fn dialect(&self) -> Dialect {
        match self.surface {
            Surface::Python => Dialect::Python,
            _ => Dialect::JavaScript,
        }
    }

    fn legacy(&self, out: &mut String, unit: &LegacyUnit) {
        let import = match unit.import {
            Range { start: 0, end: 0 } => "none".to_string(),
            ref import => self.span(import),
        };
        let _ = writeln!(out, "legacy import={import} client={:?}", unit.client_name);
        // The code the unit becomes is written by codegen, from what the facts say.
        if let Some(import) = legacy::import_code(unit, self.text) {
            let _ = writeln!(out, "  new import {import:?}");
        }
        let docs = interlint::lang::documents(self.surface, self.text);
        let client = docs
            .first()
            .and_then(|doc| legacy::client_code(unit, self.text, doc));
        if let Some((range, replacement)) = client {
            let _ = writeln!(out, "  client {} -> {replacement:?}", self.span(&range));
        }
        for removal in &unit.removals {
            let _ = writeln!(out, "  removal {}", self.span(removal));
        }
        for request in &unit.requests {
            self.legacy_request(out, request);
        }
        for call in &unit.calls {
            let _ = writeln!(out, "  call {}", self.t(call));
        }
        for chat in &unit.chats {
            let _ = writeln!(
                out,
                "  chat {} straight={} id={}",
                self.t(&chat.statement),
                chat.straight,
                chat.id_name
            );
            for (statement, result) in &chat.updates {
                let _ = writeln!(out, "    update after {} from {result}", self.t(statement));
            }
        }
        for (range, replacement) in legacy::replacements(unit, self.text, self.dialect()) {
            let _ = writeln!(out, "  replace {} -> {replacement:?}", self.t(&range));
        }
        for answer in &unit.answers {
            let _ = writeln!(out, "  answer {}", self.t(&answer.suffix));
        }
        if let Some(blocked) = &unit.blocked {
            let _ = writeln!(out, "  blocked {blocked:?}");
        }
    }

    fn legacy_request(&self, out: &mut String, request: &LegacyRequest) {
        let _ = write!(
            out,
            "  request {} callee={} method={} model={} id={:?}",
            self.t(&request.call),
            self.t(&request.callee),
            legacy::method(request),
            request.model,
            request.model_id
        );
        if let Some(client) = &request.client {
            let _ = write!(out, " client={client}");
        }
        if request.stream {
            out.push_str(" stream");
        }
        if let Some(previous) = &request.previous {
            let _ = write!(out, " previous={previous}");
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "    arguments {} in {} separated by {:?}",
            self.t(&request.arguments),
            self.t(&request.parens),
            legacy::separator(request, self.text, self.dialect())
        );
        let _ = writeln!(out, "    contents {}", self.value(&request.contents));
        let _ = writeln!(out, "    config {}", self.map(&request.config));
    }
}

// ----- calls -----

#[test]
fn create() {
    let facts = same(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Why is the sky blue?")
print(response.text)
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Why is the sky blue?" });
console.log(response.text);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Why is the sky blue?" (last ,+)
      insert after arg contents
    read Text `response.text` receiver=`response` origin=Response
    "#);
}

#[test]
fn create_stream_and_its_chunks() {
    let facts = same(
        r#"
stream = client.models.generate_content_stream(model="gemini-2.0-flash", contents="Tell a story")
for chunk in stream:
    print(chunk.text)
"#,
        r#"
const stream = await client.models.generateContentStream({ model: "gemini-2.0-flash", contents: "Tell a story" });
for await (const chunk of stream) {
  console.log(chunk.text);
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call CreateStream `client.models.generate_content_stream` model="gemini-2.0-flash" method=`models.generate_content_stream`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Tell a story" (last ,+)
      insert after arg contents
    read Text `chunk.text` receiver=`chunk` origin=StreamChunk
    "#);
}

#[test]
fn legacy_model_and_create() {
    // Differences 1 and 5; the JavaScript model takes its settings in an object and answers
    // through `result.response.text()`.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
model = genai.GenerativeModel("gemini-2.0-flash")
response = model.generate_content("Why is the sky blue?")
print(response.text)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash" });
const result = await model.generateContent("Why is the sky blue?");
console.log(result.response.text());
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
       call LegacyCreate { stream: false } `model.generate_content` model="gemini-2.0-flash"
         positional "Why is the sky blue?"
    py   insert after positional 0
    py read Text `response.text` receiver=`response` origin=Response
    ts   insert after the opening bracket
    ts read Text `result.response.text()` receiver=`result` origin=Response
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L2:`genai.configure` -> "client = genai.Client"
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
         removal L3+
    py   request `model.generate_content("Why is the sky blue?")` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    ts   request `model.generateContent("Why is the sky blue?")` callee=`model.generateContent` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI
           arguments `"Why is the sky blue?"` in `("Why is the sky blue?")` separated by ", "
           contents "Why is the sky blue?"
           config {}
         call `model.generate_content("Why is the sky blue?")`
    ts   answer `.response.text()`
    "#);
}

#[test]
fn legacy_create_stream() {
    // Differences 1, 2, 3 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
model = genai.GenerativeModel("gemini-2.0-flash")
response = model.generate_content("Tell a story", stream=True)
for chunk in response:
    print(chunk.text)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash" });
const result = await model.generateContentStream("Tell a story");
for await (const chunk of result.stream) {
  console.log(chunk.text());
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    py call LegacyCreate { stream: true } `model.generate_content` model="gemini-2.0-flash"
    py   arg stream: true (last ,+)
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
    ts call LegacyCreate { stream: true } `model.generateContentStream` model="gemini-2.0-flash"
         positional "Tell a story"
    py   insert after arg stream
    py read Text `chunk.text` receiver=`chunk` origin=StreamChunk
    ts   insert after the opening bracket
    ts read Text `chunk.text()` receiver=`chunk` origin=StreamChunk
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L2:`genai.configure` -> "client = genai.Client"
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
         removal L3+
    py   request `model.generate_content("Tell a story", stream=True)` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") stream
    py     arguments `"Tell a story", stream=True` in `("Tell a story", stream=True)` separated by ", "
    ts   request `model.generateContentStream("Tell a story")` callee=`model.generateContentStream` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI stream
    ts     arguments `"Tell a story"` in `("Tell a story")` separated by ", "
           contents "Tell a story"
           config {}
    py   call `model.generate_content("Tell a story", stream=True)`
    ts   call `model.generateContentStream("Tell a story")`
    ts   replace `.stream` -> ""
    "#);
}

#[test]
fn legacy_model_settings() {
    let facts = compare(
        r#"
model = genai.GenerativeModel(
    model_name="gemini-2.0-flash",
    generation_config={"temperature": 0.5, "max_output_tokens": 100},
    system_instruction="Be brief.",
)
"#,
        r#"
const model = genAI.getGenerativeModel({
    model: "gemini-2.0-flash",
    generationConfig: { temperature: 0.5, maxOutputTokens: 100 },
    systemInstruction: "Be brief.",
});
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   arg model_name: "gemini-2.0-flash" (first +,)
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (first +,)
         arg generation_config: {temperature: `0.5`, max_output_tokens: 100} (middle +,)
         arg system_instruction: "Be brief." (last ,+)
         insert after arg system_instruction, indent "    "
    "#);
}

#[test]
fn interactions() {
    let facts = same(
        r#"
interaction = client.interactions.create(model="gemini-2.0-flash", input="Why is the sky blue?")
print(interaction.text)
"#,
        r#"
const interaction = await client.interactions.create({ model: "gemini-2.0-flash", input: "Why is the sky blue?" });
console.log(interaction.text);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Interactions `client.interactions.create` model="gemini-2.0-flash"
      arg model: "gemini-2.0-flash" (first +,)
      arg input: "Why is the sky blue?" (last ,+)
      insert after arg input
    read Text `interaction.text` receiver=`interaction` origin=Interaction all-interactions
    "#);
}

#[test]
fn chat_create_and_send_message() {
    // The JavaScript chat takes its message in a request object.
    let facts = compare(
        r#"
chat = client.chats.create(model="gemini-2.0-flash")
response = chat.send_message("Hello")
print(response.text)
"#,
        r#"
const chat = client.chats.create({ model: "gemini-2.0-flash" });
const response = await chat.sendMessage({ message: "Hello" });
console.log(response.text);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call ChatCreate `client.chats.create` model="gemini-2.0-flash"
         arg model: "gemini-2.0-flash" (only all)
         insert after arg model
       call SendMessage `chat.send_message` model=absent
    py   positional "Hello"
    py   insert after positional 0
    ts   arg message: "Hello" (only all)
    ts   insert after arg message
       read Text `response.text` receiver=`response` origin=Response
    "#);
}

#[test]
fn legacy_start_chat_and_send_message() {
    // Differences 1, 3 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
model = genai.GenerativeModel("gemini-2.0-flash")
chat = model.start_chat(history=[])
response = chat.send_message("Hello")
print(response.text)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash" });
const chat = model.startChat({ history: [] });
const result = await chat.sendMessage("Hello");
console.log(result.response.text());
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
       call StartChat `model.start_chat` model="gemini-2.0-flash"
         arg history: [] (only all)
         insert after arg history
       call SendMessage `chat.send_message` model=absent
         positional "Hello"
    py   insert after positional 0
    py read Text `response.text` receiver=`response` origin=Response
    ts   insert after the opening bracket
    ts read Text `result.response.text()` receiver=`result` origin=Response
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L1:end -> "\nclient = genai.Client()"
    py   removal L2+
    py   request `chat.send_message("Hello")` callee=`chat.send_message` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
    ts   removal L3+
    ts   request `chat.sendMessage("Hello")` callee=`chat.sendMessage` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI
           arguments `"Hello"` in `("Hello")` separated by ", "
           contents "Hello"
           config {}
    py   call `model.start_chat(history=[])`
    py   chat `chat = model.start_chat(history=[])` straight=true id=chat_id
    ts   call `model.startChat({ history: [] })`
    ts   chat `const chat = model.startChat({ history: [] });` straight=true id=chatId
    ts   answer `.response.text()`
    "#);
}

#[test]
fn call_through_an_alias_of_the_method() {
    let facts = same(
        r#"
generate = client.models.generate_content
response = generate(model="gemini-2.0-flash", contents="Hi")
"#,
        r#"
const generate = client.models.generateContent;
const response = await generate({ model: "gemini-2.0-flash", contents: "Hi" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `generate` model="gemini-2.0-flash" method=`models.generate_content` alias=generate
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    "#);
}

#[test]
fn call_through_an_alias_used_twice() {
    let facts = same(
        r#"
generate = client.models.generate_content
first = generate(model="gemini-2.0-flash", contents="Hi")
second = generate(model="gemini-2.0-flash", contents="Bye")
"#,
        r#"
const generate = client.models.generateContent;
const first = await generate({ model: "gemini-2.0-flash", contents: "Hi" });
const second = await generate({ model: "gemini-2.0-flash", contents: "Bye" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `generate` model="gemini-2.0-flash" alias=generate
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    call Create `generate` model="gemini-2.0-flash" alias=generate
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Bye" (last ,+)
      insert after arg contents
    "#);
}

// ----- the model -----

#[test]
fn model_through_a_name_bound_once() {
    let facts = same(
        r#"
def ask(prompt):
    model_id = "gemini-2.0-flash"
    return client.models.generate_content(model=model_id, contents=prompt)
"#,
        r#"
async function ask(prompt) {
  const modelId = "gemini-2.0-flash";
  return client.models.generateContent({ model: modelId, contents: prompt });
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: name model_id = "gemini-2.0-flash" at L2 single-use (first +,)
      arg contents: name prompt (last ,+)
      insert after arg contents
    "#);
}

#[test]
fn model_through_a_constant() {
    let facts = same(
        r#"
MODEL = "gemini-2.0-flash"
def ask(prompt):
    return client.models.generate_content(model=MODEL, contents=prompt)
"#,
        r#"
const MODEL = "gemini-2.0-flash";
async function ask(prompt) {
  return client.models.generateContent({ model: MODEL, contents: prompt });
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: name MODEL = "gemini-2.0-flash" (first +,)
      arg contents: name prompt (last ,+)
      insert after arg contents
    "#);
}

#[test]
fn model_as_shorthand_property() {
    // `{ model }` has no Python spelling but `model=model`.
    let facts = same(
        r#"
model = "gemini-2.0-flash"
response = client.models.generate_content(model=model, contents="Hi")
"#,
        r#"
const model = "gemini-2.0-flash";
const response = await client.models.generateContent({ model, contents: "Hi" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: name model = "gemini-2.0-flash" at L1 single-use (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    "#);
}

#[test]
fn model_unresolved() {
    // The two formatted strings differ in their spelling only.
    let facts = compare(
        r#"
a = client.models.generate_content(model=pick_model(), contents="Hi")
b = client.models.generate_content(model=f"gemini-{version}-flash", contents="Hi")
c = client.models.generate_content(model=settings.model, contents="Hi")
"#,
        r#"
const a = await client.models.generateContent({ model: pickModel(), contents: "Hi" });
const b = await client.models.generateContent({ model: `gemini-${version}-flash`, contents: "Hi" });
const c = await client.models.generateContent({ model: settings.model, contents: "Hi" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model=unresolved method=`models.generate_content`
         arg model: `pick_model()` (first +,)
         arg contents: "Hi" (last ,+)
         insert after arg contents
       call Create `client.models.generate_content` model=unresolved method=`models.generate_content`
    py   arg model: `f"gemini-{version}-flash"` (first +,)
    ts   arg model: ``gemini-${version}-flash`` (first +,)
         arg contents: "Hi" (last ,+)
         insert after arg contents
       call Create `client.models.generate_content` model=unresolved method=`models.generate_content`
         arg model: `settings.model` (first +,)
         arg contents: "Hi" (last ,+)
         insert after arg contents
    "#);
}

#[test]
fn model_bound_twice() {
    // Difference 10.
    let facts = compare(
        r#"
model = "gemini-2.0-flash"
if fast:
    model = "gemini-2.0-flash-lite"
response = client.models.generate_content(model=model, contents="Hi")
"#,
        r#"
let model = "gemini-2.0-flash";
if (fast) {
  model = "gemini-2.0-flash-lite";
}
const response = await client.models.generateContent({ model: model, contents: "Hi" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call Create `client.models.generate_content` model="gemini-2.0-flash-lite" method=`models.generate_content`
    py   arg model: name model = "gemini-2.0-flash-lite" at L3 (first +,)
    ts call Create `client.models.generateContent` model=unresolved method=`models.generateContent`
    ts   arg model: name model (first +,)
         arg contents: "Hi" (last ,+)
         insert after arg contents
    "#);
}

#[test]
fn model_absent() {
    let facts = same(
        r#"
response = client.models.generate_content(contents="Hi")
"#,
        r#"
const response = await client.models.generateContent({ contents: "Hi" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model=absent method=`models.generate_content`
      arg contents: "Hi" (only all)
      insert after arg contents
    "#);
}

// ----- arguments -----

#[test]
fn nested_config_values() {
    let facts = same(
        r#"
response = client.models.generate_content(
    model="gemini-2.0-flash",
    contents=["Hi", "there"],
    config={
        "temperature": 0.5,
        "max_output_tokens": 100,
        "candidate_count": -1,
        "stop_sequences": ["STOP"],
        "thinking_config": {"thinking_budget": 0, "include_thoughts": False},
        "response_mime_type": "application/json",
    },
)
"#,
        r#"
const response = await client.models.generateContent({
    model: "gemini-2.0-flash",
    contents: ["Hi", "there"],
    config: {
        temperature: 0.5,
        maxOutputTokens: 100,
        candidateCount: -1,
        stopSequences: ["STOP"],
        thinkingConfig: { thinkingBudget: 0, includeThoughts: false },
        responseMimeType: "application/json",
    },
});
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: ["Hi", "there"] (middle +,)
      arg config: {temperature: `0.5`, max_output_tokens: 100, candidate_count: -1, stop_sequences: ["STOP"], thinking_config: {thinking_budget: 0, include_thoughts: false}, response_mime_type: "application/json"} (last ,+)
      insert after arg config, indent "    "
    "#);
}

#[test]
fn spread_arguments() {
    // Difference 1 (the last call).
    let facts = compare(
        r#"
a = client.models.generate_content(model="gemini-2.0-flash", **options)
b = client.models.generate_content(model="gemini-2.0-flash", config={"temperature": 0.5, **extra})
c = client.models.generate_content(*args)
"#,
        r#"
const a = await client.models.generateContent({ model: "gemini-2.0-flash", ...options });
const b = await client.models.generateContent({ model: "gemini-2.0-flash", config: { temperature: 0.5, ...extra } });
const c = await client.models.generateContent(...args);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content` spread
         arg model: "gemini-2.0-flash" (first +,)
         insert after the spread options
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg config: {temperature: `0.5`, ..} (last ,+)
         insert after arg config
       call Create `client.models.generate_content` model=absent method=`models.generate_content` spread
    py   insert after the spread args
    ts   insert after the opening bracket
    "#);
}

#[test]
fn keyword_arguments_and_properties() {
    // A Python keyword argument is marked as one; a dict entry and a property are not.
    let py = python("client.models.generate_content(model=\"m\", config={\"seed\": 1})\n");
    let ts = typescript("client.models.generateContent({ model: \"m\", config: { seed: 1 } });\n");
    let keyword = |facts: &Facts| -> Vec<(String, bool, Vec<bool>)> {
        facts.calls[0]
            .args
            .iter()
            .map(|a| {
                let inner = a
                    .value
                    .as_map()
                    .map(|m| m.entries.iter().map(|e| e.keyword).collect());
                (a.key.clone(), a.keyword, inner.unwrap_or_default())
            })
            .collect()
    };
    assert_eq!(
        keyword(&py),
        [
            ("model".into(), true, vec![]),
            ("config".into(), true, vec![false])
        ]
    );
    assert_eq!(
        keyword(&ts),
        [
            ("model".into(), false, vec![]),
            ("config".into(), false, vec![false])
        ]
    );
}

// ----- reads -----

#[test]
fn read_candidates() {
    let facts = same(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi")
first = response.candidates[0].content.parts[0].text
parts = response.candidates[0].content.parts
grounding = response.candidates[0].grounding_metadata
finish = response.candidates[0].finish_reason
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
const first = response.candidates[0].content.parts[0].text;
const parts = response.candidates[0].content.parts;
const grounding = response.candidates[0].groundingMetadata;
const finish = response.candidates[0].finishReason;
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    read Candidates { simple_text: true } `response.candidates[0].content.parts[0].text` receiver=`response` origin=Response
    read Candidates { simple_text: false } `response.candidates[0].content.parts` receiver=`response` origin=Response
    read Grounding { shown: false } `response.candidates[0].grounding_metadata` receiver=`response` origin=Response
    "#);
}

#[test]
fn read_parts_and_function_calls() {
    let facts = same(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi")
for part in response.candidates[0].content.parts:
    call = part.function_call
    text = part.text
calls = response.function_calls
first = response.candidates[0].content.parts[0].function_call
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
for (const part of response.candidates[0].content.parts) {
  const call = part.functionCall;
  const text = part.text;
}
const calls = response.functionCalls;
const first = response.candidates[0].content.parts[0].functionCall;
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    read Candidates { simple_text: false } `response.candidates[0].content.parts` receiver=`response` origin=Response
    read PartFunctionCall `part.function_call` receiver=`part` origin=Part
    read FunctionCalls `response.function_calls` receiver=`response` origin=Response
    read PartFunctionCall `response.candidates[0].content.parts[0].function_call` receiver=`response` origin=Response
    "#);
}

#[test]
fn read_usage() {
    let facts = same(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi")
usage = response.usage_metadata
total = response.usage_metadata.total_token_count
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
const usage = response.usageMetadata;
const total = response.usageMetadata.totalTokenCount;
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    read Usage { member: None } `response.usage_metadata` receiver=`response` origin=Response
    read Usage { member: `total_token_count` } `response.usage_metadata` receiver=`response` origin=Response
    "#);
}

#[test]
fn read_grounding_of_a_response() {
    let facts = same(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi")
for candidate in response.candidates:
    print(candidate.grounding_metadata)
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
for (const candidate of response.candidates) {
  console.log(candidate.groundingMetadata);
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    read Grounding { shown: false } `candidate.grounding_metadata` receiver=`candidate` origin=Response
    "#);
}

#[test]
fn read_parsed() {
    // Only Python's client parses the structured answer; in JavaScript it is read from the text.
    let facts = compare(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi")
answer = response.parsed
name = response.parsed.name
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
const answer = JSON.parse(response.text);
const name = JSON.parse(response.text).name;
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: "Hi" (last ,+)
         insert after arg contents
    py read Parsed { as_object: false } `response.parsed` receiver=`response` origin=Response
    py read Parsed { as_object: true } `response.parsed` receiver=`response` origin=Response
    ts read Text `response.text` receiver=`response` origin=Response
    ts read Text `response.text` receiver=`response` origin=Response
    "#);
}

#[test]
fn read_interaction() {
    let facts = same(
        r#"
interaction = client.interactions.create(model="gemini-2.0-flash", input="Hi")
text = interaction.text
usage = interaction.usage_metadata
"#,
        r#"
const interaction = await client.interactions.create({ model: "gemini-2.0-flash", input: "Hi" });
const text = interaction.text;
const usage = interaction.usageMetadata;
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Interactions `client.interactions.create` model="gemini-2.0-flash"
      arg model: "gemini-2.0-flash" (first +,)
      arg input: "Hi" (last ,+)
      insert after arg input
    read Text `interaction.text` receiver=`interaction` origin=Interaction all-interactions
    read Usage { member: None } `interaction.usage_metadata` receiver=`interaction` origin=Interaction all-interactions
    "#);
}

#[test]
fn writes_are_not_reads() {
    let facts = same(
        r#"
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi")
response.text = "replaced"
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
response.text = "replaced";
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    "#);
}

// ----- typed wrappers -----

#[test]
fn wrapper_class() {
    // Differences 8 and 9.
    let facts = compare(
        r#"
from google.genai import types
content = types.Content(role="user", parts=[types.Part(text="Hi")])
response = client.models.generate_content(model="gemini-2.0-flash", contents=content)
"#,
        r#"
import { Content, Part } from "@google/genai";
const content = new Content({ role: "user", parts: [new Part({ text: "Hi" })] });
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: content });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
    py   arg contents: name content = Content{role: "user", parts: [Part{text: "Hi"}]} at L2 single-use (last ,+)
    ts   arg contents: name content = `new Content({ role: "user", parts: [new Part({ text: "Hi" })] })` at L2 single-use (last ,+)
         insert after arg contents
    py wrapper Class Content callee=`types.Content` flow=request
    py   map Content{role: "user", parts: [Part{text: "Hi"}]}
    py wrapper Class Part callee=`types.Part` flow=inside Content
    py   map Part{text: "Hi"}
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Class Content callee=`new Content` flow=request
    ts   module @google/genai
    ts   literal `{ role: "user", parts: [new Part({ text: "Hi" })] }`
    ts wrapper Class Part callee=`new Part` flow=inside Content
    ts   module @google/genai
    ts   literal `{ text: "Hi" }`
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn wrapper_factory() {
    // Differences 8 and 9; the JavaScript factory takes the text as it is.
    let facts = compare(
        r#"
from google.genai import types
response = client.models.generate_content(model="gemini-2.0-flash", contents=[types.Part.from_text(text="Hi")])
"#,
        r#"
import { createPartFromText } from "@google/genai";
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: [createPartFromText("Hi")] });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
    py   arg contents: [`types.Part.from_text(text="Hi")`] (last ,+)
    ts   arg contents: [`createPartFromText("Hi")`] (last ,+)
         insert after arg contents
    py wrapper Factory Part.from_text callee=`types.Part.from_text` flow=request
    py   map Part.from_text{text: "Hi"}
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Factory createPartFromText callee=`createPartFromText` flow=request
    ts   module @google/genai
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn wrapper_enum() {
    // Differences 7 and 9.
    let facts = compare(
        r#"
from google.genai import types
schema = {"type": types.Type.STRING}
"#,
        r#"
import { Type } from "@google/genai";
const schema = { type: Type.STRING };
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Enum Type callee=`Type.STRING` flow=elsewhere
    ts   module @google/genai
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn wrapper_config_bound_to_a_name() {
    // Differences 8 and 9.
    let facts = compare(
        r#"
from google.genai import types
config = types.GenerateContentConfig(temperature=0.5)
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi", config=config)
"#,
        r#"
import { GenerateContentConfig } from "@google/genai";
const config = new GenerateContentConfig({ temperature: 0.5 });
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi", config: config });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: "Hi" (middle +,)
    py   arg config: name config = GenerateContentConfig{temperature: `0.5`} at L2 single-use (last ,+)
    ts   arg config: name config = `new GenerateContentConfig({ temperature: 0.5 })` at L2 single-use (last ,+)
         insert after arg config
    py wrapper Class GenerateContentConfig callee=`types.GenerateContentConfig` flow=request
    py   map GenerateContentConfig{temperature: `0.5`}
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Class GenerateContentConfig callee=`new GenerateContentConfig` flow=request
    ts   module @google/genai
    ts   literal `{ temperature: 0.5 }`
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn wrapper_going_elsewhere() {
    // Differences 8 and 9.
    let facts = compare(
        r#"
from google.genai import types
part = types.Part.from_text(text="Hi")
print(part)
"#,
        r#"
import { createPartFromText } from "@google/genai";
const part = createPartFromText("Hi");
console.log(part);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py wrapper Factory Part.from_text callee=`types.Part.from_text` flow=elsewhere
    py   map Part.from_text{text: "Hi"}
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Factory createPartFromText callee=`createPartFromText` flow=elsewhere
    ts   module @google/genai
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

// ----- imports and comments -----

#[test]
fn imports() {
    // Differences 4, 6 and 9.
    let facts = compare(
        r#"
from google import genai
from google.genai import types
import google.generativeai as legacy
import os
"#,
        r#"
import { GoogleGenAI } from "@google/genai";
import * as types from "@google/genai";
import { GoogleGenerativeAI } from "@google/generative-ai";
import * as os from "node:os";
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py import google.genai stmt=L1 module=`genai`
    py import google.genai stmt=L2 module=`google.genai` types=types name=`types` removal=L2+
    ts import @google/genai stmt=L1 module=`@google/genai`
    ts import @google/genai stmt=L2 module=`@google/genai`
       import google.generativeai stmt=L3 module=`google.generativeai`
    py legacy import=L3 client="client"
    py   new import "from google import genai as legacy"
    py   client L4:end -> "\nclient = legacy.Client()"
    ts import node:os stmt=L4 module=`node:os`
    ts legacy import=L3 client=""
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   blocked "no client is made with `GoogleGenerativeAI`"
    "#);
}

#[test]
fn unused_types_import() {
    // Difference 9.
    let facts = compare(
        r#"
from google.genai import types
client = genai.Client()
"#,
        r#"
import { Type } from "@google/genai";
const client = new GoogleGenAI({});
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn required_modules() {
    // Python has no `require`: its imports are statements, as in the first test.
    let facts = typescript(
        r#"const { GoogleGenAI } = require("@google/genai");
const legacy = await import("@google/generative-ai");
"#,
    );
    let modules: Vec<&str> = facts.imports.iter().map(|i| i.module.as_str()).collect();
    assert_eq!(modules, ["@google/genai", "@google/generative-ai"]);
}

#[test]
fn comments() {
    let facts = same(
        r#"
# Ask the model.
response = client.models.generate_content(
    model="gemini-2.0-flash",  # the model
    contents="Hi",  # the prompt
)
"#,
        r#"
// Ask the model.
const response = await client.models.generateContent({
    model: "gemini-2.0-flash", // the model
    contents: "Hi", // the prompt
});
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents, indent "    "
    comment L1 line "Ask the model."
    comment L3 line "the model"
    comment L4 line "the prompt"
    "#);
}

#[test]
fn block_comments() {
    // Python has none (a docstring is a string).
    let (text, facts) = extract(Surface::TypeScript, "/* a */ const x = 1; /** b\n c */\n");
    let comments: Vec<&str> = facts.comments.iter().map(|c| &text[c.clone()]).collect();
    assert_eq!(comments, ["/* a */", "/** b\n c */"]);
}

// ----- legacy units -----

#[test]
fn legacy_unit() {
    // Differences 1 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
model = genai.GenerativeModel(
    "models/gemini-2.0-flash",
    generation_config={"temperature": 0.5},
    system_instruction="Be brief.",
)
response = model.generate_content("Why is the sky blue?")
print(response.text)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({
    model: "models/gemini-2.0-flash",
    generationConfig: { temperature: 0.5 },
    systemInstruction: "Be brief.",
});
const result = await model.generateContent("Why is the sky blue?");
console.log(result.response.text());
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="models/gemini-2.0-flash"
    ts call LegacyModel `genAI.getGenerativeModel` model="models/gemini-2.0-flash"
    ts   arg model: "models/gemini-2.0-flash" (first +,)
         arg generation_config: {temperature: `0.5`} (middle +,)
         arg system_instruction: "Be brief." (last ,+)
    py   positional "models/gemini-2.0-flash"
         insert after arg system_instruction, indent "    "
       call LegacyCreate { stream: false } `model.generate_content` model="models/gemini-2.0-flash"
         positional "Why is the sky blue?"
    py   insert after positional 0
    py read Text `response.text` receiver=`response` origin=Response
    ts   insert after the opening bracket
    ts read Text `result.response.text()` receiver=`result` origin=Response
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L2:`genai.configure` -> "client = genai.Client"
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
         removal L3-7+
    py   request `model.generate_content("Why is the sky blue?")` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    ts   request `model.generateContent("Why is the sky blue?")` callee=`model.generateContent` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI
           arguments `"Why is the sky blue?"` in `("Why is the sky blue?")` separated by ", "
           contents "Why is the sky blue?"
           config {temperature: `0.5`, system_instruction: "Be brief."}
         call `model.generate_content("Why is the sky blue?")`
    ts   answer `.response.text()`
    "#);
}

#[test]
fn legacy_unit_without_configure() {
    // Differences 1 and 5; a JavaScript client made in place blocks its unit.
    let facts = compare(
        r#"
import google.generativeai as genai
model = genai.GenerativeModel("gemini-2.0-flash")
print(model.generate_content("Hi").text)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const model = new GoogleGenerativeAI(KEY).getGenerativeModel({ model: "gemini-2.0-flash" });
console.log((await model.generateContent("Hi")).response.text());
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    ts call LegacyModel `new GoogleGenerativeAI(KEY).getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
       call LegacyCreate { stream: false } `model.generate_content` model="gemini-2.0-flash"
         positional "Hi"
    py   insert after positional 0
    py read Text `model.generate_content("Hi").text` receiver=`model.generate_content("Hi")` origin=Response
    ts   insert after the opening bracket
    ts read Text `(await model.generateContent("Hi")).response.text()` receiver=`(await model.generateContent("Hi"))` origin=Response
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L1:end -> "\nclient = genai.Client()"
    py   removal L2+
    py   request `model.generate_content("Hi")` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    py     arguments `"Hi"` in `("Hi")` separated by ", "
    py     contents "Hi"
    py     config {}
    py   call `model.generate_content("Hi")`
    ts legacy import=none client=""
    ts   blocked "the client of line 2 is not bound by `const` to a name of its own"
    "#);
}

#[test]
fn legacy_unit_with_a_generation_config_bound_to_a_name() {
    // Differences 1 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
config = {"temperature": 0.5}
model = genai.GenerativeModel("gemini-2.0-flash", generation_config=config)
response = model.generate_content("Hi")
print(response.text)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const config = { temperature: 0.5 };
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash", generationConfig: config });
const result = await model.generateContent("Hi");
console.log(result.response.text());
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (first +,)
         arg generation_config: name config = {temperature: `0.5`} at L3 single-use (last ,+)
    py   positional "gemini-2.0-flash"
         insert after arg generation_config
       call LegacyCreate { stream: false } `model.generate_content` model="gemini-2.0-flash"
         positional "Hi"
    py   insert after positional 0
    py read Text `response.text` receiver=`response` origin=Response
    ts   insert after the opening bracket
    ts read Text `result.response.text()` receiver=`result` origin=Response
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L2:`genai.configure` -> "client = genai.Client"
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
         removal L4+
         removal L3+
    py   request `model.generate_content("Hi")` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    ts   request `model.generateContent("Hi")` callee=`model.generateContent` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI
           arguments `"Hi"` in `("Hi")` separated by ", "
           contents "Hi"
           config {temperature: `0.5`}
         call `model.generate_content("Hi")`
    ts   answer `.response.text()`
    "#);
}

#[test]
fn legacy_unit_blocked() {
    // Differences 1, 3 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
model = genai.GenerativeModel("gemini-2.0-flash")
response = model.generate_content("Hi")
keep(model)
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash" });
const result = await model.generateContent("Hi");
keep(model);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
       call LegacyCreate { stream: false } `model.generate_content` model="gemini-2.0-flash"
         positional "Hi"
    py   insert after positional 0
    ts   insert after the opening bracket
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client=""
    ts legacy import=none client=""
         call `model.generate_content("Hi")`
         blocked "the model object `model` is passed on or returned (line 5)"
    "#);
}

// ----- data flow -----

#[test]
fn config_bound_to_a_name() {
    let facts = same(
        r#"
config = {"temperature": 0.5}
response = client.models.generate_content(model="gemini-2.0-flash", contents="Hi", config=config)
"#,
        r#"
const config = { temperature: 0.5 };
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi", config: config });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (middle +,)
      arg config: name config = {temperature: `0.5`} at L1 single-use (last ,+)
      insert after arg config
    "#);
}

#[test]
fn config_shared_by_two_requests() {
    // Difference 11.
    let facts = compare(
        r#"
config = {"temperature": 0.5}
first = client.models.generate_content(model="gemini-2.0-flash", contents="Hi", config=config)
second = client.models.generate_content(model="gemini-2.0-flash", contents="Bye", config=config)
"#,
        r#"
const config = { temperature: 0.5 };
const first = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi", config: config });
const second = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Bye", config: config });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: "Hi" (middle +,)
    py   arg config: name config = {temperature: `0.5`} at L1 shared({temperature: `0.5`} at L1 by L2:`client.models.generate_content(model="gemini-2.0-flash", contents="Hi", config=config)` L3:`client.models.generate_content(model="gemini-2.0-flash", contents="Bye", config=config)`) (last ,+)
    ts   arg config: name config = {temperature: `0.5`} at L1 (last ,+)
         insert after arg config
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: "Bye" (middle +,)
    py   arg config: name config = {temperature: `0.5`} at L1 shared({temperature: `0.5`} at L1 by L2:`client.models.generate_content(model="gemini-2.0-flash", contents="Hi", config=config)` L3:`client.models.generate_content(model="gemini-2.0-flash", contents="Bye", config=config)`) (last ,+)
    ts   arg config: name config = {temperature: `0.5`} at L1 (last ,+)
         insert after arg config
    "#);
}

#[test]
fn parameter_flowing_into_a_request() {
    // Differences 8, 9 and 12.
    let facts = compare(
        r#"
from google.genai import types
def ask(prompt):
    return client.models.generate_content(model="gemini-2.0-flash", contents=prompt)
ask(types.Part.from_text(text="Hi"))
"#,
        r#"
import { createPartFromText } from "@google/genai";
async function ask(prompt) {
  return client.models.generateContent({ model: "gemini-2.0-flash", contents: prompt });
}
ask(createPartFromText("Hi"));
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: name prompt (last ,+)
         insert after arg contents
    py wrapper Factory Part.from_text callee=`types.Part.from_text` flow=request
    py   map Part.from_text{text: "Hi"}
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Factory createPartFromText callee=`createPartFromText` flow=elsewhere
    ts   module @google/genai
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn wrapper_grown_into_a_list() {
    // Differences 8 and 9.
    let facts = compare(
        r#"
from google.genai import types
parts = []
parts.append(types.Part.from_text(text="Hi"))
response = client.models.generate_content(model="gemini-2.0-flash", contents=parts)
"#,
        r#"
import { createPartFromText } from "@google/genai";
const parts = [];
parts.push(createPartFromText("Hi"));
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: parts });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: name parts = [] at L2 (last ,+)
         insert after arg contents
    py wrapper Factory Part.from_text callee=`types.Part.from_text` flow=request
    py   map Part.from_text{text: "Hi"}
    py import google.genai stmt=L1 module=`google.genai` types=types name=`types` removal=L1+ used
    ts wrapper Factory createPartFromText callee=`createPartFromText` flow=request
    ts   module @google/genai
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

// ----- negatives -----

#[test]
fn other_apis_give_no_facts() {
    let facts = same(
        r#"
body = requests.get(url).text
response = requests.get(url)
print(response.text)
"#,
        r#"
const body = await fetch(url).then((r) => r.text());
const response = await fetch(url);
console.log(await response.text());
"#,
    );
    insta::assert_snapshot!(facts, @"");
}

#[test]
fn a_variable_called_model_is_not_a_model() {
    let facts = same(
        r#"
model = load_model("resnet")
prediction = model.predict(image)
model.generate(prompt="Hi")
print(model.text)
"#,
        r#"
const model = loadModel("resnet");
const prediction = model.predict(image);
model.generate({ prompt: "Hi" });
console.log(model.text);
"#,
    );
    insta::assert_snapshot!(facts, @"");
}

#[test]
fn generate_content_of_another_library() {
    // Another object's `generate_content` is the API's only when called with a request.
    let facts = same(
        r#"
pipeline.generate_content("Hi")
generator.generate_content(model="gemini-2.0-flash", contents="Hi")
"#,
        r#"
pipeline.generateContent("Hi");
generator.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `generator.generate_content` model="gemini-2.0-flash"
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    "#);
}

// ----- more shapes -----

#[test]
fn client_creation() {
    // Difference 5.
    let facts = compare(
        r#"
from google import genai
client = genai.Client(api_key=KEY)
"#,
        r#"
import { GoogleGenAI } from "@google/genai";
const client = new GoogleGenAI({ apiKey: KEY });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py import google.genai stmt=L1 module=`genai`
    ts wrapper Class GoogleGenAI callee=`new GoogleGenAI` flow=elsewhere
    ts   module @google/genai
    ts   literal `{ apiKey: KEY }`
    ts import @google/genai stmt=L1 module=`@google/genai`
    "#);
}

#[test]
fn names_of_other_packages() {
    // Difference 6.
    let facts = compare(
        r#"
from other import Thing, Kind
thing = Thing(kind=Kind.BIG)
"#,
        r#"
import { Thing, Kind } from "other";
const thing = new Thing({ kind: Kind.BIG });
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    ts wrapper Class Thing callee=`new Thing` flow=elsewhere
    ts   module other
    ts   literal `{ kind: Kind.BIG }`
    ts wrapper Enum Kind callee=`Kind.BIG` flow=inside Thing
    ts   module other
    ts import other stmt=L1 module=`other`
    "#);
}

#[test]
fn async_client() {
    // Python's asynchronous client is `client.aio`; JavaScript's methods are asynchronous.
    let facts = compare(
        r#"
response = await client.aio.models.generate_content(model="gemini-2.0-flash", contents="Hi")
print(response.text)
"#,
        r#"
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
console.log(response.text);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call Create `client.aio.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
    ts call Create `client.models.generateContent` model="gemini-2.0-flash" method=`models.generateContent`
         arg model: "gemini-2.0-flash" (first +,)
         arg contents: "Hi" (last ,+)
         insert after arg contents
       read Text `response.text` receiver=`response` origin=Response
    "#);
}

#[test]
fn interactions_stream() {
    let facts = same(
        r#"
stream = client.interactions.create(model="gemini-2.0-flash", input="Hi", stream=True)
for event in stream:
    print(event.text)
"#,
        r#"
const stream = await client.interactions.create({ model: "gemini-2.0-flash", input: "Hi", stream: true });
for await (const event of stream) {
  console.log(event.text);
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Interactions `client.interactions.create` model="gemini-2.0-flash"
      arg model: "gemini-2.0-flash" (first +,)
      arg input: "Hi" (middle +,)
      arg stream: true (last ,+)
      insert after arg stream
    read Text `event.text` receiver=`event` origin=StreamChunk
    "#);
}

#[test]
fn legacy_count_tokens() {
    // Differences 1 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
model = genai.GenerativeModel("gemini-2.0-flash")
count = model.count_tokens("Hi")
response = model.generate_content("Hi")
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash" });
const count = await model.countTokens("Hi");
const result = await model.generateContent("Hi");
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
       call LegacyCreate { stream: false } `model.generate_content` model="gemini-2.0-flash"
         positional "Hi"
    py   insert after positional 0
    ts   insert after the opening bracket
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L2:`genai.configure` -> "client = genai.Client"
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
         removal L3+
    py   request `model.generate_content("Hi")` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    ts   request `model.generateContent("Hi")` callee=`model.generateContent` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI
           arguments `"Hi"` in `("Hi")` separated by ", "
           contents "Hi"
           config {}
         call `model.generate_content("Hi")`
    py   replace `model.count_tokens("Hi")` -> "client.models.count_tokens(model=\"gemini-2.0-flash\", contents=\"Hi\")"
    ts   replace `model.countTokens("Hi")` -> "genAI.models.countTokens({ model: \"gemini-2.0-flash\", contents: \"Hi\" })"
    "#);
}

#[test]
fn legacy_response_bound_to_a_name() {
    // Differences 1 and 5.
    let facts = compare(
        r#"
import google.generativeai as genai
genai.configure(api_key=KEY)
model = genai.GenerativeModel("gemini-2.0-flash")
response = model.generate_content("Hi")
text = response.text
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash" });
const result = await model.generateContent("Hi");
const response = result.response;
const text = response.text();
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel` model="gemini-2.0-flash"
    py   positional "gemini-2.0-flash"
    py   insert after positional 0
    ts call LegacyModel `genAI.getGenerativeModel` model="gemini-2.0-flash"
    ts   arg model: "gemini-2.0-flash" (only all)
    ts   insert after arg model
       call LegacyCreate { stream: false } `model.generate_content` model="gemini-2.0-flash"
         positional "Hi"
    py   insert after positional 0
    py read Text `response.text` receiver=`response` origin=Response
    ts   insert after the opening bracket
    ts read Text `response.text()` receiver=`response` origin=Response
    ts wrapper Class GoogleGenerativeAI callee=`new GoogleGenerativeAI` flow=elsewhere
    ts   module @google/generative-ai
       import google.generativeai stmt=L1 module=`google.generativeai`
    py legacy import=L1 client="client"
    py   new import "from google import genai"
    py   client L2:`genai.configure` -> "client = genai.Client"
    ts legacy import=L1 client="genAI"
    ts   new import "import { GoogleGenAI } from \"@google/genai\";"
    ts   client L2:`new GoogleGenerativeAI(KEY)` -> "new GoogleGenAI({ apiKey: KEY })"
         removal L3+
    py   request `model.generate_content("Hi")` callee=`model.generate_content` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash")
    ts   request `model.generateContent("Hi")` callee=`model.generateContent` method=interactions.create model="gemini-2.0-flash" id=Some("gemini-2.0-flash") client=genAI
           arguments `"Hi"` in `("Hi")` separated by ", "
           contents "Hi"
           config {}
         call `model.generate_content("Hi")`
    ts   replace `.response` -> ""
    ts   answer `.text()`
    "#);
}

#[test]
fn legacy_model_from_cached_content() {
    // Differences 1 and 13.
    let facts = compare(
        r#"
model = genai.GenerativeModel.from_cached_content(cached_content=cache)
response = model.generate_content("Hi")
"#,
        r#"
const model = genAI.getGenerativeModelFromCachedContent(cache);
const result = await model.generateContent("Hi");
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    py call LegacyModel `genai.GenerativeModel.from_cached_content` model=unresolved
    py   arg cached_content: name cache (only all)
    py   insert after arg cached_content
    py call LegacyCreate { stream: false } `model.generate_content` model=unresolved
    ts call LegacyModel `genAI.getGenerativeModelFromCachedContent` model=absent
    ts   positional name cache
    ts   insert after the opening bracket
    ts call LegacyCreate { stream: false } `model.generateContent` model=absent
         positional "Hi"
    py   insert after positional 0
    ts   insert after the opening bracket
    "#);
}

#[test]
fn response_as_an_annotated_parameter() {
    // Difference 14.
    let facts = compare(
        r#"
def show(response: types.GenerateContentResponse):
    print(response.text)
"#,
        r#"
function show(response: GenerateContentResponse) {
  console.log(response.text);
}
"#,
    );
    insta::assert_snapshot!(facts, @"py read Text `response.text` receiver=`response` origin=Response");
}

#[test]
fn chat_kept_on_an_object() {
    // The JavaScript chat takes its message in a request object.
    let facts = compare(
        r#"
class Bot:
    def __init__(self, client):
        self.chat = client.chats.create(model="gemini-2.0-flash")
    def ask(self, question):
        return self.chat.send_message(question).text
"#,
        r#"
class Bot {
  constructor(client) {
    this.chat = client.chats.create({ model: "gemini-2.0-flash" });
  }
  async ask(question) {
    return (await this.chat.sendMessage({ message: question })).text;
  }
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call ChatCreate `client.chats.create` model="gemini-2.0-flash"
         arg model: "gemini-2.0-flash" (only all)
         insert after arg model
    py call SendMessage `self.chat.send_message` model=absent
    py   positional name question
    py   insert after positional 0
    py read Text `self.chat.send_message(question).text` receiver=`self.chat.send_message(question)` origin=Response
    ts call SendMessage `this.chat.sendMessage` model=absent
    ts   arg message: name question (only all)
    ts   insert after arg message
    ts read Text `(await this.chat.sendMessage({ message: question })).text` receiver=`(await this.chat.sendMessage({ message: question }))` origin=Response
    "#);
}

#[test]
fn models_resource_bound_to_a_name() {
    let facts = same(
        r#"
models = client.models
response = models.generate_content(model="gemini-2.0-flash", contents="Hi")
print(response.text)
"#,
        r#"
const models = client.models;
const response = await models.generateContent({ model: "gemini-2.0-flash", contents: "Hi" });
console.log(response.text);
"#,
    );
    insta::assert_snapshot!(facts, @r#"
    call Create `models.generate_content` model="gemini-2.0-flash"
      arg model: "gemini-2.0-flash" (first +,)
      arg contents: "Hi" (last ,+)
      insert after arg contents
    read Text `response.text` receiver=`response` origin=Response
    "#);
}

// ----- the JavaScript surfaces -----

#[test]
fn javascript_and_tsx_give_typescripts_facts() {
    let programs = [
        r#"
import { GoogleGenAI, createPartFromText, Type } from "@google/genai";
const client = new GoogleGenAI({});
const config = { temperature: 0.5, responseSchema: { type: Type.STRING } };
const response = await client.models.generateContent({
  model: "gemini-2.0-flash",
  contents: [createPartFromText("Hi")],
  config,
});
console.log(response.text, response.usageMetadata.totalTokenCount); // the answer
for (const part of response.candidates[0].content.parts) {
  console.log(part.functionCall);
}
"#,
        r#"
import { GoogleGenerativeAI } from "@google/generative-ai";
const genAI = new GoogleGenerativeAI(KEY);
const model = genAI.getGenerativeModel({ model: "gemini-2.0-flash", generationConfig: { temperature: 0.5 } });
const result = await model.generateContent("Hi");
console.log(result.response.text());
"#,
    ];
    for src in programs {
        let ts = summary(Surface::TypeScript, program(src));
        assert!(!ts.is_empty());
        assert_eq!(summary(Surface::JavaScript, program(src)), ts);
        assert_eq!(summary(Surface::Tsx, program(src)), ts);
    }
}

#[test]
fn a_whole_program() {
    // Differences 5, 6, 7, 8 and 9.
    let facts = compare(
        r#"
from google import genai
from google.genai import types
client = genai.Client()
config = {"temperature": 0.5, "response_schema": {"type": types.Type.STRING}}
response = client.models.generate_content(
  model="gemini-2.0-flash",
  contents=[types.Part.from_text(text="Hi")],
  config=config,
)
print(response.text, response.usage_metadata.total_token_count)  # the answer
for part in response.candidates[0].content.parts:
  print(part.function_call)
"#,
        r#"
import { GoogleGenAI } from "@google/genai";
import { createPartFromText, Type } from "@google/genai";
const client = new GoogleGenAI({});
const config = { temperature: 0.5, responseSchema: { type: Type.STRING } };
const response = await client.models.generateContent({
  model: "gemini-2.0-flash",
  contents: [createPartFromText("Hi")],
  config,
});
console.log(response.text, response.usageMetadata.totalTokenCount); // the answer
for (const part of response.candidates[0].content.parts) {
  console.log(part.functionCall);
}
"#,
    );
    insta::assert_snapshot!(facts, @r#"
       call Create `client.models.generate_content` model="gemini-2.0-flash" method=`models.generate_content`
         arg model: "gemini-2.0-flash" (first +,)
    py   arg contents: [`types.Part.from_text(text="Hi")`] (middle +,)
    py   arg config: name config = {temperature: `0.5`, response_schema: {type: `types.Type.STRING`}} at L4 single-use (last ,+)
    ts   arg contents: [`createPartFromText("Hi")`] (middle +,)
    ts   arg config: name config = {temperature: `0.5`, responseSchema: {type: `Type.STRING`}} at L4 single-use (last ,+)
         insert after arg config, indent "  "
       read Text `response.text` receiver=`response` origin=Response
       read Usage { member: `total_token_count` } `response.usage_metadata` receiver=`response` origin=Response
       read Candidates { simple_text: false } `response.candidates[0].content.parts` receiver=`response` origin=Response
       read PartFunctionCall `part.function_call` receiver=`part` origin=Part
    py wrapper Factory Part.from_text callee=`types.Part.from_text` flow=request
    py   map Part.from_text{text: "Hi"}
    py import google.genai stmt=L1 module=`genai`
    py import google.genai stmt=L2 module=`google.genai` types=types name=`types` removal=L2+ used
    ts wrapper Class GoogleGenAI callee=`new GoogleGenAI` flow=elsewhere
    ts   module @google/genai
    ts   literal `{}`
    ts wrapper Factory createPartFromText callee=`createPartFromText` flow=request
    ts   module @google/genai
    ts wrapper Enum Type callee=`Type.STRING` flow=request
    ts   module @google/genai
    ts import @google/genai stmt=L1 module=`@google/genai`
    ts import @google/genai stmt=L2 module=`@google/genai`
       comment L10 line "the answer"
    "#);
}
