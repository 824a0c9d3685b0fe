//! MIG002 response-text: the answer read the predecessor way (`response.text`,
//! `response.candidates[0].content.parts`).

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::Document;
use crate::migration_facts::{Origin, ReadKind};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

use crate::codegen::writer::Dialect;

pub struct ResponseText;

static META: RuleMeta = RuleMeta {
    code: "MIG002",
    name: "response-text",
    summary: "The answer read the predecessor way: `response.text`, `response.candidates[0].content.parts`",
    surfaces: "Python, notebooks, JavaScript, TypeScript, jq filters in shell",
    fix: FixAvailability::Sometimes,
    fix_safety: "safe where the receiver is an interaction's result (a jq filter once every request of its script goes to the interactions endpoint); unsafe for a notebook's jq line reading a body another cell requests, or a usage field of a migrated request",
    doc: include_str!("../../rules/docs/MIG002.md"),
};

impl Rule for ResponseText {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        [
            "generate_content",
            "generateContent",
            "interactions",
            "send_message",
            "sendMessage",
            ".candidates",
        ]
        .map(String::from)
        .to_vec()
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        // The document makes requests of its own (MIG007 moves a script's all or none).
        let requests_here = !doc.facts().http.is_empty();
        for read in &doc.facts().reads {
            let fixable_form = match read.kind {
                ReadKind::Text => true,
                ReadKind::Candidates { simple_text } => simple_text,
                ReadKind::Usage { .. } => false,
                _ => continue,
            };
            // A stream chunk's text is MIG005's.
            if read.kind == ReadKind::Text && read.origin == Origin::StreamChunk {
                continue;
            }
            // The legacy package's own project reads its own responses by design (MIG001 is
            // not reported there either).
            if read.origin == Origin::Response && cx.analysis.own_legacy_code() {
                continue;
            }
            if let ReadKind::Usage { member } = read.kind {
                // A jq filter's `.usageMetadata` may read another body that has one (a cached
                // content's): not reported; it keeps its script's requests where they are (MIG007).
                if !read.detached {
                    usage_read(read, member, doc, cx);
                }
                continue;
            }
            let written = doc.text.get(read.range.clone()).unwrap_or_default();
            let receiver = doc.text.get(read.receiver.clone()).unwrap_or_default();
            // The turn a function-calling round trip sends back (MIG001 rewrites the two
            // requests together): not an answer to read.
            if sent_back(doc, read) {
                cx.report(
                    Diagnostic::new(
                        &META,
                        Severity::Error,
                        format!("`{written}` sends the predecessor response's turn back"),
                        read.range.clone(),
                    )
                    .with_suggestion(format!(
                        "An interaction keeps its turns: the next request names it with `{}` and sends the \
                         function results alone (MIG001)",
                        dialect.argument("previous_interaction_id", &format!("{receiver}.id"))
                    )),
                );
                continue;
            }
            // A jq filter reading every part's text: the last step's contents' texts.
            // Only beside its requests (moved all or none by MIG007) or once they are
            // interactions: a shell line of a notebook may read another cell's body.
            let every_part =
                (read.detached && !fixable_form && (read.origin == Origin::Interaction || requests_here))
                    .then(|| Dialect::jq_answer(written))
                    .flatten();
            let fixable_form = fixable_form || every_part.is_some();
            let new = every_part.unwrap_or_else(|| dialect.answer_text(receiver));
            let message = match read.origin {
                Origin::Interaction => {
                    format!("`{written}` reads an interaction's answer the predecessor way")
                }
                _ => format!("`{written}` reads the answer of a predecessor response"),
            };
            let diagnostic = Diagnostic::new(&META, Severity::Error, message, read.range.clone());
            let edits = vec![Edit::replace(read.range.clone(), new.clone())];
            cx.report(
                if read.origin == Origin::Interaction && read.all_interactions && fixable_form {
                    diagnostic.with_fix(Fix::safe(format!("Read `{new}`"), edits))
                } else if read.detached && fixable_form && !requests_here {
                    // A filter over a response body its document does not request (a notebook's
                    // shell line reading what another cell's request wrote): right once that
                    // request is migrated (MIG007). A filter beside its requests is rewritten once
                    // every one of them goes to the interactions endpoint (MIG007 moves them all
                    // or none, then the read is an interaction's).
                    diagnostic.with_fix(Fix::new(
                        Applicability::Unsafe,
                        format!("Read `{new}` (the request must go to the interactions endpoint)"),
                        edits,
                    ))
                } else {
                    diagnostic.with_suggestion(match dialect {
                        Dialect::Json => format!(
                            "An interaction holds steps: read the answer as `{new}` once the request goes to \
                             the interactions endpoint (MIG007)"
                        ),
                        _ => format!(
                            "An interaction holds steps: read the answer as `{new}` once the call is \
                             `interactions.create` (MIG001)"
                        ),
                    })
                },
            );
        }
    }
}

/// `R.usage_metadata` (and a count read from it): an interaction's counts are `R.usage`, with the
/// names of the request-field table's `[usage]` mapping. Unsafe: the counts are named and grouped
/// differently.
fn usage_read(
    read: &crate::migration_facts::Read,
    member: Option<(usize, usize)>,
    doc: &Document,
    cx: &mut RuleContext,
) {
    if !matches!(read.origin, Origin::Response | Origin::Interaction) {
        return;
    }
    let usage = &cx.settings.fields.usage;
    let written_receiver = doc.text.get(read.receiver.clone()).unwrap_or_default();
    // The legacy JavaScript result holds its response (`result.response.usageMetadata`); the
    // interaction is the result itself.
    let receiver = match Dialect::of(doc) {
        Dialect::JavaScript if read.origin == Origin::Response => written_receiver
            .strip_suffix(".response")
            .unwrap_or(written_receiver),
        _ => written_receiver,
    };
    let written = doc.text.get(read.range.clone()).unwrap_or_default();
    let message = format!(
        "`{written}` reads the token counts the predecessor way; an interaction has `{}`",
        usage.field
    );
    let diagnostic = Diagnostic::new(&META, Severity::Error, message, read.range.clone());
    let migrated = read.origin == Origin::Interaction && read.all_interactions;
    let (range, new) = match crate::codegen::unit::usage_read(read, member, receiver, &doc.text, usage) {
        Ok(rewrite) => rewrite,
        Err(name) => {
            cx.report(diagnostic.with_suggestion(format!(
                "Read the interaction's `{receiver}.{}`; `{name}` has no counterpart there",
                usage.field
            )));
            return;
        }
    };
    cx.report(if migrated {
        diagnostic.with_fix(Fix::new(
            Applicability::Unsafe,
            format!("Read `{new}`"),
            vec![Edit::replace(range, new.clone())],
        ))
    } else {
        diagnostic.with_suggestion(format!(
            "Read `{new}` once the call is `interactions.create` (MIG001)"
        ))
    });
}

/// Whether `read` is the turn a function-calling round trip sends back
/// ([`ResultUse::Continued`](crate::migration_facts::ResultUse::Continued)).
fn sent_back(doc: &Document, read: &crate::migration_facts::Read) -> bool {
    doc.facts().calls.iter().any(|c| {
        c.result.as_ref().is_some_and(|r| {
            r.uses.iter().any(
                |u| matches!(u, crate::migration_facts::ResultUse::Continued { range, .. } if *range == read.range),
            )
        })
    })
}
