//! `tunnelctl api` (any request, pages merged) and dynamic shell completion of live IDs.

use crate::common;

use crate::common::{assert_management_headers, run, words, Env};
use serde_json::json;
use tunnelctl::registry::env as var;
use tunnelctl_mock::MockOptions;

#[test]
fn api_get_paginate_merges_every_page() {
    let env = Env::with(MockOptions {
        page_size: 3,
        ..Default::default()
    });
    let ids = env.seed(json!({"ip_policy_count": 8}));
    let out = env.run(&["api", "GET", "/ip_policies", "--paginate"]);
    out.ok();
    let items = out.json();
    assert_eq!(items.as_array().unwrap().len(), 8);
    let mut got: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    let mut want: Vec<&str> = ids["ip_policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap())
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    let reqs = env.requests();
    assert_eq!(reqs.len(), 3, "three pages");
    for r in &reqs {
        assert_management_headers(r);
    }
    // Without --paginate: the one page as the API returned it.
    let page = env.run(&["api", "GET", "/ip_policies?limit=2"]);
    page.ok();
    assert_eq!(page.json()["ip_policies"].as_array().unwrap().len(), 2);
    assert!(page.json()["next_page_uri"].is_string());
}

#[test]
fn api_post_creates_with_fields() {
    let env = Env::new();
    let out = env.run(&[
        "api",
        "POST",
        "/ip_policies",
        "-f",
        "description=x",
        "-F",
        "metadata=\"m\"",
    ]);
    out.ok();
    let req = common::only_write(&env);
    assert_eq!(
        (req.method.as_str(), req.path.as_str()),
        ("POST", "/ip_policies")
    );
    assert_management_headers(&req);
    assert_eq!(
        req.body_json(),
        Some(json!({"description": "x", "metadata": "m"}))
    );
    assert_eq!(out.json()["description"], "x");
    assert_eq!(env.mock.state()["ip_policies"].as_array().unwrap().len(), 1);
    // A 204 prints nothing; GET fields become the query.
    let id = out.json()["id"].as_str().unwrap().to_string();
    let del = env.run(&["api", "DELETE", &format!("/ip_policies/{id}")]);
    del.ok();
    assert_eq!(del.stdout, "");
    env.run(&["api", "GET", "/ip_policies", "-f", "limit=1"])
        .ok();
    assert_eq!(
        env.requests().last().unwrap().query.as_deref(),
        Some("limit=1")
    );
}

#[test]
fn api_input_reads_a_body_from_stdin() {
    let env = Env::new();
    let out = run(env
        .cmd()
        .args(["api", "POST", "/ip_policies", "--input", "-"])
        .write_stdin("{\"description\":\"from stdin\"}"));
    out.ok();
    assert_eq!(
        common::only_write(&env).body_json(),
        Some(json!({"description": "from stdin"}))
    );
}

#[test]
fn api_refuses_bad_input_before_sending() {
    let env = Env::new();
    let cases: &[&[&str]] = &[
        &["api", "BREW", "/ip_policies"],
        &["api", "POST", "/ip_policies", "-f", "novalue"],
        &["api", "POST", "/ip_policies", "-F", "n={bad"],
        &["api", "POST", "/ip_policies", "-f", "a=1", "-f", "a=2"],
        &["api", "POST", "/ip_policies", "--paginate"],
        &["api", "GET", "http://127.0.0.2:9/ip_policies"],
        &words("api POST /ip_policies --input /nonexistent/file.json"),
    ];
    for args in cases {
        env.run(args).code(2);
    }
    assert!(env.requests().is_empty());
    env.run(&["api", "GET", "/nope"]).code(4);
}

/// Read-only means "change nothing": under its flag, its variable or the profile's key, `api`
/// refuses every method but GET (a session's restart, stop or update is a POST), exit 2, with
/// nothing read from stdin and nothing sent; GET still goes through.
#[test]
fn api_under_read_only_refuses_every_method_but_get_and_sends_nothing() {
    let env = Env::new();
    let ids = common::strings(&env.seed(json!({"sessions": [{"os": "linux"}]}))["sessions"]);
    let session = format!("/tunnel_sessions/{}", ids[0]);
    let writes: [(&str, String); 6] = [
        ("POST", format!("{session}/restart")),
        ("POST", format!("{session}/stop")),
        ("POST", format!("{session}/update")),
        ("post", "/ip_policies".to_string()),
        ("PATCH", "/ip_policies/ipp_1".to_string()),
        ("DELETE", "/ip_policies/ipp_1".to_string()),
    ];
    let read_only = |way: &str| {
        let mut cmd = env.cmd();
        match way {
            "flag" => cmd.arg("--read-only"),
            "env" => cmd.env(tunnelctl::registry::env::READ_ONLY, "true"),
            _ => &mut cmd,
        };
        cmd
    };
    for way in ["flag", "env", "profile"] {
        env.write_config(if way == "profile" {
            "[default]\nread_only = \"true\"\n"
        } else {
            ""
        });
        for (method, path) in &writes {
            let out = run(read_only(way)
                .args(["api", method, path, "--input", "-"])
                .write_stdin("{}"));
            out.code(2)
                .says(&format!(
                    "'api {}' may change sessions",
                    method.to_uppercase()
                ))
                .says("read-only is on")
                .says("nothing was sent");
            assert!(env.requests().is_empty(), "{way} {method} {path}");
        }
        let out = run(read_only(way).args(["api", "GET", &session]));
        out.ok();
        assert_eq!(out.json()["id"], ids[0].as_str(), "{way}: GET is sent");
        env.mock.clear_requests();
    }
    // Off, the restart goes through.
    env.write_config("");
    env.run(&["api", "POST", &format!("{session}/restart")])
        .ok();
    assert_eq!(common::only_write(&env).path, format!("{session}/restart"));
}

#[test]
fn completion_lists_live_ids() {
    let env = Env::new();
    let seeded = env
        .seed(json!({"ip_policies": [{"description": "office"}], "sessions": [{"region": "eu"}]}));
    let policy = seeded["ip_policies"][0].as_str().unwrap();
    let session = seeded["sessions"][0].as_str().unwrap();
    let out =
        run(env
            .cmd()
            .env("COMPLETE", "fish")
            .args(["--", "tunnelctl", "ip-policies", "get", ""]));
    out.ok();
    assert!(
        out.stdout.lines().any(|l| l == format!("{policy}\toffice")),
        "{}",
        out.stdout
    );
    let out = run(env.cmd().env("COMPLETE", "fish").args([
        "--",
        "tunnelctl",
        "sessions",
        "restart",
        "ts_",
    ]));
    out.ok();
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with(&format!("{session}\teu "))),
        "{}",
        out.stdout
    );
    // Unreachable API: no candidates, no error, quickly.
    let out = run(env
        .cmd()
        .env(var::API_URL, "http://127.0.0.1:9")
        .env("COMPLETE", "fish")
        .args(["--", "tunnelctl", "ip-policies", "get", ""]));
    out.ok();
    assert_eq!(out.stderr, "");
    assert!(!out.stdout.contains("ipp_"));
    // The registration script calls tunnelctl back.
    let script = env.run(&["completions", "bash"]);
    script.ok();
    assert!(
        script.stdout.contains("COMPLETE=\"bash\"") || script.stdout.contains("COMPLETE=bash"),
        "{}",
        script.stdout
    );
    env.run(&["completions", "tcsh"]).code(2);
}

#[test]
fn completion_is_accepted_as_well_as_completions() {
    // gh and kubectl spell it in the singular; people type what they know.
    let env = Env::new();
    let plural = env.run(&["completions", "zsh"]);
    plural.ok();
    let singular = env.run(&["completion", "zsh"]);
    singular.ok();
    assert_eq!(singular.stdout, plural.stdout);
    assert!(!singular.stdout.is_empty());
    env.run(&["completion", "tcsh"]).code(2);
    env.run(&["completio", "zsh"]).code(2);
}
