//! What a Python tool's handler returns and how it fails (source document sections 2.4 and 7),
//! and the resources a FastMCP server registers (section 4.3).

use tree_sitter::Node;

use super::facts::{keyword_in as keyword, string_value};
use crate::lang::treesitter::{children, inside_within as under, text_of, visit};
use crate::mcp::{Handler, Resource};

/// Nodes of the function's own body: not those of a nested function, class or lambda.
fn own_nodes<'t>(function: Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let Some(body) = function.child_by_field_name("body") else {
        return out;
    };
    visit(body, &mut |n| {
        if matches!(n.kind(), "function_definition" | "class_definition" | "lambda") {
            return false;
        }
        out.push(n);
        true
    });
    out
}

/// The text of a string literal, f-strings included (their text before any interpolation is
/// what the check needs: how the result starts).
fn literal_text(node: Node, text: &str) -> Option<String> {
    let node = match node.kind() {
        "concatenated_string" => children(node).next()?,
        "parenthesized_expression" => children(node).find(|c| c.is_named())?,
        _ => node,
    };
    if node.kind() != "string" {
        return None;
    }
    let mut out = String::new();
    for child in children(node) {
        match child.kind() {
            "string_content" => out.push_str(text_of(child, text)),
            "interpolation" => out.push_str("{...}"),
            _ => {}
        }
    }
    Some(out)
}

/// The dictionary a returned value is: written there, passed to `json.dumps`, or bound to a
/// name in the function; with the name it is bound to.
fn returned_dict<'t>(value: Node<'t>, own: &[Node<'t>], text: &str) -> Option<(Node<'t>, Option<String>)> {
    let value = match value.kind() {
        "call" => {
            let function = text_of(value.child_by_field_name("function")?, text);
            if !(function == "dumps" || function.ends_with(".dumps")) {
                return None;
            }
            let arguments = value.child_by_field_name("arguments")?;
            children(arguments).find(|c| c.is_named() && c.kind() != "comment")?
        }
        _ => value,
    };
    match value.kind() {
        "dictionary" => Some((value, None)),
        "identifier" => {
            let name = text_of(value, text);
            own.iter().find_map(|n| {
                let left = n.child_by_field_name("left")?;
                let right = n.child_by_field_name("right")?;
                (n.kind() == "assignment" && text_of(left, text) == name && right.kind() == "dictionary")
                    .then(|| (right, Some(name.to_string())))
            })
        }
        _ => None,
    }
}

/// The keys a dictionary literal gets, and those set later on the name it is bound to
/// (`response["next_offset"] = ...`); `None` when a `**spread` hides some.
fn keys(dict: Node, name: Option<&str>, own: &[Node], text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for member in children(dict) {
        match member.kind() {
            "pair" => out.push(string_value(member.child_by_field_name("key")?, text)?),
            "dictionary_splat" => return None,
            _ => {}
        }
    }
    if let Some(name) = name {
        for n in own {
            if n.kind() != "assignment" {
                continue;
            }
            let Some(left) = n.child_by_field_name("left").filter(|l| l.kind() == "subscript") else {
                continue;
            };
            let target = left.child_by_field_name("value").map(|v| text_of(v, text));
            let key = left
                .child_by_field_name("subscript")
                .and_then(|k| string_value(k, text));
            if let (Some(target), Some(key)) = (target, key)
                && target == name
            {
                out.push(key);
            }
        }
    }
    Some(out)
}

/// The handler facts of a tool function.
pub fn handler(function: Node, text: &str) -> Handler {
    let own = own_nodes(function);
    let mut out = Handler::default();
    let mut result: Option<(std::ops::Range<usize>, Vec<String>)> = None;
    let mut looks_like_a_page = false;
    let paging: Vec<String> = crate::mcp::conventions().map_or_else(Vec::new, |c| c.result_fields.clone());
    let mut unreadable = false;
    for &node in &own {
        match node.kind() {
            "call" => {
                let called = node.child_by_field_name("function");
                if called.is_some_and(|f| {
                    f.kind() == "attribute"
                        && f.child_by_field_name("attribute")
                            .is_some_and(|a| text_of(a, text) == "raise_for_status")
                }) && !under(node, function, "try_statement")
                {
                    out.unhandled.push(node.byte_range());
                }
            }
            "return_statement" => {
                let Some(value) = children(node).find(|c| c.is_named() && c.kind() != "comment") else {
                    continue;
                };
                if under(node, function, "except_clause")
                    && let Some(literal) = literal_text(value, text)
                {
                    out.error_texts.push((value.byte_range(), literal));
                }
                if let Some((dict, name)) = returned_dict(value, &own, text) {
                    // A list's page holds a list (`"users": [...]`, a comprehension, a slice)
                    // or a paging field; an object that holds neither is a record, not a page.
                    looks_like_a_page |= children(dict).any(|pair| {
                        pair.child_by_field_name("value").is_some_and(|v| {
                            matches!(v.kind(), "list" | "list_comprehension" | "subscript")
                                || v.kind() == "identifier" && text_of(v, text).ends_with('s')
                        }) || pair
                            .child_by_field_name("key")
                            .and_then(|k| string_value(k, text))
                            .is_some_and(|k| paging.contains(&k))
                    });
                    match keys(dict, name.as_deref(), &own, text) {
                        Some(found) => match &mut result {
                            Some((_, all)) => all.extend(found),
                            None => result = Some((dict.byte_range(), found)),
                        },
                        None => unreadable = true,
                    }
                }
            }
            _ => {}
        }
    }
    if !unreadable && looks_like_a_page {
        out.result = result;
    }
    out
}

/// The default of an input when written as a string or an enum member (its last name).
pub fn default_text(value: Node, text: &str) -> Option<String> {
    match value.kind() {
        "string" => string_value(value, text),
        "attribute" => value
            .child_by_field_name("attribute")
            .map(|a| text_of(a, text).to_string()),
        _ => None,
    }
}

/// The function a `@server.NAME` or `@server.NAME(...)` decorator registers (`method` is
/// `.NAME`), with the decorator's `server.NAME` and its arguments when it is called.
pub(super) fn registered<'t>(
    node: Node<'t>,
    text: &str,
    method: &str,
    is_server: &dyn Fn(&str) -> bool,
) -> Option<(Node<'t>, Node<'t>, Option<Node<'t>>)> {
    let function = node.child_by_field_name("definition")?;
    if function.kind() != "function_definition" {
        return None;
    }
    let (target, arguments) = children(node)
        .filter(|d| d.kind() == "decorator")
        .filter_map(|d| children(d).next())
        .find_map(|expr| {
            let (target, arguments) = match expr.kind() {
                "call" => (
                    expr.child_by_field_name("function")?,
                    expr.child_by_field_name("arguments"),
                ),
                _ => (expr, None),
            };
            let receiver = text_of(target, text).strip_suffix(method)?;
            (target.kind() == "attribute" && is_server(receiver)).then_some((target, arguments))
        })?;
    Some((function, target, arguments))
}

/// Whether a function has a docstring that is not empty. An f-string is not a docstring: the
/// function's `__doc__` stays `None`.
pub(super) fn has_docstring(function: Node, text: &str) -> bool {
    function
        .child_by_field_name("body")
        .and_then(|b| children(b).find(|c| c.kind() != "comment"))
        .filter(|s| s.kind() == "expression_statement")
        .and_then(|s| children(s).next())
        .is_some_and(|s| match s.kind() {
            "string" => string_value(s, text).is_some_and(|v| !v.trim().is_empty()),
            "concatenated_string" => true,
            _ => false,
        })
}

/// The resource a decorated function is, when one of its decorators is `server.resource(...)`.
pub fn resource_of(node: Node, text: &str, is_server: &dyn Fn(&str) -> bool) -> Option<Resource> {
    let (function, target, arguments) = registered(node, text, ".resource", is_server)?;
    let arguments = arguments?;
    let uri_node = keyword(arguments, "uri", text)
        .or_else(|| children(arguments).find(|c| c.is_named() && c.kind() != "keyword_argument"))?;
    // A URI built at run time cannot be compared with the parameters.
    let uri = string_value(uri_node, text)?;
    let described = has_docstring(function, text)
        || keyword(arguments, "description", text)
            .is_some_and(|d| string_value(d, text).is_none_or(|s| !s.trim().is_empty()));
    // FastMCP gives every resource a MIME type, `text/plain` unless told: one is always sent.
    // (Found on python-sdk and fastmcp: 140 resources without `mime_type=` all had one.)
    let mime_type = true;
    let mut parameters = Some(Vec::new());
    if let Some(list) = function.child_by_field_name("parameters") {
        for p in children(list) {
            let name = match p.kind() {
                "identifier" => Some(p),
                "typed_parameter" => children(p).find(|c| c.kind() == "identifier"),
                "default_parameter" | "typed_default_parameter" => p.child_by_field_name("name"),
                // `*args`, `**kwargs`: any parameter is taken.
                "list_splat_pattern" | "dictionary_splat_pattern" => {
                    parameters = None;
                    break;
                }
                _ => None,
            };
            let Some(name) = name.map(|n| text_of(n, text)) else {
                continue;
            };
            let type_text = p.child_by_field_name("type").map_or("", |t| text_of(t, text));
            if matches!(name, "self" | "cls" | "ctx" | "context") || type_text.ends_with("Context") {
                continue;
            }
            if let Some(list) = parameters.as_mut() {
                list.push(name.to_string());
            }
        }
    }
    Some(Resource {
        range: target.byte_range(),
        uri,
        described,
        mime_type,
        parameters,
    })
}
