//! JavaScript, TypeScript and TSX parsed by `oxc_parser` and lowered into the
//! [shared form](crate::lang::ir).
//!
//! `this` reads as the name `this` (as Python's `self` is a name), an expression statement that
//! assigns (`x = value;`) as an assignment statement, and a type reference in an annotation as
//! the dotted name it writes; other types are opaque.

use oxc_allocator::Allocator;
use oxc_ast::ast::{self as js, Expression, Statement};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType};

use crate::lang::Surface;
use crate::lang::ir::{
    Arg, ArgKind, Assign, Builder, Call, Class, Container, DeclKind, Entry, For, Function, FunctionKind,
    Handler, Ident, If, Import, ImportName, Key, Kind, Member, NodeId, Param, ParamKind, Span, Tree, Try,
};

/// The source type a surface's documents are parsed as: modules, JSX allowed in JavaScript
/// (React components are written in `.js` files too).
fn source_type(surface: Surface) -> SourceType {
    match surface {
        Surface::TypeScript => SourceType::ts(),
        Surface::Tsx => SourceType::tsx(),
        _ => SourceType::jsx(),
    }
}

/// The text as oxc reads it: a byte-order mark before a `#!` line hides the line from it, so
/// both become what they are to Node (blanks and a comment) at the same offsets.
fn parseable(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) if rest.starts_with("#!") => format!("   //{}", &rest[2..]).into(),
        _ => text.into(),
    }
}

fn error_count(parsed: &oxc_parser::ParserReturn<'_>) -> usize {
    parsed.diagnostics.errors().count() + usize::from(parsed.panicked)
}

/// Parses a document of a JavaScript or TypeScript surface and lowers it. JavaScript that
/// only parses as TypeScript (a code block marked `javascript` with type annotations) is read
/// as TypeScript.
pub fn lower(surface: Surface, text: &str) -> Tree {
    match nesting(text) {
        Nesting::Shallow => lower_text(surface, text),
        Nesting::Deep(stack) => stacker::grow(stack, || lower_text(surface, text)),
        // Read as a text oxc gave up on: its strings by their quotes, one error.
        Nesting::TooDeep => {
            let mut tree = Builder::new().finish(Vec::new(), Span::new(0, text.len()), Vec::new(), 1);
            tree.strings = quoted(text);
            tree
        }
    }
}

/// How deeply a text may nest, for the stack oxc's recursive descent needs.
enum Nesting {
    Shallow,
    /// Parsed on a stack of this many bytes.
    Deep(usize),
    /// Not parsed.
    TooDeep,
}

/// A bound of a text's nesting, read from its bytes: the deepest brackets, the longest run of
/// prefix operators (`!!!!x`), the most `?` or `=>` on one line (nested conditionals and
/// arrow functions). Each level takes at most a few frames of oxc's parser and of the walks
/// over its tree.
fn nesting(text: &str) -> Nesting {
    const SHALLOW: usize = 256;
    const PER_LEVEL: usize = 16 * 1024;
    const MOST: usize = 100_000;
    let (mut depth, mut deepest, mut run, mut longest, mut on_line, mut most_on_line) =
        (0i64, 0i64, 0, 0, 0, 0);
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth -= 1,
            b'\n' => {
                most_on_line = most_on_line.max(on_line);
                on_line = 0;
            }
            b'?' => on_line += 1,
            b'>' if i > 0 && bytes[i - 1] == b'=' => on_line += 1,
            _ => {}
        }
        if matches!(b, b'!' | b'~' | b'+' | b'-') {
            run += 1;
            longest = longest.max(run);
        } else if b != b' ' {
            run = 0;
        }
    }
    let levels = (deepest.max(0) as usize)
        .max(longest)
        .max(most_on_line.max(on_line));
    if levels < SHALLOW {
        Nesting::Shallow
    } else if levels > MOST {
        Nesting::TooDeep
    } else {
        Nesting::Deep(levels * PER_LEVEL)
    }
}

fn lower_text(surface: Surface, text: &str) -> Tree {
    let owned = parseable(text);
    let text: &str = &owned;
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, text, source_type(surface)).parse();
    let errors = error_count(&parsed);
    if errors > 0 && surface == Surface::JavaScript {
        let allocator = Allocator::default();
        let typed = Parser::new(&allocator, text, SourceType::tsx()).parse();
        let typed_errors = error_count(&typed);
        if typed_errors < errors {
            return lower_program(&typed, text, typed_errors);
        }
    }
    lower_program(&parsed, text, errors)
}

fn lower_program(parsed: &oxc_parser::ParserReturn<'_>, text: &str, errors: usize) -> Tree {
    let comments = parsed.program.comments.iter().map(|c| sp(c.span)).collect();
    let mut lowering = Lowering {
        b: Builder::new(),
        text,
        depth: 0,
    };
    let body = lowering.statements(&parsed.program.body);
    let mut tree = lowering
        .b
        .finish(body, Span::new(0, text.len()), comments, errors);
    let mut literals = Literals::default();
    if parsed.panicked {
        // oxc gave up on the text (a snippet with a line of another language, say): its
        // strings are found by their quotes.
        literals.strings = quoted(text);
    } else {
        literals.visit_program(&parsed.program);
    }
    literals.strings.sort_by_key(|s| (s.start, s.end));
    tree.strings = literals.strings;
    tree.jsx = literals.jsx;
    tree
}

/// The string and template literals of a text oxc could not parse, found by their quotes
/// (comments skipped; a template literal's substitutions are not followed).
fn quoted(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(bytes.len(), |n| i + 2 + n + 2);
            }
            quote @ (b'\'' | b'"' | b'`') => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    // A quote or a backquote ends at its line's end when it is not closed.
                    if bytes[i] == b'\n' && quote != b'`' {
                        break;
                    }
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i < bytes.len() && bytes[i] == quote {
                    out.push(Span::new(start, i + 1));
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The string literals (outermost), template literals (whole), JSX text, and the JSX
/// elements and expression containers of a program.
#[derive(Default)]
struct Literals {
    strings: Vec<Span>,
    jsx: Vec<(Span, bool)>,
    templates: usize,
}

impl<'a> Visit<'a> for Literals {
    fn visit_string_literal(&mut self, it: &js::StringLiteral<'a>) {
        if self.templates == 0 {
            self.strings.push(sp(it.span));
        }
    }

    fn visit_template_literal(&mut self, it: &js::TemplateLiteral<'a>) {
        if self.templates == 0 {
            self.strings.push(sp(it.span));
        }
        self.templates += 1;
        walk::walk_template_literal(self, it);
        self.templates -= 1;
    }

    fn visit_jsx_text(&mut self, it: &js::JSXText<'a>) {
        if self.templates == 0 {
            self.strings.push(sp(it.span));
        }
    }

    fn visit_jsx_element(&mut self, it: &js::JSXElement<'a>) {
        self.jsx.push((sp(it.span), false));
        walk::walk_jsx_element(self, it);
    }

    fn visit_jsx_fragment(&mut self, it: &js::JSXFragment<'a>) {
        self.jsx.push((sp(it.span), false));
        walk::walk_jsx_fragment(self, it);
    }

    fn visit_jsx_expression_container(&mut self, it: &js::JSXExpressionContainer<'a>) {
        self.jsx.push((sp(it.span), true));
        walk::walk_jsx_expression_container(self, it);
    }
}

fn sp(span: oxc_span::Span) -> Span {
    Span {
        start: span.start,
        end: span.end,
    }
}

fn ident(name: &str, span: oxc_span::Span) -> Ident {
    Ident {
        name: name.into(),
        span: sp(span),
    }
}

/// Deeper nesting than this is lowered as an opaque node: the walk must not overflow the stack.
const MAX_DEPTH: usize = 200;

struct Lowering<'s> {
    b: Builder,
    text: &'s str,
    depth: usize,
}

/// Lowers the direct children of a construct the lowering does not model, as the visitor
/// reaches them.
struct Children<'l, 's> {
    lowering: &'l mut Lowering<'s>,
    ids: Vec<NodeId>,
}

impl<'a> Visit<'a> for Children<'_, '_> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        let id = self.lowering.expr(it);
        self.ids.push(id);
    }

    fn visit_statement(&mut self, it: &Statement<'a>) {
        let id = self.lowering.stmt(it);
        self.ids.push(id);
    }

    fn visit_declaration(&mut self, it: &js::Declaration<'a>) {
        let id = self.lowering.declaration(it);
        self.ids.push(id);
    }

    /// `export default function f() {}`.
    fn visit_function(&mut self, it: &js::Function<'a>, _flags: oxc_syntax::scope::ScopeFlags) {
        let id = self.lowering.function(it, FunctionKind::Def, sp(it.span));
        self.ids.push(id);
    }

    fn visit_class(&mut self, it: &js::Class<'a>) {
        let id = self.lowering.class(it, sp(it.span));
        self.ids.push(id);
    }
}

impl<'a> Lowering<'_> {
    fn statements(&mut self, body: &[Statement<'a>]) -> Vec<NodeId> {
        body.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, stmt: &Statement<'a>) -> NodeId {
        let span = sp(stmt.span());
        if self.depth > MAX_DEPTH {
            return self.b.push(Kind::Other(Vec::new()), span);
        }
        self.depth += 1;
        let id = self.stmt_inner(stmt, span);
        self.depth -= 1;
        id
    }

    fn stmt_inner(&mut self, stmt: &Statement<'a>, span: Span) -> NodeId {
        let kind = match stmt {
            Statement::ExpressionStatement(e) => match &e.expression {
                Expression::AssignmentExpression(a) => {
                    let target = self.target(&a.left);
                    let value = self.expr(&a.right);
                    if a.operator == js::AssignmentOperator::Assign {
                        Kind::Assign(Box::new(Assign {
                            targets: vec![target],
                            value: Some(value),
                            annotation: None,
                        }))
                    } else {
                        Kind::AugAssign { target, value }
                    }
                }
                other => Kind::Expr(self.expr(other)),
            },
            Statement::BlockStatement(b) => Kind::Block(self.statements(&b.body)),
            Statement::ReturnStatement(r) => Kind::Return(r.argument.as_ref().map(|a| self.expr(a))),
            Statement::ThrowStatement(t) => Kind::Raise {
                value: Some(self.expr(&t.argument)),
                cause: None,
            },
            Statement::IfStatement(i) => {
                let test = self.expr(&i.test);
                let body = vec![self.stmt(&i.consequent)];
                let orelse = i.alternate.as_ref().map(|a| self.stmt(a)).into_iter().collect();
                Kind::If(Box::new(If { test, body, orelse }))
            }
            Statement::WhileStatement(w) => {
                let test = self.expr(&w.test);
                let body = vec![self.stmt(&w.body)];
                Kind::While {
                    test,
                    body,
                    orelse: Vec::new(),
                }
            }
            Statement::DoWhileStatement(w) => {
                let body = vec![self.stmt(&w.body)];
                let test = self.expr(&w.test);
                Kind::While {
                    test,
                    body,
                    orelse: Vec::new(),
                }
            }
            Statement::ForOfStatement(f) => self.for_loop(&f.left, &f.right, &f.body, f.r#await, false),
            Statement::ForInStatement(f) => self.for_loop(&f.left, &f.right, &f.body, false, true),
            Statement::TryStatement(t) => {
                let body = self.statements(&t.block.body);
                let handlers = t
                    .handler
                    .iter()
                    .map(|h| {
                        let (name, pattern) = match h.param.as_ref().map(|p| &p.pattern) {
                            Some(js::BindingPattern::BindingIdentifier(id)) => {
                                (Some(ident(&id.name, id.span)), None)
                            }
                            Some(pattern) => (None, Some(self.pattern(pattern))),
                            None => (None, None),
                        };
                        Handler {
                            span: sp(h.span),
                            types: None,
                            name,
                            pattern,
                            body: self.statements(&h.body.body),
                        }
                    })
                    .collect();
                let finally = t
                    .finalizer
                    .as_ref()
                    .map(|f| self.statements(&f.body))
                    .unwrap_or_default();
                Kind::Try(Box::new(Try {
                    body,
                    handlers,
                    orelse: Vec::new(),
                    finally,
                }))
            }
            Statement::ImportDeclaration(i) => Kind::Import(Box::new(self.import(i))),
            // `export ... from "module"` re-exports: an import that binds nothing.
            Statement::ExportFromDeclaration(e) => {
                let module = Some(ident(&e.source.value, e.source.span));
                Kind::Import(Box::new(Import {
                    module,
                    level: 0,
                    names: Vec::new(),
                    type_only: e.export_kind.is_type(),
                }))
            }
            Statement::ExportAllDeclaration(e) => Kind::Import(Box::new(Import {
                module: Some(ident(&e.source.value, e.source.span)),
                level: 0,
                names: Vec::new(),
                type_only: e.export_kind.is_type(),
            })),
            Statement::VariableDeclaration(d) => return self.variables(d),
            Statement::FunctionDeclaration(f) => return self.function(f, FunctionKind::Def, span),
            Statement::ClassDeclaration(c) => return self.class(c, span),
            Statement::EmptyStatement(_)
            | Statement::BreakStatement(_)
            | Statement::ContinueStatement(_)
            | Statement::DebuggerStatement(_) => Kind::Other(Vec::new()),
            other => {
                let mut children = Children {
                    lowering: self,
                    ids: Vec::new(),
                };
                walk::walk_statement(&mut children, other);
                Kind::Other(children.ids)
            }
        };
        self.b.push(kind, span)
    }

    fn declaration(&mut self, d: &js::Declaration<'a>) -> NodeId {
        let span = sp(d.span());
        match d {
            js::Declaration::VariableDeclaration(v) => self.variables(v),
            js::Declaration::FunctionDeclaration(f) => self.function(f, FunctionKind::Def, span),
            js::Declaration::ClassDeclaration(c) => self.class(c, span),
            other => {
                let mut children = Children {
                    lowering: self,
                    ids: Vec::new(),
                };
                walk::walk_declaration(&mut children, other);
                let ids = children.ids;
                self.b.push(Kind::Other(ids), span)
            }
        }
    }

    fn variables(&mut self, d: &js::VariableDeclaration<'a>) -> NodeId {
        let kind = decl_kind(d.kind);
        let declarators = d
            .declarations
            .iter()
            .map(|v| {
                let target = self.pattern(&v.id);
                let value = v.init.as_ref().map(|i| self.expr(i));
                let annotation = v.type_annotation.as_ref().map(|t| self.annotation(t));
                self.b.push(
                    Kind::Assign(Box::new(Assign {
                        targets: vec![target],
                        value,
                        annotation,
                    })),
                    sp(v.span),
                )
            })
            .collect();
        self.b.push(Kind::Declaration { kind, declarators }, sp(d.span))
    }

    fn for_loop(
        &mut self,
        left: &js::ForStatementLeft<'a>,
        right: &Expression<'a>,
        body: &Statement<'a>,
        is_async: bool,
        keys: bool,
    ) -> Kind {
        let (target, decl) = match left {
            js::ForStatementLeft::VariableDeclaration(d) => {
                let kind = decl_kind(d.kind);
                let target = match d.declarations.first() {
                    Some(v) => self.pattern(&v.id),
                    None => self.b.push(Kind::Other(Vec::new()), sp(d.span)),
                };
                (target, Some(kind))
            }
            other => (self.target(other.to_assignment_target()), None),
        };
        let iter = self.expr(right);
        let body = vec![self.stmt(body)];
        Kind::For(Box::new(For {
            target,
            iter,
            body,
            orelse: Vec::new(),
            is_async,
            keys,
            decl,
        }))
    }

    fn import(&mut self, i: &js::ImportDeclaration<'a>) -> Import {
        let mut names = Vec::new();
        for specifier in i.specifiers.iter().flatten() {
            names.push(match specifier {
                js::ImportDeclarationSpecifier::ImportSpecifier(s) => {
                    let imported = match &s.imported {
                        js::ModuleExportName::IdentifierName(n) => ident(&n.name, n.span),
                        js::ModuleExportName::IdentifierReference(n) => ident(&n.name, n.span),
                        js::ModuleExportName::StringLiteral(n) => ident(&n.value, n.span),
                    };
                    let alias =
                        (s.local.span != s.imported.span()).then(|| ident(&s.local.name, s.local.span));
                    ImportName {
                        name: imported,
                        alias,
                        span: sp(s.span),
                    }
                }
                js::ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => ImportName {
                    name: Ident {
                        name: "default".into(),
                        span: sp(s.span),
                    },
                    alias: Some(ident(&s.local.name, s.local.span)),
                    span: sp(s.span),
                },
                js::ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => ImportName {
                    name: Ident {
                        name: "*".into(),
                        span: sp(s.span),
                    },
                    alias: Some(ident(&s.local.name, s.local.span)),
                    span: sp(s.span),
                },
            });
        }
        Import {
            module: Some(ident(&i.source.value, i.source.span)),
            level: 0,
            names,
            type_only: i.import_kind.is_type(),
        }
    }

    fn function(&mut self, f: &js::Function<'a>, kind: FunctionKind, span: Span) -> NodeId {
        let params = self.params(&f.params);
        let returns = f.return_type.as_ref().map(|t| self.annotation(t));
        let body = f
            .body
            .as_ref()
            .map(|b| self.statements(&b.statements))
            .unwrap_or_default();
        self.b.push(
            Kind::Function(Box::new(Function {
                name: f.id.as_ref().map(|id| ident(&id.name, id.span)),
                params,
                body,
                expression: false,
                is_async: f.r#async,
                decorators: Vec::new(),
                returns,
                params_span: sp(f.params.span),
                kind,
            })),
            span,
        )
    }

    fn params(&mut self, params: &js::FormalParameters<'a>) -> Vec<Param> {
        let mut out = Vec::new();
        for p in &params.items {
            let (name, pattern) = match &p.pattern {
                js::BindingPattern::BindingIdentifier(id) => (Some(ident(&id.name, id.span)), None),
                other => (None, Some(self.pattern(other))),
            };
            out.push(Param {
                name,
                pattern,
                annotation: p.type_annotation.as_ref().map(|t| self.annotation(t)),
                default: p.initializer.as_ref().map(|d| self.expr(d)),
                kind: ParamKind::Plain,
                span: sp(p.span),
            });
        }
        if let Some(rest) = &params.rest {
            let (name, pattern) = match &rest.rest.argument {
                js::BindingPattern::BindingIdentifier(id) => (Some(ident(&id.name, id.span)), None),
                other => (None, Some(self.pattern(other))),
            };
            out.push(Param {
                name,
                pattern,
                annotation: rest.type_annotation.as_ref().map(|t| self.annotation(t)),
                default: None,
                kind: ParamKind::Rest,
                span: sp(rest.span),
            });
        }
        out
    }

    fn class(&mut self, c: &js::Class<'a>, span: Span) -> NodeId {
        let decorators = c.decorators.iter().map(|d| self.expr(&d.expression)).collect();
        let bases = c.heritage.iter().map(|h| self.expr(&h.expression)).collect();
        let mut body = Vec::new();
        for element in &c.body.body {
            match element {
                js::ClassElement::MethodDefinition(m) => {
                    let id = self.function(&m.value, FunctionKind::Method, sp(m.span));
                    if let (Kind::Function(_), Some(name)) = (self.b.kind(id), m.key.static_name()) {
                        let key_span = m.key.span();
                        self.rename(id, ident(&name, key_span));
                    }
                    body.push(id);
                }
                js::ClassElement::PropertyDefinition(p) => {
                    let value = p.value.as_ref().map(|v| self.expr(v));
                    let name = match (&p.key, p.computed) {
                        (js::PropertyKey::StaticIdentifier(id), false) => Some(ident(&id.name, id.span)),
                        (js::PropertyKey::PrivateIdentifier(id), _) => Some(Ident {
                            name: format!("#{}", id.name).into(),
                            span: sp(id.span),
                        }),
                        _ => None,
                    };
                    body.push(self.b.push(Kind::Field { name, value }, sp(p.span)));
                }
                js::ClassElement::StaticBlock(s) => {
                    let statements = self.statements(&s.body);
                    body.push(self.b.push(Kind::Block(statements), sp(s.span)));
                }
                other => body.push(self.b.push(Kind::Other(Vec::new()), sp(other.span()))),
            }
        }
        self.b.push(
            Kind::Class(Box::new(Class {
                name: c.id.as_ref().map(|id| ident(&id.name, id.span)),
                bases,
                body,
                decorators,
            })),
            span,
        )
    }

    /// Gives a method's function the name of its key.
    fn rename(&mut self, id: NodeId, name: Ident) {
        if let Kind::Function(f) = self.b.kind_mut(id) {
            f.name = Some(name);
        }
    }

    /// A type annotation: a type reference as its dotted name, anything else opaque.
    fn annotation(&mut self, t: &js::TSTypeAnnotation<'a>) -> NodeId {
        match &t.type_annotation {
            js::TSType::TSTypeReference(r) => self.type_name(&r.type_name),
            other => self.b.push(Kind::Other(Vec::new()), sp(other.span())),
        }
    }

    fn type_name(&mut self, name: &js::TSTypeName<'a>) -> NodeId {
        match name {
            js::TSTypeName::IdentifierReference(id) => {
                self.b.push(Kind::Name(id.name.as_str().into()), sp(id.span))
            }
            js::TSTypeName::QualifiedName(q) => {
                let object = self.type_name(&q.left);
                self.b.push(
                    Kind::Member(Box::new(Member {
                        object,
                        name: ident(&q.right.name, q.right.span),
                        optional: false,
                    })),
                    sp(q.span),
                )
            }
            js::TSTypeName::ThisExpression(t) => self.b.push(Kind::Name("this".into()), sp(t.span)),
        }
    }

    /// A binding pattern: a name, or an object or array pattern as a dict or list of targets.
    fn pattern(&mut self, p: &js::BindingPattern<'a>) -> NodeId {
        let span = sp(p.span());
        if self.depth > MAX_DEPTH {
            return self.b.push(Kind::Other(Vec::new()), span);
        }
        self.depth += 1;
        let kind = match p {
            js::BindingPattern::BindingIdentifier(id) => Kind::Name(id.name.as_str().into()),
            js::BindingPattern::ObjectPattern(o) => {
                let mut items = Vec::new();
                for prop in &o.properties {
                    let value = self.pattern(&prop.value);
                    let key = self.key(&prop.key, prop.computed);
                    items.push(Entry {
                        key,
                        span: sp(prop.span),
                        value,
                    });
                }
                if let Some(rest) = &o.rest {
                    let value = self.pattern(&rest.argument);
                    items.push(Entry {
                        key: Key::Spread,
                        span: sp(rest.span),
                        value,
                    });
                }
                Kind::Dict(Box::new(Container {
                    items,
                    inner: span.inner(),
                }))
            }
            js::BindingPattern::ArrayPattern(a) => {
                let mut items: Vec<NodeId> = a.elements.iter().flatten().map(|e| self.pattern(e)).collect();
                if let Some(rest) = &a.rest {
                    let value = self.pattern(&rest.argument);
                    items.push(self.b.push(Kind::Spread { value, double: false }, sp(rest.span)));
                }
                Kind::List(Box::new(Container {
                    items,
                    inner: span.inner(),
                }))
            }
            js::BindingPattern::AssignmentPattern(a) => {
                let target = self.pattern(&a.left);
                let value = self.expr(&a.right);
                Kind::AssignExpr { target, value }
            }
        };
        self.depth -= 1;
        self.b.push(kind, span)
    }

    /// An assignment's target, as the expression it writes.
    fn target(&mut self, t: &js::AssignmentTarget<'a>) -> NodeId {
        let span = sp(t.span());
        match t {
            js::AssignmentTarget::AssignmentTargetIdentifier(id) => {
                self.b.push(Kind::Name(id.name.as_str().into()), span)
            }
            js::AssignmentTarget::ObjectAssignmentTarget(o) => {
                let mut items = Vec::new();
                for prop in &o.properties {
                    items.push(match prop {
                        js::AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(p) => {
                            let value = self
                                .b
                                .push(Kind::Name(p.binding.name.as_str().into()), sp(p.binding.span));
                            Entry {
                                key: Key::Name(ident(&p.binding.name, p.binding.span)),
                                span: sp(p.span),
                                value,
                            }
                        }
                        js::AssignmentTargetProperty::AssignmentTargetPropertyProperty(p) => {
                            let value = self.maybe_default(&p.binding);
                            let key = self.key(&p.name, p.computed);
                            Entry {
                                key,
                                span: sp(p.span),
                                value,
                            }
                        }
                    });
                }
                if let Some(rest) = &o.rest {
                    let value = self.target(&rest.target);
                    items.push(Entry {
                        key: Key::Spread,
                        span: sp(rest.span),
                        value,
                    });
                }
                self.b.push(
                    Kind::Dict(Box::new(Container {
                        items,
                        inner: span.inner(),
                    })),
                    span,
                )
            }
            js::AssignmentTarget::ArrayAssignmentTarget(a) => {
                let items = a
                    .elements
                    .iter()
                    .flatten()
                    .map(|e| self.maybe_default(e))
                    .collect();
                self.b.push(
                    Kind::List(Box::new(Container {
                        items,
                        inner: span.inner(),
                    })),
                    span,
                )
            }
            other => match other.as_simple_assignment_target() {
                Some(simple) => match simple.as_member_expression() {
                    Some(member) => self.member(member),
                    None => match simple {
                        js::SimpleAssignmentTarget::TSAsExpression(e) => self.cast(&e.expression, span),
                        js::SimpleAssignmentTarget::TSSatisfiesExpression(e) => {
                            self.cast(&e.expression, span)
                        }
                        js::SimpleAssignmentTarget::TSNonNullExpression(e) => self.cast(&e.expression, span),
                        js::SimpleAssignmentTarget::TSTypeAssertion(e) => self.cast(&e.expression, span),
                        _ => self.b.push(Kind::Other(Vec::new()), span),
                    },
                },
                None => self.b.push(Kind::Other(Vec::new()), span),
            },
        }
    }

    fn maybe_default(&mut self, t: &js::AssignmentTargetMaybeDefault<'a>) -> NodeId {
        match t {
            js::AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d) => {
                let target = self.target(&d.binding);
                let value = self.expr(&d.init);
                self.b.push(Kind::AssignExpr { target, value }, sp(d.span))
            }
            other => match other.as_assignment_target() {
                Some(t) => self.target(t),
                None => self.b.push(Kind::Other(Vec::new()), sp(other.span())),
            },
        }
    }

    fn cast(&mut self, inner: &Expression<'a>, span: Span) -> NodeId {
        let inner = self.expr(inner);
        self.b.push(Kind::Cast(inner), span)
    }

    fn key(&mut self, key: &js::PropertyKey<'a>, computed: bool) -> Key {
        match key {
            js::PropertyKey::StaticIdentifier(id) if !computed => Key::Name(ident(&id.name, id.span)),
            js::PropertyKey::StringLiteral(s) if !computed => Key::Str(ident(&s.value, s.span)),
            js::PropertyKey::PrivateIdentifier(id) => Key::Name(Ident {
                name: format!("#{}", id.name).into(),
                span: sp(id.span),
            }),
            other => match other.as_expression() {
                Some(e) => Key::Computed(self.expr(e)),
                None => Key::Computed(self.b.push(Kind::Other(Vec::new()), sp(other.span()))),
            },
        }
    }

    fn member(&mut self, m: &js::MemberExpression<'a>) -> NodeId {
        let span = sp(m.span());
        match m {
            js::MemberExpression::StaticMemberExpression(s) => {
                let object = self.expr(&s.object);
                self.b.push(
                    Kind::Member(Box::new(Member {
                        object,
                        name: ident(&s.property.name, s.property.span),
                        optional: s.optional,
                    })),
                    span,
                )
            }
            js::MemberExpression::ComputedMemberExpression(c) => {
                let object = self.expr(&c.object);
                let index = self.expr(&c.expression);
                self.b.push(Kind::Index { object, index }, span)
            }
            js::MemberExpression::PrivateFieldExpression(p) => {
                let object = self.expr(&p.object);
                self.b.push(
                    Kind::Member(Box::new(Member {
                        object,
                        name: Ident {
                            name: format!("#{}", p.field.name).into(),
                            span: sp(p.field.span),
                        },
                        optional: p.optional,
                    })),
                    span,
                )
            }
        }
    }

    fn arguments(&mut self, args: &[js::Argument<'a>]) -> Vec<Arg> {
        args.iter()
            .map(|a| match a {
                js::Argument::SpreadElement(s) => Arg {
                    kind: ArgKind::Spread,
                    span: sp(s.span),
                    value: self.expr(&s.argument),
                },
                other => {
                    let value = match other.as_expression() {
                        Some(e) => self.expr(e),
                        None => self.b.push(Kind::Other(Vec::new()), sp(other.span())),
                    };
                    Arg {
                        kind: ArgKind::Positional,
                        span: self.b.span(value),
                        value,
                    }
                }
            })
            .collect()
    }

    /// The parentheses of a call: from the first `(` after the callee (and its type arguments)
    /// to the call's end; empty at the callee's end when there are none (`new X`).
    fn parens(&self, after: u32, end: u32) -> Span {
        let slice = self.text.get(after as usize..end as usize).unwrap_or_default();
        match slice.find('(') {
            Some(i) if slice.ends_with(')') => Span {
                start: after + i as u32,
                end,
            },
            _ => Span {
                start: after,
                end: after,
            },
        }
    }

    fn call(
        &mut self,
        callee: &Expression<'a>,
        type_args: Option<oxc_span::Span>,
        args: &[js::Argument<'a>],
        new: bool,
        optional: bool,
        span: Span,
    ) -> Kind {
        let callee_id = self.expr(callee);
        let after = type_args.map_or(self.b.span(callee_id).end, |t| t.end);
        let args = self.arguments(args);
        Kind::Call(Box::new(Call {
            callee: callee_id,
            args,
            parens: self.parens(after, span.end),
            new,
            optional,
            bare_generator: false,
        }))
    }

    fn expr(&mut self, e: &Expression<'a>) -> NodeId {
        let span = sp(e.span());
        if self.depth > MAX_DEPTH {
            return self.b.push(Kind::Other(Vec::new()), span);
        }
        self.depth += 1;
        let id = self.expr_inner(e, span);
        self.depth -= 1;
        id
    }

    fn expr_inner(&mut self, e: &Expression<'a>, span: Span) -> NodeId {
        let kind = match e {
            Expression::Identifier(id) => Kind::Name(id.name.as_str().into()),
            Expression::ThisExpression(_) => Kind::Name("this".into()),
            Expression::Super(_) => Kind::Name("super".into()),
            Expression::StringLiteral(s) => Kind::Str(s.value.as_str().into()),
            Expression::TemplateLiteral(t) if t.expressions.is_empty() => {
                let value: String = t
                    .quasis
                    .iter()
                    .map(|q| {
                        q.value
                            .cooked
                            .as_ref()
                            .map_or(q.value.raw.as_str(), |c| c.as_str())
                    })
                    .collect();
                Kind::Str(value.into())
            }
            Expression::TemplateLiteral(t) => {
                Kind::Template(t.expressions.iter().map(|x| self.expr(x)).collect())
            }
            Expression::NumericLiteral(_) => {
                let raw = self.text.get(span.range()).unwrap_or_default();
                match raw.replace('_', "").parse::<i64>() {
                    Ok(v) => Kind::Int(Some(v)),
                    Err(_) => Kind::Number,
                }
            }
            Expression::BooleanLiteral(b) => Kind::Bool(b.value),
            Expression::NullLiteral(_) => Kind::Null,
            Expression::CallExpression(c) => self.call(
                &c.callee,
                c.type_arguments.as_ref().map(|t| t.span),
                &c.arguments,
                false,
                c.optional,
                span,
            ),
            Expression::NewExpression(n) => self.call(
                &n.callee,
                n.type_arguments.as_ref().map(|t| t.span),
                &n.arguments,
                true,
                false,
                span,
            ),
            Expression::ImportExpression(i) => {
                let callee = self.b.push(
                    Kind::Name("import".into()),
                    Span::new(span.range().start, span.range().start + 6),
                );
                let source = self.expr(&i.source);
                let mut args = vec![Arg {
                    kind: ArgKind::Positional,
                    span: self.b.span(source),
                    value: source,
                }];
                if let Some(options) = &i.options {
                    let value = self.expr(options);
                    args.push(Arg {
                        kind: ArgKind::Positional,
                        span: self.b.span(value),
                        value,
                    });
                }
                Kind::Call(Box::new(Call {
                    callee,
                    args,
                    parens: self.parens(span.start + 6, span.end),
                    new: false,
                    optional: false,
                    bare_generator: false,
                }))
            }
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => match e.as_member_expression() {
                Some(m) => return self.member(m),
                None => Kind::Other(Vec::new()),
            },
            Expression::ChainExpression(c) => {
                return match &c.expression {
                    js::ChainElement::CallExpression(call) => {
                        let kind = self.call(
                            &call.callee,
                            call.type_arguments.as_ref().map(|t| t.span),
                            &call.arguments,
                            false,
                            call.optional,
                            sp(call.span),
                        );
                        self.b.push(kind, span)
                    }
                    js::ChainElement::TSNonNullExpression(n) => self.cast(&n.expression, span),
                    other => match other.as_member_expression() {
                        Some(m) => self.member(m),
                        None => self.b.push(Kind::Other(Vec::new()), span),
                    },
                };
            }
            Expression::ObjectExpression(o) => {
                let mut items = Vec::new();
                for prop in &o.properties {
                    items.push(match prop {
                        js::ObjectPropertyKind::SpreadProperty(s) => Entry {
                            key: Key::Spread,
                            span: sp(s.span),
                            value: self.expr(&s.argument),
                        },
                        js::ObjectPropertyKind::ObjectProperty(p) => {
                            let key = self.key(&p.key, p.computed);
                            let value = self.expr(&p.value);
                            let key = match key {
                                Key::Name(name) if p.method || p.kind != js::PropertyKind::Init => {
                                    Key::Method(name)
                                }
                                key => key,
                            };
                            Entry {
                                key,
                                span: sp(p.span),
                                value,
                            }
                        }
                    });
                }
                Kind::Dict(Box::new(Container {
                    items,
                    inner: span.inner(),
                }))
            }
            Expression::ArrayExpression(a) => {
                let mut items = Vec::new();
                for element in &a.elements {
                    match element {
                        js::ArrayExpressionElement::SpreadElement(s) => {
                            let value = self.expr(&s.argument);
                            items.push(self.b.push(Kind::Spread { value, double: false }, sp(s.span)));
                        }
                        js::ArrayExpressionElement::Elision(_) => {}
                        other => {
                            if let Some(e) = other.as_expression() {
                                items.push(self.expr(e));
                            }
                        }
                    }
                }
                Kind::List(Box::new(Container {
                    items,
                    inner: span.inner(),
                }))
            }
            Expression::ArrowFunctionExpression(a) => {
                let params = self.params(&a.params);
                let returns = a.return_type.as_ref().map(|t| self.annotation(t));
                let (body, expression) = match &a.body {
                    js::ArrowFunctionBody::FunctionBody(b) => (self.statements(&b.statements), false),
                    other => match other.as_expression() {
                        Some(e) => (vec![self.expr(e)], true),
                        None => (Vec::new(), true),
                    },
                };
                Kind::Function(Box::new(Function {
                    name: None,
                    params,
                    body,
                    expression,
                    is_async: a.r#async,
                    decorators: Vec::new(),
                    returns,
                    params_span: sp(a.params.span),
                    kind: FunctionKind::Lambda,
                }))
            }
            Expression::FunctionExpression(f) => return self.function(f, FunctionKind::Def, span),
            Expression::ClassExpression(c) => return self.class(c, span),
            Expression::AwaitExpression(a) => Kind::Await(self.expr(&a.argument)),
            Expression::ParenthesizedExpression(p) => Kind::Paren(self.expr(&p.expression)),
            Expression::TSAsExpression(x) => Kind::Cast(self.expr(&x.expression)),
            Expression::TSSatisfiesExpression(x) => Kind::Cast(self.expr(&x.expression)),
            Expression::TSNonNullExpression(x) => Kind::Cast(self.expr(&x.expression)),
            Expression::TSTypeAssertion(x) => Kind::Cast(self.expr(&x.expression)),
            Expression::TSInstantiationExpression(x) => Kind::Cast(self.expr(&x.expression)),
            Expression::UnaryExpression(u) if u.operator == js::UnaryOperator::UnaryNegation => {
                Kind::Negative(self.expr(&u.argument))
            }
            Expression::AssignmentExpression(a) if a.operator == js::AssignmentOperator::Assign => {
                let target = self.target(&a.left);
                let value = self.expr(&a.right);
                Kind::AssignExpr { target, value }
            }
            Expression::BinaryExpression(b) => {
                let left = self.expr(&b.left);
                let right = self.expr(&b.right);
                Kind::Binary {
                    plus: b.operator == js::BinaryOperator::Addition,
                    left,
                    right,
                }
            }
            // `x++`: the name is written, as by `x += 1`.
            Expression::UpdateExpression(u) => match &u.argument {
                js::SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => {
                    let target = self.b.push(Kind::Name(id.name.as_str().into()), sp(id.span));
                    let value = self.b.push(
                        Kind::Other(Vec::new()),
                        Span::new(span.range().end, span.range().end),
                    );
                    Kind::AugAssign { target, value }
                }
                _ => {
                    let mut children = Children {
                        lowering: self,
                        ids: Vec::new(),
                    };
                    walk::walk_expression(&mut children, e);
                    Kind::Other(children.ids)
                }
            },
            Expression::ConditionalExpression(c) => {
                let test = self.expr(&c.test);
                let then = self.expr(&c.consequent);
                let otherwise = self.expr(&c.alternate);
                Kind::Conditional {
                    test,
                    then,
                    otherwise,
                }
            }
            Expression::LogicalExpression(l) => {
                let left = self.expr(&l.left);
                let right = self.expr(&l.right);
                Kind::Logical(vec![left, right])
            }
            other => {
                let mut children = Children {
                    lowering: self,
                    ids: Vec::new(),
                };
                walk::walk_expression(&mut children, other);
                Kind::Other(children.ids)
            }
        };
        self.b.push(kind, span)
    }
}

fn decl_kind(kind: js::VariableDeclarationKind) -> DeclKind {
    match kind {
        js::VariableDeclarationKind::Const => DeclKind::Const,
        js::VariableDeclarationKind::Let => DeclKind::Let,
        js::VariableDeclarationKind::Var => DeclKind::Var,
        _ => DeclKind::Using,
    }
}

/// The names a JavaScript or TypeScript text declares twice in one scope (`import { A } ...`
/// twice, `const a` after `let a`), as oxc's semantic checks report them: Node refuses such a
/// module (`Identifier 'A' has already been declared`) and tsc reports TS2300/TS2451, though
/// the text parses. A fix may not add one; 0 when the text does not parse.
pub fn redeclarations(surface: Surface, text: &str) -> usize {
    let owned = parseable(text);
    let text: &str = &owned;
    let allocator = Allocator::default();
    let mut parsed = Parser::new(&allocator, text, source_type(surface)).parse();
    if error_count(&parsed) > 0 && surface == Surface::JavaScript {
        parsed = Parser::new(&allocator, text, SourceType::tsx()).parse();
    }
    if error_count(&parsed) > 0 {
        return 0;
    }
    let built = oxc_semantic::SemanticBuilder::new()
        .with_check_syntax_error(true)
        .build(&parsed.program);
    built
        .diagnostics
        .iter()
        .filter(|e| e.to_string().contains("has already been declared"))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deep nesting is parsed on a stack grown to fit, or (deeper still) read for its strings
    /// alone: never a stack overflow, even on a thread with a small stack.
    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let texts = [
            format!(
                "const x = {}1{};\nconst m = \"gemini-1.5-flash\";\n",
                "[".repeat(30_000),
                "]".repeat(30_000)
            ),
            format!(
                "const x = {}1;\nconst m = \"gemini-1.5-flash\";\n",
                "!".repeat(50_000)
            ),
            format!(
                "const x = {}c;\nconst m = \"gemini-1.5-flash\";\n",
                "a ? b : ".repeat(20_000)
            ),
            format!(
                "const x = {}1{};\nconst m = \"gemini-1.5-flash\";\n",
                "(".repeat(200_000),
                ")".repeat(200_000)
            ),
        ];
        let found = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                texts
                    .iter()
                    .map(|text| {
                        let tree = lower(Surface::JavaScript, text);
                        tree.strings
                            .iter()
                            .any(|s| text.get(s.range()) == Some("\"gemini-1.5-flash\""))
                    })
                    .collect::<Vec<bool>>()
            })
            .expect("a thread")
            .join()
            .expect("no overflow");
        assert_eq!(found, [true; 4]);
    }
}
