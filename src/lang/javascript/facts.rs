//! JavaScript's and TypeScript's extractor of [`api::Facts`]: API calls by call shape (the
//! current client's `ai.models.generateContent({...})` and the legacy client's
//! `genAI.getGenerativeModel({...}).generateContent(...)`), reads of responses through simple
//! local bindings and `await`, helper factories and enums of the client packages, imports.
//!
//! A request's properties are the call's arguments in [`Call::args`]: the rules treat a Python
//! keyword argument and a property of a JavaScript request object alike.

use std::ops::Range;

use tree_sitter::Node;

use super::scope::{BindingKind, Resolution, Scopes, children, text_of};
use crate::api::{
    API_METHODS, Call, CallKind, Entry, Facts, Flow, Import, MapValue, ModelRef, NameValue, Origin, Read,
    ReadKind, Value, ValueKind, Wrapper, WrapperKind, line_indent,
};
use crate::lang::treesitter::{elements, removal, siblings};

mod legacy;

/// What a name or expression holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Class {
    Str(String),
    /// An imported package (`@google/genai`) or a name in it (`@google/genai#Type.STRING`).
    Module(String),
    /// A client's `models` resource.
    Models,
    /// The create-content method kept in a name; the range is `models.generateContent` in its
    /// definition, when written so.
    Method(CallKind, Option<Range<usize>>),
    /// The current client's response (`response.text` is a property).
    Response,
    /// The legacy client's result of `generateContent` (`result.response`).
    LegacyResult,
    /// The legacy client's result of `generateContentStream` (`result.stream`, `result.response`).
    LegacyStreamResult,
    /// The legacy client's response (`response.text()` is a method).
    LegacyResponse,
    Stream,
    LegacyStream,
    StreamChunk,
    LegacyChunk,
    Interaction,
    Chat,
    LegacyChat,
    LegacyModel(ModelRef),
    Parts,
    Part,
    /// `R.candidates` of a response, interaction or stream chunk (by its origin), and one of them.
    Candidates(Origin),
    Candidate(Origin),
    Unknown,
}

const MAX_DEPTH: usize = 12;

struct Analyzer<'a, 't> {
    text: &'a str,
    scopes: Scopes<'t>,
}

/// The facts of one JavaScript or TypeScript document.
pub fn extract(tree: &tree_sitter::Tree, text: &str) -> Facts {
    let root = tree.root_node();
    let a = Analyzer {
        text,
        scopes: Scopes::build(root, text),
    };
    let mut facts = Facts {
        comments: a.scopes.comments.clone(),
        ..Facts::default()
    };
    for &(node, scope) in &a.scopes.calls {
        if node.kind() == "call_expression" {
            if let Some(call) = a.call(node, scope) {
                facts.calls.push(call);
            }
            if let Some(import) = a.dynamic_import(node) {
                facts.imports.push(import);
            }
        }
        if let Some(wrapper) = a.wrapper(node, scope) {
            facts.wrappers.push(wrapper);
        }
    }
    for &(node, scope) in &a.scopes.members {
        if let Some(read) = a.read(node, scope) {
            facts.reads.push(read);
        }
        if let Some(wrapper) = a.enum_member(node, scope) {
            facts.wrappers.push(wrapper);
        }
    }
    facts.legacy = a.legacy_units();
    for &node in &a.scopes.imports {
        if let Some(source) = node.child_by_field_name("source")
            && let Some(import) = a.import(node, source)
        {
            facts.imports.push(import);
        }
    }
    facts
}

/// The legacy units of one JavaScript or TypeScript document (the rest of its facts come from
/// [`crate::lang::facts`]).
pub fn legacy(tree: &tree_sitter::Tree, text: &str) -> Vec<crate::api::LegacyUnit> {
    let a = Analyzer {
        text,
        scopes: Scopes::build(tree.root_node(), text),
    };
    a.legacy_units()
}

/// The expression inside `await`, parentheses, `as T`, `satisfies T`, `x!` and `<T>x`.
fn unwrap(node: Node) -> Node {
    let mut node = node;
    for _ in 0..MAX_DEPTH {
        let inner = match node.kind() {
            "await_expression"
            | "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression" => node.named_child(0),
            "type_assertion" => node.named_child(node.named_child_count().saturating_sub(1) as u32),
            _ => None,
        };
        match inner {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

impl<'t> Analyzer<'_, 't> {
    fn src(&self, node: Node) -> &str {
        text_of(node, self.text)
    }

    // ----- classification -----

    fn classify(&self, node: Node<'t>, scope: usize, depth: usize) -> Class {
        if depth > MAX_DEPTH {
            return Class::Unknown;
        }
        let node = unwrap(node);
        match node.kind() {
            "string" | "template_string" => string_value(node, self.text).map_or(Class::Unknown, Class::Str),
            "identifier" | "shorthand_property_identifier" => self.classify_name(node, scope, depth),
            "member_expression" => {
                let (Some(object), Some(property)) = (
                    node.child_by_field_name("object"),
                    node.child_by_field_name("property"),
                ) else {
                    return Class::Unknown;
                };
                let name = self.src(property);
                if name == "models" {
                    return Class::Models;
                }
                if object.kind() == "this" {
                    let values = self
                        .scopes
                        .this_attrs
                        .get(name)
                        .map(Vec::as_slice)
                        .unwrap_or_default();
                    let classes: Vec<Class> =
                        values.iter().map(|v| self.classify(*v, 0, depth + 1)).collect();
                    return match classes.first() {
                        Some(first) if classes.iter().all(|c| c == first) => first.clone(),
                        _ => Class::Unknown,
                    };
                }
                if name == "parts" && self.candidates_root(node, scope, depth).is_some() {
                    return Class::Parts;
                }
                let class = self.classify(object, scope, depth + 1);
                if name == "candidates"
                    && let Some(origin) = response_origin(&class)
                {
                    return Class::Candidates(origin);
                }
                match (&class, name) {
                    (Class::Models, "generateContent" | "generateContentStream") => {
                        let kind = if name == "generateContent" {
                            CallKind::Create
                        } else {
                            CallKind::CreateStream
                        };
                        let range = (object.kind() == "member_expression")
                            .then(|| object.child_by_field_name("property"))
                            .flatten()
                            .map(|p| p.start_byte()..node.end_byte());
                        Class::Method(kind, range)
                    }
                    _ => member_of(class, name),
                }
            }
            // `response.functionCalls ?? []`: the fallback is only used when there is nothing.
            "binary_expression"
                if node
                    .child_by_field_name("operator")
                    .is_some_and(|o| matches!(self.src(o), "??" | "||")) =>
            {
                match node.child_by_field_name("left") {
                    Some(left) => self.classify(left, scope, depth + 1),
                    None => Class::Unknown,
                }
            }
            "subscript_expression" => {
                let object = node.child_by_field_name("object");
                match object.map(|o| self.classify(o, scope, depth + 1)) {
                    Some(Class::Parts) => Class::Part,
                    Some(Class::Candidates(origin)) => Class::Candidate(origin),
                    _ => Class::Unknown,
                }
            }
            "call_expression" => {
                if let Some(module) = self.required_module(node) {
                    return Class::Module(module);
                }
                match self.call_kind(node, scope, depth) {
                    Some((kind, ..)) => self.result_of(kind, node, scope, depth),
                    None => Class::Unknown,
                }
            }
            _ => Class::Unknown,
        }
    }

    /// What a call of the API returns.
    fn result_of(&self, kind: CallKind, call: Node<'t>, scope: usize, depth: usize) -> Class {
        match kind {
            CallKind::Create => Class::Response,
            CallKind::CreateStream => Class::Stream,
            CallKind::LegacyCreate { stream: false } => Class::LegacyResult,
            CallKind::LegacyCreate { stream: true } => Class::LegacyStreamResult,
            CallKind::Interactions => match self
                .request(call)
                .and_then(|o| request_property(o, "stream", self.text))
            {
                None => Class::Interaction,
                // Its events are still not read with `.text`: the chunk reads keep their warning.
                Some(v) if self.src(v) == "true" => Class::Stream,
                Some(_) => Class::Unknown,
            },
            CallKind::ChatCreate => Class::Chat,
            CallKind::StartChat => Class::LegacyChat,
            CallKind::Rest { .. } => Class::Unknown,
            CallKind::SendMessage => {
                let (Some(function), stream) = (call.child_by_field_name("function"), self.method_name(call))
                else {
                    return Class::Unknown;
                };
                let stream = stream == Some("sendMessageStream");
                let chat = function
                    .child_by_field_name("object")
                    .map(|o| self.classify(o, scope, depth + 1));
                match (chat, stream) {
                    (Some(Class::Chat), false) => Class::Response,
                    (Some(Class::Chat), true) => Class::Stream,
                    (Some(Class::LegacyChat), false) => Class::LegacyResult,
                    (Some(Class::LegacyChat), true) => Class::LegacyStreamResult,
                    _ => Class::Unknown,
                }
            }
            CallKind::LegacyModel => Class::LegacyModel(self.legacy_model(call, scope, depth)),
        }
    }

    fn classify_name(&self, node: Node<'t>, scope: usize, depth: usize) -> Class {
        let name = self.src(node);
        match self.scopes.names.resolve(name, scope, node.start_byte()) {
            Resolution::Bound(binding, _) => self.binding_class(binding.kind, binding.scope, depth),
            Resolution::Opaque | Resolution::Unbound => Class::Unknown,
        }
    }

    fn binding_class(&self, kind: BindingKind<'t>, scope: usize, depth: usize) -> Class {
        match kind {
            BindingKind::Assign { value, .. } => self.classify(value, scope, depth + 1),
            BindingKind::Destructure { value, key } => {
                let key = self.src(key);
                match self.classify(value, scope, depth + 1) {
                    // `const { models } = ai`.
                    _ if key == "models" => Class::Models,
                    class => member_of(class, key),
                }
            }
            BindingKind::For { iter } => match self.classify(iter, scope, depth + 1) {
                Class::Stream => Class::StreamChunk,
                Class::LegacyStream => Class::LegacyChunk,
                Class::Parts => Class::Part,
                Class::Candidates(origin) => Class::Candidate(origin),
                _ => Class::Unknown,
            },
            BindingKind::Import { source, name } => match string_value(source, self.text) {
                Some(module) => match name.map(|n| self.src(n)) {
                    None | Some("default") => Class::Module(module),
                    Some(name) => Class::Module(format!("{module}#{name}")),
                },
                None => Class::Unknown,
            },
            BindingKind::Declared | BindingKind::Other => Class::Unknown,
        }
    }

    /// For `R.candidates[i].content.parts` (at `parts`), the class of `R` when it is a response.
    fn candidates_root(&self, parts: Node<'t>, scope: usize, depth: usize) -> Option<Class> {
        let content = parts
            .child_by_field_name("object")
            .map(unwrap)
            .filter(|n| n.kind() == "member_expression")?;
        if content.child_by_field_name("property").map(|p| self.src(p)) != Some("content") {
            return None;
        }
        let subscript = content
            .child_by_field_name("object")
            .map(unwrap)
            .filter(|n| n.kind() == "subscript_expression")?;
        let candidates = subscript
            .child_by_field_name("object")
            .map(unwrap)
            .filter(|n| n.kind() == "member_expression")?;
        if candidates.child_by_field_name("property").map(|p| self.src(p)) != Some("candidates") {
            return None;
        }
        let root = candidates.child_by_field_name("object")?;
        let class = self.classify(root, scope, depth + 1);
        is_response(&class).then_some(class)
    }

    /// The model of a legacy `getGenerativeModel({ model })` call.
    fn legacy_model(&self, call: Node<'t>, scope: usize, depth: usize) -> ModelRef {
        match self
            .request(call)
            .and_then(|o| request_property(o, "model", self.text))
        {
            Some(v) => self.model_ref(v, scope, depth),
            None => ModelRef::Absent,
        }
    }

    fn model_ref(&self, value: Node<'t>, scope: usize, depth: usize) -> ModelRef {
        match self.classify(value, scope, depth + 1) {
            Class::Str(s) => ModelRef::Literal(s),
            _ => ModelRef::Unresolved,
        }
    }

    // ----- calls -----

    /// The arguments of a call, without comments.
    fn arguments(&self, call: Node<'t>) -> Vec<Node<'t>> {
        call.child_by_field_name("arguments")
            .filter(|a| a.kind() == "arguments")
            .map(elements)
            .unwrap_or_default()
    }

    /// The request object: the first argument, when it is an object literal.
    fn request(&self, call: Node<'t>) -> Option<Node<'t>> {
        self.arguments(call)
            .first()
            .map(|a| unwrap(*a))
            .filter(|a| a.kind() == "object")
    }

    fn method_name(&self, call: Node<'t>) -> Option<&str> {
        let function = call.child_by_field_name("function")?;
        (function.kind() == "member_expression")
            .then(|| function.child_by_field_name("property"))
            .flatten()
            .map(|p| self.src(p))
    }

    /// `require("pkg")` (also through `await import("pkg")`): the package.
    fn required_module(&self, call: Node<'t>) -> Option<String> {
        let function = call.child_by_field_name("function")?;
        let is_require = function.kind() == "identifier" && self.src(function) == "require";
        if !is_require && function.kind() != "import" {
            return None;
        }
        let args = self.arguments(call);
        match args.as_slice() {
            [only] => string_value(*only, self.text),
            _ => None,
        }
    }

    /// The kind of an API call, the callee range to replace when rewriting it, and the alias
    /// it is called through.
    fn call_kind(
        &self,
        call: Node<'t>,
        scope: usize,
        depth: usize,
    ) -> Option<(CallKind, Option<Range<usize>>, Option<String>)> {
        let function = unwrap(call.child_by_field_name("function")?);
        match function.kind() {
            "member_expression" => {
                let object = function.child_by_field_name("object")?;
                let property = function.child_by_field_name("property")?;
                let object_property = (object.kind() == "member_expression")
                    .then(|| object.child_by_field_name("property"))
                    .flatten();
                match self.src(property) {
                    name @ ("generateContent" | "generateContentStream") => {
                        // The REST discovery client (`googleapis`: `generativelanguage.models.
                        // generateContent({ model, requestBody })`) is another library.
                        if self
                            .request(call)
                            .and_then(|r| request_property(r, "requestBody", self.text))
                            .is_some()
                        {
                            return None;
                        }
                        let stream = name == "generateContentStream";
                        let create = if stream {
                            CallKind::CreateStream
                        } else {
                            CallKind::Create
                        };
                        let class = self.classify(object, scope, depth + 1);
                        if class == Class::Models {
                            let method = object_property
                                .filter(|p| self.src(*p) == "models")
                                .map(|p| p.start_byte()..function.end_byte());
                            return Some((create, method, None));
                        }
                        if let Class::LegacyModel(_) = class {
                            return Some((CallKind::LegacyCreate { stream }, None, None));
                        }
                        // An unknown receiver called with a request naming its model; not the
                        // API's own implementation calling itself.
                        let request = self.request(call)?;
                        request_property(request, "model", self.text)
                            .filter(|_| !self.implementation_call(call, object))
                            .map(|_| (create, None, None))
                    }
                    "create" => match object_property.map(|p| self.src(p)) {
                        Some("interactions") => Some((CallKind::Interactions, None, None)),
                        Some("chats") => Some((CallKind::ChatCreate, None, None)),
                        _ => None,
                    },
                    // The legacy client's method takes the model's parameters first; other SDKs'
                    // functions of the same name take their own instance first.
                    "getGenerativeModel" => self.request(call).map(|_| (CallKind::LegacyModel, None, None)),
                    "getGenerativeModelFromCachedContent" => Some((CallKind::LegacyModel, None, None)),
                    "startChat" => match self.classify(object, scope, depth + 1) {
                        Class::LegacyModel(_) => Some((CallKind::StartChat, None, None)),
                        _ => None,
                    },
                    "sendMessage" | "sendMessageStream" => match self.classify(object, scope, depth + 1) {
                        Class::Chat | Class::LegacyChat => Some((CallKind::SendMessage, None, None)),
                        _ => None,
                    },
                    _ => None,
                }
            }
            "identifier" => {
                let name = self.src(function);
                match self.classify(function, scope, depth + 1) {
                    Class::Method(kind, range) => {
                        // Rewritten through the alias only when the alias is bound once in
                        // this scope and this call is its only use.
                        let local_single = matches!(
                            self.scopes.names.resolve(name, scope, function.start_byte()),
                            Resolution::Bound(b, 1) if b.scope == scope
                        ) && self.scopes.names.uses_in(scope, name) == 1;
                        Some((kind, range.filter(|_| local_single), Some(name.to_string())))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn call(&self, node: Node<'t>, scope: usize) -> Option<Call> {
        let (kind, method, alias) = self.call_kind(node, scope, 0)?;
        let function = node.child_by_field_name("function")?;
        let arguments = self.arguments(node);
        let mut args = Vec::new();
        let mut positional = Vec::new();
        let mut spread = false;
        let request = self.request(node);
        let mut insert_at = node
            .child_by_field_name("arguments")
            .map_or(node.end_byte(), |a| a.start_byte() + 1);
        let mut arg_indent = None;
        for (i, argument) in arguments.iter().enumerate() {
            match (i, request) {
                (0, Some(object)) => {
                    let map = self.object(object, scope, 0);
                    spread |= !map.complete;
                    args = map.entries;
                    let properties = elements(object);
                    insert_at = properties
                        .last()
                        .map_or(object.start_byte() + 1, |p| p.end_byte());
                    arg_indent = properties.first().and_then(|first| {
                        (first.start_position().row != object.start_position().row)
                            .then(|| line_indent(self.text, first.start_byte()))
                    });
                }
                _ if argument.kind() == "spread_element" => spread = true,
                _ => positional.push(self.value(*argument, scope, 0)),
            }
        }
        let model = match kind {
            CallKind::LegacyCreate { .. } | CallKind::StartChat => match function
                .child_by_field_name("object")
                .map(|o| self.classify(o, scope, 1))
            {
                Some(Class::LegacyModel(model)) => model,
                _ => ModelRef::Unresolved,
            },
            CallKind::LegacyModel => self.legacy_model(node, scope, 0),
            _ => match request.and_then(|o| request_property(o, "model", self.text)) {
                Some(v) => self.model_ref(v, scope, 0),
                None => ModelRef::Absent,
            },
        };
        Some(Call {
            kind,
            range: node.byte_range(),
            callee: function.byte_range(),
            method,
            callee_text: self.src(function).to_string(),
            alias,
            args,
            positional,
            spread,
            insert_at,
            arg_indent,
            model,
        })
    }

    // ----- values -----

    fn value(&self, node: Node<'t>, scope: usize, depth: usize) -> Value {
        let kind = if depth > MAX_DEPTH {
            ValueKind::Other
        } else {
            self.value_kind(unwrap(node), scope, depth)
        };
        Value {
            range: node.byte_range(),
            kind,
        }
    }

    fn value_kind(&self, node: Node<'t>, scope: usize, depth: usize) -> ValueKind {
        match node.kind() {
            "string" | "template_string" => {
                string_value(node, self.text).map_or(ValueKind::Other, ValueKind::Str)
            }
            "number" => parse_int(self.src(node)).map_or(ValueKind::Other, ValueKind::Int),
            "unary_expression" => {
                let operand = node.child_by_field_name("argument");
                let minus = node.child_by_field_name("operator").map(|o| self.src(o)) == Some("-");
                match operand {
                    Some(o) if minus && o.kind() == "number" => {
                        parse_int(self.src(o)).map_or(ValueKind::Other, |n| ValueKind::Int(-n))
                    }
                    _ => ValueKind::Other,
                }
            }
            "true" => ValueKind::Bool(true),
            "false" => ValueKind::Bool(false),
            "object" => ValueKind::Map(Box::new(self.object(node, scope, depth))),
            "array" => ValueKind::List(
                elements(node)
                    .into_iter()
                    .map(|e| self.value(e, scope, depth + 1))
                    .collect(),
            ),
            "identifier" => ValueKind::Name(Box::new(self.name_value(node, scope, depth))),
            _ => ValueKind::Other,
        }
    }

    fn name_value(&self, node: Node<'t>, scope: usize, depth: usize) -> NameValue {
        let name = self.src(node).to_string();
        let mut out = NameValue {
            name: name.clone(),
            value: None,
            statement: None,
            single_use: false,
            shared: None,
        };
        if let Resolution::Bound(binding, count) = self.scopes.names.resolve(&name, scope, node.start_byte())
            && binding.scope == scope
            && let BindingKind::Assign { value, statement } = binding.kind
        {
            out.value = Some(self.value(value, scope, depth + 1));
            out.statement = statement.map(|s| s.byte_range());
            out.single_use =
                count == 1 && statement.is_some() && self.scopes.names.uses_in(scope, &name) == 1;
        }
        out
    }

    /// An object literal's properties; a spread, a method or a computed key makes it incomplete.
    fn object(&self, node: Node<'t>, scope: usize, depth: usize) -> MapValue {
        let properties = elements(node);
        let mut map = MapValue {
            entries: Vec::new(),
            complete: true,
            wrapper: None,
        };
        for (i, property) in properties.iter().enumerate() {
            match property.kind() {
                "pair" => {
                    let (Some(key), Some(value)) = (
                        property.child_by_field_name("key"),
                        property.child_by_field_name("value"),
                    ) else {
                        map.complete = false;
                        continue;
                    };
                    let name = match key.kind() {
                        "property_identifier" | "number" => Some(self.src(key).to_string()),
                        "string" => string_value(key, self.text),
                        _ => None,
                    };
                    let Some(name) = name else {
                        map.complete = false;
                        continue;
                    };
                    map.entries.push(Entry {
                        key: name,
                        key_range: key.byte_range(),
                        range: property.byte_range(),
                        value: self.value(value, scope, depth + 1),
                        keyword: false,
                        removal: removal(&properties, i, node),
                        siblings: siblings(&properties, i, node),
                    });
                }
                // `{ model }`: the key and the value are one identifier.
                "shorthand_property_identifier" => map.entries.push(Entry {
                    key: self.src(*property).to_string(),
                    key_range: property.byte_range(),
                    range: property.byte_range(),
                    value: Value {
                        range: property.byte_range(),
                        kind: ValueKind::Name(Box::new(self.name_value(*property, scope, depth + 1))),
                    },
                    keyword: false,
                    removal: removal(&properties, i, node),
                    siblings: siblings(&properties, i, node),
                }),
                _ => map.complete = false,
            }
        }
        map
    }

    // ----- typed wrappers -----

    /// `new Content({...})`, `createUserContent(...)`: a class or factory of a client package.
    fn wrapper(&self, node: Node<'t>, scope: usize) -> Option<Wrapper> {
        let (callee, kind) = match node.kind() {
            "new_expression" => (node.child_by_field_name("constructor")?, WrapperKind::Class),
            _ => (node.child_by_field_name("function")?, WrapperKind::Factory),
        };
        let Class::Module(path) = self.classify(callee, scope, 0) else {
            return None;
        };
        let (module, name) = path.split_once('#')?;
        if name.contains('.') {
            return None;
        }
        let arguments = node.child_by_field_name("arguments")?;
        let args = elements(arguments);
        let literal = match args.as_slice() {
            [only] if kind == WrapperKind::Class && only.kind() == "object" => Some(only.byte_range()),
            _ => None,
        };
        Some(Wrapper {
            name: name.to_string(),
            kind,
            module: Some(module.to_string()),
            callee: node.start_byte()..callee.end_byte(),
            range: node.byte_range(),
            map: None,
            open: arguments.start_byte()..arguments.start_byte() + 1,
            close: arguments.end_byte().saturating_sub(1)..arguments.end_byte(),
            literal,
            flow: self.flow(node, scope, 0),
        })
    }

    /// `Type.STRING`, `SchemaType.OBJECT`: a member of an enum of a client package.
    fn enum_member(&self, node: Node<'t>, scope: usize) -> Option<Wrapper> {
        let object = node.child_by_field_name("object")?;
        // `SomeClass.method(...)` is a call, not an enum value.
        if node
            .parent()
            .is_some_and(|p| p.child_by_field_name("function") == Some(node))
        {
            return None;
        }
        let Class::Module(path) = self.classify(object, scope, 0) else {
            return None;
        };
        let (module, name) = path.split_once('#')?;
        if name.contains('.') {
            return None;
        }
        Some(Wrapper {
            name: name.to_string(),
            kind: WrapperKind::Enum,
            module: Some(module.to_string()),
            callee: node.byte_range(),
            range: node.byte_range(),
            map: None,
            open: node.end_byte()..node.end_byte(),
            close: node.end_byte()..node.end_byte(),
            literal: None,
            flow: self.flow(node, scope, 0),
        })
    }

    // ----- where values go -----

    /// Where the value of the expression `node` goes: up through the arrays, objects and
    /// parentheses around it to the call taking it, or through the `const` it is bound to.
    fn flow(&self, node: Node<'t>, scope: usize, depth: usize) -> Flow {
        if depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        let mut current = node;
        while let Some(parent) = current.parent() {
            let is = |field: &str| parent.child_by_field_name(field) == Some(current);
            match parent.kind() {
                "array"
                | "object"
                | "spread_element"
                | "ternary_expression"
                | "parenthesized_expression"
                | "as_expression"
                | "satisfies_expression"
                | "non_null_expression" => {}
                "pair" if is("value") => {}
                "arguments" => return self.argument_flow(parent, scope, depth),
                "variable_declarator" if is("value") => {
                    return match parent.child_by_field_name("name") {
                        Some(name) if name.kind() == "identifier" => self.name_flow(name, scope, depth),
                        _ => Flow::Elsewhere,
                    };
                }
                _ => return Flow::Elsewhere,
            }
            current = parent;
        }
        Flow::Elsewhere
    }

    /// Where an argument goes: into a request, into a helper or class of the client, into an
    /// array (`parts.push(x)`) that goes on by its name, or elsewhere.
    fn argument_flow(&self, arguments: Node<'t>, scope: usize, depth: usize) -> Flow {
        let Some(call) = arguments.parent() else {
            return Flow::Elsewhere;
        };
        if call.kind() == "call_expression" && self.call_kind(call, scope, 0).is_some() {
            return Flow::Request;
        }
        if self.wrapper(call, scope).is_some() {
            return Flow::Inside(vec![call.byte_range()]);
        }
        match self.array_growth(call) {
            Some(array) => self.name_flow(array, scope, depth + 1),
            None => Flow::Elsewhere,
        }
    }

    /// `xs.push(...)`, `xs.unshift(...)`: the array `xs` grown.
    fn array_growth(&self, call: Node<'t>) -> Option<Node<'t>> {
        let function = call
            .child_by_field_name("function")
            .filter(|f| call.kind() == "call_expression" && f.kind() == "member_expression")?;
        let method = function.child_by_field_name("property")?;
        let object = function.child_by_field_name("object")?;
        (matches!(self.src(method), "push" | "unshift") && object.kind() == "identifier").then_some(object)
    }

    /// Where the value bound to `name` goes: wherever every use of the name goes, when the
    /// name is bound once, by a declaration that is not exported. Growing it (`xs.push(...)`)
    /// is not a use.
    fn name_flow(&self, name: Node<'t>, scope: usize, depth: usize) -> Flow {
        let text = self.src(name);
        let Some(declared) = self.scopes.names.declaring_scope(text, scope) else {
            return Flow::Elsewhere;
        };
        let declared_once = match self.scopes.names.bindings.get(&(declared, text.to_string())) {
            Some(list) => match list.as_slice() {
                [only] => match only.kind {
                    BindingKind::Assign { value, .. } => value
                        .parent()
                        .and_then(|declarator| declarator.parent())
                        .and_then(|declaration| declaration.parent())
                        .is_none_or(|p| p.kind() != "export_statement"),
                    _ => false,
                },
                _ => false,
            },
            None => false,
        };
        if !declared_once || depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        let uses = self.scopes.loads.get(text).map(Vec::as_slice).unwrap_or_default();
        Flow::of_uses(
            uses.iter()
                .filter(|(_, s)| self.scopes.names.declaring_scope(text, *s) == Some(declared))
                .filter(|(use_node, _)| {
                    !use_node
                        .parent()
                        .and_then(|member| member.parent())
                        .is_some_and(|call| self.array_growth(call) == Some(*use_node))
                })
                .map(|(use_node, s)| self.flow(*use_node, *s, depth + 1)),
        )
    }

    // ----- the API's own implementation -----

    /// A call on `this` or one of its members (not its `models` resource) in a class that
    /// defines one of the API's methods (a client's chat, a CLI's content generator): the
    /// implementation calling itself.
    fn implementation_call(&self, call: Node<'t>, receiver: Node<'t>) -> bool {
        let mut node = receiver;
        for _ in 0..MAX_DEPTH {
            node = unwrap(node);
            let next = match node.kind() {
                "member_expression" => {
                    if node.child_by_field_name("property").map(|p| self.src(p)) == Some("models") {
                        return false;
                    }
                    node.child_by_field_name("object")
                }
                "call_expression" => node.child_by_field_name("function"),
                "subscript_expression" => node.child_by_field_name("object"),
                _ => break,
            };
            match next {
                Some(n) => node = n,
                None => return false,
            }
        }
        if node.kind() != "this" {
            return false;
        }
        let mut ancestor = call.parent();
        while let Some(a) = ancestor {
            if matches!(
                a.kind(),
                "class_declaration" | "abstract_class_declaration" | "class"
            ) {
                return a.child_by_field_name("body").is_some_and(|body| {
                    children(body).any(|member| {
                        matches!(
                            member.kind(),
                            "method_definition" | "public_field_definition" | "field_definition"
                        ) && member
                            .child_by_field_name("name")
                            .or_else(|| member.child_by_field_name("property"))
                            .is_some_and(|n| API_METHODS.contains(&self.src(n)))
                    })
                });
            }
            ancestor = a.parent();
        }
        false
    }

    // ----- reads -----

    fn read(&self, node: Node<'t>, scope: usize) -> Option<Read> {
        let object = node.child_by_field_name("object")?;
        let property = node.child_by_field_name("property")?;
        let name = self.src(property);
        let parent = node.parent();
        // `x.text = ...` writes.
        if parent.is_some_and(|p| {
            matches!(
                p.kind(),
                "assignment_expression" | "augmented_assignment_expression"
            ) && p.child_by_field_name("left") == Some(node)
        }) {
            return None;
        }
        let call = parent
            .filter(|p| p.kind() == "call_expression" && p.child_by_field_name("function") == Some(node));
        // `response?.text` is read through `response?`.
        let receiver = object.start_byte()
            ..node
                .child_by_field_name("optional_chain")
                .map_or(object.end_byte(), |c| c.start_byte() + 1);
        match name {
            "text" | "functionCalls" => {
                let kind = if name == "text" {
                    ReadKind::Text
                } else {
                    ReadKind::FunctionCalls
                };
                let class = self.classify(object, scope, 0);
                let (origin, range, receiver) = match (&class, call) {
                    // The current client's getters.
                    (Class::Response, None) => (Origin::Response, node.byte_range(), receiver),
                    (Class::StreamChunk, None) => (Origin::StreamChunk, node.byte_range(), receiver),
                    (Class::Interaction, None) => (Origin::Interaction, node.byte_range(), receiver),
                    // The legacy client's methods; `result.response.text()` reads `result`.
                    (Class::LegacyResponse, Some(call)) => {
                        let result = unwrap(object);
                        let receiver = match (result.kind(), result.child_by_field_name("object")) {
                            ("member_expression", Some(inner)) => inner.byte_range(),
                            _ => object.byte_range(),
                        };
                        (Origin::Response, call.byte_range(), receiver)
                    }
                    (Class::LegacyChunk, Some(call)) => {
                        (Origin::StreamChunk, call.byte_range(), object.byte_range())
                    }
                    _ => return None,
                };
                let all_interactions = origin == Origin::Interaction && self.all_interactions(object, scope);
                Some(Read {
                    kind,
                    range,
                    receiver,
                    origin,
                    all_interactions,
                    detached: false,
                })
            }
            "functionCall" if call.is_none() => {
                // `...parts[0].functionCall` is the candidates chain's read.
                if unwrap(object).kind() == "subscript_expression"
                    || self.classify(object, scope, 0) != Class::Part
                {
                    return None;
                }
                Some(Read {
                    kind: ReadKind::PartFunctionCall,
                    range: node.byte_range(),
                    receiver: object.byte_range(),
                    origin: Origin::Part,
                    all_interactions: false,
                    detached: false,
                })
            }
            "usageMetadata" if call.is_none() => {
                let origin = response_origin(&self.classify(object, scope, 0))?;
                if !matches!(origin, Origin::Response | Origin::Interaction) {
                    return None;
                }
                let member = node
                    .parent()
                    .filter(|p| {
                        p.kind() == "member_expression" && p.child_by_field_name("object") == Some(node)
                    })
                    .and_then(|p| p.child_by_field_name("property"))
                    .map(|p| (p.start_byte(), p.end_byte()));
                Some(Read {
                    kind: ReadKind::Usage { member },
                    range: node.byte_range(),
                    receiver,
                    origin,
                    all_interactions: origin == Origin::Interaction && self.all_interactions(object, scope),
                    detached: false,
                })
            }
            "groundingMetadata" if call.is_none() => {
                // `R.candidates[i].groundingMetadata` is the candidates chain's read.
                let subscript = unwrap(object);
                let chain = subscript.kind() == "subscript_expression"
                    && subscript
                        .child_by_field_name("object")
                        .map(unwrap)
                        .filter(|o| o.kind() == "member_expression")
                        .and_then(|o| o.child_by_field_name("property"))
                        .is_some_and(|p| self.src(p) == "candidates");
                let origin = match self.classify(object, scope, 0) {
                    _ if chain => return None,
                    Class::Candidate(origin) => origin,
                    class => response_origin(&class)?,
                };
                Some(Read {
                    kind: ReadKind::Grounding,
                    range: node.byte_range(),
                    receiver,
                    origin,
                    all_interactions: false,
                    detached: false,
                })
            }
            "candidates" => {
                let origin = response_origin(&self.classify(object, scope, 0))?;
                let (kind, range) = self.candidates_chain(node)?;
                Some(Read {
                    kind,
                    range,
                    receiver,
                    origin,
                    all_interactions: origin == Origin::Interaction && self.all_interactions(object, scope),
                    detached: false,
                })
            }
            _ => None,
        }
    }

    /// From `R.candidates`, the read the whole chain makes: `R.candidates[0].content.parts...`.
    fn candidates_chain(&self, candidates: Node<'t>) -> Option<(ReadKind, Range<usize>)> {
        let mut top = candidates;
        let mut steps: Vec<String> = Vec::new();
        while let Some(parent) = top.parent() {
            let step = match parent.kind() {
                // `candidates![0]`: the assertion changes nothing read.
                "non_null_expression" => String::new(),
                "subscript_expression" if parent.child_by_field_name("object") == Some(top) => {
                    let index = parent
                        .child_by_field_name("index")
                        .map(|s| self.src(s))
                        .unwrap_or_default();
                    format!("[{index}]")
                }
                "member_expression" if parent.child_by_field_name("object") == Some(top) => {
                    // A method call ends the chain before the method.
                    if parent.parent().is_some_and(|p| {
                        p.kind() == "call_expression" && p.child_by_field_name("function") == Some(parent)
                    }) {
                        break;
                    }
                    let property = parent
                        .child_by_field_name("property")
                        .map(|p| self.src(p))
                        .unwrap_or_default();
                    format!(".{property}")
                }
                _ => break,
            };
            steps.push(step);
            top = parent;
        }
        let kind = match ReadKind::of_candidates_chain(&steps.concat())? {
            // `?.` and `!` chains are not rewritten.
            ReadKind::Candidates { simple_text } => ReadKind::Candidates {
                simple_text: simple_text && !self.src(top).contains(['?', '!']),
            },
            kind => kind,
        };
        Some((kind, candidates.start_byte()..top.end_byte()))
    }

    /// Every binding the receiver can come from is an interactions result.
    fn all_interactions(&self, receiver: Node<'t>, scope: usize) -> bool {
        let receiver = unwrap(receiver);
        if receiver.kind() != "identifier" {
            return self.classify(receiver, scope, 0) == Class::Interaction;
        }
        let bindings = self.scopes.names.all_bindings(self.src(receiver), scope);
        !bindings.is_empty()
            && bindings.iter().all(|b| match b.kind {
                BindingKind::Assign { value, .. } => self.classify(value, b.scope, 1) == Class::Interaction,
                // `let r;` then assigned.
                BindingKind::Declared => true,
                _ => false,
            })
            && bindings
                .iter()
                .any(|b| matches!(b.kind, BindingKind::Assign { .. }))
    }

    // ----- imports -----

    /// `import ... from "pkg"`, `export ... from "pkg"`.
    fn import(&self, statement: Node<'t>, source: Node<'t>) -> Option<Import> {
        Some(Import {
            module: string_value(source, self.text)?,
            statement: statement.byte_range(),
            module_range: string_content(source),
            types: None,
        })
    }

    /// `require("pkg")`, `import("pkg")`.
    fn dynamic_import(&self, call: Node<'t>) -> Option<Import> {
        let module = self.required_module(call)?;
        let source = *self.arguments(call).first()?;
        Some(Import {
            module,
            statement: call.byte_range(),
            module_range: string_content(source),
            types: None,
        })
    }
}

/// A property of an object of a known class.
fn member_of(class: Class, name: &str) -> Class {
    match (class, name) {
        (Class::Module(path), _) => Class::Module(if path.contains('#') {
            format!("{path}.{name}")
        } else {
            format!("{path}#{name}")
        }),
        (Class::LegacyResult | Class::LegacyStreamResult, "response") => Class::LegacyResponse,
        (Class::LegacyStreamResult, "stream") => Class::LegacyStream,
        _ => Class::Unknown,
    }
}

/// What a response-like value is, as the origin of what is read from it.
fn response_origin(class: &Class) -> Option<Origin> {
    match class {
        Class::Response | Class::LegacyResponse => Some(Origin::Response),
        Class::StreamChunk | Class::LegacyChunk => Some(Origin::StreamChunk),
        Class::Interaction => Some(Origin::Interaction),
        _ => None,
    }
}

fn is_response(class: &Class) -> bool {
    matches!(
        class,
        Class::Response
            | Class::LegacyResponse
            | Class::Interaction
            | Class::StreamChunk
            | Class::LegacyChunk
    )
}

/// The value node of property `name` of an object literal.
fn request_property<'t>(object: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    children(object).find_map(|p| match p.kind() {
        "pair" => {
            let key = p.child_by_field_name("key")?;
            let matches = match key.kind() {
                "string" => string_value(key, text).as_deref() == Some(name),
                _ => text_of(key, text) == name,
            };
            matches.then(|| p.child_by_field_name("value")).flatten()
        }
        "shorthand_property_identifier" => (text_of(p, text) == name).then_some(p),
        _ => None,
    })
}

/// A string literal's content, between its quotes.
fn string_content(node: Node) -> Range<usize> {
    let range = node.byte_range();
    if range.len() >= 2 {
        range.start + 1..range.end - 1
    } else {
        range
    }
}

/// The value of a string literal, or of a template literal without substitutions; escapes
/// decoded simply.
pub fn string_value(node: Node, text: &str) -> Option<String> {
    if !matches!(node.kind(), "string" | "template_string") {
        return None;
    }
    let mut out = String::new();
    for child in children(node) {
        match child.kind() {
            "string_fragment" => out.push_str(text_of(child, text)),
            "escape_sequence" => {
                let escape = text_of(child, text);
                out.push_str(match escape {
                    "\\n" => "\n",
                    "\\t" => "\t",
                    _ => escape.get(1..).unwrap_or_default(),
                });
            }
            "template_substitution" => return None,
            _ => {}
        }
    }
    Some(out)
}

fn parse_int(text: &str) -> Option<i64> {
    text.replace('_', "").parse().ok()
}
