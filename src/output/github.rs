//! `github`: GitHub Actions workflow commands, one per finding, then one per message of the run
//! (a file skipped or that could not be read), so that a pull request shows those too.

use std::io::{self, Write};

use super::{Level, Located, Message};
use crate::diagnostic::Severity;

pub fn write(out: &mut dyn Write, located: &[Located], messages: &[Message]) -> io::Result<()> {
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
    for m in messages {
        let command = match m.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => continue,
        };
        // On the file, without a line: GitHub shows it as an annotation of the file.
        let properties = match &m.path {
            Some(path) => format!(" file={}", escape_property(path)),
            None => String::new(),
        };
        writeln!(out, "::{command}{properties}::{}", escape_data(&m.text))?;
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
    fn messages_are_commands_on_their_file() {
        let messages = [
            Message {
                level: Level::Warning,
                path: Some("a,b:c.txt".into()),
                text: "skipped: not valid UTF-8".into(),
            },
            Message {
                level: Level::Error,
                path: None,
                text: "x: No such file or directory".into(),
            },
            Message {
                level: Level::Note,
                path: Some("blob.bin".into()),
                text: "skipped: binary file".into(),
            },
        ];
        let mut out = Vec::new();
        write(&mut out, &[], &messages).expect("to memory");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "::warning file=a%2Cb%3Ac.txt::skipped: not valid UTF-8\n::error::x: No such file or directory\n"
        );
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50%\r\nx: y, z"), "50%25%0D%0Ax: y, z");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
