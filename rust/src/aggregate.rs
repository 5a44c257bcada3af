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

use crate::generated::enums::{Role, StopReason};
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
    pub images: Option<Vec<String>>,
    first: ModelMessage,
    closed: Option<ModelMessage>,
}

fn key_of(msg: &ModelMessage) -> Option<SegmentKey> {
    let origin = msg.origin.clone().unwrap_or_default();
    let (tag, id) = match &msg.payload {
        ModelPayload::PartialText(_) => ("partial_text", None),
        ModelPayload::PartialThinking(_) => ("partial_thinking", None),
        ModelPayload::PartialToolCall(p) => ("partial_tool_call", Some(p.tool_call_id.clone())),
        ModelPayload::PartialToolCallOutput(p) => ("partial_tool_call_output", Some(p.tool_call_id.clone())),
        ModelPayload::Text(_) => ("partial_text", None),
        ModelPayload::Thinking(_) => ("partial_thinking", None),
        ModelPayload::ToolCall(p) => ("partial_tool_call", Some(p.tool_call_id.clone())),
        ModelPayload::ToolCallOutput(p) => ("partial_tool_call_output", Some(p.tool_call_id.clone())),
        _ => return None,
    };
    Some((origin, tag, id))
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
        let text = self.text.to_string_lossy();
        let payload = match &last.payload {
            ModelPayload::PartialText(p) => ModelPayload::Text(TextPayload {
                role: Role::Assistant,
                text,
                stop_reason: stop(p.stop_reason),
                fidelity: None,
                sender: None,
            }),
            ModelPayload::PartialThinking(p) => ModelPayload::Thinking(ThinkingPayload {
                thinking: text,
                stop_reason: stop(p.stop_reason),
                fidelity: None,
            }),
            ModelPayload::PartialToolCall(p) => ModelPayload::ToolCall(ToolCallPayload {
                name: p.name.clone(),
                arguments: text,
                tool_call_id: p.tool_call_id.clone(),
                stop_reason: stop(p.stop_reason),
                fidelity: None,
            }),
            ModelPayload::PartialToolCallOutput(p) => ModelPayload::ToolCallOutput(ToolCallOutputPayload {
                output: text,
                images: self.images.clone().filter(|i| !i.is_empty()),
                tool_call_id: p.tool_call_id.clone(),
                stop_reason: stop(p.stop_reason),
            }),
            other => other.clone(),
        };
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
                    images: None,
                    first: msg.clone(),
                    closed: None,
                });
                self.open.len() - 1
            }
        };
        let seg = &mut self.open[at];
        let (part, event) = match &msg.payload {
            ModelPayload::PartialText(p) => (&p.text, p.event_type),
            ModelPayload::PartialThinking(p) => (&p.thinking, p.event_type),
            ModelPayload::PartialToolCall(p) => (&p.arguments, p.event_type),
            ModelPayload::PartialToolCallOutput(p) => {
                if let Some(images) = &p.images {
                    seg.images = Some(images.clone());
                }
                (&p.output, p.event_type)
            }
            _ => return,
        };
        seg.text.push(part);
        if event == crate::generated::enums::StreamEventType::Stop {
            let mut seg = self.open.remove(at);
            seg.closed = Some(msg.clone());
            self.awaiting.push(seg);
        }
    }

    fn compare(&mut self, seg: &Segment, complete: &ModelMessage) {
        let (field, text, images): (&'static str, &str, Option<&Vec<String>>) = match &complete.payload {
            ModelPayload::Text(p) => ("text", &p.text, None),
            ModelPayload::Thinking(p) => ("thinking", &p.thinking, None),
            ModelPayload::ToolCall(p) => ("arguments", &p.arguments, None),
            ModelPayload::ToolCallOutput(p) => ("output", &p.output, p.images.as_ref()),
            _ => return,
        };
        if seg.text.as_wtf8() != text.as_bytes() {
            self.mismatches.push((seg.key.clone(), field));
        }
        if seg.key.1 == "partial_tool_call_output" {
            let mine = seg.images.as_deref().unwrap_or(&[]);
            if mine != images.map(Vec::as_slice).unwrap_or(&[]) {
                self.mismatches.push((seg.key.clone(), "images"));
            }
        }
    }
}
