package omnimessage

import (
	"encoding/binary"
	"math/bits"
)

// JSON strings: a string token read in one pass (checked as the grammar checks it, unescaped into
// WTF-8 so that a lone surrogate escape survives as the code unit it names), and escaped exactly
// as JSON.stringify escapes (schema/README.md 2.4). Both copy runs of plain bytes at once.

const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

// stopMask marks the bytes of w that stop a string body: `"`, `\` and C0 controls (the lowest set
// bit is exact).
func stopMask(w uint64) uint64 {
	q := w ^ (lo * '"')
	bs := w ^ (lo * '\\')
	return ((q - lo) &^ q & hi) | ((bs - lo) &^ bs & hi) | ((w - lo*0x20) &^ w & hi)
}

func stops(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// findStringStop is the position of the first `"`, `\` or control character at or after i (or
// the end), eight bytes at a time.
func findStringStop(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(b) && !stops(b[i]) {
		i++
	}
	return i
}

// appendWTF8Rune appends code point cp (a surrogate included: WTF-8) as UTF-8.
func appendWTF8Rune(out []byte, cp uint32) []byte {
	switch {
	case cp < 0x80:
		return append(out, byte(cp))
	case cp < 0x800:
		return append(out, 0xC0|byte(cp>>6), 0x80|byte(cp&0x3F))
	case cp < 0x10000:
		return append(out, 0xE0|byte(cp>>12), 0x80|byte((cp>>6)&0x3F), 0x80|byte(cp&0x3F))
	}
	return append(out, 0xF0|byte(cp>>18), 0x80|byte((cp>>12)&0x3F), 0x80|byte((cp>>6)&0x3F), 0x80|byte(cp&0x3F))
}

// scanned is a string token read by scan.
type scanned struct {
	end       int    // just after its closing `"`
	unescaped []byte // the WTF-8 text; nil when the string has no escape (its text is its body)
	escaped   bool
	lone      bool // it escapes a lone surrogate
}

var unescapeTable = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': 0x08, 'f': 0x0C, 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(b []byte, at int) (uint32, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var v uint32
	for _, c := range b[at : at+4] {
		var d byte
		switch {
		case isDigit(c):
			d = c - '0'
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			d = c | 0x20 - 'a' + 10
		default:
			return 0, false
		}
		v = v*16 + uint32(d)
	}
	return v, true
}

// unicodeEscape reads the `\u` escape at j (its `\`): the code point (a surrogate pair joined, a
// lone surrogate as its code unit) and the offset after it.
func unicodeEscape(b []byte, j int) (uint32, int, bool) {
	cp, ok := hex4(b, j+2)
	if !ok {
		return 0, 0, false
	}
	if cp >= 0xD800 && cp < 0xDC00 && j+7 < len(b) && b[j+6] == '\\' && b[j+7] == 'u' {
		if low, ok := hex4(b, j+8); ok && low >= 0xDC00 && low <= 0xDFFF {
			return 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00), j + 12, true
		}
	}
	return cp, j + 6, true
}

func stopError(b []byte, i, j int) *Error {
	if j < len(b) {
		return jsonError(j, "raw control character inside a string")
	}
	return jsonError(i, "unterminated string")
}

// scan reads the string token whose `"` is at i, checked as the grammar checks it.
func scan(b []byte, i int) (scanned, *Error) {
	start := i + 1
	j := findStringStop(b, start)
	if j < len(b) && b[j] == '"' {
		return scanned{end: j + 1}, nil
	}
	if j >= len(b) || b[j] != '\\' {
		return scanned{}, stopError(b, i, j)
	}
	out := make([]byte, 0, 2*(j-start)+16)
	lone := false
	for {
		out = append(out, b[start:j]...)
		second := byte(0)
		if j+1 < len(b) {
			second = b[j+1]
		}
		if u := unescapeTable[second]; u != 0 {
			out = append(out, u)
			start = j + 2
		} else if second == 'u' {
			cp, next, ok := unicodeEscape(b, j)
			if !ok {
				return scanned{}, jsonError(j, "invalid \\u escape (four hex digits expected)")
			}
			if cp >= 0xD800 && cp < 0xE000 {
				lone = true
			}
			out = appendWTF8Rune(out, cp)
			start = next
		} else {
			return scanned{}, jsonError(j, "invalid escape")
		}
		j = findStringStop(b, start)
		if j < len(b) && b[j] == '"' {
			out = append(out, b[start:j]...)
			return scanned{end: j + 1, unescaped: out, escaped: true, lone: lone}, nil
		}
		if j >= len(b) || b[j] != '\\' {
			return scanned{}, stopError(b, i, j)
		}
	}
}

// text is the WTF-8 text of a scanned string whose `"` is at i.
func (s scanned) text(b []byte, i int) string {
	if s.escaped {
		return string(s.unescaped)
	}
	return string(b[i+1 : s.end-1])
}

const hexDigits = "0123456789abcdef"

// AppendString appends s (UTF-8, or WTF-8: a lone surrogate becomes `\udxxx`, as ES2019's
// JSON.stringify writes it) as a JSON string, escaped as JSON.stringify escapes it.
func AppendString(out []byte, s string) []byte {
	return appendWTF8(out, s)
}

// appendWTF8 is AppendString (the name says that s may hold a surrogate code unit).
func appendWTF8(out []byte, s string) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		surrogate := c == 0xED && i+1 < len(s) && s[i+1] >= 0xA0
		if c >= 0x20 && c != '"' && c != '\\' && !surrogate {
			i++
			continue
		}
		out = append(out, s[start:i]...)
		if surrogate {
			c2 := byte(0x80)
			if i+2 < len(s) {
				c2 = s[i+2]
			}
			cp := 0xD000 | uint32(s[i+1]&0x3F)<<6 | uint32(c2&0x3F)
			out = append(out, '\\', 'u', hexDigits[cp>>12&0xF], hexDigits[cp>>8&0xF], hexDigits[cp>>4&0xF], hexDigits[cp&0xF])
			i += 3
		} else {
			switch c {
			case '"':
				out = append(out, '\\', '"')
			case '\\':
				out = append(out, '\\', '\\')
			case 0x08:
				out = append(out, '\\', 'b')
			case 0x0C:
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
		}
		start = i
	}
	if start > len(s) {
		start = len(s)
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
