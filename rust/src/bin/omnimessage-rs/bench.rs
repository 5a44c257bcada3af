//! `omnimessage-rs bench MODE FILE`: one job over a JSON Lines corpus, for bench/rust.py.
//! `strict` decodes every line; `roundtrip` decodes and re-encodes it and counts the lines that
//! come back byte for byte. One untimed warm-up pass, then one timed pass (in-process: no
//! start-up, no file reading); prints `{"accepted": N, "identical": N|null, "seconds": S, "cpu_seconds": C}`
//! (C: the thread's CPU time over the pass, to 1/100 s; null off Linux).

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

/// The calling thread's user+system CPU time so far, from /proc/thread-self/stat (Linux; clock ticks of
/// 1/100 s, USER_HZ everywhere Linux runs): None elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let (utime, stime): (f64, f64) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
    Some((utime + stime) / 100.0)
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
