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
