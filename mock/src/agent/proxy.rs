//! The tunnels' listeners and the forwarding behind them: each leg listens on a loopback
//! port (its "edge"); HTTP legs forward each request to the upstream byte for byte and
//! capture the exchange, tcp and tls legs splice bytes both ways.
//!
//! Like the real agent, the proxy does not rewrite anything: the upstream receives the
//! visitor's bytes as sent (Host header included) and the visitor receives the upstream's
//! answer as sent. When the upstream cannot be reached the visitor gets the agent's 502 page,
//! and that is what gets captured.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::captures::{Capture, CapturedRequest, CapturedResponse, Captures};
use super::config::{LegKind, Upstream};
use super::http1::{Conn, Framing, RequestHead, ResponseHead};
use super::metrics::Metrics;
use crate::timestamp;

/// How long connecting to an upstream may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The answer to a visitor whose request cannot be parsed (Go's server sends the same).
const BAD_REQUEST: &[u8] =
    b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request";

/// What a leg's connections need to know.
#[derive(Debug)]
pub struct LegCtx {
    /// Leg name (`t1`, `t1 (http)`), the captures' `tunnel_name`.
    pub name: String,
    /// What the leg forwards.
    pub kind: LegKind,
    /// Where it forwards to.
    pub upstream: Upstream,
    /// `config.addr`, for the 502 page.
    pub addr: String,
    /// `public_url`, for the 502 page.
    pub public_url: String,
    /// Whether exchanges are captured.
    pub inspect: bool,
    /// The leg's metrics.
    pub metrics: Arc<Metrics>,
    /// Where captures go.
    pub captures: Arc<Captures>,
}

/// Accepts visitors until the task is aborted (the leg stopped); aborting drops the
/// connection tasks with it.
pub async fn run(listener: TcpListener, ctx: Arc<LegCtx>) {
    let mut conns = JoinSet::new();
    loop {
        while conns.try_join_next().is_some() {}
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of descriptors or similar: wait a little rather than spin.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let ctx = Arc::clone(&ctx);
        conns.spawn(async move {
            ctx.metrics.conn_opened();
            let started = Instant::now();
            if ctx.kind.is_http() {
                serve_http(&ctx, stream, peer).await;
            } else {
                serve_raw(&ctx, stream).await;
            }
            ctx.metrics.conn_closed(started.elapsed());
        });
    }
}

/// Connects to an upstream, IPv4 addresses first as Go's dialer does; the error is worded
/// like Go's (`dial tcp 127.0.0.1:9999: connect: connection refused`).
async fn connect(host_port: &str) -> Result<TcpStream, String> {
    let attempt = async {
        let mut addrs: Vec<SocketAddr> = tokio::net::lookup_host(host_port)
            .await
            .map_err(|e| format!("dial tcp: lookup {host_port}: {e}"))?
            .collect();
        addrs.sort_by_key(|a| a.is_ipv6());
        let mut first_error = None;
        for addr in addrs {
            match TcpStream::connect(addr).await {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    return Ok(stream);
                }
                Err(e) => {
                    first_error.get_or_insert_with(|| dial_error(&addr.to_string(), &e));
                }
            }
        }
        Err(first_error.unwrap_or_else(|| format!("dial tcp: lookup {host_port}: no such host")))
    };
    match tokio::time::timeout(CONNECT_TIMEOUT, attempt).await {
        Ok(result) => result,
        Err(_) => Err(format!("dial tcp {host_port}: i/o timeout")),
    }
}

fn dial_error(addr: &str, e: &io::Error) -> String {
    let reason = match e.kind() {
        io::ErrorKind::ConnectionRefused => "connect: connection refused".to_string(),
        _ => format!("connect: {e}"),
    };
    format!("dial tcp {addr}: {reason}")
}

async fn serve_raw(ctx: &LegCtx, mut visitor: TcpStream) {
    let Ok(mut upstream) = connect(&ctx.upstream.host_port).await else {
        return;
    };
    let _ = tokio::io::copy_bidirectional(&mut visitor, &mut upstream).await;
}

/// How forwarding one request ended.
enum Forwarding {
    /// The response was forwarded whole.
    Forwarded {
        head: ResponseHead,
        raw: Vec<u8>,
        keep_alive: bool,
    },
    /// Nothing reached the visitor: answer with the 502 page.
    Failed(String),
    /// The response broke off half way (or the visitor went away).
    Broken(Option<(ResponseHead, Vec<u8>)>),
    /// `101 Switching Protocols`: splice the two connections from now on.
    Upgraded {
        head: ResponseHead,
        raw: Vec<u8>,
        upstream: Conn,
    },
}

async fn serve_http(ctx: &LegCtx, stream: TcpStream, peer: SocketAddr) {
    let _ = stream.set_nodelay(true);
    let mut visitor = Conn::new(stream);
    let mut upstream: Option<Conn> = None;
    let remote_ip = peer.ip().to_string();
    loop {
        let head = match visitor.read_head(true).await {
            Ok(Some(h)) => h,
            Ok(None) => return,
            // Not HTTP: like the agent, pass the bytes through untouched and uncaptured.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                splice_unparsed(ctx, visitor, upstream).await;
                return;
            }
            Err(_) => return,
        };
        let started = Instant::now();
        let start = timestamp::now();
        let Ok(req) = RequestHead::parse(&head) else {
            let _ = visitor.stream.write_all(BAD_REQUEST).await;
            return;
        };
        let Ok(framing) = req.framing() else {
            let _ = visitor.stream.write_all(BAD_REQUEST).await;
            return;
        };
        if req.expects_continue()
            && framing != Framing::Empty
            && visitor
                .stream
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .await
                .is_err()
        {
            return;
        }
        let mut raw = head;
        if visitor
            .read_body::<TcpStream>(framing, &mut raw, None)
            .await
            .is_err()
        {
            return;
        }
        let raw = Bytes::from(raw);
        let capture_id = ctx.inspect.then(|| {
            ctx.captures.insert(pending_capture(
                &ctx.name,
                &remote_ip,
                start,
                &req,
                raw.clone(),
            ))
        });
        let finish = |head: &ResponseHead, resp_raw: Vec<u8>| {
            let elapsed = started.elapsed();
            ctx.metrics.request_done(elapsed);
            if let Some(id) = &capture_id {
                ctx.captures
                    .complete(id, captured_response(head, resp_raw), nanos(elapsed));
            }
        };
        match forward(ctx, &mut upstream, &mut visitor.stream, &req, &raw).await {
            Forwarding::Forwarded {
                head,
                raw: resp_raw,
                keep_alive,
            } => {
                finish(&head, resp_raw);
                if !keep_alive || req.wants_close() {
                    let _ = visitor.stream.shutdown().await;
                    return;
                }
            }
            Forwarding::Failed(err) => {
                let page = bad_gateway_page(ctx, &err);
                let _ = visitor.stream.write_all(&page).await;
                if let Ok(head) = ResponseHead::parse(&page) {
                    finish(&head, page);
                }
                let _ = visitor.stream.shutdown().await;
                return;
            }
            Forwarding::Broken(partial) => {
                if let Some((head, resp_raw)) = partial {
                    finish(&head, resp_raw);
                }
                return;
            }
            Forwarding::Upgraded {
                head,
                raw: resp_raw,
                upstream: mut up,
            } => {
                finish(&head, resp_raw);
                let to_upstream = visitor.leftover();
                let to_visitor = up.leftover();
                if up.stream.write_all(&to_upstream).await.is_err()
                    || visitor.stream.write_all(&to_visitor).await.is_err()
                {
                    return;
                }
                let _ = tokio::io::copy_bidirectional(&mut visitor.stream, &mut up.stream).await;
                return;
            }
        }
    }
}

/// Forwards a connection whose bytes are not HTTP: what was read goes to the upstream,
/// then bytes flow both ways as on a tcp tunnel.
async fn splice_unparsed(ctx: &LegCtx, mut visitor: Conn, upstream: Option<Conn>) {
    let mut up = match upstream {
        Some(up) => up,
        None => match connect(&ctx.upstream.host_port).await {
            Ok(s) => Conn::new(s),
            Err(_) => return,
        },
    };
    let pending = visitor.leftover();
    if up.stream.write_all(&pending).await.is_err() {
        return;
    }
    let _ = tokio::io::copy_bidirectional(&mut visitor.stream, &mut up.stream).await;
}

/// Sends one request upstream (reusing a kept-alive connection when there is one) and
/// streams the response to the visitor.
async fn forward(
    ctx: &LegCtx,
    upstream: &mut Option<Conn>,
    visitor: &mut TcpStream,
    req: &RequestHead,
    raw: &[u8],
) -> Forwarding {
    if ctx.upstream.tls {
        return Forwarding::Failed(format!(
            "the emulator does not speak TLS to upstreams ({})",
            ctx.addr
        ));
    }
    for _attempt in 0..2 {
        let reused = upstream.is_some();
        let mut up = match upstream.take() {
            Some(up) => up,
            None => match connect(&ctx.upstream.host_port).await {
                Ok(s) => Conn::new(s),
                Err(e) => return Forwarding::Failed(e),
            },
        };
        if let Err(e) = up.stream.write_all(raw).await {
            if reused {
                continue;
            }
            return Forwarding::Failed(e.to_string());
        }
        let (head_bytes, head) = match read_response_head(&mut up).await {
            Ok(Some(found)) => found,
            // A kept-alive connection the upstream had closed: try once on a new one.
            Ok(None) | Err(_) if reused => continue,
            Ok(None) => return Forwarding::Failed("EOF".to_string()),
            Err(e) => return Forwarding::Failed(e),
        };
        if visitor.write_all(&head_bytes).await.is_err() {
            return Forwarding::Broken(Some((head, head_bytes)));
        }
        let mut resp_raw = head_bytes;
        if head.code == 101 {
            return Forwarding::Upgraded {
                head,
                raw: resp_raw,
                upstream: up,
            };
        }
        let framing = head.framing(&req.method).unwrap_or(Framing::UntilClose);
        if up
            .read_body(framing, &mut resp_raw, Some(visitor))
            .await
            .is_err()
        {
            return Forwarding::Broken(Some((head, resp_raw)));
        }
        let keep_alive = !head.closes() && framing != Framing::UntilClose;
        if keep_alive {
            *upstream = Some(up);
        }
        return Forwarding::Forwarded {
            head,
            raw: resp_raw,
            keep_alive,
        };
    }
    Forwarding::Failed("EOF".to_string())
}

/// Reads a response head, passing over interim `1xx` answers (except `101`).
async fn read_response_head(up: &mut Conn) -> Result<Option<(Vec<u8>, ResponseHead)>, String> {
    loop {
        let bytes = match up.read_head(false).await {
            Ok(Some(b)) => b,
            Ok(None) => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        let head =
            ResponseHead::parse(&bytes).map_err(|e| format!("malformed HTTP response: {}", e.0))?;
        if (100..200).contains(&head.code) && head.code != 101 {
            continue;
        }
        return Ok(Some((bytes, head)));
    }
}

/// The result of sending a captured request again.
pub enum ReplayResult {
    /// The upstream answered.
    Answered(ResponseHead, Vec<u8>),
    /// The upstream could not be reached; the agent's 502 page stands in for its answer.
    Unreachable(Vec<u8>),
    /// The upstream took the request but gave no answer.
    NoAnswer,
}

/// Sends `raw` to the leg's upstream on a new connection and reads the answer.
pub async fn replay_exchange(ctx: &LegCtx, raw: &[u8], method: &str) -> ReplayResult {
    if ctx.upstream.tls {
        return ReplayResult::Unreachable(bad_gateway_page(
            ctx,
            &format!(
                "the emulator does not speak TLS to upstreams ({})",
                ctx.addr
            ),
        ));
    }
    let mut up = match connect(&ctx.upstream.host_port).await {
        Ok(s) => Conn::new(s),
        Err(e) => return ReplayResult::Unreachable(bad_gateway_page(ctx, &e)),
    };
    if up.stream.write_all(raw).await.is_err() {
        return ReplayResult::NoAnswer;
    }
    let Ok(Some((mut resp_raw, head))) = read_response_head(&mut up).await else {
        return ReplayResult::NoAnswer;
    };
    let framing = head.framing(method).unwrap_or(Framing::UntilClose);
    if up
        .read_body::<TcpStream>(framing, &mut resp_raw, None)
        .await
        .is_err()
    {
        return ReplayResult::NoAnswer;
    }
    ReplayResult::Answered(head, resp_raw)
}

/// A capture of `req` without a response yet.
pub fn pending_capture(
    tunnel: &str,
    remote_addr: &str,
    start: String,
    req: &RequestHead,
    raw: Bytes,
) -> Capture {
    Capture {
        id: String::new(),
        tunnel_name: tunnel.to_string(),
        remote_addr: remote_addr.to_string(),
        start,
        duration_ns: 0,
        request: CapturedRequest {
            method: req.method.clone(),
            proto: req.proto(),
            headers: req.shown_headers(),
            uri: req.target.clone(),
            raw,
        },
        response: None,
    }
}

/// The response half of a capture.
pub fn captured_response(head: &ResponseHead, raw: Vec<u8>) -> CapturedResponse {
    CapturedResponse {
        status: head.status.clone(),
        status_code: head.code,
        proto: head.proto(),
        headers: head.shown_headers(),
        raw: Bytes::from(raw),
    }
}

/// Nanoseconds, saturating.
pub fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
}

/// The agent's answer when the upstream cannot be reached: a 502 with its HTML page naming
/// the public URL, the local address and the error (the real agent's page, word for word).
fn bad_gateway_page(ctx: &LegCtx, err: &str) -> Vec<u8> {
    let local = html_escape(&ctx.addr);
    let local_short = html_escape(
        ctx.addr
            .split_once("://")
            .map_or(ctx.addr.as_str(), |(_, rest)| rest),
    );
    let public = html_escape(&ctx.public_url);
    let err = html_escape(err);
    let body = format!(
        r#"
<!doctype html5>
<html>
    <head>
        <style type="text/css">
         
        strong {{ font-weight: bold; }}
        hr {{ -moz-box-sizing: content-box; box-sizing: content-box; height: 0; }}
        html {{ font-family: sans-serif;   -ms-text-size-adjust: 100%;   -webkit-text-size-adjust: 100%;   }} body {{ margin: 0; }}
        a {{ background-color: transparent; }}
        a:active, a:hover {{ outline: 0; }}
        </style>

        <style type="text/css">
            body {{ background-color: #f5f5f5; }}
            .container {{ width: 500px; margin: auto; color: #444; padding: 5px; }}
            a, strong {{ color: purple; text-decoration: none; }}
            a:hover {{ text-decoration: underline; }}
            h2 {{ text-align: center; color: #000; }}
            p {{ line-height: 20px; }}
        </style>
    </head>
    <body>
        <div class="container">
            
            
<h2>Failed to complete tunnel connection</h2>
<hr />
<p>
    The connection to <strong><a href="{public}">{public}</a></strong>
    was successfully tunneled to your ngrok client,
    but the client failed to establish a connection to
    the local address <strong><a href="{local}">{local_short}</a></strong>.
</p>
<p>
    Make sure that a web service is running on
    <strong><a href="{local}">{local_short}</a></strong> and that it is a valid address.
</p>
<p>
    The error encountered was: <strong style="color: #9E2929">{err}</strong>
</p>

            
        </div>
    </body>
</html>
"#
    );
    let mut out = format!(
        "HTTP/1.1 502 Bad Gateway\r\nContent-Length: {}\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}
