//! Sending a request to an upstream (the local server a tunnel forwards to, or `--to URL`)
//! and what came back.

use std::time::Duration;

use serde_json::{json, Value};
use url::Url;

use crate::capture::exchange::Exchange;
use crate::capture::message::{encode_base64, Message};
use crate::error::{Error, Result};
use crate::escape::escape;
use crate::http::raw::RawAnswer;
use crate::http::Http;

/// A request that was sent, and its answer.
#[derive(Debug, Clone)]
pub struct Sent {
    /// Where it went.
    pub url: Url,
    /// The request, as sent (but the framing headers the HTTP layer wrote).
    pub request: Message,
    /// The answer.
    pub answer: RawAnswer,
}

impl Sent {
    /// How long the exchange took.
    pub fn took(&self) -> Duration {
        self.answer.took
    }

    /// The exchange in the shape of a captured one (`request` and `response` with their
    /// `headers` and base64 `raw` bytes, `duration` in nanoseconds), with `source` (the
    /// capture's ID or the file it came from) and `url`. The answer's `raw` is rebuilt from
    /// what the HTTP layer read: its body de-chunked, so without `Transfer-Encoding`.
    pub fn to_json(&self, source: &str) -> Value {
        let b64 = encode_base64;
        let a = &self.answer;
        let status = self.status_text();
        let raw = self.response_bytes();
        let req = &self.request;
        json!({
            "source": source,
            "url": self.url.as_str(),
            "duration": u64::try_from(a.took.as_nanos()).unwrap_or(u64::MAX),
            "request": {
                "method": req.method(),
                "uri": req.target(),
                "proto": req.version(),
                "headers": grouped(&req.headers),
                "raw": b64(&req.to_bytes()),
            },
            "response": {
                "status": status,
                "status_code": a.status,
                "proto": a.version,
                "headers": grouped(&a.headers),
                "raw": b64(&raw),
            },
        })
    }
}

impl Sent {
    /// The answer's status as text: `201 Created`.
    pub fn status_text(&self) -> String {
        let a = &self.answer;
        let reason = reqwest::StatusCode::from_u16(a.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("");
        format!("{} {reason}", a.status).trim_end().to_string()
    }

    /// The answer as raw HTTP bytes, rebuilt from what the HTTP layer read.
    pub fn response_bytes(&self) -> Vec<u8> {
        let a = &self.answer;
        let mut raw = format!("{} {}\r\n", a.version, self.status_text()).into_bytes();
        for (k, v) in a
            .headers
            .iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("transfer-encoding"))
        {
            raw.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        raw.extend_from_slice(b"\r\n");
        raw.extend_from_slice(&a.body);
        raw
    }
}

/// Headers as the agent shows them: each name with the list of its values.
fn grouped(headers: &[(String, String)]) -> Value {
    let mut map = serde_json::Map::new();
    for (k, v) in headers {
        if let Value::Array(values) = map
            .entry(k.clone())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            values.push(Value::String(v.clone()));
        }
    }
    Value::Object(map)
}

/// Parses `--to URL`: an `http://` or `https://` URL of a server, optionally with a path
/// prefix put before each request's path; no query, fragment, user name or password.
pub fn parse_upstream(s: &str) -> std::result::Result<Url, String> {
    let url = Url::parse(s.trim()).map_err(|e| format!("'{}' is not a URL: {e}", escape(s)))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "'{}' must start with http:// or https://",
            escape(s)
        ));
    }
    if url.host().is_none() {
        return Err(format!("'{}' has no host", escape(s)));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "'{}' must not have a query or fragment: the request brings its own",
            escape(s)
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "'{}' must not carry a user name or password; send an Authorization header with --header",
            escape(s)
        ));
    }
    Ok(url)
}

/// The upstream of a running tunnel, from its `config.addr`: `http://localhost:8080` as the
/// agent shows it, or the shorter forms of its configuration file (`8080`, `host:8080`).
pub fn upstream_of(tunnel: &Value) -> Result<Url> {
    let name = escape(tunnel.get("name").and_then(Value::as_str).unwrap_or("?"));
    let proto = tunnel.get("proto").and_then(Value::as_str).unwrap_or("");
    if !matches!(proto, "http" | "https" | "") {
        return Err(Error::usage(format!(
            "the tunnel {name} is a {} tunnel: its requests are not HTTP",
            escape(proto)
        )));
    }
    let addr = tunnel
        .get("config")
        .and_then(|c| c.get("addr"))
        .and_then(Value::as_str)
        .filter(|a| !a.trim().is_empty())
        .ok_or_else(|| {
            Error::BadResponse(format!(
                "the tunnel {name} shows no config.addr to send to; give --to URL"
            ))
        })?;
    let addr = addr.trim();
    let full = if addr.contains("://") {
        addr.to_string()
    } else if addr.bytes().all(|b| b.is_ascii_digit()) {
        format!("http://localhost:{addr}")
    } else {
        format!("http://{addr}")
    };
    parse_upstream(&full).map_err(|why| {
        Error::BadResponse(format!(
            "the tunnel {name} forwards to {}, which cannot be sent to ({why}); give --to URL",
            escape(addr)
        ))
    })
}

/// The upstream a changed replay of `captured` goes to: that of `tunnel`, or of the tunnel it
/// was captured on, as the agent shows it running now.
pub async fn upstream_for(
    client: &crate::agent::AgentClient,
    captured: &Exchange,
    tunnel: Option<&str>,
) -> Result<Url> {
    let name = tunnel.unwrap_or(&captured.tunnel).to_string();
    let tunnel = client.tunnel(&name).await.map_err(|e| match e {
        Error::Api(mut f) if f.status == 404 => {
            f.hint = Some(format!(
                "The tunnel '{}' is not running, so its upstream is unknown; give --to URL.",
                escape(&name)
            ));
            Error::Api(f)
        }
        other => other,
    })?;
    upstream_of(&tunnel)
}

/// The URL a request goes to: the upstream's scheme, host and port, its path as a prefix,
/// then the request's path and query.
pub fn target_url(upstream: &Url, msg: &Message) -> Url {
    let mut url = upstream.clone();
    let target = msg.target().unwrap_or("/");
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (target, None),
    };
    let prefix = upstream.path().trim_end_matches('/');
    url.set_path(&format!("{prefix}{path}"));
    url.set_query(query);
    url
}

/// Points `msg` at the server it goes to: its `Host` header is dropped, so that the HTTP
/// layer sends the host of the URL (as curl does: an app that checks its host accepts it),
/// unless `keep_host` (`--keep-host`: the host the request file names, for an app that routes
/// by the public host the capture came through).
pub fn aim(msg: &mut Message, keep_host: bool) {
    if !keep_host {
        msg.remove_header("host");
    }
}

/// Sends `msg` to `upstream` through `http` (a client that adds nothing:
/// [`Http::verbatim`]) and returns what came back, whatever the status.
pub async fn send(http: &Http, msg: &Message, upstream: &Url) -> Result<Sent> {
    // Every reader refuses other targets already; this keeps a message built elsewhere from
    // being made into a path under the upstream.
    if !super::check::goes_only_where_asked(msg) {
        return Err(Error::usage(format!(
            "the request target '{}' is not a path; nothing was sent",
            escape(msg.target().unwrap_or(""))
        )));
    }
    let url = target_url(upstream, msg);
    let answer = http
        .send_message(msg.method(), &url, &msg.headers, &msg.body)
        .await?;
    Ok(Sent {
        url,
        request: msg.clone(),
        answer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn upstreams_from_tunnels_and_flags() {
        let t = |addr: &str| json!({"name": "t", "proto": "http", "config": {"addr": addr}});
        for (addr, want) in [
            ("http://localhost:8080", "http://localhost:8080/"),
            ("https://localhost:8443", "https://localhost:8443/"),
            ("8080", "http://localhost:8080/"),
            ("127.0.0.1:3000", "http://127.0.0.1:3000/"),
        ] {
            assert_eq!(upstream_of(&t(addr)).unwrap().as_str(), want);
        }
        assert!(upstream_of(
            &json!({"name": "t", "proto": "tcp", "config": {"addr": "localhost:22"}})
        )
        .is_err());
        assert!(upstream_of(&json!({"name": "t", "proto": "http", "config": {}})).is_err());
        for bad in [
            "ftp://x",
            "nonsense",
            "http://h/?q=1",
            "http://u:p@h/",
            "http://h/#f",
        ] {
            assert!(parse_upstream(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_target_goes_after_the_prefix() {
        let msg = Message::parse_request(b"GET /hook?n=1 HTTP/1.1\r\n\r\n").unwrap();
        let up = parse_upstream("http://localhost:3000").unwrap();
        assert_eq!(
            target_url(&up, &msg).as_str(),
            "http://localhost:3000/hook?n=1"
        );
        let up = parse_upstream("http://localhost:3000/v2/").unwrap();
        assert_eq!(
            target_url(&up, &msg).as_str(),
            "http://localhost:3000/v2/hook?n=1"
        );
    }
}
