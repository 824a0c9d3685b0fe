//! A JSON scanner that keeps every span: each object, array, string, number and literal with its
//! byte range, each member with its key, the comments (`//` and `/* */`, accepted in every JSON
//! document, as tree-sitter-json accepted them) and a count of syntax errors.
//!
//! The language is tree-sitter-json's: a document is any number of values (JSON Lines too),
//! a string may not hold a line break, an escape is `\` and one of `"\/bfnrtu`, a number is
//! `-?(0|[1-9][0-9]*)(\.[0-9]*)?([eE]-?[0-9]+)?`, whitespace is ASCII's. What is not JSON is an
//! error: an empty slot (`{ , }`, `[1,,2]`), a trailing comma, a missing comma or colon, an
//! unterminated string or container, a byte no token starts with. The scanner goes on after
//! an error, so a truncated file still gives the values it holds.
//!
//! Containers are kept on an explicit stack (nesting depth costs heap, never stack), and a tree
//! is dropped without recursion. This file depends on nothing else in the crate (the parser
//! bench builds it on its own).

use std::ops::Range;

/// A parsed JSON text.
#[derive(Debug, Default)]
pub struct Json {
    /// The top-level values, in order; text that is no value gives an [`Kind::Error`] node.
    pub values: Vec<Node>,
    /// Every comment, in order.
    pub comments: Vec<Range<usize>>,
    /// Every string token (keys too), quotes included, in order.
    pub strings: Vec<Range<usize>>,
    /// Syntax errors: a run of text that cannot be read counts once.
    pub errors: usize,
}

/// A value, or a run of text that is none (`Kind::Error`).
#[derive(Debug)]
pub struct Node {
    pub range: Range<usize>,
    pub kind: Kind,
    /// Whether the node holds a syntax error (or is one).
    pub has_error: bool,
}

#[derive(Debug)]
pub enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    /// Quotes included in the node's range.
    String,
    Number,
    True,
    False,
    Null,
    Error,
}

/// An element of an object: a key and its value, or (an error) a part of them, or neither.
#[derive(Debug)]
pub struct Member {
    pub range: Range<usize>,
    pub key: Option<Node>,
    pub value: Option<Node>,
    /// A pair with no comma after it before the next (tree-sitter-json made it an error).
    pub error: bool,
}

impl Member {
    /// The key and value of a member that has both and is no error.
    pub fn pair(&self) -> Option<(&Node, &Node)> {
        match (&self.key, &self.value) {
            (Some(key), Some(value)) if key.is_string() && !self.error => Some((key, value)),
            _ => None,
        }
    }
}

impl Node {
    pub fn is_object(&self) -> bool {
        matches!(self.kind, Kind::Object(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self.kind, Kind::Array(_))
    }

    pub fn is_string(&self) -> bool {
        matches!(self.kind, Kind::String)
    }

    /// The members of an object (none for another value).
    pub fn members(&self) -> &[Member] {
        match &self.kind {
            Kind::Object(members) => members,
            _ => &[],
        }
    }

    /// The items of an array (none for another value).
    pub fn items(&self) -> &[Node] {
        match &self.kind {
            Kind::Array(items) => items,
            _ => &[],
        }
    }

    /// The node's text.
    pub fn text<'a>(&self, text: &'a str) -> &'a str {
        text.get(self.range.clone()).unwrap_or_default()
    }

    /// Between a string's quotes (the range less its first and last byte).
    pub fn inner(&self) -> Range<usize> {
        let start = (self.range.start + 1).min(self.range.end);
        start..self.range.end.saturating_sub(1).max(start)
    }

    /// Moves the child nodes out: an object's keys and values, an array's items.
    fn take_children(&mut self, out: &mut Vec<Node>) {
        match &mut self.kind {
            Kind::Object(members) => {
                for member in members.drain(..) {
                    out.extend(member.key);
                    out.extend(member.value);
                }
            }
            Kind::Array(items) => out.append(items),
            _ => {}
        }
    }
}

impl Drop for Node {
    /// Without recursion: a document nested 200,000 deep drops as a flat one does.
    fn drop(&mut self) {
        let mut stack = Vec::new();
        self.take_children(&mut stack);
        while let Some(mut node) = stack.pop() {
            node.take_children(&mut stack);
        }
    }
}

/// A node's place in its parent, on the way down from a document's values.
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// The key of a member of an object.
    Key(&'a Node, &'a Member),
    /// The value of a member of an object.
    Value(&'a Node, &'a Member),
    /// An item of an array.
    Item(&'a Node),
    /// A top-level value.
    Top,
}

impl Json {
    /// The single top-level value, when it is an object.
    pub fn root_object(&self) -> Option<&Node> {
        match self.values.as_slice() {
            [only] if only.is_object() => Some(only),
            _ => None,
        }
    }

    /// The nodes holding `range` from the top down, each with its place in its parent: at each
    /// level the first node (in document order) that starts at or before its start, ends at or
    /// after its end and ends after its start (as tree-sitter's descendant_for_byte_range).
    pub fn path(&self, range: Range<usize>) -> Vec<(&Node, Step<'_>)> {
        let holds = |node: &Node| {
            node.range.start <= range.start && node.range.end >= range.end && node.range.end > range.start
        };
        let mut path = Vec::new();
        let Some(mut node) = first_holding(&self.values, range.start, &holds) else {
            return path;
        };
        path.push((node, Step::Top));
        loop {
            let next = match &node.kind {
                Kind::Object(members) => {
                    let from = members.partition_point(|m| m.range.end <= range.start);
                    members[from..]
                        .iter()
                        .take_while(|m| m.range.start <= range.start)
                        .find_map(|m| {
                            if let Some(key) = m.key.as_ref().filter(|k| holds(k)) {
                                return Some((key, Step::Key(node, m)));
                            }
                            m.value
                                .as_ref()
                                .filter(|v| holds(v))
                                .map(|v| (v, Step::Value(node, m)))
                        })
                }
                Kind::Array(items) => {
                    first_holding(items, range.start, &holds).map(|item| (item, Step::Item(node)))
                }
                _ => None,
            };
            match next {
                Some((child, step)) => {
                    path.push((child, step));
                    node = child;
                }
                None => return path,
            }
        }
    }

    /// The object whose range is `range`.
    pub fn object_at(&self, range: Range<usize>) -> Option<&Node> {
        self.path(range.clone())
            .into_iter()
            .map(|(node, _)| node)
            .find(|n| n.range == range && n.is_object())
    }

    /// Whether `pos` lies strictly inside a string token.
    pub fn inside_string(&self, pos: usize) -> bool {
        let i = self.strings.partition_point(|s| s.end <= pos);
        self.strings.get(i).is_some_and(|s| s.start < pos && pos < s.end)
    }
}

/// The first of `nodes` (sorted, disjoint) that `holds` accepts among those that may hold `at`.
fn first_holding<'a>(nodes: &'a [Node], at: usize, holds: &dyn Fn(&Node) -> bool) -> Option<&'a Node> {
    let from = nodes.partition_point(|n| n.range.end <= at);
    nodes[from..]
        .iter()
        .take_while(|n| n.range.start <= at)
        .find(|n| holds(n))
}

/// The kinds of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    OpenBrace,
    CloseBrace,
    OpenBracket,
    CloseBracket,
    Colon,
    Comma,
    String,
    Number,
    True,
    False,
    Null,
    Comment,
    /// One character no token starts with.
    Junk,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub range: Range<usize>,
    /// A string with an escape JSON has not, or without its closing quote.
    pub error: bool,
}

/// The tokens of a text, whitespace left out and the bytes of `skip` (sorted, disjoint) read
/// as whitespace.
pub struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
    skip: &'a [Range<usize>],
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str, skip: &'a [Range<usize>]) -> Self {
        Tokens {
            bytes: text.as_bytes(),
            at: 0,
            skip,
        }
    }

    /// The end of the string opening at `start`, and whether it has an error.
    fn string(&self, start: usize) -> (usize, bool) {
        let bytes = self.bytes;
        let mut i = start + 1;
        let mut error = false;
        loop {
            let Some(found) = bytes
                .get(i..)
                .and_then(|rest| memchr::memchr3(b'"', b'\\', b'\n', rest))
            else {
                return (bytes.len(), true);
            };
            i += found;
            match bytes[i] {
                b'"' => return (i + 1, error),
                b'\\' => match bytes.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u') => i += 2,
                    // The escape's character is read as content.
                    _ => {
                        error = true;
                        i += 1;
                    }
                },
                // A line break ends the string without its closing quote.
                _ => return (i, true),
            }
        }
    }

    fn number(&self, start: usize) -> Option<usize> {
        let bytes = self.bytes;
        let digits = |mut i: usize| {
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = start;
        if bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        i = match bytes.get(i) {
            Some(b'0') => i + 1,
            Some(b'1'..=b'9') => digits(i + 1),
            _ => return None,
        };
        if bytes.get(i) == Some(&b'.') {
            i = digits(i + 1);
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if bytes.get(j) == Some(&b'-') {
                j += 1;
            }
            let end = digits(j);
            if end > j {
                i = end;
            }
        }
        Some(i)
    }

    fn comment(&self, start: usize) -> Option<usize> {
        let bytes = self.bytes;
        match bytes.get(start + 1) {
            Some(b'/') => Some(memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |n| start + n)),
            Some(b'*') => memchr::memmem::find(bytes.get(start + 2..)?, b"*/").map(|e| start + 2 + e + 2),
            _ => None,
        }
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let bytes = self.bytes;
        loop {
            if let Some(gap) = self.skip.first()
                && gap.start <= self.at
            {
                self.at = self.at.max(gap.end);
                self.skip = &self.skip[1..];
                continue;
            }
            match bytes.get(self.at) {
                Some(b'\t'..=b'\r' | b' ') => self.at += 1,
                Some(_) => break,
                None => return None,
            }
        }
        let start = self.at;
        let one = |kind| (kind, start + 1, false);
        let (kind, end, error) = match bytes[start] {
            b'{' => one(TokenKind::OpenBrace),
            b'}' => one(TokenKind::CloseBrace),
            b'[' => one(TokenKind::OpenBracket),
            b']' => one(TokenKind::CloseBracket),
            b':' => one(TokenKind::Colon),
            b',' => one(TokenKind::Comma),
            b'"' => {
                let (end, error) = self.string(start);
                (TokenKind::String, end, error)
            }
            b'-' | b'0'..=b'9' => match self.number(start) {
                Some(end) => (TokenKind::Number, end, false),
                None => one(TokenKind::Junk),
            },
            b't' if bytes[start..].starts_with(b"true") => (TokenKind::True, start + 4, false),
            b'f' if bytes[start..].starts_with(b"false") => (TokenKind::False, start + 5, false),
            b'n' if bytes[start..].starts_with(b"null") => (TokenKind::Null, start + 4, false),
            b'/' => match self.comment(start) {
                Some(end) => (TokenKind::Comment, end, false),
                None => one(TokenKind::Junk),
            },
            b => (TokenKind::Junk, start + utf8_len(b), false),
        };
        let end = end.min(bytes.len());
        self.at = end;
        Some(Token {
            kind,
            range: start..end,
            error,
        })
    }
}

/// The length of the UTF-8 character that starts with byte `b`.
fn utf8_len(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// Where a container is between its tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// After the opening bracket.
    Open,
    /// After a comma.
    Comma,
    /// After an item, or a member's value.
    Value,
    /// After a member's key.
    Key,
    /// After a member's colon.
    Colon,
}

struct Frame {
    start: usize,
    object: bool,
    state: State,
    members: Vec<Member>,
    items: Vec<Node>,
    key: Option<Node>,
    has_error: bool,
    /// The end of the last token read in the container.
    last_end: usize,
    /// The last element is an error that the next junk extends.
    junk: bool,
    /// Where the last comma after an element is (`None` when it is an error element).
    comma: Option<usize>,
}

struct Parser {
    stack: Vec<Frame>,
    json: Json,
    /// In a run of errors: the next error is the same one.
    in_error: bool,
    /// The last top-level value is an error that the next junk extends.
    top_junk: bool,
}

/// Parses a JSON text.
pub fn parse(text: &str) -> Json {
    parse_skipping(text, &[])
}

/// Parses a JSON text read without the bytes of `skip` (sorted, disjoint ranges, each read as
/// whitespace): every range stays the text's.
pub fn parse_skipping(text: &str, skip: &[Range<usize>]) -> Json {
    let mut parser = Parser {
        stack: Vec::new(),
        json: Json::default(),
        in_error: false,
        top_junk: false,
    };
    for token in Tokens::new(text, skip) {
        parser.token(token);
    }
    // Containers left open: what they hold so far.
    while let Some(end) = parser.stack.last().map(|f| f.last_end) {
        parser.error();
        parser.close(end);
    }
    parser.json
}

impl Parser {
    fn error(&mut self) {
        if !self.in_error {
            self.json.errors += 1;
        }
        self.in_error = true;
        if let Some(frame) = self.stack.last_mut() {
            frame.has_error = true;
        }
    }

    fn token(&mut self, token: Token) {
        let Token { kind, range, error } = token;
        if kind == TokenKind::Comment {
            self.json.comments.push(range);
            return;
        }
        if let Some(frame) = self.stack.last_mut() {
            frame.last_end = range.end;
        }
        if kind != TokenKind::Junk {
            self.top_junk = false;
            if let Some(frame) = self.stack.last_mut() {
                frame.junk = false;
            }
        }
        let scalar = |kind| Node {
            range: range.clone(),
            kind,
            has_error: error,
        };
        match kind {
            TokenKind::String => {
                self.json.strings.push(range.clone());
                if error {
                    self.error();
                }
                self.expect(true);
                self.deliver(scalar(Kind::String));
            }
            TokenKind::Number | TokenKind::True | TokenKind::False | TokenKind::Null => {
                self.expect(false);
                self.deliver(scalar(match kind {
                    TokenKind::Number => Kind::Number,
                    TokenKind::True => Kind::True,
                    TokenKind::False => Kind::False,
                    _ => Kind::Null,
                }));
            }
            TokenKind::OpenBrace | TokenKind::OpenBracket => {
                self.expect(false);
                self.stack.push(Frame {
                    start: range.start,
                    object: kind == TokenKind::OpenBrace,
                    state: State::Open,
                    members: Vec::new(),
                    items: Vec::new(),
                    key: None,
                    has_error: false,
                    last_end: range.end,
                    junk: false,
                    comma: None,
                });
            }
            TokenKind::CloseBrace | TokenKind::CloseBracket => {
                let object = kind == TokenKind::CloseBrace;
                match self.stack.iter().rposition(|f| f.object == object) {
                    Some(at) => {
                        // Containers left open inside it end where their text does.
                        while self.stack.len() > at + 1 {
                            self.error();
                            let end = self.stack.last().map_or(0, |f| f.last_end);
                            self.close(end);
                        }
                        self.close(range.end);
                    }
                    None => self.junk(range),
                }
            }
            TokenKind::Comma => {
                let Some(frame) = self.stack.last_mut() else {
                    return self.junk(range);
                };
                match frame.state {
                    State::Value => {
                        frame.state = State::Comma;
                        frame.comma = Some(range.start);
                        self.in_error = false;
                    }
                    State::Open | State::Comma => {
                        // An empty slot: the comma is an error element.
                        frame.stray_comma(range.start);
                        frame.comma = None;
                        frame.state = State::Comma;
                        self.error();
                    }
                    State::Key | State::Colon => {
                        frame.incomplete_member(range.start);
                        frame.comma = None;
                        frame.state = State::Comma;
                        self.error();
                    }
                }
            }
            TokenKind::Colon => match self.stack.last_mut() {
                Some(frame) if frame.state == State::Key => {
                    frame.state = State::Colon;
                    self.in_error = false;
                }
                _ => self.junk(range),
            },
            TokenKind::Junk | TokenKind::Comment => self.junk(range),
        }
    }

    /// Text that is no token of its place: an error element, which the junk after it extends.
    fn junk(&mut self, range: Range<usize>) {
        self.error();
        let error = || Node {
            range: range.clone(),
            kind: Kind::Error,
            has_error: true,
        };
        let Some(frame) = self.stack.last_mut() else {
            match self.json.values.last_mut() {
                Some(last) if self.top_junk => last.range.end = range.end,
                _ => self.json.values.push(error()),
            }
            self.top_junk = true;
            return;
        };
        if frame.junk {
            if frame.object {
                if let Some(last) = frame.members.last_mut() {
                    last.range.end = range.end;
                }
            } else if let Some(last) = frame.items.last_mut() {
                last.range.end = range.end;
            }
        } else if frame.object {
            let member = match frame.key.take() {
                Some(key) => Member {
                    range: key.range.start..range.end,
                    key: Some(key),
                    value: None,
                    error: true,
                },
                None => Member {
                    range: range.clone(),
                    key: None,
                    value: None,
                    error: true,
                },
            };
            frame.members.push(member);
            frame.state = State::Value;
        } else {
            frame.items.push(error());
            frame.state = State::Value;
        }
        frame.junk = true;
    }

    /// A value starts: an error where the container wants no value (or, in an object, no key).
    fn expect(&mut self, string: bool) {
        let Some(frame) = self.stack.last() else {
            self.in_error = false;
            return;
        };
        let ok = match (frame.object, frame.state) {
            (false, State::Open | State::Comma) => true,
            (true, State::Open | State::Comma) => string,
            (true, State::Colon) => true,
            _ => false,
        };
        if ok {
            self.in_error = false;
        } else {
            self.error();
        }
    }

    /// A whole value goes to its container (where [`Parser::expect`] placed it).
    fn deliver(&mut self, node: Node) {
        let Some(frame) = self.stack.last_mut() else {
            self.json.values.push(node);
            return;
        };
        if node.has_error {
            frame.has_error = true;
        }
        if !frame.object {
            frame.items.push(node);
            frame.state = State::Value;
            return;
        }
        if frame.state == State::Value
            && let Some(previous) = frame.members.last_mut()
        {
            // No comma between two members: the first is an error.
            previous.error = true;
        }
        match frame.state {
            State::Open | State::Comma | State::Value if node.is_string() => {
                frame.key = Some(node);
                frame.state = State::Key;
            }
            State::Open | State::Comma | State::Value => {
                frame.members.push(Member {
                    range: node.range.clone(),
                    key: None,
                    value: Some(node),
                    error: true,
                });
                frame.state = State::Value;
            }
            State::Key | State::Colon => {
                let key = frame.key.take();
                let start = key.as_ref().map_or(node.range.start, |k| k.range.start);
                frame.members.push(Member {
                    range: start..node.range.end,
                    key,
                    value: Some(node),
                    error: false,
                });
                frame.state = State::Value;
            }
        }
    }

    /// Closes the innermost container at `end` and gives it to its own.
    fn close(&mut self, end: usize) {
        let Some(mut frame) = self.stack.pop() else {
            return;
        };
        match frame.state {
            State::Open | State::Value => {}
            // A trailing comma: an error element (unless it is one already).
            State::Comma => {
                if let Some(at) = frame.comma {
                    frame.stray_comma(at);
                }
                self.closing_error(&mut frame);
            }
            State::Key | State::Colon => {
                frame.incomplete_member(end.saturating_sub(1));
                self.closing_error(&mut frame);
            }
        }
        let kind = if frame.object {
            Kind::Object(std::mem::take(&mut frame.members))
        } else {
            Kind::Array(std::mem::take(&mut frame.items))
        };
        let node = Node {
            range: frame.start..end,
            kind,
            has_error: frame.has_error,
        };
        if let Some(parent) = self.stack.last_mut() {
            parent.last_end = end;
            parent.junk = false;
        }
        self.deliver(node);
    }

    /// An error found on closing `frame` (no longer on the stack).
    fn closing_error(&mut self, frame: &mut Frame) {
        if !self.in_error {
            self.json.errors += 1;
        }
        self.in_error = true;
        frame.has_error = true;
    }
}

impl Frame {
    /// A comma with no element before it, or none after it before the closing bracket.
    fn stray_comma(&mut self, at: usize) {
        let range = at..at + 1;
        if self.object {
            self.members.push(Member {
                range,
                key: None,
                value: None,
                error: true,
            });
        } else {
            self.items.push(Node {
                range,
                kind: Kind::Error,
                has_error: true,
            });
        }
    }

    /// A key with no value (`{"a"}`, `{"a": }`), ended at `end`.
    fn incomplete_member(&mut self, end: usize) {
        if let Some(key) = self.key.take() {
            let end = end.max(key.range.end);
            self.members.push(Member {
                range: key.range.start..end,
                key: Some(key),
                value: None,
                error: true,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values' shapes: `{s:n,}` for an object of one pair, `!` for an error.
    fn shapes(json: &Json) -> String {
        enum Visit<'a> {
            Node(&'a Node),
            Text(&'static str),
        }
        let mut out = String::new();
        let mut stack: Vec<Visit> = Vec::new();
        for v in json.values.iter().rev() {
            stack.push(Visit::Text(" "));
            stack.push(Visit::Node(v));
        }
        while let Some(visit) = stack.pop() {
            let node = match visit {
                Visit::Text(t) => {
                    out.push_str(t);
                    continue;
                }
                Visit::Node(node) => node,
            };
            match &node.kind {
                Kind::Object(members) => {
                    out.push('{');
                    stack.push(Visit::Text("}"));
                    for m in members.iter().rev() {
                        stack.push(Visit::Text(","));
                        match m.pair() {
                            Some((k, v)) => {
                                stack.push(Visit::Node(v));
                                stack.push(Visit::Text(":"));
                                stack.push(Visit::Node(k));
                            }
                            None => stack.push(Visit::Text("!")),
                        }
                    }
                }
                Kind::Array(items) => {
                    out.push('[');
                    stack.push(Visit::Text("]"));
                    for i in items.iter().rev() {
                        stack.push(Visit::Text(","));
                        stack.push(Visit::Node(i));
                    }
                }
                Kind::String => out.push('s'),
                Kind::Number => out.push('n'),
                Kind::True | Kind::False | Kind::Null => out.push('l'),
                Kind::Error => out.push('!'),
            }
        }
        out
    }

    #[test]
    fn valid_documents_have_no_errors() {
        for text in [
            "{}",
            "[]",
            " {\"a\": [1, -2.5e-3, 0, 1., 1.e5, true, false, null, \"x\\n\\u00e9\"], \"b\": {}} ",
            "// c\n{/* c */\"a\" /* c */: 1 // c\n}",
            "{\"a\": 1}\n{\"b\": 2}\n",
            "\"\"",
            "",
        ] {
            let json = parse(text);
            assert_eq!(json.errors, 0, "{text:?}");
            assert!(json.values.iter().all(|v| !v.has_error), "{text:?}");
        }
        let json = parse("// c\n{/* c */\"a\" /* c */: [1, \"b\"] // c\n}");
        assert_eq!(shapes(&json), "{s:[n,s,],} ");
        assert_eq!(json.comments.len(), 4);
        assert_eq!(json.strings, vec![13..16, 30..33]);
    }

    #[test]
    fn what_is_not_json_is_an_error() {
        for text in [
            "{ , }",
            "{\"a\": 1,,\"b\": 2}",
            "{\"a\": 1,}",
            "[1,,2]",
            "[1,]",
            "[,]",
            "[1 2]",
            "{\"a\": 1 \"b\": 2}",
            "{\"a\" 1}",
            "{\"a\": }",
            "{\"a\"}",
            "{1: 2}",
            "{\"a\": \"b}",
            "{\"a\": \"b\nc\"}",
            "[\"\\x\"]",
            "{\"a\": [1, 2}",
            "{\"a\": 1",
            "[1, 2",
            "[}",
            "{\"a\": 1, : 2}",
            "\u{feff}{}",
            "{\"a\": tru}",
            "{\"a\": 1e+5}",
            "{\"a\": 01}",
            "[/* open",
            "['a']",
        ] {
            let json = parse(text);
            assert!(json.errors > 0, "{text:?} accepted");
            assert!(
                json.values.iter().any(|v| v.has_error),
                "{text:?}: no node says so"
            );
        }
        for text in ["}", ",", "]", ":", "\"a", "xyz"] {
            assert!(parse(text).errors > 0, "{text:?} accepted");
        }
    }

    #[test]
    fn recovery_keeps_what_was_read() {
        let json = parse("{\"$schema\": \"x\", \"a\": [1, 2");
        assert_eq!(shapes(&json), "{s:s,s:[n,n,],} ");
        assert!(json.root_object().is_some_and(|r| r.has_error));
        let json = parse("{\"a\": 1,}");
        assert_eq!(shapes(&json), "{s:n,!,} ");
        let json = parse("{\"a\": 1 \"b\": 2}");
        assert_eq!(shapes(&json), "{!,s:n,} ");
        let json = parse("{} xyz");
        assert_eq!(shapes(&json), "{} ! ");
        assert_eq!(json.errors, 1);
        let json = parse("[1, @@@, 2]");
        assert_eq!(shapes(&json), "[n,!,n,] ");
        assert_eq!(json.errors, 1);
        let json = parse("{\"a\": 1, \"b\"}");
        assert_eq!(shapes(&json), "{s:n,!,} ");
    }

    #[test]
    fn paths_find_keys_and_values() {
        let text = "{\"a\": {\"b\": \"model\"}, \"c\": [\"d\"]}";
        let json = parse(text);
        let at = |s: &str| {
            let start = text.find(s).unwrap_or_default();
            start..start + s.len()
        };
        let path = json.path(at("model"));
        assert!(matches!(path.last(), Some((n, Step::Value(_, m)))
            if n.is_string() && m.key.as_ref().is_some_and(|k| k.text(text) == "\"b\"")));
        let path = json.path(at("b"));
        assert!(matches!(path.last(), Some((_, Step::Key(o, _))) if o.members().len() == 1));
        let path = json.path(at("\"d\""));
        assert!(matches!(path.last(), Some((_, Step::Item(_)))));
        assert!(json.object_at(at("{\"b\": \"model\"}")).is_some());
        assert!(json.inside_string(text.find("model").unwrap_or_default()));
        assert!(!json.inside_string(0));
    }

    #[test]
    fn deep_nesting_needs_no_stack() {
        // Far deeper than a test thread's stack could recurse.
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let json = parse(&text);
        assert_eq!(json.errors, 0);
        let open = format!("{}1", "{\"a\":[".repeat(depth));
        let json = parse(&open);
        assert!(json.errors > 0);
        drop(json);
    }

    /// Every range of a tree lies in its text, on character boundaries, and the nodes of each
    /// container are in order.
    fn assert_well_formed(text: &str, json: &Json) {
        let ok = |r: &Range<usize>| r.start <= r.end && text.get(r.clone()).is_some();
        assert!(json.strings.iter().chain(&json.comments).all(ok), "{text:?}");
        let mut stack: Vec<&Node> = json.values.iter().collect();
        while let Some(node) = stack.pop() {
            assert!(ok(&node.range), "{text:?}: {:?}", node.range);
            let mut end = node.range.start;
            for m in node.members() {
                assert!(ok(&m.range) && m.range.start >= end, "{text:?}: {:?}", m.range);
                end = m.range.end;
                stack.extend(m.key.iter().chain(&m.value));
            }
            let mut end = node.range.start;
            for item in node.items() {
                assert!(item.range.start >= end, "{text:?}: {:?}", item.range);
                end = item.range.end;
                stack.push(item);
            }
        }
    }

    proptest::proptest! {
        /// Any text of JSON's characters (and a few others) scans without a panic into a
        /// well-formed tree; when it is JSON, with no error.
        #[test]
        fn any_text_gives_a_well_formed_tree(text in "[\\[\\]{}:,\"\\\\/*a-z0-9 \n\t.eE+é-]{0,48}") {
            let json = parse(&text);
            assert_well_formed(&text, &json);
            if serde_json::from_str::<serde_json::Value>(&text).is_ok() && !text.contains(['/', '\n', '+']) {
                assert_eq!(json.errors, 0, "{text:?}");
            }
        }
    }

    #[test]
    fn any_text_scans() {
        for text in [
            "\"\\",
            "\"\\u",
            "-",
            "1e",
            "/",
            "/*",
            "é",
            "\"é",
            "{\"é\":\"\u{1F600}\"}",
            "\0",
            "{\"a\":\"\\\u{e9}\"}",
        ] {
            let json = parse(text);
            for s in json.strings.iter().chain(&json.comments) {
                assert!(text.get(s.clone()).is_some(), "{text:?}");
            }
        }
    }
}
