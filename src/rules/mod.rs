//! One file per rule; helpers the MIG rules share live in `mig`, the MAN rules' in `man`, the MCP rules' in `mcp`.

mod il001_unused_suppression;
pub mod legacy;
pub mod man;
mod man001_manifest_invalid_json;
mod man002_manifest_missing_field;
mod man003_manifest_wrong_type;
mod man004_manifest_schema_version;
mod man005_manifest_status;
mod man006_manifest_intents;
mod man007_manifest_held_out;
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
pub(crate) mod mig011_client_package;
mod mig012_grounding_metadata;

use crate::registry::Rule;

pub use il001_unused_suppression::{META as UNUSED_SUPPRESSION, UnusedSuppression};

pub use man001_manifest_invalid_json::ManifestInvalidJson;
pub use man002_manifest_missing_field::ManifestMissingField;
pub use man003_manifest_wrong_type::ManifestWrongType;
pub use man004_manifest_schema_version::ManifestSchemaVersion;
pub use man005_manifest_status::ManifestStatus;
pub use man006_manifest_intents::ManifestIntents;
pub use man007_manifest_held_out::ManifestHeldOut;
pub use mcp001_tool_description::ToolDescription;
pub use mcp002_tool_annotations::ToolAnnotations;
pub use mcp003_strict_input_schema::StrictInputSchema;
pub use mcp004_stdout_in_stdio_server::StdoutInStdioServer;
pub use mcp005_upstream_timeout::UpstreamTimeout;
pub use mcp006_api_key_fail_fast::ApiKeyFailFast;
pub use mcp007_list_bounds::ListBounds;
pub use mcp008_response_format_input::ResponseFormatInput;
pub use mcp009_errors_as_results::ErrorsAsResults;
pub use mcp010_list_result_fields::ListResultFields;
pub use mcp011_response_size::ResponseSize;
pub use mcp012_resource_metadata::ResourceMetadata;
pub use mig001_create_content_call::CreateContentCall;
pub use mig002_response_text::ResponseText;
pub use mig003_chat_history::ChatHistory;
pub use mig004_response_format_placement::ResponseFormatPlacement;
pub use mig005_streaming_call::StreamingCall;
pub use mig006_function_call_parts::FunctionCallParts;
pub use mig007_rest_endpoint::RestEndpoint;
pub use mig008_typed_wrapper::TypedWrapper;
pub use mig009_deprecated_model_id::DeprecatedModelId;
pub use mig010_newest_generation_fields::NewestGenerationFields;
pub use mig011_client_package::ClientPackage;
pub use mig012_grounding_metadata::GroundingMetadata;

/// Every rule: the MIG family, then MAN, then MCP, then IL (about interlint itself), each in
/// code order.
pub static ALL: &[&dyn Rule] = &[
    &CreateContentCall,
    &ResponseText,
    &ChatHistory,
    &ResponseFormatPlacement,
    &StreamingCall,
    &FunctionCallParts,
    &RestEndpoint,
    &TypedWrapper,
    &DeprecatedModelId,
    &NewestGenerationFields,
    &ClientPackage,
    &GroundingMetadata,
    &ManifestInvalidJson,
    &ManifestMissingField,
    &ManifestWrongType,
    &ManifestSchemaVersion,
    &ManifestStatus,
    &ManifestIntents,
    &ManifestHeldOut,
    &ToolDescription,
    &ToolAnnotations,
    &StrictInputSchema,
    &StdoutInStdioServer,
    &UpstreamTimeout,
    &ApiKeyFailFast,
    &ListBounds,
    &ResponseFormatInput,
    &ErrorsAsResults,
    &ListResultFields,
    &ResponseSize,
    &ResourceMetadata,
    &UnusedSuppression,
];
