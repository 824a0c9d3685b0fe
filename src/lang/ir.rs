//! The shared form: what Python and JavaScript/TypeScript code is lowered into, so that every
//! analysis (which call is a request, where a value flows, which reads of a result there are,
//! what a tool server registers) is written once.
//!
//! A [`Tree`] is an arena of [`Node`]s in source order, each with its exact byte range in the
//! document and its parent. The kinds are the constructs the analyses read — calls with their
//! arguments, member and index reads, names, literals (dicts and objects with each entry's
//! range, for removal runs), functions, classes, imports, assignments, loops, `with` and `try`
//! blocks, returns — and [`Kind::Other`] for everything else, which only holds its children so
//! that a walk still reaches what is inside (a call in a conditional expression, say).
//!
//! Lowering keeps the ranges as the language writes them: a parenthesized expression is a
//! [`Kind::Paren`] node (both languages), a type assertion a [`Kind::Cast`]. Keys and property
//! names are stored in their nodes, not as [`Kind::Name`] nodes: every `Name` is a name read or
//! bound, and which one follows from where it sits (an assignment's target, a parameter, ...).

use std::ops::Range;

/// The index of a node in its [`Tree`].
pub type NodeId = u32;

/// A byte range of the document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Between a bracketed literal's brackets (the span without its first and last byte).
    pub fn inner(self) -> Span {
        let start = (self.start + 1).min(self.end);
        Span {
            start,
            end: self.end.saturating_sub(1).max(start),
        }
    }
}

/// A name as written, with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: Box<str>,
    pub span: Span,
}

/// One lowered document.
#[derive(Debug, Default)]
pub struct Tree {
    /// Every node; the root (a [`Kind::Module`]) is node 0.
    pub nodes: Vec<Node>,
    /// Every comment's range, in order.
    pub comments: Vec<Span>,
    /// The syntax errors the parser reported.
    pub errors: usize,
    /// Every string literal's range, outermost ones only (an f-string or a template literal
    /// whole), and JSX text: where text for people and ids may be written.
    pub strings: Vec<Span>,
    /// JSX elements (`false`) and the expression containers in them (`true`), where a comment
    /// is text or code.
    pub jsx: Vec<(Span, bool)>,
    /// Every identifier token (Python): the names a notebook cell mentions.
    pub identifiers: Vec<Span>,
}

#[derive(Debug)]
pub struct Node {
    pub kind: Kind,
    pub span: Span,
    /// The enclosing node; the root is its own parent.
    pub parent: NodeId,
}

#[derive(Debug)]
pub enum Kind {
    Module(Vec<NodeId>),

    // ----- expressions -----
    Name(Box<str>),
    /// A string literal: its value when it has no interpolation (an f-string or a template
    /// literal with `${}` has its parts as children of a [`Kind::Template`] instead).
    Str(Box<str>),
    /// An f-string or a template literal with interpolations; the interpolated expressions.
    Template(Vec<NodeId>),
    /// An integer literal, when it fits.
    Int(Option<i64>),
    /// Any other number.
    Number,
    Bool(bool),
    /// `None`, `null`, `undefined`.
    Null,
    Call(Box<Call>),
    /// `object.name` (`object?.name`).
    Member(Box<Member>),
    /// `object[index]`.
    Index {
        object: NodeId,
        index: NodeId,
    },
    /// A dict or object literal (or an object pattern, as a target).
    Dict(Box<Container<Entry>>),
    /// A list or array literal (or an array pattern, as a target).
    List(Box<Container<NodeId>>),
    /// A Python tuple (parenthesized or not: its span says).
    Tuple(Box<Container<NodeId>>),
    Await(NodeId),
    /// `( expr )`.
    Paren(NodeId),
    /// A type assertion around an expression: `x as T`, `x satisfies T`, `x!`, `<T>x`.
    Cast(NodeId),
    /// `-operand` (other unary operators are [`Kind::Other`]).
    Negative(NodeId),
    /// `*x` / `**x` (Python, `double` for `**`) and `...x` (JavaScript), where they stand.
    Spread {
        value: NodeId,
        double: bool,
    },
    /// A function definition, lambda, arrow function, function expression or method.
    Function(Box<Function>),
    Class(Box<Class>),
    /// `target := value` (Python) and `target = value` used as an expression (JavaScript).
    AssignExpr {
        target: NodeId,
        value: NodeId,
    },
    /// A conditional expression `a if c else b` / `c ? a : b`: test, then, else.
    Conditional {
        test: NodeId,
        then: NodeId,
        otherwise: NodeId,
    },
    /// `a or b`, `a ?? b`, `a || b` and kin.
    Logical(Vec<NodeId>),
    /// A Python set literal.
    Set(Box<Container<NodeId>>),
    /// A binary operation; `plus` for `+`.
    Binary {
        plus: bool,
        left: NodeId,
        right: NodeId,
    },
    /// A Python comprehension (list, set, dict or generator): its element (a dict
    /// comprehension's key and value) and its `for` clauses.
    Comprehension(Box<Comprehension>),
    /// A class field of JavaScript/TypeScript: `name = value;`.
    Field {
        name: Option<Ident>,
        value: Option<NodeId>,
    },
    /// Anything else: its children, in order.
    Other(Vec<NodeId>),

    // ----- statements -----
    /// `targets = value`, `target: T = value`, a JavaScript declarator (`const a = value`,
    /// inside a [`Kind::Declaration`]) or a JavaScript assignment statement.
    Assign(Box<Assign>),
    /// `target op= value`.
    AugAssign {
        target: NodeId,
        value: NodeId,
    },
    /// `const`/`let`/`var` with its declarators ([`Kind::Assign`] nodes).
    Declaration {
        kind: DeclKind,
        declarators: Vec<NodeId>,
    },
    /// An expression standing as a statement.
    Expr(NodeId),
    Return(Option<NodeId>),
    /// `raise value from cause` / `throw value`.
    Raise {
        value: Option<NodeId>,
        cause: Option<NodeId>,
    },
    If(Box<If>),
    While {
        test: NodeId,
        body: Vec<NodeId>,
        orelse: Vec<NodeId>,
    },
    For(Box<For>),
    With(Box<With>),
    Try(Box<Try>),
    Import(Box<Import>),
    /// `global` / `nonlocal` names (Python).
    Global(Vec<Ident>),
    /// A block of statements (`{ ... }` in JavaScript, an `else:` suite).
    Block(Vec<NodeId>),
}

#[derive(Debug)]
pub struct Comprehension {
    pub elements: Vec<NodeId>,
    pub generators: Vec<Generator>,
    /// `[...]` or `(...)`: the results make a list or a generator (not a set or a dict).
    pub sequence: bool,
}

/// One `for target in iter if ...` clause of a comprehension.
#[derive(Debug)]
pub struct Generator {
    pub target: NodeId,
    pub iter: NodeId,
    pub ifs: Vec<NodeId>,
}

#[derive(Debug)]
pub struct Call {
    pub callee: NodeId,
    pub args: Vec<Arg>,
    /// From the opening to the closing parenthesis, both included; empty (at the callee's end)
    /// for `new X` without them.
    pub parens: Span,
    /// `new Callee(...)`.
    pub new: bool,
    /// `callee?.(...)`.
    pub optional: bool,
    /// Python's `f(x for x in xs)`: the only argument is a generator without parentheses of its
    /// own (nothing can be added after it).
    pub bare_generator: bool,
}

impl Call {
    /// The value of the keyword argument `name` (Python).
    pub fn keyword(&self, name: &str) -> Option<NodeId> {
        self.args.iter().find_map(|a| match &a.kind {
            ArgKind::Keyword(k) if &*k.name == name => Some(a.value),
            _ => None,
        })
    }
}

#[derive(Debug)]
pub struct Arg {
    pub kind: ArgKind,
    /// The whole argument (`name=value`, `*args`, a positional value with its parentheses).
    pub span: Span,
    pub value: NodeId,
}

#[derive(Debug, PartialEq, Eq)]
pub enum ArgKind {
    Positional,
    /// `name=value` (Python).
    Keyword(Ident),
    /// `*args` / `...args`.
    Spread,
    /// `**kwargs`.
    KeywordSpread,
}

#[derive(Debug)]
pub struct Member {
    pub object: NodeId,
    pub name: Ident,
    /// `object?.name`.
    pub optional: bool,
}

/// The elements of a bracketed literal.
#[derive(Debug)]
pub struct Container<T> {
    pub items: Vec<T>,
    /// Everything between the brackets.
    pub inner: Span,
}

/// An entry of a dict or object literal.
#[derive(Debug)]
pub struct Entry {
    pub key: Key,
    /// The whole entry (`"key": value`, `key: value`, `key`, `...spread`).
    pub span: Span,
    /// The value (for a shorthand property, the name it reads; for a spread, what is spread).
    pub value: NodeId,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Key {
    /// An identifier key (`{ model: ... }`) or a shorthand property (`{ model }`).
    Name(Ident),
    /// A string literal key; `span` is the literal with its quotes.
    Str(Ident),
    /// `{ [expr]: value }`, a number key, or a Python key that is not a string literal.
    Computed(NodeId),
    /// `**x` / `...x`.
    Spread,
    /// A method or accessor of an object literal (its value is the function).
    Method(Ident),
}

impl Key {
    /// The key's text when it is a name or a string.
    pub fn text(&self) -> Option<&str> {
        match self {
            Key::Name(i) | Key::Str(i) | Key::Method(i) => Some(&i.name),
            _ => None,
        }
    }
}

#[derive(Debug)]
pub struct Function {
    pub name: Option<Ident>,
    pub params: Vec<Param>,
    /// The statements of the body; for a lambda or an arrow function with an expression body,
    /// that expression alone (and `expression` is set).
    pub body: Vec<NodeId>,
    pub expression: bool,
    pub is_async: bool,
    pub decorators: Vec<NodeId>,
    /// The return annotation.
    pub returns: Option<NodeId>,
    /// Where the parameters are written, with their parentheses when they have them.
    pub params_span: Span,
    pub kind: FunctionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// `def` / `function` (declaration or expression).
    Def,
    /// `lambda` / an arrow function.
    Lambda,
    /// A method of a class or an object literal.
    Method,
}

#[derive(Debug)]
pub struct Param {
    /// The parameter's name when it is a plain name.
    pub name: Option<Ident>,
    /// The pattern when it is a destructuring one (JavaScript).
    pub pattern: Option<NodeId>,
    pub annotation: Option<NodeId>,
    pub default: Option<NodeId>,
    pub kind: ParamKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Plain,
    /// `*args` / `...rest`.
    Rest,
    /// `**kwargs`.
    KeywordRest,
}

#[derive(Debug)]
pub struct Class {
    pub name: Option<Ident>,
    pub bases: Vec<NodeId>,
    pub body: Vec<NodeId>,
    pub decorators: Vec<NodeId>,
}

#[derive(Debug)]
pub struct Assign {
    pub targets: Vec<NodeId>,
    pub value: Option<NodeId>,
    pub annotation: Option<NodeId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Const,
    Let,
    Var,
    Using,
}

#[derive(Debug)]
pub struct If {
    pub test: NodeId,
    pub body: Vec<NodeId>,
    /// `elif`/`else if` arrive as a nested [`Kind::If`] alone in `orelse`.
    pub orelse: Vec<NodeId>,
}

#[derive(Debug)]
pub struct For {
    /// What each item is bound to (a name or a pattern), or the expression assigned.
    pub target: NodeId,
    pub iter: NodeId,
    pub body: Vec<NodeId>,
    pub orelse: Vec<NodeId>,
    pub is_async: bool,
    /// `for (k in object)`: the keys, not the items.
    pub keys: bool,
    /// The target is declared by the loop (`for (const x of xs)`), and how.
    pub decl: Option<DeclKind>,
}

#[derive(Debug)]
pub struct With {
    pub items: Vec<WithItem>,
    pub body: Vec<NodeId>,
    pub is_async: bool,
}

#[derive(Debug)]
pub struct WithItem {
    pub context: NodeId,
    pub target: Option<NodeId>,
}

#[derive(Debug)]
pub struct Try {
    pub body: Vec<NodeId>,
    pub handlers: Vec<Handler>,
    pub orelse: Vec<NodeId>,
    pub finally: Vec<NodeId>,
}

/// An `except` / `catch` clause.
#[derive(Debug)]
pub struct Handler {
    pub span: Span,
    /// The exception type(s) caught (Python).
    pub types: Option<NodeId>,
    /// The name the exception is bound to (or a pattern, in JavaScript: then in `pattern`).
    pub name: Option<Ident>,
    pub pattern: Option<NodeId>,
    pub body: Vec<NodeId>,
}

#[derive(Debug)]
pub struct Import {
    /// `from module import ...` / `import ... from "module"`: the module as written (without
    /// quotes) and its span (the string literal with its quotes, in JavaScript). `None` for
    /// Python's `import a.b`.
    pub module: Option<Ident>,
    /// Python's relative-import dots.
    pub level: u32,
    pub names: Vec<ImportName>,
    /// `import type ...`.
    pub type_only: bool,
}

#[derive(Debug)]
pub struct ImportName {
    /// The imported name: a dotted path (`google.genai`), a name, `*` for everything (a
    /// namespace import in JavaScript), `default` for a default import.
    pub name: Ident,
    pub alias: Option<Ident>,
    /// The name with its alias.
    pub span: Span,
}

impl ImportName {
    /// The name the import binds: its alias, else the name (for Python's `import a.b`, the
    /// first segment `a`).
    pub fn bound(&self) -> &str {
        match &self.alias {
            Some(alias) => &alias.name,
            None => &self.name.name,
        }
    }
}

impl Tree {
    pub fn root(&self) -> NodeId {
        0
    }

    pub fn kind(&self, id: NodeId) -> &Kind {
        &self.nodes[id as usize].kind
    }

    pub fn span(&self, id: NodeId) -> Span {
        self.nodes[id as usize].span
    }

    pub fn range(&self, id: NodeId) -> Range<usize> {
        self.nodes[id as usize].span.range()
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let parent = self.nodes[id as usize].parent;
        (parent != id).then_some(parent)
    }

    /// The expression inside parentheses, type assertions and `await`.
    pub fn unwrap(&self, mut id: NodeId) -> NodeId {
        for _ in 0..64 {
            match self.kind(id) {
                Kind::Paren(inner) | Kind::Cast(inner) | Kind::Await(inner) => id = *inner,
                _ => break,
            }
        }
        id
    }

    /// The name of a [`Kind::Name`] node.
    pub fn name(&self, id: NodeId) -> Option<&str> {
        match self.kind(id) {
            Kind::Name(name) => Some(name),
            _ => None,
        }
    }

    /// A dotted path of names and members (`client.models.generate_content`), when the node is
    /// one (parentheses and type assertions looked through).
    pub fn dotted(&self, id: NodeId) -> Option<String> {
        match self.kind(id) {
            Kind::Name(name) => Some(name.to_string()),
            Kind::Member(m) => {
                let mut path = self.dotted(m.object)?;
                path.push('.');
                path.push_str(&m.name.name);
                Some(path)
            }
            Kind::Paren(inner) | Kind::Cast(inner) => self.dotted(*inner),
            _ => None,
        }
    }

    /// The direct children of a node, in source order.
    pub fn children(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        self.each_child(id, &mut |c| out.push(c));
        if !out.is_sorted_by_key(|&c| (self.span(c).start, c)) {
            out.sort_by_key(|&c| (self.span(c).start, c));
        }
        out
    }

    /// Calls `f` with each direct child of a node (not always in source order).
    pub fn each_child(&self, id: NodeId, f: &mut dyn FnMut(NodeId)) {
        let all = |ids: &[NodeId], f: &mut dyn FnMut(NodeId)| ids.iter().for_each(|&i| f(i));
        match self.kind(id) {
            Kind::Module(body) | Kind::Template(body) | Kind::Logical(body) | Kind::Other(body) => {
                all(body, f)
            }
            Kind::Block(body) => all(body, f),
            Kind::Name(_) | Kind::Str(_) | Kind::Int(_) | Kind::Number | Kind::Bool(_) | Kind::Null => {}
            Kind::Global(_) => {}
            Kind::Call(call) => {
                f(call.callee);
                call.args.iter().for_each(|a| f(a.value));
            }
            Kind::Member(m) => f(m.object),
            Kind::Index { object, index } => {
                f(*object);
                f(*index);
            }
            Kind::Dict(d) => d.items.iter().for_each(|e| {
                if let Key::Computed(k) = e.key {
                    f(k);
                }
                f(e.value);
            }),
            Kind::List(l) | Kind::Tuple(l) | Kind::Set(l) => all(&l.items, f),
            Kind::Binary { left, right, .. } => {
                f(*left);
                f(*right);
            }
            Kind::Comprehension(c) => {
                all(&c.elements, f);
                for g in &c.generators {
                    f(g.target);
                    f(g.iter);
                    all(&g.ifs, f);
                }
            }
            Kind::Field { value, .. } => value.iter().copied().for_each(&mut *f),
            Kind::Await(x) | Kind::Paren(x) | Kind::Cast(x) | Kind::Negative(x) | Kind::Expr(x) => f(*x),
            Kind::Spread { value, .. } => f(*value),
            Kind::Function(func) => {
                all(&func.decorators, f);
                for p in &func.params {
                    p.pattern
                        .into_iter()
                        .chain(p.annotation)
                        .chain(p.default)
                        .for_each(&mut *f);
                }
                func.returns.into_iter().for_each(&mut *f);
                all(&func.body, f);
            }
            Kind::Class(class) => {
                all(&class.decorators, f);
                all(&class.bases, f);
                all(&class.body, f);
            }
            Kind::AssignExpr { target, value } | Kind::AugAssign { target, value } => {
                f(*target);
                f(*value);
            }
            Kind::Conditional {
                test,
                then,
                otherwise,
            } => {
                f(*test);
                f(*then);
                f(*otherwise);
            }
            Kind::Assign(a) => {
                all(&a.targets, f);
                a.annotation.into_iter().chain(a.value).for_each(&mut *f);
            }
            Kind::Declaration { declarators, .. } => all(declarators, f),
            Kind::Return(x) => x.iter().copied().for_each(&mut *f),
            Kind::Raise { value, cause } => value.iter().chain(cause).copied().for_each(&mut *f),
            Kind::If(i) => {
                f(i.test);
                all(&i.body, f);
                all(&i.orelse, f);
            }
            Kind::While { test, body, orelse } => {
                f(*test);
                all(body, f);
                all(orelse, f);
            }
            Kind::For(l) => {
                f(l.target);
                f(l.iter);
                all(&l.body, f);
                all(&l.orelse, f);
            }
            Kind::With(w) => {
                for item in &w.items {
                    f(item.context);
                    item.target.into_iter().for_each(&mut *f);
                }
                all(&w.body, f);
            }
            Kind::Try(t) => {
                all(&t.body, f);
                for h in &t.handlers {
                    h.types.into_iter().chain(h.pattern).for_each(&mut *f);
                    all(&h.body, f);
                }
                all(&t.orelse, f);
                all(&t.finally, f);
            }
            Kind::Import(_) => {}
        }
    }

    /// Every node under `id` (itself included) in source order, depth first, with an explicit
    /// stack: deeply nested code must not overflow the thread's stack.
    pub fn descendants(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(node) = stack.pop() {
            out.push(node);
            let mut kids = self.children(node);
            kids.reverse();
            stack.extend(kids);
        }
        out
    }
}

/// Builds a tree: lowerings push nodes bottom-up and the parents are set at the end.
#[derive(Default)]
pub struct Builder {
    tree: Tree,
}

impl Builder {
    pub fn new() -> Self {
        let mut tree = Tree::default();
        // The root, filled by `finish`.
        tree.nodes.push(Node {
            kind: Kind::Module(Vec::new()),
            span: Span::default(),
            parent: 0,
        });
        Builder { tree }
    }

    pub fn push(&mut self, kind: Kind, span: Span) -> NodeId {
        let id = NodeId::try_from(self.tree.nodes.len()).unwrap_or(NodeId::MAX);
        self.tree.nodes.push(Node {
            kind,
            span,
            parent: id,
        });
        id
    }

    pub fn span(&self, id: NodeId) -> Span {
        self.tree.span(id)
    }

    pub fn kind(&self, id: NodeId) -> &Kind {
        self.tree.kind(id)
    }

    pub fn kind_mut(&mut self, id: NodeId) -> &mut Kind {
        &mut self.tree.nodes[id as usize].kind
    }

    /// The tree with its root's statements, comments and error count; every node's parent set.
    pub fn finish(mut self, body: Vec<NodeId>, span: Span, comments: Vec<Span>, errors: usize) -> Tree {
        self.tree.nodes[0] = Node {
            kind: Kind::Module(body),
            span,
            parent: 0,
        };
        self.tree.comments = comments;
        self.tree.errors = errors;
        let count = self.tree.nodes.len();
        let mut parents = vec![0 as NodeId; count];
        for id in 0..count {
            let id = id as NodeId;
            self.tree.each_child(id, &mut |c| {
                if let Some(p) = parents.get_mut(c as usize) {
                    *p = id;
                }
            });
        }
        for (node, parent) in self.tree.nodes.iter_mut().zip(parents) {
            node.parent = parent;
        }
        self.tree
    }
}

/// Keyword arguments repeated in one call (`f(a=1, a=2)`): CPython rejects them when it
/// compiles the module, after parsing, so the parser does not count them.
pub fn repeated_keywords(tree: &Tree) -> usize {
    let mut count = 0;
    for node in &tree.nodes {
        if let Kind::Call(call) = &node.kind {
            let mut seen: Vec<&str> = Vec::new();
            for arg in &call.args {
                if let ArgKind::Keyword(name) = &arg.kind {
                    if seen.contains(&&*name.name) {
                        count += 1;
                    }
                    seen.push(&name.name);
                }
            }
        }
    }
    count
}
