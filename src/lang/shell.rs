//! Shell scripts (`.sh .bash .zsh`, shell code blocks) with tree-sitter-bash: everything but
//! comments is text; `curl` commands are raw HTTP requests, and `jq` filters read responses.

use std::ops::Range;

use tree_sitter::Node;

use super::rest::{self, UrlCall};
use super::treesitter::{self, Grammar, children, text_of};
use super::{Document, Surface, Syntax};
use crate::migration_facts::{Body, CallKind, Facts, HttpRequest, Origin, Read, ReadKind};

pub fn parse(mut text: String) -> Document {
    let prompts = blank_prompts(&mut text);
    let mut doc = match treesitter::parse(Grammar::Bash, &text) {
        Some(tree) => {
            let comments = treesitter::ranges_of_kinds(&tree, &["comment"]);
            let regions = treesitter::complement(text.len(), &comments);
            let errors = treesitter::count_errors(&tree);
            Document::whole(Surface::Shell, text, Syntax::TreeSitter(tree), regions, errors)
        }
        None => {
            let regions = std::iter::once(0..text.len()).collect();
            Document::whole(Surface::Shell, text, Syntax::None, regions, 0)
        }
    };
    doc.prompts = prompts;
    doc
}

/// A terminal session's prompts (`$ curl ...`, `% curl ...` and `> ` continuations in docs)
/// read as spaces, so the commands parse; every offset is kept. Returns where they were.
fn blank_prompts(text: &mut String) -> Vec<usize> {
    let mut prompts = Vec::new();
    let mut at = 0;
    let mut continued = false;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let rest = &line[indent..];
        // `> ` continues a prompt's command after a line ending in a backslash.
        if rest.starts_with("$ ") || rest.starts_with("% ") || (continued && rest.starts_with("> ")) {
            prompts.push(at + indent);
        }
        continued = line.trim_end().ends_with('\\');
        at += line.len();
    }
    if prompts.is_empty() {
        return prompts;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for &p in &prompts {
        bytes[p] = b' ';
    }
    // Only an ASCII byte was replaced by another.
    *text = String::from_utf8(bytes).unwrap_or_default();
    prompts
}

/// Options of curl that take a value (the next argument, or the rest of a short cluster).
const VALUE_OPTIONS: &[&str] = &[
    "-H",
    "--header",
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-ascii",
    "--data-urlencode",
    "--json",
    "-X",
    "--request",
    "--url",
    "-o",
    "--output",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-w",
    "--write-out",
    "-m",
    "--max-time",
    "--connect-timeout",
    "-b",
    "--cookie",
    "-c",
    "--cookie-jar",
    "-F",
    "--form",
    "-T",
    "--upload-file",
    "-x",
    "--proxy",
    "-K",
    "--config",
    "--retry",
    "--cacert",
    "--cert",
    "--key",
    "-E",
    "-r",
    "--range",
    "--resolve",
    "--limit-rate",
    "-y",
    "-Y",
    "-z",
    "--variable",
    "--expand-data",
    "--expand-url",
];
const DATA_OPTIONS: &[&str] = &[
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-ascii",
    "--json",
];

/// What a script does with the API: its curl requests and jq reads.
/// `prompts` are the offsets of the session prompts read as spaces (see [`parse`]).
pub fn facts(tree: &treesitter::Tree, text: &str, prompts: &[usize]) -> Facts {
    let mut facts = Facts {
        comments: treesitter::ranges_of_kinds(tree, &["comment"]),
        ..Facts::default()
    };
    let mut filters: Vec<Node> = Vec::new();
    let mut patterns: Vec<Node> = Vec::new();
    let mut commands: Vec<Node> = Vec::new();
    treesitter::visit(tree.root_node(), &mut |node| {
        if node.kind() == "command" {
            match command_name(node, text) {
                Some("curl") => commands.push(node),
                Some("jq") => filters.extend(children(node).filter(|a| is_quoted(*a))),
                Some("sed" | "grep" | "egrep" | "awk") => patterns.extend(children(node)),
                _ => {}
            }
        }
        true
    });
    for command in commands {
        if let Some(request) = curl(command, text, prompts, &mut facts) {
            facts.http.push(request);
        }
    }
    // A filter reads what the script's requests return: interactions when every request is one.
    let kinds: Vec<CallKind> = facts.calls.iter().map(|c| c.kind).collect();
    let interactions = !kinds.is_empty() && kinds.iter().all(|k| *k == CallKind::Interactions);
    for filter in filters {
        jq_reads(filter, text, interactions, &mut facts.reads);
    }
    for pattern in patterns {
        pattern_reads(pattern, text, interactions, &mut facts.reads);
    }
    facts
}

/// Fields of a predecessor response body that a text filter (`sed -n '/candidates/,/finishReason/p'`,
/// `grep usageMetadata`) may select lines by: an interaction's body has none of them, so such a
/// filter reads the body the predecessor way, which interlint does not rewrite.
const BODY_FIELDS: &[&str] = &[
    "candidates",
    "finishReason",
    "usageMetadata",
    "promptFeedback",
    "safetyRatings",
];

/// The reads of a response body by a text filter's argument naming one of [`BODY_FIELDS`]: each
/// keeps the script's requests where they are (see MIG007), and is not reported on its own.
fn pattern_reads(argument: Node, text: &str, interactions: bool, reads: &mut Vec<Read>) {
    let range = argument.byte_range();
    let Some(written) = text.get(range.clone()) else {
        return;
    };
    for field in BODY_FIELDS {
        for (i, _) in written.match_indices(field) {
            let start = range.start + i;
            reads.push(body_read(
                ReadKind::Tested,
                start..start + field.len(),
                interactions,
            ));
        }
    }
}

fn command_name<'a>(command: Node, text: &'a str) -> Option<&'a str> {
    let name = text_of(command.child_by_field_name("name")?, text);
    Some(name.rsplit('/').next().unwrap_or(name))
}

fn is_quoted(node: Node) -> bool {
    matches!(node.kind(), "raw_string" | "string" | "word" | "concatenation")
}

/// A shell word's value as far as it is literal: quotes removed, expansions left as written.
fn word_value(node: Node, text: &str) -> String {
    let raw = text_of(node, text);
    match node.kind() {
        "raw_string" => raw.trim_matches('\'').to_string(),
        "string" => raw
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .unwrap_or(raw)
            .to_string(),
        "concatenation" => children(node).map(|c| word_value(c, text)).collect(),
        "word" => raw.replace('\\', ""),
        _ => raw.to_string(),
    }
}

/// An option of a curl command with its value node (or attached value).
struct CurlOption<'t> {
    name: String,
    value: Option<Node<'t>>,
    attached: Option<String>,
}

fn curl<'t>(command: Node<'t>, text: &str, prompts: &[usize], facts: &mut Facts) -> Option<HttpRequest> {
    let args: Vec<Node<'t>> = {
        let mut cursor = command.walk();
        command.children_by_field_name("argument", &mut cursor).collect()
    };
    let mut options: Vec<CurlOption<'t>> = Vec::new();
    let mut positional: Vec<Node<'t>> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i];
        let value = word_value(arg, text);
        i += 1;
        if value.starts_with("--") && value.len() > 2 {
            let (name, attached) = match value.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (value.clone(), None),
            };
            let takes = VALUE_OPTIONS.contains(&name.as_str()) && attached.is_none();
            let node = takes.then(|| args.get(i).copied()).flatten();
            i += usize::from(node.is_some());
            options.push(CurlOption {
                name,
                value: node,
                attached,
            });
        } else if value.starts_with('-') && value.len() > 1 && arg.kind() == "word" {
            // A cluster of short options: the first one taking a value takes the rest, or the
            // next argument.
            for (k, c) in value.char_indices().skip(1) {
                let name = format!("-{c}");
                if VALUE_OPTIONS.contains(&name.as_str()) {
                    let rest = &value[k + c.len_utf8()..];
                    let (node, attached) = if rest.is_empty() {
                        let node = args.get(i).copied();
                        i += usize::from(node.is_some());
                        (node, None)
                    } else {
                        (None, Some(rest.to_string()))
                    };
                    options.push(CurlOption {
                        name,
                        value: node,
                        attached,
                    });
                    break;
                }
                options.push(CurlOption {
                    name,
                    value: None,
                    attached: None,
                });
            }
        } else {
            positional.push(arg);
        }
    }
    let urls: Vec<Node<'t>> = options
        .iter()
        .filter(|o| o.name == "--url")
        .filter_map(|o| o.value)
        .chain(positional.iter().copied())
        .collect();
    let url = urls
        .iter()
        .copied()
        .find(|u| rest::names_service(text, u.byte_range()))
        .or_else(|| urls.first().copied());
    let url_call = url.and_then(|u| rest::url_call(text, u.byte_range()));
    let platform = url.is_some_and(|u| rest::names_service(text, u.byte_range())) && url_call.is_none();

    let mut headers = Vec::new();
    let mut header_nodes = Vec::new();
    let mut header_option = "-H";
    for option in options.iter().filter(|o| o.name == "-H" || o.name == "--header") {
        let value = match (&option.value, &option.attached) {
            (Some(node), _) => {
                header_nodes.push(*node);
                header_option = if option.name == "--header" {
                    "--header"
                } else {
                    "-H"
                };
                word_value(*node, text)
            }
            (None, Some(attached)) => attached.clone(),
            (None, None) => continue,
        };
        if let Some((name, _)) = value.split_once(':') {
            headers.push(name.trim().to_string());
        }
    }
    let data: Vec<&CurlOption> = options
        .iter()
        .filter(|o| DATA_OPTIONS.contains(&o.name.as_str()))
        .collect();
    let known_url = url_call.is_some() || platform;
    let mut model_value = None;
    let body = match data.as_slice() {
        [] => Body::None,
        [only] => match (&only.value, &only.attached) {
            (Some(node), _) => {
                let (body, quoting) = body(command, *node, text, url_call.as_ref(), facts);
                if let (Some(p), Some(quoting)) =
                    (url_call.as_ref().and_then(|u| u.predecessor.as_ref()), quoting)
                {
                    model_value = model_value_in(text.get(p.model.clone()).unwrap_or_default(), quoting);
                }
                body
            }
            (None, Some(attached)) => {
                Body::Unknown(format!("the body is written as `{}{attached}`", only.name))
            }
            (None, None) => Body::None,
        },
        _ => Body::Unknown("the body is given by several data options".into()),
    };
    if !known_url && !matches!(body, Body::Json(_)) {
        return None;
    }
    let anchor = header_nodes.last().copied().or(url);
    let header_insert = anchor.map(|a| {
        (
            a.end_byte(),
            header_text(a, command, header_option, text, prompts),
        )
    });
    Some(HttpRequest {
        range: command.byte_range(),
        url: url.map(|u| u.byte_range()),
        headers,
        header_insert,
        body,
        model_value,
        url_edits: Vec::new(),
    })
}

/// How the text of a body is quoted in the script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quoting {
    /// `'...'`: a `'` cannot be written; a variable is spliced in as `'"$VAR"'`.
    Single,
    /// A here-document whose delimiter is not quoted: `$VAR` expands.
    Heredoc,
    /// A here-document with a quoted delimiter (`<<'EOF'`): nothing expands.
    LiteralHeredoc,
}

/// The URL's model as a JSON value of a body quoted this way.
fn model_value_in(model: &str, quoting: Quoting) -> Option<String> {
    if rest::is_literal_id(model) {
        return Some(format!("\"{model}\""));
    }
    let variable = model.starts_with('$') && !model.contains(['\'', '"', '`', '(', ' ']);
    match quoting {
        Quoting::Single if variable => Some(format!("\"'\"{model}\"'\"")),
        Quoting::Heredoc if variable => Some(format!("\"{model}\"")),
        _ => None,
    }
}

/// The body given by a data option's value.
fn body(
    command: Node,
    value: Node,
    text: &str,
    url: Option<&UrlCall>,
    facts: &mut Facts,
) -> (Body, Option<Quoting>) {
    let written = word_value(value, text);
    if written == "@-" {
        let heredoc = command
            .parent()
            .filter(|p| p.kind() == "redirected_statement")
            .and_then(|p| children(p).find(|c| c.kind() == "heredoc_redirect"));
        let Some(heredoc) = heredoc else {
            return (Body::Unknown("the body is read from standard input".into()), None);
        };
        let quoted = children(heredoc)
            .find(|c| c.kind() == "heredoc_start")
            .is_some_and(|s| text_of(s, text).contains(['\'', '"', '\\']));
        let Some(content) = children(heredoc).find(|c| c.kind() == "heredoc_body") else {
            return (Body::Unknown("the here-document is empty".into()), None);
        };
        let holes: Vec<Range<usize>> = children(content)
            .filter(|c| c.kind() != "heredoc_content")
            .map(|c| c.byte_range())
            .collect();
        let literal = treesitter::complement(content.end_byte(), &holes)
            .into_iter()
            .filter_map(|r| {
                let r = r.start.max(content.start_byte())..r.end;
                (r.start < r.end).then_some(r)
            })
            .collect();
        let (quoting, forbidden) = if quoted {
            (Quoting::LiteralHeredoc, "")
        } else {
            (Quoting::Heredoc, "$`\\")
        };
        return (
            rest::json_body(content.byte_range(), literal, forbidden, text, url, facts),
            Some(quoting),
        );
    }
    if let Some(file) = written.strip_prefix('@') {
        // A file named literally is checked on its own; one named by a variable or made by a
        // command (`@<(echo ...)`, `@$TMP`) is not followed.
        let raw = text_of(value, text);
        return if file.is_empty() {
            (
                Body::Unknown("the body is produced by a command (`@<(...)`)".into()),
                None,
            )
        } else if file.contains(['$', '`', '(']) {
            (
                Body::Unknown(format!(
                    "the body is read from `{raw}`, which interlint does not follow"
                )),
                None,
            )
        } else {
            (Body::File(file.to_string()), None)
        };
    }
    let pieces: Vec<Node> = match value.kind() {
        "raw_string" => vec![value],
        "concatenation" => children(value).collect(),
        "string" => {
            return (
                Body::Unknown("the body is a double-quoted string; its escapes are not rewritten".into()),
                None,
            );
        }
        _ => {
            return (
                Body::Unknown(format!("the body is `{}`", text_of(value, text))),
                None,
            );
        }
    };
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else {
        return (Body::Unknown("the body is empty".into()), None);
    };
    if first.kind() != "raw_string" {
        return (
            Body::Unknown("the body does not start with a single-quoted string".into()),
            None,
        );
    }
    let start = first.start_byte() + 1;
    let end = if last.kind() == "raw_string" {
        last.end_byte().saturating_sub(1)
    } else {
        last.end_byte()
    };
    let literal = pieces
        .iter()
        .filter(|p| p.kind() == "raw_string")
        .map(|p| p.start_byte() + 1..p.end_byte().saturating_sub(1).max(p.start_byte() + 1))
        .collect();
    (
        rest::json_body(start..end.max(start), literal, "'", text, url, facts),
        Some(Quoting::Single),
    )
}

/// How a header is added after `anchor` (the last header, or the URL), with the option the
/// command already uses: on a line of its own when the command continues on the next line,
/// else on the same line.
fn header_text(anchor: Node, command: Node, option: &str, text: &str, prompts: &[usize]) -> String {
    let rest = text
        .get(anchor.end_byte()..command.end_byte())
        .unwrap_or_default();
    let continued = rest.trim_start_matches([' ', '\t']).starts_with("\\\n")
        || rest.trim_start_matches([' ', '\t']).starts_with("\\\r\n");
    if continued {
        let next_line = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let mut indent: String = rest
            .get(next_line..)
            .unwrap_or_default()
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        // A session's continuation prompt is written again on the new line.
        let line_start = anchor.end_byte() + next_line;
        if let Some(p) = prompts
            .iter()
            .find(|p| (line_start..line_start + indent.len()).contains(*p))
        {
            indent.replace_range(p - line_start..p - line_start + 1, ">");
        }
        let newline = if rest.contains("\r\n") { "\r\n" } else { "\n" };
        format!(" \\{newline}{indent}{option} '{{name}}: {{value}}'")
    } else {
        format!(" {option} '{{name}}: {{value}}'")
    }
}

/// The reads of a response in a jq filter: `.candidates[0].content.parts[0].text` and kin.
fn jq_reads(filter: Node, text: &str, interactions: bool, reads: &mut Vec<Read>) {
    let range = filter.byte_range();
    let Some(written) = text.get(range.clone()) else {
        return;
    };
    for (i, _) in written.match_indices(".candidates") {
        let start = range.start + i;
        let after = &written[i + ".candidates".len()..];
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '[' | ']' | '_' | '-')))
            .unwrap_or(after.len());
        let chain = &after[..len];
        let Some(kind) = ReadKind::of_candidates_chain(chain) else {
            continue;
        };
        reads.push(body_read(
            kind,
            start..start + ".candidates".len() + len,
            interactions,
        ));
    }
    // The token counts (`.usageMetadata.totalTokenCount`): a read of the body too, which an
    // interaction names otherwise (`.usage.total_tokens`).
    for field in [".usageMetadata", ".usage_metadata"] {
        for (i, _) in written.match_indices(field) {
            let after = &written[i + field.len()..];
            if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let start = range.start + i;
            reads.push(body_read(
                ReadKind::Usage { member: None },
                start..start + field.len(),
                interactions,
            ));
        }
    }
}

/// A filter's read of a response body at `range` (no receiver written: the body piped or read
/// from a file), of an interaction when every request of the script is one.
fn body_read(kind: ReadKind, range: std::ops::Range<usize>, interactions: bool) -> Read {
    Read {
        kind,
        receiver: range.start..range.start,
        range,
        origin: match interactions {
            true => Origin::Interaction,
            false => Origin::Response,
        },
        all_interactions: interactions,
        detached: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts_of(text: &str) -> (Document, Facts) {
        let doc = parse(text.to_string());
        let Syntax::TreeSitter(tree) = &doc.syntax else {
            panic!("parsed")
        };
        let facts = facts(tree, &doc.text, &doc.prompts);
        (doc, facts)
    }

    #[test]
    fn a_curl_request_with_a_spliced_variable() {
        let text = "curl \"https://h/v1beta/models/model-2.0-flash:generateContent?key=$K\" \\\n  -H 'Content-Type: application/json' \\\n  -d '{\"contents\": [{\"parts\": [{\"text\": \"'\"$P\"'\"}]}], \"generationConfig\": {\"temperature\": 0.5}}' | jq -r '.candidates[0].content.parts[0].text'\n";
        let (doc, facts) = facts_of(text);
        assert_eq!(facts.http.len(), 1);
        let request = &facts.http[0];
        assert_eq!(request.headers, ["Content-Type"]);
        assert_eq!(request.model_value.as_deref(), Some("\"model-2.0-flash\""));
        let Body::Json(body) = &request.body else {
            panic!("{:?}", request.body)
        };
        let call = &facts.calls[body.call];
        assert_eq!(call.kind, CallKind::Rest { stream: false });
        assert_eq!(
            call.model,
            crate::migration_facts::ModelRef::Literal("model-2.0-flash".into())
        );
        let keys: Vec<&str> = call.args.iter().map(|a| a.key.as_str()).collect();
        assert_eq!(keys, ["contents", "generationConfig"]);
        assert_eq!(
            &doc.text[call.args[1].range.clone()],
            "\"generationConfig\": {\"temperature\": 0.5}"
        );
        let (at, insert) = request.header_insert.clone().unwrap();
        assert_eq!(&doc.text[..at], &text[..text.find("json'").unwrap() + 5]);
        assert_eq!(insert, " \\\n  -H '{name}: {value}'");
        assert_eq!(facts.reads.len(), 1);
        assert!(facts.reads[0].detached);
        assert_eq!(
            &doc.text[facts.reads[0].range.clone()],
            ".candidates[0].content.parts[0].text"
        );
    }

    #[test]
    fn heredoc_bodies_and_prompts() {
        let text = "$ curl -s \"$BASE/v1beta/models/$MODEL:streamGenerateContent?alt=sse\" -d @- <<EOF\n{\"contents\": [{\"parts\": [{\"text\": \"$Q\"}]}]}\nEOF\n";
        let (doc, facts) = facts_of(text);
        assert!(doc.text.starts_with("  curl"));
        let request = &facts.http[0];
        assert_eq!(request.model_value.as_deref(), Some("\"$MODEL\""));
        let Body::Json(body) = &request.body else {
            panic!("{:?}", request.body)
        };
        assert_eq!(body.forbidden, "$`\\");
        assert_eq!(facts.calls[body.call].kind, CallKind::Rest { stream: true });
        assert_eq!(request.header_insert.clone().unwrap().1, " -H '{name}: {value}'");
    }

    #[test]
    fn other_bodies_and_hosts() {
        let (_, facts) =
            facts_of("curl https://api.openai.com/v1/chat/completions -d '{\"temperature\": 1}'\n");
        assert!(facts.http.is_empty());
        let (_, facts) = facts_of("curl https://h/v1beta/models/m:generateContent -d @request.json\n");
        assert!(matches!(&facts.http[0].body, Body::File(f) if f == "request.json"));
        let (_, facts) =
            facts_of("curl -XPOST https://h/v1beta/interactions -H 'api-revision: 1' -d \"{}\"\n");
        assert!(facts.http[0].has_header("Api-Revision"));
        assert!(matches!(facts.http[0].body, Body::Unknown(_)));
    }
}
