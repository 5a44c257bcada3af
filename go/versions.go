package omnimessage

import (
	"fmt"
	"slices"
	"strings"
)

// ProtocolVersions lists every protocol version this runtime accepts bindings of, oldest first: its
// schema's `x-omnimessage-versions` (versions_test.go checks them against the generated
// messages.ProtocolVersions).
var ProtocolVersions = []string{"0.1.1", "0.2.0", "0.2.1", "0.2.2", "0.2.4", "0.2.6", "next"}

// IncompatibleSchemaError is generated code this runtime refuses: Bind panics with one, naming
// the version the code states and the ones the runtime knows (docs/bindings.md, "Versions").
type IncompatibleSchemaError struct {
	SchemaID string
	Protocol string
}

func (e *IncompatibleSchemaError) Error() string {
	// %.80q: at most 80 runes of what the generated code says, quoted.
	return fmt.Sprintf("omnimessage: generated code (schema %.80q, protocol %.80q) does not fit this runtime: "+
		"this runtime knows no protocol %.80q (it knows %s); regenerate it with this runtime's release (omnimessage "+
		"generate --target go --protocol V), or use the runtime of the release that generated it", e.SchemaID,
		e.Protocol, e.Protocol, strings.Join(ProtocolVersions, ", "))
}

// AcceptProtocol is nil when this runtime accepts bindings of protocol version v (one its schema
// lists; "" states none: the newest), else an *IncompatibleSchemaError.
func AcceptProtocol(schemaID, v string) error {
	if v == "" || slices.Contains(ProtocolVersions, v) {
		return nil
	}
	return &IncompatibleSchemaError{SchemaID: schemaID, Protocol: v}
}

// Bind returns s when this runtime accepts its protocol version and panics with an
// *IncompatibleSchemaError otherwise: the generated tables.go calls it as its package loads, so
// bindings of a version the runtime does not know are refused before they decode anything.
func Bind(s *Schema) *Schema {
	if err := AcceptProtocol(s.ID, s.Protocol); err != nil {
		panic(err)
	}
	return s
}
