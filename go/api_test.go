package omnimessage_test

import (
	"errors"
	"strings"
	"testing"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

const ts = "2026-07-18T03:10:22.531Z"

func refusal(t *testing.T, line string) *om.Error {
	t.Helper()
	_, err := messages.Decode([]byte(line))
	var e *om.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: decoded, or not an *om.Error: %v", line, err)
	}
	return e
}

func TestRefusalsCarryCategoryPointerAndOffset(t *testing.T) {
	e := refusal(t, `{"timestamp":"t","type":"model_msg","payload":{"type":"text","role":"user","text":"a","text":"b"}}`)
	if e.Category != om.DuplicateKey || e.Pointer != "/payload/text" || e.Offset != 86 {
		t.Errorf("got %v", e)
	}
	e = refusal(t, `{"timestamp":"t","type":"event_msg","payload":{"type":"request_end","status":"failed"}}`)
	if e.Category != om.InvalidValue || e.Pointer != "/payload/status" {
		t.Errorf("got %v", e)
	}
	e = refusal(t, `[]`)
	if e.Category != om.WrongType || e.Pointer != "" || e.Offset != 0 {
		t.Errorf("got %v", e)
	}
	e = refusal(t, `{} x`)
	if e.Category != om.TrailingData || e.Offset != 3 || !strings.HasPrefix(e.Error(), "trailing_data: ") {
		t.Errorf("got %v", e)
	}
	e = refusal(t, `{"timestamp":"t","type":"model_msg","payload":{"type":"text","role":"user","text":"a","t\udc00":1}}`)
	if e.Category != om.LoneSurrogate || e.PointerJSON() != `"/payload/t\udc00"` {
		t.Errorf("got %v %s", e, e.PointerJSON())
	}
}

func TestLenientKeepsTheObjectAndDropsTheCR(t *testing.T) {
	line := "{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{\"type\":\"request_begin\",\"new\":1}}\r\n"
	v, err := messages.DecodeLenient([]byte(line))
	if err != nil || v.Opaque == nil {
		t.Fatalf("not opaque: %v", err)
	}
	if string(v.Opaque.Raw) != line[:len(line)-2] || v.Opaque.Error.Category != om.UnexpectedField {
		t.Errorf("got %q %v", v.Opaque.Raw, v.Opaque.Error)
	}
	if _, err := messages.DecodeLenient([]byte(`{"a":1} x`)); err == nil {
		t.Error("trailing data passed lenient decoding")
	}
}

func TestTheReaderReportsATornLastLineAndGoesOn(t *testing.T) {
	data := "{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{\"type\":\"request_begin\"}}\nnope\n{\"timestamp\":\"t\",\"ty"
	r := messages.NewReader(strings.NewReader(data), om.ReaderOptions{})
	var lines []om.Line[messages.Message]
	for l, ok := r.Next(); ok; l, ok = r.Next() {
		lines = append(lines, l)
	}
	if len(lines) != 3 || lines[0].Err != nil {
		t.Fatalf("got %d lines", len(lines))
	}
	if e := lines[1].Err; e == nil || e.Category != om.InvalidJSON || e.Line != 2 {
		t.Errorf("line 2: %v", e)
	}
	if e := lines[2].Err; e == nil || e.Category != om.Truncated || e.Line != 3 || lines[2].Terminated {
		t.Errorf("line 3: %v", e)
	}
	r = messages.NewReader(strings.NewReader("{}{}{}\n{}"), om.ReaderOptions{MaxLineBytes: 4})
	first, _ := r.Next()
	second, _ := r.Next()
	if first.Err == nil || first.Err.Category != om.TooLarge || second.Err == nil || second.Err.Pointer != "/type" {
		t.Errorf("got %v, %v", first.Err, second.Err)
	}
}

func TestBuildersAndGuards(t *testing.T) {
	msg := messages.NewUserText("hi", messages.UserTextOptions{Timestamp: ts})
	want := `{"timestamp":"` + ts + `","type":"model_msg","payload":{"type":"text","role":"user","text":"hi","stop_reason":"completed"}}`
	if got := string(messages.Encode(msg)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !messages.IsCompleteModel(msg) || messages.IsPartial(msg) || !messages.IsModel(msg) {
		t.Error("guards")
	}
	empty := om.Verbatim("{ }")
	built := messages.NewAssistantText("ok", messages.AssistantTextOptions{Fidelity: &empty})
	if strings.Contains(string(messages.Encode(built)), "fidelity") {
		t.Error("an empty verbatim value is left out")
	}
	now := messages.Encode(built)
	if back, err := messages.Decode(now); err != nil || string(messages.Encode(back)) != string(now) {
		t.Errorf("the default timestamp does not round-trip: %s %v", now, err)
	}
}

func TestNumbersAndVerbatimValuesKeepTheirSpelling(t *testing.T) {
	line := `{"timestamp":"` + ts + `","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"sig" : "a\/b", "n":1.0}}}`
	m, err := messages.Decode([]byte(line))
	if err != nil || string(messages.Encode(m)) != line {
		t.Fatalf("%v", err)
	}
	canon, err := messages.Canonicalize([]byte(`{"type":"session_meta","timestamp":"t","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":2e5,"system_prompt":"","agent_state":"","workspace":""}}`), false)
	if err != nil || !strings.Contains(string(canon), `"model_context_window":200000,`) ||
		!strings.HasPrefix(string(canon), `{"timestamp":"t","type":"session_meta"`) {
		t.Errorf("got %s %v", canon, err)
	}
}

// A message is one line (schema/README.md section 1.5): a raw LF or CR inside it, verbatim values
// included, is line_break; CR LF and CR CR LF after the message stay line ends; VerbatimFromJSON
// refuses the text a forged record would ride in, and still takes an empty object in any spelling.
func TestARawLineBreakInsideAMessageIsRefused(t *testing.T) {
	thinking := `{"timestamp":"` + ts + `","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"s":` + "\n" + `1}}}`
	e := refusal(t, thinking)
	if e.Category != om.LineBreak || e.Pointer != "" || e.Offset != strings.IndexByte(thinking, '\n') {
		t.Errorf("got %v", e)
	}
	e = refusal(t, strings.Replace(thinking, "\n", "\r", 1))
	if e.Category != om.LineBreak {
		t.Errorf("got %v", e)
	}
	ok := strings.Replace(thinking, "\n", " ", 1)
	for _, end := range []string{"\n", "\r\n", "\r\r\n", "\r \t\r\n"} {
		if _, err := messages.Decode([]byte(ok + end)); err != nil {
			t.Errorf("%q: %v", end, err)
		}
	}
	if _, err := om.VerbatimFromJSON("{\"signature\":\n"+ok+"\n}", 512); err == nil || om.AsError(err).Category != om.LineBreak {
		t.Errorf("a forged record inside fidelity was taken: %v", err)
	}
	if v, err := om.VerbatimFromJSON("{\n}", 512); err != nil || !v.IsEmpty() {
		t.Errorf("an empty object spelled over two lines: %v %q", err, v)
	}
}
