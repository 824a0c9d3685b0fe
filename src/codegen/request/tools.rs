//! A request's tools in the interactions shape: one typed tool per old declaration
//! (`{"type": "function", ...}`, `{"type": "google_search"}`), and a Python tool that may be a
//! function the old client called by itself.
//!
//! It imports the writer kit and structured output (a schema's type names).

use crate::codegen::writer::Dialect;
use crate::codegen::writer::lines::is_dotted_name;
use crate::migration_facts::{Value, ValueKind};
use crate::request_fields::{RequestFields, RetrievalSource, snake_case};

/// Whether `written` is the class of the settings of the built-in tool `key`, not called
/// (`code_execution=types.ToolCodeExecution`, `url_context=UrlContext`), which python-genai's
/// pydantic models take as those settings with none set: the class named after the tool, in
/// upper camel case, with or without a `Tool` prefix.
fn settings_class(written: &str, key: &str) -> bool {
    let class = written.trim().rsplit('.').next().unwrap_or_default();
    let dotted = written
        .trim()
        .split('.')
        .all(|segment| !segment.is_empty() && segment.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()));
    let mut camel = crate::request_fields::camel_case(key);
    if let Some(first) = camel.get(..1) {
        camel = first.to_ascii_uppercase() + &camel[1..];
    }
    dotted && (class == camel || class.strip_prefix("Tool") == Some(camel.as_str()))
}

/// A request's `tools` in the interactions shape: each old tool object becomes one typed tool
/// per entry (`{"function_declarations": [d, ...]}` → `{"type": "function", ...d}` each,
/// `{"google_search": {}}` → `{"type": "google_search"}` for the `type_only` tools of
/// `rules/request_fields.toml`); or why it cannot be written.
pub(crate) fn tools_value(
    value: &Value,
    text: &str,
    dialect: Dialect,
    fields: &RequestFields,
) -> Result<String, String> {
    let type_only = &fields.type_only_tools;
    let items: &[Value] = match &value.kind {
        ValueKind::List(items) => items,
        // The legacy client's shorthand of one built-in tool (`tools="code_execution"`).
        ValueKind::Str(tool) if type_only.contains(tool) => {
            return Ok(format!(
                "[{}]",
                dialect.map(&[("type".to_string(), dialect.string(tool))])
            ));
        }
        _ => {
            return Err(format!(
                "`tools` is `{}`, not a list written in the request; its tools need the interactions shape \
                 (`{{\"type\": \"function\", ...}}`)",
                crate::diagnostic::one_line(text.get(value.range.clone()).unwrap_or_default())
            ));
        }
    };
    let mut tools = Vec::new();
    for item in items {
        let written = text.get(item.range.clone()).unwrap_or_default();
        let Some(map) = item.resolved_map().filter(|m| m.complete) else {
            return Err(format!(
                "the tool `{}` is not an object interlint can read",
                crate::diagnostic::one_line(written)
            ));
        };
        for entry in &map.entries {
            let key = snake_case(&entry.key);
            if type_only.contains(&key) {
                let empty = entry
                    .value
                    .as_map()
                    .is_some_and(|m| m.complete && m.entries.is_empty())
                    || settings_class(text.get(entry.value.range.clone()).unwrap_or_default(), &key);
                if !empty {
                    return Err(format!(
                        "the tool `{}` has settings interlint does not carry over",
                        entry.key
                    ));
                }
                tools.push(dialect.map(&[("type".to_string(), dialect.string(&key))]));
                continue;
            }
            // A built-in tool whose settings keep their names.
            if let Some(carried) = fields.flat_tools.get(&key) {
                tools.push(flat_tool(&key, &entry.value, carried, text, dialect)?);
                continue;
            }
            if key == "retrieval" {
                tools.push(retrieval_tool(
                    &entry.value,
                    &fields.retrieval_source,
                    text,
                    dialect,
                )?);
                continue;
            }
            if key != "function_declarations" {
                return Err(format!(
                    "the tool `{}` has no automatic rewrite to the interactions shape",
                    entry.key
                ));
            }
            let ValueKind::List(declarations) = &entry.value.kind else {
                return Err(format!("`{}` is not a list written in the request", entry.key));
            };
            for declaration in declarations {
                let shown = text.get(declaration.range.clone()).unwrap_or_default();
                let Some(fields) = declaration.resolved_map().filter(|m| m.complete) else {
                    return Err(format!(
                        "the function declaration `{}` is not an object interlint can read",
                        crate::diagnostic::one_line(shown)
                    ));
                };
                let mut function = vec![("type".to_string(), dialect.string("function"))];
                for field in &fields.entries {
                    let name = snake_case(&field.key);
                    let value = text.get(field.value.range.clone()).unwrap_or_default();
                    match name.as_str() {
                        "name" | "description" => function.push((name, value.to_string())),
                        "parameters" | "parameters_json_schema" => {
                            if field.value.as_map().is_some_and(|m| m.wrapper.is_some()) {
                                return Err(format!(
                                    "the function declaration's `{}` is a typed schema; write it as JSON Schema",
                                    field.key
                                ));
                            }
                            function.push(("parameters".to_string(), lower_schema_types(value)))
                        }
                        other => {
                            return Err(format!(
                                "the function declaration's `{other}` has no place in an interactions tool"
                            ));
                        }
                    }
                }
                tools.push(dialect.map(&function));
            }
        }
    }
    Ok(format!("[{}]", tools.join(", ")))
}

/// The built-in tool `key` whose settings (`value`, an object or the settings class not called)
/// keep their names in the interactions tool, those of `carried` alone:
/// `{"type": "file_search", "file_search_store_names": [...]}`.
fn flat_tool(
    key: &str,
    value: &Value,
    carried: &[String],
    text: &str,
    dialect: Dialect,
) -> Result<String, String> {
    let mut tool = vec![("type".to_string(), dialect.string(key))];
    if settings_class(text.get(value.range.clone()).unwrap_or_default(), key) {
        return Ok(dialect.map(&tool));
    }
    let Some(settings) = value.resolved_map().filter(|m| m.complete) else {
        return Err(format!(
            "the tool `{key}`'s settings `{}` are not an object interlint can read",
            crate::diagnostic::one_line(text.get(value.range.clone()).unwrap_or_default())
        ));
    };
    for setting in &settings.entries {
        let name = snake_case(&setting.key);
        if !carried.contains(&name) {
            return Err(format!(
                "the tool `{key}`'s `{}` is not in interlint's table of the interactions tool's settings",
                setting.key
            ));
        }
        tool.push((name, plain(&setting.value, text, dialect)?));
    }
    Ok(dialect.map(&tool))
}

/// The old `retrieval` tool (`value`, its settings: one source) as the interactions `retrieval`
/// tool, by the `[[retrieval-source]]` table: `{"type": "retrieval", "retrieval_types":
/// ["rag_store"], "rag_store_config": {...}}`.
fn retrieval_tool(
    value: &Value,
    sources: &[RetrievalSource],
    text: &str,
    dialect: Dialect,
) -> Result<String, String> {
    let written = crate::diagnostic::one_line(text.get(value.range.clone()).unwrap_or_default());
    let unreadable =
        || format!("the retrieval tool's settings `{written}` are not an object interlint can read");
    let settings = value
        .resolved_map()
        .filter(|m| m.complete)
        .ok_or_else(unreadable)?;
    let [source] = settings.entries.as_slice() else {
        return Err(format!(
            "the retrieval tool `{written}` does not name one source, which the interactions `retrieval` tool's \
             `retrieval_types` would name"
        ));
    };
    let old = snake_case(&source.key);
    let Some(mapping) = sources.iter().find(|s| s.old == old) else {
        return Err(format!(
            "the retrieval tool's source `{}` is not in interlint's table of the interactions `retrieval` tool's \
             sources",
            source.key
        ));
    };
    let config = source
        .value
        .resolved_map()
        .filter(|m| m.complete)
        .ok_or_else(unreadable)?;
    let mut entries = Vec::new();
    for setting in &config.entries {
        let name = snake_case(&setting.key);
        if let Some(new) = mapping.fields.get(&name) {
            entries.push((new.clone(), plain(&setting.value, text, dialect)?));
        } else if let Some(new) = mapping.one_item_lists.get(&name) {
            entries.push((
                new.clone(),
                format!("[{}]", plain(&setting.value, text, dialect)?),
            ));
        } else if let Some((new, item_key)) = mapping.item_maps.get(&name)
            && let ValueKind::List(items) = &setting.value.kind
        {
            let items: Vec<String> = items
                .iter()
                .map(|item| Ok(dialect.map(&[(item_key.clone(), plain(item, text, dialect)?)])))
                .collect::<Result<_, String>>()?;
            entries.push((new.clone(), format!("[{}]", items.join(", "))));
        } else {
            return Err(format!(
                "the retrieval tool's `{}` setting `{}` has no counterpart interlint carries over to the \
                 interactions `retrieval` tool",
                source.key, setting.key
            ));
        }
    }
    Ok(dialect.map(&[
        ("type".to_string(), dialect.string("retrieval")),
        (
            "retrieval_types".to_string(),
            format!("[{}]", dialect.string(&mapping.retrieval_type)),
        ),
        (mapping.config.clone(), dialect.map(&entries)),
    ]))
}

/// A setting's value as a plain value: objects (typed constructors too) as plain objects with
/// keys in snake_case, lists item by item, anything else as written; `Err` for a name bound to a
/// typed object, or an object whose entries are not all known.
fn plain(value: &Value, text: &str, dialect: Dialect) -> Result<String, String> {
    let written = text.get(value.range.clone()).unwrap_or_default();
    match &value.kind {
        ValueKind::Map(map) if map.complete => {
            let entries: Vec<(String, String)> = map
                .entries
                .iter()
                .map(|e| Ok((snake_case(&e.key), plain(&e.value, text, dialect)?)))
                .collect::<Result<_, String>>()?;
            Ok(dialect.map(&entries))
        }
        ValueKind::List(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| plain(item, text, dialect))
                .collect::<Result<_, String>>()?;
            Ok(format!("[{}]", items.join(", ")))
        }
        ValueKind::Map(_) => Err(format!(
            "`{}` is not an object interlint can read",
            crate::diagnostic::one_line(written)
        )),
        ValueKind::Name(name)
            if name
                .value
                .as_ref()
                .and_then(|v| v.as_map())
                .is_some_and(|m| m.wrapper.is_some()) =>
        {
            Err(format!(
                "`{}` is bound to a typed object, not a plain one",
                name.name
            ))
        }
        // An object another library builds (`rag.RagResource(...)`), written or bound once.
        ValueKind::Name(name)
            if name
                .value
                .as_ref()
                .and_then(|v| text.get(v.range.clone()))
                .is_some_and(constructs_object) =>
        {
            Err(format!(
                "`{}` is bound to `{}`, an object of a library's own type, not a plain value",
                name.name,
                crate::diagnostic::one_line(
                    name.value
                        .as_ref()
                        .and_then(|v| text.get(v.range.clone()))
                        .unwrap_or_default()
                )
            ))
        }
        _ if constructs_object(written) => Err(format!(
            "`{}` is an object of a library's own type, not a plain value",
            crate::diagnostic::one_line(written)
        )),
        _ => Ok(written.to_string()),
    }
}

/// Whether `written` calls a class (`rag.RagResource(...)`, `new Resource(...)`): a call whose
/// callee's last name starts with a capital letter.
fn constructs_object(written: &str) -> bool {
    let written = written.trim().strip_prefix("new ").unwrap_or(written.trim());
    let Some((callee, _)) = written.split_once('(') else {
        return false;
    };
    written.ends_with(')')
        && is_dotted_name(callee)
        && callee
            .rsplit('.')
            .next()
            .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// A schema's OpenAPI-style type names as JSON Schema's (`"OBJECT"` → `"object"`).
fn lower_schema_types(schema: &str) -> String {
    super::structured_output::lower_type_names(schema).unwrap_or_else(|| schema.to_string())
}

/// An item of a Python `tools` list written in the request that is not known to be a tool
/// declaration (a dict, a typed wrapper, a name bound to one): a function, perhaps, as written.
pub(crate) fn callable_tool<'t>(value: &crate::migration_facts::Value, text: &'t str) -> Option<&'t str> {
    let items: &[crate::migration_facts::Value] = match &value.kind {
        ValueKind::List(items) => items,
        // A list from elsewhere (a parameter) is the caller's to review: the fix is unsafe.
        ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
            Some(ValueKind::List(items)) => items,
            _ => return None,
        },
        _ => return None,
    };
    items.iter().find_map(|item| match &item.kind {
        ValueKind::Map(_) => None,
        ValueKind::Name(name)
            if name
                .value
                .as_ref()
                .is_some_and(|v| matches!(v.kind, ValueKind::Map(_))) =>
        {
            None
        }
        _ => text.get(item.range.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::settings_class;

    #[test]
    fn a_tool_settings_class_not_called_is_no_settings() {
        assert!(settings_class("types.ToolCodeExecution", "code_execution"));
        assert!(settings_class("UrlContext", "url_context"));
        assert!(settings_class("genai.types.GoogleSearch", "google_search"));
        assert!(!settings_class(
            "types.GoogleSearch(time_range_filter=t)",
            "google_search"
        ));
        assert!(!settings_class("search_settings", "google_search"));
        assert!(!settings_class("types.UrlContext", "code_execution"));
    }
}
