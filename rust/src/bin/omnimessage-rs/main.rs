//! `omnimessage-rs`: the Rust binding's command line.
//!
//! - `omnimessage-rs canonicalize [--lenient] [FILE]`: each line of FILE (default: standard input)
//!   in canonical form on standard output; refusals on standard error with their line number;
//!   exit 1 when a line was refused.
//! - `omnimessage-rs testee`: the conformance testee (conformance/TESTEE-PROTOCOL.md).
//! - `omnimessage-rs read [--lenient] FILE`: the reader's counts of a file (lines, messages, refusals).
//! - `omnimessage-rs bench MODE FILE`, `omnimessage-rs differential`: for bench/run.py and
//!   fuzz/differential.py.

mod base64;
mod bench;
mod canonicalize;
mod differential;
mod json;
mod read;
mod testee;
mod testee_protocol;

const USAGE: &str = "usage: omnimessage-rs canonicalize [--lenient] [FILE]\n       omnimessage-rs testee\n       omnimessage-rs read [--lenient] FILE\n       omnimessage-rs bench MODE FILE (strict | roundtrip)\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("canonicalize") => canonicalize::run(&args[1..]),
        Some("testee") => testee::run(),
        Some("bench") => bench::run(&args[1..]),
        Some("differential") => differential::run(),
        Some("read") => read::run(&args[1..]),
        Some("--version") => {
            println!("omnimessage-rs {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("-h" | "--help") => {
            print!("{USAGE}");
            0
        }
        _ => {
            eprint!("{USAGE}");
            2
        }
    };
    std::process::exit(code);
}
