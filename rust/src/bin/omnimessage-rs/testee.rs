//! `omnimessage-rs testee`: the Rust binding as a conformance testee
//! (conformance/TESTEE-PROTOCOL.md). Each request's input is read the way the reader reads a
//! one-line JSON Lines file, so the reader's categories (`too_large`, `truncated`) are tested too.

use std::io::{BufRead, Write};

use omnimessage::tables::DEFAULT_MAX_LINE_BYTES;
use omnimessage::{Reader, ReaderOptions};

use crate::base64;
use crate::json::{parse_object, push_str};
use crate::testee_protocol::{Request, RunnerHello, HELLO, PROTOCOL};

pub fn run() -> i32 {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut line = Vec::new();
    if input.read_until(b'\n', &mut line).is_err() {
        return 2;
    }
    let hello = RunnerHello::read(&parse_object(&line).unwrap_or_default());
    if hello.hello.as_deref() != Some(HELLO) || hello.protocol != Some(PROTOCOL) {
        eprintln!("testee: unsupported handshake");
        return 2;
    }
    let reply = format!(
        "{{\"hello\":\"{HELLO}\",\"protocol\":{PROTOCOL},\"implementation\":\"omnimessage-rust\",\"version\":\"{}\"}}\n",
        env!("CARGO_PKG_VERSION")
    );
    if out.write_all(reply.as_bytes()).and_then(|()| out.flush()).is_err() {
        return 1;
    }
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(_) => return 1,
        }
        let answer = answer(&line);
        if out.write_all(answer.as_bytes()).and_then(|()| out.flush()).is_err() {
            return 1;
        }
    }
}

fn answer(line: &[u8]) -> String {
    let req = Request::read(&parse_object(line).unwrap_or_default());
    let mut out = String::from("{\"id\":");
    push_str(&mut out, req.id.as_deref().unwrap_or_default());
    let input = req.input.as_deref().and_then(base64::decode);
    let lenient = req.mode.as_deref() == Some("lenient");
    let limit = match req.max_line_bytes {
        Some(n) if n > 0 => n as usize,
        _ => DEFAULT_MAX_LINE_BYTES,
    };
    let Some(data) = input else {
        out.push_str(",\"result\":\"skipped\",\"reason\":\"malformed request: input is not base64\"}\n");
        return out;
    };
    let mut lines = Reader::new(
        &data[..],
        ReaderOptions {
            lenient,
            max_line_bytes: limit,
        },
    );
    let first = lines.next();
    if first.is_none() || lines.next().is_some() {
        out.push_str(
            ",\"result\":\"skipped\",\"reason\":\"malformed request: the input does not hold exactly one line\"}\n",
        );
        return out;
    }
    match first.map(|l| l.result) {
        Some(Ok(decoded)) => {
            out.push_str(",\"result\":\"encoded\",\"output\":\"");
            out.push_str(&base64::encode(&decoded.encode()));
            out.push_str("\"}\n");
        }
        Some(Err(err)) => {
            out.push_str(",\"result\":\"refused\",\"category\":\"");
            out.push_str(err.category.as_str());
            out.push_str("\",\"pointer\":");
            out.push_str(&err.pointer.to_json());
            if let Some(off) = err.offset {
                out.push_str(&format!(",\"offset\":{off}"));
            }
            out.push_str(",\"message\":");
            push_str(&mut out, &err.detail);
            out.push_str("}\n");
        }
        None => {}
    }
    out
}
