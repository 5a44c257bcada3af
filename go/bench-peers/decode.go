package main

// decode fills the structs of types.go from one line with a json.Unmarshal-shaped function
// (encoding/json's or goccy/go-json's), the way encoding/json users decode a tagged union: the
// envelope with its payload kept raw, then the payload's `type` read, then the payload decoded
// into the variant's struct. What neither parser checks, and the strict decoder does: duplicate
// keys, unknown keys, required keys, enum values, integer ranges and spelling, timestamp and
// other lexical forms, lone surrogates (both replace them with U+FFFD).

import (
	"encoding/json"
	"errors"
)

type unmarshalFunc func(data []byte, v any) error

type envelope struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	Origin    *[]string       `json:"origin"`
}

type payloadTag struct {
	Type string `json:"type"`
}

var errUnknownType = errors.New("unknown type")

var modelPayloads = map[string]func() any{
	"text":                     func() any { return new(TextPayload) },
	"thinking":                 func() any { return new(ThinkingPayload) },
	"inline_thinking":          func() any { return new(InlineThinkingPayload) },
	"tool_call":                func() any { return new(ToolCallPayload) },
	"tool_call_output":         func() any { return new(ToolCallOutputPayload) },
	"image_url":                func() any { return new(ImageUrlPayload) },
	"inline_data":              func() any { return new(InlineDataPayload) },
	"partial_text":             func() any { return new(PartialTextPayload) },
	"partial_thinking":         func() any { return new(PartialThinkingPayload) },
	"partial_tool_call":        func() any { return new(PartialToolCallPayload) },
	"partial_tool_call_output": func() any { return new(PartialToolCallOutputPayload) },
}

var eventPayloads = map[string]func() any{
	"tool_list_ready":   func() any { return new(ToolListReadyPayload) },
	"mcp_connect_begin": func() any { return new(McpConnectBeginPayload) },
	"mcp_connect_end":   func() any { return new(McpConnectEndPayload) },
	"request_begin":     func() any { return new(RequestBeginPayload) },
	"request_end":       func() any { return new(RequestEndPayload) },
	"approval_decision": func() any { return new(ApprovalDecisionPayload) },
	"token_usage":       func() any { return new(TokenUsagePayload) },
	"compaction_begin":  func() any { return new(CompactionBeginPayload) },
	"compaction_end":    func() any { return new(CompactionEndPayload) },
	"abort":             func() any { return new(AbortPayload) },
	"subagent":          func() any { return new(SubagentPayload) },
	"hook":              func() any { return new(HookPayload) },
}

func decodeVariant(unmarshal unmarshalFunc, raw []byte, variants map[string]func() any) (any, error) {
	var tag payloadTag
	if err := unmarshal(raw, &tag); err != nil {
		return nil, err
	}
	newPayload, ok := variants[tag.Type]
	if !ok {
		return nil, errUnknownType
	}
	p := newPayload()
	if err := unmarshal(raw, p); err != nil {
		return nil, err
	}
	return p, nil
}

// decode returns a *SessionMetaMessage, *ModelMessage or *EventMessage.
func decode(unmarshal unmarshalFunc, line []byte) (any, error) {
	var env envelope
	if err := unmarshal(line, &env); err != nil {
		return nil, err
	}
	switch env.Type {
	case "session_meta":
		m := &SessionMetaMessage{Timestamp: env.Timestamp, Origin: env.Origin}
		if err := unmarshal(env.Payload, &m.Payload); err != nil {
			return nil, err
		}
		return m, nil
	case "model_msg":
		p, err := decodeVariant(unmarshal, env.Payload, modelPayloads)
		if err != nil {
			return nil, err
		}
		return &ModelMessage{Timestamp: env.Timestamp, Payload: p, Origin: env.Origin}, nil
	case "event_msg":
		p, err := decodeVariant(unmarshal, env.Payload, eventPayloads)
		if err != nil {
			return nil, err
		}
		return &EventMessage{Timestamp: env.Timestamp, Payload: p, Origin: env.Origin}, nil
	}
	return nil, errUnknownType
}
