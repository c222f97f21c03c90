//! The requests of a HAR 1.2 log (what `local requests export --har` and browsers' developer
//! tools write), as messages to send again.
//!
//! Only the request's path and query are kept from its URL: where it goes is the caller's
//! choice (`--to`), never the host written in the file. The URL's host becomes the `Host`
//! header when the entry has none; HTTP/2 pseudo-headers (`:authority`) are left out.

use base64::Engine;
use serde_json::Value;

use super::message::{is_header_value, is_token, Message};
use crate::escape::escape;

/// The request of every entry, in the order of the log; the first entry that cannot be sent
/// is an error naming it (1-based).
pub fn requests(har: &Value) -> Result<Vec<Message>, String> {
    let entries = har
        .pointer("/log/entries")
        .and_then(Value::as_array)
        .ok_or("it is not a HAR log: it has no log.entries list")?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| entry(e).map_err(|why| format!("entry {}: {why}", i + 1)))
        .collect()
}

fn entry(e: &Value) -> Result<Message, String> {
    let req = e.get("request").ok_or("it has no request")?;
    let text = |k: &str| req.get(k).and_then(Value::as_str);
    let method = text("method").ok_or("its request has no method")?;
    if !is_token(method) {
        return Err(format!("'{}' is not a valid method", escape(method)));
    }
    let raw_url = text("url").ok_or("its request has no url")?;
    let url = url::Url::parse(raw_url)
        .map_err(|e| format!("its url '{}' is not a URL: {e}", escape(raw_url)))?;
    let target = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    };
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
    let mut msg = Message {
        method: method.to_string(),
        target,
        version: "HTTP/1.1".into(),
        headers,
        body: body(req.get("postData"))?,
    };
    if msg.header("host").is_none() {
        if let Some(host) = url.host_str() {
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
            Some("base64") => base64::engine::general_purpose::STANDARD
                .decode(text.trim())
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
