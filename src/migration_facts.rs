//! What a document does with the service's API, in terms every surface shares.
//!
//! A surface's extractor (Python now; JavaScript and TypeScript next) turns its syntax tree into
//! these facts once per document: the API calls with their arguments, the reads of a response,
//! the typed wrapper objects and the imports. The MIG rules read the facts, never the tree, so
//! each rule's logic is written once for every language.

use std::ops::Range;

/// Every fact about one document.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub calls: Vec<Call>,
    pub reads: Vec<Read>,
    pub wrappers: Vec<Wrapper>,
    pub imports: Vec<Import>,
    /// Raw HTTP requests (curl commands, REST-client requests, Rust request builders) and
    /// request bodies written on their own.
    pub http: Vec<HttpRequest>,
    /// Comment ranges: a fix deleting one is unsafe.
    pub comments: Vec<Range<usize>>,
    /// Each binding of the legacy client package and what is done through it.
    pub legacy: Vec<LegacyUnit>,
    /// The modules a Python module imports at its top level, and where an import line goes.
    pub top_imports: TopImports,
    /// Python's f-strings: code written into one of their expressions quotes its strings with
    /// the other quote ([`Facts::string_quote`]).
    pub f_strings: Vec<Range<usize>>,
    /// The function responses built by the current client's factory
    /// (`types.Part.from_function_response(name=..., response=...)`): where each is, and its
    /// keyword arguments.
    pub function_responses: Vec<(Range<usize>, MapValue)>,
}

/// The modules a Python module imports at its top level (`import base64`: `base64`), and where
/// a new import line goes: the start of the line after its first top-level import statement
/// (`None` when it has none).
#[derive(Clone, Debug, Default)]
pub struct TopImports {
    pub modules: Vec<String>,
    pub insert_at: Option<usize>,
}

impl Facts {
    /// The quote a string literal written at `at` takes: `'` inside the expression of an
    /// f-string delimited by a single `"` (before Python 3.12 it may not hold its own quote),
    /// else `"`.
    pub fn string_quote(&self, text: &str, at: usize) -> char {
        let innermost = self
            .f_strings
            .iter()
            .filter(|r| r.start < at && at < r.end)
            .max_by_key(|r| r.start);
        let Some(range) = innermost else {
            return '"';
        };
        let written = text.get(range.clone()).unwrap_or_default();
        let opening = written.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        if opening.starts_with('"') && !opening.starts_with("\"\"\"") {
            '\''
        } else {
            '"'
        }
    }

    pub fn has_comment_in(&self, range: &Range<usize>) -> bool {
        self.comments
            .iter()
            .any(|c| c.start >= range.start && c.end <= range.end)
    }
}

/// The kinds of call the migration rules know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    /// `*.models.generate_content(...)` of the current client.
    Create,
    /// `*.models.generate_content_stream(...)`.
    CreateStream,
    /// Legacy `GenerativeModel(...).generate_content(...)`; `stream` when called with
    /// `stream=True`.
    LegacyCreate { stream: bool },
    /// `*.interactions.create(...)`: the new endpoint.
    Interactions,
    /// `*.chats.create(...)`.
    ChatCreate,
    /// Legacy `model.start_chat(...)`.
    StartChat,
    /// `chat.send_message(...)` on a chat helper.
    SendMessage,
    /// Legacy `GenerativeModel(...)`: its model and `generation_config` make a request.
    LegacyModel,
    /// The JSON body of a raw HTTP request to the predecessor endpoint (or such a body alone).
    Rest { stream: bool },
}

/// The model a request names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelRef {
    /// A string literal, or a name bound once to one.
    Literal(String),
    /// Given, but not as something interlint can resolve.
    Unresolved,
    Absent,
}

/// One call of the API.
#[derive(Clone, Debug)]
pub struct Call {
    pub kind: CallKind,
    pub range: Range<usize>,
    /// The callee: where a call's finding points.
    pub callee: Range<usize>,
    /// The callee text to replace when rewriting the call (`models.generate_content` of
    /// `client.models.generate_content`, or the alias's definition); `None` when it cannot be
    /// rewritten in place.
    pub method: Option<Range<usize>>,
    /// The callee as written, for messages.
    pub callee_text: String,
    /// Called through a local alias of the method, by this name.
    pub alias: Option<String>,
    /// Keyword (named) arguments; a JavaScript request object's properties.
    pub args: Vec<Entry>,
    pub positional: Vec<Value>,
    /// `**kwargs` / `*args` / `...spread`: the arguments are not all known.
    pub spread: bool,
    /// Where a new argument goes: just after the last argument (or after the open paren).
    pub insert_at: usize,
    /// Arguments sit on their own lines, indented like this.
    pub arg_indent: Option<String>,
    pub model: ModelRef,
    /// A current-client request's result in its module (the migration unit's reads); `None`
    /// for the other kinds of call.
    pub result: Option<Box<ResultUses>>,
    /// A chat helper's creation (`client.chats.create(...)`): the chat's turns in its module.
    pub chat: Option<Box<ChatUnit>>,
}

impl Call {
    pub fn arg(&self, name: &str) -> Option<&Entry> {
        self.args.iter().find(|a| a.key == name)
    }

    /// What goes between two arguments: a new line at the arguments' indentation when they sit
    /// on their own lines, else `, `.
    pub fn argument_separator(&self) -> String {
        match &self.arg_indent {
            Some(indent) => format!(",\n{indent}"),
            None => ", ".to_string(),
        }
    }

    /// The call a request body makes: the members of `map` (an object written at `braces`)
    /// are its arguments, and its model is the body's `model` string, else `url_model`.
    /// `text` is the text the ranges point into, shifted by `base`.
    pub fn of_body(
        map: MapValue,
        kind: CallKind,
        url_model: ModelRef,
        callee: Range<usize>,
        braces: Range<usize>,
        text: &str,
        base: usize,
    ) -> Call {
        let model = match map.get("model").map(|e| &e.value.kind) {
            Some(ValueKind::Str(id)) => ModelRef::Literal(id.clone()),
            Some(_) => ModelRef::Unresolved,
            None => url_model,
        };
        let open = braces.start + 1;
        let insert_at = map.entries.last().map_or(open, |e| e.range.end);
        // Members on lines of their own: new ones go on their own lines, indented alike.
        let arg_indent = map.entries.first().and_then(|first| {
            let start = first.range.start.checked_sub(base)?;
            text.get(open.checked_sub(base)?..start)?
                .contains('\n')
                .then(|| line_indent(text, start))
        });
        Call {
            kind,
            range: braces,
            callee,
            method: None,
            callee_text: "the request".to_string(),
            alias: None,
            spread: !map.complete,
            args: map.entries,
            positional: Vec::new(),
            insert_at,
            arg_indent,
            model,
            result: None,
            chat: None,
        }
    }

    pub fn is_predecessor_request(&self) -> bool {
        matches!(
            self.kind,
            CallKind::Create | CallKind::CreateStream | CallKind::LegacyCreate { .. } | CallKind::Rest { .. }
        )
    }
}

/// A key and its value: a keyword argument, a dict entry, an object property.
#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    pub key_range: Range<usize>,
    /// The whole entry (`key=value`, `"key": value`).
    pub range: Range<usize>,
    pub value: Value,
    /// Written as a keyword argument (`key=value`) rather than a dict key.
    pub keyword: bool,
    /// Where the entry can be deleted cleanly, with its separator.
    pub removal: Range<usize>,
    /// Its neighbours in the container, so that deleting several entries at once leaves no
    /// separator doubled or dangling.
    pub siblings: Siblings,
}

/// Where an element of a comma-separated container sits among its neighbours.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Siblings {
    /// End of the element before it; `None` for the first.
    pub previous_end: Option<usize>,
    /// Start of the element after it; `None` for the last.
    pub next_start: Option<usize>,
    /// Everything between the container's brackets.
    pub inner: Range<usize>,
}

impl Siblings {
    /// Moved by `base` bytes (an embedded body's offsets in its document).
    pub fn shifted(self, base: usize) -> Siblings {
        Siblings {
            previous_end: self.previous_end.map(|p| p + base),
            next_start: self.next_start.map(|n| n + base),
            inner: self.inner.start + base..self.inner.end + base,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Value {
    pub range: Range<usize>,
    pub kind: ValueKind,
}

#[derive(Clone, Debug)]
pub enum ValueKind {
    Str(String),
    Int(i64),
    Bool(bool),
    Map(Box<MapValue>),
    List(Vec<Value>),
    /// A name bound in the same scope to a value.
    Name(Box<NameValue>),
    Other,
}

impl Value {
    pub fn as_map(&self) -> Option<&MapValue> {
        match &self.kind {
            ValueKind::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The map itself, or the map a name is bound to.
    pub fn resolved_map(&self) -> Option<&MapValue> {
        match &self.kind {
            ValueKind::Map(m) => Some(m),
            ValueKind::Name(n) => n.value.as_ref().and_then(|v| v.as_map()),
            _ => None,
        }
    }
}

/// A dict literal, a keyword-only call of a typed wrapper, an object literal.
#[derive(Clone, Debug)]
pub struct MapValue {
    pub entries: Vec<Entry>,
    /// Every entry is known: no spread, no positional argument, no computed key.
    pub complete: bool,
    /// The typed wrapper's name (`GenerateContentConfig`) when the map is a constructor call.
    pub wrapper: Option<String>,
}

impl MapValue {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }
}

/// A name used as a value, and what it is bound to.
#[derive(Clone, Debug)]
pub struct NameValue {
    pub name: String,
    /// The value of its one binding in the same scope, when it has one.
    pub value: Option<Value>,
    /// The statement that binds it, removable when the name is inlined.
    pub statement: Option<Range<usize>>,
    /// The name is used exactly once (here) and bound once, by a simple assignment in the same
    /// scope: it can be inlined.
    pub single_use: bool,
    /// A config bound once and used only as the `config` of create-content calls: those calls
    /// can be rewritten together, each with the config's entries, and the binding removed.
    pub shared: Option<Box<SharedConfig>>,
    /// Bound to a list that other code changes in place (`parts.append(part)`): the list's
    /// items are not all in its binding.
    pub grown: bool,
    /// A parameter whose annotation says it is a string (`prompt: str`, `prompt: string`).
    pub text_parameter: bool,
}

/// A config several requests share (see [`NameValue::shared`]).
#[derive(Clone, Debug)]
pub struct SharedConfig {
    pub value: Value,
    /// The statement binding it.
    pub statement: Range<usize>,
    /// The calls using it.
    pub calls: Vec<Range<usize>>,
}

/// What a name or expression holds, as far as the migration rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The result of a predecessor create-content call (or a chat's `send_message`).
    Response,
    /// The result of `interactions.create`.
    Interaction,
    /// An item of a stream of the predecessor API.
    StreamChunk,
    /// An item of `response.candidates[0].content.parts`.
    Part,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadKind {
    /// `response.text`.
    Text,
    /// `response.candidates[0].content.parts...`; `simple_text` when it is exactly
    /// `candidates[0].content.parts[0].text`.
    Candidates { simple_text: bool },
    /// `response.function_calls`.
    FunctionCalls,
    /// `part.function_call`, `...parts[0].function_call`.
    PartFunctionCall,
    /// `grounding_metadata` on a response or candidate, or a candidate's `url_context_metadata`;
    /// `shown` when the whole chain read is only shown (printed, displayed, a notebook cell's
    /// value), not read further.
    Grounding { shown: bool },
    /// `response.usage_metadata` (`usageMetadata`): the token counts; `member` is the count
    /// read from it (`.total_token_count`), as a byte range, when one is.
    Usage { member: Option<(usize, usize)> },
    /// `response.parsed` (Python): the structured answer the current client parsed;
    /// `as_object` when an attribute or item of it is read (a pydantic model's, most likely).
    Parsed { as_object: bool },
    /// `response.executable_code` (`executableCode`), the code of the first code execution part,
    /// or `response.code_execution_result` (`result`), its output.
    Code { result: bool },
    /// `response.candidates[0].content.parts[0].inline_data` (`inlineData`), the first part's
    /// media (an audio or an image the request asked for); `data` when its bytes are read
    /// (`.inline_data.data`).
    InlineData { data: bool },
    /// A step of the way to the first part's text or media (`response.candidates`,
    /// `...candidates[0].content.parts`, `...parts[0].inline_data.data`), only tested for truth
    /// (`if not response.candidates or ...`): whether there is an answer.
    Tested,
}

impl ReadKind {
    /// [`ReadKind::of_candidates_chain`] for a chain only tested for truth: a step of the way to
    /// the first part's text or media is [`ReadKind::Tested`].
    pub fn of_tested_candidates_chain(chain: &str) -> Option<ReadKind> {
        const WAYS: &[&str] = &[
            "[0].content.parts[0].inline_data.data",
            "[0].content.parts[0].inlineData.data",
            "[0].content.parts[0].text",
        ];
        if WAYS.iter().any(|way| {
            way.starts_with(chain) && (way.len() == chain.len() || way[chain.len()..].starts_with(['.', '[']))
        }) {
            return Some(ReadKind::Tested);
        }
        Self::of_candidates_chain(chain)
    }

    /// What a read `R.candidates<chain>` is, from its chain of steps after `candidates` (`[0]`,
    /// `.content`, `.parts`, ...) in either spelling; `None` when it does not reach the content.
    pub fn of_candidates_chain(chain: &str) -> Option<ReadKind> {
        let grounding = [
            ".grounding_metadata",
            ".groundingMetadata",
            ".url_context_metadata",
            ".urlContextMetadata",
        ];
        if grounding.iter().any(|field| chain.contains(field)) {
            return Some(ReadKind::Grounding { shown: false });
        }
        if !chain.contains(".content") {
            return None;
        }
        if chain.contains(".function_call") || chain.contains(".functionCall") {
            return Some(ReadKind::PartFunctionCall);
        }
        for media in [
            "[0].content.parts[0].inline_data",
            "[0].content.parts[0].inlineData",
        ] {
            if let Some(rest) = chain.strip_prefix(media)
                && matches!(rest, "" | ".data")
            {
                return Some(ReadKind::InlineData {
                    data: !rest.is_empty(),
                });
            }
        }
        Some(ReadKind::Candidates {
            simple_text: chain == "[0].content.parts[0].text",
        })
    }
}

/// A read of a response the old way.
#[derive(Clone, Debug)]
pub struct Read {
    pub kind: ReadKind,
    /// The whole expression (`response.text`).
    pub range: Range<usize>,
    pub receiver: Range<usize>,
    pub origin: Origin,
    /// Every binding of the receiver is an interactions result: the read can be rewritten.
    pub all_interactions: bool,
    /// The read names the answer's path alone, with no receiver in code (a `jq` filter over a
    /// response body): its rewrite is offered, as unsafe, before the request is migrated.
    pub detached: bool,
}

/// What a program does with a request's result in its module: the migration unit of the
/// request. A request is rewritten together with every read of its result, or not at all.
#[derive(Clone, Debug, Default)]
pub struct ResultUses {
    pub uses: Vec<ResultUse>,
    /// The other requests of the module rewritten with this one: their results are passed to
    /// the same function ([`ResultUse::Through`]), whose reads are rewritten once for all, or
    /// one continues the other's interaction ([`Continues`]).
    pub together: Vec<Range<usize>>,
    /// The interaction this request continues: its contents send another request's turn back.
    pub continues: Option<Box<Continues>>,
}

/// A request whose contents send back the turn another request's result holds
/// (`R.candidates[0].content`), after the user's turn and before function responses: a
/// function-calling round trip, which an interaction continues with `previous_interaction_id`.
#[derive(Clone, Debug)]
pub struct Continues {
    /// The request whose result's turn is sent back.
    pub previous: Range<usize>,
    /// The read of that turn, an item of this request's contents.
    pub turn: Range<usize>,
    /// The previous result as written in the read (`response`).
    pub receiver: String,
    /// A name the rewrite needs to mean here what it meant where it was read (the previous
    /// result, the previous request's contents) that is bound again in between: the name, and
    /// where it is bound again.
    pub rebound: Option<(String, usize)>,
}

#[derive(Clone, Debug)]
pub enum ResultUse {
    /// A read of the result the old way (`response.text`, `response.usage_metadata`, ...).
    Read(Read),
    /// Another attribute or method of the result (`response.prompt_feedback`): `range` is the
    /// whole chain read from it, `name` the attribute.
    Member { range: Range<usize>, name: String },
    /// The result leaves what interlint follows, or is used in a way it does not rewrite
    /// (passed to a function, returned, stored): where, and how, for the message.
    Escape { range: Range<usize>, how: String },
    /// A stream's loop over its chunks (`for chunk in stream:`), with the reads of each chunk.
    Loop(StreamLoop),
    /// A loop over the parts of the first candidate (`for part in R.candidates[0].content.parts:`),
    /// with the reads of each part.
    Parts(PartsLoop),
    /// `R.function_calls` (`functionCalls`), with what is read of each call.
    FunctionCalls(FunctionCallsRead),
    /// The result's turn (`R.candidates[0].content`, at `range`) sent back in the contents of
    /// the request at `request`, which continues this result's interaction ([`Continues`]).
    Continued {
        range: Range<usize>,
        request: Range<usize>,
    },
    /// The result passed to a function of the module (`show(response)`), whose reads of the
    /// parameter are this unit's uses too: the function (`function`, its definition; `name`),
    /// the call passing the result (`call`), and every call of the function in the module.
    Through {
        function: Range<usize>,
        name: String,
        call: Range<usize>,
        calls: Vec<Range<usize>>,
    },
}

/// A read of a response's function calls (`R.function_calls`) and of the calls taken from it: by
/// a loop over them (`for call in R.function_calls:`), an index (`R.function_calls[0]`) or a name
/// bound to one (`call = R.function_calls[0]`).
#[derive(Clone, Debug)]
pub struct FunctionCallsRead {
    /// `R.function_calls`.
    pub range: Range<usize>,
    /// The response as written before `.function_calls`.
    pub receiver: Range<usize>,
    /// Each member read of a call (`call.args`): its name as written and where that name is.
    pub members: Vec<(String, Range<usize>)>,
    /// Uses of the calls interlint does not rewrite.
    pub other: Vec<ResultUse>,
}

/// A loop over the parts of a response's first candidate, and what it reads of each part.
#[derive(Clone, Debug)]
pub struct PartsLoop {
    /// The iterated expression (`response.candidates[0].content.parts`).
    pub iter: Range<usize>,
    /// The loop's variable as written in its header (`part`).
    pub target: Range<usize>,
    /// The response as written before `.candidates`.
    pub receiver: Range<usize>,
    /// The name each part is bound to.
    pub part: String,
    pub reads: Vec<PartRead>,
    /// Other uses of a part ([`ResultUse::Escape`]).
    pub other: Vec<ResultUse>,
}

/// `part.member` (with what is read of it: `part.inline_data.data`) in a loop over parts.
#[derive(Clone, Debug)]
pub struct PartRead {
    /// `part.member`, and the member's name as written.
    pub range: Range<usize>,
    pub member: String,
    /// The attribute read of the member (`data` of `part.inline_data.data`), with the range of
    /// the whole chain `part.member.attribute`.
    pub attribute: Option<(String, Range<usize>)>,
    pub role: PartRole,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartRole {
    /// The test of an `if` (`if part.text:`, `part.text is not None`, `part.text !== undefined`):
    /// the range of the test. `skip` is the whole `if` statement when its body only continues
    /// the loop (`if part.thought: continue`), and is not the loop's only statement.
    Test {
        test: Range<usize>,
        skip: Option<Range<usize>>,
    },
    /// Read in the body of an `if` testing the same member of the part.
    Guarded,
    /// Read anywhere else.
    Unguarded,
}

/// A loop over a stream's chunks, and what it reads of each.
#[derive(Clone, Debug)]
pub struct StreamLoop {
    /// The loop statement.
    pub range: Range<usize>,
    /// The name each chunk is bound to.
    pub chunk: String,
    /// Where a statement goes first in the body, with the indentation of the body's lines: the
    /// start of the first statement (Python), or just after the block's `{` (JavaScript).
    pub body_start: usize,
    pub indent: String,
    /// The chunk's reads the old way (`chunk.text`).
    pub reads: Vec<Read>,
    /// Other uses of a chunk, as [`ResultUse::Member`] and [`ResultUse::Escape`].
    pub other: Vec<ResultUse>,
}

/// A chat made by a chat helper (`chat = client.chats.create(...)`) and the turns it sends in its
/// module: the migration unit of a chat. Each turn becomes one interactions request naming the
/// previous turn's interaction.
#[derive(Clone, Debug, Default)]
pub struct ChatUnit {
    /// The name the chat is bound to.
    pub name: String,
    /// The statement binding it (a JavaScript declaration whole).
    pub statement: Range<usize>,
    /// The client as written before `.chats.create` (`client`, `client.aio`, `ai`).
    pub client: Range<usize>,
    /// The turns, in the order of the text.
    pub turns: Vec<Turn>,
    /// Every turn is a statement of the list that binds the chat, after it, and none in a loop:
    /// each turn runs once, in order, and can name the previous one's result.
    pub straight: bool,
    /// Uses of the chat that are not turns, and turns that cannot be followed: where, and how.
    pub blocked: Vec<(Range<usize>, String)>,
    /// The other chats (their creation calls) whose turns' results a name of this chat's turns
    /// also holds (TypeScript types a name by its declaration): the chats are migrated
    /// together, or none is.
    pub shares: Vec<Range<usize>>,
}

impl ChatUnit {
    /// Each turn can name the previous turn's result: the turns run once each, in order, and
    /// each sees the name the previous one's result is bound to.
    pub fn in_order(&self) -> bool {
        self.straight && self.turns.iter().skip(1).all(|t| t.sees_previous)
    }
}

impl Turn {
    /// Why the next turn cannot name this turn's interaction, if it cannot.
    pub fn id_unavailable(&self) -> Option<&'static str> {
        if self.stream {
            Some("a streamed turn's interaction id comes in its events, which interlint does not read")
        } else if self.result.is_none() {
            Some("the turn's result is not kept in a name, and the next turn needs its id")
        } else {
            None
        }
    }
}

/// One turn of a chat: `chat.send_message(...)` (`sendMessage`, and the streaming kin).
#[derive(Clone, Debug)]
pub struct Turn {
    /// The call (found among the document's calls by this range).
    pub call: Range<usize>,
    pub stream: bool,
    /// The name the turn's result is bound to by its statement, when it is.
    pub result: Option<String>,
    /// The statement the turn is in, when it is one of its own (`response = chat.send_message(x)`,
    /// or the call alone), and the indentation of its line.
    pub statement: Option<Range<usize>>,
    pub indent: String,
    /// The previous turn's result name still holds that result here.
    pub sees_previous: bool,
}

/// A typed wrapper object construction (`types.GenerateContentConfig(...)`).
#[derive(Clone, Debug)]
pub struct Wrapper {
    /// `GenerateContentConfig`, `Part.from_text`, `createUserContent`, `Type`.
    pub name: String,
    pub kind: WrapperKind,
    /// The package it comes from, when the surface knows it (`@google/genai`).
    pub module: Option<String>,
    /// The constructor or factory as written (`types.Part`, `new Content`), or the whole enum
    /// member (`Type.STRING`).
    pub callee: Range<usize>,
    pub range: Range<usize>,
    /// The arguments as a map when they are all keywords.
    pub map: Option<MapValue>,
    /// Where the argument list opens and closes (the parentheses).
    pub open: Range<usize>,
    pub close: Range<usize>,
    /// `new Wrapper({...})` with one object literal argument: the literal, which can stand alone.
    pub literal: Option<Range<usize>>,
    /// Where the object goes: into a request, into another wrapper, or elsewhere.
    pub flow: Flow,
    /// Bound to a name whose attributes are read or set (`config.seed = 0`): a dict would not do.
    pub object: bool,
}

/// Where a value goes, as far as a surface's extractor can follow it in its document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Into a request of the API (create-content, chat, legacy model, interactions): an
    /// argument, or inside one (a list, a dict, a property), directly or through a name bound
    /// once to it and used only there. The requests' calls (their ranges), when each is known;
    /// `None` for one made elsewhere (through a function's parameter, `asyncio.to_thread`).
    Request(Option<Vec<Range<usize>>>),
    /// Into the wrappers built at these ranges (`types.Content(parts=[part])`), and perhaps
    /// into requests directly: it goes wherever those wrappers go.
    Inside(Vec<Range<usize>>),
    /// Anywhere else, or not known: another API (an agent framework's runner, the Live API), a
    /// mocked response, a function's parameter.
    Elsewhere,
}

impl Flow {
    /// Where a name's value goes, from where each of its uses goes: into requests and wrappers
    /// when every use goes there, else nowhere known. A name never used goes nowhere.
    pub fn of_uses(uses: impl IntoIterator<Item = Flow>) -> Flow {
        let mut out: Option<Flow> = None;
        for flow in uses {
            out = Some(match (out, flow) {
                (_, Flow::Elsewhere) | (Some(Flow::Elsewhere), _) => return Flow::Elsewhere,
                (None, flow) => flow,
                (Some(Flow::Request(calls)), Flow::Request(more)) => Flow::Request(match (calls, more) {
                    (Some(mut calls), Some(more)) => {
                        calls.extend(more);
                        Some(calls)
                    }
                    _ => None,
                }),
                (Some(Flow::Request(_)), flow) => flow,
                (Some(Flow::Inside(ranges)), Flow::Request(_)) => Flow::Inside(ranges),
                (Some(Flow::Inside(mut ranges)), Flow::Inside(more)) => {
                    ranges.extend(more);
                    Flow::Inside(ranges)
                }
            });
        }
        out.unwrap_or(Flow::Elsewhere)
    }
}

/// The legacy JavaScript package's server module (`GoogleAIFileManager`, `GoogleAICacheManager`,
/// `FileState`), imported by a statement of its own beside the client's.
pub const LEGACY_JS_SERVER_MODULE: &str = "@google/generative-ai/server";

/// The methods that make a request of the API, in both spellings: a class that defines one of
/// them implements the API (a client library, a CLI's content generator), and its own calls
/// through `self`/`this` are not uses of it.
pub const API_METHODS: &[&str] = &[
    "generate_content",
    "generate_content_stream",
    "send_message",
    "send_message_stream",
    "generateContent",
    "generateContentStream",
    "sendMessage",
    "sendMessageStream",
];

impl Facts {
    /// Whether a wrapper's object reaches a request: it goes into one, is itself one of the
    /// request's own types (`is_request_type`, e.g. `GenerateContentConfig`), or is built inside
    /// wrappers that do.
    pub fn wrapper_reaches_request(&self, wrapper: &Wrapper, is_request_type: &dyn Fn(&str) -> bool) -> bool {
        self.reaches_request(wrapper, is_request_type, 0)
    }

    fn reaches_request(
        &self,
        wrapper: &Wrapper,
        is_request_type: &dyn Fn(&str) -> bool,
        depth: usize,
    ) -> bool {
        if is_request_type(&wrapper.name) {
            return true;
        }
        match &wrapper.flow {
            Flow::Request(_) => true,
            Flow::Elsewhere => false,
            // Each step goes to an enclosing wrapper; the bound is for safety.
            Flow::Inside(ranges) => {
                depth < 64
                    && ranges.iter().all(|range| {
                        self.wrappers
                            .iter()
                            .find(|w| w.range == *range && w.range != wrapper.range)
                            .is_some_and(|outer| self.reaches_request(outer, is_request_type, depth + 1))
                    })
            }
        }
    }
}

impl Facts {
    /// The request calls a wrapper's object goes into (their ranges), through the wrappers it
    /// is built inside; `None` when one is not known or it goes elsewhere too.
    pub fn wrapper_requests(&self, wrapper: &Wrapper) -> Option<Vec<Range<usize>>> {
        self.requests_of(wrapper, 0)
    }

    fn requests_of(&self, wrapper: &Wrapper, depth: usize) -> Option<Vec<Range<usize>>> {
        match &wrapper.flow {
            Flow::Request(calls) => calls.clone(),
            Flow::Elsewhere => None,
            Flow::Inside(ranges) if depth < 64 => {
                let mut calls = Vec::new();
                for range in ranges {
                    let outer = self
                        .wrappers
                        .iter()
                        .find(|w| w.range == *range && w.range != wrapper.range)?;
                    calls.extend(self.requests_of(outer, depth + 1)?);
                }
                Some(calls)
            }
            Flow::Inside(_) => None,
        }
    }
}

impl Facts {
    /// The nests of wrappers: for each wrapper (by index), a number its nest shares, the
    /// wrappers joined by one going into another (`types.Content(parts=[types.Part(...)])`,
    /// directly or through a name) being one nest. Python's typed wrappers take typed fields
    /// and its dicts plain ones: a nest is written as dicts together or stays typed together.
    pub fn wrapper_nests(&self) -> Vec<usize> {
        // Each wrapper points to a lower index of its nest, or to itself at the nest's root.
        fn root(nest: &[usize], mut i: usize) -> usize {
            while let Some(&up) = nest.get(i).filter(|&&up| up < i) {
                i = up;
            }
            i
        }
        let at: std::collections::HashMap<&Range<usize>, usize> = self
            .wrappers
            .iter()
            .enumerate()
            .map(|(i, w)| (&w.range, i))
            .collect();
        let mut nest: Vec<usize> = (0..self.wrappers.len()).collect();
        for (i, wrapper) in self.wrappers.iter().enumerate() {
            let Flow::Inside(outers) = &wrapper.flow else {
                continue;
            };
            for outer in outers.iter().filter_map(|range| at.get(range)) {
                let (a, b) = (root(&nest, i), root(&nest, *outer));
                if let Some(slot) = nest.get_mut(a.max(b)) {
                    *slot = a.min(b);
                }
            }
        }
        (0..nest.len()).map(|i| root(&nest, i)).collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapperKind {
    /// A typed class built from its fields: `types.Part(text=...)`, `new Content({...})`.
    Class,
    /// A factory function or method: `Part.from_text(...)`, `createPartFromText(...)`.
    Factory,
    /// A member of a typed enum: `Type.STRING`, `SchemaType.OBJECT`.
    Enum,
}

/// An import statement of a client package.
#[derive(Clone, Debug)]
pub struct Import {
    /// The module path as written (`google.genai`, `google.generativeai`, `@google/genai`).
    pub module: String,
    pub statement: Range<usize>,
    /// Where the finding points (the module name).
    pub module_range: Range<usize>,
    /// For `from google.genai import types`: the typed-wrapper module import and whether
    /// anything uses it.
    pub types: Option<TypesImport>,
}

#[derive(Clone, Debug)]
pub struct TypesImport {
    /// The bound name (`types`, or its alias).
    pub binding: String,
    /// The imported name with its alias, and its separator, for removal.
    pub name_range: Range<usize>,
    pub removal: Range<usize>,
    pub used: bool,
}

/// The statement's lines when it stands alone on them (to delete it whole), else the statement.
pub fn line_removal(text: &str, range: Range<usize>) -> Range<usize> {
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let before_blank = text[line_start..range.start].trim().is_empty();
    let rest = &text[range.end..];
    let line_end = rest.find('\n').map_or(text.len(), |i| range.end + i + 1);
    let after_blank = text[range.end..line_end].trim().is_empty();
    if before_blank && after_blank {
        line_start..line_end
    } else {
        range
    }
}

/// The indentation of the line holding `offset`.
pub fn line_indent(text: &str, offset: usize) -> String {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..offset]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// A raw HTTP request to the service, or a request body written on its own (a JSON file).
#[derive(Clone, Debug)]
pub struct HttpRequest {
    /// The whole request as written (the curl command, the REST-client block, the call chain).
    pub range: Range<usize>,
    /// The URL as written, when the request names one.
    pub url: Option<Range<usize>>,
    /// The names of the headers the request sends, as written.
    pub headers: Vec<String>,
    /// How a header is added: where, and the text with `{name}` and `{value}` to fill in;
    /// `None` when the surface cannot add one.
    pub header_insert: Option<(usize, String)>,
    pub body: Body,
    /// The URL's model written as a value of the body (`"gemini-2.0-flash"`, `"'"$MODEL"'"`,
    /// `model`), when it can be.
    pub model_value: Option<String>,
    /// Further edits moving the model out of the URL (the argument of `format!` that held it).
    pub url_edits: Vec<(Range<usize>, String)>,
}

impl HttpRequest {
    /// A request body written on its own (a JSON file, a JSON code block).
    pub fn body_alone(range: Range<usize>, body: Body) -> Self {
        HttpRequest {
            range,
            url: None,
            headers: Vec::new(),
            header_insert: None,
            body,
            model_value: None,
            url_edits: Vec::new(),
        }
    }

    pub fn has_header(&self, name: &str) -> bool {
        self.headers.iter().any(|h| h.eq_ignore_ascii_case(name))
    }
}

/// The body of a raw HTTP request.
#[derive(Clone, Debug)]
pub enum Body {
    None,
    /// A JSON object the surface read; its entries are the call `call` of `Facts::calls`.
    Json(JsonBody),
    /// Read from a file (`-d @request.json`), named here.
    File(String),
    /// Something the surface could not read as JSON, and why.
    Unknown(String),
}

#[derive(Clone, Debug)]
pub struct JsonBody {
    /// The index of the body's call in `Facts::calls`.
    pub call: usize,
    /// Where the object's first entry goes (just after `{`).
    pub open: usize,
    /// Ranges of the document where the body's text is written literally: an edit of the body
    /// must lie within one of them.
    pub literal: Vec<Range<usize>>,
    /// Characters an edit of the body may not write (a `'` in a single-quoted shell string).
    pub forbidden: &'static str,
}

impl Facts {
    /// Records a request body's call and returns the body, written literally in `literal`.
    pub fn push_body(&mut self, call: Call, literal: Vec<Range<usize>>, forbidden: &'static str) -> Body {
        let open = call.range.start + 1;
        self.calls.push(call);
        Body::Json(JsonBody {
            call: self.calls.len() - 1,
            open,
            literal,
            forbidden,
        })
    }
}

impl JsonBody {
    /// Whether an edit of the body (in the document `text`) can be written as it is: within
    /// one literal range; or across splices between them (`'$file_uri'`, a variable between two
    /// quoted pieces) when it begins and ends in literal text and carries each splice it covers
    /// as written, once. Its own text never holds a forbidden character.
    pub fn allows(&self, range: &Range<usize>, content: &str, text: &str) -> bool {
        let forbidden = |written: &str| written.contains(|c| self.forbidden.contains(c));
        let mut literal = self.literal.clone();
        literal.sort_by_key(|l| l.start);
        let inside = |at: usize| literal.iter().any(|l| l.start <= at && at <= l.end);
        if !inside(range.start) || !inside(range.end) {
            return false;
        }
        let mut own = content.to_string();
        for hole in literal.windows(2).map(|w| w[0].end..w[1].start) {
            if hole.is_empty() || hole.end <= range.start || range.end <= hole.start {
                continue;
            }
            let Some(splice) = text
                .get(hole.clone())
                .filter(|_| range.start <= hole.start && hole.end <= range.end)
            else {
                return false;
            };
            let Some(at) = own.find(splice) else {
                return false;
            };
            own.replace_range(at..at + splice.len(), "");
        }
        !forbidden(&own)
    }
}

/// One binding of the legacy client package (`import google.generativeai as genai`) and
/// everything done through it: migrated as a whole or not at all, since the new import no longer
/// has the legacy names. The unit says what is there and where; the code replacing it is
/// written by `codegen::legacy`.
#[derive(Clone, Debug, Default)]
pub struct LegacyUnit {
    /// The legacy import statement, and how it names the package (`None` while the unit is
    /// blocked before that is known).
    pub import: Range<usize>,
    pub imported: Option<LegacyImport>,
    /// Further statements importing the package under the same name (a notebook's sections each
    /// import it), rewritten as the first is.
    pub repeated_imports: Vec<Range<usize>>,
    /// Where the client of the current package is created (`None` while the unit is blocked
    /// before that is known).
    pub client: Option<ClientSite>,
    /// The client's name in the new code.
    pub client_name: String,
    /// Statements to delete: the model constructors, inlined bindings.
    pub removals: Vec<Range<usize>>,
    pub requests: Vec<LegacyRequest>,
    /// Every create-content call made through the unit, migrated or not.
    pub calls: Vec<Range<usize>>,
    /// The other clients made with the legacy class (JavaScript makes one per `new`), made
    /// with the current class instead.
    pub other_clients: Vec<LegacyClient>,
    /// The models' token counts, made through the client's models instead.
    pub counts: Vec<LegacyCount>,
    /// The legacy module's file functions called (`genai.upload_file(...)`), made through the
    /// client's files instead.
    pub files: Vec<LegacyFilesCall>,
    /// A legacy file object deleted through its own method (`myfile.delete()`): the call, and
    /// the object's name; deleted through the client's files instead
    /// (`client.files.delete(name=myfile.name)`).
    pub file_deletions: Vec<(Range<usize>, String)>,
    /// A legacy result's `.response` read (from the end of the result to the end of
    /// `.response`), dropped: the interaction is the response itself.
    pub responses: Vec<Range<usize>>,
    /// Where the legacy answer is read (`result.response.text()`), replaced by the
    /// interaction's answer.
    pub answers: Vec<AnswerRead>,
    /// A streamed request's loops over its chunks (JavaScript: `for await (const chunk of
    /// result.stream)`): each chunk's text read, after the chunk (`.text()`), becomes the text
    /// delta's, and the loop's body starts by skipping other events.
    pub stream_loops: Vec<LegacyStreamLoop>,
    /// The legacy chats (`chat = model.start_chat()`) whose turns are among the requests.
    pub chats: Vec<LegacyChat>,
    /// Why the unit cannot be migrated automatically.
    pub blocked: Option<String>,
}

/// A legacy chat whose turns (`chat.send_message(x)`) are requests of its unit, each naming the
/// previous turn's interaction.
#[derive(Clone, Debug, Default)]
pub struct LegacyChat {
    /// The statement making the chat (`chat = model.start_chat()`).
    pub statement: Range<usize>,
    /// Every turn runs once, in order, after the chat in its statement list: each names the
    /// previous turn's result, and the chat's statement goes. Otherwise the statement becomes a
    /// name holding the previous interaction's id, which each turn passes and updates after.
    pub straight: bool,
    /// That name (`chat_id`).
    pub id_name: String,
    /// Each turn's statement and the name its result is bound to, for the id's update after it
    /// (when not straight).
    pub updates: Vec<(Range<usize>, String)>,
    /// Names declared before a turn's statement: the name a streamed turn's events give its id
    /// to (`let resultId;`), when straight.
    pub declarations: Vec<(Range<usize>, String)>,
}

/// A loop over a legacy stream's chunks (see [`LegacyUnit::stream_loops`]).
#[derive(Clone, Debug, Default)]
pub struct LegacyStreamLoop {
    pub chunk: String,
    /// Just after the body's `{`, and the indent of its statements.
    pub body_start: usize,
    pub indent: String,
    /// What follows the chunk where its text is read (`.text()`).
    pub texts: Vec<Range<usize>>,
    /// The name taking the interaction's id from its `interaction.created` event, for a chat's
    /// next turn to name (a streamed turn's id comes in its events).
    pub capture: Option<String>,
}

/// How a legacy import names the package, for the import of the current package in its place.
#[derive(Clone, Debug)]
pub enum LegacyImport {
    /// Python's `import google.generativeai as name`: the current package's module is imported
    /// under the same name.
    Module { name: String },
    /// JavaScript's import or `require` of the legacy class, rewritten within the statement as
    /// written: where the class's exported name and the package's name (within its quotes) are,
    /// and the name the class is bound to when it is not the class's own (`{ GoogleGenerativeAI
    /// as G }`), which the current class is bound to as well.
    Class {
        class: Range<usize>,
        package: Range<usize>,
        alias: Option<String>,
    },
}

/// A legacy answer read, `result.response.text()`: where the expression starts (at `result`),
/// and what follows the result (`.response.text()`), which the interaction's answer path
/// replaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerRead {
    pub start: usize,
    pub suffix: Range<usize>,
}

/// Where a unit's client of the current package is created.
#[derive(Clone, Debug)]
pub enum ClientSite {
    /// On a line of its own just after the import, indented like it (Python, where the legacy
    /// package is not configured).
    AfterImport,
    /// The legacy `configure` call (`genai.configure(api_key=K)`), whose callee is replaced so
    /// that the call creates the client with the same arguments.
    Configure { callee: Range<usize> },
    /// The legacy client made with `new` (JavaScript), made with the current class instead.
    New(LegacyClient),
}

/// A legacy client made with `new GoogleGenerativeAI(KEY)`.
#[derive(Clone, Debug)]
pub struct LegacyClient {
    /// The `new` expression.
    pub creation: Range<usize>,
    /// Its one argument, the API key, as written; `None` when it has none.
    pub key: Option<Range<usize>>,
}

/// A legacy model's token count (`model.count_tokens(x)`), made through a client's models.
#[derive(Clone, Debug)]
pub struct LegacyCount {
    /// The call.
    pub call: Range<usize>,
    /// The client it goes through, when not the unit's own (the model's, in JavaScript).
    pub client: Option<String>,
    /// The model id as it is written in the new call.
    pub model: String,
    /// The contents counted, as written.
    pub contents: Range<usize>,
}

/// A call of one of the legacy module's file functions (`genai.upload_file(path,
/// mime_type=...)`).
#[derive(Clone, Debug)]
pub struct LegacyFilesCall {
    /// The call.
    pub call: Range<usize>,
    pub function: FilesFunction,
    /// Its arguments in order, as written: the file (a path to upload, the name of an uploaded
    /// file) with `None`, or a setting with its key (`mime_type`).
    pub arguments: Vec<(Option<String>, Range<usize>)>,
}

/// The legacy module's file functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilesFunction {
    /// `upload_file`
    Upload,
    /// `get_file`
    Get,
    /// `delete_file`
    Delete,
    /// `list_files`
    List,
}

/// One create-content call of a legacy model, with the model's settings merged.
#[derive(Clone, Debug)]
pub struct LegacyRequest {
    /// The call (as the [`Call`] of the same request has it).
    pub call: Range<usize>,
    /// The callee to replace (`model.generate_content`) by a method of the client.
    pub callee: Range<usize>,
    /// Called as `generate_content_async`: the client's asynchronous method replaces it.
    pub asynchronous: bool,
    /// The client it goes through, when not the unit's own (one client per `new` in JavaScript).
    pub client: Option<String>,
    /// The arguments as written (first to last), replaced by the new ones.
    pub arguments: Range<usize>,
    /// The argument list with its parentheses.
    pub parens: Range<usize>,
    /// The model id as it is written in the new call.
    pub model: String,
    pub contents: Value,
    /// The model's and the call's settings as one config (`generation_config`'s entries,
    /// `system_instruction`, `tools`, ...), to be placed by the request-field table.
    pub config: MapValue,
    /// The model id when it is a literal (whether it is of the newest generation).
    pub model_id: Option<String>,
    /// Called with `stream=True`: the interactions call streams too.
    pub stream: bool,
    /// A chat's turn: the previous interaction's id as the call passes it (`response.id`,
    /// `chat_id`), when there is one.
    pub previous: Option<String>,
    /// The first turn of a chat started from a history written in its creation: the history's
    /// turns, sent before the turn's message.
    pub history: Vec<Value>,
    /// The request's timeout as written (`request_options={"timeout": 600}`, in seconds), which
    /// the interactions call takes as its own `timeout`.
    pub timeout: Option<String>,
}

/// `written` (an expression, `await` before it at most) as an upload of a file to the service
/// (`client.files.upload(...)`, the legacy `genai.upload_file(...)`): the call, without `await`.
pub fn upload_call(written: &str) -> Option<&str> {
    let call = written
        .trim()
        .strip_prefix("await")
        .unwrap_or(written.trim())
        .trim_start();
    (call.contains("files.upload(") || call.contains("upload_file(")).then_some(call)
}

/// A legacy model's id as the new call writes it: a `models/` prefix dropped (a literal is
/// rewritten, anything else written as is), and the bare id when it is known; a tuned model
/// (`tunedModels/...`) has no interactions counterpart.
pub fn legacy_model_text(
    id: Option<&str>,
    written: &str,
    literal: bool,
) -> Result<(String, Option<String>), String> {
    let Some(id) = id else {
        return Ok((written.to_string(), None));
    };
    if id.starts_with("tunedModels/") {
        return Err(format!("the model is the tuned model `{id}`"));
    }
    let bare = id.strip_prefix("models/").unwrap_or(id).to_string();
    if literal && bare != id {
        Ok((serde_json::Value::String(bare.clone()).to_string(), Some(bare)))
    } else {
        Ok((written.to_string(), Some(bare)))
    }
}

/// A class name as written (`Recipe`): a schema class, most likely, in a `response_schema`.
pub fn is_class_name(written: &str) -> bool {
    written.starts_with(|c: char| c.is_ascii_uppercase())
        && written.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The item type of a Python list type as written (`list[Recipe]`, `List[Recipe]`,
/// `typing.List[Recipe]` → `Recipe`).
pub fn list_item_type(written: &str) -> Option<&str> {
    Some(
        ["list[", "List[", "typing.List["]
            .iter()
            .find_map(|p| written.trim().strip_prefix(p))?
            .strip_suffix(']')?
            .trim(),
    )
}
