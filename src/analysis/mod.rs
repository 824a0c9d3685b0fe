//! The document questions, answered in one place: what several rules (and the run) read of
//! one document, worked out on first use and once per document — the tool server it registers
//! (the MCP rules), its benchmark-manifest violations (the MAN rules), whether it is a client
//! package's own code (the MIG rules that rewrite or report calls, [`packages`]), the
//! predecessor URLs written in its text ([`recorded`], MIG005 and MIG007), its model ids and
//! those a test compares against ([`compared`], MIG009 and the run's pass over the test
//! files). The engine makes one [`Analysis`] for each document it checks and hands it to the
//! rules in their [`RuleContext`](crate::registry::RuleContext); a document itself holds only
//! what its surface parses and the facts read from it (`Document::facts`, which hold the
//! migration units of its requests).
//!
//! The modules hold the analyses themselves: [`packages`] (client packages: own code, legacy
//! imports, dependency files), [`recorded`] (URLs of recorded requests), [`compared`],
//! [`knowledge`], [`elements`] and [`keys`] (what a document does with a model id: a test
//! compares against it, an application knows it, a mapping has it as a key), and
//! [`suppressions`] (the directives of a file's documents, for IL001), [`unfollowed`] (calls of
//! client methods on objects not followed to where they are made), [`sent_bodies`] (request
//! bodies of the predecessor endpoint sent to a URL made elsewhere), [`no_counterpart`] (what
//! the module depends on that the interactions API lacks: the first reason a unit is left).
//!
//! Imports the surfaces, their facts and the tables; never a rule.

pub mod compared;
pub mod elements;
pub mod keys;
pub mod knowledge;
pub mod no_counterpart;
pub mod packages;
pub mod recorded;
pub mod sent_bodies;
pub mod suppressions;
pub mod unfollowed;

use std::cell::OnceCell;
use std::path::Path;

use crate::lang::{Document, Surface, Syntax, javascript, python, tool_server};
use crate::manifest::{self, Violation};
use crate::models::ModelMatch;
use crate::tables::Tables;
use crate::tool_server_facts::{self, ToolServer};
use compared::ComparedIds;
use recorded::TextUrl;

pub struct Analysis<'d> {
    doc: &'d Document,
    /// The file's path as given to the run.
    path: &'d Path,
    tables: &'d Tables,
    /// What the document registers as a tool server, if it is one.
    tool_server: OnceCell<Option<ToolServer>>,
    /// The benchmark-manifest violations of the document, for the seven MAN rules.
    manifest_violations: OnceCell<Vec<Violation>>,
    own_legacy_code: OnceCell<bool>,
    own_current_code: OnceCell<bool>,
    predecessor_urls: OnceCell<Vec<TextUrl>>,
    model_ids: OnceCell<Vec<ModelMatch>>,
    compared_ids: OnceCell<ComparedIds>,
    missing: OnceCell<Vec<no_counterpart::Missing>>,
    assembled_urls: OnceCell<Vec<crate::endpoint::PredecessorUrl>>,
    unfollowed: OnceCell<Vec<unfollowed::Unfollowed>>,
    sent_bodies: OnceCell<Vec<sent_bodies::SentBody>>,
}

impl<'d> Analysis<'d> {
    /// The analysis of `doc`, a document of the file at `path`, read with `tables`.
    pub fn new(doc: &'d Document, path: &'d Path, tables: &'d Tables) -> Self {
        Analysis {
            doc,
            path,
            tables,
            tool_server: OnceCell::new(),
            manifest_violations: OnceCell::new(),
            own_legacy_code: OnceCell::new(),
            own_current_code: OnceCell::new(),
            predecessor_urls: OnceCell::new(),
            model_ids: OnceCell::new(),
            compared_ids: OnceCell::new(),
            missing: OnceCell::new(),
            assembled_urls: OnceCell::new(),
            unfollowed: OnceCell::new(),
            sent_bodies: OnceCell::new(),
        }
    }

    /// Whether the document is the legacy client package's own code or tests, where the
    /// legacy client is used by design ([`packages::own_legacy_code`]).
    pub fn own_legacy_code(&self) -> bool {
        *self
            .own_legacy_code
            .get_or_init(|| packages::own_legacy_code(self.path, self.tables, self.doc.surface))
    }

    /// Whether the document is the current client package's own code or tests, which call its
    /// create-content method by design ([`packages::own_current_code`]).
    pub fn own_current_code(&self) -> bool {
        *self
            .own_current_code
            .get_or_init(|| packages::own_current_code(self.path, self.tables, self.doc.surface))
    }

    /// Every predecessor URL of the document's scan regions, the copies of a recorded
    /// request's URL left out ([`recorded::predecessor_urls`]).
    pub fn predecessor_urls(&self) -> &[TextUrl] {
        self.predecessor_urls
            .get_or_init(|| recorded::predecessor_urls(self.doc))
    }

    /// The document analysed.
    pub fn document(&self) -> &'d Document {
        self.doc
    }

    /// What the document reads of a response or sets on a request that the interactions API
    /// has no counterpart for ([`no_counterpart::missing`]).
    pub fn missing(&self) -> &[no_counterpart::Missing] {
        self.missing.get_or_init(|| no_counterpart::missing(self.doc))
    }

    /// The predecessor URLs of the document assembled from parts ([`recorded::assembled_urls`]).
    pub fn assembled_urls(&self) -> &[crate::endpoint::PredecessorUrl] {
        self.assembled_urls
            .get_or_init(|| recorded::assembled_urls(self.doc))
    }

    /// The calls of client methods on objects the facts do not follow
    /// ([`unfollowed::unfollowed`]).
    pub fn unfollowed(&self) -> &[unfollowed::Unfollowed] {
        self.unfollowed.get_or_init(|| {
            unfollowed::unfollowed(
                self.doc,
                packages::imports_legacy_package(self.doc, self.tables),
                packages::imports_client_package(self.doc, self.tables),
            )
        })
    }

    /// The calls sending a predecessor request body written in the document
    /// ([`sent_bodies::sent_bodies`]).
    pub fn sent_bodies(&self) -> &[sent_bodies::SentBody] {
        self.sent_bodies.get_or_init(|| {
            // A test's objects with `contents` are what it expects, not requests.
            if self.tables.models.tests.is_test_file(self.path) {
                return Vec::new();
            }
            sent_bodies::sent_bodies(self.doc, packages::imports_client_package(self.doc, self.tables))
        })
    }

    /// The model ids of the table in `rules/models.toml` found in the document's scan regions.
    pub fn model_ids(&self) -> &[ModelMatch] {
        self.model_ids.get_or_init(|| {
            let doc = self.doc;
            doc.scan_regions
                .iter()
                .flat_map(|region| self.tables.matcher.find(&doc.text, region.clone()))
                .collect()
        })
    }

    /// The model ids a test compares against, when the file is a test file
    /// ([`crate::models::Tests::is_test_file`]); none in other files.
    pub fn compared_ids(&self) -> &ComparedIds {
        self.compared_ids.get_or_init(|| {
            if !self.tables.models.tests.is_test_file(self.path) {
                return ComparedIds::default();
            }
            compared::compared_ids(self.doc, self.tables, self.model_ids())
        })
    }

    /// What the document registers and does as a Model Context Protocol tool server; `None`
    /// when it is not one (or is embedded in another file: a code block, a notebook cell).
    pub fn tool_server(&self) -> Option<&ToolServer> {
        let doc = self.doc;
        self.tool_server
            .get_or_init(|| {
                let conventions = tool_server_facts::conventions()?;
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
