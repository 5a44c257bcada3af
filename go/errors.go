package omnimessage

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Category is why a line was refused: one of the schema's `x-omnimessage-rejections`. The
// generated package's Categories table lists them with their rule; a test there checks that the
// constants below are exactly that table.
type Category string

// The categories (schema/README.md section 4), in the schema's order.
const (
	InvalidUTF8     Category = "invalid_utf8"
	InvalidJSON     Category = "invalid_json"
	TrailingData    Category = "trailing_data"
	LineBreak       Category = "line_break"
	TooDeep         Category = "too_deep"
	TooLarge        Category = "too_large"
	Truncated       Category = "truncated"
	DuplicateKey    Category = "duplicate_key"
	LoneSurrogate   Category = "lone_surrogate"
	InvalidNumber   Category = "invalid_number"
	WrongType       Category = "wrong_type"
	MissingField    Category = "missing_field"
	UnexpectedField Category = "unexpected_field"
	UnknownType     Category = "unknown_type"
	InvalidValue    Category = "invalid_value"
)

// AllCategories lists the constants above, in order.
var AllCategories = []Category{InvalidUTF8, InvalidJSON, TrailingData, LineBreak, TooDeep, TooLarge, Truncated,
	DuplicateKey, LoneSurrogate, InvalidNumber, WrongType, MissingField, UnexpectedField, UnknownType, InvalidValue}

// Error is the one error a decoder returns. Category, Pointer and Offset are normative; Detail is
// for people (input in it is quoted and cut short). Pointer is WTF-8: a key may escape a lone
// surrogate; PointerJSON spells it as JSON.stringify does.
type Error struct {
	Category Category
	Pointer  string // "" for the line itself
	Offset   int    // the byte offset where the problem was found, -1 when unknown
	Detail   string
	Line     int // 1-based, when a reader reports it; 0 otherwise
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Category))
	b.WriteString(": ")
	b.WriteString(e.Detail)
	sep := " ("
	if e.Line > 0 {
		b.WriteString(sep + "line " + strconv.Itoa(e.Line))
		sep = ", "
	}
	if e.Pointer != "" {
		b.WriteString(sep + "at " + strings.ToValidUTF8(e.Pointer, "\uFFFD"))
		sep = ", "
	}
	if e.Offset >= 0 {
		b.WriteString(sep + "byte " + strconv.Itoa(e.Offset))
		sep = ", "
	}
	if sep == ", " {
		b.WriteString(")")
	}
	return b.String()
}

// PointerJSON is the pointer as a JSON string, a lone surrogate written `\udxxx`.
func (e *Error) PointerJSON() string {
	return string(appendWTF8(nil, e.Pointer))
}

func newError(c Category, pointer string, offset int, detail string) *Error {
	return &Error{Category: c, Pointer: pointer, Offset: offset, Detail: detail}
}

// lineError is a refusal of the line itself (bytes and grammar): its pointer is "".
func lineError(c Category, offset int, detail string) *Error {
	return newError(c, "", offset, detail)
}

func jsonError(at int, detail string) *Error {
	return lineError(InvalidJSON, at, detail)
}

// clip quotes text for a detail, cut to at most 200 characters.
func clip(text string) string {
	const max = 200
	var b strings.Builder
	b.WriteByte('\'')
	n := 0
	for len(text) > 0 {
		if n == max {
			b.WriteString("...")
			break
		}
		r, size := utf8.DecodeRuneInString(text)
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(text[:size])
		}
		text = text[size:]
		n++
	}
	b.WriteByte('\'')
	return b.String()
}
