//! The shared form as the two lowerings make it: the same program in Python and TypeScript
//! gives the same outline.

use crate::lang::Surface;
use crate::lang::ir::*;
use crate::lang::javascript::lower as js;
use crate::lang::python::lower as py;

/// What a tree says about names, calls and reads, in source order, in words both languages
/// share.
fn outline(tree: &Tree, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for id in tree.descendants(tree.root()) {
        match tree.kind(id) {
            Kind::Assign(a) => {
                let targets: Vec<String> = a.targets.iter().filter_map(|&t| tree.dotted(t)).collect();
                let value = a.value.map(|v| tree.unwrap(v));
                let value = match value.map(|v| tree.kind(v)) {
                    Some(Kind::Call(c)) => format!("call {}", tree.dotted(c.callee).unwrap_or_default()),
                    Some(Kind::Str(s)) => format!("str {s}"),
                    _ => "other".to_string(),
                };
                out.push(format!("bind {} = {value}", targets.join(",")));
            }
            Kind::Call(c) => {
                let args: Vec<String> = c
                    .args
                    .iter()
                    .map(|a| match &a.kind {
                        ArgKind::Keyword(k) => format!("{}=", k.name),
                        _ => text[a.span.range()].chars().take(1).collect(),
                    })
                    .collect();
                out.push(format!(
                    "call {}({})",
                    tree.dotted(c.callee).unwrap_or_default(),
                    args.join(" ")
                ));
            }
            Kind::Member(_) => {
                // The longest chain, not a call's callee.
                let skip = match tree.parent(id).map(|p| tree.kind(p)) {
                    Some(Kind::Member(_)) => true,
                    Some(Kind::Call(c)) => c.callee == id,
                    _ => false,
                };
                if !skip {
                    out.push(format!("read {}", tree.dotted(id).unwrap_or_default()));
                }
            }
            Kind::For(f) => out.push(format!(
                "for {} in {}",
                tree.dotted(f.target).unwrap_or_default(),
                tree.dotted(tree.unwrap(f.iter)).unwrap_or_default()
            )),
            Kind::Return(Some(v)) => out.push(format!("return {}", tree.dotted(*v).unwrap_or_default())),
            Kind::Function(f) => out.push(format!(
                "def {}({})",
                f.name.as_ref().map_or("", |n| &n.name),
                f.params
                    .iter()
                    .filter_map(|p| p.name.as_ref().map(|n| n.name.to_string()))
                    .collect::<Vec<_>>()
                    .join(",")
            )),
            Kind::Import(i) => out.push(format!(
                "import {} from {}",
                i.names
                    .iter()
                    .map(|n| n.bound().to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                i.module.as_ref().map_or("", |m| &m.name)
            )),
            _ => {}
        }
    }
    out
}

#[test]
fn one_program_in_both_languages_lowers_alike() {
    let python = r#"
from google import genai

def ask(client, prompt):
response = client.models.generate_content(model="gemini-2.0-flash", contents=prompt)
for part in response.candidates:
    print(part.text)
return response.text
"#;
    let typescript = r#"
import { genai } from "google";

async function ask(client: Client, prompt: string) {
const response = await client.models.generateContent({ model: "gemini-2.0-flash", contents: prompt });
for (const part of response.candidates) {
    console.log(part.text);
}
return response.text;
}
"#;
    let p = outline(&py::lower(python, false), python);
    let t = outline(&js::lower(Surface::TypeScript, typescript), typescript);
    assert_eq!(
        p,
        [
            "import genai from google",
            "def ask(client,prompt)",
            "bind response = call client.models.generate_content",
            "call client.models.generate_content(model= contents=)",
            "for part in response.candidates",
            "read response.candidates",
            "call print(p)",
            "read part.text",
            "return response.text",
            "read response.text",
        ]
    );
    assert_eq!(
        t,
        [
            "import genai from google",
            "def ask(client,prompt)",
            "bind response = call client.models.generateContent",
            "call client.models.generateContent({)",
            "for part in response.candidates",
            "read response.candidates",
            "call console.log(p)",
            "read part.text",
            "return response.text",
            "read response.text",
        ]
    );
}

#[test]
fn javascript_objects_keep_entry_ranges_and_shorthands() {
    let text = "f({ model, config: { temperature: 1 }, ...rest, 'a-b': 2 });\n";
    let tree = js::lower(Surface::JavaScript, text);
    let dict = tree
        .nodes
        .iter()
        .find_map(|n| match &n.kind {
            Kind::Dict(d) if d.items.len() == 4 => Some(d),
            _ => None,
        })
        .expect("the request object");
    let entries: Vec<&str> = dict.items.iter().map(|e| &text[e.span.range()]).collect();
    assert_eq!(
        entries,
        ["model", "config: { temperature: 1 }", "...rest", "'a-b': 2"]
    );
    assert_eq!(
        dict.items[0].key,
        Key::Name(Ident {
            name: "model".into(),
            span: Span::new(4, 9)
        })
    );
    assert_eq!(tree.name(dict.items[0].value), Some("model"));
    assert_eq!(dict.items[2].key, Key::Spread);
    assert_eq!(dict.items[3].key.text(), Some("a-b"));
    assert_eq!(
        &text[dict.inner.range()],
        " model, config: { temperature: 1 }, ...rest, 'a-b': 2 "
    );
}

#[test]
fn every_node_has_its_parent() {
    let text = "const x = a?.b(c as D)!;\nfor (const [k, v] of Object.entries(o)) { try { g(k) } catch (e) { throw e } }\n";
    let tree = js::lower(Surface::TypeScript, text);
    assert_eq!(tree.errors, 0);
    for id in 1..tree.nodes.len() as NodeId {
        let parent = tree.parent(id).expect("a parent");
        assert!(tree.children(parent).contains(&id), "{:?}", tree.kind(id));
    }
}

#[test]
fn repeated_keywords_are_counted() {
    assert_eq!(repeated_keywords(&py::lower("f(a=1, b=2, a=3)\n", false)), 1);
    assert_eq!(repeated_keywords(&py::lower("f(a=1)\ng(a=1)\n", false)), 0);
}
