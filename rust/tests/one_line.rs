//! Issue 32: a message is one line (schema/README.md section 1.5). A raw LF or CR inside a
//! message, verbatim values included, is refused as `line_break`, strict and lenient; a verbatim
//! value built from text holding one is refused; what follows the value stays JSON whitespace.

use omnimessage::*;

const GOOD: &str = r#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}"#;

fn thinking(fidelity: &str) -> String {
    format!(
        r#"{{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{fidelity}}}}}"#
    )
}

fn refused() -> Vec<String> {
    let forged = thinking(&format!("{{\"signature\":\n{GOOD}\n}}"));
    vec![
        forged.clone(),
        format!("{forged}\n"),
        format!("{}\r\n", thinking("{\"a\":1,\r\"b\":2}")),
        GOOD.replace(r#""type":"event_msg""#, "\"type\":\n\"event_msg\""),
        format!("\n{GOOD}\n"),
        GOOD.replace("request_begin", "request\rbegin"),
        format!("{GOOD}\n{GOOD}\n"),
        "{\"timestamp\":\n,}".to_owned(),
    ]
}

#[test]
fn a_raw_line_break_inside_a_message_is_line_break() {
    for line in refused() {
        let first = line.find(['\n', '\r']).expect("a break");
        for e in [
            decode(line.as_bytes()).unwrap_err(),
            decode_lenient(line.as_bytes()).unwrap_err(),
        ] {
            assert_eq!(e.category, Category::LineBreak, "{line:?}");
            assert_eq!(e.offset, Some(first), "{line:?}");
            assert!(e.pointer.is_empty(), "{line:?}");
        }
    }
}

#[test]
fn line_breaks_after_the_value_stay_whitespace() {
    for tail in ["\r\n", "\r\r\n", " \t\r\n", "\r", "\n \n"] {
        let line = format!("{GOOD}{tail}");
        assert_eq!(
            encode(&decode(line.as_bytes()).expect("decodes")),
            GOOD.as_bytes(),
            "{line:?}"
        );
    }
}

#[test]
fn verbatim_text_with_a_line_break_is_refused() {
    for text in [
        "{\"signature\":\n\"x\"}",
        "{\"a\":1,\r\"b\":2}",
        "\n{\"a\":1,\n\"b\":2}\n",
    ] {
        assert_eq!(
            Verbatim::from_json(text).unwrap_err().category,
            Category::LineBreak,
            "{text:?}"
        );
    }
    assert!(Verbatim::from_json("{\r\n}").expect("an empty object").is_empty());
    assert_eq!(
        Verbatim::from_json(" {\"a\":\t1} \n").expect("tab inside").as_str(),
        "{\"a\":\t1}"
    );
}
