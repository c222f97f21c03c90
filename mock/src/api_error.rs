//! The one error shape every failing API request gets, the table of error codes, and how a
//! JSON answer goes on the wire (shared by errors, replies and the control surface).
//!
//! Keeping all codes here means the client side can rely on one stable list (it is repeated
//! in `mock/SPEC.md`), and no handler can invent a differently shaped error body.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::ids;

/// Error codes (the `<n>` of `ERR_NGROK_<n>`), one per kind of failure.
pub mod code {
    /// 401: missing or wrong `Authorization: Bearer` key.
    pub const UNAUTHORIZED: u32 = 201;
    /// 400: `Service-Version` header missing or not `2`.
    pub const SERVICE_VERSION: u32 = 202;
    /// 415: a body was sent without `Content-Type: application/json`.
    pub const CONTENT_TYPE: u32 = 203;
    /// 400: the body is not JSON, or not a JSON object.
    pub const BAD_JSON: u32 = 204;
    /// 400: the body has a field the endpoint does not know.
    pub const UNKNOWN_FIELD: u32 = 205;
    /// 400: a field has the wrong type, is too long, missing, or not an allowed value.
    pub const INVALID_FIELD: u32 = 206;
    /// 400: a query parameter (`limit`) is invalid.
    pub const INVALID_QUERY: u32 = 207;
    /// 413: the body is larger than the emulator accepts.
    pub const BODY_TOO_LARGE: u32 = 208;
    /// 429: the account's rate limit (`/_mock/config` `rate_limit`) is exceeded.
    pub const RATE_LIMITED: u32 = 226;
    /// 404: no resource with that id (or source type, or TLS module).
    pub const NOT_FOUND: u32 = 404;
    /// 404: no endpoint at that path.
    pub const NO_ROUTE: u32 = 405;
    /// 405: the path exists but not with that method.
    pub const METHOD_NOT_ALLOWED: u32 = 406;
    /// 400: restart of a session whose agent runs on Windows.
    pub const RESTART_UNSUPPORTED: u32 = 410;
    /// 400: update refused under one of the conditions of rule 3.
    pub const UPDATE_REFUSED: u32 = 411;
    /// 400: the event destination is still referenced by a subscription.
    pub const DESTINATION_IN_USE: u32 = 412;
    /// 400: the event source type is already on the subscription.
    pub const SOURCE_EXISTS: u32 = 413;
    /// 400: a referenced event destination does not exist.
    pub const NO_SUCH_DESTINATION: u32 = 414;
    /// Any status: a fault injected through `/_mock/faults` without its own body.
    pub const INJECTED: u32 = 999;
}

/// A failed API request: status, code, message and details, rendered as the error body.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status code.
    pub status: u16,
    /// Number in `ERR_NGROK_<n>`; see [`code`].
    pub code: u32,
    /// Human-readable message.
    pub msg: String,
    /// Extra keys for `details`, beside `operation_id` (e.g. `field`). A list rather than a
    /// map keeps the error small enough to pass around in `Result`s cheaply.
    pub details: Vec<(String, Value)>,
    /// Extra response headers (e.g. `Allow` on a 405).
    pub headers: Vec<(&'static str, String)>,
}

impl ApiError {
    /// An error with the given status, code and message and no extra details.
    pub fn new(status: u16, code: u32, msg: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            msg: msg.into(),
            details: Vec::new(),
            headers: Vec::new(),
        }
    }

    /// Adds a key to `details`.
    pub fn detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details.push((key.to_string(), value.into()));
        self
    }

    /// 401 for a missing or wrong API key.
    pub fn unauthorized() -> Self {
        let mut e = ApiError::new(
            401,
            code::UNAUTHORIZED,
            "The API key is missing or invalid. Send it as 'Authorization: Bearer <API key>'.",
        );
        e.headers.push(("www-authenticate", "Bearer".to_string()));
        e
    }

    /// 400 for a missing or unsupported `Service-Version`.
    pub fn service_version(got: Option<&str>) -> Self {
        let msg = match got {
            None => "The Service-Version header is missing; this API requires Service-Version: 2."
                .to_string(),
            Some(v) => format!(
                "Service-Version '{v}' is not supported; this API requires Service-Version: 2."
            ),
        };
        ApiError::new(400, code::SERVICE_VERSION, msg)
    }

    /// 400 for a field with a bad value; `field` is a dotted path into the body.
    pub fn invalid(field: &str, msg: impl Into<String>) -> Self {
        ApiError::new(400, code::INVALID_FIELD, msg).detail("field", field)
    }

    /// 400 for a field the endpoint does not accept.
    pub fn unknown_field(field: &str) -> Self {
        ApiError::new(
            400,
            code::UNKNOWN_FIELD,
            format!("Unknown field '{field}' in the request body."),
        )
        .detail("field", field)
    }

    /// 404 for an id (or type) that names nothing; `what` is e.g. "ip policy".
    pub fn not_found(what: &str, id: &str) -> Self {
        ApiError::new(
            404,
            code::NOT_FOUND,
            format!("The {what} '{id}' was not found."),
        )
        .detail("id", id)
    }

    /// 404 for a path that is not an endpoint.
    pub fn no_route(raw_path: &str) -> Self {
        ApiError::new(
            404,
            code::NO_ROUTE,
            format!("There is no API endpoint at {raw_path}."),
        )
    }

    /// 405 for a known path used with the wrong method.
    pub fn method_not_allowed(method: &str, allowed: &[&str]) -> Self {
        let mut e = ApiError::new(
            405,
            code::METHOD_NOT_ALLOWED,
            format!(
                "Method {method} is not allowed here; allowed: {}.",
                allowed.join(", ")
            ),
        );
        e.headers.push(("allow", allowed.join(", ")));
        e
    }

    /// The JSON body, with a fresh operation id.
    pub fn body(&self) -> Value {
        let mut details = Map::new();
        details.insert(
            "operation_id".to_string(),
            Value::String(format!("op_{}", ids::random(27))),
        );
        for (k, v) in &self.details {
            details.insert(k.clone(), v.clone());
        }
        json!({
            "error_code": format!("ERR_NGROK_{}", self.code),
            "status_code": self.status,
            "msg": self.msg,
            "details": details,
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = if StatusCode::from_u16(self.status).is_ok() {
            self.status
        } else {
            StatusCode::BAD_REQUEST.as_u16()
        };
        let mut resp = json_response(status, &self.body());
        let headers = resp.headers_mut();
        for (name, value) in &self.headers {
            if let Ok(v) = HeaderValue::from_str(value) {
                headers.insert(*name, v);
            }
        }
        resp
    }
}

/// A JSON value as bytes; serializing a `Value` cannot fail, but an empty object is the
/// fallback rather than a panic.
pub fn json_bytes(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec())
}

/// A JSON response with the given status (200 if the status is not a valid one).
pub fn json_response(status: u16, value: &Value) -> Response {
    let mut resp = Response::new(Body::from(json_bytes(value)));
    *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}
