package omnimessage

// DecodeAs decodes one line (one trailing LF allowed) strictly with decode, the generated decoder
// of a type: the levels of schema/README.md section 4 in order. (1) UTF-8, then a raw LF or CR inside
// the message (line_break: a message is one line, section 1.5), then the typed decoder
// reads the line in one pass that checks (2) the grammar of everything it reads, so a line it
// accepts passes every level. Only when it refuses are the levels asked in order: the grammar
// check, then the level-3 walk (a duplicate key, lone surrogate or out-of-range number), then the
// typed decoder's own refusal (level 4).
func DecodeAs[T any](s *Schema, line []byte, decode func(*De, *Path) (T, error)) (T, error) {
	var zero T
	if err := checkUTF8(line); err != nil {
		return zero, err
	}
	if at := lineBreakAt(line); at >= 0 {
		name := "carriage return (CR)"
		if line[at] == '\n' {
			name = "line feed (LF)"
		}
		return zero, lineError(LineBreak, at, "raw "+name+" inside the message")
	}
	d := newDe(s, line, 0)
	var refusal error
	if d.valueStart() < len(line) && line[d.i] == '{' {
		v, err := decode(d, rootPath)
		if err == nil && d.atEnd() {
			return v, nil
		}
		refusal = err // nil: data after the value, which the grammar check names
	}
	start, gerr := checkGrammar(line, s.MaxDepth)
	if gerr != nil {
		return zero, gerr
	}
	if line[start] != '{' {
		return zero, newError(WrongType, "", 0, "a message is a JSON object")
	}
	if err := firstLexical(s, line, start); err != nil {
		return zero, err
	}
	if refusal != nil {
		return zero, refusal
	}
	return zero, jsonError(0, "refused")
}

// lineBreakAt is the offset of the first raw LF or CR of a line (less its terminating LF) when it
// comes before the JSON whitespace that ends the line, i.e. inside the message; else -1
// (schema/README.md section 1.5: CR LF and CR CR LF line ends stay allowed).
func lineBreakAt(line []byte) int {
	body := line
	if n := len(body); n > 0 && body[n-1] == '\n' {
		body = body[:n-1]
	}
	at := -1
	for i, c := range body {
		if c == '\n' || c == '\r' {
			at = i
			break
		}
	}
	if at < 0 {
		return -1
	}
	for _, c := range body[at:] {
		if !isWS(c) {
			return at
		}
	}
	return -1
}

// Opaque is a well-formed JSON object that strict decoding refuses, kept as the bytes of its
// object (from `{` to `}`, schema/README.md section 5), with the refusal strict decoding gave.
type Opaque struct {
	Raw   []byte
	Error *Error
}

// refusedLeniently says whether lenient decoding still refuses err: the line's bytes and grammar,
// and a line that is not an object.
func refusedLeniently(err *Error) bool {
	switch err.Category {
	case InvalidUTF8, InvalidJSON, TooDeep, TrailingData, LineBreak, TooLarge, Truncated:
		return true
	case WrongType:
		return err.Pointer == ""
	}
	return false
}

// OpaqueOf is the opaque message of a line strict decoding refused with err, or nil when lenient
// decoding refuses it too.
func OpaqueOf(line []byte, err *Error) *Opaque {
	if refusedLeniently(err) {
		return nil
	}
	a, b := 0, len(line)
	for a < b && isWS(line[a]) {
		a++
	}
	for b > a && isWS(line[b-1]) {
		b--
	}
	return &Opaque{Raw: append([]byte(nil), line[a:b]...), Error: err}
}
