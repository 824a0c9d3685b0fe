//! Rule codes as data: every code of this version, and how a selector written by a user
//! (` mig009`, `MIG`, `ALL`) is read and checked. The configuration, suppression comments and
//! the command line check selectors here, below the rules themselves; the registry's tests keep
//! [`CODES`] equal to the codes of `rules::ALL`.

/// Every rule code of this version, in the order of `rules::ALL`: the MIG family, then MAN,
/// then MCP, then IL (about interlint itself).
pub const CODES: &[&str] = &[
    "MIG001", "MIG002", "MIG003", "MIG004", "MIG005", "MIG006", "MIG007", "MIG008", "MIG009", "MIG010",
    "MIG011", "MIG012", "MAN001", "MAN002", "MAN003", "MAN004", "MAN005", "MAN006", "MAN007", "MCP001",
    "MCP002", "MCP003", "MCP004", "MCP005", "MCP006", "MCP007", "MCP008", "MCP009", "MCP010", "MCP011",
    "MCP012", "IL001",
];

/// A selector as written by a user (` mig009`), as interlint compares it (`MIG009`).
pub fn normalize_selector(selector: &str) -> String {
    selector.trim().to_ascii_uppercase()
}

/// A command-line selector: normalized, and known.
pub fn parse_selector(selector: &str) -> Result<String, String> {
    let normalized = normalize_selector(selector);
    if is_known_selector(&normalized) {
        Ok(normalized)
    } else {
        Err(format!(
            "unknown rule code or prefix `{}` (see `interlint rules`)",
            selector.trim()
        ))
    }
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
    fn selectors() {
        assert!(is_known_selector("MIG"));
        assert!(is_known_selector("MIG001"));
        assert!(is_known_selector("ALL"));
        assert!(!is_known_selector("XYZ"));
        assert!(!is_known_selector("MIG0001"));
        assert!(!is_known_selector("mig009"));
    }
}
