//! The raw HTTP requests of a Rust file: reqwest-style builder chains
//! (`client.post(url).header(..).json(&json!({...}))`), with the URL written as a literal, a
//! `format!` or a name bound to one, and request bodies written with `serde_json::json!`.

use std::collections::HashMap;
use std::ops::Range;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::Visit;

use super::rest::{self, UrlCall};
use crate::migration_facts::{
    Body, Call, CallKind, Entry, Facts, HttpRequest, MapValue, ModelRef, Value, ValueKind,
};

fn range(span: proc_macro2::Span) -> Range<usize> {
    span.byte_range()
}

/// What a Rust file does with the service over HTTP.
pub fn facts(file: &syn::File, text: &str) -> Facts {
    let mut collector = Collector {
        text,
        bindings: HashMap::new(),
        chains: Vec::new(),
        macros: Vec::new(),
    };
    collector.visit_file(file);
    let mut facts = Facts::default();
    let mut used: Vec<Range<usize>> = Vec::new();
    for chain in &collector.chains {
        if let Some(request) = request(chain, &collector, &mut facts, &mut used) {
            facts.http.push(request);
        }
    }
    // `json!` bodies outside a request chain: reported when they have a request body's shape.
    for mac in &collector.macros {
        if used.iter().any(|u| u.start <= mac.start && mac.end <= u.end) {
            continue;
        }
        if let Some((map, braces)) = json_object(&mac.tokens, text)
            && let Some((kind, callee)) = super::json::body_alone(&map, braces.start)
        {
            let call = Call::of_body(map, kind, ModelRef::Absent, callee, braces.clone(), text, 0);
            let body = facts.push_body(call, vec![braces.clone()], "");
            facts.http.push(HttpRequest::body_alone(braces, body));
        }
    }
    facts
}

/// A `json!` macro call: its tokens and span.
struct JsonMacro {
    start: usize,
    end: usize,
    tokens: TokenStream,
}

/// One link of a builder chain: `.name(args)`.
struct Link {
    name: String,
    args: Vec<syn::Expr>,
    /// The whole call expression up to its closing parenthesis.
    end: usize,
    /// Where the method's `.` starts.
    dot: usize,
}

struct Collector<'a> {
    text: &'a str,
    /// `let name = expr;` and `const NAME: T = expr;`, by name; `None` when bound twice.
    bindings: HashMap<String, Option<syn::Expr>>,
    /// Builder chains holding a `.post(...)`, innermost link first.
    chains: Vec<Vec<Link>>,
    macros: Vec<JsonMacro>,
}

impl<'a> Collector<'a> {
    fn bind(&mut self, name: String, expr: &syn::Expr) {
        self.bindings
            .entry(name)
            .and_modify(|e| *e = None)
            .or_insert_with(|| Some(expr.clone()));
    }
}

impl<'ast, 'a> Visit<'ast> for Collector<'a> {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (syn::Pat::Ident(ident), Some(init)) = (&local.pat, &local.init) {
            self.bind(ident.ident.to_string(), &init.expr);
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.bind(item.ident.to_string(), &item.expr);
        syn::visit::visit_item_const(self, item);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac.path.segments.last().is_some_and(|s| s.ident == "json") {
            let r = range(mac.span());
            self.macros.push(JsonMacro {
                start: r.start,
                end: r.end,
                tokens: mac.tokens.clone(),
            });
        }
        syn::visit::visit_macro(self, mac);
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        // The outermost link of a chain is seen first; its inner links are then skipped.
        if let syn::Expr::MethodCall(_) = expr {
            let links = chain(expr);
            let has_post = links.iter().any(|l| l.name == "post");
            let outermost = has_post
                && !self
                    .chains
                    .iter()
                    .any(|c| c.first().map(|l| l.dot) == links.first().map(|l| l.dot));
            if outermost {
                self.chains.push(links);
            }
        }
        syn::visit::visit_expr(self, expr);
    }
}

/// The method calls of a chain, innermost first, through `.await`, `?`, parentheses and
/// references.
fn chain(expr: &syn::Expr) -> Vec<Link> {
    let mut links = Vec::new();
    let mut at = expr;
    loop {
        match at {
            syn::Expr::MethodCall(call) => {
                links.push(Link {
                    name: call.method.to_string(),
                    args: call.args.iter().cloned().collect(),
                    end: range(call.span()).end,
                    dot: range(call.dot_token.span()).start,
                });
                at = &call.receiver;
            }
            syn::Expr::Await(a) => at = &a.base,
            syn::Expr::Try(t) => at = &t.expr,
            syn::Expr::Paren(p) => at = &p.expr,
            _ => break,
        }
    }
    links.reverse();
    links
}

/// Through `&`, `&mut` and `.clone()`/`.as_str()`.
fn strip(expr: &syn::Expr) -> &syn::Expr {
    match expr {
        syn::Expr::Reference(r) => strip(&r.expr),
        syn::Expr::Paren(p) => strip(&p.expr),
        _ => expr,
    }
}

/// A URL expression: a string literal or a `format!`, possibly through a name.
struct Url {
    /// The string literal holding the URL's text.
    literal: Range<usize>,
    /// `format!`'s arguments after the format string: (text, range including the comma before).
    args: Vec<(String, Range<usize>)>,
}

fn url_of(expr: &syn::Expr, collector: &Collector, depth: usize) -> Option<Url> {
    match strip(expr) {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(Url {
            literal: range(s.span()),
            args: Vec::new(),
        }),
        syn::Expr::Macro(m) if m.mac.path.is_ident("format") => {
            let tokens: Vec<TokenTree> = m.mac.tokens.clone().into_iter().collect();
            let TokenTree::Literal(first) = tokens.first()? else {
                return None;
            };
            // Split the arguments at top-level commas; each keeps the comma before it.
            let mut args = Vec::new();
            let mut current: Option<(usize, usize, usize)> = None; // (comma start, first token start, end)
            for token in tokens.iter().skip(1) {
                let r = range(token.span());
                match token {
                    TokenTree::Punct(p) if p.as_char() == ',' => {
                        if let Some((c, s, e)) = current.take() {
                            args.push((collector.text.get(s..e).unwrap_or_default().to_string(), c..e));
                        }
                        current = Some((r.start, usize::MAX, r.end));
                    }
                    _ => {
                        if let Some((_, s, e)) = current.as_mut() {
                            if *s == usize::MAX {
                                *s = r.start;
                            }
                            *e = r.end;
                        }
                    }
                }
            }
            if let Some((c, s, e)) = current
                && s != usize::MAX
            {
                args.push((collector.text.get(s..e).unwrap_or_default().to_string(), c..e));
            }
            Some(Url {
                literal: range(first.span()),
                args,
            })
        }
        syn::Expr::Path(p) if depth < 3 => {
            let name = p.path.get_ident()?.to_string();
            let bound = collector.bindings.get(&name)?.as_ref()?;
            url_of(bound, collector, depth + 1)
        }
        _ => None,
    }
}

/// The JSON body a `.json(...)` argument names: a `json!` macro, possibly through a name.
fn body_tokens(expr: &syn::Expr, collector: &Collector, depth: usize) -> Option<(TokenStream, Range<usize>)> {
    match strip(expr) {
        syn::Expr::Macro(m) if m.mac.path.segments.last().is_some_and(|s| s.ident == "json") => {
            Some((m.mac.tokens.clone(), range(m.span())))
        }
        syn::Expr::Path(p) if depth < 3 => {
            let name = p.path.get_ident()?.to_string();
            let bound = collector.bindings.get(&name)?.as_ref()?;
            body_tokens(bound, collector, depth + 1)
        }
        _ => None,
    }
}

fn request(
    chain: &[Link],
    collector: &Collector,
    facts: &mut Facts,
    used: &mut Vec<Range<usize>>,
) -> Option<HttpRequest> {
    let text = collector.text;
    let post = chain.iter().position(|l| l.name == "post")?;
    let url = url_of(chain[post].args.first()?, collector, 0)?;
    if !rest::names_service(text, url.literal.clone()) {
        return None;
    }
    let url_call = rest::url_call(text, url.literal.clone());
    let mut headers = Vec::new();
    let mut body = Body::None;
    // The builder's links, up to `.send()`: what follows reads the response.
    for link in chain[post + 1..].iter().take_while(|l| l.name != "send") {
        match link.name.as_str() {
            "header" => match link.args.first().map(strip) {
                Some(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                })) => headers.push(s.value()),
                _ => headers.push("*".to_string()),
            },
            "headers" => headers.push("*".to_string()),
            "json" => {
                body = match link.args.first().and_then(|a| body_tokens(a, collector, 0)) {
                    Some((tokens, span)) => {
                        used.push(span);
                        match json_object(&tokens, text) {
                            Some((map, braces)) => {
                                let (kind, model, callee) = match &url_call {
                                    Some(u) => (u.kind, u.model.clone(), u.callee.clone()),
                                    None => (
                                        CallKind::Rest { stream: false },
                                        ModelRef::Absent,
                                        url.literal.clone(),
                                    ),
                                };
                                let call = Call::of_body(map, kind, model, callee, braces.clone(), text, 0);
                                facts.push_body(call, vec![braces], "")
                            }
                            None => {
                                Body::Unknown("the `json!` body is not an object interlint can read".into())
                            }
                        }
                    }
                    None => Body::Unknown("the body is not a `json!` literal in this function".into()),
                }
            }
            "body" => body = Body::Unknown("the body is sent as text".into()),
            _ => {}
        }
    }
    let (model_value, url_edits) = match url_call.as_ref() {
        Some(u) => model_in_body(u, &url, text),
        None => (None, Vec::new()),
    };
    // A header goes right after `.post(...)`, on a line of its own when the chain is split.
    let post_end = chain[post].end;
    let header_insert = chain.get(post + 1).map_or_else(
        || Some((post_end, ".header(\"{name}\", \"{value}\")".to_string())),
        |next| {
            let between = text.get(post_end..next.dot)?;
            Some(if between.contains('\n') {
                let indent = crate::migration_facts::line_indent(text, next.dot);
                (
                    post_end,
                    format!("\n{indent}.header(\"{{name}}\", \"{{value}}\")"),
                )
            } else {
                (post_end, ".header(\"{name}\", \"{value}\")".to_string())
            })
        },
    );
    let start = chain.first().map_or(post_end, |l| l.dot);
    Some(HttpRequest {
        range: start..chain.last().map_or(post_end, |l| l.end),
        url: Some(url.literal.clone()),
        headers,
        header_insert,
        body,
        model_value,
        url_edits,
    })
}

/// The URL's model as a value of a `json!` body, and the edits dropping it from `format!`.
fn model_in_body(url_call: &UrlCall, url: &Url, text: &str) -> (Option<String>, Vec<(Range<usize>, String)>) {
    let Some(predecessor) = &url_call.predecessor else {
        return (None, Vec::new());
    };
    let model = text.get(predecessor.model.clone()).unwrap_or_default();
    if rest::is_literal_id(model) {
        return (Some(format!("\"{model}\"")), Vec::new());
    }
    let Some(inner) = model.strip_prefix('{').and_then(|m| m.strip_suffix('}')) else {
        return (None, Vec::new());
    };
    if inner.is_empty() {
        // `{}`: the argument at the placeholder's position, dropped from `format!`.
        let before = text
            .get(url.literal.start..predecessor.model.start)
            .unwrap_or_default();
        let index = before.matches("{}").count() - before.matches("{{}}").count();
        return match url.args.get(index) {
            Some((arg, r)) => (Some(arg.clone()), vec![(r.clone(), String::new())]),
            None => (None, Vec::new()),
        };
    }
    let is_name = inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return (None, Vec::new());
    }
    // `{model}`: a named argument (dropped) or a variable captured from the scope.
    match url
        .args
        .iter()
        .find(|(a, _)| a.split('=').next().map(str::trim) == Some(inner))
    {
        Some((arg, r)) => {
            let value = arg
                .split_once('=')
                .map_or(arg.as_str(), |(_, v)| v)
                .trim()
                .to_string();
            (Some(value), vec![(r.clone(), String::new())])
        }
        None => (Some(inner.to_string()), Vec::new()),
    }
}

/// The object of a `json!` call's tokens: its members and the braces' span.
fn json_object(tokens: &TokenStream, text: &str) -> Option<(MapValue, Range<usize>)> {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let [TokenTree::Group(group)] = trees.as_slice() else {
        return None;
    };
    if group.delimiter() != Delimiter::Brace {
        return None;
    }
    let braces = range(group.span());
    Some((object(group.stream(), braces.clone(), text), braces))
}

/// Top-level comma-separated pieces of a group's tokens.
fn pieces(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for token in stream {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => out.push(Vec::new()),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.push(token);
                }
            }
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

fn span_of(tokens: &[TokenTree]) -> Option<Range<usize>> {
    let first = range(tokens.first()?.span());
    let last = range(tokens.last()?.span());
    Some(first.start..last.end)
}

fn object(stream: TokenStream, braces: Range<usize>, text: &str) -> MapValue {
    let members = pieces(stream);
    let spans: Vec<Range<usize>> = members.iter().filter_map(|m| span_of(m)).collect();
    let mut map = MapValue {
        entries: Vec::new(),
        complete: spans.len() == members.len(),
        wrapper: None,
    };
    for (i, member) in members.iter().enumerate() {
        let (Some(TokenTree::Literal(key)), Some(TokenTree::Punct(colon))) = (member.first(), member.get(1))
        else {
            map.complete = false;
            continue;
        };
        let key_range = range(key.span());
        let key_name = text
            .get(key_range.clone())
            .and_then(|k| serde_json::from_str::<String>(k).ok());
        let (Some(name), ':', Some(value_span), Some(whole)) = (
            key_name,
            colon.as_char(),
            span_of(&member[2..]),
            spans.get(i).cloned(),
        ) else {
            map.complete = false;
            continue;
        };
        let removal = match (spans.get(i + 1), i.checked_sub(1).and_then(|p| spans.get(p))) {
            (Some(next), _) => whole.start..next.start,
            (None, Some(previous)) => previous.end..whole.end,
            (None, None) => braces.start + 1..braces.end - 1,
        };
        map.entries.push(Entry {
            key: name,
            key_range,
            range: whole,
            value: value(&member[2..], value_span, text),
            keyword: false,
            removal,
            siblings: crate::migration_facts::Siblings {
                previous_end: i.checked_sub(1).and_then(|p| spans.get(p)).map(|s| s.end),
                next_start: spans.get(i + 1).map(|s| s.start),
                inner: braces.start + 1..braces.end.saturating_sub(1).max(braces.start + 1),
            },
        });
    }
    map
}

fn value(tokens: &[TokenTree], span: Range<usize>, text: &str) -> Value {
    let kind = match tokens {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
            ValueKind::Map(Box::new(object(g.stream(), span.clone(), text)))
        }
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => ValueKind::List(
            pieces(g.stream())
                .iter()
                .filter_map(|p| span_of(p).map(|s| value(p, s, text)))
                .collect(),
        ),
        [TokenTree::Literal(_)] => {
            let written = text.get(span.clone()).unwrap_or_default();
            if let Ok(s) = serde_json::from_str::<String>(written) {
                ValueKind::Str(s)
            } else {
                written.parse::<i64>().map_or(ValueKind::Other, ValueKind::Int)
            }
        }
        [TokenTree::Ident(i)] if i == "true" => ValueKind::Bool(true),
        [TokenTree::Ident(i)] if i == "false" => ValueKind::Bool(false),
        _ => ValueKind::Other,
    };
    Value { range: span, kind }
}
