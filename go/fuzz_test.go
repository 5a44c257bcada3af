package omnimessage_test

// Go's native fuzzing of the decoder (`make fuzz` runs it for FUZZ_SECONDS; `go test` runs the
// seeds only): no input may panic; a refusal is an *om.Error of a schema category with a pointer
// only where the category has one; what strict decoding accepts, its canonical form decodes to the
// same canonical form; lenient decoding accepts whatever strict decoding does, with the same bytes.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

// lineLevel lists the categories whose pointer is always "" (the refusals of the line itself).
var lineLevel = []om.Category{om.InvalidUTF8, om.InvalidJSON, om.TrailingData, om.LineBreak, om.TooDeep, om.TooLarge,
	om.Truncated}

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../conformance/cases/*.jsonl")
	files = append(files, "../examples/trace.jsonl", "../examples/invalid.jsonl", "../examples/stream.jsonl")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if len(line) > 0 && len(line) < 1<<16 {
				f.Add(line)
			}
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := messages.Decode(line)
		lenient, lerr := messages.DecodeLenient(line)
		if err != nil {
			var e *om.Error
			if !errors.As(err, &e) || !slices.Contains(om.AllCategories, e.Category) {
				t.Fatalf("not a refusal of a schema category: %v", err)
			}
			if slices.Contains(lineLevel, e.Category) && e.Pointer != "" {
				t.Fatalf("%s with a pointer %q", e.Category, e.Pointer)
			}
			// lenient decoding still refuses the bytes and grammar, and a line that is not an object
			stillRefused := slices.Contains(lineLevel, e.Category) || (e.Category == om.WrongType && e.Pointer == "")
			if (lerr == nil) == stillRefused {
				t.Fatalf("lenient decoding disagrees with %v: %v", e, lerr)
			}
			return
		}
		canonical := messages.Encode(m)
		again, err := messages.Decode(canonical)
		if err != nil {
			t.Fatalf("the canonical form %q of %q is refused: %v", canonical, line, err)
		}
		if !bytes.Equal(messages.Encode(again), canonical) {
			t.Fatalf("the canonical form changes when decoded again: %q", canonical)
		}
		if lerr != nil || lenient.Opaque != nil || !bytes.Equal(lenient.AppendCanonical(nil), canonical) {
			t.Fatalf("lenient decoding differs: %v", lerr)
		}
	})
}
