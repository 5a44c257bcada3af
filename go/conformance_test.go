package omnimessage_test

// The conformance suite's shipped cases (conformance/manifest.json), run in-process through the
// reader the testee uses: every round-trip and canonical-form claim of the suite is a test of the
// Go binding too (`omnimessage conformance --impl go` runs the same cases over the testee protocol).

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

type source struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Base64 string `json:"base64"`
	Parts  []struct {
		Text   *string `json:"text"`
		Base64 *string `json:"base64"`
		Repeat int     `json:"repeat"`
	} `json:"parts"`
}

type testCase struct {
	ID           string `json:"id"`
	Mode         string `json:"mode"`
	Input        source `json:"input"`
	MaxLineBytes int    `json:"max_line_bytes"`
	Expect       struct {
		Kind     string           `json:"kind"`
		Category string           `json:"category"`
		Pointer  *json.RawMessage `json:"pointer"`
		Output   *source          `json:"output"`
	} `json:"expect"`
}

const suiteDir = "../conformance"

// fileLines caches the lines of the case files (each with its LF, if it has one).
var fileLines = map[string][][]byte{}

func lineOf(t *testing.T, file string, n int) []byte {
	lines, ok := fileLines[file]
	if !ok {
		data, err := os.ReadFile(filepath.Join(suiteDir, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(bytes.NewReader(data))
		for {
			l, err := r.ReadBytes('\n')
			if len(l) > 0 {
				lines = append(lines, l)
			}
			if err != nil {
				break
			}
		}
		fileLines[file] = lines
	}
	return lines[n-1]
}

func (s source) bytes(t *testing.T) []byte {
	switch {
	case s.File != "":
		return lineOf(t, s.File, s.Line)
	case s.Base64 != "":
		b, err := base64.StdEncoding.DecodeString(s.Base64)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var out []byte
	for _, p := range s.Parts {
		piece := []byte{}
		if p.Text != nil {
			piece = []byte(*p.Text)
		} else if p.Base64 != nil {
			piece, _ = base64.StdEncoding.DecodeString(*p.Base64)
		}
		out = append(out, bytes.Repeat(piece, max(p.Repeat, 1))...)
	}
	return out
}

// sameText compares two JSON strings as their parsed text.
func sameText(a, b []byte) bool {
	var x, y string
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && x == y
}

func TestConformanceSuite(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(suiteDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Cases []testCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest.Cases) < 1000 {
		t.Fatalf("only %d cases in the manifest", len(manifest.Cases))
	}
	for _, c := range manifest.Cases {
		input := c.Input.bytes(t)
		r := messages.NewReader(bytes.NewReader(input), om.ReaderOptions{Lenient: c.Mode == "lenient", MaxLineBytes: c.MaxLineBytes})
		line, ok := r.Next()
		if _, more := r.Next(); !ok || more {
			t.Fatalf("%s: the input does not hold exactly one line", c.ID)
		}
		switch c.Expect.Kind {
		case "reject":
			if line.Err == nil {
				t.Errorf("%s: decoded, expected %s", c.ID, c.Expect.Category)
				continue
			}
			if string(line.Err.Category) != c.Expect.Category {
				t.Errorf("%s: %v, expected %s", c.ID, line.Err, c.Expect.Category)
			} else if c.Expect.Pointer != nil && !sameText([]byte(line.Err.PointerJSON()), *c.Expect.Pointer) {
				t.Errorf("%s: pointer %s, expected %s", c.ID, line.Err.PointerJSON(), *c.Expect.Pointer)
			}
		default:
			if line.Err != nil {
				t.Errorf("%s: refused: %v", c.ID, line.Err)
				continue
			}
			got := messages.Decoded{Message: line.Message, Opaque: line.Opaque}.AppendCanonical(nil)
			want := bytes.TrimSuffix(input, []byte("\n"))
			if c.Expect.Kind == "canonical" {
				want = bytes.TrimSuffix(c.Expect.Output.bytes(t), []byte("\n"))
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: encoded\n%s\nexpected\n%s", c.ID, got, want)
			}
		}
	}
}
