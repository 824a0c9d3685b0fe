//! Python parsed by `ruff_python_parser` and lowered into the [shared form](crate::lang::ir).
//!
//! The parser drops parentheses from its ranges; they come back as [`Kind::Paren`] nodes, read
//! off the token stream, so that a lowered expression covers the text it does in the source.

use std::ops::Range;

use ruff_python_ast::token::{Token, TokenKind, Tokens};
use ruff_python_ast::{self as ast, Expr, Number, PySourceType, Stmt, UnaryOp};
use ruff_python_parser::{ParseOptions, parse_unchecked};
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::lang::ir::{
    Arg, ArgKind, Assign, Builder, Call, Class, Comprehension, Container, Entry, For, Function, FunctionKind,
    Generator, Handler, Ident, If, Import, ImportName, Key, Kind, Member, NodeId, Param, ParamKind, Span,
    Tree, Try, With, WithItem,
};

/// Parses a Python module (a notebook cell, with `ipython` set: magics, `!` lines and `?` help
/// are tokens of their own) and lowers it.
pub fn lower(text: &str, ipython: bool) -> Tree {
    let source_type = if ipython {
        PySourceType::Ipynb
    } else {
        PySourceType::Python
    };
    let parsed = parse_unchecked(text, ParseOptions::from(source_type));
    let Some(module) = parsed.syntax().as_module() else {
        return Tree::default();
    };
    let errors = parsed.errors().len();
    lower_part(&module.body, parsed.tokens(), 0..text.len(), errors)
}

/// A notebook's code cells, joined (each cell's range in `text` given), parsed once as one
/// module in IPython mode (magics, `!` lines and `?` help are tokens of their own, not masked
/// text), and lowered cell by cell, each tree in its cell's offsets; with them, when `whole`
/// is set, the module's tree. `None` when the module has a syntax error or a statement runs
/// from one cell into the next: then each cell must be read alone.
pub fn lower_cells(text: &str, cells: &[Range<usize>], whole: bool) -> Option<(Vec<Tree>, Option<Tree>)> {
    let parsed = parse_unchecked(text, ParseOptions::from(PySourceType::Ipynb));
    if !parsed.errors().is_empty() {
        return None;
    }
    let module = parsed.syntax().as_module()?;
    let tokens = parsed.tokens();
    let body = &module.body;
    let mut trees = Vec::with_capacity(cells.len());
    for cell in cells {
        let first = body.partition_point(|s| (s.start().to_usize()) < cell.start);
        let last = body.partition_point(|s| (s.start().to_usize()) < cell.end);
        let statements = &body[first..last];
        if statements.iter().any(|s| s.end().to_usize() > cell.end) {
            return None;
        }
        trees.push(lower_part(statements, tokens, cell.clone(), 0));
    }
    let module = whole.then(|| lower_part(body, tokens, 0..text.len(), 0));
    Some((trees, module))
}

/// Lowers the statements lying in `range` of the parsed text into a tree of that range's
/// offsets, with the tokens there.
fn lower_part(body: &[Stmt], tokens: &Tokens, range: Range<usize>, errors: usize) -> Tree {
    let base = u32::try_from(range.start).unwrap_or(u32::MAX);
    let first = tokens.partition_point(|t| t.start().to_usize() < range.start);
    let last = tokens.partition_point(|t| t.start().to_usize() < range.end);
    let tokens = &tokens[first..last];
    let mut lowering = Lowering {
        b: Builder::new(),
        tokens,
        depth: 0,
        base,
    };
    let comments = tokens
        .iter()
        .filter(|t| t.kind() == TokenKind::Comment)
        .map(|t| lowering.span(t.range()))
        .collect();
    // Strings (an f-string or t-string from its start to its end, whatever it nests) and names.
    let mut strings = Vec::new();
    let mut identifiers = Vec::new();
    let mut depth = 0usize;
    let mut open = 0u32;
    for t in tokens {
        match t.kind() {
            TokenKind::FStringStart | TokenKind::TStringStart => {
                if depth == 0 {
                    open = lowering.at(t.start());
                }
                depth += 1;
            }
            TokenKind::FStringEnd | TokenKind::TStringEnd => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    strings.push(Span {
                        start: open,
                        end: lowering.at(t.end()),
                    });
                }
            }
            TokenKind::String if depth == 0 => strings.push(lowering.span(t.range())),
            TokenKind::Name => identifiers.push(lowering.span(t.range())),
            _ => {}
        }
    }
    let body = lowering.suite(body);
    let mut tree = lowering
        .b
        .finish(body, Span::new(0, range.len()), comments, errors);
    tree.strings = strings;
    tree.identifiers = identifiers;
    tree
}

/// Deeper nesting than this is lowered as an opaque node: the walk must not overflow the stack.
const MAX_DEPTH: usize = 200;

struct Lowering<'a> {
    b: Builder,
    tokens: &'a [Token],
    depth: usize,
    /// Where the lowered text starts in the parsed one (a notebook cell in its module).
    base: u32,
}

impl Lowering<'_> {
    /// A position of the parsed text in the lowered tree's offsets.
    fn at(&self, offset: TextSize) -> u32 {
        offset.to_u32().saturating_sub(self.base)
    }

    fn span(&self, range: TextRange) -> Span {
        Span {
            start: self.at(range.start()),
            end: self.at(range.end()),
        }
    }

    fn ident(&self, id: &ast::Identifier) -> Ident {
        Ident {
            name: id.id.as_str().into(),
            span: self.span(id.range),
        }
    }

    fn import_name(&self, alias: &ast::Alias) -> ImportName {
        ImportName {
            name: self.ident(&alias.name),
            alias: alias.asname.as_ref().map(|i| self.ident(i)),
            span: self.span(alias.range),
        }
    }

    fn suite(&mut self, body: &[Stmt]) -> Vec<NodeId> {
        body.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, stmt: &Stmt) -> NodeId {
        let sp = self.span(stmt.range());
        if self.depth > MAX_DEPTH {
            return self.b.push(Kind::Other(Vec::new()), sp);
        }
        self.depth += 1;
        let kind = match stmt {
            Stmt::FunctionDef(f) => {
                let decorators = f
                    .decorator_list
                    .iter()
                    .map(|d| self.expr(&d.expression))
                    .collect();
                let params = self.parameters(&f.parameters);
                let returns = f.returns.as_deref().map(|r| self.expr(r));
                let body = self.suite(&f.body);
                Kind::Function(Box::new(Function {
                    name: Some(self.ident(&f.name)),
                    params,
                    body,
                    expression: false,
                    is_async: f.is_async,
                    decorators,
                    returns,
                    params_span: self.span(f.parameters.range),
                    kind: FunctionKind::Def,
                }))
            }
            Stmt::ClassDef(c) => {
                let decorators = c
                    .decorator_list
                    .iter()
                    .map(|d| self.expr(&d.expression))
                    .collect();
                let bases = match c.arguments.as_deref() {
                    Some(arguments) => self.arguments(arguments).into_iter().map(|a| a.value).collect(),
                    None => Vec::new(),
                };
                let body = self.suite(&c.body);
                Kind::Class(Box::new(Class {
                    name: Some(self.ident(&c.name)),
                    bases,
                    body,
                    decorators,
                }))
            }
            Stmt::Return(r) => Kind::Return(r.value.as_deref().map(|v| self.expr(v))),
            Stmt::Assign(a) => {
                let targets = a.targets.iter().map(|t| self.expr(t)).collect();
                let value = Some(self.expr(&a.value));
                Kind::Assign(Box::new(Assign {
                    targets,
                    value,
                    annotation: None,
                }))
            }
            Stmt::AnnAssign(a) => {
                let targets = vec![self.expr(&a.target)];
                let annotation = Some(self.expr(&a.annotation));
                let value = a.value.as_deref().map(|v| self.expr(v));
                Kind::Assign(Box::new(Assign {
                    targets,
                    value,
                    annotation,
                }))
            }
            Stmt::AugAssign(a) => {
                let target = self.expr(&a.target);
                let value = self.expr(&a.value);
                Kind::AugAssign { target, value }
            }
            Stmt::For(f) => {
                let target = self.expr(&f.target);
                let iter = self.expr(&f.iter);
                let body = self.suite(&f.body);
                let orelse = self.suite(&f.orelse);
                Kind::For(Box::new(For {
                    target,
                    iter,
                    body,
                    orelse,
                    is_async: f.is_async,
                    keys: false,
                    decl: None,
                }))
            }
            Stmt::While(w) => {
                let test = self.expr(&w.test);
                let body = self.suite(&w.body);
                let orelse = self.suite(&w.orelse);
                Kind::While { test, body, orelse }
            }
            Stmt::If(i) => {
                let test = self.expr(&i.test);
                let body = self.suite(&i.body);
                let orelse = self.elif_else(&i.elif_else_clauses);
                Kind::If(Box::new(If { test, body, orelse }))
            }
            Stmt::With(w) => {
                let items = w
                    .items
                    .iter()
                    .map(|item| WithItem {
                        context: self.expr(&item.context_expr),
                        target: item.optional_vars.as_deref().map(|t| self.expr(t)),
                    })
                    .collect();
                let body = self.suite(&w.body);
                Kind::With(Box::new(With {
                    items,
                    body,
                    is_async: w.is_async,
                }))
            }
            Stmt::Try(t) => {
                let body = self.suite(&t.body);
                let handlers = t
                    .handlers
                    .iter()
                    .map(|h| {
                        let ast::ExceptHandler::ExceptHandler(h) = h;
                        Handler {
                            span: self.span(h.range),
                            types: h.type_.as_deref().map(|e| self.expr(e)),
                            name: h.name.as_ref().map(|i| self.ident(i)),
                            pattern: None,
                            body: self.suite(&h.body),
                        }
                    })
                    .collect();
                let orelse = self.suite(&t.orelse);
                let finally = self.suite(&t.finalbody);
                Kind::Try(Box::new(Try {
                    body,
                    handlers,
                    orelse,
                    finally,
                }))
            }
            Stmt::Raise(r) => Kind::Raise {
                value: r.exc.as_deref().map(|e| self.expr(e)),
                cause: r.cause.as_deref().map(|c| self.expr(c)),
            },
            Stmt::Import(i) => Kind::Import(Box::new(Import {
                module: None,
                level: 0,
                names: i.names.iter().map(|a| self.import_name(a)).collect(),
                type_only: false,
            })),
            Stmt::ImportFrom(i) => Kind::Import(Box::new(Import {
                module: i.module.as_ref().map(|i| self.ident(i)),
                level: i.level,
                names: i.names.iter().map(|a| self.import_name(a)).collect(),
                type_only: false,
            })),
            Stmt::Global(g) => Kind::Global(g.names.iter().map(|i| self.ident(i)).collect()),
            Stmt::Nonlocal(n) => Kind::Global(n.names.iter().map(|i| self.ident(i)).collect()),
            Stmt::Expr(e) => Kind::Expr(self.expr(&e.value)),
            Stmt::Delete(d) => Kind::Other(d.targets.iter().map(|t| self.expr(t)).collect()),
            Stmt::Assert(a) => {
                let mut children = vec![self.expr(&a.test)];
                children.extend(a.msg.as_deref().map(|m| self.expr(m)));
                Kind::Other(children)
            }
            Stmt::Match(m) => {
                let mut children = vec![self.expr(&m.subject)];
                for case in &m.cases {
                    if let Some(guard) = case.guard.as_deref() {
                        children.push(self.expr(guard));
                    }
                    let body = self.suite(&case.body);
                    children.push(self.b.push(Kind::Block(body), self.span(case.range)));
                }
                Kind::Other(children)
            }
            Stmt::TypeAlias(_)
            | Stmt::Pass(_)
            | Stmt::Break(_)
            | Stmt::Continue(_)
            | Stmt::IpyEscapeCommand(_) => Kind::Other(Vec::new()),
        };
        self.depth -= 1;
        self.b.push(kind, sp)
    }

    /// `elif` clauses nest as an `if` alone in the `orelse` of the one before; `else:` is the
    /// last `orelse`.
    fn elif_else(&mut self, clauses: &[ast::ElifElseClause]) -> Vec<NodeId> {
        let Some((first, rest)) = clauses.split_first() else {
            return Vec::new();
        };
        let body = self.suite(&first.body);
        match &first.test {
            None => body,
            Some(test) => {
                let test = self.expr(test);
                let orelse = self.elif_else(rest);
                let end = rest.last().map_or(first.range.end(), |c| c.range.end());
                let sp = Span {
                    start: self.at(first.range.start()),
                    end: self.at(end),
                };
                vec![self.b.push(Kind::If(Box::new(If { test, body, orelse })), sp)]
            }
        }
    }

    fn parameters(&mut self, params: &ast::Parameters) -> Vec<Param> {
        let mut out = Vec::new();
        for p in params.posonlyargs.iter().chain(&params.args) {
            out.push(self.parameter(&p.parameter, p.default.as_deref(), ParamKind::Plain, p.range));
        }
        if let Some(p) = params.vararg.as_deref() {
            out.push(self.parameter(p, None, ParamKind::Rest, p.range));
        }
        for p in &params.kwonlyargs {
            out.push(self.parameter(&p.parameter, p.default.as_deref(), ParamKind::Plain, p.range));
        }
        if let Some(p) = params.kwarg.as_deref() {
            out.push(self.parameter(p, None, ParamKind::KeywordRest, p.range));
        }
        out.sort_by_key(|p| p.span.start);
        out
    }

    fn parameter(
        &mut self,
        p: &ast::Parameter,
        default: Option<&Expr>,
        kind: ParamKind,
        range: TextRange,
    ) -> Param {
        Param {
            name: Some(self.ident(&p.name)),
            pattern: None,
            annotation: p.annotation.as_deref().map(|a| self.expr(a)),
            default: default.map(|d| self.expr(d)),
            kind,
            span: self.span(range),
        }
    }

    /// A call's arguments in source order; each positional argument with its parentheses.
    fn arguments(&mut self, arguments: &ast::Arguments) -> Vec<Arg> {
        let close = self.at(arguments.range.end()).saturating_sub(1);
        let mut out = Vec::new();
        for item in arguments.iter_source_order() {
            match item {
                ast::ArgOrKeyword::Arg(Expr::Starred(s)) => {
                    let value = self.expr(&s.value);
                    out.push(Arg {
                        kind: ArgKind::Spread,
                        span: self.span(s.range),
                        value,
                    });
                }
                ast::ArgOrKeyword::Arg(e) => {
                    let value = self.expr_within(e, close);
                    out.push(Arg {
                        kind: ArgKind::Positional,
                        span: self.b.span(value),
                        value,
                    });
                }
                ast::ArgOrKeyword::Keyword(k) => {
                    let value = self.expr_within(&k.value, close);
                    let kind = match &k.arg {
                        Some(name) => ArgKind::Keyword(self.ident(name)),
                        None => ArgKind::KeywordSpread,
                    };
                    out.push(Arg {
                        kind,
                        span: self.span(k.range),
                        value,
                    });
                }
            }
        }
        out
    }

    fn expr(&mut self, e: &Expr) -> NodeId {
        self.expr_within(e, u32::MAX)
    }

    /// An expression with the parentheses around it that close before `limit` (the closing
    /// parenthesis of the call it is an argument of belongs to the call).
    fn expr_within(&mut self, e: &Expr, limit: u32) -> NodeId {
        let mut id = self.bare(e);
        let mut sp = self.span(e.range());
        while let Some(outer) = self.parens_around(sp, limit) {
            id = self.b.push(Kind::Paren(id), outer);
            sp = outer;
        }
        id
    }

    /// The parentheses right around `sp`, when there are (comments and line breaks between).
    fn parens_around(&self, sp: Span, limit: u32) -> Option<Span> {
        let tokens = self.tokens;
        let after = tokens.partition_point(|t| self.at(t.start()) < sp.end);
        let close = tokens[after..].iter().find(|t| !t.kind().is_trivia())?;
        if close.kind() != TokenKind::Rpar || self.at(close.end()) > limit {
            return None;
        }
        let before = tokens.partition_point(|t| self.at(t.end()) <= sp.start);
        let open = tokens[..before].iter().rev().find(|t| !t.kind().is_trivia())?;
        (open.kind() == TokenKind::Lpar).then(|| Span {
            start: self.at(open.start()),
            end: self.at(close.end()),
        })
    }

    fn bare(&mut self, e: &Expr) -> NodeId {
        let sp = self.span(e.range());
        if self.depth > MAX_DEPTH {
            return self.b.push(Kind::Other(Vec::new()), sp);
        }
        self.depth += 1;
        let kind = match e {
            Expr::Name(n) => Kind::Name(n.id.as_str().into()),
            Expr::StringLiteral(s) if s.value.is_implicit_concatenated() => Kind::Other(Vec::new()),
            Expr::StringLiteral(s) => Kind::Str(s.value.to_str().into()),
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => Kind::Int(i.as_i64()),
                _ => Kind::Number,
            },
            Expr::BooleanLiteral(b) => Kind::Bool(b.value),
            Expr::NoneLiteral(_) => Kind::Null,
            Expr::Call(c) => {
                let callee = self.expr(&c.func);
                let args = self.arguments(&c.arguments);
                let bare_generator = matches!(
                    (&*c.arguments.args, &*c.arguments.keywords),
                    ([Expr::Generator(g)], []) if !g.parenthesized
                );
                Kind::Call(Box::new(Call {
                    callee,
                    args,
                    parens: self.span(c.arguments.range),
                    new: false,
                    optional: false,
                    bare_generator,
                }))
            }
            Expr::Attribute(a) => Kind::Member(Box::new(Member {
                object: self.expr(&a.value),
                name: self.ident(&a.attr),
                optional: false,
            })),
            Expr::Subscript(s) => {
                let object = self.expr(&s.value);
                let index = self.expr(&s.slice);
                Kind::Index { object, index }
            }
            Expr::Dict(d) => {
                let items = d.items.iter().map(|item| self.dict_item(item)).collect();
                Kind::Dict(Box::new(Container {
                    items,
                    inner: sp.inner(),
                }))
            }
            Expr::List(l) => Kind::List(Box::new(self.container(&l.elts, sp))),
            Expr::Tuple(t) => {
                let inner = if t.parenthesized { sp.inner() } else { sp };
                let items = t.elts.iter().map(|x| self.expr(x)).collect();
                Kind::Tuple(Box::new(Container { items, inner }))
            }
            Expr::Await(a) => Kind::Await(self.expr(&a.value)),
            Expr::UnaryOp(u) if u.op == UnaryOp::USub => Kind::Negative(self.expr(&u.operand)),
            Expr::UnaryOp(u) => Kind::Other(vec![self.expr(&u.operand)]),
            Expr::Starred(s) => Kind::Spread {
                value: self.expr(&s.value),
                double: false,
            },
            Expr::Lambda(l) => {
                let params = match l.parameters.as_deref() {
                    Some(p) => self.parameters(p),
                    None => Vec::new(),
                };
                let params_span = l
                    .parameters
                    .as_deref()
                    .map_or(Span::default(), |p| self.span(p.range));
                let body = vec![self.expr(&l.body)];
                Kind::Function(Box::new(Function {
                    name: None,
                    params,
                    body,
                    expression: true,
                    is_async: false,
                    decorators: Vec::new(),
                    returns: None,
                    params_span,
                    kind: FunctionKind::Lambda,
                }))
            }
            Expr::Named(n) => {
                let target = self.expr(&n.target);
                let value = self.expr(&n.value);
                Kind::AssignExpr { target, value }
            }
            Expr::If(i) => {
                let then = self.expr(&i.body);
                let test = self.expr(&i.test);
                let otherwise = self.expr(&i.orelse);
                Kind::Conditional {
                    test,
                    then,
                    otherwise,
                }
            }
            Expr::Set(x) => Kind::Set(Box::new(self.container(&x.elts, sp))),
            Expr::BinOp(b) => {
                let left = self.expr(&b.left);
                let right = self.expr(&b.right);
                Kind::Binary {
                    plus: b.op == ast::Operator::Add,
                    left,
                    right,
                }
            }
            Expr::ListComp(c) => self.comprehension(&[&c.elt], &c.generators, true),
            Expr::Generator(c) => self.comprehension(&[&c.elt], &c.generators, true),
            Expr::SetComp(c) => self.comprehension(&[&c.elt], &c.generators, false),
            Expr::DictComp(c) => {
                let mut elements: Vec<&Expr> = c.key.as_deref().into_iter().collect();
                elements.push(&c.value);
                self.comprehension(&elements, &c.generators, false)
            }
            Expr::BoolOp(b) => Kind::Logical(b.values.iter().map(|v| self.expr(v)).collect()),
            Expr::FString(f) => {
                let mut parts = Vec::new();
                for element in f.value.elements() {
                    if let ast::InterpolatedStringElement::Interpolation(i) = element {
                        parts.push(self.expr(&i.expression));
                    }
                }
                Kind::Template(parts)
            }
            other => {
                let mut children = Vec::new();
                let mut collect = ChildExprs(Vec::new());
                ast::visitor::source_order::walk_expr(&mut collect, other);
                for child in collect.0 {
                    children.push(self.expr(child));
                }
                Kind::Other(children)
            }
        };
        self.depth -= 1;
        self.b.push(kind, sp)
    }

    fn comprehension(
        &mut self,
        elements: &[&Expr],
        generators: &[ast::Comprehension],
        sequence: bool,
    ) -> Kind {
        // Source order: the element first, then each clause.
        let elements = elements.iter().map(|e| self.expr(e)).collect();
        let generators = generators
            .iter()
            .map(|g| {
                let target = self.expr(&g.target);
                let iter = self.expr(&g.iter);
                let ifs = g.ifs.iter().map(|i| self.expr(i)).collect();
                Generator { target, iter, ifs }
            })
            .collect();
        Kind::Comprehension(Box::new(Comprehension {
            elements,
            generators,
            sequence,
        }))
    }

    fn container(&mut self, elts: &[Expr], sp: Span) -> Container<NodeId> {
        Container {
            items: elts.iter().map(|x| self.expr(x)).collect(),
            inner: sp.inner(),
        }
    }

    fn dict_item(&mut self, item: &ast::DictItem) -> Entry {
        let value = self.expr(&item.value);
        let value_span = self.b.span(value);
        match &item.key {
            None => {
                // `**x`: the entry starts at the `**`.
                let start = self.double_star_before(value_span.start);
                Entry {
                    key: Key::Spread,
                    span: Span {
                        start,
                        end: value_span.end,
                    },
                    value,
                }
            }
            Some(key) => {
                let key_node = self.expr(key);
                let key_span = self.b.span(key_node);
                let key = match self.b.kind(key_node) {
                    Kind::Str(s) => Key::Str(Ident {
                        name: s.clone(),
                        span: key_span,
                    }),
                    _ => Key::Computed(key_node),
                };
                Entry {
                    key,
                    span: Span {
                        start: key_span.start,
                        end: value_span.end,
                    },
                    value,
                }
            }
        }
    }

    fn double_star_before(&self, offset: u32) -> u32 {
        let tokens = self.tokens;
        let before = tokens.partition_point(|t| self.at(t.end()) <= offset);
        tokens[..before]
            .iter()
            .rev()
            .find(|t| !t.kind().is_trivia())
            .filter(|t| t.kind() == TokenKind::DoubleStar)
            .map_or(offset, |t| self.at(t.start()))
    }
}

/// The direct child expressions of an expression the lowering does not model.
struct ChildExprs<'a>(Vec<&'a Expr>);

impl<'a> ast::visitor::source_order::SourceOrderVisitor<'a> for ChildExprs<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        self.0.push(expr);
    }

    fn visit_stmt(&mut self, _: &'a Stmt) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(tree: &Tree) -> Vec<String> {
        tree.descendants(tree.root())
            .into_iter()
            .map(|id| {
                let k = format!("{:?}", tree.kind(id));
                let k = k.split(['(', ' ', '{']).next().unwrap_or_default().to_string();
                format!("{k}@{:?}", tree.range(id))
            })
            .collect()
    }

    #[test]
    fn parentheses_come_back_as_nodes() {
        let text = "f((x), (y := 1), z)\n";
        let tree = lower(text, false);
        let k = kinds(&tree);
        assert!(k.contains(&"Paren@2..5".to_string()), "{k:?}");
        assert!(k.contains(&"Name@3..4".to_string()), "{k:?}");
        assert!(k.contains(&"Paren@7..15".to_string()), "{k:?}");
        // The call's own parentheses are not the argument's.
        assert!(!k.iter().any(|s| s.starts_with("Paren@17")), "{k:?}");
    }

    #[test]
    fn keyword_arguments_and_dicts_keep_their_ranges() {
        let text = "client.models.generate_content(model='m', config={'a': 1, **rest})\n";
        let tree = lower(text, false);
        let call = tree
            .descendants(0)
            .into_iter()
            .find_map(|id| match tree.kind(id) {
                Kind::Call(c) => Some(c),
                _ => None,
            })
            .expect("a call");
        assert_eq!(
            tree.dotted(call.callee).as_deref(),
            Some("client.models.generate_content")
        );
        let spans: Vec<_> = call.args.iter().map(|a| &text[a.span.range()]).collect();
        assert_eq!(spans, ["model='m'", "config={'a': 1, **rest}"]);
        let Kind::Dict(dict) = tree.kind(call.args[1].value) else {
            panic!("a dict");
        };
        let entries: Vec<_> = dict.items.iter().map(|e| &text[e.span.range()]).collect();
        assert_eq!(entries, ["'a': 1", "**rest"]);
        assert_eq!(&text[dict.inner.range()], "'a': 1, **rest");
    }

    #[test]
    fn a_bare_generator_argument_is_marked() {
        let bare = |text: &str| {
            let tree = lower(text, false);
            tree.nodes
                .iter()
                .any(|n| matches!(&n.kind, Kind::Call(c) if c.bare_generator))
        };
        assert!(bare("f(x for x in y)\n"));
        assert!(!bare("f((x for x in y))\n"));
        assert!(!bare("f([x for x in y])\n"));
        assert!(!bare("f(a, (x for x in y))\n"));
        assert!(!bare("f(a)\n"));
    }

    #[test]
    fn comments_and_errors_come_from_the_parser() {
        let tree = lower("x = 1  # one\n# two\n", false);
        assert_eq!(tree.comments.len(), 2);
        assert_eq!(tree.errors, 0);
        assert!(lower("f(a=1, a=2)\n", false).errors > 0 || lower("f(x, , y)\n", false).errors > 0);
        assert!(lower("f(x, , y)\n", false).errors > 0);
    }

    #[test]
    fn a_raise_keeps_its_cause() {
        let text = "try:\n    f()\nexcept E as e:\n    raise Other('x') from e\n";
        let tree = lower(text, false);
        let (value, cause) = tree
            .nodes
            .iter()
            .find_map(|n| match n.kind {
                Kind::Raise { value, cause } => Some((value, cause)),
                _ => None,
            })
            .expect("a raise");
        assert_eq!(value.map(|v| &text[tree.range(v)]), Some("Other('x')"));
        assert_eq!(cause.and_then(|c| tree.name(c)), Some("e"));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let text = format!("x = {}1{}\n", "[".repeat(5000), "]".repeat(5000));
        let tree = lower(&text, false);
        assert!(tree.nodes.len() > 1);
    }
}
