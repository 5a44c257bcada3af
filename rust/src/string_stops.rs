//! Where a plain run of a JSON string body ends: the first byte that needs an escape, found eight
//! or 32 bytes at a time. Shared by the grammar's check, the string reader (`strings`) and the
//! writer (`escape`), and depending on none of them.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The bytes of `w` equal to `c` (high bit of each such byte set; the lowest set bit is exact).
#[inline]
fn eq_mask(w: u64, c: u8) -> u64 {
    let x = w ^ (LO * u64::from(c));
    x.wrapping_sub(LO) & !x & HI
}

/// The bytes of `w` below 0x20 (the lowest set bit is exact).
#[inline]
fn control_mask(w: u64) -> u64 {
    w.wrapping_sub(LO * 0x20) & !w & HI
}

/// The eight bytes at `i`, if there are eight.
#[inline]
fn word(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// A byte that stops the scan of a string body: `"`, `\` or a control character.
#[inline]
fn stops(c: u8) -> bool {
    (c == b'"') | (c == b'\\') | (c < 0x20)
}

/// The stops among the eight bytes of `w` (the lowest set bit is exact).
#[inline]
fn stop_mask(w: u64) -> u64 {
    eq_mask(w, b'"') | eq_mask(w, b'\\') | control_mask(w)
}

/// The position of the first `"`, `\` or control character at or after `i` (or the end). Most
/// strings are short (keys, names, codes) and most bytes are in long ones (texts, code, data):
/// the first eight bytes are tested at once (SWAR), then 32 bytes at a time, in straight-line
/// code that the compiler turns into vector compares (the stops as 0/1 bytes, read back as four
/// words: the first non-zero one has the exact byte); the last few bytes of the line eight or
/// one at a time.
#[inline(always)]
pub(crate) fn find_string_stop(b: &[u8], mut i: usize) -> usize {
    if let Some(w) = word(b, i) {
        let m = stop_mask(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(chunk) = b.get(i..i + 32) {
        let mut stop = [0u8; 32];
        for (s, &c) in stop.iter_mut().zip(chunk) {
            *s = u8::from(stops(c));
        }
        let w = |k: usize| word(&stop, k).unwrap_or(0);
        let (w0, w1, w2, w3) = (w(0), w(8), w(16), w(24));
        if w0 | w1 | w2 | w3 != 0 {
            let (m, at) = match (w0, w1, w2) {
                (0, 0, 0) => (w3, 24),
                (0, 0, _) => (w2, 16),
                (0, _, _) => (w1, 8),
                _ => (w0, 0),
            };
            return i + at + (m.trailing_zeros() / 8) as usize;
        }
        i += 32;
    }
    while let Some(w) = word(b, i) {
        let m = stop_mask(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && !stops(b[i]) {
        i += 1;
    }
    i
}

/// The first byte at or after `i` that needs an escape, or 0xED (which may start a WTF-8 surrogate).
#[inline]
pub(crate) fn find_string_stop_or_ed(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word(b, i) {
        let m = stop_mask(w) | eq_mask(w, 0xED);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i.min(b.len())
}

/// The first raw LF or CR in `b`, eight bytes at a time (codec's `line_break` check scans every line).
pub(crate) fn find_line_break(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(w) = word(b, i) {
        let m = eq_mask(w, b'\n') | eq_mask(w, b'\r');
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b[i..].iter().position(|&c| c == b'\n' || c == b'\r').map(|at| i + at)
}

#[cfg(test)]
mod tests {
    use super::find_line_break;

    #[test]
    fn find_line_break_agrees_with_a_byte_loop() {
        // every length up to 40, a CR or LF (or both) at every place, high bytes and 0x0a/0x0d neighbours around
        for len in 0..40 {
            for at in 0..=len {
                for (first, second) in [(b'\n', None), (b'\r', None), (b'\r', Some(b'\n')), (b'\n', Some(b'\r'))] {
                    let mut b: Vec<u8> = (0..len).map(|i| [b'a', 0x8a, 0x0b, 0x8d, 0x09, 0xff][i % 6]).collect();
                    if at < len {
                        b[at] = first;
                        if let (Some(s), true) = (second, at + 1 < len) {
                            b[at + 1] = s;
                        }
                    }
                    let naive = b.iter().position(|&c| c == b'\n' || c == b'\r');
                    assert_eq!(find_line_break(&b), naive, "{b:?}");
                }
            }
        }
    }
}
