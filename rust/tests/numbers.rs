//! ECMAScript number spelling, checked against node's `String(x)` for ~5,000 doubles
//! (tests/data/numbers.txt, written by tests/data/make_numbers.mjs): random bit patterns, short
//! decimals at every scale, and the edges (subnormals, the largest double, 1e21, 1e-7, -0).

#[test]
fn every_double_is_spelled_as_ecmascript_spells_it() {
    let data = include_str!("data/numbers.txt");
    let mut n = 0;
    let mut wrong = Vec::new();
    for line in data.lines() {
        let (bits, expected) = line.split_once(' ').expect("bits and spelling");
        let x = f64::from_bits(u64::from_str_radix(bits, 16).expect("hex"));
        let mut out = Vec::new();
        omnimessage::Encode::encode(&x, &mut out);
        if out != expected.as_bytes() {
            wrong.push(format!("{bits}: {} != {expected}", String::from_utf8_lossy(&out)));
        }
        n += 1;
    }
    assert!(n > 4000, "{n} numbers");
    assert!(
        wrong.is_empty(),
        "{} of {n} differ: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}
