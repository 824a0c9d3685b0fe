//! `interlint server`: a language server over standard input and output, so that editors show
//! interlint's findings while the code is written and apply its fixes as quick fixes.
//!
//! Built on `lsp-server`, the synchronous message loop `ruff server` and rust-analyzer use:
//! a check of one open file takes milliseconds, so each message is handled in turn on one
//! thread, and nothing is shared between threads. The checks are `check`'s own
//! ([`crate::run::check_bytes`]): the configuration is found from each document's path, the
//! fixes are the fix engine's, and a suppression comment is placed as `--add-noqa` places it.

// `Uri` hashes and compares by its text (lsp-types implements both on `as_str`); the cell
// inside it that clippy sees is fluent-uri's lazily parsed form, which never changes that text.
#![allow(clippy::mutable_key_type)]

mod actions;
mod checks;
mod convert;
mod documents;
mod handlers;
mod notebook;
mod session;
mod sync;
pub mod transport;

use lsp_server::{Connection, Message};

pub use session::Options;

/// Serves over standard input and output until the client says `exit`.
pub fn serve() -> anyhow::Result<u8> {
    let (connection, threads) = transport::stdio()?;
    let outcome = run(&connection);
    // The writer ends when the connection's sender is dropped.
    drop(connection);
    let joined = threads.join();
    outcome?;
    joined?;
    Ok(0)
}

/// Serves one client over a connection: the handshake, then every message until `shutdown`.
pub fn run(connection: &Connection) -> anyhow::Result<()> {
    let (id, params) = connection.initialize_start()?;
    let params: lsp_types::InitializeParams = match serde_json::from_value(params) {
        Ok(params) => params,
        Err(e) => {
            let reply = lsp_server::Response::new_err(
                id,
                lsp_server::ErrorCode::InvalidParams as i32,
                format!("invalid initialize parameters: {e}"),
            );
            connection.sender.send(reply.into())?;
            anyhow::bail!("invalid initialize parameters: {e}");
        }
    };
    let mut server = session::Session::new(connection.sender.clone(), &params);
    connection.initialize_finish(id, server.initialize_result())?;
    server.initialized();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                server.request(request);
            }
            Message::Notification(notification) => {
                if notification.method == "exit" {
                    return Ok(());
                }
                server.notification(notification);
            }
            // Replies to the server's own requests (registrations, refreshes): nothing waits
            // on them.
            Message::Response(_) => {}
        }
    }
    Ok(())
}
