package omnimessage

import (
	"strconv"
)

// De is the cursor of the typed decoder over a line of valid UTF-8. It reads a line straight into
// the generated types in one pass, checking the grammar of every byte it passes and refusing
// schema errors (level 4) with their pointer and offset. Whatever it refuses, DecodeAs then asks
// the grammar check and the level-3 walk first, which decide exactly; so a line it accepts is one
// the grammar accepts, and a refusal of its own for bad syntax never reaches the caller.
type De struct {
	b      []byte
	i      int
	depth  int  // the containers open around the cursor
	fresh  bool // an object was just opened: its first member (or its `}`) comes next
	schema *Schema
}

// Unknown is the field index of a key that names none of an object's fields.
const Unknown = -1

// newDe is a cursor at start of line b (valid UTF-8).
func newDe(s *Schema, b []byte, start int) *De { return &De{b: b, i: start, schema: s} }

func (d *De) at() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// atEnd says whether only whitespace follows the cursor.
func (d *De) atEnd() bool { return skipWS(d.b, d.i) == len(d.b) }

// valueStart skips whitespace; it returns where the value starts.
func (d *De) valueStart() int {
	d.i = skipWS(d.b, d.i)
	return d.i
}

func (d *De) fail(c Category, p *Path, at int, detail string) error {
	return newError(c, p.Render(), at, detail)
}

func (d *De) what(at int) string {
	if at >= len(d.b) {
		return "nothing"
	}
	switch d.b[at] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// WrongType is the refusal of the value at at, which is not what was expected.
func (d *De) WrongType(p *Path, at int, expected string) error {
	return d.fail(WrongType, p, at, "expected "+expected+", got "+d.what(at))
}

// enter enters the container at the cursor (its `{` or `[`).
func (d *De) enter() error {
	if d.depth+1 > d.schema.MaxDepth {
		return tooDeep(d.i, d.schema.MaxDepth)
	}
	d.depth++
	d.i++
	return nil
}

// BeginObject reads `{`; it returns where the object starts.
func (d *De) BeginObject(p *Path) (int, error) {
	at := d.valueStart()
	if d.at() != '{' {
		return at, d.WrongType(p, at, "an object")
	}
	if err := d.enter(); err != nil {
		return at, err
	}
	d.fresh = true
	return at, nil
}

// NextKey reads the next member's key: its index in fields (Unknown when it names none) and where
// the key starts; more is false at the object's end (its `}` consumed). The cursor is left at
// the member's value.
func (d *De) NextKey(fields []string) (field, keyStart int, more bool, err error) {
	d.i = skipWS(d.b, d.i)
	fresh := d.fresh
	d.fresh = false
	switch c := d.at(); {
	case c == '}':
		d.i++
		d.depth--
		return 0, 0, false, nil
	case c == ',' && !fresh:
		d.i = skipWS(d.b, d.i+1)
	case c == '"' && fresh:
	default:
		return 0, 0, false, jsonError(d.i, "',' or '}' expected in object")
	}
	keyStart = d.i
	if d.at() != '"' {
		return 0, 0, false, jsonError(keyStart, "object key expected (a double-quoted string)")
	}
	key, e := scan(d.b, keyStart)
	if e != nil {
		return 0, 0, false, e
	}
	d.i = skipWS(d.b, key.end)
	if d.at() != ':' {
		return 0, 0, false, jsonError(d.i, "':' expected after object key")
	}
	d.i++
	field = Unknown
	if !key.lone {
		body := d.b[keyStart+1 : key.end-1]
		if key.escaped {
			body = key.unescaped
		}
		for n, f := range fields {
			if string(body) == f {
				field = n
				break
			}
		}
	}
	return field, keyStart, true, nil
}

// keyText is the text of the key at keyStart (WTF-8), for details and pointers.
func (d *De) keyText(keyStart int) string {
	s, err := scan(d.b, keyStart)
	if err != nil {
		return ""
	}
	return s.text(d.b, keyStart)
}

// Unexpected refuses the key at keyStart, which names no field of the object at p.
func (d *De) Unexpected(p *Path, keyStart int) error {
	key := d.keyText(keyStart)
	return newError(UnexpectedField, p.RenderWith(key), keyStart, "key "+clip(key)+" is not defined here")
}

// Duplicate refuses the key at keyStart, which the object at p already had.
func (d *De) Duplicate(p *Path, keyStart int) error {
	key := d.keyText(keyStart)
	return newError(DuplicateKey, p.RenderWith(key), keyStart, "duplicate key "+clip(key))
}

// Missing refuses the object at p, which starts at objectStart and lacks required key field.
func (d *De) Missing(p *Path, field string, objectStart int) error {
	return newError(MissingField, p.RenderWith(field), objectStart, "required key '"+field+"' is missing")
}

// SkipValue skips the value at the cursor, checking its grammar.
func (d *De) SkipValue() error {
	at := d.valueStart()
	var e *Error
	switch c := d.at(); {
	case c == '"':
		var s scanned
		s, e = scan(d.b, at)
		d.i = s.end
	case c == '-' || isDigit(c):
		d.i, e = numberEnd(d.b, at)
	default:
		d.i, e = valueEnd(d.b, at, d.depth, d.schema.MaxDepth)
	}
	if e != nil {
		return e
	}
	return nil
}

// token reads the string token at the cursor (which must be one).
func (d *De) token(p *Path) (int, scanned, error) {
	at := d.valueStart()
	if d.at() != '"' {
		return at, scanned{}, d.WrongType(p, at, "a string")
	}
	s, e := scan(d.b, at)
	if e != nil {
		return at, s, e
	}
	d.i = s.end
	return at, s, nil
}

// String reads a string value; a lone surrogate is refused.
func (d *De) String(p *Path) (string, error) {
	at, s, err := d.token(p)
	if err != nil {
		return "", err
	}
	if s.lone {
		return "", d.fail(LoneSurrogate, p, at, "string escapes a lone surrogate")
	}
	return s.text(d.b, at), nil
}

// NullString reads a string or null.
func (d *De) NullString(p *Path) (NullString, error) {
	if d.null() {
		return NullString{}, nil
	}
	s, err := d.String(p)
	return NullString{String: s, Valid: true}, err
}

// Fragment reads a string that may escape a lone surrogate (WTF-8).
func (d *De) Fragment(p *Path) (Fragment, error) {
	at, s, err := d.token(p)
	if err != nil {
		return "", err
	}
	return Fragment(s.text(d.b, at)), nil
}

// Constant reads a string that must be value (a discriminator or a fixed role).
func (d *De) Constant(p *Path, value string) error {
	at := d.valueStart()
	s, err := d.String(p)
	if err != nil {
		return err
	}
	if s != value {
		return d.fail(InvalidValue, p, at, clip(s)+" is not allowed here (expected '"+value+"')")
	}
	return nil
}

// Enumerated reads a string of a vocabulary: valid says whether a string is one of its values.
func (d *De) Enumerated(p *Path, valid func(string) bool) (string, error) {
	at := d.valueStart()
	s, err := d.String(p)
	if err != nil {
		return "", err
	}
	if !valid(s) {
		return "", d.fail(InvalidValue, p, at, clip(s)+" is not allowed here")
	}
	return s, nil
}

func (d *De) hasPrefix(word string) bool {
	return len(d.b)-d.i >= len(word) && string(d.b[d.i:d.i+len(word)]) == word
}

// Boolean reads `true` or `false`.
func (d *De) Boolean(p *Path) (bool, error) {
	at := d.valueStart()
	switch {
	case d.hasPrefix("true"):
		d.i += 4
		return true, nil
	case d.hasPrefix("false"):
		d.i += 5
		return false, nil
	}
	return false, d.WrongType(p, at, "a boolean")
}

// null reads `null` if it is at the cursor.
func (d *De) null() bool {
	d.valueStart()
	if d.hasPrefix("null") {
		d.i += 4
		return true
	}
	return false
}

// Array reads an array, each item by item, at least minItems of them.
func (d *De) Array(p *Path, minItems int, item func(d *De, p *Path) error) error {
	at := d.valueStart()
	if d.at() != '[' {
		return d.WrongType(p, at, "an array")
	}
	if err := d.enter(); err != nil {
		return err
	}
	n := 0
	d.valueStart()
	if d.at() == ']' {
		d.i++
	} else {
		for {
			if err := item(d, p.Index(n)); err != nil {
				return err
			}
			n++
			d.i = skipWS(d.b, d.i)
			c := d.at()
			if c == ']' {
				d.i++
				break
			}
			if c == ',' {
				if j := skipWS(d.b, d.i+1); j >= len(d.b) || d.b[j] != ']' {
					d.i++
					continue
				}
			}
			return jsonError(d.i, "',' or ']' expected in array")
		}
	}
	d.depth--
	if n < minItems {
		return d.fail(InvalidValue, p, at, "expected at least "+strconv.Itoa(minItems)+" items")
	}
	return nil
}

// Verbatim reads an object kept as its bytes (its grammar checked); scalarMap: its member values
// must be strings, numbers or booleans.
func (d *De) Verbatim(p *Path, scalarMap bool) (Verbatim, error) {
	at := d.valueStart()
	if d.at() != '{' {
		return "", d.WrongType(p, at, "a JSON object (a verbatim value)")
	}
	if scalarMap {
		if err := d.scalarMap(p); err != nil {
			return "", err
		}
	} else if err := d.SkipValue(); err != nil {
		return "", err
	}
	return Verbatim(d.b[at:d.i]), nil
}

// scalarMap reads the object at the cursor, whose member values must be scalars.
func (d *De) scalarMap(p *Path) error {
	if err := d.enter(); err != nil {
		return err
	}
	d.fresh = true
	for {
		_, keyStart, more, err := d.NextKey(nil)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		v := d.valueStart()
		if c := d.at(); c == '{' || c == '[' || c == 'n' {
			return newError(WrongType, p.RenderWith(d.keyText(keyStart)), v,
				"values here must be strings, numbers or booleans")
		}
		if err := d.SkipValue(); err != nil {
			return err
		}
	}
}

// peekMember finds the string value of the first member named name of the object at the cursor,
// without moving: found is false when absent (or when the object's grammar fails before it);
// notString is the offset of its value when it is not a string (else -1). The text is WTF-8:
// the level-3 walk reports a lone surrogate.
func (d *De) peekMember(name string) (at int, value string, found bool, notString int) {
	p := &De{b: d.b, i: d.i, depth: d.depth, schema: d.schema}
	if p.valueStart() >= len(p.b) || p.at() != '{' || p.enter() != nil {
		return 0, "", false, -1
	}
	p.fresh = true
	fields := []string{name}
	for {
		index, _, more, err := p.NextKey(fields)
		if err != nil || !more {
			return 0, "", false, -1
		}
		if index == 0 {
			at := p.valueStart()
			if p.at() != '"' {
				return 0, "", false, at
			}
			s, e := scan(p.b, at)
			if e != nil {
				return 0, "", false, -1
			}
			return at, s.text(p.b, at), true, -1
		}
		if p.SkipValue() != nil {
			return 0, "", false, -1
		}
	}
}

// Tag reads the discriminator of the object at the cursor, without moving: its first `type`
// member, which must be a string.
func (d *De) Tag(p *Path) (int, string, error) {
	at := d.valueStart()
	if d.at() != '{' {
		return at, "", d.WrongType(p, at, "an object")
	}
	tagAt, tag, found, notString := d.peekMember("type")
	if notString >= 0 {
		return at, "", d.WrongType(p.Key("type"), notString, "a string")
	}
	if !found {
		return at, "", d.Missing(p, "type", at)
	}
	return tagAt, tag, nil
}

// UnknownType refuses the discriminator tag at at of the object at p.
func (d *De) UnknownType(p *Path, at int, tag string) error {
	return d.fail(UnknownType, p.Key("type"), at, "unknown type "+clip(tag))
}
