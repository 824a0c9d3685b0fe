//! One file per rule, except the seven MAN rules, one body driven by a table in `man`; helpers
//! the MIG rules share live in `mig`, the MCP rules' in `mcp`. A rule module imports helpers and
//! lower layers, never another rule's module. Every rule is registered once, in
//! [`crate::codes::registered_rules`], from which [`ALL`] and the codes are made.

mod il001_unused_suppression;
pub mod legacy;
pub mod man;
pub mod mcp;
mod mcp001_tool_description;
mod mcp002_tool_annotations;
mod mcp003_strict_input_schema;
mod mcp004_stdout_in_stdio_server;
mod mcp005_upstream_timeout;
mod mcp006_api_key_fail_fast;
mod mcp007_list_bounds;
mod mcp008_response_format_input;
mod mcp009_errors_as_results;
mod mcp010_list_result_fields;
mod mcp011_response_size;
mod mcp012_resource_metadata;
pub mod mig;
mod mig001_create_content_call;
mod mig002_response_text;
mod mig003_chat_history;
mod mig004_response_format_placement;
mod mig005_streaming_call;
mod mig006_function_call_parts;
mod mig007_rest_endpoint;
mod mig008_typed_wrapper;
mod mig009_deprecated_model_id;
mod mig010_newest_generation_fields;
mod mig011_client_package;
mod mig012_grounding_metadata;

use crate::registry::Rule;

pub use il001_unused_suppression::META as UNUSED_SUPPRESSION;

/// `ALL` from the list of [`crate::codes::registered_rules`].
macro_rules! all_rules {
    ($($code:literal => $($rule:ident)::+,)*) => {
        /// Every rule, in the order of their registration ([`crate::codes::registered_rules`]):
        /// the MIG family, then MAN, then MCP, then IL (about interlint itself), each in code
        /// order.
        pub static ALL: &[&dyn Rule] = &[$(&$($rule)::+),*];
    };
}

crate::codes::registered_rules!(all_rules);
