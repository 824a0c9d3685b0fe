//! The engine on arbitrary input: checking and fixing never panic, fixed text never parses
//! worse, and a second fix changes nothing.

use std::path::Path;

use interlint::config::LoadedConfig;
use interlint::lang::{self, Surface};
use interlint::run::{self, FixMode, Notice, RunOptions};
use interlint::settings::{Overrides, Settings};
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "a.py",
    "a.ts",
    "a.tsx",
    "a.js",
    "a.rs",
    "a.json",
    "a.sh",
    "a.md",
    "a.ipynb",
    "a.yaml",
    "a.http",
    "a.go",
    "a.txt",
    "package.json",
    "requirements.txt",
    "a.mjs",
    "x.benchmark-manifest.json",
];

/// Pieces that stress tokenization, quoting, comments, escapes and fences.
const PIECES: &[&str] = &[
    "gemini-2.0-flash",
    "model-2.5-pro",
    "gemini-2.0-flash-lite",
    "-001",
    "-proxy",
    "models/",
    "my-",
    "\"",
    "'",
    "`",
    "\\",
    "\\\"",
    "\\n",
    "#",
    "//",
    "/*",
    "*/",
    "<!--",
    "-->",
    "```python\n",
    "```\n",
    "\n",
    "\r\n",
    " ",
    "x = ",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "é",
    "→",
    "interlint: ignore",
    "r#\"",
    "\"#",
    "%pip ",
    "{\"cells\": [",
    "{\"cell_type\": \"code\", \"source\": [\"",
    "\"]}",
    "]}",
    "${MODEL:-",
    "f\"",
    // Calls of the API in Python and JavaScript, so every rule's fix is exercised.
    "client.models.generate_content(",
    "ai.models.generateContent(",
    "ai.models.generateContentStream(",
    "ai.interactions.create(",
    "genAI.getGenerativeModel({",
    "model.startChat({ history: [",
    "ai.chats.create(",
    "\"gemini-3.5-flash\"",
    "model=",
    "model: ",
    "contents=",
    "contents: ",
    "config=",
    "config: {",
    "generation_config: {",
    "temperature: 0.2, ",
    "topK: 40",
    "\"top_p\": 1",
    "thinkingConfig: { thinkingBudget: 0 }",
    "responseMimeType: \"application/json\"",
    "response_format: {}",
    "stream: true",
    "...base",
    "const r = await ",
    "r = ",
    "r.text",
    ".response.text()",
    "for await (const c of r) c.text;",
    "import { Type } from \"@google/genai\";",
    "Type.STRING",
    "require(\"@google/generative-ai\")",
    "\"@google/genai\": \"^1.0.0\"",
    "(",
    ")",
    ";",
    // Raw HTTP requests: curl, REST-client files, Rust builders, jq filters.
    "curl \"https://h/v1beta/models/gemini-2.0-flash:generateContent?key=$K\" ",
    "curl -s https://h/v1beta/interactions ",
    "$BASE/v1beta/models/$MODEL:streamGenerateContent?alt=sse",
    " \\\n  -H 'Content-Type: application/json'",
    " --header 'Api-Revision: 2026-05-20'",
    " -d '{\"contents\": [{\"parts\": [{\"text\": \"hi\"}]}], \"generationConfig\": {\"temperature\": 0.5}}'",
    " -d @- <<EOF\n{\"contents\": [{\"parts\": []}]}\nEOF\n",
    "'\"$P\"'",
    " | jq -r '.candidates[0].content.parts[0].text'",
    "###\nPOST {{host}}/v1beta/models/{{model}}:generateContent\nContent-Type: application/json\n\n",
    "\"generationConfig\": {\"topK\": 3}",
    "client.post(format!(\"{}/v1beta/models/{}:generateContent\", base, model)).json(&json!({\"contents\": []}))",
    "$ ",
    "> ",
    "```sh\n",
    "%%bash\n",
    // Benchmark manifests and tool servers.
    "{\"$schema\": \"schemas/v1/benchmark-manifest.schema.json\", ",
    "\"schemaVersion\": \"1\"",
    "\"heldOut\": {\"casesPerIntent\": \"30\"}",
    "\"intents\": [\"a\", \"a\"]",
    "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP(\"s\")\n",
    "@mcp.tool()\ndef search_items(limit: int = 5):\n    ",
    "print(\"x\")",
    "print(",
    "sys.stdout.write(\"x\")",
    "mcp.run()\n",
    "requests.get(u)",
    "os.getenv(\"X_API_KEY\")",
    "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n",
    "new StdioServerTransport()",
    "server.registerTool(\"list_x\", { inputSchema: { limit: z.number().max(500) } }, async () => r);",
    "server.tool(\"search\", ",
    "console.log(",
    "process.stdout.write(",
    "fetch(u, { headers })",
    "process.env.X_API_KEY",
];

fn settings() -> Settings {
    let loaded = LoadedConfig {
        config: Default::default(),
        path: None,
    };
    Settings::new(&loaded, Overrides::default(), Path::new(".")).expect("default settings")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn checking_and_fixing_arbitrary_text_is_safe(
        name in proptest::sample::select(NAMES),
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..40),
    ) {
        let settings = settings();
        let text: String = pieces.concat();
        let path = Path::new(name);
        let options = |mode| RunOptions { mode, unsafe_fixes: true, ..RunOptions::default() };
        let checked = run::check_bytes(path, text.clone().into_bytes(), &settings, options(FixMode::Check), false);
        prop_assert!(!checked.notices.iter().any(|n| matches!(n, Notice::Error(_))), "{:?}", checked.notices);
        let fixed = run::check_bytes(path, text.clone().into_bytes(), &settings, options(FixMode::Diff), false);
        let internal = fixed.notices.iter().any(|n| matches!(n, Notice::Error(m) if m.contains("internal error")));
        prop_assert!(!internal, "{:?}", fixed.notices);
        if let Some((old, new)) = &fixed.change {
            let surface = Surface::from_path(path);
            prop_assert!(lang::syntax_errors(surface, new) <= lang::syntax_errors(surface, old));
            let again = run::check_bytes(path, new.clone().into_bytes(), &settings, options(FixMode::Diff), false);
            prop_assert!(again.change.is_none(), "second fix changed {:?}", new);
        }
    }
}
