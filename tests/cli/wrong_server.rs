//! A URL setting pointed at the wrong kind of server says so, and which setting to change:
//! `https://` to a plain-HTTP port, the API URL pointed at a local agent, the agent URL pointed
//! at the management API. Each is configuration unusable (exit 3), against the emulator's two
//! servers.

use crate::common::{run, Env, API_KEY};
use tunnelctl::registry::env as var;

/// `http://127.0.0.1:PORT` of a URL (its origin).
fn origin(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    format!("http://{}", rest.split('/').next().unwrap())
}

/// `https://` to a port that speaks plain HTTP used to say `received corrupt message of type
/// InvalidContentType` (exit 6); now it says the server speaks plain HTTP, what to type, and
/// which setting gave the URL.
#[test]
fn https_to_a_plain_http_port_says_to_use_http() {
    let env = Env::new();
    let api = env.mock.url();
    let tls = api.replacen("http://", "https://", 1);
    let out = run(env
        .bare()
        .env(var::API_KEY, API_KEY)
        .env(var::API_URL, &tls)
        .args(["ip-policies", "list"]));
    out.code(3)
        .says("the server speaks plain HTTP, not HTTPS")
        .says(&format!("use {api}"))
        .says("The environment variable TUNNELCTL_API_URL starts with https://");
    assert!(!out.stderr.contains("InvalidContentType"), "{}", out.stderr);
    // The agent URL, from its flag: the flag is named.
    let agent = env.mock.agent_url().replacen("http://", "https://", 1);
    let out = run(env
        .bare()
        .args(["--agent-url", &agent, "local", "tunnels", "list"]));
    out.code(3)
        .says("the server speaks plain HTTP, not HTTPS")
        .says(&format!("use {}", origin(&env.mock.agent_url())))
        .says("--agent-url");
    // Tried once: the answer will not change.
    assert!(env.requests().is_empty() && env.mock.agent_requests().is_empty());
}

/// The API URL pointed at the agent used to give `404 Not Found` and exit 4 ("not found");
/// the answer is the agent's (its error shape), and the error says the API URL points at a
/// local agent, naming where it was set.
#[test]
fn the_api_url_pointed_at_the_agent_says_so() {
    let env = Env::new();
    let agent = env.mock.agent_url();
    for url in [agent.clone(), origin(&agent)] {
        for args in [
            &["ip-policies", "list"][..],
            &["ip-policies", "create", "--description", "office"],
            &["sessions", "list"],
        ] {
            let out = run(env
                .bare()
                .env(var::API_KEY, API_KEY)
                .args(["--api-url", &url])
                .args(args));
            out.code(3)
                .says("answers as a local tunnel agent's API, not as the management API")
                .says("--api-url points at it")
                .says("the management API's URL");
        }
    }
    // From the profile: the key, the profile and the file are named.
    env.write_config(&Env::default_profile(&agent));
    let out = run(env.bare().args(["ip-policies", "list"]));
    out.code(3)
        .says("The config key 'api_url' of profile 'default'")
        .says(env.config_path().to_str().unwrap());
    assert!(
        env.requests().is_empty(),
        "the management API was not asked"
    );
}

/// The agent URL pointed at the management API used to be told about a Bearer key the agent
/// never takes; the answer is the management API's (its `ERR_NGROK_` code), and the error says
/// the agent URL points at the management API.
#[test]
fn the_agent_url_pointed_at_the_management_api_says_so() {
    let env = Env::new();
    for url in [env.mock.url(), format!("{}/api", env.mock.url())] {
        for args in [
            &["local", "tunnels", "list"][..],
            &["local", "requests", "list"],
        ] {
            let out = run(env.bare().env(var::AGENT_URL, &url).args(args));
            out.code(3)
                .says("answers as the management API, not as a local agent's API")
                .says("The environment variable TUNNELCTL_AGENT_URL points at it")
                .says("http://127.0.0.1:4040/api");
            assert!(!out.stderr.contains("Bearer"), "{}", out.stderr);
        }
    }
}

/// A real 404 of either server is still "not found" (exit 4): only another server's answer is
/// taken for a URL pointed at the wrong one.
#[test]
fn a_404_of_the_right_server_is_still_not_found() {
    let env = Env::new();
    env.run(&["ip-policies", "get", "ipp_2Qm8x6QMd3ynmTLAxGzXYp1vZ0g"])
        .not_found("GET /ip_policies/ipp_2Qm8x6QMd3ynmTLAxGzXYp1vZ0g");
    let out = env.local(&["tunnels", "get", "nope"]);
    out.code(4).says("tunnel not found");
}
