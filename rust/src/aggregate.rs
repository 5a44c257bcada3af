//! Stream aggregation: `partial_*` fragments folded into complete messages (as the Python and
//! TypeScript `Aggregator`s do).
//!
//! A live stream carries, per segment, `start`, zero or more `delta`, then `stop`, and the complete
//! message right after the `stop`. A segment is keyed by its origin chain, its partial type and
//! `tool_call_id` (segments of different tools and of nested subagents interleave). [`Aggregator::feed`]
//! returns what a consumer that does not render fragments should see, in stream order: other
//! messages pass through; a segment's complete message is the one the producer sends after the
//! `stop` (it carries `fidelity`, which fragments do not); if none follows, the message assembled
//! from the fragments takes its place. Fragments are joined as UTF-16 code units
//! ([`Fragment::push`]): a surrogate pair split between two deltas is one character again.
//! State: one entry per open segment and the text streamed so far of each.

use crate::generated::enums::{StopReason, StreamEventType};
use crate::generated::fragments::{assemble, complete_of, fragment_of, segment_of, Carried};
use crate::generated::tables::payload_info;
use crate::generated::*;
use crate::values::Fragment;

/// A segment's key: origin chain, partial type, `tool_call_id`.
pub type SegmentKey = (Vec<String>, &'static str, Option<String>);

/// One streamed segment: its fragments so far.
#[derive(Debug)]
pub struct Segment {
    pub key: SegmentKey,
    /// The text so far, joined as UTF-16.
    pub text: Fragment,
    /// The fields fragments carry whole (`images`), the last one of each.
    pub(crate) carried: Carried,
    first: ModelMessage,
    closed: Option<ModelMessage>,
}

fn key_of(msg: &ModelMessage) -> Option<SegmentKey> {
    let (tag, id) = segment_of(&msg.payload)?;
    Some((msg.origin.clone().unwrap_or_default(), tag, id))
}

fn is_partial(msg: &ModelMessage) -> bool {
    payload_info("model_msg", msg.payload.type_tag()).is_some_and(|i| i.fragment.is_some())
}

impl Segment {
    /// The complete message the fragments add up to (`aborted` when the segment never closed).
    pub fn assemble(&self) -> Message {
        let last = self.closed.as_ref().unwrap_or(&self.first);
        let stop = |s: Option<StopReason>| {
            Some(if self.closed.is_some() {
                s.unwrap_or(StopReason::Completed)
            } else {
                StopReason::Aborted
            })
        };
        let payload = assemble(&last.payload, self.text.to_string_lossy(), &self.carried, stop)
            .unwrap_or_else(|| last.payload.clone());
        Message::Model(ModelMessage {
            timestamp: last.timestamp.clone(),
            payload,
            origin: last.origin.clone(),
        })
    }
}

/// Feed stream messages in order; get complete messages back.
#[derive(Debug, Default)]
pub struct Aggregator {
    /// Segments still streaming, in the order they opened.
    pub open: Vec<Segment>,
    /// Segments whose fragments differ from the complete message that followed: (key, field).
    pub mismatches: Vec<(SegmentKey, &'static str)>,
    awaiting: Vec<Segment>,
}

impl Aggregator {
    pub fn new() -> Self {
        Self::default()
    }

    /// The messages to pass on after `msg`, in stream order.
    pub fn feed(&mut self, msg: Message) -> Vec<Message> {
        let mut out = Vec::new();
        if let Message::Model(m) = &msg {
            if is_partial(m) {
                self.fragment(m, &mut out);
                return out;
            }
        }
        let mut seg = None;
        if let Message::Model(m) = &msg {
            if let Some(key) = key_of(m) {
                if let Some(at) = self.awaiting.iter().position(|s| s.key == key) {
                    seg = Some(self.awaiting.remove(at));
                }
            }
        }
        out.extend(self.awaiting.drain(..).map(|s| s.assemble()));
        if let (Some(seg), Message::Model(m)) = (seg, &msg) {
            self.compare(&seg, m);
        }
        out.push(msg);
        out
    }

    /// End of stream: segments never completed are emitted as assembled (unclosed ones `aborted`).
    pub fn finish(&mut self) -> Vec<Message> {
        let mut out: Vec<Message> = self.awaiting.drain(..).map(|s| s.assemble()).collect();
        out.extend(self.open.drain(..).map(|s| s.assemble()));
        out
    }

    fn fragment(&mut self, msg: &ModelMessage, out: &mut Vec<Message>) {
        let Some(key) = key_of(msg) else { return };
        if let Some(at) = self.awaiting.iter().position(|s| s.key == key) {
            out.push(self.awaiting.remove(at).assemble()); // the old segment never got its complete message
        }
        let at = match self.open.iter().position(|s| s.key == key) {
            Some(at) => at,
            None => {
                self.open.push(Segment {
                    key: key.clone(),
                    text: Fragment::default(),
                    carried: Carried::default(),
                    first: msg.clone(),
                    closed: None,
                });
                self.open.len() - 1
            }
        };
        let seg = &mut self.open[at];
        let Some((part, event)) = fragment_of(&msg.payload, &mut seg.carried) else {
            return;
        };
        seg.text.push(part);
        if event == StreamEventType::Stop {
            let mut seg = self.open.remove(at);
            seg.closed = Some(msg.clone());
            self.awaiting.push(seg);
        }
    }

    fn compare(&mut self, seg: &Segment, complete: &ModelMessage) {
        let Some((field, text, carried)) = complete_of(&complete.payload) else {
            return;
        };
        if seg.text.as_wtf8() != text.as_bytes() {
            self.mismatches.push((seg.key.clone(), field));
        }
        for name in seg.carried.differs(&carried) {
            self.mismatches.push((seg.key.clone(), name));
        }
    }
}
