//! `interlint verify`: the source document's verification step after a migration (end of
//! section 9), as a command. One create-interaction call with a simple input must return
//! non-empty `steps` with a `model_output` step holding text, and a second call with
//! `previous_interaction_id` must keep the earlier context.
//!
//! The context check is a heuristic: turn one plants a code word made up for the run, turn two
//! asks for it back, and the context is kept when the answer holds the word.
//!
//! The only command of interlint that touches the network.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::endpoint::MATCHER;

/// Where and how to send the requests.
#[derive(Clone, Debug)]
pub struct Options {
    pub base_url: Option<String>,
    pub api_key_env: Option<String>,
    pub model: Option<String>,
    pub timeout: Duration,
    pub json: bool,
}

/// One request sent: its turn, HTTP status and time.
#[derive(Clone, Debug)]
struct Sent {
    turn: usize,
    status: u16,
    millis: u128,
}

/// One check of the source document's list, passed or failed, with what was seen.
#[derive(Clone, Debug)]
struct Check {
    name: &'static str,
    passed: bool,
    detail: String,
}

/// `--base-url`'s help, with the default of rules/endpoint.toml.
pub fn help_base_url() -> String {
    format!(
        "The service's base URL [default: {}]",
        MATCHER.endpoint.verify.base_url
    )
}

/// `--api-key-env`'s help, with the default of rules/endpoint.toml.
pub fn help_api_key_env() -> String {
    format!(
        "The environment variable holding the API key (never printed) [default: {}]",
        MATCHER.endpoint.verify.api_key_env
    )
}

/// `--model`'s help, with the newest generation of rules/models.toml.
pub fn help_model() -> String {
    match default_model() {
        Ok(model) => format!("The model to ask [default: {model}]"),
        Err(_) => "The model to ask".to_string(),
    }
}

/// [`verify`], with an error written as JSON on the output under `--format json` (a program
/// reading it gets JSON whatever happens); exit status 2 for it, as for every error.
pub fn verify_or_report(options: &Options, out: &mut dyn std::io::Write) -> anyhow::Result<u8> {
    match verify(options, out) {
        Err(e) if options.json => {
            let document = json!({"passed": false, "error": format!("{e:#}")});
            writeln!(out, "{document}")?;
            out.flush()?;
            Ok(2)
        }
        outcome => outcome,
    }
}

/// Runs the verification; returns the exit status (0: every check passed, 1: one failed). An
/// error (a usage error, no key, the network, an HTTP error status, a reply that is not JSON)
/// is `Err`: the checks could not be made (exit 2).
pub fn verify(options: &Options, out: &mut dyn std::io::Write) -> anyhow::Result<u8> {
    let facts = &MATCHER.endpoint;
    let assumed = &facts.verify;
    let key_env = options.api_key_env.as_deref().unwrap_or(&assumed.api_key_env);
    let key = match std::env::var(key_env) {
        Ok(k) if !k.trim().is_empty() => k,
        Ok(_) => anyhow::bail!("the API key is read from the environment variable {key_env}, which is empty"),
        Err(_) => anyhow::bail!(
            "the API key is read from the environment variable {key_env}, which is not set (`--api-key-env NAME` names another)"
        ),
    };
    let base = options.base_url.as_deref().unwrap_or(&assumed.base_url);
    let base = base.trim_end_matches('/');
    if !(base.starts_with("https://") || base.starts_with("http://")) {
        anyhow::bail!("--base-url {base}: not an http:// or https:// URL");
    }
    let url = format!("{base}{}", facts.interactions.path);
    let model = match &options.model {
        Some(m) => m.clone(),
        None => default_model()?,
    };
    let client = Client {
        agent: ureq::Agent::config_builder()
            .timeout_global(Some(options.timeout))
            .http_status_as_error(false)
            .build()
            .into(),
        url: url.clone(),
        key: key.clone(),
        key_header: assumed.api_key_header.clone(),
        timeout: options.timeout,
    };
    let word = code_word();
    let mut sent = Vec::new();
    let mut checks = Vec::new();
    let first = client.create(
        1,
        &json!({"model": model, "input": format!("Remember this code word: {word}. Reply only with OK.")}),
        &mut sent,
    )?;
    let steps = first.get("steps").and_then(Value::as_array);
    checks.push(match steps {
        Some(s) if !s.is_empty() => Check {
            name: "steps",
            passed: true,
            detail: format!(
                "the reply has {} {}",
                s.len(),
                if s.len() == 1 { "step" } else { "steps" }
            ),
        },
        Some(_) => failed("steps", "the reply's `steps` is empty"),
        None => failed("steps", "the reply has no `steps` array"),
    });
    checks.push(match model_output(&first) {
        Some(text) => Check {
            name: "model-output",
            passed: true,
            detail: format!("a `model_output` step has the text {}", quote(&text)),
        },
        None => failed(
            "model-output",
            "no step has `type` `model_output` with a non-empty `content[0].text`",
        ),
    });
    let context = match first
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
    {
        None => failed(
            "context",
            "the first reply has no `id` to continue from, so no second turn was sent",
        ),
        Some(id) => {
            let second = client.create(
                2,
                &json!({
                    "model": model,
                    "input": "What was the code word I asked you to remember? Reply with the word only.",
                    "previous_interaction_id": id,
                }),
                &mut sent,
            )?;
            match model_output(&second) {
                Some(answer) if answer.to_lowercase().contains(&word.to_lowercase()) => Check {
                    name: "context",
                    passed: true,
                    detail: format!(
                        "turn two, continuing `{id}`, gave back the code word of turn one ({word})"
                    ),
                },
                Some(answer) => failed(
                    "context",
                    &format!(
                        "turn two, continuing `{id}`, did not give back the code word {word} of turn one: it answered {}",
                        quote(&answer)
                    ),
                ),
                None => failed("context", "the second reply has no `model_output` text"),
            }
        }
    };
    checks.push(context);
    let passed = checks.iter().filter(|c| c.passed).count();
    if options.json {
        let document = json!({
            "url": url,
            "model": model,
            "requests": sent.iter().map(|s| json!({"turn": s.turn, "status": s.status, "milliseconds": s.millis})).collect::<Vec<_>>(),
            "checks": checks.iter().map(|c| json!({"name": c.name, "passed": c.passed, "detail": c.detail})).collect::<Vec<_>>(),
            "passed": passed == checks.len(),
        });
        writeln!(out, "{document}")?;
    } else {
        let mut text = format!(
            "POST {url} (model {model}, {}: {})\n",
            facts.interactions.header, facts.interactions.revision
        );
        for s in &sent {
            text.push_str(&format!(
                "  turn {}: HTTP {} in {} ms\n",
                s.turn, s.status, s.millis
            ));
        }
        for c in &checks {
            text.push_str(&format!(
                "{} {:<13} {}\n",
                if c.passed { "pass" } else { "FAIL" },
                c.name,
                c.detail
            ));
        }
        text.push_str(&format!("{passed} of {} checks passed.\n", checks.len()));
        write!(out, "{text}")?;
    }
    out.flush()?;
    Ok(if passed == checks.len() { 0 } else { 1 })
}

fn failed(name: &'static str, detail: &str) -> Check {
    Check {
        name,
        passed: false,
        detail: detail.to_string(),
    }
}

/// The newest model generation of rules/models.toml, with the service's brand word.
fn default_model() -> anyhow::Result<String> {
    let table = crate::models::ModelTable::builtin()?;
    let newest = table
        .newest_generation
        .first()
        .ok_or_else(|| anyhow::anyhow!("rules/models.toml names no newest model generation; pass --model"))?;
    Ok(crate::models::with_prefix(newest, &MATCHER.endpoint.verify.brand))
}

/// A word no model would say unprompted, new for each run.
fn code_word() -> String {
    const WORDS: &[&str] = &[
        "kumquat", "marmot", "quokka", "tamarind", "narwhal", "loquat", "axolotl", "pangolin",
    ];
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as usize ^ std::process::id() as usize);
    format!("{}{}", WORDS[nanos % WORDS.len()], 1000 + nanos % 9000)
}

/// The text of the first `model_output` step whose `content[0].text` is not empty.
fn model_output(reply: &Value) -> Option<String> {
    reply.get("steps")?.as_array()?.iter().find_map(|step| {
        if step.get("type").and_then(Value::as_str) != Some("model_output") {
            return None;
        }
        let text = step.get("content")?.get(0)?.get("text")?.as_str()?;
        (!text.trim().is_empty()).then(|| text.to_string())
    })
}

/// A reply's text for a message: quoted, on one line, at most 120 characters.
fn quote(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(120) {
        Some((cut, _)) => format!("\"{}...\"", &line[..cut]),
        None => format!("\"{line}\""),
    }
}

/// The text with the key, wherever it appears (a server may echo a header), masked.
fn scrub(text: &str, key: &str) -> String {
    if key.is_empty() {
        return text.to_string();
    }
    text.replace(key, "***")
}

struct Client {
    agent: ureq::Agent,
    url: String,
    key: String,
    key_header: String,
    timeout: Duration,
}

impl Client {
    /// Sends one create-interaction request; the reply's JSON when the status is 2xx.
    fn create(&self, turn: usize, body: &Value, sent: &mut Vec<Sent>) -> anyhow::Result<Value> {
        let revision = &MATCHER.endpoint.interactions;
        let start = Instant::now();
        let response = self
            .agent
            .post(&self.url)
            .header(revision.header.as_str(), revision.revision.as_str())
            .header(self.key_header.as_str(), self.key.as_str())
            .header("Content-Type", "application/json")
            .send(body.to_string());
        let mut response = match response {
            Ok(r) => r,
            Err(ureq::Error::Timeout(_)) => anyhow::bail!(
                "turn {turn}: no reply from {} within {} s (--timeout)",
                self.url,
                self.timeout.as_secs_f64()
            ),
            Err(e) => anyhow::bail!(
                "turn {turn}: cannot reach {}: {}",
                self.url,
                scrub(&e.to_string(), &self.key)
            ),
        };
        let status = response.status().as_u16();
        let text = match response.body_mut().read_to_string() {
            Ok(t) => t,
            Err(ureq::Error::Timeout(_)) => anyhow::bail!(
                "turn {turn}: the reply from {} did not finish within {} s (--timeout)",
                self.url,
                self.timeout.as_secs_f64()
            ),
            Err(e) => anyhow::bail!(
                "turn {turn}: cannot read the reply: {}",
                scrub(&e.to_string(), &self.key)
            ),
        };
        sent.push(Sent {
            turn,
            status,
            millis: start.elapsed().as_millis(),
        });
        if !(200..300).contains(&status) {
            anyhow::bail!(
                "turn {turn}: HTTP {status} from {}: {}",
                self.url,
                scrub(&quote(&text), &self.key)
            );
        }
        let mut reply: Value = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "turn {turn}: the reply (HTTP {status}) is not JSON ({e}): {}",
                scrub(&quote(&text), &self.key)
            )
        })?;
        // What the server sends is all that can hold the key (an echoed header): only its
        // text is masked, never interlint's own.
        scrub_value(&mut reply, &self.key);
        Ok(reply)
    }
}

/// Every string of a reply, with the key masked.
fn scrub_value(value: &mut Value, key: &str) {
    match value {
        Value::String(text) if !key.is_empty() && text.contains(key) => *text = scrub(text, key),
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_value(v, key)),
        Value::Object(members) => members.values_mut().for_each(|v| scrub_value(v, key)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_model_output() {
        let reply = json!({"steps": [
            {"type": "thought", "content": [{"text": "hm"}]},
            {"type": "model_output", "content": [{"type": "text", "text": ""}]},
            {"type": "model_output", "content": [{"type": "text", "text": "OK"}]},
        ]});
        assert_eq!(model_output(&reply).as_deref(), Some("OK"));
        assert_eq!(model_output(&json!({"steps": []})), None);
        assert_eq!(model_output(&json!({"steps": [{"type": "model_output"}]})), None);
    }

    #[test]
    fn default_model_is_the_newest_generation_with_the_brand() {
        assert_eq!(default_model().expect("model"), "gemini-3.5-flash");
    }

    #[test]
    fn quotes_and_scrubs() {
        assert_eq!(quote("a\n  b"), "\"a b\"");
        assert!(quote(&"x".repeat(300)).ends_with("...\""));
        assert_eq!(scrub("key=sk-1 sk-1", "sk-1"), "key=*** ***");
        let word = code_word();
        assert!(word.len() > 8 && word.chars().last().is_some_and(|c| c.is_ascii_digit()));
    }
}
