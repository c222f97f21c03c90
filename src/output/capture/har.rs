//! Captured exchanges as a HAR 1.2 log, the format browsers' developer tools import.

use serde_json::{json, Map, Value};

use super::curl::{path_of, request_url};
use super::exchange::{message_of, Message};

fn headers(msg: &Message) -> Vec<Value> {
    msg.headers
        .iter()
        .map(|(k, v)| json!({"name": k, "value": v}))
        .collect()
}

fn query_string(url: &str) -> Vec<Value> {
    match url::Url::parse(url) {
        Ok(u) => u
            .query_pairs()
            .map(|(k, v)| json!({"name": k, "value": v}))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Text bodies as text, others as base64 (HAR's `encoding`).
fn content_text(body: &[u8]) -> (String, Option<&'static str>) {
    match std::str::from_utf8(body) {
        Ok(t) => (t.to_string(), None),
        Err(_) => {
            use base64::Engine;
            (
                base64::engine::general_purpose::STANDARD.encode(body),
                Some("base64"),
            )
        }
    }
}

fn http_version(start_line: &str, is_request: bool) -> String {
    let word = if is_request {
        start_line.rsplit(' ').next()
    } else {
        start_line.split(' ').next()
    };
    word.filter(|w| w.starts_with("HTTP/"))
        .unwrap_or("HTTP/1.1")
        .to_string()
}

/// One HAR entry for a captured request.
pub fn entry(captured: &Value) -> Value {
    let req = message_of(captured.get("request").unwrap_or(&Value::Null), true);
    // A Host that is not a plain host[:port] must not become a URL that a viewer's "replay"
    // or "copy as curl" sends elsewhere: the reserved `.invalid` name resolves nowhere.
    let url = request_url(&req).unwrap_or_else(|_| {
        let target = req.start_line.split(' ').nth(1).unwrap_or("/");
        let path = path_of(target).unwrap_or_else(|| "/".to_string());
        format!("http://host.invalid{path}")
    });
    let method = req
        .start_line
        .split(' ')
        .next()
        .unwrap_or("GET")
        .to_string();
    let mime = req.header("content-type").unwrap_or("").to_string();
    let mut request = json!({
        "method": method,
        "url": url,
        "httpVersion": http_version(&req.start_line, true),
        "cookies": [],
        "headers": headers(&req),
        "queryString": query_string(&url),
        "headersSize": -1,
        "bodySize": req.body.len(),
    });
    if !req.body.is_empty() {
        let (text, encoding) = content_text(&req.body);
        let mut post = json!({"mimeType": mime, "text": text});
        if let Some(e) = encoding {
            post["encoding"] = json!(e);
        }
        request["postData"] = post;
    }
    let response = match captured.get("response") {
        Some(r) if super::exchange::is_answered(captured) => {
            let msg = message_of(r, false);
            let status = r
                .get("status_code")
                .and_then(Value::as_i64)
                .or_else(|| {
                    msg.start_line
                        .split(' ')
                        .nth(1)
                        .and_then(|s| s.parse().ok())
                })
                .unwrap_or(0);
            let status_text = msg
                .start_line
                .splitn(3, ' ')
                .nth(2)
                .unwrap_or("")
                .to_string();
            let (text, encoding) = content_text(&msg.body);
            let mut content = Map::new();
            content.insert("size".into(), json!(msg.body.len()));
            content.insert(
                "mimeType".into(),
                json!(msg.header("content-type").unwrap_or("")),
            );
            content.insert("text".into(), json!(text));
            if let Some(e) = encoding {
                content.insert("encoding".into(), json!(e));
            }
            json!({
                "status": status,
                "statusText": status_text,
                "httpVersion": http_version(&msg.start_line, false),
                "cookies": [],
                "headers": headers(&msg),
                "content": Value::Object(content),
                "redirectURL": msg.header("location").unwrap_or(""),
                "headersSize": -1,
                "bodySize": msg.body.len(),
            })
        }
        // HAR has no pending state: status 0 is what browsers write for an unanswered request.
        _ => json!({
            "status": 0, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
            "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1, "bodySize": -1
        }),
    };
    let ms = captured
        .get("duration")
        .and_then(Value::as_f64)
        .map_or(0.0, |ns| ns / 1_000_000.0);
    json!({
        "startedDateTime": captured.get("start").and_then(Value::as_str).unwrap_or(""),
        "time": ms,
        "request": request,
        "response": response,
        "cache": {},
        "timings": {"send": 0, "wait": ms, "receive": 0},
        "comment": format!(
            "{} on {}",
            captured.get("id").and_then(Value::as_str).unwrap_or(""),
            captured.get("tunnel_name").and_then(Value::as_str).unwrap_or("")
        ),
    })
}

/// The HAR document for these captured requests (oldest first, as HAR viewers expect).
pub fn document(captured_newest_first: &[Value]) -> Value {
    let entries: Vec<Value> = captured_newest_first.iter().rev().map(entry).collect();
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": "tunnelctl", "version": env!("CARGO_PKG_VERSION")},
            "entries": entries,
        }
    })
}
