//! MIG008 typed-wrapper: typed wrapper objects where the interactions endpoint takes plain ones.

use crate::clients::Packages;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::lang::{Document, Syntax, ir};
use crate::migration_facts::{CallKind, Wrapper, WrapperKind};
use crate::registry::{FixAvailability, Rule, RuleContext, RuleMeta};
use crate::tables::Tables;

use crate::codegen::writer::Dialect;

pub struct TypedWrapper;

static META: RuleMeta = RuleMeta {
    code: "MIG008",
    name: "typed-wrapper",
    summary: "Typed wrapper objects (`types.GenerateContentConfig(...)`, `types.Part(...)`, `createPartFromText(...)`, `Type.STRING`) instead of plain ones",
    surfaces: "Python, notebooks, JavaScript, TypeScript",
    fix: FixAvailability::Sometimes,
    fix_safety: "unsafe",
    doc: include_str!("../../rules/docs/MIG008.md"),
};

/// Factories whose keyword arguments are the fields of the plain object they build.
const FIELD_FACTORIES: &[&str] = &["Part.from_text"];

impl Rule for TypedWrapper {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn triggers(&self, settings: &Tables) -> Vec<String> {
        // A wrapper is reported where the client is imported, where it goes into a request, and
        // (a request type) wherever it is built: a snippet may use `types` without its import.
        let mut words: Vec<String> = ["genai", "generative-ai", "generate_content", "generateContent"]
            .map(String::from)
            .to_vec();
        for packages in [&settings.clients.python, &settings.clients.javascript] {
            words.extend(packages.request_types.iter().cloned());
        }
        words
    }

    fn anchors(&self, settings: &Tables) -> Option<Vec<String>> {
        super::mig::anchors(settings)
    }

    fn check(&self, doc: &Document, cx: &mut RuleContext) {
        let dialect = Dialect::of(doc);
        let facts = doc.facts();
        let clients = &cx.settings.clients;
        let packages = match dialect {
            Dialect::Python => &clients.python,
            Dialect::JavaScript => &clients.javascript,
            Dialect::Json => return,
        };
        let class_of = |name: &str| name.split('.').next().unwrap_or_default().to_string();
        let is_request_type = |name: &str| packages.request_types.contains(&class_of(name));
        // Whether each create-content request migrates, asked once per call.
        let mut migrates: std::collections::HashMap<std::ops::Range<usize>, Result<(), String>> =
            std::collections::HashMap::new();
        let mut outcomes = Vec::with_capacity(facts.wrappers.len());
        for wrapper in &facts.wrappers {
            let class = class_of(&wrapper.name);
            if !packages.typed_wrappers.contains(&class) {
                outcomes.push(Outcome::Unreported(format!(
                    "`{class}` is not among the typed wrappers interlint writes as dicts"
                )));
                continue;
            }
            // A wrapper that does not go into a request serves another API (an agent
            // framework's runner, the Live API, a mocked response): a dict would break it.
            if !facts.wrapper_reaches_request(wrapper, &is_request_type) {
                outcomes.push(Outcome::Unreported(
                    "it goes elsewhere than into a request".into(),
                ));
                continue;
            }
            if let Some(module) = &wrapper.module
                && !is_client_module(&clients.javascript, module)
            {
                outcomes.push(Outcome::Unreported("it is not of a client package".into()));
                continue;
            }
            let callee = doc.text.get(wrapper.callee.clone()).unwrap_or_default();
            let message = match wrapper.kind {
                WrapperKind::Enum => format!(
                    "`{callee}` is a typed enum of the client; the interactions endpoint takes plain values"
                ),
                _ => format!(
                    "`{callee}(...)` builds a typed wrapper; the interactions endpoint takes plain objects"
                ),
            };
            let diagnostic = Diagnostic::new(&META, Severity::Error, message, wrapper.callee.clone());
            // A notebook's cells are one module: a wrapper bound to a name another cell reads
            // as an object (`config.tool_config = ...`) is seen so only there.
            let object = wrapper.object
                || doc.module.as_ref().is_some_and(|(module, base)| {
                    let range = wrapper.range.start + base..wrapper.range.end + base;
                    module
                        .doc
                        .facts()
                        .wrappers
                        .iter()
                        .any(|w| w.range == range && w.object)
                });
            let fix = match dialect {
                Dialect::Python if object => None,
                Dialect::Python | Dialect::Json => python_fix(wrapper, dialect, packages),
                Dialect::JavaScript => wrapper.literal.as_ref().map(|literal| {
                    Fix::new(
                        Applicability::Unsafe,
                        "Replace with the object literal",
                        vec![
                            Edit::replace(wrapper.range.start..literal.start, ""),
                            Edit::replace(literal.end..wrapper.range.end, ""),
                        ],
                    )
                }),
            };
            // A plain object serves the interactions request the call becomes. In a request
            // that stays as it is, an object built apart and bound to a name is better left
            // typed: as a dict its name's type is a plain dict, which the client's typed
            // parameters refuse (pyright, tsc). One written in the call is checked against the
            // parameter as it stands, and becoming plain can let the request migrate next pass.
            let unmigrated = fix.as_ref().and_then(|_| {
                let requests = facts.wrapper_requests(wrapper).filter(|r| !r.is_empty())?;
                if requests
                    .iter()
                    .any(|r| r.start <= wrapper.range.start && wrapper.range.end <= r.end)
                {
                    return None;
                }
                let mut reason = None;
                for range in requests {
                    let call = facts.calls.iter().find(|c| c.range == range)?;
                    let stream = match call.kind {
                        CallKind::Create => false,
                        CallKind::CreateStream => true,
                        _ => return None,
                    };
                    let outcome = migrates
                        .entry(range)
                        .or_insert_with(|| super::mig::rewrite_found_call(call, doc, cx, stream).map(|_| ()));
                    match outcome {
                        Ok(()) => return None,
                        Err(why) => {
                            reason.get_or_insert_with(|| why.clone());
                        }
                    }
                }
                reason
            });
            // A wrapper an annotation declares as its class (a function's return, a parameter
            // it is passed to) stays that type: as a dict it no longer is what the annotation
            // says (pyright, tsc). The wrappers inside it stay typed with it (its nest, below).
            let declared = fix.as_ref().and_then(|_| declared_as(doc, wrapper, &class));
            // Nor can a Python dict hold a typed object (a parameter annotated as one); a
            // TypeScript object literal can (its types are structural).
            let holds_typed = fix
                .as_ref()
                .filter(|_| dialect == Dialect::Python)
                .and_then(|_| holds_typed_parameter(doc, wrapper, &packages.typed_wrappers));
            let left = match (fix, wrapper.kind) {
                (Some(_), _) if let Some(place) = declared => diagnostic.with_blocked(
                    "Write the object as a plain dict with the same fields, with the annotation that names its class",
                    place,
                ),
                (Some(_), _) if let Some(held) = holds_typed => diagnostic.with_blocked(
                    "Write the object as a plain dict with the same fields once what it holds is plain too",
                    held,
                ),
                (Some(_), _) if let Some(reason) = unmigrated => diagnostic.with_blocked(
                    "Write the object as a plain dict with the same fields when its request is migrated",
                    format!("its request is not rewritten ({reason})"),
                ),
                (Some(fix), _) => {
                    outcomes.push(Outcome::Plain(diagnostic, fix));
                    continue;
                }
                (None, _) if object => diagnostic.with_blocked(
                    "Write the object as a plain dict with the same fields",
                    "it is bound to a name whose attributes are read or set, which a dict does not have",
                ),
                (None, WrapperKind::Enum) => diagnostic.with_suggestion(
                    "Write the plain value (a string) the request field takes instead of the enum member",
                ),
                (None, WrapperKind::Factory) if dialect == Dialect::JavaScript => diagnostic.with_blocked(
                    "Write the object the helper builds as a plain object literal",
                    "the helper's output shape depends on its arguments",
                ),
                (None, _) => diagnostic.with_blocked(
                    "Write the object as a plain dict with the same fields",
                    "the arguments are not all keywords, or the factory builds a nested shape",
                ),
            };
            outcomes.push(Outcome::Left(left));
        }
        // Python's typed wrappers take typed fields and its dicts plain ones (the client's
        // `...Dict` types, as pyright reads them): a nest of wrappers is written as dicts
        // together, or stays typed together. TypeScript's types are structural: an object
        // literal is what a wrapper's field takes.
        if dialect == Dialect::Python {
            keep_nests_together(doc, &mut outcomes);
        }
        for outcome in outcomes {
            match outcome {
                Outcome::Unreported(_) => {}
                Outcome::Left(diagnostic) => cx.report(diagnostic),
                Outcome::Plain(diagnostic, fix) => cx.report(diagnostic.with_fix(fix)),
            }
        }
        // In a notebook other cells may use the import: leave it. A module that makes no
        // request (a package's `__init__`, a test of its imports) keeps it for other reasons.
        let makes_requests = facts
            .calls
            .iter()
            .any(|c| !matches!(c.kind, CallKind::Rest { .. }));
        if doc.cell.is_some() || !makes_requests {
            return;
        }
        for import in &facts.imports {
            let Some(types) = import.types.as_ref().filter(|t| !t.used) else {
                continue;
            };
            let written = doc.text.get(types.name_range.clone()).unwrap_or_default();
            let message = format!("`{written}` (typed wrappers) is imported but no longer used");
            let fix = Fix::new(
                Applicability::Unsafe,
                "Remove the unused import",
                vec![Edit::replace(types.removal.clone(), "")],
            );
            cx.report(
                Diagnostic::new(&META, Severity::Warning, message, types.name_range.clone()).with_fix(fix),
            );
        }
    }
}

/// What the rule makes of one wrapper, before its nest is looked at.
enum Outcome {
    /// Not reported (it goes elsewhere, or is not a listed wrapper), so it stays typed: why.
    Unreported(String),
    /// Reported, and left typed (a suggestion says why).
    Left(Diagnostic),
    /// Reported, and written as a plain object by the fix.
    Plain(Diagnostic, Fix),
}

impl Outcome {
    /// Why the wrapper stays typed, when it does.
    fn stays_typed(&self) -> Option<String> {
        match self {
            Outcome::Unreported(reason) => Some(reason.clone()),
            Outcome::Left(diagnostic) => Some(
                diagnostic
                    .reason
                    .clone()
                    .unwrap_or_else(|| "it has no plain form here".to_string()),
            ),
            Outcome::Plain(..) => None,
        }
    }
}

/// A wrapper to be made plain stays typed when a wrapper of its nest (`doc.facts().wrappers`
/// and `outcomes` by index; the nest as the notebook's module reads it, across cells) stays
/// typed: a plain dict inside a typed wrapper, or a typed wrapper inside a plain dict, is not
/// what the client's types take.
fn keep_nests_together(doc: &Document, outcomes: &mut [Outcome]) {
    let wrappers = &doc.facts().wrappers;
    let (module, text, base) = match &doc.module {
        Some((module, base)) => (module.doc.facts(), &module.doc.text, *base),
        None => (doc.facts(), &doc.text, 0),
    };
    let nests = module.wrapper_nests();
    let local = base..base + doc.text.len();
    // Why each wrapper of the module stays typed, if it does: a wrapper of another cell is not
    // known to be made plain.
    let stays: Vec<Option<String>> = module
        .wrappers
        .iter()
        .map(|w| {
            if !(local.start <= w.range.start && w.range.end <= local.end) {
                return Some("it is built in another cell".to_string());
            }
            let range = w.range.start - base..w.range.end - base;
            match wrappers.iter().position(|own| own.range == range) {
                Some(i) => outcomes.get(i).and_then(Outcome::stays_typed),
                None => Some("it is not followed".to_string()),
            }
        })
        .collect();
    // The wrappers to be made plain, by nest.
    let mut plain: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, wrapper) in wrappers.iter().enumerate() {
        let range = wrapper.range.start + base..wrapper.range.end + base;
        let Some(at) = module.wrappers.iter().position(|w| w.range == range) else {
            continue;
        };
        let typed = module.wrappers.iter().enumerate().find_map(|(k, other)| {
            let nested = k != at && nests.get(k) == nests.get(at);
            Some((other, stays.get(k).cloned().flatten().filter(|_| nested)?))
        });
        match (outcomes.get(i), typed) {
            (Some(Outcome::Plain(..)), None) => {
                if let Some(&nest) = nests.get(at) {
                    plain.entry(nest).or_default().push(i);
                }
            }
            (Some(Outcome::Plain(diagnostic, _)), Some((other, why))) => {
                let callee = text.get(other.callee.clone()).unwrap_or_default();
                let diagnostic = diagnostic.clone().with_blocked(
                    "Write the object and the wrappers nested with it as plain dicts together (a typed wrapper takes typed fields, a dict plain ones)",
                    format!("it is nested with `{callee}(...)`, which stays typed: {why}"),
                );
                outcomes[i] = Outcome::Left(diagnostic);
            }
            _ => {}
        }
    }
    // A nest is made plain at once: each of its wrappers' findings carries one fix with all
    // their edits (applied once). Made plain one by one, the outer one first, the inner ones
    // could be followed no further (a dict passed to a function's parameter) and stay typed.
    for members in plain.values().filter(|m| m.len() > 1) {
        let edits: Vec<Edit> = members
            .iter()
            .filter_map(|&i| match outcomes.get(i) {
                Some(Outcome::Plain(_, fix)) => Some(fix.edits.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        let fix = Fix::new(
            Applicability::Unsafe,
            "Replace with plain dicts, the wrappers nested with it too",
            edits,
        );
        for &i in members {
            if let Some(Outcome::Plain(_, own)) = outcomes.get_mut(i) {
                *own = fix.clone();
            }
        }
    }
}

/// Where an annotation names the wrapper's class for its value, directly or through the name it
/// is bound to (`CONFIG = types.GenerateContentConfig(...)`): as a dict it would no longer be what
/// the annotation says (pyright, tsc). Says where, as the reason the wrapper stays typed.
fn declared_as(doc: &Document, wrapper: &Wrapper, class: &str) -> Option<String> {
    // A notebook's cells are one module: the function may be defined in another cell.
    let (doc, base) = match &doc.module {
        Some((module, base)) => (&module.doc, *base),
        None => (doc, 0),
    };
    let Syntax::Lowered(tree) = &doc.syntax else {
        return None;
    };
    let range = wrapper.range.start + base..wrapper.range.end + base;
    let node = tree
        .nodes
        .iter()
        .position(|n| n.span.range() == range && matches!(n.kind, ir::Kind::Call(_)))?
        as ir::NodeId;
    if let Some(place) = annotated_place(doc, tree, node, class) {
        return Some(format!("it {place}"));
    }
    let assignment = tree.parent(node)?;
    let ir::Kind::Assign(assign) = tree.kind(assignment) else {
        return None;
    };
    let [target] = assign.targets.as_slice() else {
        return None;
    };
    let name = tree.name(*target).filter(|_| assign.value == Some(node))?;
    (0..tree.nodes.len())
        .filter_map(|n| ir::NodeId::try_from(n).ok())
        .filter(|&n| n != *target && tree.name(n) == Some(name))
        .find_map(|n| annotated_place(doc, tree, n, class))
        .map(|place| format!("it is bound to `{name}`, which {place}"))
}

/// A parameter of a function around the wrapper, read in its arguments, whose annotation names a
/// typed wrapper class (`image: types.Part`): a dict holding it would hold a typed object, which
/// the client's dict types refuse. Says which, as the reason the wrapper stays typed.
fn holds_typed_parameter(doc: &Document, wrapper: &Wrapper, classes: &[String]) -> Option<String> {
    let Syntax::Lowered(tree) = &doc.syntax else {
        return None;
    };
    let node = tree
        .nodes
        .iter()
        .position(|n| n.span.range() == wrapper.range && matches!(n.kind, ir::Kind::Call(_)))?
        as ir::NodeId;
    // The typed parameters of the functions around the wrapper, innermost first.
    let mut typed: Vec<(&str, &str)> = Vec::new();
    let mut up = node;
    while let Some(parent) = tree.parent(up) {
        if let ir::Kind::Function(function) = tree.kind(parent) {
            for param in &function.params {
                let (Some(name), Some(annotation)) = (&param.name, param.annotation) else {
                    continue;
                };
                let written = doc.text.get(tree.range(annotation)).unwrap_or_default();
                let names_wrapper = written
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|word| classes.iter().any(|c| c == word));
                if names_wrapper && !typed.iter().any(|(n, _)| *n == &*name.name) {
                    typed.push((&name.name, written));
                }
            }
        }
        up = parent;
    }
    let ir::Kind::Call(call) = tree.kind(node) else {
        return None;
    };
    let mut stack: Vec<ir::NodeId> = call.args.iter().map(|a| a.value).collect();
    while let Some(at) = stack.pop() {
        if let Some((name, annotation)) = tree
            .name(at)
            .and_then(|read| typed.iter().find(|(name, _)| *name == read))
        {
            return Some(format!("it holds `{name}`, a parameter annotated `{annotation}`"));
        }
        // What a nested lambda or function reads is not the wrapper's field.
        if !matches!(tree.kind(at), ir::Kind::Function(_)) {
            tree.each_child(at, &mut |child| stack.push(child));
        }
    }
    None
}

/// Whether the value at `node` goes where an annotation names `class`: returned by a function
/// whose return annotation names it, passed to (or the default of) a parameter of a function of
/// the document annotated so, or assigned to a name annotated so. Says where (`is returned by
/// ...`).
fn annotated_place(doc: &Document, tree: &ir::Tree, node: ir::NodeId, class: &str) -> Option<String> {
    let names_class = |annotation: ir::NodeId| {
        doc.text
            .get(tree.range(annotation))
            .unwrap_or_default()
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == class)
    };
    let mut at = node;
    loop {
        let parent = tree.parent(at)?;
        match tree.kind(parent) {
            ir::Kind::Paren(_) | ir::Kind::Await(_) => at = parent,
            ir::Kind::Return(_) => {
                let mut up = parent;
                let function = loop {
                    up = tree.parent(up)?;
                    if let ir::Kind::Function(function) = tree.kind(up) {
                        break function;
                    }
                };
                let name = function
                    .name
                    .as_ref()
                    .map_or_else(|| "the function".to_string(), |n| n.name.to_string());
                return function
                    .returns
                    .filter(|&r| names_class(r))
                    .map(|_| format!("is returned by `{name}`, whose return type names `{class}`"));
            }
            ir::Kind::Assign(assign) if assign.value == Some(at) => {
                let target = assign.targets.first().and_then(|&t| tree.name(t))?;
                return assign
                    .annotation
                    .filter(|&a| names_class(a))
                    .map(|_| format!("is assigned to `{target}`, whose annotation names `{class}`"));
            }
            ir::Kind::Function(function) => {
                let param = function.params.iter().find(|p| p.default == Some(at))?;
                let name = param.name.as_ref()?;
                return param.annotation.filter(|&a| names_class(a)).map(|_| {
                    format!(
                        "is the default of the parameter `{}`, whose annotation names `{class}`",
                        name.name
                    )
                });
            }
            ir::Kind::Call(call) => {
                let index = call.args.iter().position(|a| a.value == at)?;
                let callee = tree.name(call.callee)?;
                let mut defined = tree.nodes.iter().filter_map(|n| match &n.kind {
                    ir::Kind::Function(f)
                        if f.kind == ir::FunctionKind::Def
                            && f.name.as_ref().is_some_and(|n| &*n.name == callee) =>
                    {
                        Some(f)
                    }
                    _ => None,
                });
                let function = defined.next().filter(|_| defined.next().is_none())?;
                let param = match &call.args.get(index)?.kind {
                    ir::ArgKind::Keyword(keyword) => function
                        .params
                        .iter()
                        .find(|p| p.name.as_ref().is_some_and(|n| n.name == keyword.name)),
                    ir::ArgKind::Positional
                        if call.args[..index]
                            .iter()
                            .all(|a| a.kind == ir::ArgKind::Positional) =>
                    {
                        function.params.get(index)
                    }
                    _ => None,
                }?;
                let name = param.name.as_ref()?;
                return param.annotation.filter(|&a| names_class(a)).map(|_| {
                    format!(
                        "is passed to `{callee}` as `{}`, whose annotation names `{class}`",
                        name.name
                    )
                });
            }
            _ => return None,
        }
    }
}

/// A keyword-only constructor (or a field factory) as a plain dict.
fn python_fix(wrapper: &Wrapper, dialect: Dialect, packages: &Packages) -> Option<Fix> {
    let plain = !wrapper.name.contains('.') || FIELD_FACTORIES.contains(&wrapper.name.as_str());
    let map = wrapper.map.as_ref().filter(|_| plain)?;
    // What the class sets by itself (`UserContent`'s role) goes first, unless written.
    let mut open = String::from("{");
    let implied = packages.implied_fields.get(&wrapper.name).into_iter().flatten();
    let implied: Vec<String> = implied
        .filter(|(key, _)| !map.entries.iter().any(|e| &e.key == *key))
        .map(|(key, value)| format!("{}: {}", dialect.string(key), dialect.string(value)))
        .collect();
    if !implied.is_empty() {
        open.push_str(&implied.join(", "));
        if !map.entries.is_empty() {
            open.push_str(", ");
        }
    }
    let mut edits = vec![Edit::replace(wrapper.callee.start..wrapper.open.end, open)];
    for entry in &map.entries {
        edits.push(Edit::replace(
            entry.key_range.start..entry.value.range.start,
            format!("{}: ", dialect.string(&entry.key)),
        ));
    }
    edits.push(Edit::replace(wrapper.close.clone(), "}"));
    Some(Fix::new(
        Applicability::Unsafe,
        "Replace with a plain dict",
        edits,
    ))
}

/// A JavaScript package path of a client package (`@google/generative-ai/server` included).
fn is_client_module(packages: &Packages, module: &str) -> bool {
    packages
        .current
        .iter()
        .chain(&packages.legacy)
        .chain(&packages.legacy_modules)
        .any(|p| {
            module == p
                || module
                    .strip_prefix(p.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
}
