//! Structured output: a config's `response_mime_type` and schema as one interactions
//! `response_format` (`{"type": "text", "mime_type": ..., "schema": <JSON Schema>}`), the shape
//! of the service's public interactions reference (the source document does not show it); and
//! how the parsed answer is read from an interaction ([`parsed_as`]).
//!
//! It imports the writer kit alone.

use std::sync::LazyLock;

use regex::Regex;

use crate::migration_facts::{Entry, MapValue, Value, ValueKind, is_class_name};
use crate::request_fields::snake_case;

use crate::codegen::writer::Dialect;

/// Config keys that request structured output the predecessor way.
pub(crate) const STRUCTURED_OUTPUT_KEYS: &[&str] =
    &["response_mime_type", "response_schema", "response_json_schema"];

/// The `response_format` value, and the binding of a schema written into it (to remove).
pub(crate) type Format = (String, Option<std::ops::Range<usize>>);

/// A config's structured-output request as the `response_format` value it becomes, with the
/// binding it inlines; `None` when the config has none, `Err` with why it cannot be written.
pub(crate) fn response_format(
    map: &MapValue,
    text: &str,
    dialect: Dialect,
) -> Option<Result<Format, String>> {
    let find = |names: &[&str]| -> Vec<&Entry> {
        map.entries
            .iter()
            .filter(|e| names.contains(&snake_case(&e.key).as_str()))
            .collect()
    };
    let mimes = find(&["response_mime_type"]);
    let schemas = find(&["response_schema", "response_json_schema"]);
    if mimes.is_empty() && schemas.is_empty() {
        return None;
    }
    let result = (|| {
        let [mime] = mimes.as_slice() else {
            return Err("a schema needs the JSON mime type (`application/json`) beside it".to_string());
        };
        // Written as a literal, or a name bound to one (`JSON_MIME_TYPE`).
        let written = match &mime.value.kind {
            ValueKind::Name(name) => name.value.as_ref().map(|v| &v.kind),
            kind => Some(kind),
        };
        match written {
            Some(ValueKind::Str(m)) if m == "application/json" => {}
            // Another answer the old endpoint shaped (an enum in plain text, `text/x.enum`): an
            // interactions schema shapes a JSON answer only.
            Some(ValueKind::Str(m)) => {
                return Err(format!(
                    "an answer of mime type `{m}` has no counterpart: an interactions `response_format` \
                     shapes a JSON answer only (`application/json`), whose text would differ"
                ));
            }
            _ => return Err("only a JSON answer (`application/json`) has a schema to carry over".into()),
        }
        let mut format = vec![
            ("type".to_string(), dialect.string("text")),
            ("mime_type".to_string(), dialect.string("application/json")),
        ];
        let mut inlined = None;
        match schemas.as_slice() {
            // JSON mode without a schema.
            [] => {}
            [schema] => {
                let (written, binding) = json_schema(&schema.value, text, dialect)?;
                format.push(("schema".to_string(), written));
                inlined = binding;
            }
            _ => return Err("the config holds more than one schema".into()),
        }
        Ok((dialect.map(&format), inlined))
    })();
    Some(result)
}

/// OpenAPI-style type names (`"type": "OBJECT"`, `type="STRING"`) and the client's type enum
/// members (`types.Type.STRING`, `Type.OBJECT`) as JSON Schema's lower-case names.
static TYPE_NAME: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(["']?type["']?\s*[:=]\s*)["']([A-Z][A-Z_]*)["']"#).ok());
static TYPE_ENUM: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b(?:[A-Za-z_][\w]*\.)*(?:Type|SchemaType)\.([A-Z][A-Z_]*)\b").ok());

/// The schema as JSON Schema, written in the request's language: a literal (its type names
/// lower-cased), a pydantic model's `model_json_schema()` (`list[M]` as an array of them), or a
/// name bound to a JSON Schema literal; otherwise why not.
fn json_schema(
    value: &Value,
    text: &str,
    dialect: Dialect,
) -> Result<(String, Option<std::ops::Range<usize>>), String> {
    json_schema_text(value, text, dialect)
        .map(|written| (written, None))
        .or_else(|why| {
            // A name bound to an OpenAPI-style literal for this request alone: the literal,
            // converted, is written into the request and the binding goes.
            match &value.kind {
                ValueKind::Name(name) if name.single_use => {
                    let (Some(bound), Some(statement)) = (name.value.as_ref(), name.statement.clone()) else {
                        return Err(why);
                    };
                    match &bound.kind {
                        ValueKind::Map(map) if map.wrapper.is_none() && map.complete => {
                            let literal = text.get(bound.range.clone()).unwrap_or_default();
                            Ok((lower_type_names(literal).ok_or(why)?, Some(statement)))
                        }
                        _ => Err(why),
                    }
                }
                _ => Err(why),
            }
        })
}

/// OpenAPI-style type names in a literal as JSON Schema's (`"OBJECT"` → `"object"`).
pub(crate) fn lower_type_names(s: &str) -> Option<String> {
    let (Some(type_name), Some(type_enum)) = (TYPE_NAME.as_ref(), TYPE_ENUM.as_ref()) else {
        return None;
    };
    let s = type_name.replace_all(s, |c: &regex::Captures| {
        format!("{}\"{}\"", &c[1], c[2].to_lowercase())
    });
    Some(
        type_enum
            .replace_all(&s, |c: &regex::Captures| format!("\"{}\"", c[1].to_lowercase()))
            .into_owned(),
    )
}

fn json_schema_text(value: &Value, text: &str, dialect: Dialect) -> Result<String, String> {
    let written = text.get(value.range.clone()).unwrap_or_default().trim();
    let (Some(type_name), Some(type_enum)) = (TYPE_NAME.as_ref(), TYPE_ENUM.as_ref()) else {
        return Err("internal pattern unavailable".into());
    };
    let lower = |s: &str| -> String {
        let s = type_name.replace_all(s, |c: &regex::Captures| {
            format!("{}\"{}\"", &c[1], c[2].to_lowercase())
        });
        type_enum
            .replace_all(&s, |c: &regex::Captures| format!("\"{}\"", c[1].to_lowercase()))
            .into_owned()
    };
    match &value.kind {
        ValueKind::Map(map) if map.wrapper.is_some() => {
            Err("the schema is a typed `Schema(...)`; write it as a JSON Schema literal first".into())
        }
        // An array of a pydantic model's schema: the model's `$defs` (its nested models) must
        // sit at the top of the schema, where its `$ref`s point; pydantic writes it so.
        ValueKind::Map(map) if map.complete && dialect == Dialect::Python => match array_of_model(written) {
            Some(model) => Ok(list_schema(model)),
            None => Ok(lower(written)),
        },
        ValueKind::Map(map) if map.complete => Ok(lower(written)),
        ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
            Some(ValueKind::Map(map)) if map.wrapper.is_none() => {
                let bound = name
                    .value
                    .as_ref()
                    .and_then(|v| text.get(v.range.clone()))
                    .unwrap_or_default();
                if lower(bound) == bound {
                    Ok(written.to_string())
                } else {
                    Err(format!(
                        "`{written}` holds OpenAPI-style type names; convert it to JSON Schema"
                    ))
                }
            }
            None if dialect == Dialect::Python && python_type(written).is_some() => Ok(format!(
                "{{\"type\": \"{}\"}}",
                python_type(written).unwrap_or_default()
            )),
            None if dialect == Dialect::Python && is_class_name(written) => class_schema(written, text),
            _ => Err(format!("what `{written}` holds is not known")),
        },
        // Already JSON Schema: a pydantic model's own.
        _ if dialect == Dialect::Python
            && written
                .strip_suffix(".model_json_schema()")
                .is_some_and(is_class_name) =>
        {
            Ok(written.to_string())
        }
        _ if dialect == Dialect::Python => match list_of_model(written) {
            Some(item) => {
                let items = match python_type(item) {
                    Some(json_type) => format!("{{\"type\": \"{json_type}\"}}"),
                    None => {
                        schema_class(item, text)?;
                        return Ok(list_schema(item));
                    }
                };
                Ok(format!("{{\"type\": \"array\", \"items\": {items}}}"))
            }
            None => Err(format!("`{written}` is not a schema interlint can convert")),
        },
        _ => Err(format!("`{written}` is not a schema interlint can convert")),
    }
}

/// The JSON Schema of a list of pydantic models, as pydantic writes it: the item's `$defs` at
/// the top, where the `$ref`s of its nested models point (`{"type": "array", "items":
/// M.model_json_schema()}` keeps them inside `items`, where no reference finds them).
fn list_schema(model: &str) -> String {
    format!("pydantic.TypeAdapter(list[{model}]).json_schema()")
}

/// The model of a schema literal written as an array of a pydantic model's schema:
/// `{"type": "array", "items": M.model_json_schema()}` (either order, either quotes).
fn array_of_model(written: &str) -> Option<&str> {
    static ARRAY: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r#"^\{\s*(?:["']type["']\s*:\s*["']array["']\s*,\s*["']items["']\s*:\s*([A-Za-z_][\w.]*)\.model_json_schema\(\)|["']items["']\s*:\s*([A-Za-z_][\w.]*)\.model_json_schema\(\)\s*,\s*["']type["']\s*:\s*["']array["'])\s*,?\s*\}$"#,
        )
        .ok()
    });
    let captures = ARRAY.as_ref()?.captures(written)?;
    let model = captures.get(1).or_else(|| captures.get(2))?;
    written.get(model.range())
}

/// How the class `name`, defined in `text`, gives its JSON Schema and parses an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SchemaClass {
    /// A pydantic model (a base named `BaseModel`): `model_json_schema()`, `model_validate_json`.
    Model,
    /// A dataclass, a `TypedDict` or an enum, which the old client converted itself with
    /// pydantic: `pydantic.TypeAdapter(C)` gives its JSON Schema and parses the answer into the
    /// same value (an instance, a dict, a member).
    Adapted,
}

/// What the class `name` defined in `text` is, as a schema ([`SchemaClass`]); why not when it is
/// not defined here, or is defined otherwise (another base, or several definitions that differ).
fn schema_class(name: &str, text: &str) -> Result<SchemaClass, String> {
    let pattern = format!(
        r"(?m)^([ \t]*)class[ \t]+{}[ \t]*(?:\(([^)]*)\))?[ \t]*:",
        regex::escape(name)
    );
    let mut kinds = Vec::new();
    for caps in Regex::new(&pattern)
        .ok()
        .iter()
        .flat_map(|re| re.captures_iter(text).collect::<Vec<_>>())
    {
        let start = caps.get(0).map_or(0, |m| m.start());
        let bases = caps.get(2).map_or("", |m| m.as_str());
        let base = |wanted: &[&str]| {
            bases.split(',').any(|b| {
                let b = b.trim();
                wanted.iter().any(|w| b == *w || b.ends_with(&format!(".{w}")))
            })
        };
        // The decorator on the line above, at the class's indentation.
        let above = text[..start].trim_end_matches(['\n', '\r']);
        let decorator = above.rsplit('\n').next().unwrap_or_default().trim();
        let dataclass = [
            "@dataclass",
            "@dataclasses.dataclass",
            "@dataclass()",
            "@dataclasses.dataclass()",
        ]
        .contains(&decorator);
        kinds.push(if base(&["BaseModel"]) {
            Some(SchemaClass::Model)
        } else if dataclass || base(&["TypedDict", "Enum", "StrEnum", "IntEnum"]) {
            Some(SchemaClass::Adapted)
        } else {
            None
        });
    }
    match kinds.as_slice() {
        [] => Err(format!(
            "`{name}` is not a class defined in this module, so whether it is a pydantic model is not known"
        )),
        [first, rest @ ..] if rest.iter().all(|k| k == first) && first.is_some() => {
            Ok(first.unwrap_or(SchemaClass::Model))
        }
        _ => Err(format!(
            "`{name}` is not a pydantic model, a dataclass, a TypedDict or an enum, which the old client \
             converted; write its JSON Schema"
        )),
    }
}

/// The JSON Schema of the class `name` ([`schema_class`]).
fn class_schema(name: &str, text: &str) -> Result<String, String> {
    Ok(match schema_class(name, text)? {
        SchemaClass::Model => format!("{name}.model_json_schema()"),
        SchemaClass::Adapted => format!("pydantic.TypeAdapter({name}).json_schema()"),
    })
}

/// `list[Recipe]` / `List[Recipe]` / `typing.List[Recipe]` / `list[str]`: the item type.
fn list_of_model(written: &str) -> Option<&str> {
    let inner = crate::migration_facts::list_item_type(written)?;
    (is_class_name(inner) || python_type(inner).is_some()).then_some(inner)
}

/// JSON Schema's name of a Python builtin type.
fn python_type(name: &str) -> Option<&'static str> {
    match name {
        "str" => Some("string"),
        "int" => Some("integer"),
        "float" => Some("number"),
        "bool" => Some("boolean"),
        _ => None,
    }
}

/// How the old client parsed a request's answer into `response.parsed`, by the schema in its
/// config (python-genai's `_from_response`): a pydantic model by `model_validate_json`, a list
/// of them item by item, a JSON Schema or a builtin type by `json.loads`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParsedAs {
    Model(String),
    Models(String),
    /// A dataclass, `TypedDict` or enum (or a list of them: the type as written), parsed by
    /// pydantic as the old client did.
    Adapted(String),
    Json,
}

impl ParsedAs {
    /// The expression that parses `answer` (the interaction's text) the same way.
    pub(crate) fn expression(&self, answer: &str) -> String {
        match self {
            ParsedAs::Model(model) => format!("{model}.model_validate_json({answer})"),
            ParsedAs::Models(model) => {
                format!("[{model}.model_validate(item) for item in json.loads({answer})]")
            }
            ParsedAs::Adapted(written) => format!("pydantic.TypeAdapter({written}).validate_json({answer})"),
            ParsedAs::Json => format!("json.loads({answer})"),
        }
    }
}

/// What `call`'s `response.parsed` holds, from its config's schema; why not when the config is
/// not known, has no schema (the old client parsed nothing), or its schema is one whose parsing
/// interlint does not write (an enum, a union, a class defined elsewhere).
pub(crate) fn parsed_as(call: &crate::migration_facts::Call, text: &str) -> Result<ParsedAs, String> {
    let config = call
        .arg("config")
        .ok_or("the request has no config, so the old client parsed nothing")?;
    let map = match &config.value.kind {
        ValueKind::Map(map) => Some(map.as_ref()),
        ValueKind::Name(name) => name
            .value
            .as_ref()
            .and_then(|v| v.as_map())
            .or_else(|| name.shared.as_ref().and_then(|s| s.value.as_map())),
        _ => None,
    }
    .filter(|map| map.complete)
    .ok_or("the config's entries are not all known, so what the old client parsed is not")?;
    let schema = map
        .entries
        .iter()
        .find(|e| snake_case(&e.key) == "response_schema")
        .or_else(|| {
            map.entries
                .iter()
                .find(|e| snake_case(&e.key) == "response_json_schema")
        })
        .ok_or("the config has no schema, so the old client parsed nothing")?;
    let written = text.get(schema.value.range.clone()).unwrap_or_default().trim();
    let unknown =
        || format!("the old client parsed the answer by `{written}`, which interlint does not write");
    match &schema.value.kind {
        ValueKind::Map(_) => Ok(ParsedAs::Json),
        ValueKind::Name(name) => match name.value.as_ref().map(|v| &v.kind) {
            Some(ValueKind::Map(_)) => Ok(ParsedAs::Json),
            None if python_type(written).is_some() => Ok(ParsedAs::Json),
            None if is_class_name(written) => Ok(match schema_class(written, text)? {
                SchemaClass::Model => ParsedAs::Model(written.to_string()),
                SchemaClass::Adapted => ParsedAs::Adapted(written.to_string()),
            }),
            _ => Err(unknown()),
        },
        _ if written
            .strip_suffix(".model_json_schema()")
            .is_some_and(is_class_name) =>
        {
            Ok(ParsedAs::Json)
        }
        _ => match list_of_model(written) {
            Some(item) if python_type(item).is_some() => Ok(ParsedAs::Json),
            Some(item) => Ok(match schema_class(item, text)? {
                SchemaClass::Model => ParsedAs::Models(item.to_string()),
                SchemaClass::Adapted => ParsedAs::Adapted(format!("list[{item}]")),
            }),
            None => Err(unknown()),
        },
    }
}
