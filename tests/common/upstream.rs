//! A tiny HTTP/1.1 upstream for tunnel tests: answers every request with a JSON echo of its
//! method, path and body, and remembers what it received.

use std::io::{BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::hostile::read_request;

/// One request the upstream received (header names lower-cased).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// A running upstream on 127.0.0.1.
pub struct Upstream {
    pub port: u16,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Upstream {
    /// Starts it on a free port; it serves until the test process ends.
    pub fn start() -> Upstream {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let log = log.clone();
                std::thread::spawn(move || serve(conn, log));
            }
        });
        Upstream { port, received }
    }

    /// What it received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

fn serve(conn: TcpStream, log: Arc<Mutex<Vec<Received>>>) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(mut writer) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(conn);
    while let Some(seen) = read_request(&mut reader) {
        let close = seen
            .header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        let echo = serde_json::json!({
            "method": seen.method, "path": seen.target, "body": String::from_utf8_lossy(&seen.body)
        })
        .to_string();
        if let Ok(mut l) = log.lock() {
            l.push(Received {
                method: seen.method,
                path: seen.target,
                headers: seen.headers,
                body: seen.body,
            });
        }
        let _ = write!(
            writer,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{echo}",
            echo.len()
        );
        if close {
            return;
        }
    }
}

/// Sends one request to 127.0.0.1:port as a visitor would, and returns the whole answer.
pub fn visit(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> String {
    visit_as(
        port,
        &format!("127.0.0.1:{port}"),
        method,
        path,
        headers,
        body,
    )
}

/// [`visit`] with the `Host` a visitor names (an edge's public name, say).
pub fn visit_as(
    port: u16,
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    s.write_all(req.as_bytes()).expect("write");
    s.write_all(body).expect("write body");
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// GET on a plain http:// URL of the emulator's control surface; returns the body.
pub fn control_get(url: &str) -> String {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest
        .split_once('/')
        .map(|(h, p)| (h, format!("/{p}")))
        .unwrap_or((rest, "/".into()));
    let mut s = TcpStream::connect(host).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default()
}
