//! `list --history --grep` searches what a person reads of a capture, not its bytes on the
//! wire: a gzip body unzipped, form fields percent-decoded, JSON `\u` escapes read.

use base64::Engine;
use serde_json::json;

use crate::common::{strings, Env};
use crate::history_failures::local;

#[test]
fn grep_over_the_history_finds_words_in_gzip_form_and_json_escaped_bodies() {
    let env = Env::new();
    let gzipped = base64::engine::general_purpose::STANDARD
        .encode(crate::common::gzip(br#"{"type":"invoice.zipped"}"#));
    let ids = strings(&env.mock.seed_captures(json!([
        {"method": "POST", "uri": "/gz",
         "headers": {"Content-Type": ["application/json"], "Content-Encoding": ["gzip"]},
         "body_base64": gzipped},
        {"method": "POST", "uri": "/form",
         "headers": {"Content-Type": ["application/x-www-form-urlencoded"]},
         "body": "note=caf%C3%A9+au+lait&kind=order%2Eshipped"},
        {"method": "POST", "uri": "/json",
         "headers": {"Content-Type": ["application/json"]},
         "body": r#"{"type":"charge.\u0072efunded"}"#},
        {"method": "POST", "uri": "/plain", "body": "nothing to see"}
    ])));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.sqlite3");
    local(&env, &file, &["requests", "record", "--once"]).ok();
    local(&env, &file, &["requests", "clear", "--yes"]).ok();
    let found = |word: &str| {
        let out = local(
            &env,
            &file,
            &["requests", "list", "--history", "--grep", word, "--json"],
        );
        out.ok();
        crate::common::strings_at(&out.json(), "/id")
    };
    assert_eq!(found("invoice.zipped"), [ids[0].clone()]);
    assert_eq!(found("café"), [ids[1].clone()]);
    assert_eq!(found("order.shipped"), [ids[1].clone()]);
    assert_eq!(found("refunded"), [ids[2].clone()]);
    assert!(found("zipped.invoice").is_empty());
}
