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
