//! What several rules read of one document, worked out on first use and once per document: the
//! tool server it registers (the MCP rules) and its benchmark-manifest violations (the MAN
//! rules). The engine makes one [`Analysis`] for each document it checks and hands it to the
//! rules in their [`RuleContext`](crate::registry::RuleContext); a document itself holds only
//! what its surface parses.

use std::sync::OnceLock;

use crate::lang::{Document, Surface, Syntax, javascript, python, tool_server};
use crate::manifest::{self, Violation};
use crate::mcp::{self, ToolServer};

pub struct Analysis<'d> {
    doc: &'d Document,
    /// What the document registers as a tool server, if it is one.
    tool_server: OnceLock<Option<ToolServer>>,
    /// The benchmark-manifest violations of the document, for the seven MAN rules.
    manifest_violations: OnceLock<Vec<Violation>>,
}

impl<'d> Analysis<'d> {
    pub fn new(doc: &'d Document) -> Self {
        Analysis {
            doc,
            tool_server: OnceLock::new(),
            manifest_violations: OnceLock::new(),
        }
    }

    /// What the document registers and does as a Model Context Protocol tool server; `None`
    /// when it is not one (or is embedded in another file: a code block, a notebook cell).
    pub fn tool_server(&self) -> Option<&ToolServer> {
        let doc = self.doc;
        self.tool_server
            .get_or_init(|| {
                let conventions = mcp::conventions()?;
                if doc.map.is_some()
                    || !conventions
                        .server_words
                        .iter()
                        .any(|w| doc.text.contains(w.as_str()))
                {
                    return None;
                }
                let suffix = &conventions.api_key_suffix;
                let Syntax::Lowered(tree) = &doc.syntax else {
                    return None;
                };
                match doc.surface {
                    Surface::Python => {
                        tool_server::tool_server(tree, &doc.text, suffix, python::frameworks::recognise)
                    }
                    Surface::JavaScript | Surface::TypeScript | Surface::Tsx => {
                        tool_server::tool_server(tree, &doc.text, suffix, javascript::frameworks::recognise)
                    }
                    _ => None,
                }
            })
            .as_ref()
    }

    /// Every violated constraint of the document read as a benchmark manifest (whether it is
    /// one depends on the file's name: ask `manifest::is_manifest` first).
    pub fn manifest_violations(&self) -> &[Violation] {
        self.manifest_violations
            .get_or_init(|| manifest::violations(self.doc))
    }
}
