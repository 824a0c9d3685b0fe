//! Scopes and bindings of a Python module, walked into the shared table of
//! [`bindings`](crate::lang::bindings).

use std::collections::HashMap;

pub use crate::lang::bindings::ScopeKind;
use crate::lang::bindings::{self, Bindings};
pub use crate::lang::treesitter::{children, text_of};

use tree_sitter::Node;

#[derive(Clone, Copy, Debug)]
pub enum BindingKind<'t> {
    /// `name = value` (or `name: T = value`); `statement` is the whole statement.
    Assign { value: Node<'t>, statement: Node<'t> },
    /// `for name in iter:`.
    For { iter: Node<'t> },
    /// `from module import name [as alias]` (`module` set), `import path [as alias]`.
    Import {
        module: Option<Node<'t>>,
        path: Node<'t>,
    },
    /// A parameter with a type annotation (`response: types.GenerateContentResponse`).
    Parameter { annotation: Node<'t> },
    /// Parameters without one, tuple targets, `global`, augmented assignments: not followed.
    Other,
}

impl crate::lang::bindings::BindingKind for BindingKind<'_> {
    fn is_opaque(&self) -> bool {
        matches!(self, BindingKind::Other)
    }
}

pub type Resolution<'t> = bindings::Resolution<BindingKind<'t>>;

/// Everything the walk learned: scopes, bindings per (scope, name), uses per (scope, name),
/// `self.<attr> = value` assignments, and the scope of every call and attribute.
pub struct Scopes<'t> {
    pub names: Bindings<BindingKind<'t>>,
    pub self_attrs: HashMap<String, Vec<Node<'t>>>,
    /// Calls and attribute reads with their scope, in source order.
    pub calls: Vec<(Node<'t>, usize)>,
    pub attributes: Vec<(Node<'t>, usize)>,
    pub imports: Vec<Node<'t>>,
    pub comments: Vec<std::ops::Range<usize>>,
    /// Where each name is read, with the scope of the read: to follow a value to its uses.
    pub loads: HashMap<String, Vec<(Node<'t>, usize)>>,
    /// Function definitions and the scope of their body, by where their name starts (the
    /// start of the name's binding).
    pub functions: HashMap<usize, (Node<'t>, usize)>,
}

impl<'t> Scopes<'t> {
    pub fn build(root: Node<'t>, text: &str) -> Self {
        let mut s = Scopes {
            names: Bindings::new(),
            self_attrs: HashMap::new(),
            calls: Vec::new(),
            attributes: Vec::new(),
            imports: Vec::new(),
            comments: Vec::new(),
            loads: HashMap::new(),
            functions: HashMap::new(),
        };
        // An explicit stack: deeply nested code must not overflow the thread's stack. Each
        // node comes with its parent, which tree-sitter would find by descending from the root.
        let mut stack: Vec<(Node<'t>, usize, Option<Node<'t>>)> = vec![(root, 0, None)];
        while let Some((node, scope, parent)) = stack.pop() {
            let mut child_scope = scope;
            match node.kind() {
                "comment" => {
                    s.comments
                        .extend(super::comment_runs::comment_lines(node.byte_range(), text));
                    continue;
                }
                "function_definition" | "lambda" => {
                    if let Some(name) = node.child_by_field_name("name") {
                        s.bind(scope, text_of(name, text), name.start_byte(), BindingKind::Other);
                    }
                    child_scope = s.push_scope(scope, ScopeKind::Function);
                    if let Some(name) = node.child_by_field_name("name") {
                        s.functions.insert(name.start_byte(), (node, child_scope));
                    }
                    if let Some(params) = node.child_by_field_name("parameters") {
                        s.bind_parameters(params, child_scope, text);
                    }
                    // Decorators and defaults belong to the outer scope, but reading them there
                    // or here makes no difference to the rules.
                    for child in children(node) {
                        if Some(child) != node.child_by_field_name("parameters")
                            && Some(child) != node.child_by_field_name("name")
                        {
                            stack.push((child, child_scope, Some(node)));
                        }
                    }
                    continue;
                }
                "class_definition" => {
                    if let Some(name) = node.child_by_field_name("name") {
                        s.bind(scope, text_of(name, text), name.start_byte(), BindingKind::Other);
                    }
                    child_scope = s.push_scope(scope, ScopeKind::Class);
                    for child in children(node) {
                        if Some(child) != node.child_by_field_name("name") {
                            stack.push((child, child_scope, Some(node)));
                        }
                    }
                    continue;
                }
                "assignment" => s.assignment(node, parent, scope, text),
                "augmented_assignment" => {
                    if let Some(left) = node.child_by_field_name("left")
                        && left.kind() == "identifier"
                    {
                        s.bind(scope, text_of(left, text), node.start_byte(), BindingKind::Other);
                    }
                }
                "for_statement" => {
                    if let (Some(left), Some(iter)) = (
                        node.child_by_field_name("left"),
                        node.child_by_field_name("right"),
                    ) {
                        if left.kind() == "identifier" {
                            s.bind(
                                scope,
                                text_of(left, text),
                                node.start_byte(),
                                BindingKind::For { iter },
                            );
                        } else {
                            s.bind_targets(left, scope, text);
                        }
                    }
                }
                "as_pattern" | "named_expression" => {
                    let target = node
                        .child_by_field_name("alias")
                        .or_else(|| node.child_by_field_name("name"));
                    if let Some(target) = target {
                        s.bind_targets(target, scope, text);
                    }
                }
                "global_statement" | "nonlocal_statement" => {
                    for child in children(node).filter(|c| c.kind() == "identifier") {
                        s.bind(scope, text_of(child, text), node.start_byte(), BindingKind::Other);
                    }
                    continue;
                }
                "import_statement" | "import_from_statement" => {
                    s.import(node, scope, text);
                    s.imports.push(node);
                    continue;
                }
                "call" => s.calls.push((node, scope)),
                "attribute" => s.attributes.push((node, scope)),
                "identifier" => {
                    if is_load(node, parent) {
                        let name = text_of(node, text);
                        s.names.add_use(scope, name);
                        s.loads.entry(name.to_string()).or_default().push((node, scope));
                    }
                    continue;
                }
                _ => {}
            }
            let mut cursor = node.walk();
            let kids: Vec<Node<'t>> = node.children(&mut cursor).collect();
            for child in kids.into_iter().rev() {
                stack.push((child, child_scope, Some(node)));
            }
        }
        // The stack visits children in order, so bindings and calls are already in source
        // order except across scopes; sort what order matters for.
        s.calls.sort_by_key(|(n, _)| n.start_byte());
        s.attributes.sort_by_key(|(n, _)| n.start_byte());
        s.names.sort();
        s
    }

    fn push_scope(&mut self, parent: usize, kind: ScopeKind) -> usize {
        self.names.push_scope(parent, kind)
    }

    fn bind(&mut self, scope: usize, name: &str, start: usize, kind: BindingKind<'t>) {
        self.names.bind(scope, name, start, kind);
    }

    fn assignment(&mut self, node: Node<'t>, parent: Option<Node<'t>>, scope: usize, text: &str) {
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        let right = node.child_by_field_name("right");
        let statement = parent
            .filter(|p| p.kind() == "expression_statement")
            .unwrap_or(node);
        match (left.kind(), right) {
            // `a = b = value` nests: the inner assignment is the right side.
            ("identifier", Some(value)) if value.kind() != "assignment" => self.bind(
                scope,
                text_of(left, text),
                node.start_byte(),
                BindingKind::Assign { value, statement },
            ),
            ("attribute", Some(value)) => {
                let object = left.child_by_field_name("object");
                if object.is_some_and(|o| text_of(o, text) == "self")
                    && let Some(attr) = left.child_by_field_name("attribute")
                {
                    self.self_attrs
                        .entry(text_of(attr, text).to_string())
                        .or_default()
                        .push(value);
                }
            }
            _ => self.bind_targets(left, scope, text),
        }
    }

    /// Every identifier of a target pattern, bound to something not followed.
    fn bind_targets(&mut self, target: Node<'t>, scope: usize, text: &str) {
        if target.kind() == "identifier" {
            self.bind(
                scope,
                text_of(target, text),
                target.start_byte(),
                BindingKind::Other,
            );
            return;
        }
        if matches!(
            target.kind(),
            "pattern_list" | "tuple_pattern" | "list_pattern" | "tuple" | "list" | "list_splat_pattern"
        ) {
            for child in children(target) {
                self.bind_targets(child, scope, text);
            }
        }
    }

    fn bind_parameters(&mut self, params: Node<'t>, scope: usize, text: &str) {
        for param in children(params) {
            let name = match param.kind() {
                "identifier" => Some(param),
                _ => param
                    .child_by_field_name("name")
                    .or_else(|| children(param).find(|c| c.kind() == "identifier")),
            };
            let kind = match param.child_by_field_name("type") {
                Some(annotation) => BindingKind::Parameter { annotation },
                None => BindingKind::Other,
            };
            if let Some(name) = name.filter(|n| n.kind() == "identifier") {
                self.bind(scope, text_of(name, text), name.start_byte(), kind);
            }
        }
    }

    fn import(&mut self, node: Node<'t>, scope: usize, text: &str) {
        let import_from = node.kind() == "import_from_statement";
        let module = node.child_by_field_name("module_name");
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            let (path, bound) = match name.kind() {
                "aliased_import" => match (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ) {
                    (Some(path), Some(alias)) => (path, text_of(alias, text).to_string()),
                    _ => continue,
                },
                // `import google.genai` binds `google`.
                _ if !import_from => {
                    let first = text_of(name, text)
                        .split('.')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    (name, first)
                }
                _ => (name, text_of(name, text).to_string()),
            };
            let kind = BindingKind::Import { module, path };
            self.bind(scope, &bound, node.start_byte(), kind);
        }
    }
}

/// Whether an identifier is read (not a binding target, attribute name, keyword or parameter),
/// given its parent.
fn is_load(node: Node, parent: Option<Node>) -> bool {
    let Some(parent) = parent else {
        return true;
    };
    let field_is = |field: &str| parent.child_by_field_name(field) == Some(node);
    match parent.kind() {
        "attribute" => !field_is("attribute"),
        "keyword_argument" => !field_is("name"),
        "assignment" | "augmented_assignment" => !field_is("left"),
        "for_statement" | "for_in_clause" => !field_is("left"),
        "parameters"
        | "lambda_parameters"
        | "default_parameter"
        | "typed_parameter"
        | "typed_default_parameter"
        | "list_splat_pattern"
        | "dictionary_splat_pattern" => {
            parent.kind() == "default_parameter" && field_is("value")
                || parent.kind() == "typed_default_parameter" && field_is("value")
        }
        "function_definition" | "class_definition" => !field_is("name"),
        "as_pattern_target" | "pattern_list" | "tuple_pattern" | "global_statement"
        | "nonlocal_statement" => false,
        "named_expression" => !field_is("name"),
        _ => true,
    }
}
