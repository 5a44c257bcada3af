//! The messages as serde derive writes them: one struct per schema object with the generated types'
//! fields (rust/src/generated/types.rs: same names, same `Option`s), the enums as serde enums, the
//! unions as internally tagged enums (`#[serde(tag = "type")]`, the serde way to pick a variant by a
//! key inside the object). A verbatim object is a `serde_json::Map` (a `RawValue` cannot sit inside
//! an internally tagged enum), a number-or-string an untagged enum, a nullable string an
//! `Option<String>` (null and absent both `None`). Unknown keys are ignored (serde's default).
// The fields are filled, compared (tests) and dropped, never read one by one.
#![allow(dead_code)]

use serde::Deserialize;
use serde_json::{Map, Value};

macro_rules! snake_enum {
    ($name:ident { $($variant:ident),+ $(,)? }) => {
        #[derive(Debug, Deserialize, PartialEq)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($variant),+ }
    };
}

snake_enum!(StopReason {
    Completed,
    Aborted,
    Retryable,
    Fatal
});
snake_enum!(ErrorCode {
    UserAbort,
    BackoffInterrupted,
    CompactionInterrupted,
    Timeout,
    Network,
    Malformed,
    Auth,
    Rejected,
    Unsupported,
    InvalidInput,
    ConnectFailed,
});
snake_enum!(ThinkingLevel {
    None,
    Low,
    Medium,
    High,
    Xhigh,
    Max
});
snake_enum!(Role { User, Assistant });
snake_enum!(StreamEventType { Start, Delta, Stop });
snake_enum!(Sender {
    User,
    ParentAgent,
    Harness,
    Server
});
snake_enum!(SessionSource {
    User,
    Api,
    Schedule,
    Subagent,
    Cli,
    Company
});
snake_enum!(McpTransport { Stdio, Http, Sse });
snake_enum!(ApprovalDecision { Allow, Deny, Forbidden });
snake_enum!(CompactionReason { Context, Turns, Manual });
snake_enum!(CompactionMode { Summarize, Discard });
snake_enum!(HookPoint {
    Stop,
    PreToolUse,
    UserPrompt
});
snake_enum!(HookDecision {
    Continue,
    Stop,
    Allow,
    Deny
});

#[derive(Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum NumberOrString {
    Number(f64),
    String(String),
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type")]
pub enum Message {
    #[serde(rename = "session_meta")]
    SessionMeta(SessionMetaMessage),
    #[serde(rename = "model_msg")]
    Model(ModelMessage),
    #[serde(rename = "event_msg")]
    Event(EventMessage),
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct SessionMetaMessage {
    pub timestamp: String,
    pub payload: SessionMetaPayload,
    pub origin: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct SessionMetaPayload {
    pub session_id: String,
    pub provider: String,
    pub model_id: String,
    pub model_context_window: NumberOrString,
    pub system_prompt: String,
    pub agent_state: String,
    pub workspace: String,
    pub source: Option<SessionSource>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ModelMessage {
    pub timestamp: String,
    pub payload: ModelPayload,
    pub origin: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ModelPayload {
    Text(TextPayload),
    Thinking(ThinkingPayload),
    InlineThinking(InlineThinkingPayload),
    ToolCall(ToolCallPayload),
    ToolCallOutput(ToolCallOutputPayload),
    ImageUrl(ImageUrlPayload),
    InlineData(InlineDataPayload),
    PartialText(PartialTextPayload),
    PartialThinking(PartialThinkingPayload),
    PartialToolCall(PartialToolCallPayload),
    PartialToolCallOutput(PartialToolCallOutputPayload),
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct TextPayload {
    pub role: Role,
    pub text: String,
    pub stop_reason: Option<StopReason>,
    pub fidelity: Option<Map<String, Value>>,
    pub sender: Option<Sender>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ThinkingPayload {
    pub thinking: String,
    pub stop_reason: Option<StopReason>,
    pub fidelity: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct InlineThinkingPayload {
    pub data: String,
    pub mime_type: String,
    pub stop_reason: Option<StopReason>,
    pub fidelity: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ToolCallPayload {
    pub name: String,
    pub arguments: String,
    pub tool_call_id: String,
    pub stop_reason: Option<StopReason>,
    pub fidelity: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ToolCallOutputPayload {
    pub output: String,
    pub images: Option<Vec<String>>,
    pub tool_call_id: String,
    pub stop_reason: Option<StopReason>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ImageUrlPayload {
    pub image_url: String,
    pub stop_reason: Option<StopReason>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct InlineDataPayload {
    pub role: Role,
    pub data: String,
    pub mime_type: String,
    pub stop_reason: Option<StopReason>,
    pub fidelity: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct PartialTextPayload {
    pub event_type: StreamEventType,
    pub text: String,
    pub stop_reason: Option<StopReason>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct PartialThinkingPayload {
    pub event_type: StreamEventType,
    pub thinking: String,
    pub stop_reason: Option<StopReason>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct PartialToolCallPayload {
    pub event_type: StreamEventType,
    pub name: String,
    pub arguments: String,
    pub tool_call_id: String,
    pub stop_reason: Option<StopReason>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct PartialToolCallOutputPayload {
    pub event_type: StreamEventType,
    pub output: String,
    pub images: Option<Vec<String>>,
    pub tool_call_id: String,
    pub stop_reason: Option<StopReason>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct EventMessage {
    pub timestamp: String,
    pub payload: EventPayload,
    pub origin: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventPayload {
    ToolListReady(ToolListReadyPayload),
    McpConnectBegin(McpConnectBeginPayload),
    McpConnectEnd(McpConnectEndPayload),
    RequestBegin(RequestBeginPayload),
    RequestEnd(RequestEndPayload),
    ApprovalDecision(ApprovalDecisionPayload),
    TokenUsage(TokenUsagePayload),
    CompactionBegin(CompactionBeginPayload),
    CompactionEnd(CompactionEndPayload),
    Abort(AbortPayload),
    Subagent(SubagentPayload),
    Hook(HookPayload),
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    pub parameters: Option<Map<String, Value>>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ToolListReadyPayload {
    pub tools: Vec<ToolDefinition>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct McpConnectBeginPayload {
    pub servers: Vec<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct McpServerResult {
    pub server: String,
    pub transport: McpTransport,
    pub status: StopReason,
    pub duration_ms: f64,
    pub tools: Option<u64>,
    pub error_code: Option<ErrorCode>,
    pub error_message: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct McpConnectEndPayload {
    pub status: StopReason,
    pub results: Vec<McpServerResult>,
    pub error_code: Option<ErrorCode>,
    pub error_message: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct RequestBeginPayload {
    pub prefix_hash: Option<String>,
    pub prefix_head_hash: Option<String>,
    pub prefix_records: Option<u64>,
    pub prefix_chars: Option<u64>,
    pub prefix_extends_prev: Option<bool>,
    pub prefix_thinking_level: Option<ThinkingLevel>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct RequestEndPayload {
    pub status: StopReason,
    pub error_code: Option<ErrorCode>,
    pub error_message: Option<String>,
    pub attempt: Option<u64>,
    pub retry_in_ms: Option<f64>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ApprovalDecisionPayload {
    pub decision: ApprovalDecision,
    pub tool_call_id: String,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct TokenCounts {
    pub cache_read: u64,
    pub cache_write: u64,
    pub output: u64,
    pub total: u64,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct ReportedCost {
    pub amount: f64,
    pub currency: String,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct TokenUsagePayload {
    pub session: TokenCounts,
    pub request: TokenCounts,
    pub reported_cost: Option<ReportedCost>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct CompactionBeginPayload {
    pub reason: CompactionReason,
    pub mode: CompactionMode,
    pub context: u64,
    pub turns: u64,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct CompactionEndPayload {
    pub reason: CompactionReason,
    pub mode: CompactionMode,
    pub status: StopReason,
    pub attempt: Option<u64>,
    pub error_code: Option<ErrorCode>,
    pub error_message: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct AbortPayload {
    pub error_code: Option<ErrorCode>,
    pub error_message: Option<String>,
    pub reason: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct SubagentPayload {
    pub session_id: String,
}

#[derive(Debug, Deserialize, PartialEq)]
pub struct HookPayload {
    pub hook: HookPoint,
    pub name: String,
    pub decision: Option<HookDecision>,
    pub reason: Option<String>,
    pub output: Option<Map<String, Value>>,
}
