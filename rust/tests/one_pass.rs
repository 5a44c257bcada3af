//! The typed decoder reads a line in one pass and checks the grammar of all it reads (codec.rs,
//! de.rs): a syntax defect planted in a valid line, at each kind of value the decoder reads
//! (member, key, string, escape, number, boolean, array, object, verbatim value, nesting, what
//! follows the message), is refused with the grammar's category, also when the line has a schema
//! error or a lexical defect before it (the levels of schema/README.md section 4 in order).

use omnimessage::decode;

const TOKENS: &[u8] = br#"{"timestamp":"2026-07-18T03:10:23.580Z","type":"event_msg","payload":{"type":"token_usage","session":{"cache_read":2123,"cache_write":1061,"output":530,"total":4246},"request":{"cache_read":2123,"cache_write":1061,"output":530,"total":4246}}}"#;
const MCP: &[u8] = br#"{"timestamp":"2026-07-18T03:10:22.718Z","type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"files","transport":"stdio","status":"completed","duration_ms":12.5,"tools":4}]}}"#;
const HOOK: &[u8] = br#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"hook","hook":"pre_tool_use","name":"guard-rm","decision":"allow","reason":"not destructive","output":{"checked":true}}}"#;
const TOOLS: &[u8] = br#"{"timestamp":"t","type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"r","description":"d","parameters":{"type":"object","required":["path"]}}]}}"#;
const BEGIN: &[u8] =
    br#"{"timestamp":"t","type":"event_msg","payload":{"type":"request_begin","prefix_extends_prev":true}}"#;
const TEXT: &[u8] = br#"{"timestamp":"2026-07-18T03:10:23.429Z","type":"model_msg","payload":{"type":"text","role":"user","text":"a\nb \u00e9"},"origin":["agent-1","sub"]}"#;

/// `line` with its first `from` replaced by `to`.
fn plant(line: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at = line
        .windows(from.len())
        .position(|w| w == from)
        .unwrap_or_else(|| panic!("{} not in the line", String::from_utf8_lossy(from)));
    [&line[..at], to, &line[at + from.len()..]].concat()
}

/// A valid line, what to replace in it, the replacement and the category the result gets.
type Defect = (&'static [u8], &'static [u8], &'static [u8], &'static str);

#[rustfmt::skip]
const DEFECTS: &[Defect] = &[
    // numbers
    (TOKENS, b":530,", b":0530,", "invalid_json"),
    (TOKENS, b":530,", b":530.,", "invalid_json"),
    (TOKENS, b":530,", b":-,", "invalid_json"),
    (TOKENS, b":530,", b":+530,", "invalid_json"),
    (MCP, b":12.5,", b":12.5e,", "invalid_json"),
    (MCP, b":12.5,", b":.5,", "invalid_json"),
    (MCP, b"\"tools\":4}", b"\"tools\":4x}", "invalid_json"),
    // members and keys
    (TOKENS, b"530,\"total\"", b"530 \"total\"", "invalid_json"),
    (TOKENS, b"4246}", b"4246,}", "invalid_json"),
    (TOKENS, b"\"output\":530", b"\"output\" 530", "invalid_json"),
    (TOKENS, b"{\"cache_read\"", b"{,\"cache_read\"", "invalid_json"),
    (TOKENS, b"{\"cache_read\"", b"{cache_read", "invalid_json"),
    (TOKENS, b"\"output\"", b"\"outp\\qut\"", "invalid_json"),
    (TOKENS, b"\"session\":{", b"\"session\":{,", "invalid_json"),
    // arrays
    (TEXT, b"\"sub\"]", b"\"sub\",]", "invalid_json"),
    (TEXT, b"\"agent-1\",", b"\"agent-1\" ", "invalid_json"),
    (TEXT, b"[\"agent-1\"", b"[,\"agent-1\"", "invalid_json"),
    (MCP, b"\"tools\":4}]", b"\"tools\":4}}", "invalid_json"),
    (MCP, b"\"tools\":4}]", b"\"tools\":4},]", "invalid_json"),
    // strings and escapes
    (TEXT, b"a\\nb", b"a\x01b", "invalid_json"),
    (TEXT, b"a\\nb", b"a\\xb", "invalid_json"),
    (TEXT, b"\\u00e9", b"\\u00g9", "invalid_json"),
    (TEXT, b"\\u00e9", b"\\u00e", "invalid_json"),
    (TEXT, b"\\u00e9\"},\"origin\":[\"agent-1\",\"sub\"]}", b"\\u00e9", "invalid_json"),
    (BEGIN, b"\"t\"", b"\"\\ud800\\u00G0\"", "invalid_json"),
    // literals
    (BEGIN, b"true}", b"tru}", "invalid_json"),
    (BEGIN, b"true}", b"truex}", "invalid_json"),
    // verbatim values: their grammar and their depth
    (HOOK, b"{\"checked\":true}", b"{\"checked\":tru}", "invalid_json"),
    (HOOK, b"{\"checked\":true}", b"{\"checked\":true,}", "invalid_json"),
    (HOOK, b"{\"checked\":true}", b"{\"checked\" true}", "invalid_json"),
    (HOOK, b"{\"checked\":true}", b"{\"checked\":[1 2]}", "invalid_json"),
    (HOOK, b"{\"checked\":true}", b"{\"checked\":\"\x1f\"}", "invalid_json"),
    (HOOK, b"{\"checked\":true}", b"{\"checked\":01}", "invalid_json"),
    (TOOLS, b"[\"path\"]", b"[\"path\",]", "invalid_json"),
    (TOOLS, b"[\"path\"]", b"[\"pa\\zth\"]", "invalid_json"),
    (TOOLS, b"[\"path\"]", b"[\"path\"}", "invalid_json"),
    (TOOLS, b"[\"path\"]", b"[nul]", "invalid_json"),
    (TOOLS, b"[\"path\"]", b"[1e]", "invalid_json"),
    // after the message
    (BEGIN, b"true}}", b"true}} x", "trailing_data"),
    (BEGIN, b"true}}", b"true}}}", "trailing_data"),
    (BEGIN, b"true}}", b"true}", "invalid_json"),
    (BEGIN, b"{\"timestamp\"", b"\xef\xbb\xbf{\"timestamp\"", "invalid_json"),
    // an earlier schema error or lexical defect does not hide a later syntax error
    (TOKENS, b"\"cache_read\":2123,\"cache_write\":1061,\"output\":530", b"\"cache_read\":\"x\",\"cache_write\":1061,\"output\":0530", "invalid_json"),
    (TOKENS, b"\"token_usage\",\"session\":{\"cache_read\":2123", b"\"token_usage\",\"nope\":1,\"session\":{\"cache_read\":2123 2", "invalid_json"),
    (TEXT, b"\"a\\nb", b"\"\\ud800a\\nb\x02", "invalid_json"),
    (TEXT, b"\"sub\"]}", b"\"sub\"]} ,", "trailing_data"),
    // and the bytes come first of all
    (TEXT, b"\"sub\"]}", b"\"s\xffub\"]}", "invalid_utf8"),
    (TEXT, b"[\"agent-1\"", b"[,\"agent-1\xc3\"", "invalid_utf8"),
];

#[test]
fn every_planted_syntax_defect_is_the_grammars_refusal() {
    for (line, from, to, category) in DEFECTS {
        assert!(decode(line).is_ok(), "{}", String::from_utf8_lossy(line));
        let bad = plant(line, from, to);
        let got = decode(&bad).map(|_| ()).map_err(|e| e.category.as_str());
        assert_eq!(got, Err(*category), "{}", String::from_utf8_lossy(&bad));
    }
}

#[test]
fn verbatim_values_count_in_the_nesting_depth() {
    let depth = omnimessage::tables::MAX_DEPTH;
    // a tool's parameters sit four containers deep: the message, its payload, `tools`, the tool
    for (n, category) in [(depth - 5, None), (depth - 4, Some("too_deep"))] {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(n), "]".repeat(n));
        let line = plant(TOOLS, b"{\"type\":\"object\",\"required\":[\"path\"]}", deep.as_bytes());
        let got = decode(&line).map(|_| ()).map_err(|e| e.category.as_str());
        assert_eq!(got, category.map_or(Ok(()), Err), "{n} levels");
    }
}
