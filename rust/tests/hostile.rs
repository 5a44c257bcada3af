//! Never panic on input: every conformance case line, every input in fuzz/crashes/, hostile shapes
//! built here (10^5 nesting levels, 10^6-digit numbers, every byte value, 10^5 duplicate keys) and
//! 30,000 seeded mutations of them go through strict and lenient decoding and the reader. What is
//! accepted re-encodes to bytes that decode to the same bytes again (canonical form is a fixpoint),
//! and passes the reference grammar check: the one-pass typed decoder checks the grammar of all it
//! reads, and must never accept what the grammar refuses.

use std::path::PathBuf;

use omnimessage::{canonicalize, decode, decode_lenient, encode, Verbatim};
use omnimessage::{Reader, ReaderOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn check(line: &[u8]) {
    if let Ok(msg) = decode(line) {
        // the grammar check of a line (`Verbatim::from_json` runs it on the object the line holds)
        let text = std::str::from_utf8(line).expect("an accepted line is UTF-8");
        assert!(
            Verbatim::from_json(text).is_ok(),
            "accepted against the grammar: {}",
            String::from_utf8_lossy(line)
        );
        let out = encode(&msg);
        assert_eq!(
            canonicalize(&out, false).as_deref(),
            Ok(&out[..]),
            "not a fixpoint: {}",
            String::from_utf8_lossy(&out)
        );
    }
    match decode_lenient(line) {
        Ok(d) => {
            let out = d.encode();
            assert_eq!(canonicalize(&out, true).as_deref(), Ok(&out[..]));
        }
        Err(e) => assert!(decode(line).is_err_and(|s| s.category == e.category)),
    }
    let lines: Vec<_> = Reader::new(line, ReaderOptions::default()).collect();
    assert!(lines.len() <= line.iter().filter(|&&c| c == b'\n').count() + 1);
}

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let cases = root().join("conformance/cases");
    for entry in std::fs::read_dir(&cases).expect("conformance/cases") {
        let data = std::fs::read(entry.expect("entry").path()).expect("case file");
        out.extend(data.split(|&c| c == b'\n').map(<[u8]>::to_vec));
    }
    for entry in std::fs::read_dir(root().join("fuzz/crashes")).expect("fuzz/crashes") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "bin") {
            out.push(std::fs::read(path).expect("crash input"));
        }
    }
    out
}

#[test]
fn every_case_line_and_crash_input() {
    let seeds = seeds();
    assert!(seeds.len() > 1000, "{} seeds", seeds.len());
    for s in &seeds {
        check(s);
    }
}

#[test]
fn hostile_shapes() {
    let deep =
        |open: &str, close: &str, n: usize| format!("{{\"a\":{}{}}}", open.repeat(n), close.repeat(n)).into_bytes();
    let env =
        |payload: &str| format!("{{\"timestamp\":\"t\",\"type\":\"model_msg\",\"payload\":{payload}}}").into_bytes();
    let shapes: Vec<Vec<u8>> = vec![
        deep("[", "]", 100_000),
        deep("{\"x\":", "}", 100_000),
        deep("[", "", 100_000),
        env(&format!(
            "{{\"type\":\"text\",\"role\":\"user\",\"text\":\"t\",\"fidelity\":{{\"n\":{}}}}}",
            "9".repeat(1_000_000)
        )),
        env(&format!(
            "{{\"type\":\"text\",\"role\":\"user\",\"text\":{}}}",
            "9".repeat(1_000_000)
        )),
        (0..=255u8).collect(),
        format!("{{{}\"a\":1}}", "\"a\":1,".repeat(100_000)).into_bytes(),
        vec![b' '; 1_000_000],
        b"\xef\xbb\xbf{}".to_vec(),
        b"{\"a\":\"\\ud800\"}".to_vec(),
        b"".to_vec(),
        b"\n".to_vec(),
    ];
    for s in &shapes {
        check(s);
    }
    assert_eq!(decode(&shapes[0]).unwrap_err().category.as_str(), "too_deep");
    assert_eq!(decode(&shapes[4]).unwrap_err().category.as_str(), "invalid_number");
    assert!(decode(&shapes[3]).is_ok());
}

/// xorshift64*: seeded, so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&[u8]] = &[
    b"\xff",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xe2\x82",
    b"\xef\xbb\xbf",
    b"\x00",
    b"\\ud800",
    b"\\udc00",
    b"\\ud83d\\ude00",
    b"\\u0065",
    b"\\",
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b",",
    b"-",
    b"01",
    b"1.",
    b"1e400",
    b"-0",
    b"1.0",
    b"9007199254740993",
    b"true",
    b"null",
    b"\"type\"",
    b"\"typ\\u0065\"",
    b"\"fidelity\"",
    b"\"payload\"",
    b"\r",
    b"\n",
    b" ",
];

#[test]
fn seeded_mutations() {
    let seeds: Vec<Vec<u8>> = seeds()
        .into_iter()
        .filter(|s| s.len() < 4096 && !s.is_empty())
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..30_000 {
        let mut s = seeds[rng.below(seeds.len())].clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(s.len() + 1);
            match rng.below(4) {
                0 if !s.is_empty() => {
                    let at = at.min(s.len() - 1);
                    s[at] ^= 1 << rng.below(8);
                }
                1 => {
                    let tok = TOKENS[rng.below(TOKENS.len())];
                    s.splice(at..at, tok.iter().copied());
                }
                2 => {
                    let end = (at + rng.below(8)).min(s.len());
                    s.drain(at..end);
                }
                _ => s.truncate(at),
            }
        }
        check(&s);
    }
}
