//! Python's extractor of [`api::Facts`]: API calls by call shape, reads of responses through
//! simple local bindings, typed wrappers and client imports.

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use super::scope::{BindingKind, Resolution, Scopes, children, text_of};
use crate::api::line_indent;
use crate::api::{
    API_METHODS, Call, CallKind, Entry, Facts, Flow, Import, MapValue, ModelRef, NameValue, Origin, Read,
    ReadKind, SharedConfig, TypesImport, Value, ValueKind, Wrapper, WrapperKind,
};
use crate::lang::treesitter::{elements, removal, siblings};

mod legacy;

/// What a name or expression holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    Str(String),
    /// An imported module or name, by its dotted path.
    Module(String),
    Response,
    Interaction,
    Stream,
    StreamChunk,
    Chat,
    LegacyModel(ModelRef),
    /// The create-content method itself (`client.models.generate_content`), kept in a name;
    /// the range is `models.generate_content` in its definition.
    Method(CallKind, Range<usize>),
    Parts,
    Part,
    /// `R.candidates` of a response, interaction or stream chunk (by its origin), and one of them.
    Candidates(Origin),
    Candidate(Origin),
    /// A function; its parameters in order, each with whether its value goes into a request.
    Function(Vec<(String, bool)>),
    Unknown,
}

/// Top-level names a notebook's earlier cells bound, by what they hold.
pub type Env = HashMap<String, Class>;

/// Names a notebook's other code cells mention: a binding they may read is never "used only
/// here" (a notebook's code cells are one module).
#[derive(Default)]
pub struct Elsewhere<'a> {
    /// Mentions of each name in every cell, and in this cell.
    pub total: Option<&'a HashMap<String, usize>>,
    pub here: Option<&'a HashMap<String, usize>>,
}

impl Elsewhere<'_> {
    pub fn contains(&self, name: &str) -> bool {
        let total = self.total.and_then(|t| t.get(name)).copied().unwrap_or(0);
        let here = self.here.and_then(|h| h.get(name)).copied().unwrap_or(0);
        total > here
    }
}

const MAX_DEPTH: usize = 12;

struct Analyzer<'a, 't> {
    text: &'a str,
    scopes: Scopes<'t>,
    env: &'a Env,
    elsewhere: &'a Elsewhere<'a>,
}

/// The facts of one Python document, and what its top-level names hold (for the next cell of
/// a notebook). `env` is what the earlier cells bound, `elsewhere` the names the other cells
/// mention.
pub fn extract(tree: &tree_sitter::Tree, text: &str, env: &Env, elsewhere: &Elsewhere<'_>) -> (Facts, Env) {
    let root = tree.root_node();
    let a = Analyzer {
        text,
        scopes: Scopes::build(root, text),
        env,
        elsewhere,
    };
    let mut facts = Facts {
        comments: a.scopes.comments.clone(),
        ..Facts::default()
    };
    for &(node, scope) in &a.scopes.calls {
        if let Some(call) = a.call(node, scope) {
            facts.calls.push(call);
        }
        if let Some(wrapper) = a.wrapper(node, scope) {
            facts.wrappers.push(wrapper);
        }
    }
    for &(node, scope) in &a.scopes.attributes {
        if let Some(read) = a.read(node, scope) {
            facts.reads.push(read);
        }
    }
    for &node in &a.scopes.imports {
        a.imports(node, &mut facts.imports);
    }
    facts.legacy = a.legacy_units();
    let mut exports = Env::new();
    for ((scope, name), list) in &a.scopes.names.bindings {
        if *scope != 0 {
            continue;
        }
        let class = match list.last() {
            Some(b) => match b.kind {
                BindingKind::Assign { value, .. } => a.classify(value, 0, 0),
                BindingKind::Import { module, path } => a.import_class(module, path),
                BindingKind::Other => match a.scopes.functions.get(&b.start) {
                    Some(&(function, inner)) => Class::Function(
                        a.parameters(function)
                            .into_iter()
                            .map(|name| {
                                let request = a.parameter_flow(&name, inner, 0) == Flow::Request;
                                (name, request)
                            })
                            .collect(),
                    ),
                    None => Class::Unknown,
                },
                _ => Class::Unknown,
            },
            None => Class::Unknown,
        };
        exports.insert(name.clone(), class);
    }
    (facts, exports)
}

/// What the earlier cells of a notebook bound, as the legacy analysis reads it.
pub fn old_env(env: &crate::lang::facts::Env) -> Env {
    use crate::lang::facts::Class as New;
    env.iter()
        .map(|(name, class)| {
            let class = match class.clone() {
                New::Str(s) => Class::Str(s),
                New::Module(m) => Class::Module(m),
                New::Response => Class::Response,
                New::Interaction => Class::Interaction,
                New::Stream => Class::Stream,
                New::StreamChunk => Class::StreamChunk,
                New::Chat => Class::Chat,
                New::LegacyModel(m) => Class::LegacyModel(m),
                New::Method(kind, Some(range)) => Class::Method(kind, range),
                New::Parts => Class::Parts,
                New::Part => Class::Part,
                New::Candidates(o) => Class::Candidates(o),
                New::Candidate(o) => Class::Candidate(o),
                New::Function(params) => Class::Function(params),
                _ => Class::Unknown,
            };
            (name.clone(), class)
        })
        .collect()
}

/// The legacy units of one Python document (the rest of its facts come from
/// [`crate::lang::facts`]).
pub fn legacy(
    tree: &tree_sitter::Tree,
    text: &str,
    env: &Env,
    elsewhere: &Elsewhere<'_>,
) -> Vec<crate::api::LegacyUnit> {
    let a = Analyzer {
        text,
        scopes: Scopes::build(tree.root_node(), text),
        env,
        elsewhere,
    };
    a.legacy_units()
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
        match node.kind() {
            "parenthesized_expression" | "await" => match node.named_child(0) {
                Some(inner) => self.classify(inner, scope, depth + 1),
                None => Class::Unknown,
            },
            "string" => string_value(node, self.text).map_or(Class::Unknown, Class::Str),
            "identifier" => self.classify_name(node, scope, depth),
            "attribute" => self.classify_attribute(node, scope, depth),
            "subscript" => match node
                .child_by_field_name("value")
                .map(|v| self.classify(v, scope, depth + 1))
            {
                Some(Class::Candidates(origin)) => Class::Candidate(origin),
                _ => Class::Unknown,
            },
            "call" if self.is_partial(node) => Class::Unknown,
            // `loop.run_in_executor(None, lambda: request(...))` gives the lambda's result.
            "call"
                if self
                    .runner_method(node)
                    .is_some_and(|(m, _)| m.kind() == "lambda") =>
            {
                match self
                    .runner_method(node)
                    .and_then(|(lambda, _)| lambda.child_by_field_name("body"))
                {
                    Some(body) => self.classify(body, scope, depth + 1),
                    None => Class::Unknown,
                }
            }
            "call" => match self.call_kind(node, scope, depth) {
                Some((kind, ..)) => match kind {
                    CallKind::SendMessage
                        if keyword(node, "stream", self.text).is_some_and(|v| self.src(v) == "True") =>
                    {
                        Class::Stream
                    }
                    CallKind::Create | CallKind::LegacyCreate { stream: false } | CallKind::SendMessage => {
                        Class::Response
                    }
                    CallKind::Interactions => match keyword(node, "stream", self.text) {
                        None => Class::Interaction,
                        // Its items are events, still not read with `.text`.
                        Some(v) if self.src(v) == "True" => Class::Stream,
                        Some(_) => Class::Unknown,
                    },
                    CallKind::CreateStream | CallKind::LegacyCreate { stream: true } => Class::Stream,
                    CallKind::ChatCreate | CallKind::StartChat => Class::Chat,
                    CallKind::LegacyModel => Class::LegacyModel(self.legacy_model(node, scope, depth)),
                    CallKind::Rest { .. } => Class::Unknown,
                },
                None => Class::Unknown,
            },
            _ => Class::Unknown,
        }
    }

    fn classify_name(&self, node: Node<'t>, scope: usize, depth: usize) -> Class {
        let name = self.src(node);
        match self.scopes.names.resolve(name, scope, node.start_byte()) {
            Resolution::Bound(binding, _) => match binding.kind {
                BindingKind::Assign { value, .. } => self.classify(value, binding.scope, depth + 1),
                BindingKind::For { iter } => match self.classify(iter, binding.scope, depth + 1) {
                    Class::Stream => Class::StreamChunk,
                    Class::Parts => Class::Part,
                    Class::Candidates(origin) => Class::Candidate(origin),
                    _ => Class::Unknown,
                },
                BindingKind::Import { module, path } => self.import_class(module, path),
                BindingKind::Parameter { annotation }
                    if !self.own_package_type(annotation, binding.scope) =>
                {
                    annotation_class(annotation, self.text)
                }
                BindingKind::Parameter { .. } => Class::Unknown,
                BindingKind::Other => Class::Unknown,
            },
            Resolution::Opaque => Class::Unknown,
            Resolution::Unbound => self.env.get(name).cloned().unwrap_or(Class::Unknown),
        }
    }

    /// The annotation's type comes from a relative import (`from . import types`): the client
    /// package's own code, which implements the API rather than using it.
    fn own_package_type(&self, annotation: Node<'t>, scope: usize) -> bool {
        let mut root = annotation;
        while let Some(first) = root.named_child(0) {
            root = first;
        }
        let name = self.src(root).trim_matches(['"', '\'']);
        let name = name.split(['.', '[', ' ', '|']).next().unwrap_or_default();
        let name = name.strip_prefix("Optional[").unwrap_or(name);
        match self.scopes.names.resolve(name, scope, annotation.start_byte()) {
            Resolution::Bound(binding, _) => match binding.kind {
                BindingKind::Import { module: Some(m), .. } => self.src(m).starts_with('.'),
                _ => false,
            },
            _ => false,
        }
    }

    fn import_class(&self, module: Option<Node>, path: Node) -> Class {
        match module {
            Some(m) => Class::Module(format!("{}.{}", self.src(m), self.src(path))),
            None => {
                // `import a.b as c` binds the whole path; `import a.b` binds `a`.
                let aliased = path.parent().is_some_and(|p| p.kind() == "aliased_import");
                let full = self.src(path);
                if aliased {
                    Class::Module(full.to_string())
                } else {
                    Class::Module(full.split('.').next().unwrap_or_default().to_string())
                }
            }
        }
    }

    fn classify_attribute(&self, node: Node<'t>, scope: usize, depth: usize) -> Class {
        let (Some(object), Some(attr)) = (
            node.child_by_field_name("object"),
            node.child_by_field_name("attribute"),
        ) else {
            return Class::Unknown;
        };
        let attr_name = self.src(attr);
        if matches!(attr_name, "generate_content" | "generate_content_stream") && is_models(object, self.text)
        {
            let kind = if attr_name == "generate_content" {
                CallKind::Create
            } else {
                CallKind::CreateStream
            };
            let start = object
                .child_by_field_name("attribute")
                .map_or(node.start_byte(), |a| a.start_byte());
            return Class::Method(kind, start..node.end_byte());
        }
        if attr_name == "parts" && self.candidates_root(node, scope, depth).is_some() {
            return Class::Parts;
        }
        if attr_name == "candidates"
            && let Some(origin) = response_origin(&self.classify(object, scope, depth + 1))
        {
            return Class::Candidates(origin);
        }
        if self.src(object) == "self" {
            let values = self
                .scopes
                .self_attrs
                .get(attr_name)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let classes: Vec<Class> = values.iter().map(|v| self.classify(*v, 0, depth + 1)).collect();
            return match classes.first() {
                Some(first) if classes.iter().all(|c| c == first) => first.clone(),
                _ => Class::Unknown,
            };
        }
        match self.classify(object, scope, depth + 1) {
            Class::Module(path) => Class::Module(format!("{path}.{attr_name}")),
            _ => Class::Unknown,
        }
    }

    /// For `R.candidates[i].content.parts` (at `parts`), the class of `R` when it is a response.
    fn candidates_root(&self, parts: Node<'t>, scope: usize, depth: usize) -> Option<Class> {
        let content = parts
            .child_by_field_name("object")
            .filter(|n| n.kind() == "attribute")?;
        if content.child_by_field_name("attribute").map(|a| self.src(a)) != Some("content") {
            return None;
        }
        let subscript = content
            .child_by_field_name("object")
            .filter(|n| n.kind() == "subscript")?;
        let candidates = subscript
            .child_by_field_name("value")
            .filter(|n| n.kind() == "attribute")?;
        if candidates.child_by_field_name("attribute").map(|a| self.src(a)) != Some("candidates") {
            return None;
        }
        let root = candidates.child_by_field_name("object")?;
        let class = self.classify(root, scope, depth + 1);
        matches!(class, Class::Response | Class::Interaction | Class::StreamChunk).then_some(class)
    }

    /// The model of a legacy `GenerativeModel(...)` constructor call.
    fn legacy_model(&self, call: Node<'t>, scope: usize, depth: usize) -> ModelRef {
        // A model made from a cache uses the cache's model.
        let from_cache = call
            .child_by_field_name("function")
            .and_then(|f| f.child_by_field_name("attribute"))
            .is_some_and(|a| self.src(a) == "from_cached_content");
        if from_cache {
            return ModelRef::Unresolved;
        }
        let args = call.child_by_field_name("arguments");
        let value = keyword(call, "model_name", self.text)
            .or_else(|| keyword(call, "model", self.text))
            .or_else(|| {
                args.and_then(|a| children(a).find(|c| !matches!(c.kind(), "keyword_argument" | "comment")))
            });
        match value {
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

    /// The kind of an API call, the callee range to replace when rewriting it, and the alias
    /// it is called through.
    fn call_kind(
        &self,
        call: Node<'t>,
        scope: usize,
        depth: usize,
    ) -> Option<(CallKind, Option<Range<usize>>, Option<String>)> {
        if let Some((method, _)) = self.runner_method(call) {
            return self.method_reference(method, scope, depth);
        }
        let function = call.child_by_field_name("function")?;
        let has_request_keywords =
            keyword(call, "model", self.text).is_some() || keyword(call, "contents", self.text).is_some();
        match function.kind() {
            "attribute" => {
                let object = function.child_by_field_name("object")?;
                let attr = function.child_by_field_name("attribute")?;
                let method_range = || {
                    object
                        .child_by_field_name("attribute")
                        .map(|a| a.start_byte()..function.end_byte())
                };
                match self.src(attr) {
                    // The legacy model's coroutine reports as its blocking method.
                    "generate_content_async"
                        if matches!(self.classify(object, scope, depth + 1), Class::LegacyModel(_)) =>
                    {
                        let stream =
                            keyword(call, "stream", self.text).is_some_and(|v| self.src(v) == "True");
                        Some((CallKind::LegacyCreate { stream }, None, None))
                    }
                    name @ ("generate_content" | "generate_content_stream") => {
                        let stream = name == "generate_content_stream";
                        if is_models(object, self.text) {
                            let kind = if stream {
                                CallKind::CreateStream
                            } else {
                                CallKind::Create
                            };
                            return Some((kind, method_range(), None));
                        }
                        if let Class::LegacyModel(_) = self.classify(object, scope, depth + 1) {
                            let stream = stream
                                || keyword(call, "stream", self.text).is_some_and(|v| self.src(v) == "True");
                            return Some((CallKind::LegacyCreate { stream }, None, None));
                        }
                        // The API's own implementation calling itself is not a use of it.
                        if has_request_keywords && !self.implementation_call(call, object) {
                            let kind = if stream {
                                CallKind::CreateStream
                            } else {
                                CallKind::Create
                            };
                            return Some((kind, None, None));
                        }
                        None
                    }
                    "create" => match object.kind() {
                        "attribute" => match object.child_by_field_name("attribute").map(|a| self.src(a)) {
                            Some("interactions") => Some((CallKind::Interactions, None, None)),
                            Some("chats") => Some((CallKind::ChatCreate, None, None)),
                            _ => None,
                        },
                        _ => None,
                    },
                    "start_chat" => match self.classify(object, scope, depth + 1) {
                        Class::LegacyModel(_) => Some((CallKind::StartChat, None, None)),
                        _ => None,
                    },
                    "send_message" | "send_message_stream" => match self.classify(object, scope, depth + 1) {
                        Class::Chat => Some((CallKind::SendMessage, None, None)),
                        _ => None,
                    },
                    "GenerativeModel" => Some((CallKind::LegacyModel, None, None)),
                    // `genai.GenerativeModel.from_cached_content(cached_content=...)`.
                    "from_cached_content" => {
                        let model_class = self.src(object) == "GenerativeModel"
                            || object
                                .child_by_field_name("attribute")
                                .is_some_and(|a| self.src(a) == "GenerativeModel")
                            || matches!(self.classify(object, scope, depth + 1), Class::Module(p) if p.ends_with(".GenerativeModel"));
                        model_class.then_some((CallKind::LegacyModel, None, None))
                    }
                    _ => None,
                }
            }
            "identifier" => {
                let name = self.src(function);
                if name == "GenerativeModel" {
                    return Some((CallKind::LegacyModel, None, None));
                }
                match self.classify(function, scope, depth + 1) {
                    Class::Method(..) => self.method_reference(function, scope, depth),
                    Class::Module(path) if path.ends_with(".GenerativeModel") => {
                        Some((CallKind::LegacyModel, None, None))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The create-content method named by `node` (`client.models.generate_content`, or a name
    /// bound to it): its kind, the text to replace when rewriting the call, and the alias.
    fn method_reference(
        &self,
        node: Node<'t>,
        scope: usize,
        depth: usize,
    ) -> Option<(CallKind, Option<Range<usize>>, Option<String>)> {
        let Class::Method(kind, range) = self.classify(node, scope, depth + 1) else {
            return None;
        };
        if node.kind() != "identifier" {
            return Some((kind, Some(range), None));
        }
        // Rewritten through the alias only when the alias is bound once in this scope and
        // this call is its only use.
        let name = self.src(node);
        let local_single = matches!(
            self.scopes.names.resolve(name, scope, node.start_byte()),
            Resolution::Bound(b, 1) if b.scope == scope
        ) && self.scopes.names.uses_in(scope, name) == 1;
        Some((kind, local_single.then_some(range), Some(name.to_string())))
    }

    /// A call running a method it is given with the arguments after it: `asyncio.to_thread(f,
    /// ...)`, `functools.partial(f, ...)`, `loop.run_in_executor(executor, f, ...)`. The
    /// argument naming the method, and how many arguments come before the request's own.
    fn runner_method(&self, call: Node<'t>) -> Option<(Node<'t>, usize)> {
        let function = call.child_by_field_name("function")?;
        let name = match function.kind() {
            "attribute" => self.src(function.child_by_field_name("attribute")?),
            "identifier" => self.src(function),
            _ => return None,
        };
        let at = match name {
            "to_thread" | "partial" => 0,
            "run_in_executor" => 1,
            _ => return None,
        };
        let arguments = call
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")?;
        let elements = elements(arguments);
        let leading = elements.get(..=at)?;
        if leading
            .iter()
            .any(|e| matches!(e.kind(), "keyword_argument" | "list_splat" | "dictionary_splat"))
        {
            return None;
        }
        Some((*leading.last()?, at + 1))
    }

    /// `functools.partial(method, ...)`: the request is not made here but where the result is
    /// called.
    fn is_partial(&self, call: Node<'t>) -> bool {
        call.child_by_field_name("function").is_some_and(|f| {
            let name = match f.kind() {
                "attribute" => f.child_by_field_name("attribute").map(|a| self.src(a)),
                _ => Some(self.src(f)),
            };
            name == Some("partial")
        })
    }

    fn call(&self, node: Node<'t>, scope: usize) -> Option<Call> {
        let (kind, method, alias) = self.call_kind(node, scope, 0)?;
        // A runner's call (`asyncio.to_thread(method, ...)`) is the method's: its callee is the
        // method, its arguments those after it.
        let (function, skip) = match self.runner_method(node) {
            Some((method, skip)) => (method, skip),
            None => (node.child_by_field_name("function")?, 0),
        };
        let arguments = node
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")?;
        let mut args = Vec::new();
        let mut positional = Vec::new();
        let mut spread = false;
        let elements = elements(arguments);
        for (i, element) in elements.iter().enumerate().skip(skip) {
            match element.kind() {
                "keyword_argument" => {
                    if let Some(entry) = self.keyword_entry(*element, &elements, i, arguments, scope) {
                        args.push(entry);
                    }
                }
                "list_splat" | "dictionary_splat" => spread = true,
                _ => positional.push(self.value(*element, scope, 0)),
            }
        }
        let insert_at = elements
            .last()
            .map_or(arguments.start_byte() + 1, |e| e.end_byte());
        let arg_indent = elements.first().and_then(|first| {
            (first.start_position().row != arguments.start_position().row)
                .then(|| line_indent(self.text, first.start_byte()))
        });
        let model = match kind {
            CallKind::LegacyCreate { .. } | CallKind::StartChat => {
                match function
                    .child_by_field_name("object")
                    .map(|o| self.classify(o, scope, 1))
                {
                    Some(Class::LegacyModel(model)) => model,
                    _ => ModelRef::Unresolved,
                }
            }
            CallKind::LegacyModel => self.legacy_model(node, scope, 0),
            _ => match keyword(node, "model", self.text) {
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

    fn keyword_entry(
        &self,
        element: Node<'t>,
        elements: &[Node<'t>],
        index: usize,
        container: Node<'t>,
        scope: usize,
    ) -> Option<Entry> {
        let name = element.child_by_field_name("name")?;
        let value = element.child_by_field_name("value")?;
        Some(Entry {
            key: self.src(name).to_string(),
            key_range: name.byte_range(),
            range: element.byte_range(),
            value: self.value(value, scope, 0),
            keyword: true,
            removal: removal(elements, index, container),
            siblings: siblings(elements, index, container),
        })
    }

    // ----- values -----

    fn value(&self, node: Node<'t>, scope: usize, depth: usize) -> Value {
        let kind = if depth > MAX_DEPTH {
            ValueKind::Other
        } else {
            self.value_kind(node, scope, depth)
        };
        Value {
            range: node.byte_range(),
            kind,
        }
    }

    fn value_kind(&self, node: Node<'t>, scope: usize, depth: usize) -> ValueKind {
        match node.kind() {
            "string" => string_value(node, self.text).map_or(ValueKind::Other, ValueKind::Str),
            "integer" => parse_int(self.src(node)).map_or(ValueKind::Other, ValueKind::Int),
            "unary_operator" => {
                let operand = node.child_by_field_name("argument");
                match (self.src(node).trim_start().starts_with('-'), operand) {
                    (true, Some(o)) if o.kind() == "integer" => {
                        parse_int(self.src(o)).map_or(ValueKind::Other, |n| ValueKind::Int(-n))
                    }
                    _ => ValueKind::Other,
                }
            }
            "true" => ValueKind::Bool(true),
            "false" => ValueKind::Bool(false),
            "dictionary" => ValueKind::Map(Box::new(self.dictionary(node, scope, depth))),
            "list" => ValueKind::List(
                elements(node)
                    .into_iter()
                    .map(|e| self.value(e, scope, depth + 1))
                    .collect(),
            ),
            "call" => match self.wrapper_name(node, scope) {
                Some(name) if !name.contains('.') => match self.keyword_map(node, scope, depth, Some(name)) {
                    Some(map) => ValueKind::Map(Box::new(map)),
                    None => ValueKind::Other,
                },
                _ if node
                    .child_by_field_name("function")
                    .is_some_and(|f| self.src(f) == "dict") =>
                {
                    match self.keyword_map(node, scope, depth, None) {
                        Some(map) => ValueKind::Map(Box::new(map)),
                        None => ValueKind::Other,
                    }
                }
                _ => ValueKind::Other,
            },
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
            out.statement = Some(statement.byte_range());
            out.single_use = count == 1
                && self.scopes.names.uses_in(scope, &name) == 1
                && !(scope == 0 && self.elsewhere.contains(&name));
        }
        if !out.single_use && depth == 0 {
            out.shared = self.shared_config(&name, node, scope).map(Box::new);
        }
        out
    }

    /// The config `name` (read at `node`) when it is bound once, in this scope or the module's,
    /// to a config literal, and every read of it is the `config` argument of a create-content
    /// call that names the client's `models`.
    fn shared_config(&self, name: &str, node: Node<'t>, scope: usize) -> Option<SharedConfig> {
        let is_config_argument = |load: Node<'t>| {
            load.parent()
                .filter(|p| p.kind() == "keyword_argument")
                .filter(|p| p.child_by_field_name("value") == Some(load))
                .and_then(|p| p.child_by_field_name("name"))
                .is_some_and(|n| self.src(n) == "config")
        };
        if !is_config_argument(node) {
            return None;
        }
        let Resolution::Bound(binding, 1) = self.scopes.names.resolve(name, scope, node.start_byte()) else {
            return None;
        };
        if binding.scope != scope && binding.scope != 0 || binding.scope == 0 && self.elsewhere.contains(name)
        {
            return None;
        }
        let BindingKind::Assign { value, statement } = binding.kind else {
            return None;
        };
        let value = self.value(value, binding.scope, 1);
        if !value.as_map().is_some_and(|m| m.complete) {
            return None;
        }
        let mut calls = Vec::new();
        for &(load, load_scope) in self.scopes.loads.get(name)? {
            match self.scopes.names.resolve(name, load_scope, load.start_byte()) {
                Resolution::Bound(b, _) if b.start == binding.start && b.scope == binding.scope => {}
                Resolution::Bound(..) | Resolution::Unbound => continue,
                Resolution::Opaque => return None,
            }
            if !is_config_argument(load) {
                return None;
            }
            let call = load.parent()?.parent()?.parent().filter(|c| c.kind() == "call")?;
            match self.call_kind(call, load_scope, 0) {
                Some((CallKind::Create | CallKind::CreateStream, Some(_), _)) => {
                    calls.push(call.byte_range())
                }
                _ => return None,
            }
        }
        (calls.len() > 1).then(|| SharedConfig {
            value,
            statement: statement.byte_range(),
            calls,
        })
    }

    fn dictionary(&self, node: Node<'t>, scope: usize, depth: usize) -> MapValue {
        let elements = elements(node);
        let mut map = MapValue {
            entries: Vec::new(),
            complete: true,
            wrapper: None,
        };
        for (i, element) in elements.iter().enumerate() {
            let key = element.child_by_field_name("key");
            let value = element.child_by_field_name("value");
            match (
                element.kind(),
                key.and_then(|k| string_value(k, self.text)),
                key,
                value,
            ) {
                ("pair", Some(name), Some(key), Some(value)) => map.entries.push(Entry {
                    key: name,
                    key_range: key.byte_range(),
                    range: element.byte_range(),
                    value: self.value(value, scope, depth + 1),
                    keyword: false,
                    removal: removal(&elements, i, node),
                    siblings: siblings(&elements, i, node),
                }),
                _ => map.complete = false,
            }
        }
        map
    }

    /// A call's arguments as a map, when they are all keywords.
    fn keyword_map(
        &self,
        call: Node<'t>,
        scope: usize,
        depth: usize,
        wrapper: Option<String>,
    ) -> Option<MapValue> {
        let arguments = call
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")?;
        let elements = elements(arguments);
        let mut map = MapValue {
            entries: Vec::new(),
            complete: true,
            wrapper,
        };
        for (i, element) in elements.iter().enumerate() {
            if element.kind() != "keyword_argument" {
                map.complete = false;
                continue;
            }
            let (Some(name), Some(value)) = (
                element.child_by_field_name("name"),
                element.child_by_field_name("value"),
            ) else {
                continue;
            };
            map.entries.push(Entry {
                key: self.src(name).to_string(),
                key_range: name.byte_range(),
                range: element.byte_range(),
                value: self.value(value, scope, depth + 1),
                keyword: true,
                removal: removal(&elements, i, arguments),
                siblings: siblings(&elements, i, arguments),
            });
        }
        Some(map)
    }

    // ----- typed wrappers -----

    /// `GenerateContentConfig`, `Part.from_text`: the name of the typed wrapper a call builds.
    fn wrapper_name(&self, call: Node<'t>, scope: usize) -> Option<String> {
        let function = call.child_by_field_name("function")?;
        match self.classify(function, scope, 0) {
            Class::Module(path) => wrapper_of_path(&path),
            // A snippet (a documentation code block) that uses the client's `types` module
            // without importing it: `types` is bound nowhere.
            _ => {
                let written = self.src(function);
                let rest = written.strip_prefix("types.")?;
                let unbound = matches!(
                    self.scopes.names.resolve("types", scope, function.start_byte()),
                    Resolution::Unbound
                ) && !self.env.contains_key("types");
                unbound
                    .then(|| wrapper_of_path(&format!("google.genai.types.{rest}")))
                    .flatten()
            }
        }
    }

    fn wrapper(&self, node: Node<'t>, scope: usize) -> Option<Wrapper> {
        let name = self.wrapper_name(node, scope)?;
        let function = node.child_by_field_name("function")?;
        let arguments = node
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")?;
        let map = self
            .keyword_map(node, scope, 0, Some(name.clone()))
            .filter(|m| m.complete && !elements(arguments).iter().any(|e| e.kind() == "dictionary_splat"))
            .filter(|_| !self.used_as_object(node, scope));
        let open = arguments.start_byte()..arguments.start_byte() + 1;
        let close = arguments.end_byte().saturating_sub(1)..arguments.end_byte();
        let kind = if name.contains('.') {
            WrapperKind::Factory
        } else {
            WrapperKind::Class
        };
        Some(Wrapper {
            name,
            kind,
            module: None,
            callee: function.byte_range(),
            range: node.byte_range(),
            map,
            open,
            close,
            literal: None,
            flow: self.flow(node, scope, 0),
        })
    }

    /// The wrapper is bound to a name whose attributes are read or set (`cfg.seed = 0`): a dict
    /// would not do.
    fn used_as_object(&self, wrapper: Node<'t>, scope: usize) -> bool {
        let Some(assignment) = wrapper.parent().filter(|p| p.kind() == "assignment") else {
            return false;
        };
        let Some(target) = assignment
            .child_by_field_name("left")
            .filter(|l| l.kind() == "identifier")
        else {
            return false;
        };
        let name = self.src(target);
        self.scopes.attributes.iter().any(|(attribute, s)| {
            *s == scope
                && attribute
                    .child_by_field_name("object")
                    .is_some_and(|o| o.kind() == "identifier" && self.src(o) == name)
        })
    }

    // ----- where values go -----

    /// Where the value of the expression `node` goes: up through the lists, dicts and
    /// parentheses around it to the call taking it, or through the name it is bound to.
    fn flow(&self, node: Node<'t>, scope: usize, depth: usize) -> Flow {
        if depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        let mut current = node;
        while let Some(parent) = current.parent() {
            let is = |field: &str| parent.child_by_field_name(field) == Some(current);
            match parent.kind() {
                "list"
                | "tuple"
                | "set"
                | "dictionary"
                | "parenthesized_expression"
                | "list_splat"
                | "expression_list"
                | "conditional_expression" => {}
                "binary_operator"
                    if parent.child_by_field_name("operator").map(|o| self.src(o)) == Some("+") => {}
                "pair" | "keyword_argument" if is("value") => {}
                "list_comprehension" | "generator_expression" if is("body") => {}
                "argument_list" => return self.argument_flow(parent, current, scope, depth),
                "assignment" if is("right") => {
                    return match parent.child_by_field_name("left") {
                        Some(left) if left.kind() == "identifier" => self.name_flow(left, scope, depth),
                        Some(left) if left.kind() == "attribute" => self.field_flow(left, scope),
                        _ => Flow::Elsewhere,
                    };
                }
                _ => return Flow::Elsewhere,
            }
            current = parent;
        }
        Flow::Elsewhere
    }

    /// Where a value set as a field goes (`config.tool_config = ...`): into the wrapper the
    /// object's name is bound to, or elsewhere.
    fn field_flow(&self, target: Node<'t>, scope: usize) -> Flow {
        let Some(object) = target
            .child_by_field_name("object")
            .filter(|o| o.kind() == "identifier")
        else {
            return Flow::Elsewhere;
        };
        match self
            .scopes
            .names
            .resolve(self.src(object), scope, object.start_byte())
        {
            Resolution::Bound(binding, _) => match binding.kind {
                BindingKind::Assign { value, .. }
                    if value.kind() == "call" && self.wrapper_name(value, binding.scope).is_some() =>
                {
                    Flow::Inside(vec![value.byte_range()])
                }
                _ => Flow::Elsewhere,
            },
            _ => Flow::Elsewhere,
        }
    }

    /// Where an argument goes: into a request (also one run by `asyncio.to_thread(method,
    /// ...)`), into a wrapper, into a list (`parts.append(x)`) that goes on by its name, into
    /// a parameter of a function of this module (or of an earlier notebook cell), or elsewhere.
    fn argument_flow(&self, arguments: Node<'t>, argument: Node<'t>, scope: usize, depth: usize) -> Flow {
        let Some(call) = arguments.parent().filter(|c| c.kind() == "call") else {
            return Flow::Elsewhere;
        };
        if self.call_kind(call, scope, 0).is_some() {
            return Flow::Request;
        }
        if self.wrapper_name(call, scope).is_some() {
            return Flow::Inside(vec![call.byte_range()]);
        }
        if let Some(list) = self.list_growth(call) {
            return self.name_flow(list, scope, depth + 1);
        }
        let elements = elements(arguments);
        let runs_request = elements
            .iter()
            .any(|e| matches!(self.classify(*e, scope, 0), Class::Method(..)));
        if runs_request {
            return Flow::Request;
        }
        let Some(function) = call
            .child_by_field_name("function")
            .filter(|f| f.kind() == "identifier")
        else {
            return Flow::Elsewhere;
        };
        // The parameter the argument binds: by its keyword, else by its position.
        let keyword = (argument.kind() == "keyword_argument")
            .then(|| {
                argument
                    .child_by_field_name("name")
                    .map(|n| self.src(n).to_string())
            })
            .flatten();
        let position = elements
            .iter()
            .take_while(|e| **e != argument)
            .try_fold(0, |n, e| match e.kind() {
                "list_splat" | "dictionary_splat" => None,
                "keyword_argument" => Some(n),
                _ => Some(n + 1),
            });
        let pick = |params: &[String]| -> Option<String> {
            match &keyword {
                Some(k) => params.contains(k).then(|| k.clone()),
                None => params.get(position?).cloned(),
            }
        };
        let name = self.src(function);
        match self.scopes.names.all_bindings(name, scope) {
            [only] => match self.scopes.functions.get(&only.start) {
                Some(&(definition, inner)) => match pick(&self.parameters(definition)) {
                    Some(parameter) => self.parameter_flow(&parameter, inner, depth + 1),
                    None => Flow::Elsewhere,
                },
                None => Flow::Elsewhere,
            },
            [] => match self.env.get(name) {
                Some(Class::Function(params)) => {
                    let names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
                    let request = pick(&names).is_some_and(|p| params.iter().any(|(n, r)| *n == p && *r));
                    if request { Flow::Request } else { Flow::Elsewhere }
                }
                _ => Flow::Elsewhere,
            },
            _ => Flow::Elsewhere,
        }
    }

    /// The names of a function's parameters that an argument can bind, in order (up to `*args`
    /// or a bare `*`).
    fn parameters(&self, function: Node<'t>) -> Vec<String> {
        let Some(params) = function.child_by_field_name("parameters") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for param in children(params) {
            let name = match param.kind() {
                "identifier" => Some(param),
                "default_parameter" | "typed_default_parameter" => param.child_by_field_name("name"),
                "typed_parameter" => children(param).find(|c| c.kind() == "identifier"),
                _ => break,
            };
            match name {
                Some(n) => out.push(self.src(n).to_string()),
                None => break,
            }
        }
        out
    }

    /// Where a parameter's value goes: wherever every use of it in its function goes, when the
    /// function does not bind it again.
    fn parameter_flow(&self, parameter: &str, function_scope: usize, depth: usize) -> Flow {
        let bound_once = self
            .scopes
            .names
            .bindings
            .get(&(function_scope, parameter.to_string()))
            .is_some_and(|list| list.len() == 1);
        if !bound_once || depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        self.uses_flow(parameter, function_scope, depth)
    }

    /// `xs.append(...)`, `xs.extend(...)`, `xs.insert(...)`: the list `xs` grown.
    fn list_growth(&self, call: Node<'t>) -> Option<Node<'t>> {
        let function = call
            .child_by_field_name("function")
            .filter(|f| f.kind() == "attribute")?;
        let method = function.child_by_field_name("attribute")?;
        let object = function.child_by_field_name("object")?;
        (matches!(self.src(method), "append" | "extend" | "insert") && object.kind() == "identifier")
            .then_some(object)
    }

    /// Where the value bound to `target` goes: wherever every use of the name goes, when the
    /// name is bound only here. Growing it (`xs.append(...)`) is not a use.
    fn name_flow(&self, target: Node<'t>, scope: usize, depth: usize) -> Flow {
        let name = self.src(target);
        let Some(declared) = self.scopes.names.declaring_scope(name, scope) else {
            return Flow::Elsewhere;
        };
        let bound_once = match self.scopes.names.bindings.get(&(declared, name.to_string())) {
            Some(list) => {
                matches!(list.as_slice(), [only] if matches!(only.kind, BindingKind::Assign { .. }))
            }
            None => false,
        };
        if !bound_once || depth > MAX_DEPTH {
            return Flow::Elsewhere;
        }
        self.uses_flow(name, declared, depth)
    }

    /// Where the uses of `name` bound in `declared` go. Growing a list (`xs.append(...)`) or
    /// measuring it (`len(xs)`) is not a use.
    fn uses_flow(&self, name: &str, declared: usize, depth: usize) -> Flow {
        let uses = self.scopes.loads.get(name).map(Vec::as_slice).unwrap_or_default();
        Flow::of_uses(
            uses.iter()
                .filter(|(_, s)| self.scopes.names.declaring_scope(name, *s) == Some(declared))
                .filter(|(use_node, _)| {
                    let grown = use_node
                        .parent()
                        .and_then(|attribute| attribute.parent())
                        .is_some_and(|call| {
                            call.kind() == "call" && self.list_growth(call) == Some(*use_node)
                        });
                    let measured = use_node
                        .parent()
                        .and_then(|arguments| arguments.parent())
                        .and_then(|call| call.child_by_field_name("function"))
                        .is_some_and(|f| self.src(f) == "len");
                    !grown && !measured
                })
                .map(|(use_node, s)| self.flow(*use_node, *s, depth + 1)),
        )
    }

    // ----- the API's own implementation -----

    /// A call on `self` or one of its members (not its `models` resource) in a class that
    /// defines one of the API's methods: the implementation calling itself.
    fn implementation_call(&self, call: Node<'t>, receiver: Node<'t>) -> bool {
        let mut node = receiver;
        for _ in 0..MAX_DEPTH {
            let next = match node.kind() {
                "attribute" => {
                    if node.child_by_field_name("attribute").map(|a| self.src(a)) == Some("models") {
                        return false;
                    }
                    node.child_by_field_name("object")
                }
                "call" => node.child_by_field_name("function"),
                "subscript" => node.child_by_field_name("value"),
                "identifier" => break,
                _ => return false,
            };
            match next {
                Some(n) => node = n,
                None => return false,
            }
        }
        if node.kind() != "identifier" || self.src(node) != "self" {
            return false;
        }
        let mut ancestor = call.parent();
        while let Some(a) = ancestor {
            if a.kind() == "class_definition" {
                return a.child_by_field_name("body").is_some_and(|body| {
                    children(body).any(|member| {
                        let function = match member.kind() {
                            "decorated_definition" => member.child_by_field_name("definition"),
                            _ => Some(member),
                        };
                        function
                            .filter(|f| f.kind() == "function_definition")
                            .and_then(|f| f.child_by_field_name("name"))
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
        let attr = self.src(node.child_by_field_name("attribute")?);
        // `x.text = ...` writes; `x.text()` is some other API's method.
        let parent = node.parent();
        if parent.is_some_and(|p| {
            p.kind() == "call" && p.child_by_field_name("function") == Some(node)
                || p.kind() == "assignment" && p.child_by_field_name("left") == Some(node)
        }) {
            return None;
        }
        let origin_of = |class: Class| match class {
            Class::Response => Some(Origin::Response),
            Class::Interaction => Some(Origin::Interaction),
            Class::StreamChunk => Some(Origin::StreamChunk),
            Class::Part => Some(Origin::Part),
            _ => None,
        };
        let (kind, range) = match attr {
            "text" | "function_calls" => {
                let origin = origin_of(self.classify(object, scope, 0))?;
                if origin == Origin::Part {
                    return None;
                }
                let kind = if attr == "text" {
                    ReadKind::Text
                } else {
                    ReadKind::FunctionCalls
                };
                return Some(Read {
                    kind,
                    range: node.byte_range(),
                    receiver: object.byte_range(),
                    origin,
                    all_interactions: self.all_interactions(object, scope),
                    detached: false,
                });
            }
            "function_call" => {
                if self.classify(object, scope, 0) != Class::Part {
                    return None;
                }
                (ReadKind::PartFunctionCall, node.byte_range())
            }
            "grounding_metadata" => {
                // `R.candidates[i].grounding_metadata` is the candidates chain's read.
                let chain = object.kind() == "subscript"
                    && object
                        .child_by_field_name("value")
                        .filter(|v| v.kind() == "attribute")
                        .and_then(|v| v.child_by_field_name("attribute"))
                        .is_some_and(|a| self.src(a) == "candidates");
                let origin = match self.classify(object, scope, 0) {
                    _ if chain => return None,
                    Class::Candidate(origin) => origin,
                    class => response_origin(&class)?,
                };
                return Some(Read {
                    kind: ReadKind::Grounding,
                    range: node.byte_range(),
                    receiver: object.byte_range(),
                    origin,
                    all_interactions: false,
                    detached: false,
                });
            }
            "usage_metadata" | "parsed" => {
                let origin = origin_of(self.classify(object, scope, 0))?;
                if !matches!(origin, Origin::Response | Origin::Interaction) {
                    return None;
                }
                let kind = if attr == "parsed" {
                    let as_object = parent.is_some_and(|p| {
                        matches!(p.kind(), "attribute" | "subscript")
                            && (p.child_by_field_name("object") == Some(node)
                                || p.child_by_field_name("value") == Some(node))
                    });
                    ReadKind::Parsed { as_object }
                } else {
                    let member = parent
                        .filter(|p| p.kind() == "attribute" && p.child_by_field_name("object") == Some(node))
                        .and_then(|p| p.child_by_field_name("attribute"))
                        .map(|a| (a.start_byte(), a.end_byte()));
                    ReadKind::Usage { member }
                };
                return Some(Read {
                    kind,
                    range: node.byte_range(),
                    receiver: object.byte_range(),
                    origin,
                    all_interactions: self.all_interactions(object, scope),
                    detached: false,
                });
            }
            "candidates" => {
                let origin = origin_of(self.classify(object, scope, 0))?;
                let (kind, range) = self.candidates_chain(node)?;
                return Some(Read {
                    kind,
                    range,
                    receiver: object.byte_range(),
                    origin,
                    all_interactions: self.all_interactions(object, scope),
                    detached: false,
                });
            }
            _ => return None,
        };
        Some(Read {
            kind,
            range,
            receiver: object.byte_range(),
            origin: Origin::Part,
            all_interactions: false,
            detached: false,
        })
    }

    /// From `R.candidates`, the read the whole chain makes: `R.candidates[0].content.parts...`.
    fn candidates_chain(&self, candidates: Node<'t>) -> Option<(ReadKind, Range<usize>)> {
        let mut top = candidates;
        let mut steps: Vec<String> = Vec::new();
        while let Some(parent) = top.parent() {
            let step = match parent.kind() {
                "subscript" if parent.child_by_field_name("value") == Some(top) => {
                    let index = parent
                        .child_by_field_name("subscript")
                        .map(|s| self.src(s))
                        .unwrap_or_default();
                    format!("[{index}]")
                }
                "attribute" if parent.child_by_field_name("object") == Some(top) => {
                    format!(
                        ".{}",
                        parent
                            .child_by_field_name("attribute")
                            .map(|a| self.src(a))
                            .unwrap_or_default()
                    )
                }
                _ => break,
            };
            // A method call ends the chain before the method.
            if parent.kind() == "attribute"
                && parent
                    .parent()
                    .is_some_and(|p| p.kind() == "call" && p.child_by_field_name("function") == Some(parent))
            {
                break;
            }
            steps.push(step);
            top = parent;
        }
        let kind = ReadKind::of_candidates_chain(&steps.concat())?;
        Some((kind, candidates.start_byte()..top.end_byte()))
    }

    /// Every binding the receiver can come from is an interactions result.
    fn all_interactions(&self, receiver: Node<'t>, scope: usize) -> bool {
        match receiver.kind() {
            "identifier" => {
                let name = self.src(receiver);
                let bindings = self.scopes.names.all_bindings(name, scope);
                if bindings.is_empty() {
                    // Bound by an earlier notebook cell, as the cells run in order.
                    return matches!(
                        self.scopes.names.resolve(name, scope, receiver.start_byte()),
                        Resolution::Unbound
                    ) && self.env.get(name) == Some(&Class::Interaction);
                }
                !bindings.is_empty()
                    && bindings.iter().all(|b| match b.kind {
                        BindingKind::Assign { value, .. } => {
                            self.classify(value, b.scope, 1) == Class::Interaction
                        }
                        _ => false,
                    })
            }
            _ => self.classify(receiver, scope, 0) == Class::Interaction,
        }
    }

    // ----- imports -----

    fn imports(&self, node: Node<'t>, out: &mut Vec<Import>) {
        let module = node.child_by_field_name("module_name");
        let mut cursor = node.walk();
        let names: Vec<Node> = node.children_by_field_name("name", &mut cursor).collect();
        let statement = crate::api::line_removal(self.text, node.byte_range());
        for (i, name) in names.iter().enumerate() {
            let (path_node, alias) = match name.kind() {
                "aliased_import" => (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ),
                _ => (Some(*name), None),
            };
            let Some(path_node) = path_node else {
                continue;
            };
            let full = match module {
                Some(m) => format!("{}.{}", self.src(m), self.src(path_node)),
                None => self.src(path_node).to_string(),
            };
            if !is_client_path(&full) {
                continue;
            }
            let reported = match module {
                Some(m) if is_client_path(self.src(m)) => (self.src(m).to_string(), m.byte_range()),
                _ => (full.clone(), path_node.byte_range()),
            };
            let types = full.ends_with(".types").then(|| {
                let binding = alias.map_or_else(
                    || {
                        self.src(path_node)
                            .rsplit('.')
                            .next()
                            .unwrap_or_default()
                            .to_string()
                    },
                    |a| self.src(a).to_string(),
                );
                let used = self.scopes.names.total_uses.get(&binding).copied().unwrap_or(0) > 0
                    || self.elsewhere.contains(&binding);
                let removal = if names.len() == 1 {
                    without_blank_start(self.text, statement.clone())
                } else if let Some(next) = names.get(i + 1) {
                    name.start_byte()..next.start_byte()
                } else {
                    names[i - 1].end_byte()..name.end_byte()
                };
                TypesImport {
                    binding,
                    name_range: name.byte_range(),
                    removal,
                    used,
                }
            });
            // `from google import genai, generativeai` reports each name, not the module twice.
            let (module_text, module_range) = if module.is_some_and(|m| !is_client_path(self.src(m))) {
                (full.clone(), name.byte_range())
            } else {
                reported
            };
            if out.iter().any(|i: &Import| i.module_range == module_range) && types.is_none() {
                continue;
            }
            out.push(Import {
                module: module_text,
                statement: node.byte_range(),
                module_range,
                types,
            });
        }
    }
}

/// What a parameter annotated `annotation` holds: a response when the annotation names the
/// response type (`GenerateContentResponse`, `types.GenerateContentResponse`, quoted, or
/// optional: `Optional[...]`, `... | None`).
fn annotation_class(annotation: Node, text: &str) -> Class {
    let written = text_of(annotation, text).trim().trim_matches(['"', '\'']);
    let inner = written
        .strip_prefix("Optional[")
        .or_else(|| written.strip_prefix("typing.Optional["))
        .and_then(|rest| rest.strip_suffix(']'))
        .or_else(|| written.strip_suffix("| None").map(str::trim_end))
        .unwrap_or(written)
        .trim()
        .trim_matches(['"', '\'']);
    match inner.rsplit('.').next() {
        Some("GenerateContentResponse") => Class::Response,
        _ => Class::Unknown,
    }
}

/// `...models` — the models resource of a client, whatever the client is called.
fn is_models(node: Node, text: &str) -> bool {
    node.kind() == "attribute"
        && node
            .child_by_field_name("attribute")
            .is_some_and(|a| text_of(a, text) == "models")
}

/// The value node of the keyword argument `name` of a call.
fn keyword<'t>(call: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    keyword_in(call.child_by_field_name("arguments")?, name, text)
}

/// The value node of the keyword argument `name` in an argument list.
pub(super) fn keyword_in<'t>(arguments: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    children(arguments)
        .filter(|c| c.kind() == "keyword_argument")
        .find(|c| {
            c.child_by_field_name("name")
                .is_some_and(|n| text_of(n, text) == name)
        })?
        .child_by_field_name("value")
}

/// A dotted path names a client package when one of its parts is `genai` or `generativeai`.
/// What a response-like value is, as the origin of what is read from it.
fn response_origin(class: &Class) -> Option<Origin> {
    match class {
        Class::Response => Some(Origin::Response),
        Class::Interaction => Some(Origin::Interaction),
        Class::StreamChunk => Some(Origin::StreamChunk),
        _ => None,
    }
}

fn is_client_path(path: &str) -> bool {
    path.split('.').any(|p| p == "genai" || p == "generativeai")
}

/// The typed wrapper a dotted path names: a class of a client package's `types` module
/// (`google.genai.types.Part` → `Part`, with `Part.from_text` for its factories), or the legacy
/// package's `GenerationConfig`.
fn wrapper_of_path(path: &str) -> Option<String> {
    if !is_client_path(path) {
        return None;
    }
    let parts: Vec<&str> = path.split('.').collect();
    let at = parts.iter().position(|p| *p == "types");
    let rest: Vec<&str> = match at {
        Some(i) => parts[i + 1..].to_vec(),
        None => {
            let last = parts.last()?;
            return (*last == "GenerationConfig").then(|| last.to_string());
        }
    };
    let first = rest.first()?;
    if !first.starts_with(|c: char| c.is_ascii_uppercase()) || rest.len() > 2 {
        return None;
    }
    if rest.len() == 2 && !rest[1].starts_with("from_") {
        return None;
    }
    Some(rest.join("."))
}

/// A deletion at the start of the file takes the blank lines after it too, so the file does
/// not begin with a blank line.
fn without_blank_start(text: &str, range: Range<usize>) -> Range<usize> {
    if range.start != 0 || !text[..range.end].ends_with('\n') {
        return range;
    }
    let rest = &text[range.end..];
    let blank = rest.len() - rest.trim_start_matches(['\n', '\r']).len();
    range.start..range.end + blank
}

/// The value of a plain string literal (no f-string, no bytes); escapes decoded simply.
pub fn string_value(node: Node, text: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut out = String::new();
    let mut raw = false;
    for child in children(node) {
        match child.kind() {
            "string_start" => {
                let prefix = text_of(child, text).to_ascii_lowercase();
                if prefix.contains('f') || prefix.contains('b') {
                    return None;
                }
                raw = prefix.contains('r');
            }
            "string_content" => out.push_str(text_of(child, text)),
            "interpolation" => return None,
            _ => {}
        }
    }
    if !raw && out.contains('\\') {
        out = out
            .replace("\\n", "\n")
            .replace("\\t", "\t")
            .replace("\\'", "'")
            .replace("\\\"", "\"")
            .replace("\\\\", "\\");
    }
    Some(out)
}

fn parse_int(text: &str) -> Option<i64> {
    text.replace('_', "").parse().ok()
}
