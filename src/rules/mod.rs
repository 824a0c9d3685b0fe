//! One file per rule.

mod mig009_deprecated_model_id;

use crate::registry::Rule;

pub use mig009_deprecated_model_id::DeprecatedModelId;

/// Every rule, in code order.
pub static ALL: &[&dyn Rule] = &[&DeprecatedModelId];
