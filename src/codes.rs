//! Rule codes as data: every rule of this version, registered once ([`registered_rules`]),
//! its codes ([`CODES`]), and how a selector written by a user (` mig009`, `MIG`, `ALL`) is
//! read and checked. The configuration, suppression comments and the command line check
//! selectors here, below the rules themselves; the registry's tests keep each registered code
//! equal to its rule's own.

/// Every rule of this version, registered once: its code, and the static that implements it
/// as `rules` names it (tokens only: this module imports no rule). In order: the MIG family,
/// then MAN, then MCP, then IL (about interlint itself), each in code order. Hands the list to
/// the macro `$make`: [`CODES`] is made from it here, `rules::ALL` in `rules`.
macro_rules! registered_rules {
    ($make:ident) => {
        $make! {
            "MIG001" => mig001_create_content_call::CreateContentCall,
            "MIG002" => mig002_response_text::ResponseText,
            "MIG003" => mig003_chat_history::ChatHistory,
            "MIG004" => mig004_response_format_placement::ResponseFormatPlacement,
            "MIG005" => mig005_streaming_call::StreamingCall,
            "MIG006" => mig006_function_call_parts::FunctionCallParts,
            "MIG007" => mig007_rest_endpoint::RestEndpoint,
            "MIG008" => mig008_typed_wrapper::TypedWrapper,
            "MIG009" => mig009_deprecated_model_id::DeprecatedModelId,
            "MIG010" => mig010_newest_generation_fields::NewestGenerationFields,
            "MIG011" => mig011_client_package::ClientPackage,
            "MIG012" => mig012_grounding_metadata::GroundingMetadata,
            "MAN001" => man::MANIFEST_INVALID_JSON,
            "MAN002" => man::MANIFEST_MISSING_FIELD,
            "MAN003" => man::MANIFEST_WRONG_TYPE,
            "MAN004" => man::MANIFEST_SCHEMA_VERSION,
            "MAN005" => man::MANIFEST_STATUS,
            "MAN006" => man::MANIFEST_INTENTS,
            "MAN007" => man::MANIFEST_HELD_OUT,
            "MCP001" => mcp001_tool_description::ToolDescription,
            "MCP002" => mcp002_tool_annotations::ToolAnnotations,
            "MCP003" => mcp003_strict_input_schema::StrictInputSchema,
            "MCP004" => mcp004_stdout_in_stdio_server::StdoutInStdioServer,
            "MCP005" => mcp005_upstream_timeout::UpstreamTimeout,
            "MCP006" => mcp006_api_key_fail_fast::ApiKeyFailFast,
            "MCP007" => mcp007_list_bounds::ListBounds,
            "MCP008" => mcp008_response_format_input::ResponseFormatInput,
            "MCP009" => mcp009_errors_as_results::ErrorsAsResults,
            "MCP010" => mcp010_list_result_fields::ListResultFields,
            "MCP011" => mcp011_response_size::ResponseSize,
            "MCP012" => mcp012_resource_metadata::ResourceMetadata,
            "IL001" => il001_unused_suppression::UnusedSuppression,
        }
    };
}
pub(crate) use registered_rules;

/// [`CODES`] from the list of [`registered_rules`].
macro_rules! codes_of {
    ($($code:literal => $($rule:ident)::+,)*) => {
        /// Every rule code of this version, in the order of their registration
        /// ([`registered_rules`]).
        pub const CODES: &[&str] = &[$($code),*];
    };
}

registered_rules!(codes_of);

/// A selector as written by a user (` mig009`), as interlint compares it (`MIG009`).
pub fn normalize_selector(selector: &str) -> String {
    selector.trim().to_ascii_uppercase()
}

/// A command-line selector: normalized, and known.
pub fn parse_selector(selector: &str) -> Result<String, String> {
    let normalized = normalize_selector(selector);
    if selects_a_rule(&normalized) {
        Ok(normalized)
    } else {
        Err(no_rule_selected(selector.trim()))
    }
}

/// Why `selector` is refused where rules are selected or ignored: it selects no rule of this
/// version (a typo, or a code of the catalogue not implemented yet), with the closest codes.
pub fn no_rule_selected(selector: &str) -> String {
    let closest = closest(&normalize_selector(selector));
    let hint = match closest.as_slice() {
        [] => String::new(),
        codes => format!(
            "; did you mean {}?",
            codes
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    };
    format!(
        "unknown rule code or prefix `{selector}`: it selects no rule of this version{hint} (see `interlint rules`)"
    )
}

/// The codes and prefixes nearest to `selector`: those fewest edits away, when that is two at
/// most (three of them at most).
fn closest(selector: &str) -> Vec<&'static str> {
    let candidates: Vec<(usize, &'static str)> = ["ALL", "MIG", "MAN", "MCP", "IL"]
        .into_iter()
        .chain(CODES.iter().copied())
        .map(|code| (strsim::damerau_levenshtein(selector, code), code))
        .collect();
    let Some(nearest) = candidates.iter().map(|&(d, _)| d).min().filter(|&d| d <= 2) else {
        return Vec::new();
    };
    candidates
        .into_iter()
        .filter(|&(d, _)| d == nearest)
        .take(3)
        .map(|(_, code)| code)
        .collect()
}

/// Whether `selector` selects a rule of this version (`ALL`, `MIG`, `MIG009`).
pub fn selects_a_rule(selector: &str) -> bool {
    selector == "ALL" || CODES.iter().any(|code| code.starts_with(selector))
}

/// Whether `selector` names a rule code or a code prefix that interlint knows, now or in its
/// catalogue (`MIG`, `MIG009`, `MAN001`, `ALL`).
pub fn is_known_selector(selector: &str) -> bool {
    if selects_a_rule(selector) {
        return true;
    }
    let Some(digits) = ["MIG", "MAN", "MCP"]
        .iter()
        .find_map(|p| selector.strip_prefix(p))
    else {
        return false;
    };
    digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_of_no_rule_name_the_closest() {
        assert_eq!(parse_selector(" mig009"), Ok("MIG009".to_string()));
        let why = parse_selector("MIG999").unwrap_err();
        assert!(
            why.contains("`MIG999`: it selects no rule of this version; did you mean `MIG009`?"),
            "{why}"
        );
        let why = parse_selector("il002").unwrap_err();
        assert!(why.contains("did you mean `IL001`?"), "{why}");
        let why = parse_selector("MCP9").unwrap_err();
        assert!(why.contains("did you mean `MCP`?"), "{why}");
        let why = parse_selector("XYZ123456").unwrap_err();
        assert!(!why.contains("did you mean"), "{why}");
    }

    #[test]
    fn selectors() {
        assert!(is_known_selector("MIG"));
        assert!(is_known_selector("MIG001"));
        assert!(is_known_selector("ALL"));
        assert!(!is_known_selector("XYZ"));
        assert!(!is_known_selector("MIG0001"));
        assert!(!is_known_selector("mig009"));
    }
}
