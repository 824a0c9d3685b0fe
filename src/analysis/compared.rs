//! The string literals a test compares against, in the shared form: a string within an
//! assertion, at any depth of its expression short of a function's body (an arrow function's
//! or a lambda's expression body is part of the expression): Python's `assert`
//! statement, an argument of an assertion call named in the `[tests]` table of
//! `rules/models.toml` (by its last name: `self.assertEqual`, `expect(x).toBe`, `expect`,
//! `assert.equal`), or an operand of a comparison (`==`, `!=`, `===`, `!==`, `in`, `not in`,
//! `is`, `is not`). So `assert m == "x"`, `expect(body).toEqual({ model: "x" })` and
//! `expect(isNewest("x")).toBe(false)` all compare against `x`: what the test checks depends on
//! it.

use std::ops::Range;

use crate::lang::{Document, Syntax, ir};
use crate::models::ModelMatch;
use crate::tables::Tables;

/// The model ids a document of a test file compares against (see [`compared_strings`]): where
/// they are compared, and each id as written, in the order of the text. Every occurrence of
/// such an id in the file changes with the comparison or not at all, so MIG009's fix is unsafe
/// everywhere in the file; the run collects them from every test file first, so that the fix is
/// unsafe in the other files too (a constant in `src/models.py` that `tests/test_models.py`
/// asserts on).
#[derive(Default)]
pub struct ComparedIds {
    /// Where each compared id starts.
    pub at: Vec<usize>,
    /// Each compared id as written (an id compared twice is here twice).
    pub ids: Vec<String>,
}

/// The ids of `found` (the model ids of `doc`) that are within a string a test compares
/// against.
pub fn compared_ids(doc: &Document, tables: &Tables, found: &[ModelMatch]) -> ComparedIds {
    let strings = match &doc.syntax {
        Syntax::Lowered(tree) => compared_strings(tree, &doc.text, &tables.models.tests.assertions),
        _ => Vec::new(),
    };
    let mut compared = ComparedIds::default();
    for f in found {
        if !strings
            .iter()
            .any(|s| s.start <= f.range.start && f.range.end <= s.end)
        {
            continue;
        }
        if let Some(written) = doc.text.get(f.range.clone()) {
            compared.at.push(f.range.start);
            compared.ids.push(written.to_string());
        }
    }
    compared
}

/// The ranges of the string literals of `tree` that are compared against.
pub fn compared_strings(tree: &ir::Tree, text: &str, assertions: &[String]) -> Vec<Range<usize>> {
    tree.nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n.kind, ir::Kind::Str(_)))
        .map(|(id, _)| id as ir::NodeId)
        .filter(|&id| is_compared(tree, text, assertions, id))
        .map(|id| tree.range(id))
        .collect()
}

fn is_compared(tree: &ir::Tree, text: &str, assertions: &[String], string: ir::NodeId) -> bool {
    let mut node = string;
    // Up to the statement holding the string; the bound keeps a pathological nesting cheap.
    for _ in 0..256 {
        let Some(parent) = tree.parent(node) else {
            return false;
        };
        match tree.kind(parent) {
            ir::Kind::Call(call) => {
                let argument = call.args.iter().any(|a| a.value == node);
                if argument
                    && callee_name(tree, call.callee).is_some_and(|n| assertions.iter().any(|a| a == n))
                {
                    return true;
                }
            }
            ir::Kind::Binary { left, right, .. }
                if comparison(text, tree.range(*left).end, tree.range(*right).start) =>
            {
                return true;
            }
            ir::Kind::Other(children) => {
                // Python's `assert` statement; a Python comparison, lowered as its operands with
                // the operator written between an operand and its neighbours.
                if is_assert(text, tree.range(parent)) {
                    return true;
                }
                if !children.contains(&node) {
                    return false;
                }
                if super::knowledge::neighbour_operator(tree, text, children, node).is_some() {
                    return true;
                }
            }
            // An arrow function or lambda with an expression body is part of the expression
            // (`expect(() => parse("x")).toThrow()`).
            ir::Kind::Function(function) if function.expression => {}
            // A statement or a function ends the search: what holds the string is no assertion.
            ir::Kind::Module(_)
            | ir::Kind::Block(_)
            | ir::Kind::Expr(_)
            | ir::Kind::Assign(_)
            | ir::Kind::AugAssign { .. }
            | ir::Kind::Declaration { .. }
            | ir::Kind::Return(_)
            | ir::Kind::Raise { .. }
            | ir::Kind::If(_)
            | ir::Kind::While { .. }
            | ir::Kind::For(_)
            | ir::Kind::With(_)
            | ir::Kind::Try(_)
            | ir::Kind::Import(_)
            | ir::Kind::Global(_)
            | ir::Kind::Function(_)
            | ir::Kind::Class(_)
            | ir::Kind::Field { .. } => return false,
            _ => {}
        }
        node = parent;
    }
    false
}

/// Whether the text at `range` is a Python `assert` statement.
fn is_assert(text: &str, range: Range<usize>) -> bool {
    text.get(range)
        .and_then(|s| s.strip_prefix("assert"))
        .is_some_and(|rest| rest.starts_with([' ', '\t', '(']))
}

/// Whether the text between two operands is a comparison operator.
fn comparison(text: &str, from: usize, to: usize) -> bool {
    super::knowledge::operator(text, from, to).is_some()
}

/// The last name of a callee: `assertEqual` of `self.assertEqual`, `toBe` of
/// `expect(x).not.toBe`, `equal` of `assert.equal`, `expect` of `expect`.
fn callee_name(tree: &ir::Tree, callee: ir::NodeId) -> Option<&str> {
    match tree.kind(tree.unwrap(callee)) {
        ir::Kind::Name(name) => Some(name),
        ir::Kind::Member(member) => Some(&member.name.name),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{Surface, Syntax};

    fn compared(surface: Surface, text: &str) -> Vec<String> {
        let assertions: Vec<String> = ["assertEqual", "toBe", "toEqual", "equal", "expect"]
            .map(String::from)
            .to_vec();
        let docs = crate::lang::documents(surface, text);
        let Syntax::Lowered(tree) = &docs[0].syntax else {
            panic!("a lowered document");
        };
        compared_strings(tree, text, &assertions)
            .into_iter()
            .map(|r| text[r].to_string())
            .collect()
    }

    #[test]
    fn python_comparisons_and_assertions() {
        let text = "assert m == 'a'\nassert 'b' != m\nassert m in ('c', 'd')\nassert m is not 'e'\nself.assertEqual(m, {'model': 'f'})\nx = 'g'\nassert f('h')\nassert m.startswith('i')\nif m == 'j' or m < 'k':\n    pass\nself.assertFalse(is_new('l'))\ny = [f(n) for n in ('m',)]\nassertion = 'n'\n";
        assert_eq!(
            compared(Surface::Python, text),
            ["'a'", "'b'", "'c'", "'d'", "'e'", "'f'", "'h'", "'i'", "'j'"]
        );
    }

    #[test]
    fn javascript_comparisons_and_assertions() {
        let text = "expect(m).toBe('a');\nexpect(m).not.toEqual(['b']);\nassert.equal(m, 'c');\nif (m === 'd' || m + 'e') {}\nexpect(isNew('f')).toBe(true);\nconst x = { model: 'g' };\nexpect(() => run('h')).toThrow();\nit('i', () => { run('j'); });\nconst f = () => 'k';\nrender(<A model=\"l\" />);\n";
        assert_eq!(
            compared(Surface::Tsx, text),
            ["'a'", "'b'", "'c'", "'d'", "'f'", "'h'"]
        );
    }
}
