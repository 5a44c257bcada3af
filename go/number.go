package omnimessage

import (
	"math"
	"strconv"
	"strings"
)

// Numbers: ECMAScript Number::toString spelling (RFC 8785 section 3.2.2.3) and the parsed double
// of a JSON number (correctly rounded, as JSON.parse reads it).

// AppendFloat appends x as ECMAScript Number::toString(x) writes it (x finite; -0 is written 0).
func AppendFloat(out []byte, x float64) []byte {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return append(out, '0') // non-finite values never reach an encoder
	}
	if x < 0 {
		out = append(out, '-')
		x = -x
	}
	var buf [32]byte
	// Go's shortest form gives the fewest digits that round-trip (k of them); ECMAScript wants,
	// of the k-digit decimals that round-trip, the one closest to x: the correctly rounded k
	// digits, which round-trip whenever any k-digit decimal does (checked all the same).
	s := strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	eAt := strings.IndexByte(string(s), 'e')
	k := eAt
	if k > 1 {
		k-- // the point
	}
	if k > 1 {
		var buf2 [32]byte
		exact := strconv.AppendFloat(buf2[:0], x, 'e', k-1, 64)
		if v, err := strconv.ParseFloat(string(exact), 64); err == nil && v == x {
			s = exact
			eAt = strings.IndexByte(string(s), 'e')
		}
	}
	var digitBuf [24]byte
	digits := digitBuf[:0]
	for _, c := range s[:eAt] {
		if isDigit(c) {
			digits = append(digits, c)
		}
	}
	e, _ := strconv.Atoi(string(s[eAt+1:]))
	n := e + 1 // x = 0.d1d2...dk * 10^n
	nd := len(digits)
	switch {
	case nd <= n && n <= 21:
		out = append(out, digits...)
		for i := 0; i < n-nd; i++ {
			out = append(out, '0')
		}
	case 0 < n && n <= 21:
		out = append(out, digits[:n]...)
		out = append(out, '.')
		out = append(out, digits[n:]...)
	case -6 < n && n <= 0:
		out = append(out, '0', '.')
		for i := 0; i < -n; i++ {
			out = append(out, '0')
		}
		out = append(out, digits...)
	default:
		out = append(out, digits[0])
		if nd > 1 {
			out = append(out, '.')
			out = append(out, digits[1:]...)
		}
		out = append(out, 'e')
		if n-1 < 0 {
			out = append(out, '-')
			out = strconv.AppendInt(out, int64(1-n), 10)
		} else {
			out = append(out, '+')
			out = strconv.AppendInt(out, int64(n-1), 10)
		}
	}
	return out
}

// AppendUint appends a non-negative integer.
func AppendUint(out []byte, v uint64) []byte {
	return strconv.AppendUint(out, v, 10)
}

// parseNumber is the double of an RFC 8259 number spelling (infinite beyond the double range).
func parseNumber(spelling []byte) float64 {
	v, err := strconv.ParseFloat(string(spelling), 64)
	if err != nil && !math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

func hasFractionOrExponent(spelling []byte) bool {
	for _, c := range spelling {
		if c == '.' || c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// mayOverflow says whether a number spelling may be beyond the double range (a short plain
// integer never is).
func mayOverflow(spelling []byte) bool {
	return len(spelling) > 300 || strings.ContainsAny(string(spelling), "eE")
}
