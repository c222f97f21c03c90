//! Errors that say what to type: a URL given without its scheme is refused with the URL
//! completed, wherever it is given (flag, `config set`, `config init` and its question), and
//! an ID of the wrong kind gets, besides the server's 404, whose ID it is and the command
//! that reads it.

use serde_json::json;

use crate::common::pty::{keys, Pty};
use crate::common::{strings, Env};
use tunnelctl::registry::env as var;

#[test]
fn an_agent_url_without_its_scheme_is_refused_with_the_url_to_type() {
    let env = Env::new();
    let out = env.run(&["--agent-url", "localhost:4040", "local", "tunnels", "list"]);
    out.code(3).says(
        "the agent URL 'localhost:4040' has no scheme: write it as http://localhost:4040/api",
    );
    let stored = env.run(&["config", "set", "agent_url", "127.0.0.1:4040"]);
    stored.code(2).says("write it as http://127.0.0.1:4040/api");
    assert!(!env.config_path().exists(), "nothing stored");
}

#[test]
fn an_api_url_without_its_scheme_is_refused_with_the_url_to_type() {
    let env = Env::new();
    let out = env.run(&["config", "set", "api_url", "api.example.com"]);
    out.code(2)
        .says("the API URL 'api.example.com' has no scheme: write it as https://api.example.com");
    assert!(
        !out.stderr.contains("relative URL without a base"),
        "{}",
        out.stderr
    );
    let flag = env.run(&["--api-url", "localhost:9", "sessions", "list"]);
    flag.code(3).says("write it as http://localhost:9");
    assert!(env.requests().is_empty());
}

#[test]
fn config_init_answered_without_a_scheme_says_what_to_type() {
    let env = Env::new();
    let mut cmd = env.std_cmd();
    cmd.env_remove(var::API_URL)
        .env_remove(var::API_KEY)
        .args(["config", "init"]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    term.wait_for("Management API URL:");
    term.send("api.example.com").send(keys::ENTER);
    let screen = term.wait_for("https://api.example.com");
    assert!(screen.contains("has no scheme"), "{screen}");
    assert!(!screen.contains("relative URL"), "{screen}");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 130, "{}", term.screen());
}

#[test]
fn an_id_of_another_kind_says_whose_it_is_and_what_reads_it() {
    let env = Env::new();
    let created = env.seed(json!({"demo": true}));
    let session = strings(&created["sessions"])[0].clone();
    let policy = strings(&created["ip_policies"])[0].clone();
    let out = env.run(&["ip-policies", "get", &session]);
    out.code(4).says("404").says(&format!(
        "{session} is the ID of a tunnel session (prefix ts_); read it with: tunnelctl sessions get {session}"
    ));
    let out = env.run(&["event-destinations", "delete", &policy, "--yes"]);
    out.code(4)
        .says(&format!("read it with: tunnelctl ip-policies get {policy}"));
    // An ID of the right kind that does not exist gets the 404 alone.
    let out = env.run(&["ip-policies", "get", "ipp_0000000000000000000000000000"]);
    out.code(4);
    assert!(!out.stderr.contains("read it with"), "{}", out.stderr);
}
