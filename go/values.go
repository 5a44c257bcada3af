package omnimessage

import (
	"strings"
	"unicode/utf8"
)

// Verbatim is an open JSON value the protocol does not own (`fidelity`, tool `parameters`, hook
// `output`), kept as its exact source bytes, from its `{` to its `}` (schema/README.md section 3).
type Verbatim string

// VerbatimFromJSON wraps JSON text that must be one object (whitespace around it is dropped). A raw
// LF or CR inside it is refused (line_break): the message it goes into must stay one line
// (schema/README.md section 1.5); an empty object in any spelling is still taken (builders leave it out).
func VerbatimFromJSON(text string, maxDepth int) (Verbatim, error) {
	start, err := checkGrammar([]byte(text), maxDepth)
	if err != nil {
		return "", err
	}
	if text[start] != '{' {
		return "", newError(WrongType, "", start, "a verbatim value is a JSON object")
	}
	v := Verbatim(strings.Trim(text, " \t\r\n"))
	if at := strings.IndexAny(string(v), "\r\n"); at >= 0 && !v.IsEmpty() {
		return "", newError(LineBreak, "", start+at, "a raw line break inside a verbatim value (a message is one line)")
	}
	return v, nil
}

// IsEmpty says whether it is an object with no members, in any spelling (`{}`, `{ }`): builders
// leave such a value out.
func (v Verbatim) IsEmpty() bool {
	return strings.Trim(string(v), "{} \t\r\n") == ""
}

// AppendCanonical appends the exact bytes.
func (v Verbatim) AppendCanonical(out []byte) []byte { return append(out, v...) }

// Fragment is a streaming fragment (the fragment field of a `partial_*` payload): a string cut at
// an arbitrary UTF-16 offset, so it may begin or end with half of a surrogate pair. Held as WTF-8
// (a Go string holds any bytes); Join pairs the halves up again (schema/README.md section 4.1).
type Fragment string

// Valid says whether it holds no lone surrogate (it is UTF-8).
func (f Fragment) Valid() bool { return utf8.ValidString(string(f)) }

// Lossy is the text, a lone surrogate shown as U+FFFD.
func (f Fragment) Lossy() string { return strings.ToValidUTF8(string(f), "\uFFFD") }

// AppendCanonical appends it as a JSON string, a lone surrogate as `\udxxx`.
func (f Fragment) AppendCanonical(out []byte) []byte { return appendWTF8(out, string(f)) }

// Join appends other as UTF-16 code units are joined: a high surrogate ending f and a low one
// starting other become one character.
func (f Fragment) Join(other Fragment) Fragment {
	n := len(f)
	if n >= 3 && len(other) >= 3 && f[n-3] == 0xED && f[n-2] >= 0xA0 && f[n-2] < 0xB0 &&
		other[0] == 0xED && other[1] >= 0xB0 {
		high := 0xD000 | uint32(f[n-2]&0x3F)<<6 | uint32(f[n-1]&0x3F)
		low := 0xD000 | uint32(other[1]&0x3F)<<6 | uint32(other[2]&0x3F)
		joined := appendWTF8Rune([]byte(f[:n-3]), 0x10000+((high-0xD800)<<10)+(low-0xDC00))
		return Fragment(string(joined) + string(other[3:]))
	}
	return f + other
}

// NumberOrString is a value that is a number or a string (`model_context_window`).
type NumberOrString struct {
	Number   float64
	String   string
	IsString bool
}

// AppendCanonical appends the number (ECMAScript spelling) or the string.
func (v NumberOrString) AppendCanonical(out []byte) []byte {
	if v.IsString {
		return AppendString(out, v.String)
	}
	return AppendFloat(out, v.Number)
}

// NullString is a string or null.
type NullString struct {
	String string
	Valid  bool // false: null
}

// AppendCanonical appends the string or `null`.
func (v NullString) AppendCanonical(out []byte) []byte {
	if !v.Valid {
		return append(out, "null"...)
	}
	return AppendString(out, v.String)
}
