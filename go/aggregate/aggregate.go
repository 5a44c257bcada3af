// Package aggregate folds the `partial_*` fragments of a live stream into complete messages (as
// the Python, TypeScript and Rust aggregators do).
//
// A live stream carries, per segment, `start`, zero or more `delta`, then `stop`, and the complete
// message right after the `stop`. A segment is keyed by its origin chain, its partial type and
// `tool_call_id` (segments of different tools and of nested subagents interleave). Feed returns
// what a consumer that does not render fragments should see, in stream order: other messages
// pass through; a segment's complete message is the one the producer sends after the `stop` (it
// carries `fidelity`, which fragments do not); if none follows, the message assembled from the
// fragments takes its place. Fragments are joined as UTF-16 code units (om.Fragment.Join): a
// surrogate pair split between two deltas is one character again. State: one entry per open
// segment and the text streamed so far of each.
package aggregate

import (
	"slices"

	om "github.com/omnimessage/omnimessage/go"
	m "github.com/omnimessage/omnimessage/go/messages"
)

// Key is a segment's key: origin chain, partial type, `tool_call_id`.
type Key struct {
	Origin     string // the origin chain, as its canonical JSON array ("" when absent)
	Tag        string // the partial type: `partial_text`, ...
	ToolCallID string
}

// Segment is one streamed segment: its fragments so far.
type Segment struct {
	Key    Key
	Text   om.Fragment // the text so far, joined as UTF-16
	Images *[]string
	first  m.ModelMessage
	closed *m.ModelMessage
}

// Mismatch is a segment whose fragments differ from the complete message that followed.
type Mismatch struct {
	Key   Key
	Field string
}

func keyOf(msg m.ModelMessage) (Key, bool) {
	k := Key{}
	if msg.Origin != nil {
		k.Origin = string(om.AppendArray(nil, *msg.Origin, om.AppendString))
	}
	switch p := msg.Payload.(type) {
	case m.PartialTextPayload, m.TextPayload:
		k.Tag = "partial_text"
	case m.PartialThinkingPayload, m.ThinkingPayload:
		k.Tag = "partial_thinking"
	case m.PartialToolCallPayload:
		k.Tag, k.ToolCallID = "partial_tool_call", p.ToolCallID
	case m.ToolCallPayload:
		k.Tag, k.ToolCallID = "partial_tool_call", p.ToolCallID
	case m.PartialToolCallOutputPayload:
		k.Tag, k.ToolCallID = "partial_tool_call_output", p.ToolCallID
	case m.ToolCallOutputPayload:
		k.Tag, k.ToolCallID = "partial_tool_call_output", p.ToolCallID
	default:
		return k, false
	}
	return k, true
}

func isPartial(msg m.ModelMessage) bool {
	info := m.Schema.PayloadInfo("model_msg", msg.Payload.TypeTag())
	return info != nil && info.Fragment != ""
}

// Assemble is the complete message the fragments add up to (`aborted` when the segment never closed).
func (s *Segment) Assemble() m.Message {
	last := s.first
	if s.closed != nil {
		last = *s.closed
	}
	stop := func(r *m.StopReason) *m.StopReason {
		if s.closed == nil {
			return om.Ptr(m.StopReasonAborted)
		}
		return om.Or(r, m.StopReasonCompleted)
	}
	text := s.Text.Lossy()
	payload := last.Payload
	switch p := last.Payload.(type) {
	case m.PartialTextPayload:
		payload = m.TextPayload{Role: m.RoleAssistant, Text: text, StopReason: stop(p.StopReason)}
	case m.PartialThinkingPayload:
		payload = m.ThinkingPayload{Thinking: text, StopReason: stop(p.StopReason)}
	case m.PartialToolCallPayload:
		payload = m.ToolCallPayload{Name: p.Name, Arguments: text, ToolCallID: p.ToolCallID, StopReason: stop(p.StopReason)}
	case m.PartialToolCallOutputPayload:
		payload = m.ToolCallOutputPayload{Output: text, Images: om.NonEmptySlice(s.Images), ToolCallID: p.ToolCallID,
			StopReason: stop(p.StopReason)}
	}
	return m.ModelMessage{Timestamp: last.Timestamp, Payload: payload, Origin: last.Origin}
}

// Aggregator takes stream messages in order and gives complete messages back.
type Aggregator struct {
	// Open lists the segments still streaming, in the order they opened.
	Open []*Segment
	// Mismatches lists the segments whose fragments differ from the complete message that followed.
	Mismatches []Mismatch
	awaiting   []*Segment
}

func find(segs []*Segment, k Key) int {
	return slices.IndexFunc(segs, func(s *Segment) bool { return s.Key == k })
}

// Feed gives the messages to pass on after msg, in stream order.
func (a *Aggregator) Feed(msg m.Message) []m.Message {
	var out []m.Message
	mm, isModel := msg.(m.ModelMessage)
	if isModel && isPartial(mm) {
		return a.fragment(mm, out)
	}
	var seg *Segment
	if isModel {
		if k, ok := keyOf(mm); ok {
			if at := find(a.awaiting, k); at >= 0 {
				seg = a.awaiting[at]
				a.awaiting = slices.Delete(a.awaiting, at, at+1)
			}
		}
	}
	for _, s := range a.awaiting {
		out = append(out, s.Assemble())
	}
	a.awaiting = nil
	if seg != nil {
		a.compare(seg, mm)
	}
	return append(out, msg)
}

// Finish ends the stream: segments never completed are emitted as assembled (unclosed ones `aborted`).
func (a *Aggregator) Finish() []m.Message {
	var out []m.Message
	for _, s := range append(a.awaiting, a.Open...) {
		out = append(out, s.Assemble())
	}
	a.awaiting, a.Open = nil, nil
	return out
}

func (a *Aggregator) fragment(msg m.ModelMessage, out []m.Message) []m.Message {
	k, ok := keyOf(msg)
	if !ok {
		return out
	}
	if at := find(a.awaiting, k); at >= 0 {
		out = append(out, a.awaiting[at].Assemble()) // the old segment never got its complete message
		a.awaiting = slices.Delete(a.awaiting, at, at+1)
	}
	at := find(a.Open, k)
	if at < 0 {
		a.Open = append(a.Open, &Segment{Key: k, first: msg})
		at = len(a.Open) - 1
	}
	seg := a.Open[at]
	var part om.Fragment
	var event m.StreamEventType
	switch p := msg.Payload.(type) {
	case m.PartialTextPayload:
		part, event = p.Text, p.EventType
	case m.PartialThinkingPayload:
		part, event = p.Thinking, p.EventType
	case m.PartialToolCallPayload:
		part, event = p.Arguments, p.EventType
	case m.PartialToolCallOutputPayload:
		if p.Images != nil {
			images := slices.Clone(*p.Images)
			seg.Images = &images
		}
		part, event = p.Output, p.EventType
	default:
		return out
	}
	seg.Text = seg.Text.Join(part)
	if event == m.StreamEventTypeStop {
		closed := msg
		seg.closed = &closed
		a.Open = slices.Delete(a.Open, at, at+1)
		a.awaiting = append(a.awaiting, seg)
	}
	return out
}

func (a *Aggregator) compare(seg *Segment, complete m.ModelMessage) {
	var field, text string
	var images *[]string
	switch p := complete.Payload.(type) {
	case m.TextPayload:
		field, text = "text", p.Text
	case m.ThinkingPayload:
		field, text = "thinking", p.Thinking
	case m.ToolCallPayload:
		field, text = "arguments", p.Arguments
	case m.ToolCallOutputPayload:
		field, text, images = "output", p.Output, p.Images
	default:
		return
	}
	if string(seg.Text) != text {
		a.Mismatches = append(a.Mismatches, Mismatch{seg.Key, field})
	}
	if seg.Key.Tag == "partial_tool_call_output" {
		var mine, theirs []string
		if seg.Images != nil {
			mine = *seg.Images
		}
		if images != nil {
			theirs = *images
		}
		if !slices.Equal(mine, theirs) {
			a.Mismatches = append(a.Mismatches, Mismatch{seg.Key, "images"})
		}
	}
}
