//! `interlint verify` against a mock of the service, started by each test on a local port:
//! a few lines of `std::net` that read each request, record it and answer as the scenario says.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

const KEY: &str = "test-key-5f1c9a";

/// A request as the mock saw it.
#[derive(Clone, Debug)]
struct Seen {
    request_line: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the mock answers to the n-th request (0-based): status, body, and a delay first.
type Scenario = dyn Fn(usize, &Seen) -> (u16, String, Duration) + Send + Sync;

/// Starts the mock; returns its base URL and the requests it has seen.
fn mock(scenario: Box<Scenario>) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let mut headers = Vec::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() || line.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.trim_end().split_once(':') {
                    headers.push((name.trim().to_string(), value.trim().to_string()));
                }
            }
            let length = headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(0);
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let request = Seen {
                request_line: request_line.trim_end().to_string(),
                headers,
                body: serde_json::from_slice(&body).unwrap_or(Value::Null),
            };
            record.lock().expect("lock").push(request.clone());
            let (status, body, delay) = scenario(n, &request);
            std::thread::sleep(delay);
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (format!("http://127.0.0.1:{port}"), seen)
}

fn verify(base: &str, key: Option<&str>, extra: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_interlint"));
    command
        .args(["verify", "--base-url", base, "--timeout", "2"])
        .args(extra)
        .env_remove("GEMINI_API_KEY");
    if let Some(key) = key {
        command.env("GEMINI_API_KEY", key);
    }
    command.output().expect("run interlint verify")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn reply(id: &str, steps: Value) -> String {
    json!({"id": id, "steps": steps}).to_string()
}

fn output(text: &str) -> Value {
    json!([{"type": "user_input", "content": [{"type": "text", "text": "..."}]},
           {"type": "model_output", "content": [{"type": "text", "text": text}]}])
}

/// A service that keeps the context: turn two answers with the code word of turn one, found
/// through `previous_interaction_id`. It refuses a request without the revision or the key.
fn faithful() -> Box<Scenario> {
    let words = Mutex::new(Vec::<(String, String)>::new());
    Box::new(move |n, seen| {
        if seen.header("Api-Revision") != Some("2026-05-20") || seen.header("x-goog-api-key") != Some(KEY) {
            return (400, r#"{"error": "missing header"}"#.into(), Duration::ZERO);
        }
        let id = format!("int-{n}");
        let input = seen.body["input"].as_str().unwrap_or_default().to_string();
        let answer = match seen.body["previous_interaction_id"].as_str() {
            Some(previous) => words
                .lock()
                .expect("lock")
                .iter()
                .find(|(i, _)| i == previous)
                .map_or("I do not know.".to_string(), |(_, w)| {
                    format!("The word was {w}.")
                }),
            None => {
                let word = input
                    .split("code word: ")
                    .nth(1)
                    .and_then(|rest| rest.split('.').next())
                    .unwrap_or_default()
                    .to_string();
                words.lock().expect("lock").push((id.clone(), word));
                "OK".to_string()
            }
        };
        (200, reply(&id, output(&answer)), Duration::ZERO)
    })
}

#[test]
fn all_checks_pass_against_a_faithful_service() {
    let (base, seen) = mock(faithful());
    let o = verify(&base, Some(KEY), &[]);
    let stdout = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}{}", text(&o.stderr));
    assert!(stdout.starts_with(&format!(
        "POST {base}/v1beta/interactions (model gemini-3.5-flash, Api-Revision: 2026-05-20)\n  turn 1: HTTP 200 in "
    )));
    assert!(
        stdout.contains("\npass steps         the reply has 2 steps\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\npass model-output  a `model_output` step has the text \"OK\"\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\npass context       turn two, continuing `int-0`, gave back the code word"),
        "{stdout}"
    );
    assert!(stdout.ends_with("3 of 3 checks passed.\n"), "{stdout}");
    let seen = seen.lock().expect("lock");
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].request_line, "POST /v1beta/interactions HTTP/1.1");
    assert_eq!(seen[0].body["model"], "gemini-3.5-flash");
    assert!(seen[0].body.get("previous_interaction_id").is_none());
    assert_eq!(seen[1].body["previous_interaction_id"], "int-0");
    // The key went in a header, never to the output.
    assert!(!stdout.contains(KEY) && !text(&o.stderr).contains(KEY));
}

#[test]
fn json_output_and_the_model_option() {
    // A trailing slash on the base URL gives no `//`.
    let (base, seen) = mock(faithful());
    let o = verify(
        &format!("{base}/"),
        Some(KEY),
        &["--format", "json", "--model", "gemini-3.1-pro-preview"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let document: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(document["passed"], true);
    assert_eq!(document["model"], "gemini-3.1-pro-preview");
    assert_eq!(document["url"], format!("{base}/v1beta/interactions"));
    let names: Vec<&str> = document["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["steps", "model-output", "context"]);
    assert_eq!(document["requests"][1]["status"], 200);
    assert!(document["requests"][0]["milliseconds"].is_u64());
    assert_eq!(
        seen.lock().expect("lock")[1].body["model"],
        "gemini-3.1-pro-preview"
    );
}

fn failing(scenario: Box<Scenario>, expected_fail: &str) -> String {
    let (base, _) = mock(scenario);
    let o = verify(&base, Some(KEY), &[]);
    let stdout = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}{}", text(&o.stderr));
    assert!(stdout.contains(&format!("\nFAIL {expected_fail}")), "{stdout}");
    stdout
}

#[test]
fn empty_steps_fail() {
    let stdout = failing(
        Box::new(|n, _| (200, reply(&format!("i{n}"), json!([])), Duration::ZERO)),
        "steps         the reply's `steps` is empty",
    );
    assert!(stdout.contains("FAIL model-output"), "{stdout}");
}

#[test]
fn no_model_output_step_fails() {
    let steps = json!([{"type": "thought", "content": [{"text": "thinking"}]}]);
    let stdout = failing(
        Box::new(move |n, _| (200, reply(&format!("i{n}"), steps.clone()), Duration::ZERO)),
        "model-output  no step has `type` `model_output`",
    );
    assert!(stdout.contains("pass steps"), "{stdout}");
}

#[test]
fn lost_context_fails() {
    let stdout = failing(
        Box::new(|n, _| {
            let answer = if n == 0 {
                "OK"
            } else {
                "I have no memory of a code word."
            };
            (200, reply(&format!("i{n}"), output(answer)), Duration::ZERO)
        }),
        "context       turn two, continuing `i0`, did not give back the code word",
    );
    assert!(
        stdout.contains("it answered \"I have no memory of a code word.\""),
        "{stdout}"
    );
    assert!(stdout.ends_with("2 of 3 checks passed.\n"), "{stdout}");
}

#[test]
fn a_reply_without_an_id_fails_the_context_check_without_a_second_turn() {
    let stdout = failing(
        Box::new(|_, _| (200, json!({"steps": output("OK")}).to_string(), Duration::ZERO)),
        "context       the first reply has no `id`",
    );
    assert!(!stdout.contains("turn 2:"), "{stdout}");
}

#[test]
fn http_errors_and_bad_replies_are_errors() {
    for (status, body, expected) in [
        (
            401,
            r#"{"error": {"message": "API key not valid"}}"#,
            "error: turn 1: HTTP 401 from ",
        ),
        (503, "overloaded", "error: turn 1: HTTP 503 from "),
        (200, "<html>", "error: turn 1: the reply (HTTP 200) is not JSON"),
    ] {
        let (base, _) = mock(Box::new(move |_, _| (status, body.to_string(), Duration::ZERO)));
        let o = verify(&base, Some(KEY), &[]);
        let stderr = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{status}: {stderr}");
        assert!(stderr.starts_with(expected), "{stderr}");
        assert!(
            stderr.contains(&body.replace('\n', " ")[..5]),
            "the body is shown: {stderr}"
        );
    }
    // A 5xx on turn two, after a good turn one.
    let (base, _) = mock(Box::new(|n, _| match n {
        0 => (200, reply("i0", output("OK")), Duration::ZERO),
        _ => (500, "{}".to_string(), Duration::ZERO),
    }));
    let o = verify(&base, Some(KEY), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("error: turn 2: HTTP 500 from "),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_key_is_never_shown_even_when_echoed() {
    let (base, _) = mock(Box::new(|_, seen| {
        let echoed = format!(
            "{{\"error\": \"bad key {}\"}}",
            seen.header("x-goog-api-key").unwrap_or_default()
        );
        (403, echoed, Duration::ZERO)
    }));
    let o = verify(&base, Some(KEY), &[]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = text(&o.stderr);
    assert!(stderr.contains("bad key ***"), "{stderr}");
    assert!(!stderr.contains(KEY));
}

#[test]
fn missing_headers_are_detected_by_the_service() {
    // The faithful mock refuses a request without Api-Revision or the key header: with the
    // wrong key, it answers 400, so interlint sent both only when the first test passes.
    let (base, seen) = mock(faithful());
    let o = verify(&base, Some("another-key"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("HTTP 400"), "{}", text(&o.stderr));
    let seen = seen.lock().expect("lock");
    assert_eq!(seen[0].header("Api-Revision"), Some("2026-05-20"));
    assert_eq!(seen[0].header("x-goog-api-key"), Some("another-key"));
    assert_eq!(seen[0].header("Content-Type"), Some("application/json"));
}

#[test]
fn a_slow_service_times_out() {
    let (base, _) = mock(Box::new(|_, _| {
        (200, reply("i0", output("OK")), Duration::from_secs(4))
    }));
    let started = std::time::Instant::now();
    let o = verify(&base, Some(KEY), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with(&format!(
            "error: turn 1: no reply from {base}/v1beta/interactions within 2 s"
        )),
        "{}",
        text(&o.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[test]
fn a_missing_key_is_named_and_nothing_is_sent() {
    let (base, seen) = mock(faithful());
    let o = verify(&base, None, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: the API key is read from the environment variable GEMINI_API_KEY, which is not set (`--api-key-env NAME` names another)\n"
    );
    let o = verify(&base, None, &["--api-key-env", "MY_SERVICE_API_KEY"]);
    assert!(text(&o.stderr).contains("environment variable MY_SERVICE_API_KEY, which is not set"));
    let o = verify(&base, Some("  "), &[]);
    assert!(text(&o.stderr).contains("GEMINI_API_KEY, which is empty"));
    assert!(seen.lock().expect("lock").is_empty());
    // Another variable, given by name.
    let o = Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args([
            "verify",
            "--base-url",
            &base,
            "--api-key-env",
            "MY_SERVICE_API_KEY",
        ])
        .env("MY_SERVICE_API_KEY", KEY)
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

#[test]
fn a_refused_connection_and_a_bad_url_are_errors() {
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    // The listener is dropped: nothing listens there now.
    let o = verify(&format!("http://127.0.0.1:{port}"), Some(KEY), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("error: turn 1: cannot reach http://127.0.0.1:"),
        "{}",
        text(&o.stderr)
    );
    let o = verify("ftp://example.com", Some(KEY), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: --base-url ftp://example.com: not an http:// or https:// URL\n"
    );
}

/// A service that answers every turn with the same reply, whatever the key.
fn constant(text: &'static str) -> Box<Scenario> {
    Box::new(move |_, _| (200, reply("int-0", output(text)), Duration::ZERO))
}

#[test]
fn a_short_key_masks_only_what_the_service_echoes() {
    // A one-letter key: interlint's own words ("passed", "steps") keep their letters.
    let (base, _) = mock(constant("OK s"));
    let o = verify(&base, Some("s"), &["--format", "json"]);
    let document: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("JSON ({e}): {}", text(&o.stdout)));
    assert_eq!(document["passed"], false, "{document}");
    assert_eq!(document["checks"][0]["name"], "steps");
    assert_eq!(document["checks"][0]["detail"], "the reply has 2 steps");
    // The service's text is masked.
    assert_eq!(
        document["checks"][1]["detail"],
        "a `model_output` step has the text \"OK ***\""
    );
    let (base, _) = mock(constant("OK"));
    let o = verify(&base, Some("s"), &[]);
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains("\npass steps         the reply has 2 steps\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("2 of 3 checks passed.\n"), "{stdout}");
}

#[test]
fn errors_are_json_under_format_json() {
    let o = verify("http://127.0.0.1:9", None, &["--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let document: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("JSON ({e}): {}", text(&o.stdout)));
    assert_eq!(document["passed"], false);
    assert!(
        document["error"]
            .as_str()
            .is_some_and(|e| e.contains("GEMINI_API_KEY")),
        "{document}"
    );
}

#[test]
fn help_shows_the_real_defaults() {
    let o = Command::new(env!("CARGO_BIN_EXE_interlint"))
        .args(["verify", "--help"])
        .output()
        .expect("run");
    let help = text(&o.stdout);
    assert!(
        help.contains("[default: https://generativelanguage.googleapis.com]"),
        "{help}"
    );
    assert!(help.contains("[default: GEMINI_API_KEY]"), "{help}");
    assert!(help.contains("[default: gemini-3.5-flash]"), "{help}");
    assert!(
        !help.contains("source document") && !help.contains("rules/endpoint.toml"),
        "{help}"
    );
}
