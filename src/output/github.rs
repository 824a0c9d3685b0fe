//! `github`: GitHub Actions workflow commands, one per finding.

use std::io::{self, Write};

use super::Located;
use crate::diagnostic::Severity;

pub fn write(out: &mut dyn Write, located: &[Located]) -> io::Result<()> {
    for l in located {
        let d = l.diagnostic;
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut properties = format!(
            "title={},file={},line={},endLine={}",
            escape_property(&format!("{} ({})", d.rule.code, d.rule.name)),
            escape_property(&l.path),
            l.start.line,
            l.end.line
        );
        if l.start.line == l.end.line {
            properties.push_str(&format!(",col={},endColumn={}", l.start.column, l.end.column));
        }
        // The title names the rule; the message does not repeat its code.
        writeln!(out, "::{command} {properties}::{}", escape_data(&d.message))?;
    }
    Ok(())
}

/// As GitHub's toolkit escapes a command's message.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// As GitHub's toolkit escapes a property value.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50%\r\nx: y, z"), "50%25%0D%0Ax: y, z");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
