//! Scopes and name bindings, shared by the surfaces that resolve names (Python, JavaScript and
//! TypeScript): enough to answer "what is this name bound to here?" through simple local
//! bindings, and "how often is it used?". Each surface's walk fills the table with its own kind
//! of binding; the resolution rules are the same.

use std::hash::{Hash, Hasher};

use hashbrown::Equivalent;

/// A hash map whose `(scope, name)` keys can be looked up by a [`Named`] without making a
/// `String` (hashbrown's [`Equivalent`]); names are looked up once per name read.
pub type HashMap<K, V> = hashbrown::HashMap<K, V, rustc_hash::FxBuildHasher>;

/// A `(scope, name)` key borrowed: it hashes as the owned `(usize, String)` does.
struct Named<'a>(usize, &'a str);

impl Hash for Named<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
        self.1.hash(state);
    }
}

impl Equivalent<(usize, String)> for Named<'_> {
    fn equivalent(&self, key: &(usize, String)) -> bool {
        self.0 == key.0 && self.1 == key.1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Function,
    /// A Python class body: its names are not visible in the functions nested in it.
    Class,
    /// A JavaScript block (`{ ... }`, a loop): `const` and `let` live here.
    Block,
}

#[derive(Debug)]
pub struct Scope {
    pub parent: Option<usize>,
    pub kind: ScopeKind,
}

/// What a surface's binding holds; an opaque binding (a parameter, a tuple target) makes the
/// name unresolvable in its scope.
pub trait BindingKind: Copy {
    fn is_opaque(&self) -> bool;
}

#[derive(Clone, Copy, Debug)]
pub struct Binding<K> {
    pub scope: usize,
    pub start: usize,
    pub kind: K,
}

pub enum Resolution<K> {
    /// The binding, and how many bindings the name has in its scope.
    Bound(Binding<K>, usize),
    /// Bound, but not in a way interlint follows.
    Opaque,
    /// Not bound in this document (a builtin, a global, or defined in another notebook cell).
    Unbound,
}

/// Scopes, bindings per (scope, name) and uses per (scope, name) of one document.
pub struct Bindings<K> {
    pub scopes: Vec<Scope>,
    pub bindings: HashMap<(usize, String), Vec<Binding<K>>>,
    pub uses: HashMap<(usize, String), usize>,
    /// Uses anywhere in the document, for "is this import used?".
    pub total_uses: HashMap<String, usize>,
}

impl<K: BindingKind> Bindings<K> {
    /// A table with the module scope, 0.
    pub fn new() -> Self {
        Bindings {
            scopes: vec![Scope {
                parent: None,
                kind: ScopeKind::Module,
            }],
            bindings: HashMap::default(),
            uses: HashMap::default(),
            total_uses: HashMap::default(),
        }
    }

    pub fn push_scope(&mut self, parent: usize, kind: ScopeKind) -> usize {
        self.scopes.push(Scope {
            parent: Some(parent),
            kind,
        });
        self.scopes.len() - 1
    }

    pub fn bind(&mut self, scope: usize, name: &str, start: usize, kind: K) {
        let binding = Binding { scope, start, kind };
        match self.bindings.get_mut(&Named(scope, name)) {
            Some(list) => list.push(binding),
            None => {
                self.bindings.insert((scope, name.to_string()), vec![binding]);
            }
        }
    }

    pub fn add_use(&mut self, scope: usize, name: &str) {
        match self.total_uses.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                self.total_uses.insert(name.to_string(), 1);
            }
        }
        match self.uses.get_mut(&Named(scope, name)) {
            Some(n) => *n += 1,
            None => {
                self.uses.insert((scope, name.to_string()), 1);
            }
        }
    }

    /// The bindings of `name` in `scope` itself.
    pub fn bindings_in(&self, scope: usize, name: &str) -> Option<&[Binding<K>]> {
        self.bindings.get(&Named(scope, name)).map(Vec::as_slice)
    }

    /// How often `name` is read in `scope` itself.
    pub fn uses_in(&self, scope: usize, name: &str) -> usize {
        self.uses.get(&Named(scope, name)).copied().unwrap_or(0)
    }

    /// Puts every name's bindings in source order, once the walk is done.
    pub fn sort(&mut self) {
        for list in self.bindings.values_mut() {
            list.sort_by_key(|b| b.start);
        }
    }

    /// The scope whose bindings a use of `name` in `scope` sees.
    pub fn declaring_scope(&self, name: &str, scope: usize) -> Option<usize> {
        let mut current = Some(scope);
        let mut first = true;
        while let Some(s) = current {
            let info = &self.scopes[s];
            if (first || info.kind != ScopeKind::Class) && self.bindings.contains_key(&Named(s, name)) {
                return Some(s);
            }
            first = false;
            current = info.parent;
        }
        None
    }

    /// The binding of `name` that a use at `pos` in `scope` sees, through simple bindings only.
    ///
    /// In the use's own function (or a block of it), the latest binding before the use; in an
    /// enclosing function, only a name bound once (which binding a later call sees depends on
    /// when it runs).
    pub fn resolve(&self, name: &str, scope: usize, pos: usize) -> Resolution<K> {
        let Some(s) = self.declaring_scope(name, scope) else {
            return Resolution::Unbound;
        };
        let list = self.all_bindings(name, scope);
        if list.iter().any(|b| b.kind.is_opaque()) {
            return Resolution::Opaque;
        }
        let chosen = if self.runs_in_place(scope, s) {
            let before = list.iter().rev().find(|b| b.start < pos);
            // At a module's top level, a read before the name's first binding here sees none
            // of them (a notebook's earlier cell bound it, or no one did).
            if before.is_none() && s == 0 && scope == 0 {
                return Resolution::Unbound;
            }
            before.or(list.first())
        } else if list.len() == 1 {
            list.first()
        } else {
            return Resolution::Opaque;
        };
        match chosen {
            Some(b) => Resolution::Bound(*b, list.len()),
            None => Resolution::Opaque,
        }
    }

    /// Whether code in `inner` runs where it is written within `outer`: `inner` is `outer` or
    /// blocks nested in it (a loop body, an `if` branch), not a function that may run later.
    pub fn runs_in_place(&self, inner: usize, outer: usize) -> bool {
        let mut current = inner;
        while current != outer {
            let info = &self.scopes[current];
            match info.parent {
                Some(parent) if info.kind == ScopeKind::Block => current = parent,
                _ => return false,
            }
        }
        true
    }

    /// All bindings of `name` in the scope a use in `scope` resolves to.
    pub fn all_bindings(&self, name: &str, scope: usize) -> &[Binding<K>] {
        self.declaring_scope(name, scope)
            .and_then(|s| self.bindings.get(&Named(s, name)))
            .map_or(&[], Vec::as_slice)
    }
}

impl<K: BindingKind> Default for Bindings<K> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Kind {
        Value(u8),
        Param,
    }

    impl BindingKind for Kind {
        fn is_opaque(&self) -> bool {
            matches!(self, Kind::Param)
        }
    }

    fn bound(r: Resolution<Kind>) -> Option<Kind> {
        match r {
            Resolution::Bound(b, _) => Some(b.kind),
            _ => None,
        }
    }

    #[test]
    fn resolution() {
        let mut t: Bindings<Kind> = Bindings::new();
        let function = t.push_scope(0, ScopeKind::Function);
        let class = t.push_scope(0, ScopeKind::Class);
        let method = t.push_scope(class, ScopeKind::Function);
        t.bind(0, "a", 0, Kind::Value(1));
        t.bind(function, "a", 10, Kind::Value(2));
        t.bind(function, "a", 20, Kind::Value(3));
        t.bind(0, "b", 0, Kind::Value(4));
        t.bind(0, "b", 5, Kind::Value(5));
        t.bind(function, "p", 0, Kind::Param);
        t.bind(class, "c", 0, Kind::Value(6));
        t.sort();
        // The latest binding before the use, in the use's own scope.
        assert_eq!(bound(t.resolve("a", function, 15)), Some(Kind::Value(2)));
        assert_eq!(bound(t.resolve("a", function, 25)), Some(Kind::Value(3)));
        assert_eq!(bound(t.resolve("a", 0, 25)), Some(Kind::Value(1)));
        // Bound twice in an enclosing scope: unknown which one a call sees.
        assert!(matches!(t.resolve("b", function, 30), Resolution::Opaque));
        assert!(matches!(t.resolve("p", function, 30), Resolution::Opaque));
        assert!(matches!(t.resolve("zz", function, 30), Resolution::Unbound));
        // A block runs in place: the latest binding before the use, as in its function.
        let block = t.push_scope(function, ScopeKind::Block);
        assert_eq!(bound(t.resolve("a", block, 25)), Some(Kind::Value(3)));
        assert_eq!(bound(t.resolve("a", block, 15)), Some(Kind::Value(2)));
        // A class body's names are not visible in its methods.
        assert!(matches!(t.resolve("c", method, 30), Resolution::Unbound));
        assert_eq!(bound(t.resolve("c", class, 30)), Some(Kind::Value(6)));
    }
}
