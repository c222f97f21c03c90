//! One captured exchange, typed, read once from the agent's JSON: what every view, the filter,
//! curl, HAR, replay and the inspector read. It holds the raw bytes of the request and the
//! response once (no JSON value tree), so the inspector's 10,000 captures cost little more
//! than their bytes; the agent's JSON text is kept beside it only when asked for (`--json`
//! prints the agent's answer unchanged), and can be dropped.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::message::{decode_base64, Message};
use crate::agent::RawList;
use crate::error::{Error, Result};
use crate::escape::escape;

/// A captured exchange.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exchange {
    /// `airt_…` (`""` when the agent gave none).
    pub id: String,
    /// When it was captured (RFC 3339, as the agent wrote it).
    pub start: String,
    /// The tunnel it came through.
    pub tunnel: String,
    /// The visitor's address, or `replayed`.
    pub remote_addr: String,
    /// How long the exchange took, in nanoseconds.
    pub duration: Option<i64>,
    /// The request.
    pub request: Part,
    /// The response part as the agent gave it (`None` when it gave none); see
    /// [`Exchange::answered`] for whether the local server has answered.
    pub response: Option<Part>,
    answered: bool,
    json: Option<String>,
}

/// A request or response part of a capture: its raw bytes, and the agent's fields for its head.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Part {
    /// The raw HTTP message, decoded from base64 (`None` when absent or not base64).
    pub raw: Option<Vec<u8>>,
    /// A request's method.
    pub method: String,
    /// A request's target.
    pub uri: String,
    /// `HTTP/1.1`.
    pub proto: String,
    /// A response's status text (`200 OK`).
    pub status: String,
    /// A response's status code (0 or none while pending).
    pub status_code: Option<i64>,
    /// The header fields, kept only when there are no raw bytes to read them from.
    pub headers: Vec<(String, String)>,
}

impl Part {
    /// The part as an HTTP message: its raw bytes when there are any, else a head written from
    /// the agent's fields (the one place that rule lives).
    pub fn message(&self, is_request: bool) -> Message {
        if let Some(raw) = &self.raw {
            return Message::lenient(raw);
        }
        let start_line = if is_request {
            format!("{} {} {}", self.method, self.uri, self.proto)
        } else {
            format!("{} {}", self.proto, self.status)
        };
        Message {
            start_line: start_line.trim().to_string(),
            headers: self.headers.clone(),
            body: Vec::new(),
        }
    }
}

/// A JSON field as text: a string is itself, anything else is absent (a server's answer may
/// hold any shape; reading it never fails on one field).
fn text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => s,
        _ => String::new(),
    })
}

fn maybe_text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

fn number<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<i64>, D::Error> {
    Ok(Value::deserialize(d)?.as_i64())
}

fn part<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<WirePart>, D::Error> {
    Ok(match Value::deserialize(d)? {
        v @ Value::Object(_) => Some(WirePart::deserialize(v).unwrap_or_default()),
        _ => None,
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Wire {
    #[serde(deserialize_with = "text")]
    id: String,
    #[serde(deserialize_with = "text")]
    start: String,
    #[serde(deserialize_with = "text")]
    tunnel_name: String,
    #[serde(deserialize_with = "text")]
    remote_addr: String,
    #[serde(deserialize_with = "number")]
    duration: Option<i64>,
    #[serde(deserialize_with = "part")]
    request: Option<WirePart>,
    #[serde(deserialize_with = "part")]
    response: Option<WirePart>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct WirePart {
    #[serde(deserialize_with = "text")]
    method: String,
    #[serde(deserialize_with = "text")]
    uri: String,
    #[serde(deserialize_with = "text")]
    proto: String,
    #[serde(deserialize_with = "text")]
    status: String,
    #[serde(deserialize_with = "number")]
    status_code: Option<i64>,
    headers: Option<Value>,
    #[serde(deserialize_with = "maybe_text")]
    raw: Option<String>,
}

impl WirePart {
    /// Has the local server answered, when this is the response part? (The crate's one rule.)
    fn answered(&self) -> bool {
        crate::output::columns::answered(self.status_code, self.raw.as_deref())
    }

    fn into_part(self) -> Part {
        let raw = self.raw.and_then(|r| decode_base64(&r).ok());
        let mut headers = Vec::new();
        if raw.is_none() {
            if let Some(Value::Object(map)) = self.headers {
                for (k, vs) in map {
                    match vs {
                        Value::Array(vs) => {
                            for v in vs {
                                headers.push((k.clone(), v.as_str().unwrap_or("").to_string()));
                            }
                        }
                        Value::String(v) => headers.push((k.clone(), v)),
                        _ => {}
                    }
                }
            }
        }
        Part {
            raw,
            method: self.method,
            uri: self.uri,
            proto: self.proto,
            status: self.status,
            status_code: self.status_code,
            headers,
        }
    }
}

impl Exchange {
    /// Reads one capture from the agent's JSON text (any object; fields of the wrong type
    /// count as absent); `None` when the text is not a JSON object. The text is not kept.
    pub fn from_json(text: &str) -> Option<Exchange> {
        if !text.trim_start().starts_with('{') {
            return None;
        }
        let w: Wire = serde_json::from_str(text).ok()?;
        let answered = w.response.as_ref().is_some_and(WirePart::answered);
        Some(Exchange {
            id: w.id,
            start: w.start,
            tunnel: w.tunnel_name,
            remote_addr: w.remote_addr,
            duration: w.duration,
            request: w.request.unwrap_or_default().into_part(),
            response: w.response.map(WirePart::into_part),
            answered,
            json: None,
        })
    }

    /// Reads one capture as [`Exchange::from_json`] does and keeps the agent's text, for
    /// output that passes it on unchanged (`--json`).
    pub fn from_agent(text: String) -> Result<Exchange> {
        let mut e = Exchange::from_json(&text).ok_or_else(|| {
            Error::BadResponse("the agent's answer is not a captured request".into())
        })?;
        e.json = Some(text);
        Ok(e)
    }

    /// The captures of a list answer of the agent, newest first; items that are not JSON
    /// objects are left out. `keep_json`: keep each one's text, for output that passes it on.
    pub fn all_of(list: &RawList, keep_json: bool) -> Result<Vec<Exchange>> {
        Ok(list
            .items()?
            .into_iter()
            .filter_map(|text| {
                let mut e = Exchange::from_json(text)?;
                if keep_json {
                    e.json = Some(text.to_string());
                }
                Some(e)
            })
            .collect())
    }

    /// The agent's JSON text of this capture, when it was kept.
    pub fn json(&self) -> Option<&str> {
        self.json.as_deref()
    }

    /// Has the local server answered? (The one rule: a response with a status code or raw
    /// bytes.)
    pub fn answered(&self) -> bool {
        self.answered
    }

    /// The request's method.
    pub fn method(&self) -> &str {
        &self.request.method
    }

    /// The request's target.
    pub fn uri(&self) -> &str {
        &self.request.uri
    }

    /// The response status; `None` while pending.
    pub fn status(&self) -> Option<u16> {
        self.response
            .as_ref()
            .filter(|_| self.answered)
            .and_then(|r| r.status_code)
            .filter(|s| *s > 0)
            .and_then(|s| u16::try_from(s).ok())
    }

    /// The raw request bytes (empty when the agent gave none).
    pub fn request_bytes(&self) -> &[u8] {
        self.request.raw.as_deref().unwrap_or_default()
    }

    /// The raw response bytes, once answered.
    pub fn response_bytes(&self) -> Option<&[u8]> {
        self.response
            .as_ref()
            .filter(|_| self.answered)
            .and_then(|r| r.raw.as_deref())
    }

    /// The request as a person reads it.
    pub fn request_message(&self) -> Message {
        self.request.message(true)
    }

    /// The response as a person reads it, once answered.
    pub fn response_message(&self) -> Option<Message> {
        self.response
            .as_ref()
            .filter(|_| self.answered)
            .map(|r| r.message(false))
    }

    /// The raw bytes of the request (or the response), or an error saying there are none.
    pub fn raw(&self, response: bool) -> Result<&[u8]> {
        let part = if response {
            self.response.as_ref()
        } else {
            Some(&self.request)
        };
        let bytes = part.and_then(|p| p.raw.as_deref());
        bytes.ok_or_else(|| {
            Error::BadResponse(format!(
                "the captured {} of {} has no raw bytes (pending?)",
                if response { "response" } else { "request" },
                escape(&self.id)
            ))
        })
    }

    /// The request strictly read, to be sent again.
    pub fn request_to_send(&self) -> Result<Message> {
        let raw = self.request.raw.as_deref().ok_or_else(|| {
            Error::BadResponse(format!(
                "the captured request {} has no raw bytes to send",
                escape(&self.id)
            ))
        })?;
        Message::parse_request(raw).map_err(|e| {
            Error::BadResponse(format!(
                "the captured request {} cannot be read as an HTTP request: {e}",
                escape(&self.id)
            ))
        })
    }

    /// The agent's JSON for this capture as a value (for `--json` and `--jq`); an empty
    /// object when the text was not kept.
    pub fn to_value(&self) -> Value {
        self.json
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()))
    }
}

#[cfg(test)]
impl Exchange {
    /// A capture for unit tests: the request `METHOD URI`, answered with `status` when given.
    pub(crate) fn sample(id: &str, method: &str, uri: &str, status: Option<u16>) -> Exchange {
        let request = Part {
            raw: Some(format!("{method} {uri} HTTP/1.1\r\n\r\n").into_bytes()),
            method: method.into(),
            uri: uri.into(),
            ..Part::default()
        };
        let response = status.map(|s| Part {
            raw: Some(format!("HTTP/1.1 {s} X\r\n\r\n").into_bytes()),
            status_code: Some(i64::from(s)),
            ..Part::default()
        });
        Exchange {
            id: id.into(),
            request,
            answered: response.is_some(),
            response,
            ..Exchange::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_agents_json() {
        let e = Exchange::from_json(
            r#"{"id":"airt_1","start":"2026-01-02T10:00:00Z","tunnel_name":"t (http)","remote_addr":"replayed","duration":5,
                "request":{"method":"POST","uri":"/x","raw":"UE9TVCAveCBIVFRQLzEuMQ0KDQo="},
                "response":{"status_code":0,"raw":null}}"#,
        )
        .unwrap();
        assert_eq!(e.method(), "POST");
        assert_eq!(e.request_bytes(), b"POST /x HTTP/1.1\r\n\r\n");
        assert!(!e.answered());
        assert_eq!(e.remote_addr, "replayed");
        assert!(Exchange::from_json(r#"{"request":{}}"#).is_some_and(|e| e.id.is_empty()));
        assert!(Exchange::from_json("[").is_none());
        assert!(Exchange::from_json(r#"{"id": 5, "duration": "x"}"#).is_some());
    }

    #[test]
    fn the_request_to_send() {
        let raw = b"PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx";
        let text = serde_json::json!({"id": "airt_1", "request": {"raw": super::super::message::encode_base64(raw)}});
        let c = Exchange::from_json(&text.to_string()).unwrap();
        assert_eq!(c.request_to_send().unwrap().to_bytes(), raw);
        let c = Exchange::from_json(r#"{"id": "airt_2", "request": {}}"#).unwrap();
        assert!(c
            .request_to_send()
            .unwrap_err()
            .to_string()
            .contains("airt_2"));
    }
}
