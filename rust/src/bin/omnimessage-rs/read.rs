//! `omnimessage-rs read [--lenient] FILE`: read a JSON Lines file with the crate's reader and print
//! what it made of it: `{"lines": N, "messages": N, "identical": N, "refused": {category: N}}`
//! (`identical`: messages whose canonical encoding is the line itself). The hostile file catalogue
//! (conformance/hostile/) states these counts for every file; python/tests/test_rust_crate.py
//! compares them.

use std::collections::BTreeMap;

use omnimessage::{Reader, ReaderOptions};

pub fn run(args: &[String]) -> i32 {
    let mut options = ReaderOptions::default();
    let mut file = None;
    for a in args {
        match a.as_str() {
            "--lenient" => options.lenient = true,
            _ if file.is_none() => file = Some(a.clone()),
            _ => {
                eprintln!("usage: omnimessage-rs read [--lenient] FILE");
                return 2;
            }
        }
    }
    let Some(path) = file else {
        eprintln!("usage: omnimessage-rs read [--lenient] FILE");
        return 2;
    };
    let input = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("omnimessage-rs read: cannot open the file: {e}");
            return 2;
        }
    };
    let (mut lines, mut messages, mut identical) = (0usize, 0usize, 0usize);
    let mut refused: BTreeMap<&'static str, usize> = BTreeMap::new();
    for line in Reader::new(input, options) {
        lines += 1;
        match line.result {
            Ok(decoded) => {
                messages += 1;
                identical += usize::from(decoded.encode() == line.raw);
            }
            Err(e) => *refused.entry(e.category.as_str()).or_default() += 1,
        }
    }
    let refused: Vec<String> = refused.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    println!(
        "{{\"lines\": {lines}, \"messages\": {messages}, \"identical\": {identical}, \"refused\": {{{}}}}}",
        refused.join(", ")
    );
    0
}
