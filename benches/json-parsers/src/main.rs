//! `cargo run --release -- [--compare] DIR...`: parses every `.json`/`.jsonc` file under the
//! folders with tree-sitter-json, jsonc-parser and interlint's scanner (src/lang/json/scan.rs,
//! built here on its own), one parser after the other over the same texts in memory, and prints
//! files, bytes and the best of three runs' seconds for each. With `--compare`, also checks that
//! the scanner reads what tree-sitter-json read: the same objects, arrays, pairs, strings,
//! numbers and literals at the same ranges, the same comments and strings, and an error in the
//! same files. `SHOW_JSON='{"a": 1,}' cargo run --release` prints what each reads of one text.

#[path = "../../../src/lang/json/scan.rs"]
#[allow(dead_code)]
mod scan;

use std::path::{Path, PathBuf};
use std::time::Instant;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            files(&path, out);
        } else if kind.is_file()
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("jsonc"))
        {
            out.push(path);
        }
    }
}

fn best_of_three(mut run: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut result = 0;
    for _ in 0..3 {
        let start = Instant::now();
        result = run();
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best, result)
}

fn tree_sitter_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_json::LANGUAGE.into())
        .expect("tree-sitter-json loads");
    parser
}

/// Strict JSON with comments, as tree-sitter-json reads it (jsonc-parser's defaults accept
/// trailing and missing commas, single quotes, hex numbers and bare property names).
fn jsonc_options() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

fn main() {
    let mut compare = false;
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--compare" {
            compare = true;
        } else {
            files(Path::new(&arg), &mut paths);
        }
    }
    let texts: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            (!text.contains('\0')).then_some((p, text))
        })
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    println!("{} files, {:.1} MB ({bytes} bytes)", texts.len(), bytes as f64 / 1e6);

    let mut ts = tree_sitter_parser();
    let (seconds, failed) = best_of_three(|| {
        texts
            .iter()
            .filter(|(_, t)| ts.parse(t, None).is_none_or(|tree| tree.root_node().has_error()))
            .count()
    });
    println!("tree-sitter-json    {seconds:8.3} s  {failed} files with errors");

    // jsonc-parser recurses once per nesting level, and stops at the first error.
    let options = jsonc_options();
    let collect = jsonc_parser::CollectOptions {
        comments: jsonc_parser::CommentCollectionStrategy::Separate,
        tokens: false,
    };
    let (seconds, failed) = best_of_three(|| {
        texts
            .iter()
            .filter(|(_, t)| jsonc_parser::parse_to_ast(t, &collect, &options).is_err())
            .count()
    });
    println!("jsonc-parser        {seconds:8.3} s  {failed} files with errors");

    let (seconds, failed) = best_of_three(|| texts.iter().filter(|(_, t)| scan::parse(t).errors > 0).count());
    println!("interlint scanner   {seconds:8.3} s  {failed} files with errors");

    if compare {
        compare_all(&texts);
        // What jsonc-parser refuses that the others read.
        for (path, text) in &texts {
            if let Err(e) = jsonc_parser::parse_to_ast(text, &collect, &options)
                && scan::parse(text).errors == 0
            {
                println!("  jsonc-parser only: {}: {e}", path.display());
            }
        }
    }
    if let Ok(text) = std::env::var("SHOW_JSON") {
        let tree = tree_sitter_parser().parse(&text, None).expect("parses");
        println!("tree-sitter: {}", tree.root_node().to_sexp());
        println!("tree-sitter: {:?}", tree_sitter_items(&tree));
        println!("scanner:     {:?}", scanner_items(&scan::parse(&text)));
    }
}

type Item = (&'static str, usize, usize);

/// What tree-sitter read: its values, pairs and errors in document order; its comments and
/// strings; its error count (ERROR and MISSING nodes, and empty slots as strict_errors counted).
type Reading = (Vec<Item>, Vec<(usize, usize)>, Vec<(usize, usize)>, usize);

fn tree_sitter_items(tree: &tree_sitter::Tree) -> Reading {
    let (mut items, mut comments, mut strings, mut errors) = (Vec::new(), Vec::new(), Vec::new(), 0);
    let broken = tree.root_node().has_error();
    let mut visit = |node: tree_sitter::Node| -> bool {
        let range = (node.start_byte(), node.end_byte());
        // Items inside an ERROR node are not the document's values.
        let mut inside_error = 0;
        let mut up = if broken { node.parent() } else { None };
        while let Some(p) = up {
            inside_error += usize::from(p.is_error());
            up = p.parent();
        }
        if node.is_error() || node.is_missing() {
            errors += 1;
        }
        let kind: &'static str = match node.kind() {
            _ if inside_error > 0 => "",
            _ if node.is_error() => "error",
            _ if node.is_missing() => "",
            "object" => "object",
            "array" => "array",
            "pair" => "pair",
            "string" => "string",
            "number" => "number",
            "true" => "true",
            "false" => "false",
            "null" => "null",
            "comment" => {
                comments.push(range);
                ""
            }
            _ => "",
        };
        if node.kind() == "string" {
            strings.push(range);
        }
        if !kind.is_empty() {
            items.push((kind, range.0, range.1));
        }
        if node.kind() != "array" && node.child_count() > 1 {
            let mut c = node.walk();
            let mut previous: Option<String> = None;
            for child in node.children(&mut c) {
                let k = child.kind();
                if k == "comment" {
                    continue;
                }
                if k == "," && previous.as_deref().is_none_or(|p| matches!(p, "," | "(" | "[" | "{")) {
                    errors += 1;
                }
                previous = Some(k.to_string());
            }
        }
        !matches!(node.kind(), "string" | "comment")
    };
    let mut cursor = tree.walk();
    let mut descend = visit(cursor.node());
    'walk: loop {
        if descend && cursor.goto_first_child() {
            descend = visit(cursor.node());
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                descend = visit(cursor.node());
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    (items, comments, strings, errors)
}

/// The scanner's items in tree-sitter's order, pairs included.
fn scanner_items(json: &scan::Json) -> Vec<Item> {
    enum Visit<'a> {
        Node(&'a scan::Node),
        Member(&'a scan::Member),
    }
    let mut out = Vec::new();
    let mut stack: Vec<Visit> = json.values.iter().rev().map(Visit::Node).collect();
    while let Some(visit) = stack.pop() {
        match visit {
            Visit::Member(m) => {
                if m.pair().is_some() {
                    out.push(("pair", m.range.start, m.range.end));
                } else if m.key.is_none() && m.value.is_none() {
                    out.push(("error", m.range.start, m.range.end));
                    continue;
                }
                if let Some(v) = &m.value {
                    stack.push(Visit::Node(v));
                }
                if let Some(k) = &m.key {
                    stack.push(Visit::Node(k));
                }
            }
            Visit::Node(node) => {
                let kind = match &node.kind {
                    scan::Kind::Object(_) => "object",
                    scan::Kind::Array(_) => "array",
                    scan::Kind::String => "string",
                    scan::Kind::Number => "number",
                    scan::Kind::True => "true",
                    scan::Kind::False => "false",
                    scan::Kind::Null => "null",
                    scan::Kind::Error => "error",
                };
                out.push((kind, node.range.start, node.range.end));
                match &node.kind {
                    scan::Kind::Object(members) => stack.extend(members.iter().rev().map(Visit::Member)),
                    scan::Kind::Array(items) => stack.extend(items.iter().rev().map(Visit::Node)),
                    _ => {}
                }
            }
        }
    }
    out
}

fn compare_all(texts: &[(PathBuf, String)]) {
    let mut ts = tree_sitter_parser();
    let (mut same, mut valid_differ, mut both_errors, mut error_differ) = (0, 0, 0, 0);
    for (path, text) in texts {
        let Some(tree) = ts.parse(text, None) else { continue };
        let (ts_items, ts_comments, ts_strings, ts_errors) = tree_sitter_items(&tree);
        let json = scan::parse(text);
        let mine = scanner_items(&json);
        let mine_comments: Vec<(usize, usize)> = json.comments.iter().map(|r| (r.start, r.end)).collect();
        let mine_strings: Vec<(usize, usize)> = json.strings.iter().map(|r| (r.start, r.end)).collect();
        let identical = ts_items == mine && ts_comments == mine_comments && ts_strings == mine_strings;
        match (ts_errors > 0, json.errors > 0) {
            (false, false) if identical => same += 1,
            (false, false) => {
                valid_differ += 1;
                let at = ts_items
                    .iter()
                    .zip(&mine)
                    .position(|(x, y)| x != y)
                    .unwrap_or(ts_items.len().min(mine.len()));
                println!(
                    "  DIFFERS {}: tree-sitter {:?}, scanner {:?}",
                    path.display(),
                    ts_items.get(at),
                    mine.get(at)
                );
            }
            (true, true) => {
                both_errors += 1;
                println!(
                    "  errors in both ({ts_errors} tree-sitter, {} scanner; {}): {}",
                    json.errors,
                    match (ts_items == mine, ts_strings == mine_strings, ts_comments == mine_comments) {
                        (true, true, true) => "same reading".to_string(),
                        (items, strings, comments) => format!(
                            "reading differs:{}{}{}",
                            if items { "" } else { " values" },
                            if strings { "" } else { " strings" },
                            if comments { "" } else { " comments" }
                        ),
                    },
                    path.display()
                );
            }
            _ => {
                error_differ += 1;
                println!(
                    "  ERRORS DIFFER ({ts_errors} tree-sitter, {} scanner): {}",
                    json.errors,
                    path.display()
                );
            }
        }
    }
    println!(
        "compare: {same} valid files read alike, {valid_differ} valid files read differently, \
         {both_errors} with errors in both, {error_differ} with errors in one only"
    );
}
