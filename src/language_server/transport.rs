//! The language server's messages over standard input and output: `Content-Length` framing,
//! as `lsp-server` reads it, except that a message that is not JSON-RPC is answered with a
//! JSON-RPC error (`-32700` for text that is not JSON, `-32600` for JSON that is not a
//! message) and the session goes on; `lsp-server`'s own reader ends the session there.

use std::io::{self, BufRead, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message};

/// The reader and writer threads of a stdio session.
pub struct IoThreads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both threads; the first error either had.
    pub fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reader panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")));
        reader.and(writer)
    }
}

/// A connection over standard input and output.
pub fn stdio() -> io::Result<(Connection, IoThreads)> {
    let (writer_sender, writer_receiver) = bounded::<Message>(0);
    let writer = thread::Builder::new()
        .name("interlint-lsp-writer".into())
        .spawn(move || write_all(&writer_receiver))?;
    let (reader_sender, reader_receiver) = bounded::<Message>(0);
    let reader = thread::Builder::new()
        .name("interlint-lsp-reader".into())
        .spawn(move || read_all(&mut io::stdin().lock(), &reader_sender))?;
    Ok((
        Connection {
            sender: writer_sender,
            receiver: reader_receiver,
        },
        IoThreads { reader, writer },
    ))
}

fn write_all(messages: &Receiver<Message>) -> io::Result<()> {
    for message in messages {
        // One lock for the whole message: the reader's error replies go between messages.
        let mut out = io::stdout().lock();
        message.write(&mut out)?;
        out.flush()?;
    }
    Ok(())
}

fn read_all(input: &mut impl BufRead, messages: &Sender<Message>) -> io::Result<()> {
    while let Some(body) = read_body(input)? {
        match parse(&body) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if messages.send(message).is_err() || exit {
                    break;
                }
            }
            Err(reply) => {
                let mut out = io::stdout().lock();
                write!(out, "Content-Length: {}\r\n\r\n{reply}", reply.len())?;
                out.flush()?;
            }
        }
    }
    Ok(())
}

/// A message, or the JSON-RPC error reply to a body that is not one.
pub fn parse(body: &str) -> Result<Message, String> {
    let value = crate::jsonrpc::parse_json(body)?;
    serde_json::from_value::<Message>(value.clone())
        .map_err(|e| crate::jsonrpc::invalid_request(&value, &format!("not a JSON-RPC message ({e})")))
}

/// The body of the next message; `None` at the end of the input. A header that cannot be
/// read ends the session: the next message's start cannot be found.
fn read_body(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut size = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if size.is_none() {
                // Blank lines between messages are skipped.
                continue;
            }
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(invalid(format!("malformed header line {header:?}")));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            size = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| invalid(format!("Content-Length is not a number: {value:?}")))?,
            );
        }
    }
    let size = size.unwrap_or(0);
    let mut body = vec![0; size];
    input.read_exact(&mut body)?;
    // Text that is not UTF-8 is not JSON: it gets the parse error.
    Ok(Some(String::from_utf8_lossy(&body).into_owned()))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_framed_by_their_length() {
        let input = "Content-Length: 2\r\n\r\n{}\r\nContent-Length: 3\r\nContent-Type: x\r\n\r\n[1]";
        let mut reader = io::BufReader::new(input.as_bytes());
        assert_eq!(read_body(&mut reader).ok().flatten().as_deref(), Some("{}"));
        assert_eq!(read_body(&mut reader).ok().flatten().as_deref(), Some("[1]"));
        assert!(matches!(read_body(&mut reader), Ok(None)));
        let mut bad = io::BufReader::new("Content-Length: x\r\n\r\n".as_bytes());
        assert!(read_body(&mut bad).is_err());
    }

    #[test]
    fn what_is_not_a_message_gets_an_error_reply() {
        let reply = parse("{not json").err().unwrap_or_default();
        assert!(
            reply.contains("-32700") && reply.contains("\"id\":null"),
            "{reply}"
        );
        let reply = parse(r#"{"id": 4, "hello": 1}"#).err().unwrap_or_default();
        assert!(reply.contains("-32600") && reply.contains("\"id\":4"), "{reply}");
        assert!(parse(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#).is_ok());
    }
}
