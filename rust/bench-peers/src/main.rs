//! `omnimessage-rs-peers bench MODE FILE`: the Rust ecosystem's parsers on a bench corpus, for
//! bench/native.py (development only: this crate is not the runtime crate and its dependencies never
//! reach it). Every line is decoded into the serde structs of types.rs: MODE `serde-json-typed` with
//! serde_json, `sonic-rs-typed` with sonic-rs (SIMD). Like `omnimessage-rs bench`: one untimed
//! warm-up pass, then one timed pass (in-process: no start-up, no file reading); prints
//! `{"accepted": N, "identical": null, "seconds": S, "cpu_seconds": C}` (C: the thread's CPU seconds over the
//! pass, to the microsecond; null off Linux).

mod types;

use std::time::Instant;

use types::Message;

type Decode = fn(&[u8]) -> bool;

fn serde_json_typed(line: &[u8]) -> bool {
    serde_json::from_slice::<Message>(line).is_ok()
}

fn sonic_rs_typed(line: &[u8]) -> bool {
    sonic_rs::from_slice::<Message>(line).is_ok()
}

fn mode(name: &str) -> Option<Decode> {
    match name {
        "serde-json-typed" => Some(serde_json_typed),
        "sonic-rs-typed" => Some(sonic_rs_typed),
        _ => None,
    }
}

fn pass(lines: &[&[u8]], decode: Decode) -> usize {
    lines.iter().filter(|line| decode(line)).count()
}

/// The calling thread's CPU time so far (user and system), from the first field of
/// /proc/thread-self/schedstat, its nanoseconds on a CPU (Linux): None elsewhere. The thread yields
/// first: the kernel brings that count up to date when the thread leaves the CPU, else it can be a
/// scheduler tick (4 ms) stale.
fn cpu_seconds() -> Option<f64> {
    std::thread::yield_now();
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn bench(args: &[String]) -> i32 {
    let usage = "usage: omnimessage-rs-peers bench serde-json-typed|sonic-rs-typed FILE";
    let (Some(decode), Some(path), 2) = (args.first().and_then(|m| mode(m)), args.get(1), args.len()) else {
        eprintln!("{usage}");
        return 2;
    };
    let Ok(data) = std::fs::read(path) else {
        eprintln!("omnimessage-rs-peers bench: cannot read the corpus");
        return 2;
    };
    let mut lines: Vec<&[u8]> = data.split(|&c| c == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    pass(&lines, decode);
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let accepted = pass(&lines, decode);
    let seconds = t.elapsed().as_secs_f64();
    let cpu = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{}", b - a),
        _ => "null".to_owned(),
    };
    println!("{{\"accepted\": {accepted}, \"identical\": null, \"seconds\": {seconds}, \"cpu_seconds\": {cpu}}}");
    0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("bench") {
        eprintln!("usage: omnimessage-rs-peers bench serde-json-typed|sonic-rs-typed FILE");
        std::process::exit(2);
    }
    std::process::exit(bench(&args[1..]));
}
