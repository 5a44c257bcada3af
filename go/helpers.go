package omnimessage

// Helpers the generated code calls: arrays, booleans, optional values and builder defaults.

// DecodeArray reads an array of at least minItems items, each by item.
func DecodeArray[T any](d *De, p *Path, minItems int, item func(*De, *Path) (T, error)) ([]T, error) {
	out := []T{}
	err := d.Array(p, minItems, func(d *De, p *Path) error {
		v, err := item(d, p)
		out = append(out, v)
		return err
	})
	return out, err
}

// AppendArray appends items as a JSON array, each by item.
func AppendArray[T any](out []byte, items []T, item func([]byte, T) []byte) []byte {
	out = append(out, '[')
	for n, v := range items {
		if n > 0 {
			out = append(out, ',')
		}
		out = item(out, v)
	}
	return append(out, ']')
}

// AppendBool appends `true` or `false`.
func AppendBool(out []byte, v bool) []byte {
	if v {
		return append(out, "true"...)
	}
	return append(out, "false"...)
}

// Ptr is a pointer to v (an optional value that is set).
func Ptr[T any](v T) *T { return &v }

// Or is p, or a pointer to def when p is nil (an optional value with a builder default).
func Or[T any](p *T, def T) *T {
	if p != nil {
		return p
	}
	return &def
}

// Deref is *p, or def when p is nil (a required value with a builder default).
func Deref[T any](p *T, def T) T {
	if p != nil {
		return *p
	}
	return def
}

// NonEmptyVerbatim is p, or nil when it is an object with no members (builders leave it out).
func NonEmptyVerbatim(p *Verbatim) *Verbatim {
	if p == nil || p.IsEmpty() {
		return nil
	}
	return p
}

// NonEmptySlice is p, or nil when it holds no item (builders leave it out).
func NonEmptySlice[T any](p *[]T) *[]T {
	if p == nil || len(*p) == 0 {
		return nil
	}
	return p
}

// TimestampOr is ts, or now in Date.toISOString() form when ts is "".
func TimestampOr(ts string) string {
	if ts == "" {
		return nowISO()
	}
	return ts
}
