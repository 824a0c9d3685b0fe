//! `concise`: exactly one line per finding.

use std::io::{self, Write};

use super::{Located, Style};

pub fn write(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    for l in located {
        writeln!(out, "{}", header(l, style))?;
    }
    Ok(())
}

/// `path:line:col: CODE [*] message`, colored on a terminal.
pub fn header(l: &Located, style: Style) -> String {
    let marker = if l.fixable(style) { " [*]" } else { "" };
    let d = l.diagnostic;
    if style.color {
        let code_color = match d.severity {
            crate::diagnostic::Severity::Error => "\x1b[1;31m",
            crate::diagnostic::Severity::Warning => "\x1b[1;33m",
        };
        let marker = if marker.is_empty() {
            String::new()
        } else {
            " \x1b[36m[*]\x1b[0m".to_string()
        };
        format!(
            "\x1b[1m{}\x1b[0m: {code_color}{}\x1b[0m{marker} {}",
            l.location(),
            d.rule.code,
            d.message
        )
    } else {
        format!("{}: {}{marker} {}", l.location(), d.rule.code, d.message)
    }
}
