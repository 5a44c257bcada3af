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
	Key     Key
	Text    om.Fragment // the text so far, joined as UTF-16
	Carried m.Carried   // the fields fragments carry whole (`images`), the last one of each
	first   m.ModelMessage
	closed  *m.ModelMessage
}

// Mismatch is a segment whose fragments differ from the complete message that followed.
type Mismatch struct {
	Key   Key
	Field string
}

func keyOf(msg m.ModelMessage) (Key, bool) {
	tag, id, ok := m.SegmentOf(msg.Payload)
	if !ok {
		return Key{}, false
	}
	k := Key{Tag: tag, ToolCallID: id}
	if msg.Origin != nil {
		k.Origin = string(om.AppendArray(nil, *msg.Origin, om.AppendString))
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
	payload, _ := m.Assemble(last.Payload, s.Text.Lossy(), s.Carried, stop)
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
	part, event, ok := m.FragmentOf(msg.Payload, &seg.Carried)
	if !ok {
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
	field, text, carried, ok := m.CompleteOf(complete.Payload)
	if !ok {
		return
	}
	if string(seg.Text) != text {
		a.Mismatches = append(a.Mismatches, Mismatch{seg.Key, field})
	}
	for _, name := range seg.Carried.Differs(carried) {
		a.Mismatches = append(a.Mismatches, Mismatch{seg.Key, name})
	}
}
