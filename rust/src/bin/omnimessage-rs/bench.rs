//! `omnimessage-rs bench MODE FILE`: one job over a JSON Lines corpus, for bench/rust.py.
//! `strict` decodes every line; `roundtrip` decodes and re-encodes it and counts the lines that
//! come back byte for byte. One untimed warm-up pass, then one timed pass (in-process: no
//! start-up, no file reading); prints `{"accepted": N, "identical": N|null, "seconds": S, "cpu_seconds": C}`
//! (C: the thread's CPU seconds over the pass, to the microsecond; null off Linux).

use std::time::Instant;

fn pass(lines: &[&[u8]], roundtrip: bool, out: &mut Vec<u8>) -> (usize, usize) {
    let (mut accepted, mut identical) = (0, 0);
    for line in lines {
        if let Ok(msg) = omnimessage::decode(line) {
            accepted += 1;
            if roundtrip {
                out.clear();
                omnimessage::encode_into(&msg, out);
                identical += usize::from(out.as_slice() == *line);
            }
        }
    }
    (accepted, identical)
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

pub fn run(args: &[String]) -> i32 {
    let (Some(mode), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: omnimessage-rs bench strict|roundtrip FILE");
        return 2;
    };
    let roundtrip = match mode.as_str() {
        "strict" => false,
        "roundtrip" => true,
        _ => {
            eprintln!("omnimessage-rs bench: MODE is strict or roundtrip");
            return 2;
        }
    };
    let Ok(data) = std::fs::read(path) else {
        eprintln!("omnimessage-rs bench: cannot read the corpus");
        return 2;
    };
    let mut lines: Vec<&[u8]> = data.split(|&c| c == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let mut out = Vec::with_capacity(1 << 16);
    pass(&lines, roundtrip, &mut out);
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let (accepted, identical) = pass(&lines, roundtrip, &mut out);
    let seconds = t.elapsed().as_secs_f64();
    let cpu = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{}", b - a),
        _ => "null".to_owned(),
    };
    let identical = if roundtrip {
        identical.to_string()
    } else {
        "null".to_owned()
    };
    println!(
        "{{\"accepted\": {accepted}, \"identical\": {identical}, \"seconds\": {seconds}, \"cpu_seconds\": {cpu}}}"
    );
    0
}
