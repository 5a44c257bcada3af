package main

// The messages as encoding/json sees them: one struct per schema object with the generated
// go/messages types' fields (same names, same optional pointers), tagged with the wire keys. The
// generated types cannot be filled by encoding/json: their unions (ModelPayload, EventPayload,
// Message) are interfaces picked by a `type` key, which encoding/json has no way to choose, and
// their value types (om.Verbatim, om.NumberOrString, om.NullString, om.Fragment) have no
// UnmarshalJSON. So here: enums are plain strings, a verbatim object is a json.RawMessage (its
// bytes, as om.Verbatim keeps them), a number-or-string is `any`, a nullable string a *string
// (null and absent both nil), and the unions are dispatched on `type` by decode.go.

import "encoding/json"

type SessionMetaPayload struct {
	SessionID          string  `json:"session_id"`
	Provider           string  `json:"provider"`
	ModelID            string  `json:"model_id"`
	ModelContextWindow any     `json:"model_context_window"`
	SystemPrompt       string  `json:"system_prompt"`
	AgentState         string  `json:"agent_state"`
	Workspace          string  `json:"workspace"`
	Source             *string `json:"source"`
}

type SessionMetaMessage struct {
	Timestamp string
	Payload   SessionMetaPayload
	Origin    *[]string
}

type TextPayload struct {
	Role       string           `json:"role"`
	Text       string           `json:"text"`
	StopReason *string          `json:"stop_reason"`
	Fidelity   *json.RawMessage `json:"fidelity"`
	Sender     *string          `json:"sender"`
}

type ThinkingPayload struct {
	Thinking   string           `json:"thinking"`
	StopReason *string          `json:"stop_reason"`
	Fidelity   *json.RawMessage `json:"fidelity"`
}

type InlineThinkingPayload struct {
	Data       string           `json:"data"`
	MimeType   string           `json:"mime_type"`
	StopReason *string          `json:"stop_reason"`
	Fidelity   *json.RawMessage `json:"fidelity"`
}

type ToolCallPayload struct {
	Name       string           `json:"name"`
	Arguments  string           `json:"arguments"`
	ToolCallID string           `json:"tool_call_id"`
	StopReason *string          `json:"stop_reason"`
	Fidelity   *json.RawMessage `json:"fidelity"`
}

type ToolCallOutputPayload struct {
	Output     string    `json:"output"`
	Images     *[]string `json:"images"`
	ToolCallID string    `json:"tool_call_id"`
	StopReason *string   `json:"stop_reason"`
}

type ImageUrlPayload struct {
	ImageURL   string  `json:"image_url"`
	StopReason *string `json:"stop_reason"`
}

type InlineDataPayload struct {
	Role       string           `json:"role"`
	Data       string           `json:"data"`
	MimeType   string           `json:"mime_type"`
	StopReason *string          `json:"stop_reason"`
	Fidelity   *json.RawMessage `json:"fidelity"`
}

type PartialTextPayload struct {
	EventType  string  `json:"event_type"`
	Text       string  `json:"text"`
	StopReason *string `json:"stop_reason"`
}

type PartialThinkingPayload struct {
	EventType  string  `json:"event_type"`
	Thinking   string  `json:"thinking"`
	StopReason *string `json:"stop_reason"`
}

type PartialToolCallPayload struct {
	EventType  string  `json:"event_type"`
	Name       string  `json:"name"`
	Arguments  string  `json:"arguments"`
	ToolCallID string  `json:"tool_call_id"`
	StopReason *string `json:"stop_reason"`
}

type PartialToolCallOutputPayload struct {
	EventType  string    `json:"event_type"`
	Output     string    `json:"output"`
	Images     *[]string `json:"images"`
	ToolCallID string    `json:"tool_call_id"`
	StopReason *string   `json:"stop_reason"`
}

// ModelMessage and EventMessage hold the payload variant as a pointer to its struct.
type ModelMessage struct {
	Timestamp string
	Payload   any
	Origin    *[]string
}

type ToolDefinition struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Parameters  *json.RawMessage `json:"parameters"`
}

type ToolListReadyPayload struct {
	Tools []ToolDefinition `json:"tools"`
}

type McpConnectBeginPayload struct {
	Servers []string `json:"servers"`
}

type McpServerResult struct {
	Server       string  `json:"server"`
	Transport    string  `json:"transport"`
	Status       string  `json:"status"`
	DurationMS   float64 `json:"duration_ms"`
	Tools        *uint64 `json:"tools"`
	ErrorCode    *string `json:"error_code"`
	ErrorMessage *string `json:"error_message"`
}

type McpConnectEndPayload struct {
	Status       string            `json:"status"`
	Results      []McpServerResult `json:"results"`
	ErrorCode    *string           `json:"error_code"`
	ErrorMessage *string           `json:"error_message"`
}

type RequestBeginPayload struct {
	PrefixHash          *string `json:"prefix_hash"`
	PrefixHeadHash      *string `json:"prefix_head_hash"`
	PrefixRecords       *uint64 `json:"prefix_records"`
	PrefixChars         *uint64 `json:"prefix_chars"`
	PrefixExtendsPrev   *bool   `json:"prefix_extends_prev"`
	PrefixThinkingLevel *string `json:"prefix_thinking_level"`
}

type RequestEndPayload struct {
	Status       string   `json:"status"`
	ErrorCode    *string  `json:"error_code"`
	ErrorMessage *string  `json:"error_message"`
	Attempt      *uint64  `json:"attempt"`
	RetryInMS    *float64 `json:"retry_in_ms"`
}

type ApprovalDecisionPayload struct {
	Decision   string `json:"decision"`
	ToolCallID string `json:"tool_call_id"`
}

type TokenCounts struct {
	CacheRead  uint64 `json:"cache_read"`
	CacheWrite uint64 `json:"cache_write"`
	Output     uint64 `json:"output"`
	Total      uint64 `json:"total"`
}

type ReportedCost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

type TokenUsagePayload struct {
	Session      TokenCounts   `json:"session"`
	Request      TokenCounts   `json:"request"`
	ReportedCost *ReportedCost `json:"reported_cost"`
}

type CompactionBeginPayload struct {
	Reason  string `json:"reason"`
	Mode    string `json:"mode"`
	Context uint64 `json:"context"`
	Turns   uint64 `json:"turns"`
}

type CompactionEndPayload struct {
	Reason       string  `json:"reason"`
	Mode         string  `json:"mode"`
	Status       string  `json:"status"`
	Attempt      *uint64 `json:"attempt"`
	ErrorCode    *string `json:"error_code"`
	ErrorMessage *string `json:"error_message"`
}

type AbortPayload struct {
	ErrorCode    *string `json:"error_code"`
	ErrorMessage *string `json:"error_message"`
	Reason       *string `json:"reason"`
}

type SubagentPayload struct {
	SessionID string `json:"session_id"`
}

type HookPayload struct {
	Hook     string           `json:"hook"`
	Name     string           `json:"name"`
	Decision *string          `json:"decision"`
	Reason   *string          `json:"reason"`
	Output   *json.RawMessage `json:"output"`
}

type EventMessage struct {
	Timestamp string
	Payload   any
	Origin    *[]string
}
