//! The public API as a user calls it: builders, guards, lenient decoding, refusals, the reader's
//! torn last line and the aggregator joining a surrogate pair split between two deltas.

use omnimessage::builders::*;
use omnimessage::guards::*;
use omnimessage::*;

const TS: &str = "2026-07-18T03:10:22.531Z";

fn ts() -> Option<String> {
    Some(TS.to_owned())
}

fn text(msg: &Message) -> String {
    String::from_utf8(encode(msg)).expect("utf-8")
}

#[test]
fn builders_write_what_the_reference_producer_writes() {
    let m = user_text(
        "list the files",
        UserTextOptions {
            timestamp: ts(),
            ..Default::default()
        },
    );
    assert_eq!(
        text(&m),
        r#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"text","role":"user","text":"list the files","stop_reason":"completed"}}"#
    );
    assert!(is_model(&m) && is_complete_model(&m) && !is_partial(&m) && !is_event(&m));
    // an empty verbatim value in any spelling is left out; the default stop reason is written
    let empty = Verbatim::from_json(" { } ").expect("object");
    let t = thinking(
        "hm",
        ThinkingOptions {
            fidelity: Some(empty),
            timestamp: ts(),
            ..Default::default()
        },
    );
    assert_eq!(
        text(&t),
        r#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"hm","stop_reason":"completed"}}"#
    );
    let fid = Verbatim::from_json(r#"{"sig" : "a\/b", "n":1.0}"#).expect("object");
    let a = assistant_text(
        "ok",
        AssistantTextOptions {
            fidelity: Some(fid),
            timestamp: ts(),
            ..Default::default()
        },
    );
    assert!(text(&a).ends_with(r#""stop_reason":"completed","fidelity":{"sig" : "a\/b", "n":1.0}}}"#));
    let e = request_end(
        StopReason::Retryable,
        RequestEndOptions {
            attempt: Some(2),
            retry_in_ms: Some(1500.0),
            timestamp: ts(),
            ..Default::default()
        },
    );
    assert!(text(&e).ends_with(r#"{"type":"request_end","status":"retryable","attempt":2,"retry_in_ms":1500}}"#));
    assert!(is_event(&e));
    let u = token_usage(
        token_counts(TokenCountsOptions {
            total: Some(7),
            ..Default::default()
        }),
        token_counts(Default::default()),
        TokenUsageOptions {
            timestamp: ts(),
            reported_cost: Some(ReportedCost {
                amount: 0.25,
                currency: "USD".into(),
            }),
        },
    );
    assert!(text(&u).contains(r#""session":{"cache_read":0,"cache_write":0,"output":0,"total":7}"#));
    // reported_cost (protocol next) after request, as the reference's tokenUsage writes it
    assert!(text(&u).ends_with(r#""total":0},"reported_cost":{"amount":0.25,"currency":"USD"}}}"#));
    let now = request_begin(Default::default());
    let Message::Event(ev) = &now else { panic!("an event") };
    assert_eq!(ev.timestamp.len(), TS.len());
    assert_eq!(decode(&encode(&now)).as_ref(), Ok(&now));
}

#[test]
fn refusals_carry_category_pointer_and_offset() {
    let e = decode(
        br#"{"timestamp":"t","type":"model_msg","payload":{"type":"text","role":"user","text":"a","text":"b"}}"#,
    )
    .unwrap_err();
    assert_eq!(
        (e.category, e.pointer.as_str(), e.offset),
        (Category::DuplicateKey, Some("/payload/text"), Some(86))
    );
    let e = decode(br#"{"timestamp":"t","type":"event_msg","payload":{"type":"request_end","status":"failed"}}"#)
        .unwrap_err();
    assert_eq!(
        (e.category.as_str(), e.pointer.to_string()),
        ("invalid_value", "/payload/status".to_owned())
    );
    let e = decode(b"[]").unwrap_err();
    assert_eq!(
        (e.category, e.pointer.is_empty(), e.offset),
        (Category::WrongType, true, Some(0))
    );
    let e = decode(b"{} x").unwrap_err();
    assert_eq!((e.category, e.offset), (Category::TrailingData, Some(3)));
    assert!(e.to_string().starts_with("trailing_data: "));
}

#[test]
fn lenient_keeps_the_object_and_drops_the_cr() {
    let line = b"{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{\"type\":\"request_begin\",\"new\":1}}\r\n";
    let Ok(Decoded::Opaque(o)) = decode_lenient(line) else {
        panic!("opaque")
    };
    assert_eq!(o.raw, &line[..line.len() - 2]);
    assert_eq!(o.error.category, Category::UnexpectedField);
    assert!(decode_lenient(b"{\"a\":1} x").is_err());
}

#[test]
fn the_reader_reports_a_torn_last_line_and_goes_on() {
    let data = b"{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{\"type\":\"request_begin\"}}\nnope\n{\"timestamp\":\"t\",\"ty";
    let lines: Vec<_> = Reader::new(&data[..], ReaderOptions::default()).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].result.is_ok());
    let cat = |n: usize| lines[n].result.as_ref().err().map(|e| (e.category, e.line));
    assert_eq!(cat(1), Some((Category::InvalidJson, Some(2))));
    assert_eq!(cat(2), Some((Category::Truncated, Some(3))));
    assert!(!lines[2].terminated);
    let big: Vec<_> = Reader::new(
        &b"{}{}{}\n{}"[..],
        ReaderOptions {
            lenient: false,
            max_line_bytes: 4,
        },
    )
    .collect();
    assert_eq!(big[0].result.as_ref().unwrap_err().category, Category::TooLarge);
    assert_eq!(big[1].result.as_ref().unwrap_err().pointer, "/type");
}

#[test]
fn the_aggregator_joins_a_split_surrogate_pair() {
    let delta = |s: &[u8], e: &str| {
        let mut line = format!("{{\"timestamp\":\"{TS}\",\"type\":\"model_msg\",\"payload\":{{\"type\":\"partial_text\",\"role\":\"assistant\",\"event_type\":\"{e}\",\"text\":\"").into_bytes();
        line.extend_from_slice(s);
        line.extend_from_slice(b"\"}}");
        decode(&line).expect("a partial")
    };
    let mut agg = Aggregator::new();
    let mut out = Vec::new();
    out.extend(agg.feed(delta(b"", "start")));
    let high = delta(br"abc\ud83d", "delta");
    assert_eq!(encode(&high), encode(&decode(&encode(&high)).expect("canonical")));
    assert!(String::from_utf8_lossy(&encode(&high)).contains(r#""text":"abc\ud83d""#));
    out.extend(agg.feed(high));
    out.extend(agg.feed(delta(br"\ude00def", "delta")));
    assert_eq!(agg.open.len(), 1);
    assert_eq!(agg.open[0].text.as_str(), Some("abc😀def"));
    out.extend(agg.feed(delta(b"", "stop")));
    out.extend(agg.finish());
    assert_eq!(out.len(), 1);
    assert!(text(&out[0]).contains(r#""text":"abc😀def","stop_reason":"completed""#));
}

fn output_delta(event: &str, output: &str, extra: &str) -> Message {
    let line = format!(
        "{{\"timestamp\":\"{TS}\",\"type\":\"model_msg\",\"payload\":{{\"type\":\"partial_tool_call_output\",\"role\":\"user\",\"event_type\":\"{event}\",\"output\":\"{output}\"{extra},\"tool_call_id\":\"A\"}}}}"
    );
    decode(line.as_bytes()).expect("a partial")
}

#[test]
fn the_aggregator_keeps_the_images_one_fragment_carried() {
    let mut agg = Aggregator::new();
    agg.feed(output_delta("start", "", ""));
    agg.feed(output_delta("delta", "out", r#","images":["img"]"#));
    agg.feed(output_delta("stop", "", ""));
    let out = agg.finish(); // no complete message followed: the fragments are assembled
    assert_eq!(out.len(), 1);
    assert_eq!(
        text(&out[0]),
        format!(
            r#"{{"timestamp":"{TS}","type":"model_msg","payload":{{"type":"tool_call_output","role":"user","output":"out","images":["img"],"tool_call_id":"A","stop_reason":"completed"}}}}"#
        )
    );
}

#[test]
fn the_aggregator_reports_different_images() {
    let mut agg = Aggregator::new();
    agg.feed(output_delta("start", "", ""));
    agg.feed(output_delta("delta", "abc", r#","images":["i"]"#));
    agg.feed(output_delta("stop", "", ""));
    let line = format!(
        r#"{{"timestamp":"{TS}","type":"model_msg","payload":{{"type":"tool_call_output","role":"user","output":"abd","tool_call_id":"A"}}}}"#
    );
    agg.feed(decode(line.as_bytes()).expect("complete"));
    let fields: Vec<&str> = agg.mismatches.iter().map(|(_, f)| *f).collect();
    assert_eq!(fields, ["output", "images"]);
}
