//! One happy path per resource, plus each resource's validation rules.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use serde_json::{json, Value};

fn is_id(v: &Value, prefix: &str) -> bool {
    v.as_str()
        .is_some_and(|s| s.starts_with(prefix) && s.len() == prefix.len() + 27)
}

#[test]
fn ip_policy_crud() {
    let mock = start();
    let fields = json!({"description": "office", "metadata": "{\"a\":1}"});
    let r = post(&mock, "/ip_policies", fields);
    assert_eq!(r.status, 201, "{}", r.text());
    let p = r.json();
    assert!(is_id(&p["id"], "ipp_"), "{p}");
    let id = str_of(&p["id"]);
    assert_eq!(p["uri"], format!("{}/ip_policies/{id}", mock.url()));
    assert_eq!(p["description"], "office");
    assert!(
        p["created_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z') && t.len() == 20),
        "{p}"
    );
    let keys: Vec<&str> = p
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(keys, ["id", "uri", "created_at", "description", "metadata"]);

    let r = patch(
        &mock,
        &format!("/ip_policies/{id}"),
        json!({"metadata": "m2"}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["description"],
        "office",
        "PATCH keeps fields not given"
    );
    assert_eq!(r.json()["metadata"], "m2");
    assert_eq!(
        get(&mock, &format!("/ip_policies/{id}")).json()["metadata"],
        "m2"
    );

    let r = delete(&mock, &format!("/ip_policies/{id}"));
    assert_eq!(r.status, 204);
    assert!(r.body.is_empty());
    assert_error(&get(&mock, &format!("/ip_policies/{id}")), 404);
    assert_error(&delete(&mock, &format!("/ip_policies/{id}")), 404);
}

#[test]
fn byte_limits_for_ip_policies_and_destinations() {
    let mock = start();
    let full = json!({"description": "a".repeat(255), "metadata": "m".repeat(4096)});
    let ok = post(&mock, "/ip_policies", full);
    assert_eq!(ok.status, 201);
    let id = str_of(&ok.json()["id"]);
    // 128 two-byte characters are 256 bytes: too long although only 128 characters.
    let two_byte = json!({"description": "é".repeat(128)});
    for (method, target, body, field) in [
        (
            "POST",
            "/ip_policies".to_string(),
            json!({"description": "a".repeat(256)}),
            "description",
        ),
        (
            "POST",
            "/ip_policies".to_string(),
            json!({"metadata": "m".repeat(4097)}),
            "metadata",
        ),
        (
            "POST",
            "/ip_policies".to_string(),
            two_byte.clone(),
            "description",
        ),
        (
            "PATCH",
            format!("/ip_policies/{id}"),
            two_byte,
            "description",
        ),
    ] {
        assert_bad_field(&api(&mock, method, &target, Some(body)), field);
    }
}

#[test]
fn char_limits_for_subscriptions() {
    let mock = start();
    // 255 characters of two bytes each: 510 bytes, still within a 255-character limit.
    let full = json!({"description": "é".repeat(255), "metadata": "é".repeat(4096)});
    let r = post(&mock, "/event_subscriptions", full);
    assert_eq!(r.status, 201, "{}", r.text());
    for (body, field) in [
        (json!({"description": "é".repeat(256)}), "description"),
        (json!({"metadata": "x".repeat(4097)}), "metadata"),
    ] {
        assert_bad_field(&post(&mock, "/event_subscriptions", body), field);
    }
}

#[test]
fn backends_match_tunnels_and_show_the_labels_null_quirk() {
    let mock = start();
    let seeded = mock.seed(json!({"tunnels": [
        {"labels": {"env": "prod", "app": "web"}},
        {"labels": {"env": "staging", "app": "web"}},
    ]}));
    let prod_tunnel = str_of(&seeded["tunnels"][0]);
    let r = post(
        &mock,
        "/backends/tunnel_group",
        json!({"description": "web", "metadata": "", "labels": {"env": "prod"}}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let b = r.json();
    assert!(is_id(&b["id"], "bkdtg_"));
    assert_eq!(b["labels"], json!({"env": "prod"}));
    assert_eq!(
        b["tunnels"],
        json!([{"id": prod_tunnel, "uri": format!("{}/tunnels/{prod_tunnel}", mock.url())}])
    );
    let id = str_of(&b["id"]);
    let path = format!("/backends/tunnel_group/{id}");

    let r = patch(&mock, &path, json!({"description": "renamed"}));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["labels"], Value::Null, "the API reference's quirk");
    assert_eq!(
        get(&mock, &path).json()["labels"],
        json!({"env": "prod"}),
        "labels kept"
    );

    let r = patch(&mock, &path, json!({"labels": {"app": "web"}}));
    assert_eq!(r.json()["labels"], json!({"app": "web"}));
    assert_eq!(r.json()["tunnels"].as_array().map(Vec::len), Some(2));

    let r = post(
        &mock,
        "/backends/tunnel_group",
        json!({"description": "none"}),
    );
    assert_eq!(r.json()["tunnels"], json!([]), "no labels match no tunnels");
    assert_eq!(r.json()["labels"], json!({}));
    assert_error(
        &post(&mock, "/backends/tunnel_group", json!({"labels": {"a": 1}})),
        400,
    );

    let list = get(&mock, "/backends/tunnel_group").json();
    assert_eq!(list["backends"].as_array().map(Vec::len), Some(2));
    assert_eq!(delete(&mock, &path).status, 204);
}

#[test]
fn tls_termination_module() {
    let mock = start();
    let seeded = mock.seed(json!({"tls_edges": [{"module": null}, {"module": {"enabled": true, "terminate_at": "edge", "min_version": "1.2"}}]}));
    let bare = str_of(&seeded["tls_edges"][0]);
    let with = str_of(&seeded["tls_edges"][1]);
    let path = |e: &str| format!("/edges/tls/{e}/tls_termination");

    let body = assert_error(&get(&mock, &path(&bare)), 404);
    assert!(body["msg"]
        .as_str()
        .unwrap_or("")
        .contains("no tls_termination module"));
    assert_eq!(
        get(&mock, &path(&with)).json(),
        json!({"enabled": true, "terminate_at": "edge", "min_version": "1.2"})
    );

    let r = put(&mock, &path(&bare), json!({"terminate_at": "upstream"}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"enabled": true, "terminate_at": "upstream", "min_version": null})
    );
    for (body, field) in [
        (
            json!({"terminate_at": "upstream", "min_version": "1.2"}),
            "min_version",
        ),
        (json!({"terminate_at": "middle"}), ""),
        (json!({"min_version": "1.4"}), ""),
    ] {
        let r = put(&mock, &path(&bare), body);
        match field {
            "" => drop(assert_error(&r, 400)),
            field => assert_bad_field(&r, field),
        }
    }

    assert_eq!(delete(&mock, &path(&bare)).status, 204);
    assert_error(&delete(&mock, &path(&bare)), 404);
    assert_error(&get(&mock, &path("edgtls_unknown")), 404);
}

#[test]
fn event_destinations() {
    let mock = start();
    let r = post(
        &mock,
        "/event_destinations",
        json!({
            "description": "audit", "format": "json",
            "target": {"kinesis": {"auth": {"creds": {"aws_access_key_id": "AKIA1", "aws_secret_access_key": "s3cr3t"}}, "stream_arn": "arn:aws:kinesis:x"}},
        }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(!r.text().contains("s3cr3t"), "the secret is never echoed");
    let d = r.json();
    assert!(is_id(&d["id"], "ed_"));
    assert_eq!(d["format"], "json");
    assert_eq!(
        d["target"],
        json!({
            "firehose": null,
            "kinesis": {"auth": {"role": null, "creds": {"aws_access_key_id": "AKIA1", "aws_secret_access_key": null}}, "stream_arn": "arn:aws:kinesis:x"},
            "cloudwatch_logs": null,
            "datadog": null,
        })
    );
    let id = str_of(&d["id"]);

    let role = json!({"role": {"role_arn": "arn:aws:iam::1:role/r"}});
    // Default format is json.
    let r = post(
        &mock,
        "/event_destinations",
        json!({"target": {"firehose": {"auth": role, "delivery_stream_arn": "arn:f"}}}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["format"], "json");

    let bad = [
        json!({"format": "xml", "target": {"firehose": {"auth": role, "delivery_stream_arn": "a"}}}),
        json!({"target": {}}),
        json!({"target": {"firehose": {"auth": role, "delivery_stream_arn": "a"}, "kinesis": {"auth": role, "stream_arn": "b"}}}),
        json!({"target": {"kinesis": {"auth": {}, "stream_arn": "b"}}}),
        json!({"target": {"kinesis": {"auth": {"role": {"role_arn": "r"}, "creds": {"aws_access_key_id": "a", "aws_secret_access_key": "b"}}, "stream_arn": "b"}}}),
        json!({"target": {"cloudwatch_logs": {"auth": role}}}),
        json!({"target": {"kinesis": {"auth": role, "stream_arn": "b", "extra": 1}}}),
        json!({"description": "x".repeat(256), "target": {"kinesis": {"auth": role, "stream_arn": "b"}}}),
    ];
    for b in bad {
        assert_error(&post(&mock, "/event_destinations", b.clone()), 400);
    }

    let renamed = json!({"description": "renamed"});
    let r = patch(&mock, &format!("/event_destinations/{id}"), renamed);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["target"]["kinesis"]["stream_arn"],
        "arn:aws:kinesis:x"
    );

    let sub = post(
        &mock,
        "/event_subscriptions",
        json!({"destination_ids": [id]}),
    )
    .json();
    let sub_id = str_of(&sub["id"]);
    let body = assert_error(&delete(&mock, &format!("/event_destinations/{id}")), 400);
    assert!(
        body["msg"].as_str().unwrap_or("").contains(&sub_id),
        "{body}"
    );
    assert_deleted(&mock, &format!("/event_subscriptions/{sub_id}"));
    assert_deleted(&mock, &format!("/event_destinations/{id}"));
}

#[test]
fn event_subscriptions_and_sources() {
    let mock = start();
    let seeded = mock.seed(json!({"event_destinations": [
        {"target": {"kinesis": {"auth": {"role": {"role_arn": "r"}}, "stream_arn": "s"}}}
    ]}));
    let ed = str_of(&seeded["event_destinations"][0]);
    let body = assert_error(
        &post(
            &mock,
            "/event_subscriptions",
            json!({"destination_ids": ["ed_nope"]}),
        ),
        400,
    );
    assert!(body["msg"].as_str().unwrap_or("").contains("ed_nope"));

    let r = post(
        &mock,
        "/event_subscriptions",
        json!({
            "description": "d", "metadata": "m",
            "sources": [{"type": "ip_policy_created.v0"}], "destination_ids": [ed],
        }),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let s = r.json();
    assert!(is_id(&s["id"], "esb_"));
    let id = str_of(&s["id"]);
    let base = mock.url();
    assert_eq!(
        s["sources"],
        json!([{"type": "ip_policy_created.v0", "uri": format!("{base}/event_subscriptions/{id}/sources/ip_policy_created.v0")}])
    );
    assert_eq!(
        s["destinations"],
        json!([{"id": ed, "uri": format!("{base}/event_destinations/{ed}")}])
    );

    let r = patch(
        &mock,
        &format!("/event_subscriptions/{id}"),
        json!({"description": "d2"}),
    );
    assert_eq!(
        r.json()["sources"].as_array().map(Vec::len),
        Some(1),
        "PATCH keeps sources"
    );
    assert_eq!(r.json()["metadata"], "m");

    let sources = format!("/event_subscriptions/{id}/sources");
    let r = post(&mock, &sources, json!({"type": "ip policy/odd"}));
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(
        r.json()["uri"],
        format!("{base}/event_subscriptions/{id}/sources/ip%20policy%2Fodd")
    );
    assert_error(
        &post(&mock, &sources, json!({"type": "ip_policy_created.v0"})),
        400,
    );

    let list = get(&mock, &sources).json();
    assert_eq!(list["uri"], format!("{base}{sources}"));
    assert_eq!(list["sources"].as_array().map(Vec::len), Some(2));
    assert!(
        list.get("next_page_uri").is_none(),
        "the sources list is not paged"
    );

    let encoded = format!("{sources}/ip%20policy%2Fodd");
    assert_eq!(get(&mock, &encoded).json()["type"], "ip policy/odd");
    assert_eq!(patch(&mock, &encoded, json!({})).status, 200);
    assert_error(&patch(&mock, &encoded, json!({"type": "x"})), 400);
    assert_eq!(delete(&mock, &encoded).status, 204);
    assert_error(&get(&mock, &encoded), 404);
    assert_error(&get(&mock, &format!("{sources}/unknown.v0")), 404);

    let r = patch(
        &mock,
        &format!("/event_subscriptions/{id}"),
        json!({"sources": [], "destination_ids": []}),
    );
    assert_eq!(r.json()["sources"], json!([]));
    assert_eq!(r.json()["destinations"], json!([]));
    assert_deleted(&mock, &format!("/event_subscriptions/{id}"));
}

#[test]
fn sessions_render_like_the_api_reference() {
    let mock = start();
    let seeded = mock.seed(json!({"sessions": [
        {"region": "eu", "os": "darwin", "agent_version": "3.18.4", "ip": "192.0.2.1", "credential_id": "cr_abc"},
        {"metadata": "host-2"},
    ]}));
    let plain = str_of(&seeded["sessions"][0]);
    let s = get(&mock, &format!("/tunnel_sessions/{plain}")).json();
    let base = mock.url();
    assert_eq!(
        s,
        json!({
            "id": plain, "uri": format!("{base}/tunnel_sessions/{plain}"), "agent_version": "3.18.4",
            "credential": {"id": "cr_abc", "uri": format!("{base}/credentials/cr_abc")},
            "ip": "192.0.2.1", "os": "darwin", "region": "eu",
            "started_at": s["started_at"], "transport": "service/v2",
        })
    );
    assert!(s.get("metadata").is_none(), "metadata omitted when empty");
    let with_meta = str_of(&seeded["sessions"][1]);
    assert_eq!(
        get(&mock, &format!("/tunnel_sessions/{with_meta}")).json()["metadata"],
        "host-2"
    );
    let list = get(&mock, "/tunnel_sessions").json();
    assert_eq!(list["tunnel_sessions"][0]["id"], with_meta, "newest first");
    assert_eq!(list["uri"], format!("{base}/tunnel_sessions"));
    assert_eq!(list["next_page_uri"], Value::Null);
}

#[test]
fn extra_fields_appear_on_every_resource() {
    let mock = start();
    mock.configure(json!({"extra_fields": true}));
    mock.seed(json!({"demo": true}));
    let extra = json!({"added": "later", "n": [1, 2]});
    let list = get(&mock, "/ip_policies").json();
    assert_eq!(list["ip_policies"][0]["x_future_field"], extra);
    assert!(
        list.get("x_future_field").is_none(),
        "only on resources, not envelopes"
    );
    let sessions = get(&mock, "/tunnel_sessions").json();
    assert_eq!(sessions["tunnel_sessions"][0]["x_future_field"], extra);
    let created = post(&mock, "/ip_policies", json!({})).json();
    assert_eq!(created["x_future_field"], extra);
}
