//! `omnimessage-rs canonicalize [--lenient] [FILE]`.

use std::io::Write;

use omnimessage::{Reader, ReaderOptions};

pub fn run(args: &[String]) -> i32 {
    let mut options = ReaderOptions::default();
    let mut file = None;
    for a in args {
        match a.as_str() {
            "--lenient" => options.lenient = true,
            _ if file.is_none() && !a.starts_with("--") => file = Some(a.clone()),
            _ => {
                eprintln!("omnimessage-rs canonicalize: unexpected argument");
                return 2;
            }
        }
    }
    let input: Box<dyn std::io::Read> = match &file {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("omnimessage-rs canonicalize: cannot open the file: {e}");
                return 2;
            }
        },
        None => Box::new(std::io::stdin()),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut rc = 0;
    let mut buf = Vec::new();
    for line in Reader::new(input, options) {
        match line.result {
            Ok(decoded) => {
                buf.clear();
                buf.extend_from_slice(&decoded.encode());
                buf.push(b'\n');
                if out.write_all(&buf).is_err() {
                    eprintln!("omnimessage-rs canonicalize: cannot write standard output");
                    return 1;
                }
            }
            Err(err) => {
                // the detail quotes input: escape what a terminal would interpret
                let shown: String = err.to_string().chars().flat_map(char::escape_debug).collect();
                eprintln!("line {}: {shown}", line.number);
                rc = 1;
            }
        }
    }
    if out.flush().is_err() {
        eprintln!("omnimessage-rs canonicalize: cannot write standard output");
        return 1;
    }
    rc
}
