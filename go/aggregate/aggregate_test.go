package aggregate_test

import (
	"testing"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/aggregate"
	"github.com/omnimessage/omnimessage/go/messages"
)

const ts = "2026-07-18T03:10:22.531Z"

func delta(t *testing.T, text, event string) messages.Message {
	t.Helper()
	line := `{"timestamp":"` + ts + `","type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"` +
		event + `","text":"` + text + `"}}`
	m, err := messages.Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTheAggregatorJoinsASplitSurrogatePair(t *testing.T) {
	var a aggregate.Aggregator
	var out []messages.Message
	out = append(out, a.Feed(delta(t, "", "start"))...)
	high := delta(t, `abc\ud83d`, "delta")
	if enc := string(messages.Encode(high)); enc != `{"timestamp":"`+ts+`","type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"delta","text":"abc\ud83d"}}` {
		t.Errorf("a lone half is written as its escape: %s", enc)
	}
	out = append(out, a.Feed(high)...)
	out = append(out, a.Feed(delta(t, `\ude00def`, "delta"))...)
	if len(a.Open) != 1 || string(a.Open[0].Text) != "abc😀def" {
		t.Fatalf("open segments: %+v", a.Open)
	}
	out = append(out, a.Feed(delta(t, "", "stop"))...)
	complete := messages.NewAssistantText("abc😀def", messages.AssistantTextOptions{Timestamp: ts})
	out = append(out, a.Feed(complete)...)
	out = append(out, a.Finish()...)
	if len(out) != 1 || string(messages.Encode(out[0])) != string(messages.Encode(complete)) || len(a.Mismatches) != 0 {
		t.Fatalf("got %d messages, mismatches %v", len(out), a.Mismatches)
	}
}

func TestAnUnclosedSegmentIsAssembledAborted(t *testing.T) {
	var a aggregate.Aggregator
	a.Feed(delta(t, "", "start"))
	a.Feed(delta(t, "par", "delta"))
	out := a.Finish()
	if len(out) != 1 {
		t.Fatalf("got %d", len(out))
	}
	want := `{"timestamp":"` + ts + `","type":"model_msg","payload":{"type":"text","role":"assistant","text":"par","stop_reason":"aborted"}}`
	if got := string(messages.Encode(out[0])); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	_ = om.Fragment("")
}

func TestAMismatchIsReported(t *testing.T) {
	var a aggregate.Aggregator
	a.Feed(delta(t, "abc", "start"))
	a.Feed(delta(t, "", "stop"))
	out := a.Feed(messages.NewAssistantText("abd", messages.AssistantTextOptions{Timestamp: ts}))
	if len(out) != 1 || len(a.Mismatches) != 1 || a.Mismatches[0].Field != "text" {
		t.Errorf("got %d, %v", len(out), a.Mismatches)
	}
}

func decode(t *testing.T, payload string) messages.Message {
	t.Helper()
	m, err := messages.Decode([]byte(`{"timestamp":"` + ts + `","type":"model_msg","payload":` + payload + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func outputDelta(t *testing.T, event, text, extra string) messages.Message {
	return decode(t, `{"type":"partial_tool_call_output","role":"user","event_type":"`+event+`","output":"`+text+`"`+extra+`,"tool_call_id":"A"}`)
}

func TestImagesAreTheWholeSetOneFragmentCarried(t *testing.T) {
	var a aggregate.Aggregator
	a.Feed(outputDelta(t, "start", "", ""))
	a.Feed(outputDelta(t, "delta", "out", `,"images":["img"]`))
	a.Feed(outputDelta(t, "stop", "", ""))
	out := a.Finish() // no complete message followed: the fragments are assembled
	want := `{"timestamp":"` + ts + `","type":"model_msg","payload":{"type":"tool_call_output","role":"user","output":"out","images":["img"],"tool_call_id":"A","stop_reason":"completed"}}`
	if len(out) != 1 || string(messages.Encode(out[0])) != want {
		t.Fatalf("got %d: %s", len(out), messages.Encode(out[0]))
	}
}

func TestDifferentImagesAreAMismatch(t *testing.T) {
	var a aggregate.Aggregator
	a.Feed(outputDelta(t, "start", "", ""))
	a.Feed(outputDelta(t, "delta", "abc", `,"images":["i"]`))
	a.Feed(outputDelta(t, "stop", "", ""))
	a.Feed(decode(t, `{"type":"tool_call_output","role":"user","output":"abd","tool_call_id":"A"}`))
	if len(a.Mismatches) != 2 || a.Mismatches[0].Field != "output" || a.Mismatches[1].Field != "images" {
		t.Errorf("mismatches %v", a.Mismatches)
	}
}
