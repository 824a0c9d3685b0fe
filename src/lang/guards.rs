//! Start-up guards of a credential read, shared by the tool-server extractors: both grammars
//! write `if` as `if_statement` with `condition` and `consequence` fields; only what stops the
//! process (`raise`/`sys.exit`, `throw`/`process.exit`) is the language's own.

use tree_sitter::Node;

use super::treesitter::{text_of, visit};
use crate::mcp::KeyCheck;

/// How a node stops the process: `Some(Ok(()))` with status 1 (a raise, `exit(1)`, an exit
/// with a message), `Some(Err(status))` with another status, `None` when it does not.
pub type Exit = Option<Result<(), String>>;

/// What a block does to stop the process when the credential `variable` is missing.
pub fn exit_in(block: Node, variable: &str, text: &str, exit: &dyn Fn(Node) -> Exit) -> KeyCheck {
    let named = text_of(block, text).contains(variable);
    let mut found = KeyCheck::None;
    visit(block, &mut |node| match exit(node) {
        Some(Ok(())) => {
            let check = if named {
                KeyCheck::FailsFast
            } else {
                KeyCheck::Unnamed
            };
            found = found.clone().better(check);
            false
        }
        Some(Err(status)) => {
            found = found.clone().better(KeyCheck::Status(status));
            false
        }
        None => true,
    });
    found
}

/// The best outcome of every `if` of the file whose condition `on_key` accepts.
pub fn best_guard(
    root: Node,
    variable: &str,
    text: &str,
    on_key: &dyn Fn(&str) -> bool,
    exit: &dyn Fn(Node) -> Exit,
) -> KeyCheck {
    let mut best = KeyCheck::None;
    visit(root, &mut |node| {
        if node.kind() != "if_statement" {
            return true;
        }
        let condition = node
            .child_by_field_name("condition")
            .map_or("", |c| text_of(c, text));
        if on_key(condition)
            && let Some(consequence) = node.child_by_field_name("consequence")
        {
            best = best.clone().better(exit_in(consequence, variable, text, exit));
        }
        true
    });
    best
}
