//! `omnimessage-rs bench MODE FILE`: the throughput of one job over a JSON Lines corpus, for
//! bench/run.py: `strict` decodes every line, `roundtrip` decodes and re-encodes it (and checks
//! the bytes come back canonical). Prints `{"seconds": S, "lines": N, "bytes": B}` of the best of
//! REPEAT runs (env OMNIMESSAGE_BENCH_REPEAT, default 3), timed in-process.

use std::time::Instant;

pub fn run(args: &[String]) -> i32 {
    let (Some(mode), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: omnimessage-rs bench strict|roundtrip FILE");
        return 2;
    };
    let Ok(data) = std::fs::read(path) else {
        eprintln!("omnimessage-rs bench: cannot read the corpus");
        return 2;
    };
    let lines: Vec<&[u8]> = data.split(|&c| c == b'\n').filter(|l| !l.is_empty()).collect();
    let repeat: usize = std::env::var("OMNIMESSAGE_BENCH_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut best = f64::INFINITY;
    let mut out = Vec::with_capacity(1 << 16);
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        for line in &lines {
            match omnimessage::decode(line) {
                Ok(msg) => {
                    if mode == "roundtrip" {
                        out.clear();
                        omnimessage::encode_into(&msg, &mut out);
                        if out.as_slice() != *line {
                            eprintln!("omnimessage-rs bench: a corpus line is not canonical");
                            return 1;
                        }
                    }
                }
                Err(e) => {
                    eprintln!("omnimessage-rs bench: a corpus line was refused: {e}");
                    return 1;
                }
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{{\"seconds\": {best}, \"lines\": {}, \"bytes\": {}}}",
        lines.len(),
        data.len()
    );
    0
}
