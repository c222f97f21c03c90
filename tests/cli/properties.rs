//! Property tests (a bounded fuzz run in CI): the decoders of everything a server sends, and
//! argument parsing, never panic on any input, and what they print for a terminal never holds
//! a raw control character. `PROPTEST_CASES` raises the count for a longer run.

use base64::Engine;
use clap::Parser;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

use tunnelctl::capture::{curl, har, view, Exchange, Message};
use tunnelctl::cli::Cli;
use tunnelctl::escape::escape;
use tunnelctl::http::failure::decode_error;
use tunnelctl::output::columns::{self, Kind};

/// Any JSON value, with strings that may hold control characters and odd Unicode.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        any::<String>().prop_map(Value::String),
        "[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}a-z]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((field_name(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// Field names the decoders look for, and others.
fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "id",
            "uri",
            "request",
            "response",
            "raw",
            "headers",
            "method",
            "status",
            "status_code",
            "proto",
            "start",
            "duration",
            "tunnel_name",
            "remote_addr",
            "target",
            "kinesis",
            "auth",
            "role",
            "creds",
            "labels",
            "tunnels",
            "sources",
            "destinations",
            "credential",
            "metadata",
            "description",
            "created_at",
            "started_at",
            "config",
            "metrics",
            "msg",
            "error_code",
            "details",
            "operation_id",
            "type",
        ])
        .prop_map(str::to_string),
        "[a-z_]{1,10}",
    ]
}

/// A JSON value read as a capture (`None` for anything but an object).
fn typed(c: &Value) -> Option<Exchange> {
    Exchange::from_json(&c.to_string())
}

/// A captured request whose `raw` parts are arbitrary bytes.
fn any_capture() -> impl Strategy<Value = Value> {
    (any_json(), prop::collection::vec(any::<u8>(), 0..400), prop::collection::vec(any::<u8>(), 0..400), any::<bool>())
        .prop_map(|(extra, req, resp, pending)| {
            let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
            let mut c = json!({
                "id": "airt_1", "tunnel_name": "t (http)", "start": "2026-01-01T00:00:00Z", "duration": 5,
                "request": {"method": "GET", "uri": "/", "raw": b64(&req), "headers": {}},
                "response": if pending { json!({"status_code": 0, "raw": null}) } else { json!({"status_code": 200, "raw": b64(&resp)}) },
            });
            if let (Value::Object(m), Value::Object(e)) = (&mut c, extra) {
                for (k, v) in e {
                    m.insert(k, v);
                }
            }
            c
        })
}

fn no_control(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t')
}

const KINDS: [&Kind; 9] = [
    tunnelctl::api::sessions::RESOURCE.kind,
    tunnelctl::api::ip_policies::RESOURCE.kind,
    tunnelctl::api::backends::RESOURCE.kind,
    &columns::TLS_TERMINATION,
    tunnelctl::api::event_destinations::RESOURCE.kind,
    tunnelctl::api::event_subscriptions::RESOURCE.kind,
    &columns::EVENT_SOURCE,
    &columns::TUNNEL,
    &columns::CAPTURED_REQUEST,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn error_bodies_of_any_shape_decode(status in 100u16..1000, ctype in prop::option::of("[a-z/+;= -]{0,30}"), body in prop::collection::vec(any::<u8>(), 0..600)) {
        let f = decode_error("GET", "/x", status, ctype.as_deref(), &body, tunnelctl::api::SECRET_FIELDS);
        prop_assert!(no_control(&f.to_string()));
    }

    #[test]
    fn json_error_bodies_decode(body in any_json()) {
        let text = body.to_string();
        let f = decode_error("POST", "/x", 400, Some("application/json"), text.as_bytes(), tunnelctl::api::SECRET_FIELDS);
        prop_assert!(no_control(&f.to_string()));
    }

    #[test]
    fn every_kind_renders_any_item(item in any_json()) {
        for kind in KINDS {
            let row = kind.tsv_row(&item);
            prop_assert!(!row.contains('\n') && no_control(&row.replace('\t', " ")));
            let cells = kind.table_row(&item);
            prop_assert!(cells.iter().all(|c| no_control(c) && !c.contains('\n')));
        }
    }

    #[test]
    fn captured_exchanges_render_safely(c in any_capture()) {
        let c = typed(&c).expect("a capture is an object");
        let text = view::render(&c, None);
        prop_assert!(no_control(&text));
        let _ = c.answered();
        let _ = har::entry(&c);
        let _ = curl::command(&c);
        let _ = har::document(std::slice::from_ref(&c));
    }

    #[test]
    fn any_json_as_a_capture_does_not_panic(c in any_json()) {
        if let Some(c) = typed(&c) {
            prop_assert!(no_control(&view::render(&c, None)));
            let _ = har::entry(&c);
            let _ = curl::command(&c);
        }
    }

    #[test]
    fn raw_http_parses(raw in prop::collection::vec(any::<u8>(), 0..2000)) {
        let m = Message::lenient(&raw);
        prop_assert!(no_control(&view::render_body(&m)));
    }

    #[test]
    fn escape_leaves_no_control_character(s in any::<String>()) {
        let e = escape(&s);
        prop_assert!(!e.chars().any(char::is_control));
    }

    #[test]
    fn argument_parsing_never_panics(args in prop::collection::vec(prop_oneof![
        prop::sample::select(vec!["sessions", "list", "get", "restart", "ip-policies", "create", "update", "delete", "--limit",
            "-1", "0", "--json", "-o", "ndjson", "--jq", ".[]", "--timeout", "2m", "--rate", "20/5", "local", "requests",
            "tunnels", "start", "--proto", "http", "--addr", "--name", "edges", "tls-termination", "set", "--min-version",
            "--terminate-at", "upstream", "event-destinations", "--target-json", "{}", "api", "POST", "-f", "a=b", "--",
            "--all", "--region", "--ip", "1.2.3.4/40", "upgrade", "--settle", "5s", "config", "set", "help"]).prop_map(str::to_string),
        any::<String>(),
    ], 0..8)) {
        let mut argv = vec!["tunnelctl".to_string()];
        argv.extend(args);
        let _ = Cli::try_parse_from(argv);
    }

    #[test]
    fn jq_compiles_or_refuses_any_text(code in any::<String>()) {
        if let Ok(f) = tunnelctl::output::jq::Filter::compile(&code) {
            let mut out = Vec::new();
            let _ = f.run(&json!([{"id": "a"}]), false, &mut out);
        }
    }
}
