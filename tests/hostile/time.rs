//! `--timeout D` bounds the whole command: slow pages, hung commands, waits, `api --paginate`
//! and `local` commands all end once D has passed, with exit 7 and a line saying what was
//! done. The servers here never finish, so an exit 7 is the timeout's doing; how soon after D
//! it comes is not measured (a loaded machine would make that flaky), and a run that does not
//! stop at all is ended by a guard far past D.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::common::hostile::{page, Hostile, Reply};
use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

/// How long past its `--timeout` a command may run before the test ends it as hung (its exit
/// is then not 7, and the test fails).
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Runs `args` with the hang guard past `--timeout N` (read from `args`).
fn guarded(cmd: &mut assert_cmd::Command, args: &[&str]) -> Out {
    let limit: u64 = args
        .iter()
        .skip_while(|w| **w != "--timeout")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("--timeout N");
    run(cmd
        .args(args)
        .timeout(Duration::from_secs(limit) + HANG_GUARD))
}

/// Runs `line` (which holds `--timeout N`, split at spaces) against `server`: exit 7.
#[track_caller]
fn stops_at_its_timeout(server: &Hostile, line: &str) -> Out {
    let args: Vec<&str> = line.split(' ').collect();
    let out = guarded(&mut Env::new().cmd_at(&server.url()), &args);
    out.code(7);
    out
}

fn policy(n: usize) -> String {
    format!("{{\"id\":\"ipp_{n}\",\"uri\":\"/ip_policies/ipp_{n}\",\"description\":\"p{n}\",\"created_at\":\"2026-01-01T00:00:00Z\"}}")
}

/// Endless pages, each taking two seconds.
fn slow_pages() -> Hostile {
    Hostile::start(|req| {
        let n = req.page_number("page");
        let next = format!("/ip_policies?page={}", n + 1);
        Reply::ok(page("ip_policies", &policy(n), "/ip_policies", Some(&next)))
            .after(Duration::from_secs(2))
    })
}

#[test]
fn slow_pages_stop_at_the_timeout_with_what_was_printed() {
    let server = slow_pages();
    let out = stops_at_its_timeout(&server, "ip-policies list --timeout 3");
    // The first page is printed.
    out.prints("ipp_0");
    out.says("--timeout 3s");
    // Says what was done.
    out.says("1 item(s) from 1 page(s) were printed");
}

#[test]
fn api_paginate_stops_at_the_timeout() {
    let server = slow_pages();
    let out = stops_at_its_timeout(&server, "api GET /ip_policies --paginate --timeout 3");
    out.says("time limit");
}

fn sessions_page(count: usize) -> String {
    let items: Vec<String> = (0..count)
        .map(|i| {
            format!(
                "{{\"id\":\"ts_{i}\",\"uri\":\"/tunnel_sessions/ts_{i}\",\"os\":\"linux\",\"region\":\"eu\",\"agent_version\":\"3.19.0\",\"ip\":\"10.0.0.{i}\",\"credential\":{{\"id\":\"cr_{i}\",\"uri\":\"/credentials/cr_{i}\"}},\"started_at\":\"2026-01-01T00:00:00Z\"}}"
            )
        })
        .collect();
    page(
        "tunnel_sessions",
        &items.join(","),
        "/tunnel_sessions",
        None,
    )
}

#[test]
fn forty_hung_restarts_stop_at_the_timeout_and_report() {
    let server = Hostile::start(|req| match req.method.as_str() {
        "GET" => Reply::ok(sessions_page(40)),
        _ => Reply::Hang,
    });
    let out = stops_at_its_timeout(&server, "sessions restart --all --timeout 2 --rate off");
    let posts = server
        .seen()
        .into_iter()
        .filter(|r| r.method == "POST")
        .count();
    assert!(
        posts <= 4,
        "nothing new starts once time is up ({posts} sent)"
    );
    out.says("0 of 40 done");
    out.says("36 not started");
}

#[test]
fn several_deletes_stop_at_the_timeout() {
    let server = Hostile::start(|_| Reply::Hang);
    let out = stops_at_its_timeout(
        &server,
        "ip-policies delete ipp_1 ipp_2 ipp_3 --yes --timeout 2",
    );
    assert_eq!(server.count(), 1, "no delete after the time ran out");
    out.says("not started: ipp_2 ipp_3");
}

#[test]
fn restart_wait_ends_at_the_timeout_counted_from_the_start() {
    // The session never goes away, so the agent is never "back"; each read is slow.
    let server = Hostile::start(|req| match req.method.as_str() {
        "GET" => Reply::ok(sessions_page(1)).after(Duration::from_millis(400)),
        _ => Reply::Json(204, String::new()),
    });
    let out = stops_at_its_timeout(
        &server,
        "sessions restart ts_0 --wait --timeout 3 --rate off",
    );
    out.says("did not reconnect");
}

#[test]
fn upgrade_with_a_timeout_shorter_than_the_settle_time_ends_in_time() {
    let restarts = Arc::new(AtomicUsize::new(0));
    let counter = restarts.clone();
    let server = Hostile::start(move |req| match req.method.as_str() {
        "GET" => Reply::ok(sessions_page(2)),
        _ => {
            if req.path().ends_with("/restart") {
                counter.fetch_add(1, Ordering::SeqCst);
            }
            Reply::Json(204, String::new())
        }
    });
    let out = stops_at_its_timeout(&server, "sessions upgrade --all --timeout 2 --rate off");
    assert_eq!(
        restarts.load(Ordering::SeqCst),
        0,
        "no restart after the deadline"
    );
    out.says("restart could be sent");
}

#[test]
fn local_commands_against_a_hung_agent_end_at_the_timeout() {
    let server = Hostile::start(|_| Reply::Hang);
    let env = Env::new();
    for args in [
        &["local", "tunnels", "list", "--timeout", "2"][..],
        &["local", "requests", "list", "--timeout", "2"][..],
        &["local", "requests", "tail", "--timeout", "2"][..],
    ] {
        let out = guarded(&mut env.cmd_at(&server.url()), args);
        out.code(7);
        assert!(
            out.stderr.contains("time limit"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

#[test]
fn tail_follows_for_the_timeout_then_exits_7() {
    let env = Env::new();
    let out = guarded(
        env.cmd().env(var::AGENT_URL, env.mock.agent_url()),
        &["local", "requests", "tail", "--timeout", "2"],
    );
    out.code(7);
}

/// The other side of the bound (a guard, not a fix): a listing that fits in its --timeout is not
/// cut short, pages that each take a while included.
#[test]
fn a_listing_that_fits_in_its_timeout_completes() {
    // Pages that each take 1.5 s: with --timeout 8 all three arrive.
    let server = Hostile::start(|req| {
        let n = req.page_number("page");
        let next = (n < 2).then(|| format!("/ip_policies?page={}", n + 1));
        Reply::ok(page(
            "ip_policies",
            &policy(n),
            "/ip_policies",
            next.as_deref(),
        ))
        .after(Duration::from_millis(1500))
    });
    let env = Env::new();
    let out = env.run_at(&server.url(), &["ip-policies", "list", "--timeout", "8"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 3, "{}", out.stdout);
}
