//! What a visitor sent decides nothing about where `tunnelctl` sends: `send` takes an
//! origin-form target (`/path`) or an absolute `http(s)://` URL and refuses anything else
//! (another scheme, an opaque URI, an empty target) before anything of the batch leaves; an
//! error over many requests names a few and counts the rest; every content encoding is
//! decoded under one limit, reported the same way; and the user's own API key, when a
//! visitor's request carries it, is redacted on screen but kept, with a warning, in a file the
//! user asked for.

use std::io::Write;

use base64::Engine;
use serde_json::{json, Value};

use crate::common::hostile::{Hostile, Reply};
use crate::common::{Env, Out, API_KEY};
use tunnelctl::registry::env as var;

fn har_of(urls: &[&str]) -> Value {
    let entries: Vec<Value> = urls
        .iter()
        .map(|u| {
            json!({
                "startedDateTime": "2026-11-25T01:00:00Z",
                "time": 1,
                "request": {"method": "GET", "url": u, "httpVersion": "HTTP/1.1",
                            "headers": [], "queryString": [], "cookies": [],
                            "headersSize": -1, "bodySize": 0},
                "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                             "headers": [], "cookies": [], "content": {"size": 0, "mimeType": ""},
                             "redirectURL": "", "headersSize": -1, "bodySize": 0},
                "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}
            })
        })
        .collect();
    json!({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": entries}})
}

/// A file `name` holding `contents`, sent with `local requests send [FLAGS] FILE --to` an
/// upstream that answers every request: the emulator, the upstream, and what the run printed.
pub fn send_file(name: &str, contents: &[u8], flags: &[&str]) -> (Env, Hostile, Out) {
    let env = Env::new();
    let up = Hostile::start(|_| Reply::ok("{}"));
    let file = env.dir.path().join(name);
    std::fs::write(&file, contents).unwrap();
    let file = file.to_string_lossy().into_owned();
    let mut args = vec!["requests", "send"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&[&file, "--to"]);
    let url = up.url();
    args.push(&url);
    let out = env.local(&args);
    (env, up, out)
}

#[test]
fn har_entries_that_are_not_http_requests_are_refused_before_anything_is_sent() {
    for bad in [
        "javascript:alert(1)",
        "data:text/plain,hello",
        "mailto:someone@example.test",
        "ftp://example.test/x",
        "",
    ] {
        let doc = har_of(&["http://example.test/first", bad]);
        let (_env, up, out) = send_file("log.har", doc.to_string().as_bytes(), &["--har"]);
        out.code(2).says("log.har#2");
        assert_eq!(up.count(), 0, "{bad:?}: nothing of the batch was sent");
    }
}

#[test]
fn a_request_file_whose_target_is_not_a_path_or_http_url_is_refused() {
    for target in ["javascript:alert(1)", "mailto:a@b.test", "data:,x", "*"] {
        let request = format!("GET {target} HTTP/1.1\r\nHost: example.test\r\n\r\n");
        let (_env, up, out) = send_file("req.http", request.as_bytes(), &[]);
        out.code(2).says("req.http");
        assert_eq!(up.count(), 0, "{target:?} was sent");
    }
}

#[test]
fn origin_form_and_absolute_http_targets_are_still_sent() {
    let env = Env::new();
    let up = Hostile::start(|_| Reply::ok("{}"));
    let file = env.dir.path().join("log.har");
    let doc = har_of(&["http://example.test/a?x=1", "https://example.test/b"]);
    std::fs::write(&file, doc.to_string()).unwrap();
    env.local(&[
        "requests",
        "send",
        "--har",
        &file.to_string_lossy(),
        "--to",
        &up.url(),
    ])
    .ok();
    let paths: Vec<String> = up.seen().iter().map(|s| s.target.clone()).collect();
    assert_eq!(paths, ["/a?x=1", "/b"]);
}

#[test]
fn an_error_over_thousands_of_requests_names_a_few_and_counts_the_rest() {
    let env = Env::new();
    let up = Hostile::start(|_| Reply::Hang);
    let urls: Vec<String> = (0..30_000)
        .map(|i| format!("http://example.test/{i}"))
        .collect();
    let refs: Vec<&str> = urls.iter().map(String::as_str).collect();
    let file = env.dir.path().join("many.har");
    std::fs::write(&file, har_of(&refs).to_string()).unwrap();
    let out = env.local(&[
        "requests",
        "send",
        "--har",
        &file.to_string_lossy(),
        "--to",
        &up.url(),
        "--timeout",
        "3",
    ]);
    out.code(7);
    for line in out.stderr.lines() {
        assert!(
            line.len() < 1_000,
            "a line of {} bytes: {}…",
            line.len(),
            &line[..200]
        );
    }
    assert!(
        out.stderr.len() < 10_000,
        "stderr of {} bytes",
        out.stderr.len()
    );
    assert!(
        out.stderr.contains("more"),
        "the rest are counted: {}",
        out.stderr
    );
}

/// `encoder` fed `size` zero bytes: a stream that inflates to them (a zlib stream is
/// `Content-Encoding: deflate` as most servers send it).
fn fed_zeros<W: Write>(mut encoder: W, size: usize) -> W {
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..size / chunk.len() {
        encoder.write_all(&chunk).unwrap();
    }
    encoder
}

fn zlib_bomb(size: usize) -> Vec<u8> {
    let encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    fed_zeros(encoder, size).finish().unwrap()
}

fn gzip_bomb(size: usize) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    fed_zeros(encoder, size).finish().unwrap()
}

#[test]
fn a_decompression_bomb_is_reported_the_same_in_every_encoding() {
    let env = Env::new();
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let mut said = Vec::new();
    for (encoding, body) in [
        ("gzip", gzip_bomb(64 << 20)),
        ("deflate", zlib_bomb(64 << 20)),
    ] {
        let ids = env.mock.seed_captures(json!([{
            "method": "POST",
            "uri": "/bomb",
            "headers": {"Content-Encoding": encoding, "Content-Type": "application/json"},
            "body_base64": b64(&body),
        }]));
        let id = ids[0].as_str().unwrap().to_string();
        let out = env.local(&["requests", "get", &id]);
        out.ok();
        assert!(
            !out.stdout.contains("corrupt") && !out.stdout.contains("not valid"),
            "{encoding}: a bomb is not corrupt data:\n{}",
            out.stdout
        );
        let note = out
            .stdout
            .lines()
            .find(|l| l.contains("MiB decoded"))
            .unwrap_or_else(|| panic!("{encoding}: no limit named:\n{}", out.stdout))
            .replace(encoding, "ENC");
        said.push(note.trim().to_string());
    }
    assert_eq!(said[0], said[1], "one limit, reported the same way");
}

#[test]
fn the_users_own_key_in_a_capture_is_redacted_on_screen_and_kept_in_files_with_a_warning() {
    let env = Env::new();
    let ids = env.mock.seed_captures(json!([{
        "method": "GET",
        "uri": format!("/v1/things?key={API_KEY}"),
        "headers": {"Host": "example.test", "Authorization": format!("Bearer {API_KEY}")},
        "body": format!("{{\"token\":\"{API_KEY}\"}}"),
        "response_body": format!("echo {API_KEY}"),
    }]));
    let id = ids[0].as_str().unwrap().to_string();
    for args in [
        vec!["requests", "get", id.as_str()],
        vec!["requests", "list"],
        vec!["requests", "get", id.as_str(), "--curl"],
    ] {
        let mut cmd = env.cmd();
        cmd.env(var::AGENT_URL, env.mock.agent_url())
            .env(var::FORCE_TTY, "1")
            .arg("local")
            .args(&args);
        let out = crate::common::run(&mut cmd);
        out.ok();
        assert!(
            !out.stdout.contains(API_KEY) && !out.stderr.contains(API_KEY),
            "{args:?} showed the key:\n{}{}",
            out.stdout,
            out.stderr
        );
    }
    let file = env.dir.path().join("req.http");
    let saved = env.local(&["requests", "save", &id, "--out", &file.to_string_lossy()]);
    saved.ok().says("req.http");
    assert!(
        saved.stderr.to_lowercase().contains("key"),
        "{}",
        saved.stderr
    );
    assert!(!saved.stderr.contains(API_KEY));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains(API_KEY),
        "the file keeps the request as captured"
    );
}
