package omnimessage_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

// The runtime knows exactly the versions its schema lists (the generated tables of go/messages).
func TestProtocolVersionsAreTheSchemas(t *testing.T) {
	if !slices.Equal(om.ProtocolVersions, messages.ProtocolVersions) {
		t.Fatalf("runtime %v, schema %v", om.ProtocolVersions, messages.ProtocolVersions)
	}
	if messages.Schema.Protocol != messages.ProtocolVersion {
		t.Fatalf("the tables state %q", messages.Schema.Protocol)
	}
}

// The version rule (docs/bindings.md, "Versions"): every listed version is accepted, any other
// refused as the bindings load, naming the known ones.
func TestVersionRule(t *testing.T) {
	for _, v := range []string{"0.2.4", messages.ProtocolVersion, ""} {
		if err := om.AcceptProtocol("urn:omnimessage:schema:1.0.0", v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	s := &om.Schema{ID: "urn:omnimessage:schema:1.0.0:protocol-9.9", Protocol: "9.9"}
	defer func() {
		err, _ := recover().(error)
		var inc *om.IncompatibleSchemaError
		if !errors.As(err, &inc) || inc.Protocol != "9.9" {
			t.Fatalf("Bind of protocol 9.9: %v", err)
		}
		want := `knows no protocol "9.9" (it knows ` + strings.Join(om.ProtocolVersions, ", ") + ")"
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("%s", err)
		}
	}()
	om.Bind(s)
	t.Fatal("Bind accepted protocol 9.9")
}
