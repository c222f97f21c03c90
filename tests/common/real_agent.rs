//! Helpers of the tests that run inside `../shared/real-agent/with-agent`, beside the real
//! agent: the binary pointed at it, the edge port of a tunnel leg, a visitor's request, and
//! waiting for captures.

use std::time::Duration;

use serde_json::Value;

pub const WHY: &str =
    "needs the real agent: run through ../shared/real-agent/with-agent (see .ci/run)";

/// The binary, pointed at the agent the harness started.
pub fn tunnelctl(args: &[&str]) -> super::Out {
    assert_eq!(std::env::var("REAL_AGENT").as_deref(), Ok("1"), "{WHY}");
    let mut cmd = assert_cmd::Command::cargo_bin("tunnelctl").expect("the binary is built");
    cmd.env_remove("RUST_BACKTRACE").args(args);
    super::run(&mut cmd)
}

/// The edge port of a started tunnel leg, from the harness's edges file.
pub fn edge_port(public_url: &str) -> u16 {
    let path = std::env::var("REAL_AGENT_EDGES").expect("REAL_AGENT_EDGES is set by the harness");
    let mut port = None;
    super::wait_until_every(
        &format!("an edge for {public_url} in {path}"),
        Duration::from_millis(100),
        || {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            port = text
                .lines()
                .map(|line| serde_json::from_str::<Value>(line).unwrap_or(Value::Null))
                .find(|v| v["url"] == public_url)
                .and_then(|v| v["edge_port"].as_u64());
            port.is_some()
        },
    );
    port.expect("a port") as u16
}

/// Sends one HTTP/1.1 request through an edge, as a visitor would, and returns the answer.
pub fn visit(port: u16, method: &str, path: &str, body: &str) -> String {
    let headers = [("Content-Type", "application/json"), ("X-Test", "yes")];
    super::upstream::visit_as(
        port,
        "visitor.test",
        method,
        path,
        &headers,
        body.as_bytes(),
    )
}

pub fn wait_for_requests(tunnel: &str, n: usize) -> Vec<Value> {
    let mut list = Vec::new();
    super::wait_until_every(
        &format!("{n} answered captures on {tunnel}"),
        Duration::from_millis(100),
        || {
            let out = tunnelctl(&["local", "requests", "list", "--tunnel", tunnel, "--json"]);
            out.ok();
            list = out.json().as_array().cloned().unwrap_or_default();
            list.len() >= n
                && list
                    .iter()
                    .all(|r| r["response"]["status_code"].as_u64().unwrap_or(0) != 0)
        },
    );
    list
}

/// Starts an http tunnel `name` to the harness's upstream (the agent makes `name` and
/// `name (http)`) and returns the edge port of its `(http)` leg.
pub fn start_http_tunnel(name: &str) -> u16 {
    tunnelctl(&[
        "local", "tunnels", "start", "--name", name, "--proto", "http", "--addr", "8080",
    ])
    .ok();
    let leg = tunnelctl(&[
        "local",
        "tunnels",
        "get",
        &format!("{name} (http)"),
        "--json",
    ]);
    leg.ok();
    edge_port(leg.json()["public_url"].as_str().expect("a public URL"))
}
