package omnimessage

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Levels 1 and 2 of the precedence (schema/README.md section 4): the line is well-formed UTF-8,
// then one RFC 8259 value with nothing after it but whitespace, at most maxDepth containers deep.
// The refusals' pointer is "" and the offset says where.

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// validUpTo is the length of the longest valid UTF-8 prefix of b.
func validUpTo(b []byte) int {
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return i
}

// checkUTF8 refuses a line that is not well-formed UTF-8 (Go's decoder refuses overlong forms and
// encoded surrogates, as the standard requires).
func checkUTF8(b []byte) *Error {
	if utf8.Valid(b) {
		return nil
	}
	return lineError(InvalidUTF8, validUpTo(b), "invalid UTF-8")
}

// checkGrammar checks a line (levels 1 and 2); it returns the offset of its value's first byte.
func checkGrammar(b []byte, maxDepth int) (int, *Error) {
	if err := checkUTF8(b); err != nil {
		return 0, err
	}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		return 0, jsonError(0, "byte order mark (U+FEFF) before the message")
	}
	start := skipWS(b, 0)
	if start == len(b) {
		return 0, jsonError(start, "empty line: no JSON value")
	}
	end, err := valueEnd(b, start, 0, maxDepth)
	if err != nil {
		return 0, err
	}
	if j := skipWS(b, end); j != len(b) {
		return 0, lineError(TrailingData, j, "data after the message object")
	}
	return start, nil
}

func tooDeep(at, maxDepth int) *Error {
	return lineError(TooDeep, at, "nesting deeper than "+strconv.Itoa(maxDepth)+" levels")
}

// valueEnd is the end of the grammar-valid value at i (its first byte), which sits inside depth
// open containers: the grammar of one value, its first defect refused.
func valueEnd(b []byte, i, depth, maxDepth int) (int, *Error) {
	var stackBuf [64]byte
	stack := stackBuf[:0]
	var err *Error
	for {
		// a value at i
		c := byte(0)
		if i < len(b) {
			c = b[i]
		}
		switch {
		case c == '{' || c == '[':
			if depth+len(stack)+1 > maxDepth {
				return 0, tooDeep(i, maxDepth)
			}
			closer := byte(']')
			if c == '{' {
				closer = '}'
			}
			j := skipWS(b, i+1)
			if j < len(b) && b[j] == closer {
				i = j + 1
			} else {
				stack = append(stack, c)
				i = j
				if c == '{' {
					if i, err = memberKey(b, i); err != nil {
						return 0, err
					}
				}
				continue
			}
		case c == '"':
			if i, err = stringEnd(b, i); err != nil {
				return 0, err
			}
		case c == '-' || isDigit(c):
			if i, err = numberEnd(b, i); err != nil {
				return 0, err
			}
		default:
			if i, err = literalEnd(b, i); err != nil {
				return 0, err
			}
		}
		// after a value: close containers or go to the next member or item
		next := false
		for !next {
			if len(stack) == 0 {
				return i, nil
			}
			top := stack[len(stack)-1]
			i = skipWS(b, i)
			closer := byte(']')
			if top == '{' {
				closer = '}'
			}
			switch {
			case i < len(b) && b[i] == ',':
				i = skipWS(b, i+1)
				if top == '{' {
					if i, err = memberKey(b, i); err != nil {
						return 0, err
					}
				} else if i < len(b) && b[i] == ']' {
					return 0, jsonError(i, "trailing comma in array")
				}
				next = true
			case i < len(b) && b[i] == closer:
				i++
				stack = stack[:len(stack)-1]
			case top == '{':
				return 0, jsonError(i, "',' or '}' expected in object")
			default:
				return 0, jsonError(i, "',' or ']' expected in array")
			}
		}
	}
}

// memberKey reads a key at i (after `{` or `,` and whitespace), its `:` and the whitespace after it.
func memberKey(b []byte, i int) (int, *Error) {
	switch {
	case i < len(b) && b[i] == '"':
	case i < len(b) && b[i] == '}':
		return 0, jsonError(i, "trailing comma in object")
	default:
		return 0, jsonError(i, "object key expected (a double-quoted string)")
	}
	j, err := stringEnd(b, i)
	if err != nil {
		return 0, err
	}
	j = skipWS(b, j)
	if j >= len(b) || b[j] != ':' {
		return 0, jsonError(j, "':' expected after object key")
	}
	return skipWS(b, j+1), nil
}

func isHex(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// stringEnd is the end of the string starting at i (its `"`).
func stringEnd(b []byte, i int) (int, *Error) {
	j := i + 1
	for j < len(b) {
		j = findStringStop(b, j)
		if j >= len(b) {
			break
		}
		c := b[j]
		if c == '"' {
			return j + 1, nil
		}
		if c == '\\' {
			if j+1 >= len(b) {
				return 0, jsonError(j, "invalid escape")
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
					return 0, jsonError(j, "invalid \\u escape (four hex digits expected)")
				}
				j += 6
			default:
				return 0, jsonError(j, "invalid escape")
			}
			continue
		}
		return 0, jsonError(j, "raw control character inside a string")
	}
	return 0, jsonError(i, "unterminated string")
}

func isASCIIAlnum(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') }

// numberEnd is the end of the RFC 8259 number at i: the number token runs to the first character
// that is none of the ASCII digits, `.`, `e`, `E`, `+`, `-` or an ASCII letter (section 1.3; a
// non-ASCII character ends it), and must be one RFC 8259 number.
func numberEnd(b []byte, i int) (int, *Error) {
	end, ok := rfcNumberEnd(b, i)
	if !ok {
		return 0, jsonError(i, "invalid number")
	}
	if end < len(b) {
		c := b[end]
		if isASCIIAlnum(c) || c == '.' || c == '+' || c == '-' {
			return 0, jsonError(i, "invalid number")
		}
	}
	return end, nil
}

// rfcNumberEnd is the end of `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at i.
func rfcNumberEnd(b []byte, i int) (int, bool) {
	digits := func(j int) int {
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		return j
	}
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && isDigit(b[j]):
		j = digits(j)
	default:
		return 0, false
	}
	if j+1 < len(b) && b[j] == '.' && isDigit(b[j+1]) {
		j = digits(j + 1)
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		k := j + 1
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if k < len(b) && isDigit(b[k]) {
			j = digits(k)
		}
	}
	return j, true
}

func literalEnd(b []byte, i int) (int, *Error) {
	if i > len(b) {
		i = len(b)
	}
	rest := b[i:]
	for _, word := range [...]string{"true", "false", "null"} {
		if len(rest) >= len(word) && string(rest[:len(word)]) == word {
			return i + len(word), nil
		}
	}
	if len(rest) == 0 {
		return 0, jsonError(i, "unexpected end of line")
	}
	return 0, jsonError(i, "a JSON value expected")
}
