//! `text`: one block per finding in the style of rustc and ruff: the header line, the source
//! with the span underlined (annotate-snippets), and a `help:` line.

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::concise::header;
use super::{Located, Style};

pub fn write(out: &mut dyn Write, located: &[Located], style: Style) -> io::Result<()> {
    let renderer = if style.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    for l in located {
        writeln!(out, "{}", header(l, style))?;
        let d = l.diagnostic;
        let level = match d.severity {
            crate::diagnostic::Severity::Error => Level::ERROR,
            crate::diagnostic::Severity::Warning => Level::WARNING,
        };
        let label = d.rule.name;
        let mut report = vec![
            Group::with_level(level.clone()).element(
                Snippet::source(l.lines)
                    .line_start(l.first_line)
                    .annotation(AnnotationKind::Primary.span(l.span.clone()).label(label)),
            ),
        ];
        let help = match (&d.fix, &d.suggestion) {
            (Some(fix), _) if d.applicable_fix(style.unsafe_fixes).is_some() => Some(fix.message.clone()),
            (Some(fix), _) => Some(format!("{} (unsafe fix: apply with --unsafe-fixes)", fix.message)),
            (None, Some(s)) => Some(s.clone()),
            (None, None) => None,
        };
        if let Some(help) = help {
            report.push(Group::with_title(Level::HELP.secondary_title(help)));
        }
        writeln!(out, "{}", renderer.render(&report))?;
        writeln!(out)?;
    }
    Ok(())
}
