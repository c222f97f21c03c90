//! The agent's error answers: `{"error_code":N,"status_code":S,"msg":...,"details":{...}}`
//! with an integer code for the agent's own errors, and the same shape without `error_code`
//! for its web framework's errors (bad parameters, unknown path, method, media types).
//!
//! They differ from the management API's errors on purpose: a client must tell the two
//! services apart, and the emulator must not make that easier than the real agent does.
//! Codes, messages and `details` keys are the ones observed on the real agent (see SPEC.md).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};

use super::encode::{json_line, xml_elem};
use super::negotiate::{Format, OFFERS};

/// The agent's own error codes.
pub mod error_code {
    /// 404: no tunnel with that name.
    pub const TUNNEL_NOT_FOUND: u32 = 100;
    /// 400: the tunnel definition is invalid (`details.err` says why).
    pub const INVALID_TUNNEL_CONFIG: u32 = 102;
    /// 502: the tunnel could not be started.
    pub const TUNNEL_START_FAILED: u32 = 103;
    /// 503: no session with the tunnel service yet.
    pub const NOT_READY: u32 = 104;
    /// 404: no captured request with that id.
    pub const ENTRY_NOT_FOUND: u32 = 106;
    /// 400: the tunnel name in the path is not a valid escape sequence.
    pub const BAD_NAME_ESCAPE: u32 = 108;
}

/// A failed agent API request.
#[derive(Debug, Clone)]
pub struct AgentError {
    /// HTTP status.
    pub status: u16,
    /// The agent's `error_code`; `None` for framework errors, which have none.
    pub code: Option<u32>,
    /// `msg`.
    pub msg: String,
    /// `details`, in order.
    pub details: Vec<(&'static str, Value)>,
    /// Extra headers (`Allow`).
    pub headers: Vec<(&'static str, String)>,
    /// Answered as JSON whatever the `Accept` header (the 406 itself).
    pub always_json: bool,
}

impl AgentError {
    fn new(status: u16, code: Option<u32>, msg: &str) -> Self {
        AgentError {
            status,
            code,
            msg: msg.to_string(),
            details: Vec::new(),
            headers: Vec::new(),
            always_json: false,
        }
    }

    /// One of the agent's coded errors whose `details.err` says why.
    fn failed(status: u16, code: u32, msg: &str, err: impl Into<String>) -> Self {
        Self::new(status, Some(code), msg).detail("err", err.into())
    }

    fn detail(mut self, key: &'static str, value: impl Into<Value>) -> Self {
        self.details.push((key, value.into()));
        self
    }

    /// 100: no tunnel named `name`.
    pub fn tunnel_not_found(name: &str) -> Self {
        Self::new(404, Some(error_code::TUNNEL_NOT_FOUND), "tunnel not found").detail("name", name)
    }

    /// 102: invalid tunnel definition; `err` is the agent's explanation.
    pub fn invalid_config(err: impl Into<String>) -> Self {
        Self::failed(
            400,
            error_code::INVALID_TUNNEL_CONFIG,
            "invalid tunnel configuration",
            err,
        )
    }

    /// 103: the tunnel could not be started.
    pub fn start_failed(err: impl Into<String>) -> Self {
        Self::failed(
            502,
            error_code::TUNNEL_START_FAILED,
            "failed to start tunnel",
            err,
        )
    }

    /// 104: no session with the tunnel service yet.
    pub fn not_ready() -> Self {
        Self::new(
            503,
            Some(error_code::NOT_READY),
            "ngrok is not yet ready to start tunnels",
        )
        .detail(
            "err",
            "a successful ngrok tunnel session has not yet been established",
        )
    }

    /// 106: no captured request with that id.
    pub fn entry_not_found(id: &str) -> Self {
        Self::new(
            404,
            Some(error_code::ENTRY_NOT_FOUND),
            "request entry not found",
        )
        .detail("id", id)
    }

    /// 108: the tunnel name in the path does not unescape.
    pub fn bad_name_escape(err: impl Into<String>) -> Self {
        Self::failed(
            400,
            error_code::BAD_NAME_ESCAPE,
            "failed to unescape tunnel name",
            err,
        )
    }

    /// Framework 400: a body or query parameter could not be decoded.
    pub fn deserialize(err: impl Into<String>) -> Self {
        Self::new(400, None, "failed to deserialize request parameter").detail("err", err.into())
    }

    /// Framework 404: no route; `path` is the decoded path.
    pub fn not_found(path: &str) -> Self {
        Self::new(404, None, "Not Found").detail("path", path)
    }

    /// Framework 405, with `Allow`.
    pub fn method_not_allowed(method: &str, allowed: &str) -> Self {
        let mut e = Self::new(405, None, "Method Not Allowed")
            .detail("allowed", allowed)
            .detail("method", method);
        e.headers.push(("allow", allowed.to_string()));
        e
    }

    /// Framework 406: the `Accept` header names nothing the agent produces.
    pub fn not_acceptable(accept: &str) -> Self {
        let mut e = Self::new(406, None, "unsupported request Accept header")
            .detail("accept-header", accept)
            .detail("supported", offers());
        e.always_json = true;
        e
    }

    /// Framework 415: a POST without a JSON (or XML) content type.
    pub fn unsupported_content_type(content_type: &str) -> Self {
        Self::new(415, None, "unsupported request Content-Type")
            .detail("available", offers())
            .detail("content-type", content_type)
    }

    /// Framework 500: the answer cannot be written as XML (it holds maps).
    pub fn xml_encode_failed() -> Self {
        Self::new(500, None, "failed to encode response")
    }

    /// The JSON body.
    pub fn body_json(&self) -> Value {
        let mut body = Map::new();
        if let Some(code) = self.code {
            body.insert("error_code".to_string(), Value::from(code));
        }
        body.insert("status_code".to_string(), Value::from(self.status));
        body.insert("msg".to_string(), Value::from(self.msg.clone()));
        let mut details = Map::new();
        for (k, v) in &self.details {
            details.insert((*k).to_string(), v.clone());
        }
        body.insert("details".to_string(), Value::Object(details));
        Value::Object(body)
    }

    /// The XML body (Go's encoding of the same error; `details` is a map and is left out).
    pub fn body_xml(&self) -> String {
        let mut out = String::from("<Error>");
        if let Some(code) = self.code {
            xml_elem(&mut out, "ErrorCode", &code.to_string());
        }
        xml_elem(&mut out, "StatusCode", &self.status.to_string());
        xml_elem(&mut out, "Message", &self.msg);
        out.push_str("</Error>");
        out
    }

    /// The HTTP answer in `format`.
    pub fn into_response(self, format: Format) -> Response {
        let format = if self.always_json {
            Format::Json
        } else {
            format
        };
        let body = match format {
            Format::Json => json_line(&self.body_json()),
            Format::Xml(_) => self.body_xml().into_bytes(),
        };
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        let mut resp = (status, body).into_response();
        let headers = resp.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(format.content_type()),
        );
        for (name, value) in &self.headers {
            if let Ok(v) = HeaderValue::from_str(value) {
                headers.insert(*name, v);
            }
        }
        resp
    }
}

fn offers() -> Value {
    Value::from(OFFERS.iter().map(|s| Value::from(*s)).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shapes_match_the_agent() {
        assert_eq!(
            AgentError::tunnel_not_found("nope").body_json(),
            json!({"error_code":100,"status_code":404,"msg":"tunnel not found","details":{"name":"nope"}})
        );
        assert_eq!(
            String::from_utf8(json_line(&AgentError::not_found("/api/x").body_json())).unwrap(),
            "{\"status_code\":404,\"msg\":\"Not Found\",\"details\":{\"path\":\"/api/x\"}}\n"
        );
        assert_eq!(
            AgentError::tunnel_not_found("nope").body_xml(),
            "<Error><ErrorCode>100</ErrorCode><StatusCode>404</StatusCode><Message>tunnel not found</Message></Error>"
        );
    }
}
