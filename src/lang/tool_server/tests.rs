//! The shared extraction gives the same facts for a Python FastMCP server and the equivalent
//! TypeScript `McpServer`.

#[test]
#[ignore]
fn compare_with_tree_sitter() {
    use crate::lang::{Surface, Syntax, javascript, python};
    let Ok(root) = std::env::var("MCP_CORPUS") else {
        return;
    };
    let suffix = "_API_KEY";
    let mut files = 0;
    let mut diffs = 0;
    let mut servers = 0;
    let mut tools = 0;
    for entry in walkdir(std::path::Path::new(&root)) {
        let Ok(text) = std::fs::read_to_string(&entry) else {
            continue;
        };
        let words = &crate::mcp::conventions().unwrap().server_words;
        if !words.iter().any(|w| text.contains(w.as_str())) {
            continue;
        }
        let ext = entry.extension().and_then(|e| e.to_str()).unwrap_or("");
        let surface = match ext {
            "py" => Surface::Python,
            "ts" | "mts" | "cts" => Surface::TypeScript,
            "tsx" => Surface::Tsx,
            "js" | "mjs" | "cjs" | "jsx" => Surface::JavaScript,
            _ => continue,
        };
        files += 1;
        let (old, new) = if surface == Surface::Python {
            let doc = python::parse(text.clone());
            let Syntax::TreeSitter(tree) = &doc.syntax else {
                continue;
            };
            let old = python::mcp::tool_server(tree, &text, suffix);
            let ir = python::lower::lower(&text, false);
            (
                old,
                super::tool_server(&ir, &text, suffix, python::frameworks::recognise),
            )
        } else {
            let doc = javascript::parse(surface, text.clone());
            let Syntax::TreeSitter(tree) = &doc.syntax else {
                continue;
            };
            let old = javascript::mcp::tool_server(tree, &text, suffix);
            let ir = javascript::lower::lower(surface, &text);
            (
                old,
                super::tool_server(&ir, &text, suffix, javascript::frameworks::recognise),
            )
        };
        servers += usize::from(old.is_some());
        tools += old.as_ref().map_or(0, |o| {
            o.tools.len()
                + o.key_reads.len()
                + o.stdout_writes.len()
                + o.untimed_calls.len()
                + o.resources.len()
        });
        let (a, b) = (format!("{old:#?}"), format!("{new:#?}"));
        if a != b {
            diffs += 1;
            let dir = std::path::Path::new("/work/scratch/mcpdiff");
            std::fs::create_dir_all(dir).unwrap();
            let name = entry.to_string_lossy().replace('/', "_");
            std::fs::write(dir.join(format!("{name}.old")), a).unwrap();
            std::fs::write(dir.join(format!("{name}.new")), b).unwrap();
            println!("DIFF {}", entry.display());
        }
    }
    println!("{files} files, {servers} servers, {tools} facts, {diffs} differ");
}

#[cfg(test)]
fn walkdir(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
