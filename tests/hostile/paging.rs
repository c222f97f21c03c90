//! `next_page_uri` from a hostile server: cycles end, credentials in it are refused, relative
//! addresses resolve against the page (RFC 3986), and an answer that is not HTTP is a bad
//! answer (exit 1), not an unreachable server.

use crate::common::hostile::{page, Hostile, Reply};
use crate::common::Env;

fn policy(n: &str) -> String {
    format!("{{\"id\":\"ipp_{n}\",\"uri\":\"/ip_policies/ipp_{n}\",\"description\":\"p{n}\",\"created_at\":\"2026-01-01T00:00:00Z\"}}")
}

/// Page A links to B, B back to A.
fn cycle(items: bool) -> Hostile {
    Hostile::start(move |req| {
        let (me, next) = if req.query() == Some("p=b") {
            ("b", "/ip_policies?p=a")
        } else {
            ("a", "/ip_policies?p=b")
        };
        let items = if items { policy(me) } else { String::new() };
        Reply::ok(page("ip_policies", &items, "/ip_policies", Some(next)))
    })
}

#[test]
fn a_cycle_of_two_pages_ends_with_a_clear_error() {
    let server = cycle(true);
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list"]);
    out.code(1);
    out.says("leads back to a page already read");
    assert_eq!(
        server.count(),
        3,
        "A, B, then A is recognised before it is asked again"
    );
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
}

#[test]
fn a_cycle_of_empty_pages_ends_even_with_a_limit() {
    let server = cycle(false);
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list", "--limit", "1"]);
    out.code(1);
    out.says("already read");
    let out = env.run_at(&server.url(), &["api", "GET", "/ip_policies", "--paginate"]);
    out.code(1);
}

#[test]
fn endless_empty_pages_end() {
    let server = Hostile::start(|req| {
        let n = req.page_number("p");
        Reply::ok(page(
            "ip_policies",
            "",
            "/ip_policies",
            Some(&format!("/ip_policies?p={}", n + 1)),
        ))
    });
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list", "--limit", "1"]);
    out.code(1);
    out.says("empty pages in a row");
    assert!(server.count() <= 25, "{} pages read", server.count());
}

#[test]
fn a_next_page_with_credentials_is_refused() {
    let server = Hostile::start(|req| {
        if req.query().is_some() {
            return Reply::ok(page("ip_policies", &policy("2"), "/ip_policies", None));
        }
        let port = req
            .header("host")
            .and_then(|h| h.rsplit(':').next())
            .unwrap_or("80")
            .to_string();
        let next = format!("http://user:pass@127.0.0.1:{port}/ip_policies?p=2");
        Reply::ok(page(
            "ip_policies",
            &policy("1"),
            "/ip_policies",
            Some(&next),
        ))
    });
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list"]);
    out.code(1);
    out.says("user name or password");
    assert_eq!(
        server.count(),
        1,
        "the page with credentials is never asked for"
    );
    assert!(
        server.seen().iter().all(|r| r
            .header("authorization")
            .is_none_or(|a| !a.starts_with("Basic"))),
        "no Basic credentials sent"
    );
}

/// A server with two pages of IP policies at `path`; the first links to the second by `next`.
fn two_pages(path: &'static str, next: &'static str) -> Hostile {
    Hostile::start(move |req| match req.query() {
        Some("page=2") => Reply::ok(page("ip_policies", &policy("2"), path, None)),
        _ => Reply::ok(page("ip_policies", &policy("1"), path, Some(next))),
    })
}

#[test]
fn a_relative_next_page_resolves_against_the_page() {
    let server = two_pages("/v1/ip_policies", "ip_policies?page=2");
    let env = Env::new();
    let base = format!("{}/v1", server.url());
    let out = env.run_at(&base, &["ip-policies", "list"]);
    out.ok();
    let targets: Vec<String> = server.seen().into_iter().map(|r| r.target).collect();
    assert_eq!(targets, ["/v1/ip_policies", "/v1/ip_policies?page=2"]);
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
}

#[test]
fn a_query_only_next_page_stays_on_the_page_path() {
    let server = two_pages("/ip_policies", "?page=2");
    let env = Env::new();
    env.run_at(&server.url(), &["ip-policies", "list"]).ok();
    let targets: Vec<String> = server.seen().into_iter().map(|r| r.target).collect();
    assert_eq!(targets, ["/ip_policies", "/ip_policies?page=2"]);
}

#[test]
fn an_unparsable_next_page_is_reported_escaped() {
    let server = Hostile::start(|_| {
        Reply::ok(page(
            "ip_policies",
            &policy("1"),
            "/ip_policies",
            Some("http://[\\u001b]2;pwned\\u0007\\u200b"),
        ))
    });
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list"]);
    out.code(1);
    out.says("is not a URL");
    for c in ['\u{1b}', '\u{7}', '\u{200b}'] {
        assert!(!out.stderr.contains(c), "raw {c:?} in {:?}", out.stderr);
    }
    out.says("\\x1b]2;pwned\\x07");
}

#[test]
fn a_megabyte_header_is_a_bad_answer_not_an_unreachable_server() {
    let server = Hostile::start(|_| {
        let mut raw = b"HTTP/1.1 200 OK\r\nX-Huge: ".to_vec();
        raw.extend(std::iter::repeat_n(b'a', 1024 * 1024));
        raw.extend_from_slice(b"\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        Reply::Raw(raw)
    });
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list"]);
    out.code(1);
    out.says("not valid HTTP");
    assert_eq!(server.count(), 1, "a bad answer is not asked for again");
}
