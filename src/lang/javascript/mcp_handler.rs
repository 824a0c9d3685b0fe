//! What a TypeScript/JavaScript tool's handler returns and how it fails (source document
//! sections 2.4 and 7), and the resources an `McpServer` registers (section 4.3).

use tree_sitter::Node;

use super::facts::string_value;
use crate::lang::treesitter::{children, inside_within as under, text_of, visit};
use crate::mcp::{Handler, Resource};

/// Nodes of the function's own body: not those of a nested function.
fn own_nodes<'t>(function: Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let Some(body) = function.child_by_field_name("body") else {
        return out;
    };
    visit(body, &mut |n| {
        if n.id() != body.id()
            && matches!(
                n.kind(),
                "arrow_function"
                    | "function_expression"
                    | "function_declaration"
                    | "method_definition"
                    | "class"
            )
        {
            return false;
        }
        out.push(n);
        true
    });
    out
}

/// The key of an object member: `a: 1`, `"a": 1`, shorthand `a`.
fn member_key(member: Node, text: &str) -> Option<String> {
    match member.kind() {
        "pair" => {
            let key = member.child_by_field_name("key")?;
            match key.kind() {
                "string" => string_value(key, text),
                "property_identifier" => Some(text_of(key, text).to_string()),
                _ => None,
            }
        }
        "shorthand_property_identifier" => Some(text_of(member, text).to_string()),
        _ => None,
    }
}

/// The text of a string or template literal (`${...}` as `{...}`).
fn literal_text(node: Node, text: &str) -> Option<String> {
    match node.kind() {
        "string" => string_value(node, text),
        "template_string" => {
            let raw = text_of(node, text);
            let inner = raw.strip_prefix('`')?.strip_suffix('`')?;
            let mut out = String::new();
            let mut rest = inner;
            while let Some(open) = rest.find("${") {
                out.push_str(&rest[..open]);
                out.push_str("{...}");
                rest = rest[open..]
                    .find('}')
                    .map_or("", |close| &rest[open + close + 1..]);
            }
            out.push_str(rest);
            Some(out)
        }
        _ => None,
    }
}

/// The `text` of the first content item of a returned result object
/// (`{ content: [{ type: "text", text: ... }] }`).
fn result_text<'t>(object: Node<'t>, text: &str) -> Option<Node<'t>> {
    let content = children(object)
        .find(|m| member_key(*m, text).as_deref() == Some("content"))?
        .child_by_field_name("value")?;
    let first = children(content).find(|c| c.kind() == "object")?;
    children(first)
        .find(|m| member_key(*m, text).as_deref() == Some("text"))?
        .child_by_field_name("value")
}

/// The object a `JSON.stringify(...)` in the handler writes: a literal, or bound to a name in
/// the handler; with the name.
fn stringified<'t>(call: Node<'t>, own: &[Node<'t>], text: &str) -> Option<(Node<'t>, Option<String>)> {
    let function = call.child_by_field_name("function")?;
    if text_of(function, text) != "JSON.stringify" {
        return None;
    }
    let argument = children(call.child_by_field_name("arguments")?).find(|c| c.is_named())?;
    match argument.kind() {
        "object" => Some((argument, None)),
        "identifier" => {
            let name = text_of(argument, text);
            own.iter().find_map(|n| {
                let value = n.child_by_field_name("value")?;
                (n.kind() == "variable_declarator"
                    && n.child_by_field_name("name")
                        .is_some_and(|x| text_of(x, text) == name)
                    && value.kind() == "object")
                    .then(|| (value, Some(name.to_string())))
            })
        }
        _ => None,
    }
}

/// The handler facts of a tool's callback.
pub fn handler(function: Node, text: &str) -> Handler {
    let own = own_nodes(function);
    let paging: Vec<String> = crate::mcp::conventions().map_or_else(Vec::new, |c| c.result_fields.clone());
    let mut out = Handler::default();
    let mut result: Option<(std::ops::Range<usize>, Vec<String>)> = None;
    let mut unreadable = false;
    let mut looks_like_a_page = false;
    for &node in &own {
        match node.kind() {
            "throw_statement" if !under(node, function, "try_statement") => {
                out.unhandled.push(node.byte_range());
            }
            "return_statement" if under(node, function, "catch_clause") => {
                let value = children(node).find(|c| c.is_named());
                if let Some(value) = value.filter(|v| v.kind() == "object")
                    && let Some(shown) = result_text(value, text)
                    && let Some(literal) = literal_text(shown, text)
                {
                    out.error_texts.push((shown.byte_range(), literal));
                }
            }
            "call_expression" => {
                let Some((object, name)) = stringified(node, &own, text) else {
                    continue;
                };
                let mut keys = Vec::new();
                for member in children(object) {
                    if member.kind() == "spread_element" {
                        unreadable = true;
                    }
                    if let Some(key) = member_key(member, text) {
                        let value = member.child_by_field_name("value");
                        looks_like_a_page |= paging.contains(&key)
                            || value.is_some_and(|v| {
                                v.kind() == "array"
                                    || [".map(", ".slice(", ".filter("]
                                        .iter()
                                        .any(|m| text_of(v, text).contains(m))
                            });
                        keys.push(key);
                    }
                }
                if let Some(name) = name {
                    // `page.next_offset = ...` set later.
                    for n in &own {
                        if n.kind() != "assignment_expression" {
                            continue;
                        }
                        let Some(left) = n
                            .child_by_field_name("left")
                            .filter(|l| l.kind() == "member_expression")
                        else {
                            continue;
                        };
                        if left
                            .child_by_field_name("object")
                            .is_some_and(|o| text_of(o, text) == name)
                            && let Some(property) = left.child_by_field_name("property")
                        {
                            keys.push(text_of(property, text).to_string());
                        }
                    }
                }
                match &mut result {
                    Some((_, all)) => all.extend(keys),
                    None => result = Some((object.byte_range(), keys)),
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

/// A resource registration: `server.registerResource(name, uri, metadata, handler)` or
/// `server.resource(name, uri, [metadata,] handler)`, the URI a string or a
/// `new ResourceTemplate("...", ...)`.
pub fn resource(call: Node, function: Node, text: &str) -> Option<Resource> {
    let property = text_of(function.child_by_field_name("property")?, text);
    if !matches!(property, "registerResource" | "resource") {
        return None;
    }
    let args: Vec<Node> = children(call.child_by_field_name("arguments")?)
        .filter(|c| c.is_named() && c.kind() != "comment")
        .collect();
    if args.len() < 3 {
        return None;
    }
    let uri_node = args[1];
    let uri = match uri_node.kind() {
        "string" => string_value(uri_node, text)?,
        "new_expression"
            if uri_node
                .child_by_field_name("constructor")
                .is_some_and(|c| text_of(c, text) == "ResourceTemplate") =>
        {
            let first = children(uri_node.child_by_field_name("arguments")?).find(|c| c.is_named())?;
            string_value(first, text)?
        }
        _ => return None,
    };
    let handler = *args.last()?;
    if !matches!(handler.kind(), "arrow_function" | "function_expression") {
        return None;
    }
    // The metadata: the third argument of registerResource; for `resource`, an object between
    // the URI and the handler.
    let metadata = args[2..args.len() - 1]
        .iter()
        .copied()
        .find(|a| a.kind() == "object");
    let keys: Vec<String> = metadata
        .map(|m| {
            children(m)
                .filter_map(|member| member_key(member, text))
                .collect()
        })
        .unwrap_or_default();
    let opaque_metadata = metadata.is_some_and(|m| children(m).any(|c| c.kind() == "spread_element"))
        || args[2..args.len() - 1].iter().any(|a| a.kind() == "identifier");
    let parameters = handler.child_by_field_name("parameters").and_then(|list| {
        let params: Vec<Node> = children(list)
            .filter(|c| c.is_named() && c.kind() != "comment")
            .collect();
        // (uri, { a, b }) or (uri, variables): the second parameter holds the template's.
        let second = params.get(1)?;
        let pattern = match second.kind() {
            "required_parameter" | "optional_parameter" => second.child_by_field_name("pattern")?,
            _ => *second,
        };
        (pattern.kind() == "object_pattern").then(|| {
            children(pattern)
                .filter_map(|p| match p.kind() {
                    "shorthand_property_identifier_pattern" => Some(text_of(p, text).to_string()),
                    "pair_pattern" => p.child_by_field_name("key").map(|k| text_of(k, text).to_string()),
                    "object_assignment_pattern" => p
                        .child_by_field_name("left")
                        .map(|k| text_of(k, text).to_string()),
                    _ => None,
                })
                .collect()
        })
    });
    Some(Resource {
        range: function.byte_range(),
        uri,
        described: opaque_metadata || keys.iter().any(|k| k == "description"),
        mime_type: opaque_metadata || keys.iter().any(|k| k == "mimeType"),
        parameters,
    })
}
