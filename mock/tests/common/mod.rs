//! A minimal blocking HTTP/1.1 client over `std::net::TcpStream`, for the emulator's tests.
//!
//! Hand-written rather than reqwest because the raw path must reach the server byte for byte
//! (`..%2F` and all), headers must be omittable one by one, and a reqwest dev-dependency would
//! pick up the CLI's `rustls-no-provider` feature under `cargo test --workspace` and panic
//! when a client is built.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tunnelctl_mock::{Mock, MockOptions};

/// A response: status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: body is not JSON ({e}): {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends one request on a fresh connection. `target` is the raw path and query.
pub fn raw(base: &str, method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
    let hostport = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(hostport).expect("connect to the emulator");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("set timeout");
    let mut req =
        format!("{method} {target} HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\n");
    for (n, v) in headers {
        req.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || matches!(method, "POST" | "PUT" | "PATCH") {
        req.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    req.push_str("\r\n");
    stream.write_all(req.as_bytes()).expect("write request");
    stream.write_all(body).expect("write body");
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).expect("read response");
    parse(&buf)
}

fn parse(buf: &[u8]) -> Resp {
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("end of headers");
    let head = String::from_utf8_lossy(&buf[..split]).into_owned();
    let mut rest = buf[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("status line");
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status code");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    if chunked {
        rest = dechunk(&rest);
    }
    Resp {
        status,
        headers,
        body: rest,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size_text = String::from_utf8_lossy(&data[..eol]).into_owned();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("0").trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = eol + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
}

/// Starts an emulator with default options.
pub fn start() -> Mock {
    Mock::start(MockOptions::default()).expect("start the emulator")
}

/// Starts an emulator with the given options.
pub fn start_with(opts: MockOptions) -> Mock {
    Mock::start(opts).expect("start the emulator")
}

/// A correctly authenticated API request; `body` is sent as JSON when given.
pub fn api(mock: &Mock, method: &str, target: &str, body: Option<Value>) -> Resp {
    let auth = format!("Bearer {}", mock.api_key());
    let mut headers = vec![("Authorization", auth.as_str()), ("Service-Version", "2")];
    let bytes = match &body {
        Some(v) => {
            headers.push(("Content-Type", "application/json"));
            serde_json::to_vec(v).expect("serialize")
        }
        None => Vec::new(),
    };
    raw(&mock.url(), method, target, &headers, &bytes)
}

/// An authenticated GET by URL and key, for threads that cannot hold the `Mock`.
pub fn get_at(base: &str, key: &str, target: &str) -> Resp {
    let auth = format!("Bearer {key}");
    let headers = [("Authorization", auth.as_str()), ("Service-Version", "2")];
    raw(base, "GET", target, &headers, b"")
}

/// A control request on the management port (lenient JSON body).
pub fn control(mock: &Mock, method: &str, path: &str, body: Option<Value>) -> Resp {
    let bytes = body
        .map(|b| serde_json::to_vec(&b).unwrap_or_default())
        .unwrap_or_default();
    let headers = [("Content-Type", "application/json")];
    raw(&mock.url(), method, path, &headers, &bytes)
}

/// A control POST with a JSON body.
pub fn ctl_post(mock: &Mock, path: &str, body: Value) -> Resp {
    control(mock, "POST", path, Some(body))
}

/// Shorthands.
pub fn get(mock: &Mock, target: &str) -> Resp {
    api(mock, "GET", target, None)
}

pub fn post(mock: &Mock, target: &str, body: Value) -> Resp {
    api(mock, "POST", target, Some(body))
}

pub fn patch(mock: &Mock, target: &str, body: Value) -> Resp {
    api(mock, "PATCH", target, Some(body))
}

pub fn delete(mock: &Mock, target: &str) -> Resp {
    api(mock, "DELETE", target, None)
}

/// A JSON string as an owned `String` ("" when it is not a string).
pub fn str_of(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// The `key` strings of the objects in a JSON array (none when it is not an array).
pub fn field_strs<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    let items = list.as_array().into_iter().flatten();
    items.filter_map(|item| item[key].as_str()).collect()
}

/// `PUT` with a JSON body.
pub fn put(mock: &Mock, target: &str, body: Value) -> Resp {
    api(mock, "PUT", target, Some(body))
}

/// Deletes `target` and asserts the 204.
#[track_caller]
pub fn assert_deleted(mock: &Mock, target: &str) {
    let r = delete(mock, target);
    assert_eq!(r.status, 204, "{}", r.text());
}

/// Asserts a 400 whose details name `field`.
#[track_caller]
pub fn assert_bad_field(resp: &Resp, field: &str) {
    let body = assert_error(resp, 400);
    assert_eq!(body["details"]["field"], field, "{body}");
}

/// The path and query of an absolute URL on the emulator.
pub fn target_of(mock: &Mock, url: &str) -> String {
    url.strip_prefix(&mock.url())
        .unwrap_or_else(|| panic!("{url} is not on {}", mock.url()))
        .to_string()
}

/// Asserts the standard error body and returns it.
pub fn assert_error(resp: &Resp, status: u16) -> Value {
    assert_eq!(resp.status, status, "body: {}", resp.text());
    assert_eq!(resp.header("content-type"), Some("application/json"));
    let body = resp.json();
    assert_eq!(body["status_code"], status);
    assert!(
        body["error_code"]
            .as_str()
            .is_some_and(|c| c.starts_with("ERR_NGROK_")),
        "{body}"
    );
    assert!(
        body["msg"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    assert!(
        body["details"]["operation_id"]
            .as_str()
            .is_some_and(|o| o.starts_with("op_")),
        "{body}"
    );
    body
}

/// Sends an authenticated API request and returns every byte received until the server
/// closed the connection: possibly none, when an injected reset dropped it.
pub fn api_bytes(mock: &Mock, method: &str, target: &str, body: Option<Value>) -> Vec<u8> {
    let hostport = mock.url().trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&hostport).expect("connect to the emulator");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("set timeout");
    let body = body
        .map(|v| serde_json::to_vec(&v).expect("serialize"))
        .unwrap_or_default();
    let head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\n\
         Authorization: Bearer {}\r\nService-Version: 2\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        mock.api_key(),
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("write request");
    stream.write_all(&body).expect("write body");
    read_until_closed(&mut stream)
}

/// Every byte the peer sends until it closes. A reset connection (or a read timeout) ends
/// the read with an error; what arrived before it is the answer.
pub fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return buf,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

/// The emulator's own program.
pub const BIN: &str = env!("CARGO_BIN_EXE_tunnelctl-mock");

/// Runs the program with `args` to its end.
pub fn run_bin(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("run the binary")
}

/// The program serving in the background, once its ready file has named its URL.
pub struct Served {
    pub child: Child,
    pub url: String,
    dir: PathBuf,
}

/// Starts the program in serve mode with `args` and `--ready-file`; waits for the file.
pub fn serve(args: &[&str], stdout: Stdio) -> Served {
    let dir = std::env::temp_dir().join(format!(
        "tunnelctl-mock-test-{}-{}",
        std::process::id(),
        args.join("_").replace('/', "_")
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ready = dir.join("ready");
    let child = Command::new(BIN)
        .args(args)
        .arg("--ready-file")
        .arg(&ready)
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the binary");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ready.exists() {
        assert!(Instant::now() < deadline, "no ready file");
        std::thread::sleep(Duration::from_millis(10));
    }
    let url = std::fs::read_to_string(&ready).expect("read ready file");
    let url = url.trim().to_string();
    Served { child, url, dir }
}

impl Served {
    /// Stops the program; returns what it printed.
    pub fn stop(mut self) -> Output {
        let _ = self.child.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
        self.child.wait_with_output().expect("wait")
    }
}

/// Polls `fetch` until `pred` holds for its answer (for at most 10 s) and returns it.
pub fn poll<T: std::fmt::Debug>(what: &str, fetch: impl Fn() -> T, pred: impl Fn(&T) -> bool) -> T {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = fetch();
        if pred(&got) {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}: {got:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
