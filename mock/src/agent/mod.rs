//! The local agent API: the second half of the emulator, on its own loopback port under
//! `/api`, answering like the real tunnel agent (status codes, bodies, error shapes, media
//! types), with tunnels that really forward traffic and capture it.
//!
//! This module holds the agent's request pipeline (its state is in `state`): record the
//! request, apply an injected fault (paths under `/api/`; an `after` fault once the agent has
//! answered), decode the path as Go's server does, negotiate the answer's format, route, then
//! hand over to the endpoint's module. The order is the
//! agent's: a bad `Accept` is refused before the path is even looked at.

pub mod agent_control;
pub mod agent_error;
pub mod captures;
pub mod config;
pub mod decode;
pub mod encode;
pub mod http1;
pub mod ksuid;
pub mod metrics;
pub mod negotiate;
pub mod proxy;
pub mod replay;
pub mod state;
pub mod tunnels;

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use bytes::Bytes;
use serde_json::{json, Value};
use tokio::net::TcpListener;

use crate::faults::{answer_or_fault, answered_status, split_decoded};
use crate::incoming::Incoming;
use crate::shared::Shared;

use agent_error::AgentError;
use encode::json_line;
use negotiate::{Format, RequestMedia};
use state::Agent;

/// Bodies larger than this are not read (the agent API takes small JSON bodies).
const MAX_BODY: usize = 16 * 1024 * 1024;

/// Serves the agent API on `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let app = Router::new().fallback(handle).with_state(shared);
    if let Err(e) = axum::serve(listener, app).await {
        eprintln!("tunnelctl-mock: agent API stopped: {e}");
    }
}

/// The endpoints, after path decoding.
#[derive(Debug, Clone, PartialEq)]
enum Route {
    Root,
    Tunnels,
    Tunnel(String),
    Requests,
    Request(String),
}

impl Route {
    /// The methods the agent allows, as its `Allow` header lists them.
    fn allow(&self) -> &'static str {
        match self {
            Route::Root | Route::Request(_) => "GET",
            Route::Tunnels => "POST, GET",
            Route::Tunnel(_) => "GET, DELETE",
            Route::Requests => "GET, POST, DELETE",
        }
    }
}

/// Routes a decoded path. A single trailing slash is accepted, like the agent's router; a
/// name or id with `?` or `#` in it (only possible percent-encoded) matches nothing.
fn route(path: &str) -> Option<Route> {
    let rest = path.strip_prefix("/api")?;
    if rest.is_empty() || rest == "/" {
        return Some(Route::Root);
    }
    let rest = rest.strip_prefix('/')?;
    let segs: Vec<&str> = rest.split('/').collect();
    let segs = match segs.split_last() {
        Some((last, init)) if last.is_empty() && !init.is_empty() => init,
        _ => segs.as_slice(),
    };
    let plain = |s: &str| !s.is_empty() && !s.contains(['?', '#']);
    match segs {
        ["tunnels"] => Some(Route::Tunnels),
        ["tunnels", name] if plain(name) => Some(Route::Tunnel((*name).to_string())),
        ["requests", "http"] => Some(Route::Requests),
        ["requests", "http", id] if plain(id) => Some(Route::Request((*id).to_string())),
        _ => None,
    }
}

async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    // A body that cannot be read is taken as empty, as the agent does.
    let req = Incoming::read(req, |_| MAX_BODY).await;
    let log = &shared.agent.recorder;
    let ticket = req.record(log);
    let segments = split_decoded(&req.raw_path);
    let resp = answer_or_fault(
        &shared.faults,
        &shared.clock,
        &req.method,
        &segments,
        || answer(&shared.agent, &req),
    )
    .await;
    log.answered(ticket, answered_status(&resp));
    resp
}

/// The agent's own answer: decode the path, negotiate, route, then the endpoint.
async fn answer(agent: &Agent, req: &Incoming) -> Response {
    let (method, raw_path, query, body) = (
        req.method.as_str(),
        req.raw_path.as_str(),
        req.query.as_deref(),
        &req.body[..],
    );
    // Go's server decodes the path before anything else; a bad escape never gets further.
    let Ok(path) = decode::path_unescape(raw_path) else {
        return go_bad_request();
    };
    if path == "/" {
        return redirect_to_inspector();
    }
    let accept = req.header(&header::ACCEPT);
    let Some(format) = negotiate::accept(accept) else {
        return AgentError::not_acceptable(accept.unwrap_or("")).into_response(Format::Json);
    };
    let result = match route(&path) {
        None => Err(AgentError::not_found(&path)),
        Some(route) => {
            let as_get = if method == "HEAD" { "GET" } else { method };
            let allowed = route.allow().split(", ").any(|m| m == as_get);
            if allowed {
                let content_type = req.header(&header::CONTENT_TYPE);
                let call = Call {
                    agent,
                    method: as_get,
                    query,
                    content_type,
                    body,
                    format,
                };
                dispatch(&call, route).await
            } else {
                Err(AgentError::method_not_allowed(method, route.allow()))
            }
        }
    };
    match result {
        Ok(reply) => reply.into_response(format),
        Err(e) => e.into_response(format),
    }
}

/// One API call, after routing.
struct Call<'a> {
    agent: &'a Agent,
    method: &'a str,
    query: Option<&'a str>,
    content_type: Option<&'a str>,
    body: &'a [u8],
    format: Format,
}

impl Call<'_> {
    /// The body of a POST as the agent reads it; XML bodies decode to nothing.
    fn json_body(&self) -> Result<Option<Value>, AgentError> {
        match negotiate::content_type(self.content_type) {
            None => Err(AgentError::unsupported_content_type(
                self.content_type.unwrap_or(""),
            )),
            Some(RequestMedia::Xml) => Ok(None),
            Some(RequestMedia::Json) => decode::first_value(self.body)
                .map(Some)
                .map_err(AgentError::deserialize),
        }
    }
}

/// A successful answer.
enum AgentReply {
    /// 200/201 with a JSON value (or its XML form, when there is one).
    Value(u16, Value, Option<String>),
    /// 200 with a JSON body already in pieces (captured requests), XML when given.
    Pieces(Vec<Bytes>, Option<String>),
    /// 204.
    NoContent,
}

impl AgentReply {
    fn into_response(self, format: Format) -> Response {
        let (status, body) = match (self, format) {
            (AgentReply::NoContent, _) => (StatusCode::NO_CONTENT, Body::empty()),
            // The agent has already sent its status when encoding fails: 200 with an error.
            (AgentReply::Value(_, _, None) | AgentReply::Pieces(_, None), Format::Xml(_)) => {
                let mut resp = AgentError::xml_encode_failed().into_response(format);
                *resp.status_mut() = StatusCode::OK;
                return resp;
            }
            (AgentReply::Value(status, _, Some(xml)), Format::Xml(_)) => {
                (code(status), Body::from(xml))
            }
            (AgentReply::Pieces(_, Some(xml)), Format::Xml(_)) => (StatusCode::OK, Body::from(xml)),
            (AgentReply::Value(status, value, _), Format::Json) => {
                (code(status), Body::from(json_line(&value)))
            }
            (AgentReply::Pieces(pieces, _), Format::Json) => (
                StatusCode::OK,
                Body::from_stream(Pieces(pieces.into_iter())),
            ),
        };
        let mut resp = (status, body).into_response();
        resp.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(format.content_type()),
        );
        resp
    }
}

fn code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::OK)
}

/// A body made of shared pieces, sent one after the other without copying them.
struct Pieces(std::vec::IntoIter<Bytes>);

impl futures_core::Stream for Pieces {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.next().map(Ok))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

/// A text answer with its content type and one more header.
fn text(
    status: StatusCode,
    body: &'static str,
    content_type: &'static str,
    extra: (header::HeaderName, &'static str),
) -> Response {
    let mut resp = (status, body).into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(extra.0, HeaderValue::from_static(extra.1));
    resp
}

/// Go's answer to a request whose path has a bad escape.
fn go_bad_request() -> Response {
    text(
        StatusCode::BAD_REQUEST,
        "400 Bad Request",
        "text/plain; charset=utf-8",
        (header::CONNECTION, "close"),
    )
}

/// `GET /` on the agent's port sends browsers to its web inspector.
fn redirect_to_inspector() -> Response {
    text(
        StatusCode::FOUND,
        "<a href=\"/inspect/http\">Found</a>.\n\n",
        "text/html; charset=utf-8",
        (header::LOCATION, "/inspect/http"),
    )
}

async fn dispatch(call: &Call<'_>, route: Route) -> Result<AgentReply, AgentError> {
    let agent = call.agent;
    match (call.method, route) {
        ("GET", Route::Root) => Ok(AgentReply::Value(
            200,
            json!({"tunnels_uri": "/api/tunnels", "http_requests_uri": "/api/requests/http"}),
            None,
        )),
        ("GET", Route::Tunnels) => {
            let tunnels = agent.tunnels();
            let legs = tunnels.shuffled();
            let list: Vec<Value> = legs.iter().map(|l| l.to_json()).collect();
            let xml = matches!(call.format, Format::Xml(_)).then(|| {
                let mut out = String::from("<tunnelListResource>");
                for l in &legs {
                    l.push_xml(&mut out, "Tunnels");
                }
                out.push_str("<URI>/api/tunnels</URI></tunnelListResource>");
                out
            });
            Ok(AgentReply::Value(
                200,
                json!({"tunnels": list, "uri": "/api/tunnels"}),
                xml,
            ))
        }
        ("POST", Route::Tunnels) => start_tunnel(call).await,
        ("GET" | "DELETE", Route::Tunnel(segment)) => {
            // The agent unescapes the name once more after the router has.
            let name = decode::path_unescape(&segment).map_err(AgentError::bad_name_escape)?;
            let mut tunnels = agent.tunnels();
            if call.method == "DELETE" {
                if tunnels.remove(&name) {
                    return Ok(AgentReply::NoContent);
                }
                return Err(AgentError::tunnel_not_found(&name));
            }
            let leg = tunnels
                .get(&name)
                .ok_or_else(|| AgentError::tunnel_not_found(&name))?;
            let xml = matches!(call.format, Format::Xml(_)).then(|| {
                let mut out = String::new();
                leg.push_xml(&mut out, "tunnelResource");
                out
            });
            Ok(AgentReply::Value(200, leg.to_json(), xml))
        }
        ("GET", Route::Requests) => list_requests(call),
        ("POST", Route::Requests) => {
            let body = call.json_body()?.unwrap_or(Value::Null);
            replay::replay(agent, &body).await?;
            Ok(AgentReply::NoContent)
        }
        ("DELETE", Route::Requests) => {
            agent.captures.clear();
            Ok(AgentReply::NoContent)
        }
        ("GET", Route::Request(id)) => {
            let json = agent
                .captures
                .render_one(&id)
                .ok_or_else(|| AgentError::entry_not_found(&id))?;
            Ok(AgentReply::Pieces(
                vec![json, Bytes::from_static(b"\n")],
                None,
            ))
        }
        (method, route) => Err(AgentError::method_not_allowed(method, route.allow())),
    }
}

async fn start_tunnel(call: &Call<'_>) -> Result<AgentReply, AgentError> {
    let agent = call.agent;
    let body = match call.json_body()? {
        Some(v) => v,
        // An XML body leaves the agent with nothing to decode.
        None => return Err(AgentError::invalid_config("unexpected end of JSON input")),
    };
    let spec = config::parse(&body, call.body).map_err(AgentError::invalid_config)?;
    if !agent.ready() {
        return Err(AgentError::not_ready());
    }
    if let Some(err) = agent.start_error() {
        return Err(AgentError::start_failed(err));
    }
    let started = tunnels::start(&spec, &agent.captures).await?;
    let mut tunnels = agent.tunnels();
    let first = tunnels::register(&mut tunnels, started);
    let first_leg = spec.legs.first().and_then(|(name, _)| tunnels.get(name));
    let xml = match (&call.format, first_leg) {
        (Format::Xml(_), Some(leg)) => {
            let mut out = String::new();
            leg.push_xml(&mut out, "tunnelResource");
            Some(out)
        }
        _ => None,
    };
    Ok(AgentReply::Value(201, first, xml))
}

fn list_requests(call: &Call<'_>) -> Result<AgentReply, AgentError> {
    let mut limit: Option<i64> = None;
    let mut tunnel_name: Option<String> = None;
    let params = decode::parse_query(call.query.unwrap_or(""));
    let mut seen: Vec<(&str, Vec<&str>)> = Vec::new();
    for (k, v) in &params {
        match seen.iter_mut().find(|(n, _)| n == k) {
            Some((_, vs)) => vs.push(v),
            None => seen.push((k, vec![v])),
        }
    }
    for (key, values) in seen {
        if values.len() > 1 {
            return Err(AgentError::deserialize(format!(
                "param: error parsing key \"{key}\": expected single value but was given {}: [{}]",
                values.len(),
                values.join(" ")
            )));
        }
        let value = values[0];
        match key {
            "limit" => limit = Some(parse_go_int(key, value)?),
            "tunnel_name" => tunnel_name = Some(value.to_string()),
            other => {
                return Err(AgentError::deserialize(format!(
                    "param: error parsing key \"{other}\": unknown field \"{other}\" on struct \"{other}\" of type web.getRequestsParam"
                )))
            }
        }
    }
    let tunnel = tunnel_name.as_deref().filter(|t| !t.is_empty());
    let items = call.agent.captures.list(limit.unwrap_or(0), tunnel);
    let xml = items.is_empty().then(|| {
        "<requestListResource><URI>/api/requests/http</URI></requestListResource>".to_string()
    });
    let mut pieces = Vec::with_capacity(items.len() + 2);
    pieces.push(Bytes::from_static(
        b"{\"uri\":\"/api/requests/http\",\"requests\":[",
    ));
    pieces.extend(items);
    pieces.push(Bytes::from_static(b"]}\n"));
    Ok(AgentReply::Pieces(pieces, xml))
}

/// Go's `strconv.ParseInt(v, 10, 64)` with the agent's error wording.
fn parse_go_int(key: &str, v: &str) -> Result<i64, AgentError> {
    let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
    let syntax_ok = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let why = if !syntax_ok {
        "invalid syntax"
    } else {
        match v.trim_start_matches('+').parse::<i64>() {
            Ok(n) => return Ok(n),
            Err(_) => "value out of range",
        }
    };
    Err(AgentError::deserialize(format!(
        "param: error parsing key \"{key}\" as int: strconv.ParseInt: parsing \"{v}\": {why}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_like_the_agent() {
        assert_eq!(route("/api"), Some(Route::Root));
        assert_eq!(route("/api/"), Some(Route::Root));
        assert_eq!(route("/api/tunnels"), Some(Route::Tunnels));
        assert_eq!(route("/api/tunnels/"), Some(Route::Tunnels));
        assert_eq!(route("/api/tunnels/t1"), Some(Route::Tunnel("t1".into())));
        assert_eq!(route("/api/tunnels/t1/"), Some(Route::Tunnel("t1".into())));
        assert_eq!(route("/api/tunnels/a/b"), None);
        assert_eq!(route("/api/tunnels//"), None);
        assert_eq!(route("/api//tunnels"), None);
        assert_eq!(route("/api/tunnels/q?x"), None);
        assert_eq!(route("/api/requests"), None);
        assert_eq!(route("/api/requests/"), None);
        assert_eq!(route("/api/requests/http/"), Some(Route::Requests));
        assert_eq!(route("/api/status"), None);
        assert_eq!(route("/apix"), None);
    }

    #[test]
    fn limits_parse_like_strconv() {
        assert_eq!(parse_go_int("limit", "+3").ok(), Some(3));
        assert_eq!(parse_go_int("limit", "-1").ok(), Some(-1));
        assert!(parse_go_int("limit", "")
            .unwrap_err()
            .body_json()
            .to_string()
            .contains("parsing \\\"\\\": invalid syntax"));
        assert!(parse_go_int("limit", "99999999999999999999")
            .unwrap_err()
            .body_json()
            .to_string()
            .contains("value out of range"));
    }
}
