//! MIG007 rest-endpoint: a REST request to the predecessor endpoint
//! (`.../v1beta/models/{model}:generateContent`), or one to the interactions endpoint without
//! the `Api-Revision` header.

use std::ops::Range;

use crate::analysis::recorded::{Record, TextUrl};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::endpoint::{MATCHER, PredecessorUrl};
use crate::lang::{Document, Surface};
use crate::migration_facts::{Body, CallKind, Facts, HttpRequest};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

use crate::codegen::request::rewrite_rest_body;
use crate::codegen::writer::Dialect;

pub struct RestEndpoint;

static META: RuleMeta = RuleMeta {
    code: "MIG007",
    name: "rest-endpoint",
    summary: "A REST request to the predecessor endpoint, or to the interactions endpoint without the `Api-Revision` header",
    surfaces: "shell (curl), .http, JSON, Markdown code blocks, Rust, any text",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe; safe when only the header is added",
    doc: include_str!("../../rules/docs/MIG007.md"),
};

impl Rule for RestEndpoint {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, _settings: &Tables) -> Vec<String> {
        let endpoint = &MATCHER.endpoint;
        let mut words: Vec<String> = endpoint
            .predecessor
            .methods
            .iter()
            .chain(&endpoint.predecessor.stream_methods)
            .cloned()
            .collect();
        words.push(endpoint.interactions.path.clone());
        // `contents` unquoted: a body in a notebook's Markdown cell is escaped (`\"contents\"`).
        words.extend(["generationConfig", "contents"].map(String::from));
        words
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        // Markdown prose may discuss the old path; only its code blocks are requests.
        if doc.surface == Surface::Markdown {
            return;
        }
        let facts = doc.facts();
        let text_urls = cx.analysis.predecessor_urls();
        // A body recorded next to its URL (a test replay) is reported with the URL.
        let records: Vec<&Range<usize>> = text_urls
            .iter()
            .filter_map(|t| t.record.as_ref())
            .map(|r| &r.range)
            .collect();
        let script = script(doc, facts, cx);
        for request in &facts.http {
            if request.url.is_none()
                && records
                    .iter()
                    .any(|r| r.start <= request.range.start && request.range.end <= r.end)
            {
                continue;
            }
            check_request(doc, facts, request, script.as_ref(), cx);
        }
        let in_request = |path: &Range<usize>| {
            facts
                .http
                .iter()
                .filter_map(|r| r.url.as_ref())
                .any(|u| u.start <= path.start && path.end <= u.end)
        };
        for TextUrl { url, record } in text_urls {
            if !in_request(&url.path) {
                let suggestion = match record.as_ref().and_then(Record::note) {
                    Some(note) => format!("{note}. {}", url_suggestion(url)),
                    None => url_suggestion(url),
                };
                let diagnostic = url_diagnostic(doc, url);
                // A URL that no followed request sends, in a module that depends on what the
                // interactions API lacks: that dependency is named.
                cx.report(
                    if record.is_none() && !url.platform && !cx.analysis.missing().is_empty() {
                        super::mig::blocked(
                            diagnostic,
                            &suggestion,
                            "the request that sends it is not followed".to_string(),
                            url.path.start,
                            cx.analysis,
                        )
                    } else {
                        diagnostic.with_suggestion(suggestion)
                    },
                );
            }
        }
        // A predecessor body sent to a URL made elsewhere, in a module with no predecessor URL
        // of its own (where there is one, its request is reported there).
        if text_urls.is_empty() && cx.analysis.assembled_urls().is_empty() && facts.http.is_empty() {
            for sent in cx.analysis.sent_bodies() {
                let keys: Vec<String> = sent.keys.iter().map(|k| format!("`{k}`")).collect();
                let written = doc.text.get(sent.callee.clone()).unwrap_or_default();
                let message = format!(
                    "`{written}` sends a request body of the predecessor endpoint ({}, {}); requests go to `{}`",
                    keys.join(", "),
                    doc.place_of(sent.body.start),
                    MATCHER.endpoint.interactions.path
                );
                let diagnostic = Diagnostic::new(&META, Severity::Error, message, sent.callee.clone());
                let advice = format!(
                    "Send `POST {{base}}{}` with the header `{}: {}` and a body of the interactions shape (`\"model\"`, \
                     `\"input\"`)",
                    MATCHER.endpoint.interactions.path,
                    MATCHER.endpoint.interactions.header,
                    MATCHER.endpoint.interactions.revision
                );
                let reason = format!(
                    "the URL `{}` is not followed to where it is made",
                    crate::diagnostic::one_line(&sent.url)
                );
                cx.report(super::mig::blocked(
                    diagnostic,
                    &advice,
                    reason,
                    sent.callee.start,
                    cx.analysis,
                ));
            }
        }
        // URLs assembled from parts: reported with the reason they are not rewritten.
        for url in cx.analysis.assembled_urls() {
            if in_request(&url.path) {
                continue;
            }
            let written = doc.text.get(url.path.clone()).unwrap_or_default();
            let message = if url.model.is_empty() {
                format!(
                    "`{written}` is a method of the predecessor endpoint, in a URL assembled from parts; requests go \
                     to `{}`",
                    MATCHER.endpoint.interactions.path
                )
            } else {
                format!(
                    "`{written}` is the predecessor endpoint, in a URL assembled from parts; requests go to `{}`",
                    MATCHER.endpoint.interactions.path
                )
            };
            let diagnostic = Diagnostic::new(&META, Severity::Error, message, url.path.clone());
            cx.report(super::mig::blocked(
                diagnostic,
                &url_suggestion(url),
                "the URL is assembled from parts (a base URL, a model and a method chosen elsewhere): the request \
                 that sends it moves as a whole, its body in the interactions shape"
                    .to_string(),
                url.path.start,
                cx.analysis,
            ));
        }
    }
}

/// The header interactions requests carry, and its value.
fn header() -> (&'static str, &'static str) {
    let i = &MATCHER.endpoint.interactions;
    (i.header.as_str(), i.revision.as_str())
}

fn url_diagnostic(doc: &Document, url: &PredecessorUrl) -> Diagnostic {
    let written = doc.text.get(url.path.clone()).unwrap_or_default();
    let message = if url.platform {
        format!("`{written}` is the platform-hosted predecessor endpoint")
    } else {
        format!(
            "`{written}` is the predecessor endpoint; requests go to `{}`",
            MATCHER.endpoint.interactions.path
        )
    };
    Diagnostic::new(&META, Severity::Error, message, url.path.clone())
}

fn url_suggestion(url: &PredecessorUrl) -> String {
    let i = &MATCHER.endpoint.interactions;
    if url.platform {
        return "The platform hosts the service under its own base URL and credentials; migrate this request by \
                its documentation (not rewritten)"
            .to_string();
    }
    let stream = if url.stream { ", `\"stream\": true`" } else { "" };
    format!(
        "Send `POST {{base}}{}` with the header `{}: {}` and a JSON body holding `\"model\"`, `\"input\"` (the \
         old `contents`){stream}",
        i.path, i.header, i.revision
    )
}

fn check_request(
    doc: &Document,
    facts: &Facts,
    request: &HttpRequest,
    script: Option<&Script>,
    cx: &mut RuleContext,
) {
    let (name, value) = header();
    let Some(url_range) = request.url.clone() else {
        // A body on its own: the request that sends it must move too.
        if let Body::Json(body) = &request.body
            && let Some(call) = facts.calls.get(body.call)
            && matches!(call.kind, CallKind::Rest { .. })
        {
            let message = "A request body of the predecessor endpoint (`contents` with parts)";
            cx.report(
                Diagnostic::new(&META, Severity::Error, message, call.callee.clone()).with_suggestion(format!(
                    "The interactions endpoint takes `\"model\"` and `\"input\"` in the body (and `{name}: {value}` \
                     as a header); rewrite it with the request that sends it"
                )),
            );
        }
        return;
    };
    if let Some(url) = MATCHER
        .predecessor_urls(&doc.text, url_range.clone())
        .into_iter()
        .next()
    {
        let diagnostic = url_diagnostic(doc, &url);
        if url.platform {
            cx.report(diagnostic.with_suggestion(url_suggestion(&url)));
            return;
        }
        cx.report(match rewrite(doc, facts, request, &url, script, cx) {
            Ok(edits) => diagnostic.with_fix(Fix::new(
                Applicability::Unsafe,
                format!(
                    "Send it to `{}` with `{name}: {value}` and the model in the body",
                    MATCHER.endpoint.interactions.path
                ),
                edits,
            )),
            Err(reason) => super::mig::blocked(
                diagnostic,
                &url_suggestion(&url),
                reason,
                request.range.start,
                cx.analysis,
            ),
        });
        return;
    }
    let Some(path) = MATCHER.interactions_urls(&doc.text, url_range).into_iter().next() else {
        return;
    };
    if request.has_header(name) {
        return;
    }
    let message = format!(
        "Request to `{}` without the `{name}` header",
        MATCHER.endpoint.interactions.path
    );
    let diagnostic = Diagnostic::new(&META, Severity::Error, message, path);
    cx.report(match header_insert(request) {
        Some(edit) => diagnostic.with_fix(Fix::safe(format!("Add the header `{name}: {value}`"), vec![edit])),
        None => diagnostic.with_suggestion(format!("Send the header `{name}: {value}` with the request")),
    });
}

/// The edit adding the revision header to `request`, where it can be added.
fn header_insert(request: &HttpRequest) -> Option<Edit> {
    let (name, value) = header();
    request.header_insert.as_ref().map(|(at, template)| {
        Edit::replace(
            *at..*at,
            template.replace("{name}", name).replace("{value}", value),
        )
    })
}

/// What a script's jq filters make of its requests: they read response bodies without saying
/// whose, so the requests move all or none, and only when each filter is rewritten to a read of
/// an interaction too (MIG002): a request moved while a filter reads its body the old way would
/// break the script. Found once per document.
struct Script {
    /// Each predecessor request's rewrite on its own (by the request's range), or why it has none.
    alone: Vec<(Range<usize>, Rewrite)>,
    /// Why no request moves: a filter interlint does not rewrite.
    filter: Option<String>,
    /// Where the first filter reading a response body is.
    first_read: usize,
}

/// A request's edits, or why it cannot be rewritten.
type Rewrite = Result<Vec<Edit>, String>;

/// The [`Script`] of a document whose jq filters read predecessor response bodies; `None` when
/// none does (each request then moves on its own).
fn script(doc: &Document, facts: &Facts, cx: &RuleContext) -> Option<Script> {
    let written = |r: &crate::migration_facts::Read| doc.text.get(r.range.clone()).unwrap_or_default();
    let mut reads = facts
        .reads
        .iter()
        .filter(|r| r.detached && r.origin == crate::migration_facts::Origin::Response)
        .peekable();
    let first_read = reads.peek()?.range.start;
    let filter = reads.find(|r| Dialect::jq_answer(written(r)).is_none()).map(|read| {
        match read.kind {
            // A text filter selecting lines by a field of the body (`sed`, `grep`, `awk`).
            crate::migration_facts::ReadKind::Tested if !written(read).starts_with('.') => format!(
                "{}: a text filter selects lines of a response body by `{}`, which an interaction's body does not \
                 have, and which interlint does not rewrite",
                doc.place_of(read.range.start),
                crate::diagnostic::one_line(written(read))
            ),
            _ => format!(
                "{}: the jq filter's `{}` reads a response body in a way interlint does not rewrite to a read of \
                 an interaction",
                doc.place_of(read.range.start),
                crate::diagnostic::one_line(written(read))
            ),
        }
    });
    let alone = facts
        .http
        .iter()
        .filter_map(|request| {
            let url = request
                .url
                .as_ref()
                .and_then(|u| MATCHER.predecessor_urls(&doc.text, u.clone()).into_iter().next())?;
            let rewritten = if url.platform {
                Err("it goes to the cloud platform's endpoint".to_string())
            } else {
                rewrite_alone(doc, facts, request, &url, header_insert(request), cx)
            };
            Some((request.range.clone(), rewritten))
        })
        .collect();
    Some(Script {
        alone,
        filter,
        first_read,
    })
}

/// The edits moving a predecessor request to the interactions endpoint, or why it cannot be: on
/// its own, or with the other requests of its `script`.
fn rewrite(
    doc: &Document,
    facts: &Facts,
    request: &HttpRequest,
    url: &PredecessorUrl,
    script: Option<&Script>,
    cx: &RuleContext,
) -> Result<Vec<Edit>, String> {
    let own = script.and_then(|s| s.alone.iter().find(|(range, _)| *range == request.range));
    let (Some(script), Some((_, own))) = (script, own) else {
        return rewrite_alone(doc, facts, request, url, header_insert(request), cx);
    };
    let edits = own.clone()?;
    if let Some(why) = &script.filter {
        return Err(why.clone());
    }
    if let Some((other, Err(why))) = script.alone.iter().find(|(_, rewritten)| rewritten.is_err()) {
        return Err(format!(
            "{}: a jq filter reads a response body without naming its request, and the request of {} \
             cannot be rewritten with this one: {why}",
            doc.place_of(script.first_read),
            doc.place_of(other.start)
        ));
    }
    Ok(edits)
}

/// [`rewrite`] for `request` on its own.
fn rewrite_alone(
    doc: &Document,
    facts: &Facts,
    request: &HttpRequest,
    url: &PredecessorUrl,
    header_edit: Option<Edit>,
    cx: &RuleContext,
) -> Result<Vec<Edit>, String> {
    let (name, _) = header();
    let body = match &request.body {
        Body::Json(body) => body,
        Body::None => return Err("the request sends no body to move the model into".into()),
        Body::File(file) => {
            return Err(format!(
                "the body is read from `{file}`, which is checked on its own"
            ));
        }
        Body::Unknown(reason) => return Err(reason.clone()),
    };
    let call = facts
        .calls
        .get(body.call)
        .ok_or_else(|| "the body was not read".to_string())?;
    let model = request
        .model_value
        .as_deref()
        .ok_or_else(|| "the URL's model cannot be written into the body here".to_string())?;
    let body_edits = rewrite_rest_body(call, model, doc, cx.settings, url.stream)?;
    for edit in &body_edits {
        if !body.allows(&edit.range, &edit.content.replace(model, ""), &doc.text) {
            return Err("the body is not written literally where it would change".into());
        }
    }
    let mut edits = body_edits;
    let path = MATCHER
        .endpoint
        .interactions
        .path
        .trim_start_matches('/')
        .to_string();
    edits.push(Edit::replace(url.path.clone(), path));
    if let Some(query) = &url.stream_query {
        edits.push(Edit::replace(query.clone(), ""));
    }
    edits.extend(
        request
            .url_edits
            .iter()
            .map(|(r, c)| Edit::replace(r.clone(), c.clone())),
    );
    if !request.has_header(name) {
        edits.push(header_edit.ok_or_else(|| "interlint cannot add a header to this request".to_string())?);
    }
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    Ok(edits)
}
