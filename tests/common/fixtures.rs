//! Resources as the services send them, for the snapshot tests of tables and detail views:
//! a realistic set for each kind (shaped like the emulator's demo account) and a hostile one
//! (control characters, bidi overrides, invisible characters, very long free text, wide CJK
//! text, empty and missing fields, an echoed AWS secret).

use serde_json::{json, Value};

/// The "now" the snapshots are taken at.
pub const NOW: time::OffsetDateTime = time::macros::datetime!(2026-11-23 14:02:11 UTC);

/// An AWS secret access key a hostile service echoes: it must never be shown.
pub const ECHOED_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

const API: &str = "https://api.tunnels.example.com";

/// Escape sequences that would clear the screen and write the clipboard, and line breaks.
const CONTROL: &str = "evil\x1b]52;c;aGVsbG8=\x07 \x1b[2J\r\nsecond line\ttab \u{9b}31m";
/// A right-to-left override and zero-width characters that disguise text.
const BIDI: &str = "invoice\u{202e}fdp.exe \u{200b}hidden\u{2066}isolate";
/// Wide characters: each takes two columns.
const CJK: &str = "東京データセンター 本番環境のネットワーク 🚀 接続";

/// Free text as long as the service allows a description to be (255 bytes).
fn long_text() -> String {
    "the quick brown fox jumps over the lazy dog ".repeat(6)[..255].to_string()
}

/// Metadata as long as the service allows (4096 bytes), without a single space.
fn long_metadata() -> String {
    let mut s = String::from("{\"k\":\"");
    s.push_str(&"x".repeat(4096 - 8));
    s.push_str("\"}");
    s
}

fn uri(path: &str) -> String {
    format!("{API}{path}")
}

fn reference(path: &str, id: &str) -> Value {
    json!({"id": id, "uri": uri(&format!("{path}/{id}"))})
}

/// Tunnel sessions.
pub fn sessions(hostile: bool) -> Vec<Value> {
    let session = |id: &str, region: &str, os: &str, version: &str, ip: &str, at: &str| {
        json!({
            "id": id, "uri": uri(&format!("/tunnel_sessions/{id}")), "agent_version": version,
            "credential": reference("/credentials", "cr_2guQ9gXQNA79Sje4snC54ipCUtN"),
            "ip": ip, "os": os, "region": region, "started_at": at, "transport": "service/v2",
        })
    };
    let mut a = session(
        "ts_2guQ9gXQNA79Sje5IGb5GWirrgL",
        "ap",
        "darwin",
        "3.18.4",
        "192.0.2.7",
        "2026-11-23T13:57:11Z",
    );
    let mut b = session(
        "ts_2guQ9gXQNA79Sje1VMeJktxqpGx",
        "us",
        "linux",
        "3.19.1",
        "203.0.113.10",
        "2026-11-23T11:02:11Z",
    );
    b["metadata"] = json!("{\"host\":\"web-1\"}");
    let mut c = session(
        "ts_2guQ9gXQNA79Sjdx1w8Osk8Ixke",
        "us",
        "windows",
        "3.19.1",
        "2001:db8:85a3::8a2e:370:7334",
        "2026-11-16T09:30:00Z",
    );
    c["metadata"] = json!("{\"host\":\"build-agent-windows-07\",\"rack\":\"b7\"}");
    if hostile {
        a["metadata"] = json!(CONTROL);
        a["region"] = json!(BIDI);
        b["metadata"] = json!(long_metadata());
        b["os"] = json!(CJK);
        c["metadata"] = json!("");
        c["agent_version"] = Value::Null;
        c["started_at"] = json!("not a time");
        if let Some(m) = c.as_object_mut() {
            m.remove("credential");
        }
    }
    vec![a, b, c]
}

/// IP policies.
pub fn ip_policies(hostile: bool) -> Vec<Value> {
    let policy = |id: &str, description: &str, metadata: &str, at: &str| {
        json!({"id": id, "uri": uri(&format!("/ip_policies/{id}")), "created_at": at,
               "description": description, "metadata": metadata})
    };
    if hostile {
        return vec![
            policy(
                "ipp_2guQ9gXQNA79Sje81vKMc4AJIdW",
                CONTROL,
                BIDI,
                "2026-11-23T14:02:11Z",
            ),
            policy(
                "ipp_2guQ9gXQNA79Sje7noYDIgJk91k",
                &long_text(),
                &long_metadata(),
                "2026-11-20T14:02:11Z",
            ),
            policy(
                "ipp_2guQ9gXQNA79Sje6zbSqrDsqFGi",
                CJK,
                CJK,
                "2025-01-02T00:00:00Z",
            ),
            json!({"id": "ipp_2guQ9gXQNA79Sje5empty00000", "description": "", "metadata": null}),
        ];
    }
    vec![
        policy(
            "ipp_2guQ9gXQNA79Sje81vKMc4AJIdW",
            "partner vpn",
            "{\"partner\":\"acme\"}",
            "2026-11-23T13:02:11Z",
        ),
        policy(
            "ipp_2guQ9gXQNA79Sje7noYDIgJk91k",
            "ci runners",
            "",
            "2026-11-21T09:12:40Z",
        ),
        policy(
            "ipp_2guQ9gXQNA79Sje6zbSqrDsqFGi",
            "office network (Berlin and Lisbon, incl. guest Wi-Fi)",
            "{\"team\":\"it\",\"ticket\":\"NET-4411\"}",
            "2026-10-02T17:45:00Z",
        ),
    ]
}

/// Tunnel-group backends.
pub fn backends(hostile: bool) -> Vec<Value> {
    let backend = |id: &str, description: &str, labels: Value, tunnels: &[&str], at: &str| {
        json!({"id": id, "uri": uri(&format!("/backends/tunnel_group/{id}")), "created_at": at,
               "description": description, "metadata": "", "labels": labels,
               "tunnels": tunnels.iter().map(|t| reference("/tunnels", t)).collect::<Vec<_>>()})
    };
    if hostile {
        return vec![
            backend(
                "bkdtg_2guQ9gXQNA79SjeA3XTMcEUBBud",
                CONTROL,
                json!({BIDI: CJK, "env": CONTROL}),
                &["tn_2guQ9gXQNA79Sje9GXt5iqyAr9m"; 4],
                "2026-11-23T14:02:11Z",
            ),
            json!({"id": "bkdtg_2guQ9gXQNA79SjeB000empty", "labels": null, "tunnels": [],
                   "description": long_text()}),
        ];
    }
    vec![
        backend(
            "bkdtg_2guQ9gXQNA79SjeA3XTMcEUBBud",
            "web production",
            json!({"app": "web", "env": "prod"}),
            &[
                "tn_2guQ9gXQNA79Sje9GXt5iqyAr9m",
                "tn_2guQ9gXQNA79Sje9GXt5iqyBs0n",
            ],
            "2026-11-22T08:00:00Z",
        ),
        backend(
            "bkdtg_2guQ9gXQNA79SjeA3XTMcEUCCve",
            "staging",
            json!({"env": "staging"}),
            &[],
            "2026-11-23T12:40:00Z",
        ),
    ]
}

/// The TLS termination module of an edge (a single object, never listed).
pub fn tls_termination(hostile: bool) -> Vec<Value> {
    if hostile {
        return vec![
            json!({"enabled": null, "terminate_at": CONTROL, "min_version": BIDI,
                   "x_future_field": {"note": CJK, "aws_secret_access_key": ECHOED_SECRET}}),
        ];
    }
    vec![
        json!({"enabled": true, "terminate_at": "edge", "min_version": "1.2"}),
        json!({"enabled": true, "terminate_at": "upstream", "min_version": null}),
    ]
}

/// Event destinations.
pub fn event_destinations(hostile: bool) -> Vec<Value> {
    let destination = |id: &str, description: &str, target: Value, at: &str| {
        json!({"id": id, "uri": uri(&format!("/event_destinations/{id}")), "created_at": at,
               "description": description, "metadata": "", "format": "json", "target": target})
    };
    let kinesis = json!({"kinesis": {
        "auth": {"role": {"role_arn": "arn:aws:iam::123456789012:role/tunnel-events"}, "creds": null},
        "stream_arn": "arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events"},
        "firehose": null, "cloudwatch_logs": null, "datadog": null});
    let logs = json!({"cloudwatch_logs": {
        "auth": {"role": null, "creds": {"aws_access_key_id": "AKIAIOSFODNN7EXAMPLE",
                                         "aws_secret_access_key": ECHOED_SECRET}},
        "log_group_arn": "arn:aws:logs:eu-west-1:123456789012:log-group:/tunnels/events"},
        "firehose": null, "kinesis": null, "datadog": null});
    if hostile {
        return vec![
            destination(
                "ed_2guQ9gXQNA79SjeCGN4xeRa8tOU",
                CONTROL,
                json!({"kinesis": {"stream_arn": BIDI, "auth": {"role": {"role_arn": CJK}}}}),
                "2026-11-23T14:02:11Z",
            ),
            destination(
                "ed_2guQ9gXQNA79SjeCGN4xeRa8tOV",
                &long_text(),
                logs,
                "2026-11-23T14:02:11Z",
            ),
            json!({"id": "ed_2guQ9gXQNA79SjeCGN4xeempty", "target": {"s3": {"bucket": "b"}},
                   "description": ""}),
        ];
    }
    vec![
        destination(
            "ed_2guQ9gXQNA79SjeCGN4xeRa8tOU",
            "audit stream",
            kinesis,
            "2026-11-23T10:15:00Z",
        ),
        destination(
            "ed_2guQ9gXQNA79SjeCGN4xeRa8tOV",
            "logs for the security team",
            logs,
            "2026-11-18T16:20:00Z",
        ),
    ]
}

/// Event subscriptions.
pub fn event_subscriptions(hostile: bool) -> Vec<Value> {
    let subscription = |id: &str, description: &str, types: &[&str], dest: &[&str]| {
        json!({"id": id, "uri": uri(&format!("/event_subscriptions/{id}")),
               "created_at": "2026-11-23T10:16:00Z", "description": description, "metadata": "",
               "sources": types.iter().map(|t| json!({"type": t,
                    "uri": uri(&format!("/event_subscriptions/{id}/sources/{t}"))})).collect::<Vec<_>>(),
               "destinations": dest.iter().map(|d| reference("/event_destinations", d)).collect::<Vec<_>>()})
    };
    if hostile {
        return vec![
            subscription(
                "esb_2guQ9gXQNA79SjeDo92jSeVIBme",
                CJK,
                &[CONTROL, BIDI],
                &["ed_2guQ9gXQNA79SjeCGN4xeRa8tOU"; 3],
            ),
            json!({"id": "esb_2guQ9gXQNA79SjeDo92jSempty", "sources": null, "destinations": null,
                   "description": long_text(), "metadata": long_metadata()}),
        ];
    }
    vec![
        subscription(
            "esb_2guQ9gXQNA79SjeDo92jSeVIBme",
            "policy changes",
            &["ip_policy_created.v0", "ip_policy_updated.v0"],
            &["ed_2guQ9gXQNA79SjeCGN4xeRa8tOU"],
        ),
        subscription(
            "esb_2guQ9gXQNA79SjeDo92jSeVIBmf",
            "deletions, to both streams",
            &["ip_policy_deleted.v0"],
            &[
                "ed_2guQ9gXQNA79SjeCGN4xeRa8tOU",
                "ed_2guQ9gXQNA79SjeCGN4xeRa8tOV",
            ],
        ),
    ]
}

/// The sources of one subscription.
pub fn event_sources(hostile: bool) -> Vec<Value> {
    let source = |t: &str| {
        json!({"type": t,
               "uri": uri(&format!("/event_subscriptions/esb_2guQ9gXQNA79SjeDo92jSeVIBme/sources/{t}"))})
    };
    if hostile {
        return vec![source(CONTROL), source(CJK), json!({"type": ""})];
    }
    vec![
        source("ip_policy_created.v0"),
        source("ip_policy_updated.v0"),
    ]
}

/// Tunnels of the local agent, with metrics in the agent's units (rates per second,
/// durations in nanoseconds).
pub fn tunnels(hostile: bool) -> Vec<Value> {
    let tunnel = |name: &str, proto: &str, url: &str, metrics: Value| {
        json!({"name": name, "uri": format!("/api/tunnels/{name}"), "public_url": url,
               "proto": proto, "config": {"addr": "http://localhost:8080", "inspect": true},
               "metrics": metrics})
    };
    let busy = json!({
        "conns": {"count": 1289, "gauge": 3, "rate1": 0.4121, "rate5": 0.2873, "rate15": 0.1198,
                  "p50": 12_345_678.0, "p90": 48_120_004.5, "p95": 90_000_000.0, "p99": 1_250_000_000.0},
        "http": {"count": 5120, "rate1": 1.9832, "rate5": 1.2044, "rate15": 0.8001,
                 "p50": 820_000.0, "p90": 3_400_000.0, "p95": 5_000_000.0, "p99": 21_700_000.0}});
    let idle = json!({
        "conns": {"count": 0, "gauge": 0, "rate1": 0, "rate5": 0, "rate15": 0,
                  "p50": 0, "p90": 0, "p95": 0, "p99": 0},
        "http": {"count": 0, "rate1": 0, "rate5": 0, "rate15": 0,
                 "p50": 0, "p90": 0, "p95": 0, "p99": 0}});
    if hostile {
        let mut odd = tunnel(CONTROL, BIDI, CJK, json!({"conns": {"count": "many"}}));
        odd["config"] = json!({"addr": long_text(), "inspect": null,
                               "auth": {"aws_secret_access_key": ECHOED_SECRET}});
        return vec![
            odd,
            json!({"name": "", "proto": "tcp", "public_url": "tcp://1.tcp.tunnel.test:20000",
                   "config": null, "metrics": null}),
        ];
    }
    vec![
        tunnel("web", "https", "https://821fbd3c.tunnel.test", busy),
        tunnel("web (http)", "http", "http://821fbd3c.tunnel.test", idle),
    ]
}

/// Requests captured by the local agent (listed only: their detail view is the exchange's).
pub fn captured_requests(hostile: bool) -> Vec<Value> {
    let captured = |id: &str, method: &str, path: &str, status: Value, from: &str| {
        let response = if status.is_null() {
            Value::Null
        } else {
            json!({"status": format!("{status} OK"), "status_code": status, "proto": "HTTP/1.1",
                   "headers": {}, "raw": ""})
        };
        json!({"uri": format!("/api/requests/http/{id}"), "id": id, "tunnel_name": "web (http)",
               "remote_addr": from, "start": "2026-11-23T14:01:58Z", "duration": 12_345_678,
               "request": {"method": method, "proto": "HTTP/1.1", "headers": {}, "uri": path,
                           "raw": ""},
               "response": response})
    };
    if hostile {
        return vec![
            captured(
                "airt_3MQyB5UWxi6ObKrf63sbrno1uWl",
                CONTROL,
                &format!("/{}", long_text().replace(' ', "/")),
                json!(200),
                BIDI,
            ),
            captured(
                "airt_3MQyB5UWxi6ObKrf63sbrno1uWm",
                "GET",
                CJK,
                Value::Null,
                "",
            ),
        ];
    }
    vec![
        captured(
            "airt_3MQyB5UWxi6ObKrf63sbrno1uWl",
            "POST",
            "/hooks/github?delivery=72d3162e-cc78-11e3-81ab-4c9367dc0958",
            json!(200),
            "203.0.113.7",
        ),
        captured(
            "airt_3MQyB5UWxi6ObKrf63sbrno1uWm",
            "GET",
            "/healthz",
            json!(204),
            "replayed",
        ),
        captured(
            "airt_3MQyB5UWxi6ObKrf63sbrno1uWn",
            "PUT",
            "/api/items/42",
            Value::Null,
            "198.51.100.4",
        ),
    ]
}
