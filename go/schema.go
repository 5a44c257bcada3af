package omnimessage

// Shape is what the schema still says about a verbatim value.
type Shape uint8

const (
	// ShapeObject is any JSON object.
	ShapeObject Shape = iota
	// ShapeScalarMap is an object whose member values are strings, numbers or booleans.
	ShapeScalarMap
)

// VerbatimAt is where a payload keeps a verbatim value: a path from the payload, `*` any array item.
type VerbatimAt struct {
	Path  []string
	Shape Shape
}

// PayloadInfo is a payload kind of an envelope kind: where it keeps verbatim values and, for a
// streaming partial, its fragment field and complete payload ("" when none).
type PayloadInfo struct {
	Envelope string
	Tag      string
	Verbatim []VerbatimAt
	Fragment string
	Complete string
}

// Schema is what the runtime reads from the generated tables: it holds no copy of them.
type Schema struct {
	ID                  string
	Protocol            string // the protocol version the tables speak; "" states none (the newest)
	MaxDepth            int
	DefaultMaxLineBytes int
	Payloads            []PayloadInfo
}

// PayloadInfo is the payload kind tag under envelope kind envelope, nil when the schema has none.
func (s *Schema) PayloadInfo(envelope, tag string) *PayloadInfo {
	for i := range s.Payloads {
		if s.Payloads[i].Envelope == envelope && s.Payloads[i].Tag == tag {
			return &s.Payloads[i]
		}
	}
	return nil
}
