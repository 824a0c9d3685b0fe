//! Scopes and bindings of a lowered module, in the shared table of
//! [`bindings`](crate::lang::bindings): what each name is bound to, where it is read, and the
//! calls, member reads and imports the analysis looks at, each with its scope.
//!
//! The languages differ in where a binding lives: a Python name belongs to its function (or
//! class body, or module); a JavaScript `const`/`let` to its block and a `var` to its function.

use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;

use super::Language;
use super::language::Scoping;
use crate::lang::bindings::{self, Bindings, ScopeKind};
use crate::lang::ir::{DeclKind, Key, Kind, NodeId, Tree};

#[derive(Clone, Copy, Debug)]
pub enum BindingKind {
    /// `name = value`; `statement` is what deleting the binding deletes: the whole assignment
    /// statement (Python), or the declaration when it declares this name only and is not
    /// exported (JavaScript; `None` for an assignment to a declared name).
    Assign {
        value: NodeId,
        statement: Option<NodeId>,
    },
    /// `const { key } = value`, `const { key: name } = value`.
    Destructure { value: NodeId, key: NodeId, entry: u32 },
    /// `for name in iter` / `for (const name of iter)`.
    For { iter: NodeId },
    /// Name `index` of the import statement `statement`.
    Import { statement: NodeId, index: u32 },
    /// A Python parameter with a type annotation.
    Parameter { annotation: NodeId },
    /// `let name;`: declared, holding nothing yet.
    Declared,
    /// Parameters, tuple targets, `global`, augmented assignments, function and class names:
    /// not followed.
    Other,
}

impl bindings::BindingKind for BindingKind {
    fn is_opaque(&self) -> bool {
        matches!(self, BindingKind::Other)
    }
}

pub type Resolution = bindings::Resolution<BindingKind>;

/// Everything the walk learned.
pub struct Scopes {
    pub names: Bindings<BindingKind>,
    /// `self.<name> = value` (Python), `this.<name> = value` and class fields (JavaScript).
    pub self_attrs: HashMap<String, Vec<NodeId>>,
    /// Calls (and `new` expressions) and member reads, with their scope, in source order.
    pub calls: Vec<(NodeId, usize)>,
    pub members: Vec<(NodeId, usize)>,
    pub imports: Vec<NodeId>,
    pub comments: Vec<Range<usize>>,
    /// Where each name is read, with the scope of the read.
    pub loads: HashMap<String, Vec<(NodeId, usize)>>,
    /// Python function definitions and the scope of their body, by where their name starts.
    pub functions: HashMap<usize, (NodeId, usize)>,
}

/// An assignment `name = value` seen during the walk, bound once every declaration is known
/// (JavaScript).
struct Assignment {
    scope: usize,
    name: String,
    start: usize,
    value: Option<NodeId>,
}

struct Walk<'a> {
    tree: &'a Tree,
    text: &'a str,
    lang: &'a dyn Language,
    s: Scopes,
    assignments: Vec<Assignment>,
    stack: Vec<(NodeId, usize)>,
}

impl Scopes {
    /// Every read of `name` in the document, with its scope.
    pub fn loads_of(&self, name: &str) -> &[(NodeId, usize)] {
        self.loads.get(name).map_or(&[], Vec::as_slice)
    }

    pub(crate) fn build(tree: &Tree, text: &str, lang: &dyn Language) -> Scopes {
        let comments = lang.comments(tree, text);
        let mut w = Walk {
            tree,
            text,
            lang,
            s: Scopes {
                names: Bindings::new(),
                self_attrs: HashMap::default(),
                calls: Vec::new(),
                members: Vec::new(),
                imports: Vec::new(),
                comments,
                loads: HashMap::default(),
                functions: HashMap::default(),
            },
            assignments: Vec::new(),
            stack: vec![(tree.root(), 0)],
        };
        // An explicit stack: deeply nested code must not overflow the thread's stack.
        while let Some((node, scope)) = w.stack.pop() {
            let mut push = Vec::new();
            w.visit(node, scope, &mut push);
            w.stack.extend(push.into_iter().rev());
        }
        let mut s = w.s;
        // An assignment rebinds the name in the scope that declares it; from another function
        // or block it runs conditionally or later, so the name is not followed any more.
        for a in w.assignments {
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
        s.calls.sort_by_key(|&(n, _)| tree.span(n).start);
        s.members.sort_by_key(|&(n, _)| tree.span(n).start);
        s.names.sort();
        s
    }
}

impl Walk<'_> {
    fn start(&self, id: NodeId) -> usize {
        self.tree.span(id).start as usize
    }

    fn bind(&mut self, scope: usize, name: &str, start: usize, kind: BindingKind) {
        self.s.names.bind(scope, name, start, kind);
    }

    fn visit(&mut self, node: NodeId, scope: usize, push: &mut Vec<(NodeId, usize)>) {
        let tree = self.tree;
        // JavaScript's rules: blocks scope names, assignments rebind where the name is declared.
        let js = self.lang.scoping() == Scoping::Block;
        match tree.kind(node) {
            Kind::Name(name) => {
                if !(self.lang.reserved_names().contains(&&**name) || js && &**name == "import") {
                    self.s.names.add_use(scope, name);
                    match self.s.loads.get_mut(&**name) {
                        Some(list) => list.push((node, scope)),
                        None => {
                            self.s.loads.insert(name.to_string(), vec![(node, scope)]);
                        }
                    }
                }
            }
            Kind::Call(_) => {
                self.s.calls.push((node, scope));
                self.children(node, scope, push);
            }
            Kind::Member(_) => {
                self.s.members.push((node, scope));
                self.children(node, scope, push);
            }
            Kind::Function(f) => {
                let declaration =
                    f.kind == crate::lang::ir::FunctionKind::Def && (!js || self.in_statements(node));
                if let Some(name) = f.name.as_ref().filter(|_| declaration) {
                    self.bind(scope, &name.name, name.span.start as usize, BindingKind::Other);
                }
                let inner = self.s.names.push_scope(scope, ScopeKind::Function);
                if let Some(name) = f.name.as_ref().filter(|_| !js) {
                    self.s.functions.insert(name.span.start as usize, (node, inner));
                }
                for p in &f.params {
                    let kind = match p.annotation {
                        Some(annotation) if !js => BindingKind::Parameter { annotation },
                        _ => BindingKind::Other,
                    };
                    if let Some(name) = &p.name {
                        self.bind(inner, &name.name, name.span.start as usize, kind);
                    }
                    if let Some(pattern) = p.pattern {
                        self.bind_pattern(pattern, inner);
                    }
                }
                // Decorators run where the function is defined; parameters (with their
                // defaults and annotations) are not walked.
                push.extend(f.decorators.iter().map(|&d| (d, scope)));
                if !js {
                    push.extend(f.returns.map(|r| (r, inner)));
                }
                push.extend(f.body.iter().map(|&b| (b, inner)));
            }
            Kind::Class(c) => {
                if let Some(name) = &c.name
                    && (!js || self.in_statements(node))
                {
                    self.bind(scope, &name.name, name.span.start as usize, BindingKind::Other);
                }
                let inner = if js {
                    scope
                } else {
                    self.s.names.push_scope(scope, ScopeKind::Class)
                };
                push.extend(c.decorators.iter().map(|&d| (d, scope)));
                push.extend(c.bases.iter().map(|&b| (b, inner)));
                push.extend(c.body.iter().map(|&b| (b, inner)));
            }
            Kind::Field { name, value } => {
                if let (Some(name), Some(value)) = (name, value) {
                    self.s
                        .self_attrs
                        .entry(name.name.to_string())
                        .or_default()
                        .push(*value);
                    push.push((*value, scope));
                }
            }
            Kind::Block(body) if js => {
                let inner = self.s.names.push_scope(scope, ScopeKind::Block);
                push.extend(body.iter().map(|&b| (b, inner)));
            }
            Kind::Declaration { kind, declarators } => {
                self.declaration(node, *kind, declarators, scope, push)
            }
            Kind::Assign(a) => {
                if js {
                    // `x = value;` as a statement.
                    if let (Some(&target), Some(value)) = (a.targets.first(), a.value) {
                        self.js_assignment(node, target, Some(value), scope, push);
                        push.push((value, scope));
                    }
                    return;
                }
                let last = a.targets.len().saturating_sub(1);
                for (i, &target) in a.targets.iter().enumerate() {
                    match (tree.kind(target), a.value) {
                        // The name is bound once the value is computed: a read of it in the
                        // value (`response = f(response.text)`) sees the binding before.
                        (Kind::Name(name), Some(value)) if i == last => self.bind(
                            scope,
                            name,
                            self.tree.span(value).end as usize,
                            BindingKind::Assign {
                                value,
                                statement: Some(node),
                            },
                        ),
                        (Kind::Member(m), Some(value)) if tree.name(m.object) == Some("self") => {
                            self.s
                                .self_attrs
                                .entry(m.name.name.to_string())
                                .or_default()
                                .push(value);
                        }
                        _ => self.bind_targets(target, scope),
                    }
                    self.target(target, scope, push);
                }
                push.extend(a.annotation.map(|x| (x, scope)));
                push.extend(a.value.map(|x| (x, scope)));
            }
            Kind::AugAssign { target, value } => {
                if js {
                    self.js_assignment(node, *target, None, scope, push);
                } else if let Kind::Name(name) = tree.kind(*target) {
                    self.bind(scope, name, self.start(node), BindingKind::Other);
                } else {
                    push.push((*target, scope));
                }
                push.push((*value, scope));
            }
            Kind::AssignExpr { target, value } => {
                if js {
                    self.js_assignment(node, *target, Some(*value), scope, push);
                } else {
                    self.bind_targets(*target, scope);
                    self.target(*target, scope, push);
                }
                push.push((*value, scope));
            }
            Kind::For(f) => {
                let inner = if js {
                    self.s.names.push_scope(scope, ScopeKind::Block)
                } else {
                    scope
                };
                match tree.kind(f.target) {
                    Kind::Name(name) if !f.keys => {
                        let start = if js {
                            self.start(f.target)
                        } else {
                            self.start(node)
                        };
                        self.bind(inner, name, start, BindingKind::For { iter: f.iter });
                    }
                    _ if js => self.bind_pattern(f.target, inner),
                    _ => self.bind_targets(f.target, inner),
                }
                if !js {
                    self.target(f.target, inner, push);
                }
                push.push((f.iter, inner));
                push.extend(f.body.iter().chain(&f.orelse).map(|&b| (b, inner)));
            }
            Kind::Comprehension(c) => {
                for &e in &c.elements {
                    push.push((e, scope));
                }
                for g in &c.generators {
                    self.target(g.target, scope, push);
                    push.push((g.iter, scope));
                    push.extend(g.ifs.iter().map(|&i| (i, scope)));
                }
            }
            Kind::With(w) => {
                for item in &w.items {
                    push.push((item.context, scope));
                    if let Some(target) = item.target {
                        self.bind_targets(target, scope);
                        self.target(target, scope, push);
                    }
                }
                push.extend(w.body.iter().map(|&b| (b, scope)));
            }
            Kind::Try(t) => {
                let block = |w: &mut Self, body: &[NodeId], push: &mut Vec<(NodeId, usize)>| {
                    let inner = if js {
                        w.s.names.push_scope(scope, ScopeKind::Block)
                    } else {
                        scope
                    };
                    push.extend(body.iter().map(|&b| (b, inner)));
                };
                block(self, &t.body, push);
                for h in &t.handlers {
                    let inner = if js {
                        self.s.names.push_scope(scope, ScopeKind::Block)
                    } else {
                        scope
                    };
                    push.extend(h.types.map(|x| (x, scope)));
                    if let Some(name) = &h.name {
                        self.bind(inner, &name.name, name.span.start as usize, BindingKind::Other);
                    }
                    if let Some(pattern) = h.pattern {
                        self.bind_pattern(pattern, inner);
                    }
                    if js {
                        let body = self.s.names.push_scope(inner, ScopeKind::Block);
                        push.extend(h.body.iter().map(|&b| (b, body)));
                    } else {
                        push.extend(h.body.iter().map(|&b| (b, inner)));
                    }
                }
                block(self, &t.orelse, push);
                block(self, &t.finally, push);
            }
            Kind::Global(names) => {
                for name in names {
                    self.bind(scope, &name.name, self.start(node), BindingKind::Other);
                }
            }
            Kind::Import(import) => {
                self.s.imports.push(node);
                for (index, name) in import.names.iter().enumerate() {
                    let Some((bound, start)) = self.lang.import_binding(import, name, self.start(node))
                    else {
                        continue;
                    };
                    let kind = BindingKind::Import {
                        statement: node,
                        index: index as u32,
                    };
                    self.bind(scope, bound, start, kind);
                }
            }
            _ => self.children(node, scope, push),
        }
    }

    /// Pushes a node's children in source order (as [`Tree::children`] gives them, without a
    /// vector of its own per node).
    fn children(&self, node: NodeId, scope: usize, push: &mut Vec<(NodeId, usize)>) {
        let from = push.len();
        self.tree.each_child(node, &mut |c| push.push((c, scope)));
        let tree = self.tree;
        let pushed = &mut push[from..];
        if !pushed.is_sorted_by_key(|&(c, _)| (tree.span(c).start, c)) {
            pushed.sort_by_key(|&(c, _)| (tree.span(c).start, c));
        }
    }

    /// A JavaScript function or class standing as a statement (a declaration), not in an
    /// expression.
    fn in_statements(&self, node: NodeId) -> bool {
        match self.tree.parent(node).map(|p| self.tree.kind(p)) {
            None => true,
            Some(Kind::Module(_) | Kind::Block(_) | Kind::Function(_)) => true,
            Some(Kind::If(_) | Kind::While { .. } | Kind::For(_) | Kind::Try(_)) => true,
            // `export function f() {}`.
            Some(Kind::Other(_)) => self
                .tree
                .parent(node)
                .and_then(|p| self.text.get(self.tree.range(p)))
                .is_some_and(|t| t.starts_with("export")),
            _ => false,
        }
    }

    fn declaration(
        &mut self,
        node: NodeId,
        kind: DeclKind,
        declarators: &[NodeId],
        scope: usize,
        push: &mut Vec<(NodeId, usize)>,
    ) {
        let tree = self.tree;
        let target_scope = if kind == DeclKind::Var {
            self.function_scope(scope)
        } else {
            scope
        };
        let statement = (declarators.len() == 1 && !exported(self.tree, self.text, node)).then_some(node);
        for &declarator in declarators {
            let Kind::Assign(a) = tree.kind(declarator) else {
                continue;
            };
            let Some(&target) = a.targets.first() else {
                continue;
            };
            match (tree.kind(target), a.value) {
                (Kind::Name(name), Some(value)) => self.bind(
                    target_scope,
                    name,
                    self.start(target),
                    BindingKind::Assign { value, statement },
                ),
                (Kind::Name(name), None) => {
                    self.bind(target_scope, name, self.start(target), BindingKind::Declared)
                }
                (Kind::Dict(d), Some(value)) => {
                    for (i, entry) in d.items.iter().enumerate() {
                        match (&entry.key, tree.kind(entry.value)) {
                            (Key::Name(_), Kind::Name(name)) => self.bind(
                                target_scope,
                                name,
                                self.start(entry.value),
                                BindingKind::Destructure {
                                    value,
                                    key: target,
                                    entry: i as u32,
                                },
                            ),
                            _ => self.bind_pattern(entry.value, target_scope),
                        }
                    }
                }
                _ => self.bind_pattern(target, target_scope),
            }
            push.extend(a.value.map(|v| (v, scope)));
        }
    }

    /// The nearest function (or the module) around `scope`: where `var` declares.
    fn function_scope(&self, mut scope: usize) -> usize {
        while self.s.names.scopes[scope].kind == ScopeKind::Block {
            match self.s.names.scopes[scope].parent {
                Some(p) => scope = p,
                None => break,
            }
        }
        scope
    }

    /// A JavaScript assignment: a name is bound once every declaration is known; `this.x =
    /// value` is remembered; other targets are read like expressions.
    fn js_assignment(
        &mut self,
        node: NodeId,
        target: NodeId,
        value: Option<NodeId>,
        scope: usize,
        push: &mut Vec<(NodeId, usize)>,
    ) {
        let tree = self.tree;
        match tree.kind(target) {
            Kind::Name(name) => self.assignments.push(Assignment {
                scope,
                name: name.to_string(),
                start: self.start(node),
                value,
            }),
            Kind::Member(m) => {
                if tree.name(m.object) == Some("this")
                    && let Some(value) = value
                {
                    self.s
                        .self_attrs
                        .entry(m.name.name.to_string())
                        .or_default()
                        .push(value);
                }
                push.push((target, scope));
            }
            _ => push.push((target, scope)),
        }
    }

    /// Walks an assignment target: the names it binds are not reads; what else it holds (the
    /// object of `self.x`, an index) is.
    fn target(&mut self, target: NodeId, scope: usize, push: &mut Vec<(NodeId, usize)>) {
        let tree = self.tree;
        match tree.kind(target) {
            Kind::Name(_) => {}
            Kind::Tuple(items) | Kind::List(items) => {
                for &i in &items.items {
                    self.target(i, scope, push);
                }
            }
            Kind::Spread { value, .. } | Kind::Paren(value) => self.target(*value, scope, push),
            _ => push.push((target, scope)),
        }
    }

    /// Every name of a Python target pattern, bound to something not followed.
    fn bind_targets(&mut self, target: NodeId, scope: usize) {
        let tree = self.tree;
        match tree.kind(target) {
            Kind::Name(name) => self.bind(scope, name, self.start(target), BindingKind::Other),
            Kind::Tuple(items) | Kind::List(items) => {
                for &i in &items.items {
                    self.bind_targets(i, scope);
                }
            }
            Kind::Spread { value, .. } | Kind::Paren(value) => self.bind_targets(*value, scope),
            _ => {}
        }
    }

    /// Every name a JavaScript pattern binds, as not followed.
    fn bind_pattern(&mut self, pattern: NodeId, scope: usize) {
        let tree = self.tree;
        let mut stack = vec![pattern];
        while let Some(node) = stack.pop() {
            match tree.kind(node) {
                Kind::Name(name) => self.bind(scope, name, self.start(node), BindingKind::Other),
                Kind::AssignExpr { target, .. } => stack.push(*target),
                Kind::Dict(d) => stack.extend(d.items.iter().map(|e| e.value)),
                Kind::List(l) => stack.extend(l.items.iter().copied()),
                Kind::Spread { value, .. } => stack.push(*value),
                _ => {}
            }
        }
    }
}

/// Whether a JavaScript declaration is exported (`export const x = ...`).
pub fn exported(tree: &Tree, text: &str, declaration: NodeId) -> bool {
    tree.parent(declaration)
        .filter(|&p| matches!(tree.kind(p), Kind::Other(_)))
        .and_then(|p| text.get(tree.range(p)))
        .is_some_and(|t| t.starts_with("export"))
}
