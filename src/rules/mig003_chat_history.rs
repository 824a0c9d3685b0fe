//! MIG003 chat-history: chat helpers and client-kept history.

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::lang::Document;
use crate::migration_facts::{CallKind, ValueKind};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

use crate::codegen::writer::Dialect;

pub struct ChatHistory;

static META: RuleMeta = RuleMeta {
    code: "MIG003",
    name: "chat-history",
    summary: "Chat helpers and client-kept history instead of `previous_interaction_id`",
    surfaces: "Python, notebooks, JavaScript, TypeScript",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe",
    doc: include_str!("../../rules/docs/MIG003.md"),
};

/// The advice for every finding of the rule, in the document's language.
fn suggestion(dialect: Dialect) -> String {
    format!(
        "The service keeps the context: send each turn with `{}` instead of a chat helper or a history",
        dialect.create_call(&[("previous_interaction_id", "previous.id")])
    )
}

impl Rule for ChatHistory {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        [
            "chats",
            "start_chat",
            "startChat",
            "send_message",
            "sendMessage",
            "generate_content",
            "generateContent",
            // A request body that sends a conversation.
            "contents",
        ]
        .map(String::from)
        .to_vec()
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let suggestion = suggestion(Dialect::of(doc));
        if !cx.analysis.own_legacy_code() && !cx.analysis.own_current_code() {
            use crate::analysis::unfollowed::Kind;
            super::mig::report_unfollowed(
                cx,
                doc,
                &META,
                &[Kind::Chat],
                &|callee| {
                    format!(
                        "`{callee}` creates a chat helper; interactions continue with `previous_interaction_id`"
                    )
                },
                &suggestion,
            );
            super::mig::report_unfollowed(
                cx,
                doc,
                &META,
                &[Kind::Turn { stream: false }, Kind::Turn { stream: true }],
                &|callee| {
                    format!(
                        "`{callee}` sends a turn through a chat helper; interactions continue with `previous_interaction_id`"
                    )
                },
                &suggestion,
            );
        }
        for call in &doc.facts().calls {
            let helper = match call.kind {
                CallKind::ChatCreate | CallKind::StartChat => Some("creates a chat helper"),
                CallKind::SendMessage => Some("sends a turn through a chat helper"),
                _ => None,
            };
            if let Some(what) = helper {
                let message = format!(
                    "`{}` {what}; interactions continue with `previous_interaction_id`",
                    call.callee_text
                );
                let diagnostic = Diagnostic::new(&META, Severity::Error, message, call.callee.clone());
                cx.report(match call.kind {
                    CallKind::ChatCreate => match rewrite(call, doc, cx) {
                        Ok(rewritten) => diagnostic.with_fix(rewritten.fix(
                            Applicability::Unsafe,
                            "Send each turn with `interactions.create(...)`, naming the previous interaction",
                        )),
                        Err(reason) => super::mig::blocked(
                            diagnostic,
                            &suggestion,
                            reason,
                            call.range.start,
                            cx.analysis,
                        ),
                    },
                    // A legacy chat is migrated with its legacy unit, when it is one's.
                    CallKind::StartChat if crate::codegen::legacy::unit_of(call, doc).is_some() => {
                        super::legacy::with_unit_fix(
                            diagnostic,
                            call,
                            doc,
                            cx.settings,
                            cx.analysis,
                            &suggestion,
                        )
                    }
                    _ => diagnostic.with_suggestion(suggestion.clone()),
                });
                if let Some(history) = call.arg("history") {
                    cx.report(
                        Diagnostic::new(
                            &META,
                            Severity::Error,
                            "A client-kept history is sent with the chat",
                            history.key_range.clone(),
                        )
                        .with_suggestion(suggestion.clone()),
                    );
                }
                continue;
            }
            if !call.is_predecessor_request() {
                continue;
            }
            let contents = call.arg("contents").map(|a| &a.value).or(call.positional.first());
            // The list written in the call, or the one a name (`history`) is bound to.
            let (list, name) = match contents.map(|c| &c.kind) {
                Some(ValueKind::List(items)) => (Some(items), None),
                Some(ValueKind::Name(n)) => match n.value.as_ref().map(|v| &v.kind) {
                    Some(ValueKind::List(items)) => (Some(items), Some(n.name.as_str())),
                    _ => (None, None),
                },
                _ => (None, None),
            };
            if let Some(contents) = contents
                && let Some(items) = list
                && is_multi_turn(items)
            {
                let message = match name {
                    Some(name) => format!("A multi-turn history (`{name}`) is sent as `contents`"),
                    None => "A multi-turn history is sent as `contents`".to_string(),
                };
                cx.report(
                    Diagnostic::new(&META, Severity::Error, message, contents.range.clone())
                        .with_suggestion(suggestion.clone()),
                );
            }
        }
    }
}

/// The chat's unit rewritten, unless the document is the current client's own code.
fn rewrite(
    call: &crate::migration_facts::Call,
    doc: &Document,
    cx: &RuleContext,
) -> Result<crate::codegen::request::Rewritten, String> {
    if cx.analysis.own_current_code() {
        return Err(super::mig::OWN_CURRENT_CODE.to_string());
    }
    crate::codegen::chat::rewrite_chat(call, doc, cx.settings)
}

/// Several turns with roles, or a turn of the model: a conversation kept by the client.
fn is_multi_turn(items: &[crate::migration_facts::Value]) -> bool {
    let roles: Vec<Option<String>> = items
        .iter()
        .map(|item| {
            let map = item.resolved_map()?;
            match &map.get("role")?.value.kind {
                ValueKind::Str(role) => Some(role.clone()),
                _ => Some(String::new()),
            }
        })
        .collect();
    let with_role = roles.iter().filter(|r| r.is_some()).count();
    with_role >= 2 || roles.iter().flatten().any(|r| r == "model" || r == "assistant")
}
