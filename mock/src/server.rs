//! The HTTP side: one handler for every request, which runs the pipeline in a fixed order —
//! control surface aside, then record, latency, faults, authentication, and only then the
//! management API — so that what tests observe never depends on which endpoint was hit.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::control;
use crate::errors::{code, json_bytes, ApiError};
use crate::faults::split_decoded;
use crate::mgmt::{self, ApiRequest, Reply};
use crate::recorder::RecordedRequest;
use crate::store::{lock, Shared};

/// Bodies larger than this are refused; far above anything the API takes.
const MAX_BODY: usize = 16 * 1024 * 1024;
/// Control bodies may be much larger: seeding a thousand 64 KB captures is one request.
const MAX_CONTROL_BODY: usize = 1024 * 1024 * 1024;

/// Serves `listener` until `shutdown` fires (or its sender is dropped).
pub async fn run(listener: TcpListener, shared: Arc<Shared>, shutdown: oneshot::Receiver<()>) {
    let app = Router::new().fallback(handle).with_state(shared);
    let serve = axum::serve(listener, app);
    tokio::select! {
        result = std::future::IntoFuture::into_future(serve) => {
            if let Err(e) = result {
                eprintln!("tunnelctl-mock: server stopped: {e}");
            }
        }
        _ = shutdown => {}
    }
}

async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let method = parts.method.as_str().to_ascii_uppercase();
    let raw_path = parts.uri.path().to_string();
    let query = parts.uri.query().map(str::to_string);
    let is_control = raw_path == "/_mock" || raw_path.starts_with("/_mock/");
    let limit = if is_control {
        MAX_CONTROL_BODY
    } else {
        MAX_BODY
    };
    let body = match to_bytes(body, limit).await {
        Ok(b) => b,
        Err(_) => {
            return ApiError::new(
                413,
                code::BODY_TOO_LARGE,
                format!("The request body is larger than {MAX_BODY} bytes or could not be read."),
            )
            .into_response()
        }
    };
    let content_type = header_str(&parts.headers, header::CONTENT_TYPE.as_str());

    if is_control {
        return control::handle(&shared, &method, &raw_path, &body);
    }

    shared.recorder.record(RecordedRequest {
        method: method.clone(),
        path: raw_path.clone(),
        query: query.clone(),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_ascii_lowercase(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: body.to_vec(),
    });

    let latency = shared.config().latency_ms;
    if latency > 0 {
        tokio::time::sleep(Duration::from_millis(latency)).await;
    }

    let segments = split_decoded(&raw_path);
    let fault = lock(&shared.faults).take(&method, &segments);
    if let Some(fault) = fault {
        if fault.delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(fault.delay_ms)).await;
        }
        return fault.into_response();
    }

    if let Err(e) = authenticate(&shared, &parts.headers) {
        return e.into_response();
    }

    let api_req = ApiRequest {
        method: &method,
        segments: &segments,
        query: query.as_deref(),
        content_type,
        body: &body,
    };
    match mgmt::dispatch(&shared, &api_req, &raw_path) {
        Ok(reply) => reply_response(reply),
        Err(e) => e.into_response(),
    }
}

fn header_str<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn authenticate(shared: &Shared, headers: &HeaderMap) -> Result<(), ApiError> {
    let presented = header_str(headers, header::AUTHORIZATION.as_str())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, key)| key.trim());
    if presented != Some(shared.api_key.as_str()) {
        return Err(ApiError::unauthorized());
    }
    match headers.get("service-version") {
        Some(v) if v.as_bytes().trim_ascii() == b"2" => Ok(()),
        Some(v) => Err(ApiError::service_version(Some(&String::from_utf8_lossy(
            v.as_bytes(),
        )))),
        None => Err(ApiError::service_version(None)),
    }
}

/// The HTTP response for a successful handler result.
pub fn reply_response(reply: Reply) -> Response {
    match reply {
        Reply::NoContent => StatusCode::NO_CONTENT.into_response(),
        Reply::Json(status, value) => json_response(status, &value),
    }
}

/// A JSON response with the given status.
pub fn json_response(status: u16, value: &serde_json::Value) -> Response {
    let mut resp = Response::new(Body::from(json_bytes(value)));
    *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}
