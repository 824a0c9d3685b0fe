//! Scopes and bindings of a JavaScript or TypeScript module, walked into the shared table of
//! [`bindings`](crate::lang::bindings): `const`/`let` per block, `var` per function, imports,
//! destructuring, `for ... of` loops and `this.<field>` assignments.

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use crate::lang::bindings::{self, Bindings, ScopeKind};
pub use crate::lang::treesitter::{children, text_of};

#[derive(Clone, Copy, Debug)]
pub enum BindingKind<'t> {
    /// `const name = value` (`statement` is the declaration when it declares this name only and
    /// is not exported), or `name = value` in the scope that declares the name.
    Assign {
        value: Node<'t>,
        statement: Option<Node<'t>>,
    },
    /// `const { key } = value`, `const { key: name } = value`.
    Destructure { value: Node<'t>, key: Node<'t> },
    /// `for (const name of iter)`.
    For { iter: Node<'t> },
    /// `import { name } from "source"`; `name` is `None` for a namespace or default import.
    Import {
        source: Node<'t>,
        name: Option<Node<'t>>,
    },
    /// `let name;`: declared, holding nothing yet.
    Declared,
    /// Parameters, array patterns, function and class names, assignments from another scope:
    /// not followed.
    Other,
}

impl bindings::BindingKind for BindingKind<'_> {
    fn is_opaque(&self) -> bool {
        matches!(self, BindingKind::Other)
    }
}

pub type Resolution<'t> = bindings::Resolution<BindingKind<'t>>;

/// Everything the walk learned.
pub struct Scopes<'t> {
    pub names: Bindings<BindingKind<'t>>,
    /// `this.<name> = value` and class fields `name = value`, by name.
    pub this_attrs: HashMap<String, Vec<Node<'t>>>,
    /// Calls and `new` expressions, member expressions, with their scope, in source order.
    pub calls: Vec<(Node<'t>, usize)>,
    pub members: Vec<(Node<'t>, usize)>,
    /// `import` statements and `export ... from` statements.
    pub imports: Vec<Node<'t>>,
    pub comments: Vec<Range<usize>>,
    /// Where each name is read, with the scope of the read: to follow a value to its uses.
    pub loads: HashMap<String, Vec<(Node<'t>, usize)>>,
}

const FUNCTIONS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
];

/// An assignment `name = value` seen during the walk, bound once every declaration is known.
struct Assignment<'t> {
    scope: usize,
    name: String,
    start: usize,
    value: Option<Node<'t>>,
}

impl<'t> Scopes<'t> {
    pub fn build(root: Node<'t>, text: &str) -> Self {
        let mut s = Scopes {
            names: Bindings::new(),
            this_attrs: HashMap::new(),
            calls: Vec::new(),
            members: Vec::new(),
            imports: Vec::new(),
            comments: Vec::new(),
            loads: HashMap::new(),
        };
        let mut assignments: Vec<Assignment<'t>> = Vec::new();
        // An explicit stack: deeply nested code must not overflow the thread's stack.
        let mut stack: Vec<(Node<'t>, usize)> = vec![(root, 0)];
        while let Some((node, scope)) = stack.pop() {
            let kind = node.kind();
            let mut push: Vec<(Node<'t>, usize)> = Vec::new();
            match kind {
                "comment" => {
                    s.comments.push(node.byte_range());
                    continue;
                }
                _ if FUNCTIONS.contains(&kind) => {
                    let name = node.child_by_field_name("name");
                    if let Some(name) = name.filter(|n| n.kind() == "identifier")
                        && kind.ends_with("declaration")
                    {
                        s.names
                            .bind(scope, text_of(name, text), name.start_byte(), BindingKind::Other);
                    }
                    let inner = s.names.push_scope(scope, ScopeKind::Function);
                    let params = node
                        .child_by_field_name("parameters")
                        .or_else(|| node.child_by_field_name("parameter"));
                    if let Some(params) = params {
                        s.bind_pattern(params, inner, text);
                    }
                    for child in children(node) {
                        if Some(child) == params || Some(child) == name {
                            continue;
                        }
                        if child.kind() == "statement_block" {
                            push.extend(children(child).map(|c| (c, inner)));
                        } else {
                            push.push((child, inner));
                        }
                    }
                }
                "class_declaration" | "abstract_class_declaration" | "class" => {
                    let name = node.child_by_field_name("name");
                    if let Some(name) = name
                        && kind != "class"
                    {
                        s.names
                            .bind(scope, text_of(name, text), name.start_byte(), BindingKind::Other);
                    }
                    push.extend(children(node).filter(|c| Some(*c) != name).map(|c| (c, scope)));
                }
                "field_definition" | "public_field_definition" => {
                    let name = node
                        .child_by_field_name("property")
                        .or_else(|| node.child_by_field_name("name"));
                    if let (Some(name), Some(value)) = (name, node.child_by_field_name("value")) {
                        s.this_attrs
                            .entry(text_of(name, text).to_string())
                            .or_default()
                            .push(value);
                        push.push((value, scope));
                    }
                }
                "statement_block" | "for_statement" | "for_in_statement" | "catch_clause" | "switch_body"
                | "class_static_block" => {
                    let inner = s.names.push_scope(scope, ScopeKind::Block);
                    if kind == "for_in_statement" {
                        s.for_in(node, inner, text, &mut push);
                    } else if kind == "catch_clause" {
                        let parameter = node.child_by_field_name("parameter");
                        if let Some(p) = parameter {
                            s.bind_pattern(p, inner, text);
                        }
                        push.extend(
                            children(node)
                                .filter(|c| Some(*c) != parameter)
                                .map(|c| (c, inner)),
                        );
                    } else {
                        push.extend(children(node).map(|c| (c, inner)));
                    }
                }
                "lexical_declaration" | "variable_declaration" => {
                    let target = if kind == "variable_declaration" {
                        s.function_scope(scope)
                    } else {
                        scope
                    };
                    s.declaration(node, target, text, &mut push, scope);
                }
                "assignment_expression" | "augmented_assignment_expression" => {
                    let left = node.child_by_field_name("left");
                    let right = node.child_by_field_name("right");
                    match left {
                        Some(l) if l.kind() == "identifier" => assignments.push(Assignment {
                            scope,
                            name: text_of(l, text).to_string(),
                            start: node.start_byte(),
                            value: right.filter(|_| kind == "assignment_expression"),
                        }),
                        Some(l) if l.kind() == "member_expression" => {
                            let object = l.child_by_field_name("object");
                            if object.is_some_and(|o| o.kind() == "this")
                                && let (Some(property), Some(value)) =
                                    (l.child_by_field_name("property"), right)
                            {
                                s.this_attrs
                                    .entry(text_of(property, text).to_string())
                                    .or_default()
                                    .push(value);
                            }
                            push.push((l, scope));
                        }
                        Some(l) => push.push((l, scope)),
                        None => {}
                    }
                    if let Some(r) = right {
                        push.push((r, scope));
                    }
                }
                "update_expression" => {
                    if let Some(arg) = node
                        .child_by_field_name("argument")
                        .filter(|a| a.kind() == "identifier")
                    {
                        assignments.push(Assignment {
                            scope,
                            name: text_of(arg, text).to_string(),
                            start: node.start_byte(),
                            value: None,
                        });
                    }
                }
                "import_statement" => {
                    s.import(node, scope, text);
                    s.imports.push(node);
                    continue;
                }
                "export_statement" => {
                    if node.child_by_field_name("source").is_some() {
                        s.imports.push(node);
                        continue;
                    }
                    push.extend(children(node).map(|c| (c, scope)));
                }
                "call_expression" | "new_expression" => {
                    s.calls.push((node, scope));
                    push.extend(children(node).map(|c| (c, scope)));
                }
                "member_expression" => {
                    s.members.push((node, scope));
                    push.extend(children(node).map(|c| (c, scope)));
                }
                "identifier" | "shorthand_property_identifier" => {
                    let name = text_of(node, text);
                    s.names.add_use(scope, name);
                    s.loads.entry(name.to_string()).or_default().push((node, scope));
                    continue;
                }
                _ => push.extend(children(node).map(|c| (c, scope))),
            }
            stack.extend(push.into_iter().rev());
        }
        // An assignment rebinds the name in the scope that declares it; from another function
        // or block it runs conditionally or later, so the name is not followed any more.
        for a in assignments {
            let declared = s.names.declaring_scope(&a.name, a.scope).unwrap_or(0);
            let kind = match a.value {
                Some(value) if declared == a.scope => BindingKind::Assign {
                    value,
                    statement: None,
                },
                _ => BindingKind::Other,
            };
            s.names.bind(declared, &a.name, a.start, kind);
        }
        s.calls.sort_by_key(|(n, _)| n.start_byte());
        s.members.sort_by_key(|(n, _)| n.start_byte());
        s.names.sort();
        s
    }

    /// The nearest function (or the module) around `scope`: where `var` declares.
    fn function_scope(&self, mut scope: usize) -> usize {
        while self.names.scopes[scope].kind == ScopeKind::Block {
            match self.names.scopes[scope].parent {
                Some(p) => scope = p,
                None => break,
            }
        }
        scope
    }

    fn declaration(
        &mut self,
        node: Node<'t>,
        target: usize,
        text: &str,
        push: &mut Vec<(Node<'t>, usize)>,
        scope: usize,
    ) {
        let declarators: Vec<Node<'t>> = children(node)
            .filter(|c| c.kind() == "variable_declarator")
            .collect();
        let exported = node.parent().is_some_and(|p| p.kind() == "export_statement");
        let statement = (declarators.len() == 1 && !exported).then_some(node);
        for declarator in declarators {
            let (Some(name), value) = (
                declarator.child_by_field_name("name"),
                declarator.child_by_field_name("value"),
            ) else {
                continue;
            };
            match (name.kind(), value) {
                ("identifier", Some(value)) => {
                    self.names.bind(
                        target,
                        text_of(name, text),
                        name.start_byte(),
                        BindingKind::Assign { value, statement },
                    );
                }
                ("identifier", None) => {
                    self.names.bind(
                        target,
                        text_of(name, text),
                        name.start_byte(),
                        BindingKind::Declared,
                    );
                }
                ("object_pattern", Some(value)) => self.destructure(name, value, target, text),
                _ => self.bind_pattern(name, target, text),
            }
            if let Some(value) = value {
                push.push((value, scope));
            }
        }
    }

    /// `{ key, key: name, ...rest } = value`: each plain key is followed; the rest is not.
    fn destructure(&mut self, pattern: Node<'t>, value: Node<'t>, target: usize, text: &str) {
        for property in children(pattern) {
            match property.kind() {
                "shorthand_property_identifier_pattern" => self.names.bind(
                    target,
                    text_of(property, text),
                    property.start_byte(),
                    BindingKind::Destructure { value, key: property },
                ),
                "pair_pattern" => {
                    let (Some(key), Some(name)) = (
                        property.child_by_field_name("key"),
                        property.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    if name.kind() == "identifier" && key.kind() == "property_identifier" {
                        self.names.bind(
                            target,
                            text_of(name, text),
                            name.start_byte(),
                            BindingKind::Destructure { value, key },
                        );
                    } else {
                        self.bind_pattern(name, target, text);
                    }
                }
                _ => self.bind_pattern(property, target, text),
            }
        }
    }

    fn for_in(&mut self, node: Node<'t>, inner: usize, text: &str, push: &mut Vec<(Node<'t>, usize)>) {
        let left = node.child_by_field_name("left");
        let right = node.child_by_field_name("right");
        let of = node
            .child_by_field_name("operator")
            .is_some_and(|o| text_of(o, text) == "of");
        if let Some(left) = left {
            match (left.kind(), right) {
                ("identifier", Some(iter)) if of => {
                    self.names.bind(
                        inner,
                        text_of(left, text),
                        left.start_byte(),
                        BindingKind::For { iter },
                    );
                }
                _ => self.bind_pattern(left, inner, text),
            }
        }
        push.extend(children(node).filter(|c| Some(*c) != left).map(|c| (c, inner)));
    }

    /// Every name a pattern (parameters, array or object pattern) binds, as not followed.
    fn bind_pattern(&mut self, pattern: Node<'t>, scope: usize, text: &str) {
        let mut stack = vec![pattern];
        while let Some(node) = stack.pop() {
            match node.kind() {
                "identifier" | "shorthand_property_identifier_pattern" => {
                    self.names
                        .bind(scope, text_of(node, text), node.start_byte(), BindingKind::Other);
                }
                // Types and default values bind nothing.
                "type_annotation" | "type_parameters" => {}
                "assignment_pattern" | "object_assignment_pattern" => {
                    if let Some(left) = node.child_by_field_name("left") {
                        stack.push(left);
                    }
                }
                "pair_pattern" => {
                    if let Some(value) = node.child_by_field_name("value") {
                        stack.push(value);
                    }
                }
                _ => stack.extend(children(node)),
            }
        }
    }

    fn import(&mut self, node: Node<'t>, scope: usize, text: &str) {
        let Some(source) = node.child_by_field_name("source") else {
            return;
        };
        let Some(clause) = children(node).find(|c| c.kind() == "import_clause") else {
            return;
        };
        for part in children(clause) {
            match part.kind() {
                // `import genai from "..."`, `import * as genai from "..."`.
                "identifier" => self.bind_import(scope, part, source, None, text),
                "namespace_import" => {
                    if let Some(alias) = children(part).find(|c| c.kind() == "identifier") {
                        self.bind_import(scope, alias, source, None, text);
                    }
                }
                "named_imports" => {
                    for specifier in children(part).filter(|c| c.kind() == "import_specifier") {
                        let name = specifier.child_by_field_name("name");
                        let local = specifier.child_by_field_name("alias").or(name);
                        if let (Some(name), Some(local)) = (name, local) {
                            self.bind_import(scope, local, source, Some(name), text);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn bind_import(
        &mut self,
        scope: usize,
        local: Node<'t>,
        source: Node<'t>,
        name: Option<Node<'t>>,
        text: &str,
    ) {
        self.names.bind(
            scope,
            text_of(local, text),
            local.start_byte(),
            BindingKind::Import { source, name },
        );
    }
}
