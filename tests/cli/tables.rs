//! What a person sees on a terminal, checked on the real binary with
//! `TUNNELCTL_FORCE_TTY=1 COLUMNS=…` (the renderers' snapshots are in `screens.rs`): one line per row, IDs and ARNs whole, headers over their columns, columns
//! left out named once on stderr, empty lists said so, detail views as `KEY  value` lines.

use crate::common::upstream::visit;
use crate::common::{Env, Out};
use crate::local::tunnels_to_upstream;
use tunnelctl::registry::env as var;

const KINESIS: &str = "arn:aws:kinesis:us-east-1:123456789012:stream/events";

/// The display width of a line (these tables hold ASCII and `…`).
fn columns(line: &str) -> usize {
    line.chars().count()
}

fn data_lines(out: &Out) -> Vec<&str> {
    out.stdout.lines().skip(1).collect()
}

#[test]
fn at_80_columns_rows_are_one_line_and_ids_and_arns_stay_whole() {
    let env = Env::new();
    let destinations = env.seed_destinations(3);
    let tunnels = env.seed_tunnels();
    let backends = env.seed_backends(serde_json::json!([
        {"description": "web production", "labels": {"env": "prod"}}
    ]));

    let out = env.run_terminal(80, &["event-destinations", "list"]);
    out.ok();
    assert_eq!(data_lines(&out).len(), destinations.len(), "{}", out.stdout);
    for line in out.stdout.lines() {
        assert!(columns(line) <= 80, "{line}");
        assert!(
            !line.contains("arn:") || line.contains(KINESIS),
            "an ARN cut or wrapped: {line}"
        );
    }
    for id in &destinations {
        assert!(out.stdout.contains(id.as_str()), "{id}: {}", out.stdout);
    }
    assert_eq!(
        out.stderr.matches("not shown at 80 columns").count(),
        1,
        "the columns left out are named once: {}",
        out.stderr
    );
    assert!(out.stderr.contains("TARGET"), "{}", out.stderr);

    let wide = env.run_terminal(200, &["event-destinations", "list"]);
    wide.ok();
    assert_eq!(
        wide.stdout.matches(KINESIS).count(),
        destinations.len(),
        "{}",
        wide.stdout
    );
    assert!(!wide.stderr.contains("not shown"), "{}", wide.stderr);

    for width in [80, 120, 200] {
        let out = env.run_terminal(width, &["backends", "tunnel-group", "list"]);
        out.ok();
        assert_eq!(data_lines(&out).len(), backends.len(), "{}", out.stdout);
        assert!(data_lines(&out)[0].starts_with(backends[0].as_str()));
        // Every tunnel ID shown is whole: its column is left out before an ID is cut.
        let shown: Vec<&str> = out
            .stdout
            .split([' ', ','])
            .filter(|w| w.starts_with("tn_"))
            .collect();
        for id in &shown {
            assert!(tunnels.iter().any(|t| t == id), "{id}: {}", out.stdout);
        }
        assert_eq!(shown.is_empty(), out.stderr.contains("TUNNELS"));
        if width == 200 {
            assert_eq!(shown.len(), 2, "the two prod tunnels: {}", out.stdout);
        }
    }
}

#[test]
fn headers_sit_over_their_columns() {
    let env = Env::new();
    env.seed_ip_policies(2);
    let out = env.run_terminal(80, &["ip-policies", "list"]);
    out.ok();
    let header = out.stdout.lines().next().unwrap();
    assert!(header.starts_with("ID "), "not indented: {header:?}");
    let at = header.find("CREATED").unwrap();
    for row in data_lines(&out) {
        assert!(row.starts_with("ipp_"), "{row}");
        let before = &row[..row.char_indices().nth(at).map_or(row.len(), |(i, _)| i)];
        assert!(
            before.ends_with("  "),
            "CREATED's column starts at {at}: {row}"
        );
        assert_ne!(row[before.len()..].chars().next(), Some(' '), "{row}");
    }
}

#[test]
fn a_pipe_gets_every_field_and_no_note() {
    let env = Env::new();
    env.seed_destinations(1);
    let out = env.run(&["event-destinations", "list"]);
    out.ok();
    assert!(out.stdout.contains(KINESIS), "{}", out.stdout);
    assert_eq!(out.stderr, "");
}

#[test]
fn empty_lists_say_so_on_a_terminal_and_print_nothing_in_a_pipe() {
    let env = Env::new();
    for (args, said) in [
        (&["ip-policies", "list"][..], "No IP policies.\n"),
        (&["sessions", "list"], "No tunnel sessions.\n"),
        (
            &["backends", "tunnel-group", "list"],
            "No tunnel-group backends.\n",
        ),
    ] {
        let out = env.run_terminal(80, args);
        out.ok();
        assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", said));
        let piped = env.run(args);
        piped.ok();
        assert_eq!((piped.stdout.as_str(), piped.stderr.as_str()), ("", ""));
    }
    for (args, said) in [
        (&["tunnels", "list"][..], "No tunnels.\n"),
        (&["requests", "list"], "No captured requests.\n"),
    ] {
        let mut all = vec!["local"];
        all.extend_from_slice(args);
        let mut cmd = env.cmd();
        cmd.env(var::AGENT_URL, env.mock.agent_url())
            .env(var::FORCE_TTY, "1")
            .env("COLUMNS", "80")
            .args(&all);
        let out = crate::common::run(&mut cmd);
        out.ok();
        assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", said));
        let piped = env.local(args);
        piped.ok();
        assert_eq!((piped.stdout.as_str(), piped.stderr.as_str()), ("", ""));
    }
}

#[test]
fn headers_are_bold_only_with_colour() {
    let env = Env::new();
    env.seed_ip_policies(1);
    let mut cmd = env.cmd();
    cmd.env_remove("NO_COLOR")
        .env(var::FORCE_TTY, "1")
        .env("COLUMNS", "80")
        .args(["ip-policies", "list"]);
    let coloured = crate::common::run(&mut cmd);
    coloured.ok();
    assert!(
        coloured.stdout.starts_with("\x1b[1mID"),
        "{:?}",
        coloured.stdout
    );
    assert_eq!(
        coloured.stdout.matches("\x1b[").count(),
        2,
        "the header only"
    );
    for plain in [
        env.run_terminal(80, &["ip-policies", "list"]),
        env.run_terminal(80, &["ip-policies", "list", "--no-color"]),
    ] {
        plain.ok();
        assert!(!plain.stdout.contains('\x1b'), "{:?}", plain.stdout);
    }
}

#[test]
fn local_tunnels_get_shows_metrics_and_config_as_a_person_reads_them() {
    let (env, up) = tunnels_to_upstream(&["web"]);
    let edges = env.mock.agent_edges();
    let port = edges
        .as_array()
        .and_then(|a| a.iter().find(|e| e["name"] == "web (http)"))
        .and_then(|e| e["edge_port"].as_u64())
        .expect("an edge") as u16;
    for _ in 0..2 {
        visit(port, "GET", "/", &[], b"");
    }
    let mut cmd = env.cmd();
    cmd.env(var::AGENT_URL, env.mock.agent_url())
        .env(var::FORCE_TTY, "1")
        .env("COLUMNS", "80")
        .args(["local", "tunnels", "get", "web (http)"]);
    let out = crate::common::run(&mut cmd);
    out.ok();
    // Indentation counts here: a nested row is found by its leading spaces.
    let line = |key: &str| {
        out.stdout
            .lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no {key:?} line:\n{}", out.stdout))
    };
    assert!(line("NAME").ends_with("web (http)"));
    assert!(
        line("  addr").contains(&up.port.to_string()),
        "{}",
        out.stdout
    );
    assert!(line("  inspect").ends_with("true"), "{}", out.stdout);
    assert!(line("HTTP REQUESTS").ends_with("2 total"), "{}", out.stdout);
    assert!(line("CONNECTIONS").contains("total"), "{}", out.stdout);
    let durations = line("  duration");
    for p in ["p50 ", "p90 ", "p99 "] {
        assert!(durations.contains(p), "{durations}");
    }
    assert!(durations.ends_with(" ms"), "{durations}");
    assert!(line("  rate").contains("/s (1m)"), "{}", out.stdout);
    assert!(
        !out.stdout.contains('{'),
        "no raw JSON left:\n{}",
        out.stdout
    );
    assert!(
        out.stdout.lines().all(|l| columns(l) <= 80),
        "{}",
        out.stdout
    );
}

#[test]
fn get_views_show_times_absolute_and_relative_and_references_with_their_uri() {
    let env = Env::new();
    let sessions = env.seed_session_count(1);
    let out = env.run_terminal(80, &["sessions", "get", &sessions[0]]);
    out.ok();
    let started = out.row("STARTED");
    assert!(
        started.contains(" UTC (") && started.ends_with(')'),
        "{started}"
    );
    let credential = out
        .stdout
        .split("CREDENTIAL")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(
        credential.contains("cr_") && credential.contains("/credentials/cr_"),
        "{}",
        out.stdout
    );
}
