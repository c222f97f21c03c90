//! `--grep` (live and `--history`) and the inspector's `/` search what a person reads of a
//! capture, not only its bytes on the wire: a gzip body unzipped, form fields
//! percent-decoded, JSON `\u` escapes read, in any case.

use base64::Engine;
use serde_json::json;

use crate::common::{strings, Env};
use crate::history_failures::local;

/// Issue 33 items 4 and 16: search means one thing. The live `list --grep`, the inspector's
/// `/` and `list --history --grep` find the same captures: bodies decoded (gzip, form fields),
/// case folded beyond ASCII (`Übersetzung`, `ÉCOLE`), and the last word of a body larger
/// than a screenful.
#[test]
fn live_and_history_search_find_the_same_decoded_text_in_any_case() {
    let env = Env::new();
    let gzipped = base64::engine::general_purpose::STANDARD.encode(crate::common::gzip(
        br#"{"type":"build.finished","at":"invoice.zipped"}"#,
    ));
    let mut big = "lorem ipsum ".repeat(200_000);
    big.push_str("zuletzt");
    let ids = strings(&env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/gz",
         "headers": {"Content-Type": ["application/json"], "Content-Encoding": ["gzip"]},
         "body_base64": gzipped},
        {"method": "POST", "uri": "/form",
         "headers": {"Content-Type": ["application/x-www-form-urlencoded"]},
         "body": "note=caf%C3%A9+au+lait&kind=order%2Eshipped"},
        {"method": "POST", "uri": "/de", "body": "Die Übersetzung der ÉCOLE"},
        {"method": "POST", "uri": "/json",
         "headers": {"Content-Type": ["application/json"]},
         "body": r#"{"type":"charge.\u0072efunded"}"#},
        {"method": "POST", "uri": "/big", "body": big},
        {"method": "POST", "uri": "/plain", "body": "nothing to see"}
    ])));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.sqlite3");
    local(&env, &file, &["requests", "record", "--once"]).ok();
    let found = |history: bool, word: &str| {
        let mut args = vec!["requests", "list", "--grep", word, "--json"];
        if history {
            args.push("--history");
        }
        let out = local(&env, &file, &args);
        out.ok();
        crate::common::strings_at(&out.json(), "/id")
    };
    for (word, want) in [
        ("build.finished", &ids[0]),
        ("invoice.zipped", &ids[0]),
        ("café", &ids[1]),
        ("order.shipped", &ids[1]),
        ("übersetzung", &ids[2]),
        ("ÜBERSETZUNG", &ids[2]),
        ("école", &ids[2]),
        ("refunded", &ids[3]),
        ("zuletzt", &ids[4]),
    ] {
        for history in [false, true] {
            assert_eq!(
                found(history, word),
                std::slice::from_ref(want),
                "--grep {word} (history: {history})"
            );
        }
    }
    assert!(found(true, "zipped.invoice").is_empty());
    // The inspector's `/` finds them too.
    let mut term = crate::common::pty::Pty::spawn(
        &env.inspector_cmd(&env.mock.agent_url(), &[], &["--filter", "café"]),
        24,
        80,
    );
    term.wait_for("1 of 6");
    let screen = term.wait_for("/form");
    assert!(!screen.contains("/plain"), "{screen}");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

/// The hostile bodies of the parity tests: gzip holding NUL bytes, a body with NUL bytes, a
/// Latin-1 body, a 1 MB JSON body, Unicode in another case; each with a word to find.
pub fn hostile_bodies() -> Vec<serde_json::Value> {
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut big = String::from("{\"items\":[");
    while big.len() < 1_000_000 {
        big.push_str("{\"kind\":\"line.item\",\"amount\":1250},");
    }
    big.push_str("{\"kind\":\"megabyte.tail\"}]}");
    vec![
        json!({"method": "POST", "uri": "/gznul",
               "headers": {"Content-Type": ["application/octet-stream"], "Content-Encoding": ["gzip"]},
               "body_base64": b64(&crate::common::gzip(b"\x00\x01zipped.nul.word\x00\x02tail"))}),
        json!({"method": "POST", "uri": "/nul",
               "headers": {"Content-Type": ["application/octet-stream"]},
               "body_base64": b64(b"head\x00\x00invoice.nulled\x00 more")}),
        json!({"method": "POST", "uri": "/latin",
               "headers": {"Content-Type": ["text/plain; charset=iso-8859-1"]},
               "body_base64": b64(b"Caf\xe9 cr\xe8me invoice.latin \xfcber")}),
        json!({"method": "POST", "uri": "/big",
               "headers": {"Content-Type": ["application/json"]}, "body": big}),
        json!({"method": "POST", "uri": "/case", "body": "Straße ÉCOLE Übersetzung"}),
        json!({"method": "POST", "uri": "/plain", "body": "nothing to see"}),
    ]
}

/// The words of [`hostile_bodies`], each with the index of the one body that holds it.
pub const HOSTILE_WORDS: &[(&str, usize)] = &[
    ("zipped.nul.word", 0),
    ("nul.word", 0),
    ("invoice.nulled", 1),
    ("nulled", 1),
    ("invoice.latin", 2),
    ("cr", 2),
    ("megabyte.tail", 3),
    ("école", 4),
    ("ÜBERSETZUNG", 4),
    ("straße", 4),
];

/// Issue 41 item 24: a body holding NUL bytes (gzip or not) or in Latin-1 is found by
/// `--history --grep` as the live `--grep` finds it: one search, one result, live or kept.
#[test]
fn history_search_finds_in_binary_and_latin1_bodies_what_live_search_finds() {
    let env = Env::new();
    let ids = strings(&env.mock.seed_captures(json!(hostile_bodies())));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.sqlite3");
    local(&env, &file, &["requests", "record", "--once"]).ok();
    let found = |history: bool, word: &str| {
        let mut args = vec!["requests", "list", "--grep", word, "--json"];
        if history {
            args.push("--history");
        }
        let out = local(&env, &file, &args);
        out.ok();
        crate::common::strings_at(&out.json(), "/id")
    };
    for (word, at) in HOSTILE_WORDS {
        let live = found(false, word);
        assert_eq!(live, [ids[*at].clone()], "live --grep {word}");
        assert_eq!(found(true, word), live, "--history --grep {word}");
    }
}
