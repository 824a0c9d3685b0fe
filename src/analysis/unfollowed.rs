//! Calls of the client libraries' methods on objects interlint does not follow to where they
//! are made (`[unfollowed]` in rules/endpoint.toml): `self.llm.generate_content(...)` where
//! `self.llm` is an object of the application's own subclass of the legacy model,
//! `this.conversationContext.chatSession.sendMessageStream(...)` where the chat is kept in a
//! field, `chat.send_message_stream(...)` where the chat comes from another file. Each is still
//! a finding, with why it is not rewritten; the calls the facts hold (followed to a client) are
//! not these.

use std::ops::Range;

use crate::endpoint::MATCHER;
use crate::lang::{Document, Syntax, ir};

/// What an unfollowed call does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Create,
    Stream,
    /// Makes a chat helper.
    Chat,
    /// Sends a turn of a chat (`stream` for a streamed one).
    Turn {
        stream: bool,
    },
}

/// A call of a client method on an object interlint does not follow.
#[derive(Clone, Debug)]
pub struct Unfollowed {
    pub kind: Kind,
    /// The callee (`self.llm.generate_content`).
    pub callee: Range<usize>,
    /// The object the method is called on, as written (`self.llm`).
    pub receiver: String,
}

/// The document's calls of client methods on objects the facts do not follow; `legacy`: the
/// document imports a legacy client package; `imports_client`: a client package, either.
///
/// Applications wrap the current client in classes of their own with methods of the same names
/// (`this.llmClient.generateContent(...)`, a `GeminiChat.sendMessageStream`), so a call counts
/// only where that is unlikely: in a module importing a legacy client (whose model objects
/// applications subclass or keep in fields), and for a Python chat turn on a chat-named
/// receiver, in a module importing a client or, for a streamed turn (python-genai's own
/// `send_message_stream`), in any module.
pub fn unfollowed(doc: &Document, legacy: bool, imports_client: bool) -> Vec<Unfollowed> {
    let Syntax::Lowered(tree) = &doc.syntax else {
        return Vec::new();
    };
    let facts = doc.facts();
    let python = doc.surface == crate::lang::Surface::Python;
    let table = &MATCHER.endpoint.unfollowed;
    let listed = |list: &[String], name: &str| list.iter().any(|m| m == name);
    // A module that defines a function or method of the name calls its own.
    let defined: Vec<&str> = tree
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            ir::Kind::Function(f) => f.name.as_ref().map(|i| &*i.name),
            _ => None,
        })
        .collect();
    let mut found = Vec::new();
    for node in &tree.nodes {
        let ir::Kind::Call(call) = &node.kind else {
            continue;
        };
        let ir::Kind::Member(member) = tree.kind(call.callee) else {
            continue;
        };
        let name = &*member.name.name;
        let kind = if listed(&table.create, name) {
            Kind::Create
        } else if listed(&table.stream, name) {
            Kind::Stream
        } else if listed(&table.chat, name) {
            Kind::Chat
        } else if listed(&table.turn, name) {
            Kind::Turn { stream: false }
        } else if listed(&table.stream_turn, name) {
            Kind::Turn { stream: true }
        } else {
            continue;
        };
        if defined.contains(&name) {
            continue;
        }
        let counts = match kind {
            Kind::Turn { stream } if python => legacy || imports_client || stream,
            _ => legacy,
        };
        if !counts {
            continue;
        }
        let callee = tree.range(call.callee);
        // Held by the facts: followed to a client, rewritten or reported there.
        if facts
            .calls
            .iter()
            .any(|c| c.callee.start <= callee.start && callee.end <= c.callee.end)
        {
            continue;
        }
        let receiver_range = tree.range(member.object);
        let receiver = doc.text.get(receiver_range).unwrap_or_default().to_string();
        if matches!(receiver.as_str(), "self" | "this" | "super()" | "super" | "cls") {
            continue;
        }
        if matches!(kind, Kind::Turn { .. }) {
            let last = receiver
                .rsplit(['.', '?', ']'])
                .find(|s| !s.is_empty())
                .unwrap_or_default()
                .to_ascii_lowercase();
            if !table.chat_words.iter().any(|w| last.contains(w.as_str())) {
                continue;
            }
        }
        found.push(Unfollowed {
            kind,
            callee,
            receiver,
        });
    }
    found
}
