//! `json`: one stable JSON object, documented in the README.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::{Counts, Located};

pub fn write(out: &mut dyn Write, located: &[Located], counts: &Counts) -> io::Result<()> {
    let document = json!({
        "version": 1,
        "findings": super::ARRAY_MARK,
        "summary": {
            "files_scanned": counts.files_scanned,
            "findings": counts.findings,
            "fixable": counts.fixable,
            "unsafe_fixable": counts.unsafe_fixable,
        },
    });
    super::write_streamed(out, &document, located.iter().map(finding))
}

/// One finding as the `json` format writes it (also the items of `interlint mcp`'s check).
pub fn finding(l: &Located) -> Value {
    let d = l.diagnostic;
    let fix = d.fix.as_ref().map(|fix| {
        let edits: Vec<Value> = l
            .edits
            .iter()
            .map(|(start, end, content)| json!({"start": start, "end": end, "content": content}))
            .collect();
        json!({
            "applicability": fix.applicability.as_str(),
            "message": fix.message,
            "edits": edits,
        })
    });
    let mut finding = json!({
        "code": d.rule.code,
        "name": d.rule.name,
        "severity": d.severity.as_str(),
        "message": d.message,
        "path": l.path,
        "start": l.start,
        "end": l.end,
        "fix": fix,
        "suggestion": d.suggestion,
    });
    // A finding left without a rewrite says why, and what kind of decision that asks of the
    // team: `no-counterpart`, `out-of-scope` or `not-followed`.
    if let (Some(reason), Some(class), Some(object)) = (&d.reason, d.reason_class, finding.as_object_mut()) {
        object.insert("reason".into(), json!({"class": class.as_str(), "text": reason}));
    }
    finding
}
