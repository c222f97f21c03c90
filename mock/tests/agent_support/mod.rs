//! Helpers for the agent API tests: requests to the agent's port, the control surface, a
//! tiny upstream HTTP server, and visits through a tunnel's edge port.
//!
//! Everything speaks HTTP/1.1 over std's `TcpStream` (through `common::raw` where a
//! request-response is enough), so the bytes on the wire are exactly the ones written here.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};
use tunnelctl_mock::Mock;

use crate::common::{control, field_strs, poll, raw, read_until_closed, Resp};

/// `http://127.0.0.1:PORT` of the agent listener (the API is under `/api`).
pub fn agent_base(mock: &Mock) -> String {
    format!("http://{}", mock.addrs().agent)
}

/// A request to the agent API; `body` is sent as JSON when given.
pub fn agent(mock: &Mock, method: &str, target: &str, body: Option<Value>) -> Resp {
    match body {
        Some(v) => raw(
            &agent_base(mock),
            method,
            target,
            &[("Content-Type", "application/json")],
            &serde_json::to_vec(&v).unwrap_or_default(),
        ),
        None => raw(&agent_base(mock), method, target, &[], b""),
    }
}

/// A request to the agent API with exact headers and body bytes.
pub fn agent_raw(
    mock: &Mock,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    raw(&agent_base(mock), method, target, headers, body)
}

/// `POST /api/tunnels` with `body`.
pub fn post_tunnel(mock: &Mock, body: Value) -> Resp {
    agent(mock, "POST", "/api/tunnels", Some(body))
}

/// `POST /api/requests/http` (a replay) with `body`.
pub fn replay(mock: &Mock, body: Value) -> Resp {
    agent(mock, "POST", "/api/requests/http", Some(body))
}

/// A GET of the agent API with one `Accept` header.
pub fn accept(mock: &Mock, target: &str, accept: &str) -> Resp {
    agent_raw(mock, "GET", target, &[("Accept", accept)], b"")
}

/// A POST of raw bytes to the agent API as `application/json`.
pub fn post_bytes(mock: &Mock, target: &str, body: &[u8]) -> Resp {
    agent_raw(
        mock,
        "POST",
        target,
        &[("Content-Type", "application/json")],
        body,
    )
}

/// The names in a tunnel list.
pub fn tunnel_names(list: &Value) -> Vec<String> {
    let names = field_strs(&list["tunnels"], "name");
    names.into_iter().map(str::to_string).collect()
}

/// `POST /api/tunnels` with these body bytes under this `Content-Type`.
pub fn post_typed(mock: &Mock, content_type: &str, body: &[u8]) -> Resp {
    agent_raw(
        mock,
        "POST",
        "/api/tunnels",
        &[("Content-Type", content_type)],
        body,
    )
}

/// Starts a tunnel `name` of `proto` to `addr`, with the `extra` fields of the definition.
pub fn tunnel(mock: &Mock, name: &str, proto: &str, addr: impl Into<Value>, extra: Value) -> Value {
    let mut def = json!({"name": name, "proto": proto, "addr": addr.into()});
    if let (Some(def), Value::Object(extra)) = (def.as_object_mut(), extra) {
        def.extend(extra);
    }
    start_tunnel(mock, def)
}

/// Starts a tunnel and returns the 201 body.
pub fn start_tunnel(mock: &Mock, body: Value) -> Value {
    let r = post_tunnel(mock, body);
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

/// The edge port of a leg, from `GET /_mock/agent/edges`.
pub fn edge_port(mock: &Mock, leg: &str) -> u16 {
    let edges = control(mock, "GET", "/_mock/agent/edges", None).json();
    edges
        .as_array()
        .and_then(|list| list.iter().find(|e| e["name"] == leg))
        .and_then(|e| e["edge_port"].as_u64())
        .and_then(|p| u16::try_from(p).ok())
        .unwrap_or_else(|| panic!("no edge for {leg}: {edges}"))
}

/// Sends raw bytes to 127.0.0.1:port and reads until the peer closes (or `timeout`).
pub fn visit_raw(port: u16, bytes: &[u8], timeout: Duration) -> Vec<u8> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to the edge");
    s.set_read_timeout(Some(timeout)).expect("timeout");
    s.write_all(bytes).expect("write");
    read_until_closed(&mut s)
}

/// One request through a tunnel leg, `Connection: close`; returns the raw answer.
pub fn visit(port: u16, method: &str, target: &str, body: &[u8]) -> String {
    let mut req = format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: agent-test\r\nConnection: close\r\n"
    );
    if !body.is_empty() {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    let mut bytes = req.into_bytes();
    bytes.extend_from_slice(body);
    String::from_utf8_lossy(&visit_raw(port, &bytes, Duration::from_secs(10))).into_owned()
}

/// Lists captured requests (`GET /api/requests/http` + `query`).
pub fn captures(mock: &Mock, query: &str) -> Vec<Value> {
    let r = agent(mock, "GET", &format!("/api/requests/http{query}"), None);
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["requests"].as_array().cloned().unwrap_or_default()
}

/// Waits until `pred` holds for the capture list (captures complete asynchronously).
pub fn wait_for(mock: &Mock, what: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    poll(what, || captures(mock, ""), |l| pred(l))
}

/// A tiny upstream HTTP server on 127.0.0.1: answers each request with a JSON echo
/// (`method`, `path`, `body`) and keeps the raw bytes of every request it read.
pub struct Upstream {
    /// Its port.
    pub port: u16,
    /// The raw requests received, in order.
    pub received: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Upstream {
    /// Starts the server; `delay` holds every answer back (to observe pending captures).
    pub fn start(delay: Duration) -> Upstream {
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind the upstream");
        let port = listener.local_addr().expect("addr").port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&received);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let log = Arc::clone(&log);
                thread::spawn(move || serve_upstream(stream, &log, delay));
            }
        });
        Upstream { port, received }
    }

    /// The raw requests received so far.
    pub fn requests(&self) -> Vec<Vec<u8>> {
        self.received.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Serves keep-alive requests with Content-Length or chunked bodies.
fn serve_upstream(mut s: TcpStream, log: &Mutex<Vec<Vec<u8>>>, delay: Duration) {
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        let head_end = loop {
            if let Some(i) = find(&buf, b"\r\n\r\n") {
                break i + 4;
            }
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
        let lower = head.to_ascii_lowercase();
        let mut lines = head.lines();
        let first = lines.next().unwrap_or_default().to_string();
        let mut parts = first.split(' ');
        let method = parts.next().unwrap_or_default().to_string();
        let path = parts.next().unwrap_or_default().to_string();
        let header = |name: &str| {
            lower
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}:")))
                .map(|v| v.trim().to_string())
        };
        let chunked = header("transfer-encoding").is_some_and(|v| v.contains("chunked"));
        let (body, consumed) = if chunked {
            // Read until the terminating chunk; decode.
            loop {
                if find(&buf[head_end..], b"0\r\n\r\n").is_some() {
                    break;
                }
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            let end = head_end + find(&buf[head_end..], b"0\r\n\r\n").unwrap_or(0) + 5;
            let mut body = Vec::new();
            let mut rest = &buf[head_end..end];
            while let Some(eol) = find(rest, b"\r\n") {
                let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..eol]).trim(), 16)
                    .unwrap_or(0);
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
                rest = &rest[eol + 2 + size + 2..];
            }
            (body, end)
        } else {
            let len: usize = header("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            while buf.len() < head_end + len {
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
            (buf[head_end..head_end + len].to_vec(), head_end + len)
        };
        if let Ok(mut l) = log.lock() {
            l.push(buf[..consumed].to_vec());
        }
        buf.drain(..consumed);
        if !delay.is_zero() {
            thread::sleep(delay);
        }
        let echo = json!({
            "method": method,
            "path": path,
            "body": String::from_utf8_lossy(&body),
            "body_len": body.len(),
        });
        let out = serde_json::to_vec(&echo).unwrap_or_default();
        let close = header("connection").is_some_and(|v| v.contains("close"));
        let resp = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Upstream: yes\r\nContent-Length: {}\r\n{}\r\n",
            out.len(),
            if close { "Connection: close\r\n" } else { "" }
        );
        if s.write_all(resp.as_bytes()).is_err() || s.write_all(&out).is_err() {
            return;
        }
        if close {
            return;
        }
    }
}

/// A port on which nothing listens (bound, then released).
pub fn dead_port() -> u16 {
    let l = TcpListener::bind(("127.0.0.1", 0)).expect("bind");
    l.local_addr().expect("addr").port()
}

/// Waits until `pred` holds for a tunnel (`path_name` percent-encoded); metrics of a
/// connection are updated just after the visitor sees it close.
pub fn wait_tunnel(mock: &Mock, path_name: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let target = format!("/api/tunnels/{path_name}");
    poll(path_name, || agent(mock, "GET", &target, None).json(), pred)
}
