//! interlint: a migration linter and rewriter for the interactions endpoint.
//!
//! The engine runs walk → read → prefilter → parse → rules → diagnostics → fixes → output.

pub mod analysis;
pub mod cli;
pub mod clients;
pub mod codegen;
pub mod codes;
pub mod config;
pub mod diagnostic;
pub mod endpoint;
pub mod engine;
pub mod fix;
pub mod jsonrpc;
pub mod lang;
pub mod language_server;
pub mod manifest;
pub mod mcp_server;
pub mod migration_facts;
pub mod models;
pub mod noqa;
pub mod output;
pub mod prefilter;
pub mod registry;
pub mod request_fields;
pub mod rules;
pub mod run;
pub mod settings;
pub mod source;
pub mod suppress;
pub mod tables;
pub mod tool_server_facts;
pub mod verify;
pub mod walk;
pub mod write;
