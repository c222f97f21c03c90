//! The agent API's resources and every error shape, over real HTTP: tunnels (legs, config,
//! uri encoding, replacement, random order), the framework errors without `error_code`, the
//! agent's coded errors, media types, and the control surface around the agent.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_support;
mod common;

use agent_support::*;
use common::*;
use serde_json::{json, Value};
use tunnelctl_mock::MockOptions;

/// Asserts the agent's error shape: integer `error_code` (or none for framework errors),
/// `status_code`, `msg`, `details`; JSON with a trailing newline.
fn assert_agent_error(resp: &Resp, status: u16, code: Option<u64>, msg: &str) -> Value {
    assert_eq!(resp.status, status, "{}", resp.text());
    assert_eq!(resp.header("content-type"), Some("application/json"));
    assert!(resp.body.ends_with(b"\n"), "JSON bodies end with a newline");
    let body = resp.json();
    assert_eq!(body["status_code"], status, "{body}");
    assert_eq!(body["msg"], msg, "{body}");
    match code {
        Some(c) => assert_eq!(body["error_code"], c, "{body}"),
        None => assert!(body.get("error_code").is_none(), "{body}"),
    }
    assert!(body["details"].is_object(), "{body}");
    body
}

#[test]
fn agent_url_and_root() {
    let mock = start();
    assert_eq!(
        mock.agent_url(),
        format!("http://127.0.0.1:{}/api", mock.addrs().agent.port())
    );
    assert_ne!(mock.addrs().agent, mock.addrs().management);
    for path in ["/api", "/api/"] {
        let r = agent(&mock, "GET", path, None);
        assert_eq!(r.status, 200);
        assert_eq!(
            r.json(),
            json!({"tunnels_uri": "/api/tunnels", "http_requests_uri": "/api/requests/http"})
        );
    }
    let r = agent(&mock, "GET", "/api/tunnels", None);
    assert_eq!(r.text(), "{\"tunnels\":[],\"uri\":\"/api/tunnels\"}\n");
}

#[test]
fn an_http_tunnel_has_two_legs_with_the_agents_fields() {
    let mock = start();
    let t = start_tunnel(
        &mock,
        json!({"name": "t1", "proto": "http", "addr": "8080"}),
    );
    assert_eq!(t["name"], "t1");
    assert_eq!(t["uri"], "/api/tunnels/t1");
    assert_eq!(t["proto"], "https");
    assert!(
        t["public_url"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://") && u.ends_with(".tunnel.test")),
        "{t}"
    );
    assert_eq!(
        t["config"],
        json!({"addr": "http://localhost:8080", "inspect": true})
    );
    assert_eq!(
        t["metrics"],
        json!({
            "conns": {"count": 0, "gauge": 0, "rate1": 0, "rate5": 0, "rate15": 0, "p50": 0, "p90": 0, "p95": 0, "p99": 0},
            "http": {"count": 0, "rate1": 0, "rate5": 0, "rate15": 0, "p50": 0, "p90": 0, "p95": 0, "p99": 0}
        })
    );
    // The second leg: its name travels percent-encoded, its public URL is its edge.
    let r = agent(&mock, "GET", "/api/tunnels/t1%20%28http%29", None);
    assert_eq!(r.status, 200, "{}", r.text());
    let leg = r.json();
    assert_eq!(leg["name"], "t1 (http)");
    assert_eq!(leg["uri"], "/api/tunnels/t1%20%28http%29");
    assert_eq!(leg["proto"], "http");
    let port = edge_port(&mock, "t1 (http)");
    assert_eq!(leg["public_url"], format!("http://127.0.0.1:{port}"));
    // A trailing slash is accepted.
    assert_eq!(agent(&mock, "GET", "/api/tunnels/t1/", None).status, 200);
}

#[test]
fn addr_forms_and_protocols_normalise_like_the_agent() {
    let mock = start();
    for (proto, addr, shown) in [
        ("http", json!(8080), "http://localhost:8080"),
        ("http", json!("localhost:8080"), "http://localhost:8080"),
        (
            "http",
            json!("http://127.0.0.1:8080"),
            "http://127.0.0.1:8080",
        ),
        (
            "http",
            json!("https://127.0.0.1:8443"),
            "https://127.0.0.1:8443",
        ),
        ("http", json!("abc"), "http://abc:80"),
        ("tcp", json!("22"), "localhost:22"),
        ("tcp", json!("127.0.0.1:22"), "127.0.0.1:22"),
        ("tls", json!("443"), "tls://localhost:443"),
    ] {
        let t = start_tunnel(
            &mock,
            json!({"name": "n", "proto": proto, "addr": addr, "bind_tls": true}),
        );
        assert_eq!(t["config"]["addr"], shown, "{proto} {addr}");
        assert_eq!(t["config"]["inspect"], proto == "http", "{proto}");
    }
    let tcp = start_tunnel(&mock, json!({"name": "ssh", "proto": "tcp", "addr": "22"}));
    let port = edge_port(&mock, "ssh");
    assert_eq!(tcp["public_url"], format!("tcp://127.0.0.1:{port}"));
    // bind_tls picks the legs; subdomain and hostname pick the public host.
    let only_http = start_tunnel(
        &mock,
        json!({"name": "plain", "proto": "http", "addr": "1", "bind_tls": false}),
    );
    assert_eq!(only_http["proto"], "http");
    assert_eq!(only_http["name"], "plain");
    let sub = start_tunnel(
        &mock,
        json!({"name": "s", "proto": "http", "addr": "1", "subdomain": "abc", "auth": "u:p", "unknown": {"x": 1}}),
    );
    assert_eq!(sub["public_url"], "https://abc.tunnel.test");
    let host = start_tunnel(
        &mock,
        json!({"name": "h", "proto": "http", "addr": "1", "hostname": "foo.example.com"}),
    );
    assert_eq!(host["public_url"], "https://foo.example.com");
    let names = tunnel_names(&agent(&mock, "GET", "/api/tunnels", None).json());
    assert!(!names.contains(&"plain (http)".to_string()), "{names:?}");
    assert!(names.contains(&"s (http)".to_string()), "{names:?}");
}

#[test]
fn same_name_replaces_and_delete_stops_one_leg() {
    let mock = start();
    start_tunnel(
        &mock,
        json!({"name": "t1", "proto": "http", "addr": "8080"}),
    );
    let old_port = edge_port(&mock, "t1");
    let t = start_tunnel(&mock, json!({"name": "t1", "proto": "tcp", "addr": "23"}));
    assert_eq!(t["proto"], "tcp");
    assert_ne!(edge_port(&mock, "t1"), old_port);
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", old_port)).is_err(),
        "the replaced leg no longer listens"
    );
    let r = agent(&mock, "DELETE", "/api/tunnels/t1", None);
    assert_eq!(r.status, 204);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.body.is_empty());
    let list = agent(&mock, "GET", "/api/tunnels", None).json();
    assert_eq!(
        tunnel_names(&list),
        ["t1 (http)"],
        "DELETE removes that leg only"
    );
    let gone = agent(&mock, "GET", "/api/tunnels/t1", None);
    let body = assert_agent_error(&gone, 404, Some(100), "tunnel not found");
    assert_eq!(body["details"]["name"], "t1");
}

#[test]
fn the_tunnel_list_comes_in_random_order() {
    let mock = start();
    let names: Vec<String> = (0..8).map(|i| format!("t{i}")).collect();
    for n in &names {
        start_tunnel(&mock, json!({"name": n, "proto": "tcp", "addr": "1"}));
    }
    let mut orders = std::collections::HashSet::new();
    for _ in 0..20 {
        let list = agent(&mock, "GET", "/api/tunnels", None).json();
        let got = tunnel_names(&list);
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(sorted, names, "same set every time");
        orders.insert(got);
    }
    assert!(orders.len() > 1, "the order changes between calls");
}

#[test]
fn names_are_percent_encoded_in_uri_and_unescaped_twice_on_the_way_in() {
    let mock = start();
    let t = start_tunnel(&mock, json!({"name": "é x;y", "proto": "tcp", "addr": "1"}));
    assert_eq!(t["uri"], "/api/tunnels/%C3%A9%20x%3By");
    assert_eq!(
        agent(&mock, "GET", "/api/tunnels/%C3%A9%20x%3By", None).status,
        200
    );
    // A name with '%' cannot be addressed: the agent unescapes it a second time.
    let t = start_tunnel(&mock, json!({"name": "z%", "proto": "tcp", "addr": "1"}));
    assert_eq!(t["uri"], "/api/tunnels/z%25");
    let r = agent(&mock, "GET", "/api/tunnels/z%25", None);
    let body = assert_agent_error(&r, 400, Some(108), "failed to unescape tunnel name");
    assert_eq!(body["details"]["err"], "invalid URL escape \"%\"");
    let r = agent(&mock, "GET", "/api/tunnels/p%2520q", None);
    assert_eq!(
        assert_agent_error(&r, 404, Some(100), "tunnel not found")["details"]["name"],
        "p q"
    );
    // A '/' inside a name makes another path.
    let r = agent(&mock, "GET", "/api/tunnels/a%2Fb", None);
    let body = assert_agent_error(&r, 404, None, "Not Found");
    assert_eq!(body["details"]["path"], "/api/tunnels/a/b");
    // A bad escape in the path never reaches the API.
    let r = agent(&mock, "GET", "/api/tunnels/%zz", None);
    assert_eq!(r.status, 400);
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(r.text(), "400 Bad Request");
}

#[test]
fn invalid_tunnel_definitions_are_102_with_the_agents_messages() {
    let mock = start();
    for (body, err) in [
        (json!({"name": "t5", "proto": "gopher", "addr": "8080"}), "Invalid protocol name 'gopher'".to_string()),
        (json!({"name": "t5", "proto": "http"}), "Tunnel 't5' must specify 'addr' to tunnel to".to_string()),
        (json!({"proto": "http", "addr": "8080"}), "Tunnel declaration must contain a 'name'".to_string()),
        (json!({"name": "t5", "addr": "8080"}), "Invalid protocol name ''".to_string()),
        (json!({"name": "t5", "proto": "tcp", "addr": "80", "inspect": true}), "TCP tunnel 't5' cannot inspect traffic".to_string()),
        (json!({"name": "t5", "proto": "http", "addr": "80", "bind_tls": "x"}), "HTTP tunnel 't5' specifies invalid 'bind_tls': x".to_string()),
        (json!({"name": "t5", "proto": "http", "addr": "a b c:::"}), "Tunnel 't5' specifies an invalid or malformed address 'a b c:::': strange hostname".to_string()),
        (json!({"name": "t5", "proto": "http", "addr": "ftp://x:1"}), "Tunnel 't5' specifies a URL with an unsupported scheme: ftp".to_string()),
        (json!({"name": "t5", "proto": "tcp", "addr": "host"}), "Tunnel 't5' specifies an invalid or malformed address: host".to_string()),
        (json!({"name": "t5", "proto": "http", "addr": "80", "inspect": "yes"}), "yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `yes` into bool".to_string()),
        (json!({"name": 7, "proto": "tcp", "addr": "80"}), "json: cannot unmarshal number into Go struct field .name of type string".to_string()),
        (json!([]), "json: cannot unmarshal array into Go value of type struct { Proto string \"json:\\\"proto\\\"\"; Name string \"json:\\\"name\\\"\" }".to_string()),
    ] {
        let r = post_tunnel(&mock, body.clone());
        let got = assert_agent_error(&r, 400, Some(102), "invalid tunnel configuration");
        assert_eq!(got["details"]["err"], err, "{body}");
    }
    // An XML body gives the agent nothing to decode.
    let r = post_typed(&mock, "application/xml", b"<tunnel/>");
    assert_eq!(
        assert_agent_error(&r, 400, Some(102), "invalid tunnel configuration")["details"]["err"],
        "unexpected end of JSON input"
    );
}

#[test]
fn not_ready_is_104_and_a_start_failure_is_103() {
    let mock = start_with(MockOptions {
        agent_ready: false,
        ..MockOptions::default()
    });
    let body = json!({"name": "t1", "proto": "http", "addr": "8080"});
    let r = post_tunnel(&mock, body.clone());
    let e = assert_agent_error(
        &r,
        503,
        Some(104),
        "ngrok is not yet ready to start tunnels",
    );
    assert_eq!(
        e["details"]["err"],
        "a successful ngrok tunnel session has not yet been established"
    );
    // Validation comes first.
    let r = post_tunnel(&mock, json!({"name": "x", "proto": "gopher"}));
    assert_eq!(r.status, 400);
    mock.configure(json!({"agent_ready": true, "tunnel_start_error": "the session went away"}));
    let r = post_tunnel(&mock, body.clone());
    let e = assert_agent_error(&r, 502, Some(103), "failed to start tunnel");
    assert_eq!(e["details"]["err"], "the session went away");
    let cfg = ctl_post(&mock, "/_mock/config", json!({"tunnel_start_error": null})).json();
    assert_eq!(cfg["agent_ready"], true);
    assert_eq!(cfg["tunnel_start_error"], Value::Null);
    assert_eq!(cfg["pending_response"], "object");
    assert_eq!(post_tunnel(&mock, body).status, 201);
    mock.configure(json!({"agent_ready": false}));
    let r = post_tunnel(&mock, json!({"name": "t2", "proto": "tcp", "addr": "1"}));
    assert_eq!(r.status, 503);
}

#[test]
fn unknown_ids_and_names_are_404_with_codes() {
    let mock = start();
    let r = agent(&mock, "GET", "/api/tunnels/nope", None);
    assert_eq!(
        assert_agent_error(&r, 404, Some(100), "tunnel not found")["details"],
        json!({"name": "nope"})
    );
    let r = agent(&mock, "DELETE", "/api/tunnels/nope", None);
    assert_agent_error(&r, 404, Some(100), "tunnel not found");
    let r = agent(&mock, "GET", "/api/requests/http/airt_nope", None);
    assert_eq!(
        assert_agent_error(&r, 404, Some(106), "request entry not found")["details"],
        json!({"id": "airt_nope"})
    );
    let r = replay(&mock, json!({"id": "airt_nope"}));
    assert_agent_error(&r, 404, Some(106), "request entry not found");
    let r = replay(&mock, json!({}));
    assert_eq!(
        assert_agent_error(&r, 404, Some(106), "request entry not found")["details"]["id"],
        ""
    );
}

#[test]
fn framework_errors_have_no_error_code() {
    let mock = start();
    // Bodies that do not decode.
    for (body, err) in [
        (&b""[..], "EOF"),
        (
            &b"not json"[..],
            "invalid character 'o' in literal null (expecting 'u')",
        ),
        (
            &b"{x"[..],
            "invalid character 'x' looking for beginning of object key string",
        ),
    ] {
        for path in ["/api/tunnels", "/api/requests/http"] {
            let r = post_bytes(&mock, path, body);
            let e = assert_agent_error(&r, 400, None, "failed to deserialize request parameter");
            assert_eq!(e["details"]["err"], err, "{path} {body:?}");
        }
    }
    let r = replay(&mock, json!({"id": 5}));
    assert_eq!(
        assert_agent_error(&r, 400, None, "failed to deserialize request parameter")["details"]
            ["err"],
        "json: cannot unmarshal number into Go struct field playRequestInput.id of type string"
    );
    // Query parameters of the request list.
    for (query, err) in [
        ("limit=abc", "param: error parsing key \"limit\" as int: strconv.ParseInt: parsing \"abc\": invalid syntax"),
        ("foo=1", "param: error parsing key \"foo\": unknown field \"foo\" on struct \"foo\" of type web.getRequestsParam"),
        ("limit=1&limit=2", "param: error parsing key \"limit\": expected single value but was given 2: [1 2]"),
    ] {
        let r = agent(&mock, "GET", &format!("/api/requests/http?{query}"), None);
        let e = assert_agent_error(&r, 400, None, "failed to deserialize request parameter");
        assert_eq!(e["details"]["err"], err, "{query}");
    }
    // Unknown paths.
    for path in [
        "/api/nothing",
        "/api/status",
        "/api/requests",
        "/api//tunnels",
        "/foo",
    ] {
        let r = agent(&mock, "GET", path, None);
        let e = assert_agent_error(&r, 404, None, "Not Found");
        assert_eq!(e["details"]["path"], path);
    }
    // Wrong methods.
    for (method, path, allow) in [
        ("PUT", "/api/tunnels", "POST, GET"),
        ("PATCH", "/api/tunnels/t1", "GET, DELETE"),
        ("PUT", "/api/requests/http", "GET, POST, DELETE"),
        ("DELETE", "/api/requests/http/airt_x", "GET"),
    ] {
        let r = agent(&mock, method, path, None);
        let e = assert_agent_error(&r, 405, None, "Method Not Allowed");
        assert_eq!(r.header("allow"), Some(allow));
        assert_eq!(e["details"], json!({"allowed": allow, "method": method}));
    }
    // Accept it cannot serve: 406, before routing.
    for path in ["/api/tunnels", "/api/nothing"] {
        let r = accept(&mock, path, "text/html");
        let e = assert_agent_error(&r, 406, None, "unsupported request Accept header");
        assert_eq!(
            e["details"],
            json!({"accept-header": "text/html", "supported": ["application/json", "text/xml", "application/xml"]})
        );
    }
    // POST without a JSON content type: 415.
    for ct in [None, Some("text/plain"), Some("APPLICATION/JSON")] {
        let headers: Vec<(&str, &str)> = ct.map(|c| vec![("Content-Type", c)]).unwrap_or_default();
        let r = agent_raw(&mock, "POST", "/api/tunnels", &headers, b"{}");
        let e = assert_agent_error(&r, 415, None, "unsupported request Content-Type");
        assert_eq!(e["details"]["content-type"], ct.unwrap_or(""));
        assert_eq!(
            e["details"]["available"],
            json!(["application/json", "text/xml", "application/xml"])
        );
    }
    // Parameters on the content type are fine; the body's first value is all that is read.
    let r = post_typed(
        &mock,
        "application/json; charset=utf-8",
        b"{\"name\":\"cs\",\"proto\":\"tcp\",\"addr\":\"1\"} trailing",
    );
    assert_eq!(r.status, 201, "{}", r.text());
}

#[test]
fn xml_is_answered_when_asked_for() {
    let mock = start();
    start_tunnel(&mock, json!({"name": "t1", "proto": "tcp", "addr": "8080"}));
    let r = accept(&mock, "/api/tunnels/t1", "application/xml");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/xml"));
    let text = r.text();
    assert!(
        text.starts_with("<tunnelResource><Name>t1</Name><URI>/api/tunnels/t1</URI>"),
        "{text}"
    );
    assert!(
        text.contains("<Config><Addr>localhost:8080</Addr><Inspect>false</Inspect></Config>"),
        "{text}"
    );
    let r = accept(&mock, "/api/tunnels", "text/xml");
    assert_eq!(r.header("content-type"), Some("text/xml"));
    assert!(
        r.text().starts_with("<tunnelListResource><Tunnels>"),
        "{}",
        r.text()
    );
    assert!(r
        .text()
        .ends_with("<URI>/api/tunnels</URI></tunnelListResource>"));
    let r = accept(&mock, "/api/tunnels/nope", "application/xml");
    assert_eq!(r.status, 404);
    assert_eq!(
        r.text(),
        "<Error><ErrorCode>100</ErrorCode><StatusCode>404</StatusCode><Message>tunnel not found</Message></Error>"
    );
    let r = accept(&mock, "/api/nothing", "application/xml");
    assert_eq!(
        r.text(),
        "<Error><StatusCode>404</StatusCode><Message>Not Found</Message></Error>"
    );
    let r = accept(&mock, "/api/requests/http", "application/xml");
    assert_eq!(
        r.text(),
        "<requestListResource><URI>/api/requests/http</URI></requestListResource>"
    );
    // Maps cannot be written as XML: the agent answers 200 with an error inside.
    let r = accept(&mock, "/api", "application/xml");
    assert_eq!(r.status, 200);
    assert!(r.text().contains("failed to encode response"));
    // JSON still wins a tie.
    let r = accept(&mock, "/api/tunnels", "application/xml, application/json");
    assert_eq!(r.header("content-type"), Some("application/json"));
}

#[test]
fn the_agent_request_log_and_faults() {
    let mock = start();
    agent_raw(&mock, "GET", "/api/tunnels?x=1", &[("X-Test", "1")], b"");
    post_tunnel(&mock, json!({"name": "t", "proto": "tcp", "addr": "1"}));
    let log = mock.agent_requests();
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].method, "GET");
    assert_eq!(log[0].path, "/api/tunnels");
    assert_eq!(log[0].query.as_deref(), Some("x=1"));
    assert_eq!(log[0].header("x-test"), Some("1"));
    assert_eq!(
        log[1].body_json(),
        Some(json!({"name": "t", "proto": "tcp", "addr": "1"}))
    );
    assert!(mock.requests().is_empty(), "the management log is separate");
    let over_http = control(&mock, "GET", "/_mock/agent/requests-log", None).json();
    assert_eq!(over_http[1]["body"]["name"], "t");
    assert_eq!(
        control(&mock, "DELETE", "/_mock/agent/requests-log", None).status,
        204
    );
    assert!(mock.agent_requests().is_empty());
    // Faults on /api paths apply to the agent.
    mock.inject(json!({"path": "/api/tunnels", "status": 500, "body": "boom", "count": 1}));
    let r = agent(&mock, "GET", "/api/tunnels", None);
    assert_eq!(r.status, 500);
    assert_eq!(r.text(), "boom");
    assert_eq!(agent(&mock, "GET", "/api/tunnels", None).status, 200);
    // Reset stops the tunnels and forgets the log.
    let port = edge_port(&mock, "t");
    mock.reset();
    assert!(mock.agent_requests().is_empty());
    assert_eq!(
        control(&mock, "GET", "/_mock/agent/edges", None).json(),
        json!([])
    );
    // The listener is dropped with its tunnel's task, which the runtime ends a moment later.
    poll(
        "the stopped tunnel's port to refuse connections",
        || std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        |refused| *refused,
    );
    // Unknown agent control paths.
    assert_eq!(control(&mock, "GET", "/_mock/agent/nope", None).status, 404);
    assert_eq!(
        control(&mock, "PUT", "/_mock/agent/edges", None).status,
        405
    );
}

#[test]
fn dropping_the_mock_stops_its_tunnels() {
    let mock = start();
    start_tunnel(&mock, json!({"name": "t", "proto": "http", "addr": "1"}));
    let ports = [edge_port(&mock, "t"), edge_port(&mock, "t (http)")];
    let agent_addr = mock.addrs().agent;
    drop(mock);
    for port in ports {
        assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_err());
    }
    assert!(std::net::TcpStream::connect(agent_addr).is_err());
}

#[test]
fn odd_input_never_breaks_the_agent() {
    let mock = start();
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let bodies: Vec<Vec<u8>> = vec![
        vec![0xff, 0xfe, b'{'],
        b"{\"name\":\"\xff\xfe\",\"proto\":\"tcp\",\"addr\":\"1\"}".to_vec(),
        deep.into_bytes(),
        b"{\"name\":\"x\",\"proto\":\"http\",\"addr\":\"tls:x\xc3\xa9\"}".to_vec(),
        b"{\"name\":\"x\",\"proto\":\"tls\",\"addr\":\"tls:x\xc3\xa9\"}".to_vec(),
        b"{\"name\":\"x\",\"proto\":\"http\",\"addr\":\"[\"}".to_vec(),
        b"{\"name\":\"x\",\"proto\":\"http\",\"addr\":\"http://[\"}".to_vec(),
        b"{\"name\":\"x\",\"proto\":\"http\",\"addr\":1e400}".to_vec(),
        b"{\"id\":\"\\ud800\"}".to_vec(),
        b"\"\\u00".to_vec(),
    ];
    for body in &bodies {
        for path in ["/api/tunnels", "/api/requests/http"] {
            let r = post_bytes(&mock, path, body);
            assert!(r.status < 500 || r.status == 502, "{path}: {}", r.text());
        }
    }
    for target in [
        "/api/requests/http?limit=%",
        "/api/requests/http?&&=&limit",
        "/api/tunnels/%C3",
        "/api/tunnels/%",
        "/api/requests/http/%3F",
    ] {
        let r = agent(&mock, "GET", target, None);
        assert!(r.status < 500, "{target}: {}", r.text());
    }
    // Garbage through a tunnel is passed on as bytes, like the agent does.
    let up = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("bind");
    let port = up.local_addr().expect("addr").port();
    start_tunnel(
        &mock,
        json!({"name": "g", "proto": "http", "addr": port, "bind_tls": true}),
    );
    let edge = edge_port(&mock, "g");
    let echo = std::thread::spawn(move || {
        use std::io::{Read, Write};
        if let Ok((mut s, _)) = up.accept() {
            let mut buf = [0u8; 64];
            if let Ok(n) = s.read(&mut buf) {
                let _ = s.write_all(&buf[..n]);
            }
        }
    });
    let out = visit_raw(
        edge,
        b"\x00\x01 NOT HTTP\r\n\r\n",
        std::time::Duration::from_secs(5),
    );
    assert_eq!(out, b"\x00\x01 NOT HTTP\r\n\r\n");
    let _ = echo.join();
    assert_eq!(
        agent(&mock, "GET", "/api/tunnels", None).status,
        200,
        "still answering"
    );
}
