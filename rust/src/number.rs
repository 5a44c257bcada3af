//! Numbers: ECMAScript `Number::toString` spelling (RFC 8785 section 3.2.2.3) and the parsed
//! double of a JSON number (correctly rounded, as `JSON.parse` reads it).

use std::fmt::Write as _;

/// A small stack buffer for `{:e}` output: formatting a number allocates nothing.
struct Buf {
    bytes: [u8; 40],
    len: usize,
}

impl std::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Writes `x` as ECMAScript `Number::toString(x)` writes it (`x` finite).
pub fn write_f64(out: &mut Vec<u8>, x: f64) {
    if x == 0.0 || !x.is_finite() {
        out.push(b'0'); // -0 is written 0; non-finite values never reach an encoder
        return;
    }
    if x < 0.0 {
        out.push(b'-');
    }
    let mut buf = Buf { bytes: [0; 40], len: 0 };
    // Rust's `{:e}` gives the shortest digits that round-trip (k of them); ECMAScript wants, of
    // the k-digit decimals that round-trip, the one closest to x: the correctly rounded k digits
    // (`{:.(k-1)e}`), which round-trip whenever any k-digit decimal does (checked all the same).
    let _ = write!(buf, "{:e}", x.abs());
    let k = buf.bytes[..buf.len]
        .iter()
        .take_while(|&&c| c != b'e')
        .filter(|c| c.is_ascii_digit())
        .count();
    if k > 1 {
        let mut exact = Buf { bytes: [0; 40], len: 0 };
        if write!(exact, "{:.*e}", k - 1, x.abs()).is_ok()
            && std::str::from_utf8(&exact.bytes[..exact.len])
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
                == Some(x.abs())
        {
            buf = exact;
        }
    }
    let s = &buf.bytes[..buf.len];
    let e_at = s.iter().position(|&c| c == b'e').unwrap_or(s.len());
    let (mantissa, exp) = (&s[..e_at], &s[(e_at + 1).min(s.len())..]);
    let mut digits = [0u8; 24];
    let mut k = 0;
    for &c in mantissa {
        if c.is_ascii_digit() && k < digits.len() {
            digits[k] = c;
            k += 1;
        }
    }
    let digits = &digits[..k];
    let e: i32 = std::str::from_utf8(exp).ok().and_then(|t| t.parse().ok()).unwrap_or(0);
    let n = e + 1; // x = 0.d1d2...dk * 10^n
    let k = k as i32;
    if k <= n && n <= 21 {
        out.extend_from_slice(digits);
        out.extend(std::iter::repeat(b'0').take((n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.extend_from_slice(&digits[..n as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat(b'0').take((-n) as usize));
        out.extend_from_slice(digits);
    } else {
        out.push(digits[0]);
        if k > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        out.push(if n - 1 < 0 { b'-' } else { b'+' });
        write_u64(out, u64::from((n - 1).unsigned_abs()));
    }
}

/// Writes a non-negative integer.
pub fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// The parsed double of an RFC 8259 number spelling (infinite beyond the double range).
pub fn parse(spelling: &str) -> f64 {
    spelling.parse::<f64>().unwrap_or(f64::NAN)
}

/// Whether a number spelling has a fraction or an exponent.
pub fn has_fraction_or_exponent(spelling: &[u8]) -> bool {
    spelling.iter().any(|&c| matches!(c, b'.' | b'e' | b'E'))
}

/// Whether a number spelling may be beyond the double range (cheap: a short plain integer never is).
pub fn may_overflow(spelling: &[u8]) -> bool {
    spelling.len() > 300 || spelling.iter().any(|&c| c == b'e' || c == b'E')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> String {
        let mut out = Vec::new();
        write_f64(&mut out, x);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn spells_like_ecmascript() {
        assert_eq!(s(5.0), "5");
        assert_eq!(s(-0.0), "0");
        assert_eq!(s(1e21), "1e+21");
        assert_eq!(s(1e20), "100000000000000000000");
        assert_eq!(s(1e-7), "1e-7");
        assert_eq!(s(1.5e-7), "1.5e-7");
        assert_eq!(s(0.000001), "0.000001");
        assert_eq!(s(123.456), "123.456");
        assert_eq!(s(5e-324), "5e-324");
        assert_eq!(s(1.7976931348623157e308), "1.7976931348623157e+308");
        assert_eq!(s(1e22), "1e+22");
        assert_eq!(s(-1.25), "-1.25");
        assert_eq!(s(9007199254740993.0), "9007199254740992");
    }
}
