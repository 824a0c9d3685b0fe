//! The file-level layer guard: the import circles between the files of `src/`, computed as
//! `python3 benches/layers.py --files` computes them, must be those of [`ALLOWED`] — a new
//! circle fails, and so does an allowed one that no longer exists (the list only shrinks).
//!
//! A file imports another when it names it: `use crate::...` or `use super::...` (groups
//! included), `crate::X::...` or `super::X::...` in code, resolved from the file's module (and
//! the inline `mod NAME { ... }` it is written in) to the file of the path's longest prefix
//! that is a file's module. Comments, doc links and string literals are not imports; `mod
//! child;` declarations and relative paths (`python::parse` in lang/mod.rs) are not counted,
//! nor are paths to the crate's root (lib.rs, main.rs).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

/// The circles that exist today and that other work is removing, each a set of files of
/// `src/`. Remove an entry when its circle is gone (the test then says so).
const ALLOWED: &[&[&str]] = &[
    // The registry lists the rules (`rules::ALL`), which implement its `Rule`.
    &["registry.rs", "rules/mod.rs"],
];

/// The text with comments, string and char literals blanked out (a string becomes `""`, a
/// char `' '`); lifetimes stay.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let n = c.len();
    let starts = |i: usize, s: &str| s.chars().enumerate().all(|(k, x)| c.get(i + k) == Some(&x));
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < n {
        if starts(i, "//") {
            while i < n && c[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if starts(i, "/*") {
            let mut depth = 0;
            while i < n {
                if starts(i, "/*") {
                    depth += 1;
                    i += 2;
                } else if starts(i, "*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            continue;
        }
        if let Some((hashes, body)) = raw_string_start(&c, i) {
            let end: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let mut j = body;
            while j < n && !(j + end.len() <= n && c[j..j + end.len()] == end[..]) {
                j += 1;
            }
            i = if j >= n { n } else { j + end.len() };
            out.push_str("\"\"");
            continue;
        }
        if c[i] == '"' {
            let mut j = i + 1;
            while j < n && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
            continue;
        }
        if c[i] == '\''
            && let Some(len) = char_literal(&c[i..n.min(i + 14)])
        {
            i += len;
            out.push_str("' '");
            continue;
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// A raw string starting at `i` (`r"`, `r#"`, `br##"`, not inside a word): its `#`s and the
/// offset of its body.
fn raw_string_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
    j += hashes;
    (c.get(j) == Some(&'"') && j - i < 40).then_some((hashes, j + 1))
}

/// The length of the char literal at the start of `c` (`'a'`, `'\n'`, `'\x7f'`, `'\u{1F600}'`).
fn char_literal(c: &[char]) -> Option<usize> {
    let close = |at: usize| (c.get(at) == Some(&'\'')).then_some(at + 1);
    match c.get(1)? {
        '\\' => match c.get(2)? {
            'x' if c.len() > 4
                && c[3].is_ascii_hexdigit()
                && c[4].is_ascii_hexdigit()
                && close(5).is_some() =>
            {
                close(5)
            }
            'u' if c.get(3) == Some(&'{') => {
                let digits = c[4..].iter().take_while(|x| x.is_ascii_hexdigit()).count();
                if digits > 0
                    && c.get(4 + digits) == Some(&'}')
                    && let Some(end) = close(5 + digits)
                {
                    return Some(end);
                }
                close(3)
            }
            '\n' => None,
            _ => close(3),
        },
        '\'' => None,
        _ => close(2),
    }
}

/// Every path a use tree names: `a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e.
fn use_paths(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    let Some(k) = tree.find('{') else {
        let head = tree.split(" as ").next().unwrap_or_default();
        let mut path = prefix.to_vec();
        path.extend(
            head.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "self")
                .map(str::to_string),
        );
        out.push(path);
        return;
    };
    let mut prefix = prefix.to_vec();
    prefix.extend(
        tree[..k]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    );
    let inner = &tree[k + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut part) = (0, String::new());
    for ch in inner.chars().chain([',']) {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            if !part.trim().is_empty() {
                use_paths(&part, &prefix, out);
            }
            part.clear();
        } else {
            part.push(ch);
        }
    }
}

/// The `mod NAME { ... }` blocks of a text: (start, end, NAME).
fn inline_modules(text: &str) -> Vec<(usize, usize, String)> {
    let re = Regex::new(r"\bmod\s+(\w+)\s*\{").expect("valid regex");
    let bytes = text.as_bytes();
    re.captures_iter(text)
        .filter_map(|caps| {
            let (whole, name) = (caps.get(0)?, caps.get(1)?);
            let (mut j, mut depth) = (whole.end(), 1);
            while depth > 0 && j < bytes.len() {
                match bytes[j] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            Some((whole.start(), j, name.as_str().to_string()))
        })
        .collect()
}

/// A path as written at a place whose module is `here`, from `crate`; `None` when it starts
/// elsewhere.
fn absolute(path: &[String], here: &[String]) -> Option<Vec<String>> {
    match path.first()?.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "super" | "self" => {
            let mut base = here.to_vec();
            let mut rest = path;
            while let Some(first) = rest.first().filter(|f| *f == "super" || *f == "self") {
                if first == "super" {
                    base.pop();
                }
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            Some(base)
        }
        _ => None,
    }
}

/// A file's module path: `lang/python/mod.rs` -> [lang, python].
fn module_path(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("below src/");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// Every file's imports of other files, with nothing for the crate's root.
fn file_imports(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(root, root, &mut files);
    files.retain(|f| f != "lib.rs" && f != "main.rs");
    let modules: BTreeMap<Vec<String>, String> = files.iter().map(|f| (module_path(f), f.clone())).collect();
    let file_of = |path: &[String]| {
        (1..=path.len())
            .rev()
            .find_map(|k| modules.get(&path[..k]).cloned())
    };
    let uses = Regex::new(r"\buse\s+((?:crate|super|self)\b[^;]*);").expect("valid regex");
    let in_code = Regex::new(r"(?:crate|super)(?:::\w+)+").expect("valid regex");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for rel in &files {
        let here = module_path(rel);
        let text = strip(&std::fs::read_to_string(root.join(rel)).expect("a source file"));
        let blocks = inline_modules(&text);
        let module_at = |at: usize| -> Vec<String> {
            let mut m = here.clone();
            m.extend(
                blocks
                    .iter()
                    .filter(|(s, e, _)| *s <= at && at < *e)
                    .map(|(_, _, n)| n.clone()),
            );
            m
        };
        let mut paths: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        for caps in uses.captures_iter(&text) {
            let (Some(whole), Some(tree)) = (caps.get(0), caps.get(1)) else {
                continue;
            };
            let mut found = Vec::new();
            use_paths(tree.as_str(), &[], &mut found);
            paths.extend(found.into_iter().map(|p| (p, module_at(whole.start()))));
        }
        let code = uses.replace_all(&text, |caps: &regex::Captures| " ".repeat(caps[0].len()));
        for m in in_code.find_iter(&code) {
            let before = code[..m.start()].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path = m.as_str().split("::").map(str::to_string).collect();
            paths.push((path, module_at(m.start())));
        }
        for (path, at) in paths {
            let Some(target) = absolute(&path, &at).and_then(|p| file_of(&p)) else {
                continue;
            };
            if &target != rel {
                edges.entry(rel.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// The import circles: the strongly connected components of more than one file, sorted.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<BTreeSet<String>> {
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(v) = stack.pop() {
            for w in edges.get(&v).into_iter().flatten() {
                if seen.insert(w.clone()) {
                    stack.push(w.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|v| (v, reach(v))).collect();
    let mut found = BTreeSet::new();
    for (v, from_v) in &reached {
        let component: BTreeSet<String> = from_v
            .iter()
            .filter(|w| reached.get(w).is_some_and(|r| r.contains(*v)))
            .cloned()
            .collect();
        if component.len() > 1 {
            found.insert(component);
        }
    }
    found
}

#[test]
fn file_level_import_circles_are_only_the_allowed_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = file_imports(&root);
    let found = circles(&edges);
    let allowed: BTreeSet<BTreeSet<String>> = ALLOWED
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    let mut problems = Vec::new();
    for circle in found.difference(&allowed) {
        let mut why = format!(
            "a new import circle: {}",
            Vec::from_iter(circle.iter().cloned()).join(", ")
        );
        for a in circle {
            for b in edges.get(a).into_iter().flatten().filter(|b| circle.contains(*b)) {
                why.push_str(&format!("\n    {a} -> {b}"));
            }
        }
        problems.push(why);
    }
    for circle in allowed.difference(&found) {
        problems.push(format!(
            "an allowed circle no longer exists (remove it from ALLOWED): {}",
            Vec::from_iter(circle.iter().cloned()).join(", ")
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reading_of_imports() {
    assert_eq!(strip("a // b\nc"), "a \nc");
    assert_eq!(
        strip("x = \"crate::y\"; r#\"super::z\"# '\\n' 'a 'b"),
        "x = \"\"; \"\" ' ' 'a 'b"
    );
    let mut paths = Vec::new();
    use_paths("super::{self, a::{b, c as d}, e}", &[], &mut paths);
    assert_eq!(
        paths,
        [
            vec!["super"],
            vec!["super", "a", "b"],
            vec!["super", "a", "c"],
            vec!["super", "e"]
        ]
    );
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        absolute(&s(&["super", "x"]), &s(&["cli", "check"])),
        Some(s(&["cli", "x"]))
    );
    assert_eq!(absolute(&s(&["python", "x"]), &s(&["lang"])), None);
    let mut edges = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("d", "c")] {
        edges
            .entry(a.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(b.to_string());
    }
    let found: Vec<Vec<String>> = circles(&edges).into_iter().map(Vec::from_iter).collect();
    assert_eq!(found, [s(&["a", "b"]), s(&["c", "d"])]);
}
