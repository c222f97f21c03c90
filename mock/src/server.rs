//! The HTTP side: one handler for every request, which runs the pipeline in a fixed order —
//! control surface aside, then record, rate limit, latency, faults, authentication, and only
//! then the management API — so that what tests observe never depends on which endpoint was
//! hit. Once answered, the status goes into the request log and the stats.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::api_error::{code, ApiError};
use crate::control;
use crate::faults::{answer_or_fault, answered_status, split_decoded};
use crate::incoming::Incoming;
use crate::mgmt::{self, request::ApiRequest};
use crate::ratelimit::RateLimit;
use crate::recorder::Ticket;
use crate::shared::Shared;
use crate::sync::lock;

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

fn is_control(raw_path: &str) -> bool {
    raw_path == "/_mock" || raw_path.starts_with("/_mock/")
}

async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let req = Incoming::read(req, |raw_path| {
        if is_control(raw_path) {
            MAX_CONTROL_BODY
        } else {
            MAX_BODY
        }
    })
    .await;
    if req.body_unread {
        return ApiError::new(
            413,
            code::BODY_TOO_LARGE,
            format!("The request body is larger than {MAX_BODY} bytes or could not be read."),
        )
        .into_response();
    }
    if is_control(&req.raw_path) {
        return control::handle(&shared, &req.method, &req.raw_path, &req.body);
    }

    let mut outcome = StatusGuard {
        shared: &shared,
        ticket: req.record(&shared.recorder),
        status: 0,
    };
    shared.stats.arrived();
    let resp = pipeline(&shared, &req).await;
    outcome.status = answered_status(&resp);
    resp
}

/// Writes a request's status into the log and the stats when its handling ends, even when it
/// never finishes (the connection or the server went away: status 0), so that the stats'
/// `by_status` always adds up to `requests` once nothing is in progress.
struct StatusGuard<'a> {
    shared: &'a Shared,
    ticket: Ticket,
    status: u16,
}

impl Drop for StatusGuard<'_> {
    fn drop(&mut self) {
        self.shared.recorder.answered(self.ticket, self.status);
        self.shared.stats.answered(self.status);
    }
}

/// What follows recording: the rate limit (decided on arrival), latency, faults, then the
/// API itself.
async fn pipeline(shared: &Shared, req: &Incoming) -> Response {
    let cfg = shared.config();
    let refused = cfg.rate_limit.and_then(|limit| admit(shared, limit).err());

    if cfg.latency_ms > 0 {
        shared
            .clock
            .sleep(Duration::from_millis(cfg.latency_ms))
            .await;
    }
    if let Some(e) = refused {
        return e.into_response();
    }

    let segments = split_decoded(&req.raw_path);
    answer_or_fault(
        &shared.faults,
        &shared.clock,
        &req.method,
        &segments,
        || async { answer(shared, req, &segments) },
    )
    .await
}

/// Counts the request against the account's rate limit, or refuses it (429).
fn admit(shared: &Shared, limit: RateLimit) -> Result<(), ApiError> {
    let result = lock(&shared.rate_window).admit(limit, shared.clock.now());
    if result.is_err() {
        shared.stats.rate_limited();
    }
    result
}

/// Authentication, routing and the endpoint: the API's own answer.
fn answer(shared: &Shared, req: &Incoming, segments: &[String]) -> Response {
    if let Err(e) = authenticate(shared, req) {
        return e.into_response();
    }
    let api_req = ApiRequest {
        method: &req.method,
        segments,
        query: req.query.as_deref(),
        content_type: req.header(&header::CONTENT_TYPE),
        body: &req.body,
    };
    match mgmt::dispatch(shared, &api_req, &req.raw_path) {
        Ok(reply) => reply.into_response(),
        Err(e) => e.into_response(),
    }
}

fn authenticate(shared: &Shared, req: &Incoming) -> Result<(), ApiError> {
    let presented = req
        .header(&header::AUTHORIZATION)
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, key)| key.trim());
    if presented != Some(shared.api_key.as_str()) {
        return Err(ApiError::unauthorized());
    }
    match req.headers.get("service-version") {
        Some(v) if v.as_bytes().trim_ascii() == b"2" => Ok(()),
        Some(v) => Err(ApiError::service_version(Some(&String::from_utf8_lossy(
            v.as_bytes(),
        )))),
        None => Err(ApiError::service_version(None)),
    }
}
