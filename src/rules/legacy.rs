//! The legacy create-content findings' fix: the unit a call belongs to migrated as a whole
//! ([`crate::codegen::legacy`] writes it), or why it is not.

use crate::codegen::legacy::{new_import, rewrite_unit, unit_of};
use crate::codegen::writer::Dialect;
use crate::lang::Document;
use crate::migration_facts::Call;
use crate::tables::Tables;

/// A legacy create-content finding with its unit's fix, or with `advice` and why the unit is
/// not migrated.
pub fn with_unit_fix(
    diagnostic: crate::diagnostic::Diagnostic,
    call: &Call,
    doc: &Document,
    settings: &Tables,
    analysis: &crate::analysis::Analysis,
    advice: &str,
) -> crate::diagnostic::Diagnostic {
    let at = call.range.start;
    match unit_of(call, doc) {
        Some(found) => match rewrite_unit(&found, Dialect::of(doc), settings) {
            Ok((edits, in_file)) => {
                let client = found.unit.client_name.as_str();
                let mut fix = crate::diagnostic::Fix::new(
                    crate::diagnostic::Applicability::Unsafe,
                    format!(
                        "Migrate the legacy client here: `{}`, and each request as `{client}.interactions.create(...)`{}",
                        new_import(&found),
                        super::mig::dropping(call, &doc.text, settings)
                    ),
                    edits,
                );
                fix.in_file = in_file;
                diagnostic.with_fix(fix)
            }
            Err(reason) => super::mig::blocked(diagnostic, advice, reason, at, analysis),
        },
        None => super::mig::blocked(
            diagnostic,
            advice,
            no_unit_reason(call, doc, settings),
            at,
            analysis,
        ),
    }
}

/// Why a legacy model's request belongs to no unit: the model comes from another SDK of the same
/// shape (Vertex AI's), or is not made in the module from a binding of the legacy package.
fn no_unit_reason(call: &Call, doc: &Document, settings: &Tables) -> String {
    let text = match &doc.module {
        Some((module, _)) => module.doc.text.as_str(),
        None => doc.text.as_str(),
    };
    let packages = match Dialect::of(doc) {
        Dialect::JavaScript => &settings.clients.javascript,
        _ => &settings.clients.python,
    };
    match packages
        .other_legacy_modules
        .iter()
        .find(|m| text.contains(m.as_str()))
    {
        Some(module) => format!(
            "the module uses `{module}`, an SDK interlint does not migrate (its client is made with a \
             cloud project and location)"
        ),
        None => {
            let receiver = call.callee_text.rsplit_once('.').map_or("the model", |(r, _)| r);
            format!(
                "`{receiver}` is not a model made in this module from a binding of the legacy package \
                 that interlint follows (a parameter, an attribute, a model made elsewhere)"
            )
        }
    }
}
