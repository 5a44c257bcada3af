"""The rule registry: every check the validator makes, with a stable id.

Ids never change meaning and are never reused. Groups: OM0xx framing, OM1xx schema (the codec's
rejection categories), OM2xx trace files, OM3xx streaming discipline, OM4xx pairing and order,
OM5xx the error vocabulary, OM6xx origin chains and session ids, OM7xx values (timestamps,
sender, images, ...), OM75x retired spellings (`--legacy`), OM8xx trace directories, OM9xx SSE.
"""

from __future__ import annotations

from typing import Final

from omnimessage._generated.models import REJECTION_RULES
from omnimessage.validate.engine.rule import BOTH, GROUPS, PROFILES, STREAM, TRACE, Rule, Severity
from omnimessage.validate.engine.rule import make_rule as _r
from omnimessage.validate.engine.state import (
    MAX_CHILD_SESSIONS,
    MAX_OPEN_CALLS,
    MAX_OPEN_SEGMENTS,
    MAX_SERVER_EVENT_TYPES,
)

__all__ = ["BOTH", "GROUPS", "PROFILES", "RULES", "STREAM", "TRACE", "Rule", "Severity", "rule", "select_rules"]

_RETIRED_HINT = (
    "Run with `--legacy` to accept it as a warning when validating old traces; new producers must not write it."
)

# The OM1xx rows come from the schema: each `x-omnimessage-rejections` entry names its rule.
_SCHEMA = [(rid, cat, name, summary, expl, hint) for cat, (rid, name, summary, expl, hint) in REJECTION_RULES.items()]

_RULE_LIST: list[Rule] = [
    # --- OM0xx framing -------------------------------------------------------------------
    _r("OM001", "torn-last-line", "warning", BOTH, "the last line has no line feed and does not decode",
       """The input ends with a line that has no line feed and is not a complete JSON object: a torn write,
       left when a producer crashes in the middle of appending a record. The reference readers tolerate it and
       ignore the line, so it is a warning; every earlier line is validated as usual.""",
       """Nothing to fix in a crashed trace; a live producer should write each record (line feed included)
       with a single write."""),
    _r("OM002", "missing-final-newline", "warning", BOTH, "the last line decodes but has no line feed",
       """Every line of a trace or stream ends with a line feed. The last line here is a complete message
       without one; readers accept it, but a producer that appends the next record will glue it to this
       one.""",
       """Terminate every record with `\\n` as part of the same write."""),
    _r("OM003", "crlf-line-ending", "error", BOTH, "a line ends with CR LF",
       """The line ends with a carriage return before its line feed. The wire contract forbids CR before
       the LF: lines are LF-terminated only, and the CR is not part of the canonical bytes.""",
       """Write `\\n`, not `\\r\\n` (on Windows open the file in binary mode)."""),
    _r("OM004", "empty-input", "warning", BOTH, "the input holds no line at all",
       """The input is empty. A trace file always holds at least its `session_meta`; an empty file is
       usually one created by a producer that crashed before writing anything.""",
       """Check that the producer writes the `session_meta` record when it creates the file."""),
    _r("OM005", "healed-torn-line", "warning", TRACE, "a torn record mid-file, healed by the trace writer",
       """A line in the middle of a trace file is a proper prefix of a record: the bytes a crash left when
       it cut a write short. When the reference writer next opens the file it does not repair them; it
       prefixes its next record with a line feed, so the torn bytes become a line of their own (protocol
       facts 9). Every reference reader skips the line and keeps the rest, so this is the normal trace of a
       crash, not a producer bug. The writer restarted there: open requests, compactions and MCP connects
       are closed without a finding. Only a proper prefix counts: a line that goes wrong before its bytes
       run out (two records spliced together, as concurrent writers leave) is an `OM102` error.""",
       """Nothing to fix in a crashed trace. Frequent crash heals point at a producer that is killed while
       writing."""),
    _r("OM006", "healed-blank-line", "warning", TRACE, "an empty line, left by the trace writer's crash heal",
       """An empty line in a trace file. The reference writer heals a possibly torn last line by prefixing its
       next record with a line feed when it reopens the file; when the last line was complete after all,
       the heal costs one empty line (protocol facts 9). Readers skip it. Treated like a torn line: the
       writer restarted there.""",
       """Nothing to fix; a writer can avoid the spurious heal by checking whether the file ends with a line
       feed before it heals."""),
    _r("OM007", "state-cap-reached", "warning", BOTH, "the input opens more state than the validator keeps",
       f"""The validator keeps the open state of an input (streaming segments awaiting their stop and complete
       message, tool calls awaiting their output, child sessions, distinct `server_event` types) within
       documented caps, so that a hostile or broken producer cannot make it grow without bound:
       {MAX_OPEN_SEGMENTS} open segments per session, {MAX_OPEN_CALLS:,} unanswered calls per session,
       {MAX_CHILD_SESSIONS} child sessions, {MAX_SERVER_EVENT_TYPES} `server_event` types
       (`omnimessage.validate.engine.state`). Past a cap this warning is given once per kind, and what goes beyond
       it is counted, not checked: findings that depend on it (an output for a call not tracked, a delta of a
       segment not tracked) are not reported.""",
       """A real producer stays far below these caps: check for a producer that never closes segments,
       never answers calls, or invents a new origin chain or event type per message."""),
    # --- OM1xx schema ----------------------------------------------------------------------
    *(_r(rid, name, "error", BOTH, summary, expl + f" (Rejection category `{cat}`.)", hint)
      for rid, cat, name, summary, expl, hint in _SCHEMA),
    _r("OM114", "non-canonical-encoding", "warning", BOTH, "the line is valid but not in canonical form",
       """The message decodes, but its bytes are not the canonical encoding the reference producer writes
       (no insignificant whitespace, keys in schema order, strings escaped and numbers spelled as
       `JSON.stringify` does, schema/README.md section 2). Encoders MUST produce the canonical form; byte-exact
       consumers (replay, hashing, diffing traces) rely on it.""",
       """Serialise with `JSON.stringify` on objects built in schema key order, or pipe the output through
       `omnimessage canonicalize`."""),
    _r("OM115", "newer-field", "warning", BOTH, "a field this version does not define (`--lenient`)",
       """With `--lenient`, a key the schema does not define is read as an additive optional field of a
       newer producer (the way the reference evolves the protocol: a cost figure in `token_usage`,
       prompt-prefix statistics in `request_begin`). It is reported, dropped, and every other rule runs on
       the rest of the message. Without `--lenient` it is an `OM111` error.""",
       """Validate with a version of omnimessage that knows the field, or keep `--lenient` for newer
       producers."""),
    _r("OM116", "newer-type", "warning", BOTH, "a message type this version does not define (`--lenient`)",
       """With `--lenient`, a message or payload `type` the schema does not define is read as a newer
       producer's (or an older one's, when `--legacy` does not name it). The message is reported and not
       checked further; the rules about what surrounds it still run. Without `--lenient` it is an `OM112`
       error.""",
       """Validate with a version of omnimessage that knows the type, or keep `--lenient` for newer
       producers."""),
    _r("OM117", "not-in-protocol-version", "error", BOTH, "a field, value or type the chosen protocol version lacks",
       """With `--protocol VERSION` older than the newest, every message kind, field and enum value is
       checked against that version's vocabulary, read from the schema's version marks
       (`x-omnimessage-version`, `x-omnimessage-value-versions`, `x-omnimessage-retired`): one introduced
       later (a `prefix_hash` under 0.2.6, `retryable` under 0.2.4), or retired before it (meta `tools`
       under 0.2.4), is reported here. The version's own spellings are read as the newest reads them,
       without the OM75x warnings.""",
       """Validate with the version the producer speaks (`--protocol auto` reads it from the input), or fix
       the producer to write its version's vocabulary."""),
    # --- OM2xx trace files ----------------------------------------------------------------
    _r("OM201", "trace-opens-with-session-meta", "error", TRACE, "a trace file must open with `session_meta`",
       """Every trace file holds one model context and opens with its `session_meta` record (the model, the
       assembled system prompt, the workspace). Resuming a session reads the runtime configuration from it.""",
       """Write the `session_meta` record first when creating a trace file, before any other message."""),
    _r("OM202", "one-session-meta-per-file", "error", TRACE, "a trace file holds exactly one `session_meta`",
       """A trace file is one model context. A compaction or an in-session model switch starts a new
       context, which goes into the next trace file (`_002`, `_003`, ...) with its own `session_meta`; a
       second `session_meta` inside one file means the producer did not rotate.""",
       """Rotate to `<session_id>_<NNN+1>.jsonl` when a new context starts."""),
    _r("OM203", "no-partials-in-trace", "error", TRACE, "traces never store `partial_*` fragments",
       """Streaming fragments (`partial_text`, `partial_thinking`, `partial_tool_call`,
       `partial_tool_call_output`) live only on the SDK boundary and the SSE stream. A trace stores the
       complete message that follows each segment, never the fragments.""",
       """Filter `partial_*` messages out before appending to the trace; store the complete message."""),
    _r("OM204", "no-origin-in-trace", "error", TRACE, "traces never store messages with `origin`",
       """A message with `origin` was forwarded from a child (subagent) session. The child has its own
       trace; the parent trace holds only a `subagent` pointer event, never the forwarded messages.""",
       """Drop forwarded messages (those with `origin`) from the parent trace and append a `subagent` event
       pointing at the child session instead."""),
    # --- OM3xx streaming discipline ---------------------------------------------------------
    _r("OM301", "fragment-without-start", "error", STREAM, "a `delta` or `stop` with no open segment",
       """Each streamed segment (keyed by partial type plus `tool_call_id`) opens with `start`, continues
       with zero or more `delta` and closes with `stop`. A `delta` or `stop` arrived for a segment that was
       never started, or was already stopped.""",
       """Emit `start` before the first `delta` of every segment, and nothing after its `stop`."""),
    _r("OM302", "fragment-restarted", "error", STREAM, "a `start` while the same segment is still open",
       """A `start` arrived for a segment (partial type plus `tool_call_id`) that is already open: the
       earlier segment was never closed with `stop`. Producers never leak an unclosed segment.""",
       """Close each segment with `stop` (and its complete message) before starting the next one with the
       same key."""),
    _r("OM303", "complete-must-follow-stop", "error", STREAM, "the complete message must follow the `stop` at once",
       """The complete message follows immediately after a segment's `stop`: the next message of the same
       session is the complete `text`, `thinking`, `tool_call` or `tool_call_output` with the same
       `tool_call_id`. Renderers replace the streamed fragments with it in place. Two exceptions the
       reference really writes: tools running in parallel may interleave their output messages, so
       another tool's output fragments or complete output may land between a tool output's `stop` and its
       complete message; and inside a compaction window the summary's `partial_text` segments have no
       complete text after their `stop` (protocol facts 3).""",
       """Emit the complete message right after `stop`, before any other message of that session."""),
    _r("OM304", "complete-before-stop", "error", STREAM, "a complete message arrived while its segment was open",
       """A complete message arrived while its streaming segment (same partial type and `tool_call_id`) was
       still open, before the segment's `stop`.""",
       """Emit `stop` for the segment before its complete message."""),
    _r("OM305", "fragments-join-mismatch", "error", STREAM, "joined fragments differ from the complete message",
       """The concatenation of all fragment strings of a segment (`text`, `thinking`, `arguments` or
       `output`, in order, from `start` to `stop`) must equal the complete message's string. Clients that
       render fragments and then the complete message would otherwise show different content.""",
       """Stream exactly the pieces of the final string, without trimming, re-encoding or dropping
       pieces."""),
    _r("OM306", "fragment-name-mismatch", "error", STREAM, "`name` changes within a tool call segment",
       """A `partial_tool_call` segment names its tool on its `start`; the complete `tool_call` that follows
       has that name too (the `tool_call_id` is part of the segment key). Later fragments may repeat the
       name or leave it empty (the reference writes `name: ""` on every `delta` and `stop`), but never
       name another tool.""",
       """Set the tool name when the call starts; repeat it unchanged, or leave it empty, on later
       fragments."""),
    _r("OM307", "fragment-images", "error", STREAM, "images not carried by exactly one delta, or differ",
       """Images are not incremental: one `delta` of a `partial_tool_call_output` segment carries the whole
       set, and the complete `tool_call_output` carries the same set (both absent is fine). Images on
       `start` or `stop`, on several deltas, or different from the complete message's break renderers.""",
       """Send all images in one `delta` and copy the same array into the complete output."""),
    _r("OM308", "unclosed-fragment", "error", STREAM, "a segment is still open at the end of the input",
       """At the end of the input a streaming segment is still open (no `stop`), or stopped without its
       complete message. Producers never leak an unclosed segment. With `--truncated` (a capture cut on
       purpose, and always for `--sse-url`) this is reported as a warning.""",
       """Close every segment with `stop` followed by its complete message, also on errors and aborts (a
       stop with `stop_reason` `aborted`)."""),
    _r("OM309", "session-meta-on-main-stream", "error", STREAM, "`session_meta` on a stream without `origin`",
       """On a main-session stream `session_meta` is never emitted; the only `session_meta` a stream carries
       is a subagent child's first message, forwarded with `origin`.""",
       """Do not forward the main session's `session_meta` to the SDK or SSE stream."""),
    # --- OM4xx pairing and order ----------------------------------------------------------
    _r("OM401", "output-without-call", "error", BOTH, "a `tool_call_output` answers no earlier `tool_call`",
       """`tool_call` and `tool_call_output` pair strictly by `tool_call_id`, and the call comes first. This
       output's id matches no earlier call of the same session.""",
       """Copy the `tool_call_id` of the call into its output; write the call before running the tool."""),
    _r("OM402", "duplicate-output", "error", BOTH, "a second complete output for the same call",
       """Every committed tool call gets exactly one complete `tool_call_output`. This is a second complete
       output for a call that already has one.""",
       """Emit exactly one complete output per call (a denied call gets one synthetic `aborted` output)."""),
    _r("OM403", "duplicate-tool-call-id", "error", BOTH, "a `tool_call_id` is used by two calls",
       """Two complete `tool_call` messages of one session carry the same `tool_call_id`, so their outputs
       cannot be paired unambiguously.""",
       """Give every call a unique id (the provider's id, or a generated one)."""),
    _r("OM404", "approval-order", "error", BOTH, "`approval_decision` outside its call's window",
       """An `approval_decision` comes after its `tool_call` and before any output (partial or complete) of
       that call, once per call. This one names no earlier call, comes after the call's output started, or
       repeats a decision.""",
       """Decide after the call is committed and before the tool runs; emit the decision once."""),
    _r("OM405", "denied-call-not-aborted", "warning", BOTH, "a denied call's output is not `aborted`",
       """A call denied (`deny` or `forbidden`) by its `approval_decision` never runs: it gets a synthetic
       output whose `stop_reason` is `aborted`. This output reports another stop reason.""",
       """Give the synthetic output of a denied call `stop_reason: "aborted"`."""),
    _r("OM406", "request-pairing", "error", BOTH, "`request_begin` / `request_end` do not alternate",
       """`request_begin` and `request_end` come in pairs and alternate within a session: a `request_begin`
       while a request is open, or a `request_end` with no open request, breaks turn accounting (replay
       keeps or drops turns on `request_end.status`).""",
       """Emit exactly one `request_end` for every `request_begin`, including on failures and aborts."""),
    _r("OM407", "token-usage-order", "error", BOTH, "`token_usage` outside its request, or not last",
       """`token_usage` is the last message of the model stream of a request, and `request_end` follows it:
       it belongs between `request_begin` and `request_end`, once per request, and no assistant output of
       that request comes after it.""",
       """Emit `token_usage` once, after the model's last output and before `request_end`."""),
    _r("OM408", "completed-request-without-usage", "warning", BOTH, "a completed request has no `token_usage`",
       """A request that ended `completed` normally reports its `token_usage` before `request_end`;
       consumers that account tokens per request find nothing for this one.""",
       """Emit `token_usage` before `request_end` for every request that reached the model."""),
    _r("OM409", "compaction-pairing", "error", BOTH, "`compaction_begin` / `compaction_end` mismatch",
       """`compaction_begin` and `compaction_end` come in pairs, and the end repeats the begin's `reason` and
       `mode`. This is an end without a begin, a begin while another compaction is open, or an end whose
       reason or mode differ.""",
       """Emit one `compaction_end` per `compaction_begin` with the same `reason` and `mode`."""),
    _r("OM410", "mcp-connect-pairing", "error", BOTH, "`mcp_connect_begin` / `mcp_connect_end` mismatch",
       """`mcp_connect_begin` and `mcp_connect_end` come in pairs, and each per-server result names a server
       listed by the begin. This is an end without a begin, a begin while a connect phase is open, or a
       result for a server the begin did not list.""",
       """Emit one `mcp_connect_end` per `mcp_connect_begin`, with results only for the listed servers."""),
    _r("OM420", "request-open-at-end", "warning", BOTH, "a request is still open at the end of the input",
       """The input ends inside a request (`request_begin` without `request_end`): the session crashed or
       is still running. A warning, since a live trace legitimately ends this way.""",
       """If the session finished, make sure `request_end` is written on every path, errors included."""),
    _r("OM421", "call-without-output-at-end", "warning", BOTH, "a tool call has no output at the end of the input",
       """A committed `tool_call` has no complete `tool_call_output` by the end of the input: the session
       crashed or is still running the tool. Every committed call eventually gets exactly one output.""",
       """If the session finished, emit an output for every call (an `aborted` one when it was cancelled)."""),
    _r("OM422", "phase-open-at-end", "warning", BOTH, "a compaction or MCP connect is open at the end",
       """The input ends inside a compaction (`compaction_begin` without `compaction_end`) or an MCP connect
       phase (`mcp_connect_begin` without `mcp_connect_end`).""",
       """Emit the closing event on every path, failures included (with a non-completed `status`)."""),
    # --- OM5xx error vocabulary -------------------------------------------------------------
    _r("OM501", "error-on-completed", "error", BOTH, "`error_code`/`error_message` with status `completed`",
       """The error pair reports a failure: `error_code` and `error_message` appear only when the `status`
       is not `completed` (`request_end`, `compaction_end`, `mcp_connect_end` and its per-server results).""",
       """Drop the error fields when the operation completed, or report the real status."""),
    _r("OM502", "retry-without-retryable", "error", BOTH, "`retry_in_ms` without status `retryable`",
       """`retry_in_ms` announces an in-run retry, which only a `retryable` failure gets. A `request_end`
       with another status and a `retry_in_ms` contradicts itself.""",
       """Write `retry_in_ms` only when `status` is `retryable` and the engine will retry."""),
    _r("OM503", "retry-on-compaction-end", "error", BOTH, "`compaction_end` never carries `retry_in_ms`",
       """`compaction_end` reports the final attempt of a compaction; it never carries `retry_in_ms` (a
       failed compaction keeps the original context instead of retrying in-run).""",
       """Remove `retry_in_ms` from `compaction_end`; report the attempts with `attempt`."""),
    _r("OM504", "attempt-below-one", "error", BOTH, "`attempt` is 1-based",
       """`attempt` counts the requests of a retry run from 1; zero or a negative number is never valid.""",
       """Number attempts from 1."""),
    _r("OM505", "abort-error-code", "warning", BOTH, "`abort.error_code` the reference never writes on `abort`",
       """`abort.error_code` is typed as any `ErrorCode`, so every code is valid; but the reference builders
       write only `user_abort`, `backoff_interrupted` or `compaction_interrupted` on an abort. The other
       codes describe failures, which are reported by `request_end` or `compaction_end`; on an abort they
       usually mean a failure reported on the wrong event.""",
       """Use one of the three abort codes; report failures on the event that failed."""),
    _r("OM506", "incomplete-error-pair", "warning", BOTH, "a failure without its full error pair",
       """Every payload that reports a failure carries both `error_code` (stable, machine-readable, what
       renderers localise from) and `error_message` (the raw text). Here a `retryable` or `fatal` status has
       no `error_code`, or only one of the two fields is present. One exception, the reference's own: the
       summary request of a compaction (its `request_end` between `compaction_begin` and `compaction_end`)
       is built without `error_code`, so there a failure with `error_message` alone is not reported.""",
       """Always write `error_code` and `error_message` together on failures."""),
    _r("OM507", "hook-decision-point", "error", BOTH, "a hook decision its hook point never gives",
       """Each hook point has its own decisions: a `stop` hook answers `continue` or `stop`, a `pre_tool_use`
       hook `allow` or `deny`. A `hook` event whose `decision` belongs to the other point contradicts itself
       (a renderer or a replay cannot tell what happened). `user_prompt` is not checked: the reference's
       prompt hook writes no `hook` event, so no decision of that point is known.""",
       """Write the decision the hook point gives: `continue`/`stop` at `stop`, `allow`/`deny` at
       `pre_tool_use`."""),
    # --- OM6xx origin and session ids ---------------------------------------------------------
    _r("OM601", "empty-origin", "error", BOTH, "`origin` is an empty array",
       """`origin` is absent for the main session and otherwise a non-empty chain of child-session ids, outer
       to inner. An empty array is never valid.""",
       """Omit `origin` for the main session's own messages."""),
    _r("OM602", "unsafe-session-id", "error", BOTH, "a session id that cannot name a trace file",
       """Session ids name trace files (`<session_id>_<NNN>.jsonl`). An id that is empty or contains `/`,
       `\\`, `..` or a control character cannot, and a reader that built a path from it could be led outside
       the trace root; the validator reports it and never uses it as a path.""",
       """Generate ids from a safe alphabet (the reference shape is
       `session-YYYY-MM-DD-HH-mm-ss-<8 hex>`)."""),
    _r("OM603", "origin-cycle", "error", BOTH, "an `origin` chain names a session twice",
       """An `origin` chain lists child sessions from the outermost to the innermost; each hop prepends one
       id. A session appearing twice would be its own ancestor.""",
       """Prepend the forwarding session's own id exactly once per hop."""),
    _r("OM604", "child-meta-mismatch", "error", STREAM, "a child `session_meta` not owned by its `origin`",
       """A forwarded `session_meta` is the child's own: its `session_id` is the innermost (last) id of its
       `origin` chain.""",
       """Forward the child's `session_meta` unchanged and prepend only the hop's id to `origin`."""),
    _r("OM605", "child-stream-start", "warning", STREAM, "a child stream does not open with its `session_meta`",
       """A subagent child stream's first message is the child's `session_meta`, forwarded with `origin`.
       The first message seen for this `origin` chain is something else (a capture that joined late shows
       this too, hence a warning).""",
       """Forward the child's `session_meta` before any other message of the child."""),
    # --- OM70x values ------------------------------------------------------------------------
    _r("OM701", "timestamp-format", "error", BOTH, "`timestamp` is not ISO 8601 UTC with `Z`",
       """`timestamp` is an ISO 8601 UTC date-time ending in `Z`: `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, a real
       calendar date. The reference writes JavaScript `Date.toISOString()` (`2026-07-18T03:10:22.531Z`).
       Offsets (`+00:00`), local times, spaces and epoch numbers are not accepted.""",
       """Write `new Date().toISOString()` (or the equivalent UTC formatting with a `Z`)."""),
    _r("OM702", "timestamp-backwards", "warning", BOTH, "a timestamp earlier than the previous one",
       """Messages are appended as they enter the output stream, so timestamps of one session do not go
       backwards. An earlier timestamp usually means a clock step or messages written out of order; a
       warning, since clocks do step.""",
       """Take timestamps from one clock when the message is emitted, not when its content was created."""),
    _r("OM703", "sender-on-non-user-text", "error", BOTH, "`sender` on a text that is not user-role",
       """`sender` says who wrote a user-role text when it was not the human (`parent_agent`, `harness`,
       `server`, `user`); it only appears on `text` with `role` `user`.""",
       """Drop `sender` from assistant text."""),
    _r("OM704", "image-not-data-url", "error", BOTH, "an image that is not a usable URL",
       """Tool output images are `data:<mime>;base64,<data>` URLs; `image_url` holds a web URL (`http:` or
       `https:`) or such a data URL. Anything else cannot be fed back to a model.""",
       """Encode tool images as `data:image/png;base64,...`."""),
    _r("OM705", "arguments-not-json", "warning", BOTH, "tool call `arguments` is not a JSON text",
       """`tool_call.arguments` is a JSON text inside a string, kept as the model wrote it. Here it does not
       parse as JSON; the tool probably failed on it. A warning, since models do write broken arguments and
       the trace must keep them.""",
       """Nothing to fix in the trace; if the producer built the string itself, serialise it with
       `JSON.stringify`."""),
    _r("OM706", "path-not-absolute", "warning", BOTH, "`agent_state` or `workspace` is not absolute",
       """`session_meta.agent_state` and `session_meta.workspace` are absolute paths, so that a resumed
       session finds its state wherever it runs from.""",
       """Resolve the paths before writing `session_meta`."""),
    _r("OM707", "prefix-digest-shape", "error", BOTH, "a request-prefix digest that is not 32 lower-case hex digits",
       """`request_begin.prefix_hash` and `prefix_head_hash` (protocol `next`) are the first 32 hexadecimal
       digits, lower-case, of a SHA-256 (the reference's `digest`: `createHash("sha256").digest("hex")
       .slice(0, 32)`); a tool comparing them across requests to attribute a prompt-cache miss relies on
       that shape.""",
       """Write `sha256(serialization).hexdigest()[:32]`."""),
    # --- OM75x retired spellings -----------------------------------------------------------
    _r("OM751", "retired-stop-reason", "warning", BOTH, "retired stop reason `failed`/`timeout`/`malformed`/`auth`",
       """Older traces carry the retired stop reasons `failed`, `timeout`, `malformed` and `auth`. The
       vocabulary is now `completed`, `aborted`, `retryable`, `fatal`, with the kind of failure in
       `error_code`. With `--legacy` they are accepted as this warning (read as `timeout`/`malformed` ->
       `retryable`, `failed`/`auth` -> `fatal`; a `failed` with `retry_in_ms` -> `retryable`, since releases
       0.1.5 to 0.2.4 retried `failed` requests); without it they are `OM113` errors.""",
       _RETIRED_HINT),
    _r("OM752", "retired-session-meta-field", "warning", BOTH, "`thinking_level` or `tools` in `session_meta`",
       """Older `session_meta` records carry `thinking_level` and `tools`, which are no longer read (tools are
       reported by `tool_list_ready`). With `--legacy` they are accepted as this warning; without it they are
       `OM111` errors.""",
       _RETIRED_HINT),
    _r("OM753", "legacy-abort-reason", "warning", BOTH, "`abort.reason` prose",
       """`abort.reason` is legacy prose kept for old traces (the schema still reads it); the reason is now
       `error_code` with the raw text in `error_message`. A prose string is valid, so this warning is given
       with and without `--legacy`; `reason: null` (no prose) is not reported.""",
       """Write `error_code` (`user_abort`, `backoff_interrupted`, `compaction_interrupted`) and
       `error_message` instead."""),
    _r("OM754", "retired-mcp-error-field", "warning", BOTH, "per-server `error` in MCP results",
       """Older `mcp_connect_end` results carry a per-server `error` string; it is now the error pair
       `error_code` + `error_message`. With `--legacy` it is accepted as this warning (read as
       `error_message`); without it, an `OM111` error.""",
       _RETIRED_HINT),
    _r("OM755", "retired-request-end-message", "warning", BOTH, "`request_end.message`",
       """Older `request_end` events carry `message`; it is now `error_message` beside an `error_code`. With
       `--legacy` it is accepted as this warning (read as `error_message`); without it, an `OM111` error.""",
       _RETIRED_HINT),
    _r("OM756", "retired-source-benchmark", "warning", BOTH, "`session_meta.source` is `benchmark`",
       """The retired session source `benchmark` reads as `cli`. With `--legacy` it is accepted as this
       warning; without it, an `OM113` error.""",
       _RETIRED_HINT),
    _r("OM757", "retired-goal-finished", "warning", BOTH, "a `goal_finished` event of goal mode",
       """Goal-mode sessions of releases 0.1.3 to 0.2.4 wrote a thirteenth event, `goal_finished` (`outcome`,
       `rounds`, `tokens_used`), which this protocol version no longer defines. With `--legacy` it is
       accepted as this warning and not checked further; without it, an `OM112` error.""",
       _RETIRED_HINT),
    # --- OM8xx trace directories ------------------------------------------------------------
    _r("OM801", "trace-layout", "warning", TRACE, "a `.jsonl` file outside the trace root layout",
       """A trace root holds `<yyyy-mm-dd>/<session_id>_<NNN>.jsonl` files: a date directory, then the
       session id and a three-digit index from 001. This file does not fit the layout, so it is validated on
       its own, outside any session.""",
       """Move or rename the file, or validate it directly rather than through the root."""),
    _r("OM802", "rotation-index", "error", TRACE, "trace file indexes not contiguous from 001",
       """The files of one session are numbered 001, 002, ... with no gap and no repeat: each compaction
       rotates to the next index. A missing index means a lost context; a repeated one, two files claiming
       the same context.""",
       """Rotate by incrementing the index of the session's last file."""),
    _r("OM803", "rotated-file-opening", "error", TRACE,
       "a rotated file of a session with tools does not re-announce them in its head",
       """A compaction (or an in-session model switch) rotates to the next file, which opens with the new
       context's records: `session_meta`, then its MCP connect pair if any, then its `tool_list_ready` if
       the agent has tools (protocol facts 9). A session that announced tools (a `tool_list_ready` with
       tools) keeps them in its next context, so its rotated file must announce them again before any other
       record. A session without tools, and releases up to 0.2.1 (which wrote no `tool_list_ready` at all),
       open a rotated file with `session_meta` alone. The head's timestamps are not compared with earlier
       records (`OM702`): releases up to 0.2.4 rewrite the first file's messages as they were.""",
       """Write `session_meta`, the MCP connect pair (if any), then `tool_list_ready` first in every rotated
       file."""),
    _r("OM804", "file-session-mismatch", "error", TRACE, "`session_meta.session_id` differs from the file name",
       """A trace file is named after its session: the `session_id` of its `session_meta` equals the
       `<session_id>` part of `<session_id>_<NNN>.jsonl`.""",
       """Name trace files after the session id written in their `session_meta`."""),
    _r("OM805", "subagent-child-missing", "warning", TRACE, "a `subagent` pointer names no trace under the root",
       """A `subagent` event points at a direct child session, whose trace lives under the same root. No
       file of that session was found (it may have been deleted or be stored elsewhere).""",
       """Keep child traces beside the parent's, or validate the root that holds both."""),
    _r("OM806", "trace-root-entry-skipped", "error", BOTH,
       "an entry under a trace root is not read: a symbolic link, a special file or an unreadable directory",
       """Under a trace root only regular files and real directories are read. A symbolic link is never
       followed there (it may lead outside the root, to `/dev/zero` or to a FIFO), a `.jsonl` name that is a
       FIFO, a device or a socket is never opened (a FIFO blocks a reader forever, a device never ends), and a
       directory that cannot be listed cannot be searched. Each such entry is reported once, by its path, so
       that nothing under the root is skipped without a word; the rest of the root is validated.""",
       """Replace the link by the file it points to, or validate the target directly (`omnimessage validate
       TARGET`: a FILE named on the command line is followed); remove special files from the root; make
       directories readable."""),
    # --- OM9xx SSE -------------------------------------------------------------------------
    _r("OM901", "sse-id-shape", "error", STREAM, "an SSE event `id` not shaped `<epoch>-<seq>`",
       """Event ids of the server stream are `<epoch>-<seq>`, which clients send back as `Last-Event-ID` to
       resume: an opaque epoch (1 to 64 printable ASCII characters without spaces; the reference server takes
       the first 8 hex characters of a random UUID when it creates the channel, as in `3f9a0c12-17`), a `-`,
       then the sequence number in decimal (at most 19 digits). The epoch may hold `-` itself: the sequence
       number is what follows the last one.""",
       """Write ids as `<epoch>-<seq>`, for example `3f9a0c12-17`."""),
    _r("OM902", "sse-id-order", "error", STREAM, "SSE event ids do not increase within their epoch",
       """Within one epoch the sequence number increases with every event; a repeated or smaller one makes
       resumption skip or replay events. Epochs have no order: an id with another epoch than the previous
       one is a new channel (the server restarted or recreated it, and a resuming client is told to resync),
       so the sequence restarts there and the validator forgets open streaming segments, as for a
       `resync_required`.""",
       """Increase the sequence number for every event of a channel; make a new epoch when the channel is
       recreated."""),
    _r("OM903", "sse-multiline-data", "error", STREAM, "an OmniMessage split over several `data:` lines",
       """Each OmniMessage travels verbatim as single-line JSON in one `data:` line of an unnamed event.
       Several `data:` lines are joined with line feeds by the client; a multi-line JSON text is not the
       canonical single-line message.""",
       """Write the message's single line after one `data: ` prefix."""),
    _r("OM904", "sse-unknown-event", "warning", STREAM, "an SSE event name other than `server_event`",
       """OmniMessages travel in unnamed events (`message`), the server's control events in events named
       `server_event`. An event with another name is neither and is not validated.""",
       """Use unnamed events for messages and `server_event` for control events."""),
    _r("OM905", "sse-server-event-data", "warning", STREAM, "`server_event` data is not a JSON object",
       """`server_event` events carry the server's own control events (`task_state`, `resync_required`,
       `approval_request`, ...) as JSON objects with a `type`. This one's data is not such an object.
       Server events are counted by type in the report, apart from the OmniMessages; after a
       `resync_required` the stream has a gap, so streaming segments open at that point are forgotten
       (not reported as unclosed).""",
       """Send control events as single-line JSON objects with a `type`."""),
    _r("OM906", "sse-torn-event", "warning", STREAM, "the capture ends inside an event",
       """The input ends with an event that has no terminating blank line; per the HTML spec a client
       discards it. Usually a capture cut mid-event (not reported for `--sse-url`, which cuts on purpose).""",
       """End every event with a blank line."""),
    _r("OM907", "sse-other-protocol", "error", STREAM, "an SSE stream of another protocol (AMSP `/v1`)",
       """The capture carries the reference server's separate AMSP `/v1` stream: unnamed `data:` events whose
       JSON objects have dotted types (`run.started`, `text.delta`, `run.done`, ...) and an `at` time, closed by
       `data: [DONE]`. That is another wire protocol, not OmniMessage: reported once, at its first event, and
       its events are not decoded as OmniMessages (no OM1xx per event).""",
       """Validate the server's OmniMessage channel instead (the SSE stream that pushes OmniMessage lines
       unchanged); AMSP `/v1` is outside this validator."""),
]

RULES: Final[dict[str, Rule]] = {r.id: r for r in _RULE_LIST}
assert len(RULES) == len(_RULE_LIST), "duplicate rule id"

GROUP_OF: Final[dict[str, str]] = {rid: r.group for rid, r in RULES.items()}

CATEGORY_RULES: Final[dict[str, str]] = {cat: rid for rid, cat, *_ in _SCHEMA}
"""Codec rejection category -> rule id (`truncated` is OM001, decided by the reader)."""
CATEGORY_RULES_ALL: Final[dict[str, str]] = {**CATEGORY_RULES, "truncated": "OM001"}


def rule(rule_id: str) -> Rule:
    """The rule of id `rule_id` (KeyError if there is none)."""
    return RULES[rule_id]


def select_rules(patterns: list[str]) -> set[str]:
    """Rule ids matched by ids, id prefixes (`OM3`, `OM75`) or names."""
    out: set[str] = set()
    for p in patterns:
        p = p.strip()
        if not p:
            continue
        hit = {r.id for r in RULES.values() if r.id.startswith(p.upper()) or r.name == p}
        if not hit:
            raise KeyError(p)
        out |= hit
    return out
