//! MIG005 streaming-call: the predecessor streaming call, and stream chunks read the old way.

use crate::analysis::recorded::{Record, TextUrl};
use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::endpoint::MATCHER;
use crate::lang::{Document, Surface};
use crate::migration_facts::{CallKind, Origin, ReadKind, ValueKind};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

use super::mig::rewrite_found_call;
use crate::codegen::writer::Dialect;

pub struct StreamingCall;

static META: RuleMeta = RuleMeta {
    code: "MIG005",
    name: "streaming-call",
    summary: "The predecessor streaming call (`generate_content_stream`, `generateContentStream`, `stream=True`) and its chunks",
    surfaces: "Python, notebooks, JavaScript, TypeScript; REST URLs (`:streamGenerateContent`) anywhere",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe",
    doc: include_str!("../../rules/docs/MIG005.md"),
};

const STEP_EVENTS: &str = "Iterate the events of a streaming `interactions.create` call and read the text of \
                           its `step.delta` events";

impl Rule for StreamingCall {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        // A chat streams too: `chat.send_message(..., stream=True)`, `chat.sendMessageStream(...)`;
        // and the chunks read from a stream already sent to `interactions.create` are reported.
        let mut words: Vec<String> = [
            "generate_content",
            "generateContent",
            "send_message",
            "sendMessage",
            "interactions",
        ]
        .map(String::from)
        .to_vec();
        words.extend(MATCHER.endpoint.predecessor.stream_methods.iter().cloned());
        words
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let facts = doc.facts();
        let dialect = Dialect::of(doc);
        let create = dialect.create_call(&[("stream", dialect.true_value())]);
        if !cx.analysis.own_legacy_code() && !cx.analysis.own_current_code() {
            super::mig::report_unfollowed(
                cx,
                doc,
                &META,
                &[crate::analysis::unfollowed::Kind::Stream],
                &|callee| {
                    format!(
                        "`{callee}` calls the predecessor streaming endpoint; use `interactions.create` with a stream"
                    )
                },
                &format!("Call `{create}` on a client of the current package"),
            );
        }
        for call in &facts.calls {
            match call.kind {
                CallKind::CreateStream => {
                    let message = format!(
                        "`{}` calls the predecessor streaming endpoint; use `interactions.create` with `{}`",
                        call.callee_text,
                        dialect.argument("stream", dialect.true_value())
                    );
                    let diagnostic = Diagnostic::new(&META, Severity::Error, message, call.callee.clone());
                    cx.report(match rewrite_found_call(call, doc, cx, true) {
                        Ok(rewritten) => diagnostic.with_fix(rewritten.fix(
                            Applicability::Unsafe,
                            format!(
                                "Rewrite as `interactions.create(...)` with `{}`{}",
                                dialect.argument("stream", dialect.true_value()),
                                super::mig::dropping(call, &doc.text, cx.settings)
                            ),
                        )),
                        Err(reason) => super::mig::blocked(
                            diagnostic,
                            &format!("Call `{create}`"),
                            reason,
                            call.range.start,
                            cx.analysis,
                        ),
                    });
                }
                CallKind::LegacyCreate { stream: true } => {
                    // The legacy package's own code and tests use it by design.
                    if cx.analysis.own_legacy_code() {
                        continue;
                    }
                    let message = format!(
                        "`{}` streams from the predecessor endpoint through the legacy client",
                        call.callee_text
                    );
                    let diagnostic = Diagnostic::new(&META, Severity::Error, message, call.callee.clone());
                    let advice = format!("Create a client of the current package and call `{create}`");
                    cx.report(super::legacy::with_unit_fix(
                        diagnostic,
                        call,
                        doc,
                        cx.settings,
                        cx.analysis,
                        &advice,
                    ));
                }
                // The legacy chat helper streams a turn with `stream=True`.
                CallKind::SendMessage
                    if call
                        .arg("stream")
                        .is_some_and(|a| matches!(a.value.kind, ValueKind::Bool(true))) =>
                {
                    let message = format!(
                        "`{}` with `stream=True` streams from the predecessor endpoint through a chat helper",
                        call.callee_text
                    );
                    cx.report(
                        Diagnostic::new(&META, Severity::Error, message, call.callee.clone())
                            .with_suggestion(format!(
                                "Call `{}` with the previous interaction's id",
                                dialect.create_call(&[
                                    ("stream", dialect.true_value()),
                                    ("previous_interaction_id", "previous.id")
                                ])
                            )),
                    );
                }
                _ => {}
            }
        }
        // A REST URL of the streaming method, in code blocks and text but not in prose. MIG007
        // rewrites the request (with `"stream": true`); what reads the reply must change too.
        // One finding per recorded request (a test replay names its URL twice).
        if doc.surface != Surface::Markdown {
            let analysis = cx.analysis;
            for TextUrl { url, record } in analysis.predecessor_urls() {
                if !url.stream {
                    continue;
                }
                let method = doc.text.get(url.method.clone()).unwrap_or_default();
                let message = format!(
                    "`:{method}` streams from the predecessor endpoint; the interactions endpoint streams \
                     with `\"stream\": true` in the body"
                );
                let advice = "The request moves to the interactions endpoint with `\"stream\": true` (MIG007); \
                              read the reply as step events (`step.delta`) instead of chunks with `candidates`";
                let suggestion = match record.as_ref().and_then(Record::note) {
                    Some(note) => format!("{note}. {advice}"),
                    None => advice.to_string(),
                };
                cx.report(
                    Diagnostic::new(&META, Severity::Error, message, url.method.clone())
                        .with_suggestion(suggestion),
                );
            }
        }
        for read in &facts.reads {
            if read.kind == ReadKind::Text && read.origin == Origin::StreamChunk {
                let written = doc.text.get(read.range.clone()).unwrap_or_default();
                let message = format!("`{written}` reads a chunk of a predecessor stream");
                cx.report(
                    Diagnostic::new(&META, Severity::Warning, message, read.range.clone())
                        .with_suggestion(STEP_EVENTS),
                );
            }
        }
    }
}
