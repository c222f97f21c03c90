//! HAR 1.2 logs, the format browsers' developer tools read and write: captured exchanges
//! written as one (`local requests export --har`), and the requests of one read back to be
//! sent again (`local requests send --har`).
//!
//! Reading keeps only the request's path and query from its URL: where it goes is the
//! caller's choice (`--to`), never the host written in the file; a URL that is neither a path
//! nor `http(s)://` (`javascript:`, `data:`, another scheme, nothing) is refused. The URL's
//! host becomes the `Host` header when the entry has none; HTTP/2 pseudo-headers
//! (`:authority`) are left out.

use serde_json::{json, Map, Value};

use super::curl::{path_of, request_url};
use super::exchange::Exchange;
use super::message::{decode_base64, encode_base64, is_header_value, is_token, Message};
use super::replay::check::origin_form;
use crate::escape::escape;

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
        Err(_) => (encode_base64(body), Some("base64")),
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
pub fn entry(captured: &Exchange) -> Value {
    let req = captured.request_message();
    // A Host that is not a plain host[:port] must not become a URL that a viewer's "replay"
    // or "copy as curl" sends elsewhere: the reserved `.invalid` name resolves nowhere.
    let url = request_url(&req).unwrap_or_else(|_| {
        let target = req.target().unwrap_or("/");
        let path = path_of(target).unwrap_or_else(|| "/".to_string());
        format!("http://host.invalid{path}")
    });
    let method = req.method().to_string();
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
    let response = match (&captured.response, captured.response_message()) {
        (Some(r), Some(msg)) => {
            let status = r
                .status_code
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
    let ms = captured.duration.map_or(0.0, |ns| ns as f64 / 1_000_000.0);
    json!({
        "startedDateTime": captured.start,
        "time": ms,
        "request": request,
        "response": response,
        "cache": {},
        "timings": {"send": 0, "wait": ms, "receive": 0},
        "comment": format!("{} on {}", captured.id, captured.tunnel),
    })
}

/// The HAR document for these captured requests (oldest first, as HAR viewers expect).
pub fn document(captured_newest_first: &[Exchange]) -> Value {
    let entries: Vec<Value> = captured_newest_first.iter().rev().map(entry).collect();
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": "tunnelctl", "version": env!("CARGO_PKG_VERSION")},
            "entries": entries,
        }
    })
}

/// The request of every entry, in the order of the log; the first entry that cannot be sent
/// is an error naming it (1-based).
pub fn requests(har: &Value) -> Result<Vec<Message>, String> {
    entries(har)?
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|why| format!("entry {}: {why}", i + 1)))
        .collect()
}

/// The hint for the file `name` with these contents read as a request file: to send it with
/// `--har` when it looks like a HAR log (named `.har`, or a JSON document with a `log`
/// object); else nothing.
pub fn hint(name: &str, bytes: &[u8]) -> &'static str {
    let named = std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("har"));
    let har = named
        || serde_json::from_slice::<Value>(bytes)
            .is_ok_and(|doc| doc.get("log").is_some_and(Value::is_object));
    if har {
        " (it looks like a HAR log: send its entries with --har)"
    } else {
        ""
    }
}

/// The request of every entry, in the order of the log, each read or refused on its own (so
/// the caller can name the entry); an error when the document is not a HAR log.
pub fn entries(har: &Value) -> Result<Vec<Result<Message, String>>, String> {
    let entries = har
        .pointer("/log/entries")
        .and_then(Value::as_array)
        .ok_or("it is not a HAR log: it has no log.entries list")?;
    Ok(entries.iter().map(request_of).collect())
}

fn request_of(e: &Value) -> Result<Message, String> {
    let req = e.get("request").ok_or("it has no request")?;
    let text = |k: &str| req.get(k).and_then(Value::as_str);
    let method = text("method").ok_or("its request has no method")?;
    if !is_token(method) {
        return Err(format!("'{}' is not a valid method", escape(method)));
    }
    let raw_url = text("url").ok_or("its request has no url")?;
    // Only a path or an http(s) URL is sent, and only its path and query.
    let target = origin_form(raw_url)?;
    if target.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!(
            "its url '{}' holds white space or control characters",
            escape(raw_url)
        ));
    }
    let url = url::Url::parse(raw_url).ok();
    let mut headers = Vec::new();
    for h in req
        .get("headers")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        let name = h.get("name").and_then(Value::as_str).unwrap_or("");
        let value = h.get("value").and_then(Value::as_str).unwrap_or("");
        if name.starts_with(':') {
            continue;
        }
        if !is_token(name) || !is_header_value(value) {
            return Err(format!(
                "the header {}: {} cannot be sent",
                escape(name),
                escape(value)
            ));
        }
        headers.push((name.to_string(), value.to_string()));
    }
    let mut msg = Message::request(
        method,
        &target,
        "HTTP/1.1",
        headers,
        body(req.get("postData"))?,
    );
    if msg.header("host").is_none() {
        if let Some(url) = &url {
            let host = url.host_str().unwrap_or("");
            let host = match url.port() {
                Some(p) => format!("{host}:{p}"),
                None => host.to_string(),
            };
            msg.headers.insert(0, ("Host".into(), host));
        }
    }
    // The body is stored whole: its framing is set from it.
    msg.remove_header("transfer-encoding");
    msg.remove_header("content-length");
    msg.frame();
    Ok(msg)
}

/// `postData`: its `text` (base64 when `encoding` says so), else its form `params`.
fn body(post: Option<&Value>) -> Result<Vec<u8>, String> {
    let Some(post) = post else {
        return Ok(Vec::new());
    };
    if let Some(text) = post.get("text").and_then(Value::as_str) {
        return match post.get("encoding").and_then(Value::as_str) {
            Some("base64") => decode_base64(text)
                .map_err(|e| format!("its postData.text is not valid base64: {e}")),
            _ => Ok(text.as_bytes().to_vec()),
        };
    }
    let params = post
        .get("params")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut form = url::form_urlencoded::Serializer::new(String::new());
    for p in params {
        form.append_pair(
            p.get("name").and_then(Value::as_str).unwrap_or(""),
            p.get("value").and_then(Value::as_str).unwrap_or(""),
        );
    }
    Ok(form.finish().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_become_requests() {
        let har = json!({"log": {"entries": [
            {"request": {"method": "POST", "url": "https://shop.test:8443/hook?x=1", "httpVersion": "h2",
                "headers": [{"name": ":authority", "value": "shop.test"}, {"name": "Content-Type", "value": "application/json"},
                            {"name": "Content-Length", "value": "999"}],
                "postData": {"mimeType": "application/json", "text": "{\"a\":1}"}}},
            {"request": {"method": "PUT", "url": "http://h.test/bin", "headers": [{"name": "Host", "value": "other"}],
                "postData": {"text": "AAEC", "encoding": "base64"}}},
            {"request": {"method": "POST", "url": "http://h.test/form", "headers": [],
                "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "a b", "value": "1&2"}]}}}
        ]}});
        let reqs = requests(&har).unwrap();
        assert_eq!(
            String::from_utf8(reqs[0].to_bytes()).unwrap(),
            "POST /hook?x=1 HTTP/1.1\r\nHost: shop.test:8443\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
        );
        assert_eq!(reqs[1].header("host"), Some("other"));
        assert_eq!(reqs[1].body, [0, 1, 2]);
        assert_eq!(reqs[2].body, b"a+b=1%262");
    }

    #[test]
    fn what_is_not_a_har_request_is_named() {
        assert!(requests(&json!({"entries": []}))
            .unwrap_err()
            .contains("log.entries"));
        let bad = json!({"log": {"entries": [{"request": {"method": "GET", "url": "http://h/"}}, {"request": {"method": "GET"}}]}});
        assert!(requests(&bad).unwrap_err().starts_with("entry 2:"));
        let ctl = json!({"log": {"entries": [{"request": {"method": "GET", "url": "http://h/", "headers": [{"name": "X", "value": "a\nb"}]}}]}});
        assert!(requests(&ctl).unwrap_err().contains("cannot be sent"));
    }
}
