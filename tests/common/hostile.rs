//! A small hostile HTTP/1.1 server for the hardening tests: its behaviour is chosen per
//! request by a closure (cycles of `next_page_uri`, slow pages, hangs, huge pages, echoed
//! secrets, oversized headers, connections dropped), and it remembers every request it read.
//!
//! Every answer carries `Connection: close`, so each request arrives on a fresh connection and
//! a hang on one never blocks another. Dropping the server wakes every hanging connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request the server read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// `GET`, `POST`, …
    pub method: String,
    /// The request target as sent: path and query.
    pub target: String,
    /// Header names lower-case, in order.
    pub headers: Vec<(String, String)>,
    /// The body (read by `Content-Length`).
    pub body: Vec<u8>,
}

impl Seen {
    /// The path without the query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The query, if any.
    pub fn query(&self) -> Option<&str> {
        self.target.split_once('?').map(|(_, q)| q)
    }

    /// The number in the query parameter `key` (`page=2`), 0 when there is none.
    pub fn page_number(&self, key: &str) -> usize {
        let prefix = format!("{key}=");
        let value = self.query().and_then(|q| q.strip_prefix(prefix.as_str()));
        value.and_then(|p| p.parse().ok()).unwrap_or(0)
    }

    /// The first value of a header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the server does with one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A JSON answer with this status.
    Json(u16, String),
    /// An answer with this status, these extra headers and this body.
    With(u16, Vec<(String, String)>, Vec<u8>),
    /// Exactly these bytes, then the connection is closed.
    Raw(Vec<u8>),
    /// Waits, then gives the inner reply.
    After(Duration, Box<Reply>),
    /// Never answers (until the server is dropped).
    Hang,
    /// Closes the connection without an answer.
    Close,
}

impl Reply {
    /// `200` with a JSON body.
    pub fn ok(body: impl Into<String>) -> Reply {
        Reply::Json(200, body.into())
    }

    /// The same reply after a delay.
    pub fn after(self, delay: Duration) -> Reply {
        Reply::After(delay, Box::new(self))
    }
}

type Handler = dyn Fn(&Seen) -> Reply + Send + Sync;

/// A running hostile server on 127.0.0.1.
pub struct Hostile {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
}

impl Hostile {
    /// Starts a server that answers each request with `handler(request)`.
    pub fn start(handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (log, halt) = (seen.clone(), stop.clone());
        std::thread::spawn(move || {
            while !halt.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((conn, _)) => {
                        let (log, halt, handler) = (log.clone(), halt.clone(), handler.clone());
                        std::thread::spawn(move || serve(conn, &log, &halt, &*handler));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        Hostile { port, seen, stop }
    }

    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Every request read so far, in order of arrival.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// How many requests were read so far.
    pub fn count(&self) -> usize {
        self.seen.lock().map(|s| s.len()).unwrap_or(0)
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn serve(conn: TcpStream, log: &Mutex<Vec<Seen>>, stop: &AtomicBool, handler: &Handler) {
    let _ = conn.set_nonblocking(false);
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(mut writer) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(conn);
    let Some(seen) = read_request(&mut reader) else {
        return;
    };
    if let Ok(mut l) = log.lock() {
        l.push(seen.clone());
    }
    let reply = handler(&seen);
    answer(&mut writer, reply, stop);
}

/// Reads one request (header names lower-cased, the body by `Content-Length`); `None` at the
/// end of the connection or on anything unreadable.
pub fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Seen> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
            if k == "content-length" {
                length = v.parse().unwrap_or(0);
            }
            headers.push((k, v));
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Seen {
        method,
        target,
        headers,
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Whatever",
    }
}

fn answer(out: &mut TcpStream, reply: Reply, stop: &AtomicBool) {
    match reply {
        Reply::Json(status, body) => {
            let headers = vec![("Content-Type".into(), "application/json".into())];
            answer(out, Reply::With(status, headers, body.into_bytes()), stop)
        }
        Reply::With(status, headers, body) => {
            let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str(&format!(
                "Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            ));
            let _ = out.write_all(head.as_bytes());
            let _ = out.write_all(&body);
            let _ = out.flush();
        }
        Reply::Raw(bytes) => {
            let _ = out.write_all(&bytes);
            let _ = out.flush();
        }
        Reply::After(delay, inner) => {
            if pause(delay, stop) {
                answer(out, *inner, stop);
            }
        }
        Reply::Hang => {
            pause(Duration::from_secs(600), stop);
        }
        Reply::Close => {}
    }
}

/// Sleeps for `d` unless the server stops first; true when the whole time passed.
fn pause(d: Duration, stop: &AtomicBool) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10).min(end - Instant::now()));
    }
    true
}

/// A list page of `collection` in the management API's envelope.
pub fn page(collection: &str, items: &str, uri: &str, next: Option<&str>) -> String {
    let next = match next {
        Some(n) => format!("\"{n}\""),
        None => "null".to_string(),
    };
    format!("{{\"{collection}\":[{items}],\"uri\":\"{uri}\",\"next_page_uri\":{next}}}")
}
