//! JSON-RPC 2.0 error replies to what is not a message, for the stdio transports of both
//! servers (`interlint server`, `interlint mcp`): the libraries under them drop such input, or
//! end the session on it, where the protocol answers it.

use serde_json::{Value, json};

/// The reply to a body that is not JSON: a parse error, id null.
pub const PARSE_ERROR: i32 = -32700;
/// The reply to JSON that is not a message, with its id when it has one.
pub const INVALID_REQUEST: i32 = -32600;

/// An error reply, as one line of JSON.
pub fn error_reply(id: &Value, code: i32, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// The JSON of a body, or the parse-error reply to a body that is not JSON.
pub fn parse_json(text: &str) -> Result<Value, String> {
    serde_json::from_str(text)
        .map_err(|e| error_reply(&Value::Null, PARSE_ERROR, &format!("Parse error: {e}")))
}

/// The invalid-request reply to JSON that is not a message (`why` says what it lacks).
pub fn invalid_request(value: &Value, why: &str) -> String {
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    error_reply(&id, INVALID_REQUEST, &format!("Invalid Request: {why}"))
}
