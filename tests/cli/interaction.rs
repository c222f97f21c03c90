//! What a person is told when something is off, and what `config init` keeps: the key checked
//! before it is saved, nothing taken from the environment, a 401 that says where the key came
//! from, a `--jq` error in one short line. (Questions on a terminal: `prompts`.)

use crate::common::{run, Env, Out, API_KEY};
use tunnelctl::registry::env as var;

/// A key the emulator does not accept; distinctive, so a leak would be found.
const WRONG_KEY: &str = "tk_wrong_5f4e3d2c1b0a99887766";

/// `config init --api-url URL --api-key-stdin EXTRA` with `key` piped in; the key is never
/// printed.
fn init_piped(mut cmd: assert_cmd::Command, url: &str, key: &str, extra: &[&str]) -> Out {
    let out = run(cmd
        .args(["config", "init", "--api-url", url, "--api-key-stdin"])
        .args(extra)
        .write_stdin(format!("{key}\n")));
    assert!(
        !out.stderr.contains(key),
        "the key was printed:\n{}",
        out.stderr
    );
    out
}

#[test]
fn config_init_saves_nothing_when_the_api_refuses_the_key() {
    let env = Env::new();
    let out = init_piped(env.bare(), &env.mock.url(), WRONG_KEY, &[]);
    out.code(3)
        .says("refused the key")
        .says("Nothing was saved");
    assert!(!env.config_path().exists());
    let checks = env.requests();
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0].method, "GET");
    assert_eq!(
        checks[0].header("authorization"),
        Some(format!("Bearer {WRONG_KEY}").as_str())
    );
}

#[test]
fn config_init_saves_nothing_when_the_api_is_unreachable_unless_told_not_to_check() {
    let env = Env::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let out = init_piped(env.bare(), &closed, WRONG_KEY, &[]);
    out.code(6).says("Nothing was saved").says("--no-check");
    assert!(!env.config_path().exists());
    init_piped(env.bare(), &closed, WRONG_KEY, &["--no-check"]).ok();
    let saved = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(
        saved.contains(&closed) && saved.contains(WRONG_KEY),
        "{saved}"
    );
    let help = env.run(&["config", "init", "--help"]);
    help.ok().prints("--no-check");
}

#[test]
fn config_init_stores_nothing_from_the_environment() {
    let env = Env::new();
    // TUNNELCTL_API_URL and TUNNELCTL_API_KEY are set; neither is stored.
    let out = run(env.cmd().args(["config", "init"]));
    out.code(2).says("--api-url");
    let out = run(env
        .cmd()
        .args(["config", "init", "--api-url", &env.mock.url()]));
    out.code(2).says("--api-key-stdin");
    assert!(!env.config_path().exists());
    let mut with_agent = env.cmd();
    with_agent.env(var::AGENT_URL, "http://127.0.0.1:4999/api");
    let out = init_piped(with_agent, &env.mock.url(), API_KEY, &[]);
    out.ok().says("accepted the key");
    let saved = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(!saved.contains("agent_url"), "{saved}");
    assert!(
        saved.contains("api_url") && saved.contains("api_key"),
        "{saved}"
    );
}

/// Runs a command that uses a wrong key; the key is never printed.
fn run_wrong(cmd: &mut assert_cmd::Command) -> Out {
    let out = run(cmd);
    assert!(!out.stderr.contains(WRONG_KEY), "{}", out.stderr);
    out
}

#[test]
fn a_401_says_to_check_the_key_and_where_it_came_from() {
    let env = Env::new();
    let out = run_wrong(
        env.cmd()
            .env(var::API_KEY, WRONG_KEY)
            .args(["ip-policies", "list"]),
    );
    out.code(1)
        .says("401")
        .says("check it")
        .says("environment variable TUNNELCTL_API_KEY");
    let out = run_wrong(
        env.bare()
            .args(["--api-key", WRONG_KEY, "--api-url", &env.mock.url()])
            .args(["ip-policies", "list"]),
    );
    out.code(1).says("401").says("the --api-key flag");
    std::fs::write(
        env.config_path(),
        format!(
            "[staging]\napi_url = \"{}\"\napi_key = \"{WRONG_KEY}\"\n",
            env.mock.url()
        ),
    )
    .unwrap();
    let out = run_wrong(
        env.bare()
            .args(["--profile", "staging", "ip-policies", "get", "ipp_x"]),
    );
    out.code(1).says(&format!(
        "profile 'staging' in {}",
        env.config_path().display()
    ));
}

#[test]
fn a_jq_error_is_one_short_line_naming_the_expression_and_the_type() {
    let env = Env::new();
    env.seed_ip_policies(150);
    let out = env.run(&["ip-policies", "list", "--jq", ".id"]);
    out.code(2)
        .says("--jq '.id': cannot index array")
        .says("150 items")
        .says("'.[] |'");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.len() < 400, "{} bytes", out.stderr.len());
    assert_eq!(out.stdout, "");
}

#[test]
fn a_flag_with_the_value_of_its_variable_is_shown_as_the_flag() {
    let env = Env::new();
    // env.cmd() sets TUNNELCTL_API_URL to the same URL the flag gives.
    let out = run(env
        .cmd()
        .args(["--api-url", &env.mock.url(), "config", "show", "--json"]));
    out.ok();
    assert_eq!(out.json()["settings"]["api_url"]["source"], "flag");
    let out = run(env.cmd().args(["config", "show", "--json"]));
    assert_eq!(
        out.json()["settings"]["api_url"]["source"],
        "env TUNNELCTL_API_URL"
    );
}
