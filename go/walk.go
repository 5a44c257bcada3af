package omnimessage

import "math"

// Level 3 of the precedence (schema/README.md section 4): the structure walked in document order,
// the first duplicate key, lone surrogate escape or number beyond the double range outside
// verbatim values reported. Where the verbatim values and the fragment field are is read from the
// envelope `type` and the payload `type` (the first member of each name) through the schema's
// tables. Only run on a line the typed decoder refused, so it may take its time.

type walk struct {
	b    []byte
	s    *Schema
	info *PayloadInfo
	rel  []string // the path from the payload, `*` for an array item
}

// firstLexical is the first level-3 defect of the grammar-valid line whose value starts at start.
func firstLexical(s *Schema, b []byte, start int) error {
	root := newDe(s, b, start)
	_, env, envFound, _ := root.peekMember("type")
	w := &walk{b: b, s: s}
	if p, ok := payloadStart(s, b, start); ok && envFound {
		if _, tag, found, _ := newDe(s, b, p).peekMember("type"); found {
			w.info = s.PayloadInfo(env, tag)
		}
	}
	_, err := w.value(start, rootPath, false)
	return err
}

// payloadStart is where the value of the first `payload` member of the root object starts.
func payloadStart(s *Schema, b []byte, start int) (int, bool) {
	d := newDe(s, b, start)
	if _, err := d.BeginObject(rootPath); err != nil {
		return 0, false
	}
	fields := []string{"payload"}
	for {
		index, _, more, err := d.NextKey(fields)
		if err != nil || !more {
			return 0, false
		}
		if index == 0 {
			return d.valueStart(), true
		}
		if d.SkipValue() != nil {
			return 0, false
		}
	}
}

func (w *walk) atVerbatim(inPayload bool) (Shape, bool) {
	if !inPayload || w.info == nil {
		return 0, false
	}
	for _, v := range w.info.Verbatim {
		if len(v.Path) != len(w.rel) {
			continue
		}
		same := true
		for n := range v.Path {
			if v.Path[n] != w.rel[n] {
				same = false
				break
			}
		}
		if same {
			return v.Shape, true
		}
	}
	return 0, false
}

// verbatim checks a verbatim value's shape where the walk meets it (a value there that is not an
// object, or a scalar map's member that is not a scalar, is refused in document order with the
// lexical defects); its inside is not walked.
func (w *walk) verbatim(i int, p *Path, shape Shape) (int, error) {
	if i >= len(w.b) || w.b[i] != '{' {
		return 0, newError(WrongType, p.Render(), i, "a verbatim value here must be a JSON object")
	}
	d := newDe(w.s, w.b, i)
	var err error
	if shape == ShapeScalarMap {
		err = d.scalarMap(p)
	} else {
		err = d.SkipValue()
	}
	return d.i, err
}

func (w *walk) atFragment(inPayload bool) bool {
	return inPayload && len(w.rel) == 1 && w.info != nil && w.info.Fragment != "" && w.info.Fragment == w.rel[0]
}

// value walks the value at i; it returns its end.
func (w *walk) value(i int, p *Path, inPayload bool) (int, error) {
	i = skipWS(w.b, i)
	if shape, ok := w.atVerbatim(inPayload); ok {
		return w.verbatim(i, p, shape)
	}
	c := byte(0)
	if i < len(w.b) {
		c = w.b[i]
	}
	switch {
	case c == '{':
		return w.object(i, p, inPayload)
	case c == '[':
		j := skipWS(w.b, i+1)
		for n := 0; j < len(w.b) && w.b[j] != ']'; n++ {
			if inPayload {
				w.rel = append(w.rel, "*")
			}
			end, err := w.value(j, p.Index(n), inPayload)
			if inPayload {
				w.rel = w.rel[:len(w.rel)-1]
			}
			if err != nil {
				return 0, err
			}
			j = skipWS(w.b, end)
			if j < len(w.b) && w.b[j] == ',' {
				j = skipWS(w.b, j+1)
			}
		}
		return j + 1, nil
	case c == '"':
		s, _ := scan(w.b, i)
		if s.lone && !w.atFragment(inPayload) {
			return 0, newError(LoneSurrogate, p.Render(), i, "string escapes a lone surrogate")
		}
		return s.end, nil
	case c == '-' || isDigit(c):
		end, ok := rfcNumberEnd(w.b, i)
		if !ok {
			end = i + 1
		}
		spelling := w.b[i:end]
		if mayOverflow(spelling) && math.IsInf(parseNumber(spelling), 0) {
			return 0, newError(InvalidNumber, p.Render(), i, clip(string(spelling))+" is beyond the IEEE 754 double range")
		}
		return end, nil
	case c == 't' || c == 'n':
		return i + 4, nil
	}
	return i + 5, nil
}

func (w *walk) object(i int, p *Path, inPayload bool) (int, error) {
	root := p.parent == nil
	seen := map[string]bool{}
	j := skipWS(w.b, i+1)
	for j < len(w.b) && w.b[j] == '"' {
		keyStart := j
		s, _ := scan(w.b, j)
		key := s.text(w.b, j)
		if s.lone {
			return 0, newError(LoneSurrogate, p.RenderWith(key), keyStart, "object key escapes a lone surrogate")
		}
		if seen[key] {
			return 0, newError(DuplicateKey, p.RenderWith(key), keyStart, "duplicate key "+clip(key))
		}
		j = skipWS(w.b, skipWS(w.b, s.end)+1)
		childInPayload := inPayload || (root && key == "payload")
		if inPayload {
			w.rel = append(w.rel, key)
		}
		end, err := w.value(j, p.Key(key), childInPayload)
		if inPayload {
			w.rel = w.rel[:len(w.rel)-1]
		}
		if err != nil {
			return 0, err
		}
		seen[key] = true
		j = skipWS(w.b, end)
		if j < len(w.b) && w.b[j] == ',' {
			j = skipWS(w.b, j+1)
		}
	}
	return j + 1, nil
}
