//! `omnimessage-rs differential`: the Rust side of fuzz/differential.py. Reads batches of
//! base64 inputs (one a line, a batch ended by a line `=`) and answers one JSON line per input:
//! `{"s": VERDICT, "l": VERDICT}`, strict and lenient, where VERDICT is
//! `{"err": [category, pointer, offset]}`, `{"out": base64, "opaque": bool}` or `{"crash": text}`
//! (a panic, caught: the harness reports it as a finding instead of dying).

use std::io::{BufRead, Write};

use omnimessage::{decode, decode_lenient, encode, DecodeError, Decoded};

use crate::base64;

fn err(e: &DecodeError) -> String {
    let offset = e.offset.map_or_else(|| "null".to_owned(), |o| o.to_string());
    format!(
        "{{\"err\":[\"{}\",{},{offset}]}}",
        e.category.as_str(),
        e.pointer.to_json()
    )
}

fn out(bytes: &[u8], opaque: bool) -> String {
    format!("{{\"out\":\"{}\",\"opaque\":{opaque}}}", base64::encode(bytes))
}

fn verdict(f: impl FnOnce() -> String + std::panic::UnwindSafe) -> String {
    std::panic::catch_unwind(f).unwrap_or_else(|_| "{\"crash\":\"panic\"}".to_owned())
}

pub fn run() -> i32 {
    std::panic::set_hook(Box::new(|info| eprintln!("omnimessage-rs differential: {info}")));
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let mut batch: Vec<Vec<u8>> = Vec::new();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return 1 };
        if line != "=" {
            // the whole batch is read before answering: the harness writes it all, then reads
            batch.push(base64::decode(line.trim()).unwrap_or_default());
            continue;
        }
        for data in batch.drain(..) {
            let s = verdict(|| match decode(&data) {
                Ok(m) => out(&encode(&m), false),
                Err(e) => err(&e),
            });
            let l = verdict(|| match decode_lenient(&data) {
                Ok(Decoded::Message(m)) => out(&encode(&m), false),
                Ok(Decoded::Opaque(o)) => out(&o.raw, true),
                Err(e) => err(&e),
            });
            if writeln!(w, "{{\"s\":{s},\"l\":{l}}}").is_err() {
                return 1;
            }
        }
        if w.flush().is_err() {
            return 1;
        }
    }
    i32::from(w.flush().is_err())
}
