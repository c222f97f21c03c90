//! One captured exchange, typed, read once from the agent's JSON: what every view, the filter,
//! curl, HAR, replay and the inspector read. It holds the raw bytes of the request and the
//! response once (no JSON value tree), so the inspector's 10,000 captures cost little more
//! than their bytes; the agent's JSON text is kept beside it only when asked for (`--json`
//! prints the agent's answer unchanged), and can be dropped.

use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::message::{decode_base64, HeaderBudget, Message};
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
    /// The header fields, kept only when there are no raw bytes to read them from (at most
    /// what [`HeaderBudget`] allows).
    pub headers: Vec<(String, String)>,
    /// The agent's header fields past the budget, counted.
    pub more_headers: usize,
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
            more_headers: self.more_headers,
        }
    }
}

/// A JSON value read for one field, whatever its shape: a string or an integer kept, anything
/// else skipped without being built (a hostile agent's object in a field costs nothing).
enum Scalar {
    Str(String),
    Int(i64),
    Other,
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<Scalar, E> {
        Ok(Scalar::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> std::result::Result<Scalar, E> {
        Ok(Scalar::Str(v))
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> std::result::Result<Scalar, E> {
        Ok(i64::try_from(v).map_or(Scalar::Other, Scalar::Int))
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_unit<E>(self) -> std::result::Result<Scalar, E> {
        Ok(Scalar::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Other)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

/// A JSON field as text: a string is itself, anything else is absent (a server's answer may
/// hold any shape; reading it never fails on one field).
fn text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    Ok(maybe_text(d)?.unwrap_or_default())
}

fn maybe_text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Str(s) => Some(s),
        _ => None,
    })
}

fn number<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<i64>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Int(n) => Some(n),
        _ => None,
    })
}

/// A request or response part: an object read field by field as it streams (never as a value
/// tree, which for a header bomb would cost many times its size); anything else is absent.
fn part<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<WirePart>, D::Error> {
    struct PartVisitor;
    impl<'de> Visitor<'de> for PartVisitor {
        type Value = Option<WirePart>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a request or response object")
        }
        fn visit_map<A: MapAccess<'de>>(
            self,
            map: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            WirePart::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Some)
        }
        fn visit_seq<A: SeqAccess<'de>>(
            self,
            seq: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            ScalarVisitor.visit_seq(seq).map(|_| None)
        }
        fn visit_str<E>(self, _: &str) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_bool<E>(self, _: bool) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(PartVisitor)
}

/// The agent's `headers` map (`{"Name": ["v1", "v2"]}`, or a value as a string), read within
/// the [`HeaderBudget`]: the first fields kept, the rest only counted as they stream past.
#[derive(Default)]
struct WireHeaders {
    kept: Vec<(String, String)>,
    budget: HeaderBudget,
}

impl<'de> Deserialize<'de> for WireHeaders {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<WireHeaders, D::Error> {
        d.deserialize_any(HeadersVisitor)
    }
}

/// Reads a map of header fields; any other JSON value holds none.
struct HeadersVisitor;

impl<'de> Visitor<'de> for HeadersVisitor {
    type Value = WireHeaders;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map of header fields")
    }
    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<WireHeaders, A::Error> {
        let mut h = WireHeaders::default();
        while let Some(name) = map.next_key::<String>()? {
            map.next_value_seed(Values {
                name: &name,
                into: &mut h,
            })?;
        }
        Ok(h)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<WireHeaders, A::Error> {
        ScalarVisitor.visit_seq(seq).map(|_| WireHeaders::default())
    }
    fn visit_str<E>(self, _: &str) -> std::result::Result<WireHeaders, E> {
        Ok(WireHeaders::default())
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<WireHeaders, E> {
        Ok(WireHeaders::default())
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<WireHeaders, E> {
        Ok(WireHeaders::default())
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<WireHeaders, E> {
        Ok(WireHeaders::default())
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<WireHeaders, E> {
        Ok(WireHeaders::default())
    }
    fn visit_unit<E>(self) -> std::result::Result<WireHeaders, E> {
        Ok(WireHeaders::default())
    }
}

/// The values of one header field (a list of strings, or one string), each kept within the
/// budget; values that are not strings are kept empty, other shapes are skipped.
struct Values<'a> {
    name: &'a str,
    into: &'a mut WireHeaders,
}

impl Values<'_> {
    fn keep(&mut self, value: String) {
        if self.into.budget.take(self.name.len() + value.len() + 2) {
            self.into.kept.push((self.name.to_string(), value));
        }
    }
}

impl<'de> DeserializeSeed<'de> for Values<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Values<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("header values")
    }
    fn visit_str<E>(mut self, v: &str) -> std::result::Result<(), E> {
        self.keep(v.to_string());
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> std::result::Result<(), A::Error> {
        while let Some(v) = seq.next_element::<Scalar>()? {
            self.keep(match v {
                Scalar::Str(s) => s,
                _ => String::new(),
            });
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<(), A::Error> {
        ScalarVisitor.visit_map(map).map(|_| ())
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> std::result::Result<(), E> {
        Ok(())
    }
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
    headers: WireHeaders,
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
        // With raw bytes to read them from, the agent's fields are not needed.
        let (headers, more_headers) = if raw.is_none() {
            (self.headers.kept, self.headers.budget.more)
        } else {
            (Vec::new(), 0)
        };
        Part {
            raw,
            method: self.method,
            uri: self.uri,
            proto: self.proto,
            status: self.status,
            status_code: self.status_code,
            headers,
            more_headers,
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

    /// This capture without the agent's JSON text (once it was kept elsewhere).
    pub fn without_json(mut self) -> Exchange {
        self.json = None;
        self
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

    /// What a list row, a `tail` line and a replay's note show of this capture (the columns
    /// of a captured request), as a small value in the agent's shape: a table of captures
    /// costs what its rows hold, whatever the captures' size.
    pub fn summary(&self) -> Value {
        let response = self.response.as_ref().map(|r| {
            // Only whether there are raw bytes matters to a row (is it answered?).
            let raw = r.raw.as_ref().filter(|b| !b.is_empty()).map(|_| "…");
            serde_json::json!({"status_code": r.status_code, "raw": raw})
        });
        serde_json::json!({
            "id": self.id,
            "start": self.start,
            "tunnel_name": self.tunnel,
            "remote_addr": self.remote_addr,
            "duration": self.duration,
            "request": {"method": self.request.method, "uri": self.request.uri},
            "response": response,
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
    fn the_agents_headers_are_kept_within_the_budget() {
        let mut map = serde_json::Map::new();
        for i in 0..1000 {
            map.insert(format!("x{i}"), serde_json::json!(["v"]));
        }
        map.insert("one".into(), serde_json::json!("w"));
        map.insert("odd".into(), serde_json::json!({"a": [1, 2]}));
        let text =
            serde_json::json!({"request": {"method": "GET", "headers": map, "uri": {"x": 1}}});
        let e = Exchange::from_json(&text.to_string()).unwrap();
        let m = e.request_message();
        assert_eq!(m.headers.len(), super::super::message::MAX_HEADER_LINES);
        assert_eq!(
            m.more_headers,
            1001 - super::super::message::MAX_HEADER_LINES
        );
        assert_eq!(e.uri(), "");
        assert!(
            Exchange::from_json(r#"{"request": {"headers": [1, {"a": 2}]}, "response": 5}"#)
                .is_some_and(|e| e.response.is_none())
        );
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
