//! What `plan` checks so that a plan that passes is one the service accepts (every value the
//! API constrains, every edge and destination the files name), how a change the service
//! refuses is reported, and how a problem of a file is shown: at its key's line, escaped,
//! with what to do.

use serde_json::json;

use crate::common::{self, Env};

fn write(env: &Env, name: &str, text: &str) -> String {
    let p = env.dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn writes(env: &Env) -> Vec<String> {
    env.writes()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[test]
fn a_min_version_the_service_does_not_take_is_refused_before_any_request() {
    let env = Env::new();
    let edge = env.seed_tls_edge(json!({"terminate_at": "edge", "min_version": "1.2"}));
    let file = write(
        &env,
        "account.toml",
        &format!("[tls_termination.{edge}]\nmin_version = \"1.4\"\n"),
    );
    env.mock.clear_requests();
    let out = env.run(&["plan", "-f", &file]);
    out.code(2)
        .says("account.toml:2:")
        .says("min_version")
        .says("1.0, 1.1, 1.2, 1.3");
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    env.run(&["apply", "-f", &file, "--yes"]).code(2);
    assert!(env.requests().is_empty());
    // The edges command knows the same values.
    env.run(&[
        "edges",
        "tls-termination",
        "set",
        &edge,
        "--min-version",
        "1.4",
    ])
    .code(2)
    .says("1.0, 1.1, 1.2, 1.3");
    assert!(env.requests().is_empty());
    // A value it takes plans and applies.
    write(
        &env,
        "account.toml",
        &format!("[tls_termination.{edge}]\nmin_version = \"1.3\"\n"),
    );
    env.run(&["apply", "-f", &file, "--yes"]).ok();
}

#[test]
fn plan_reads_each_edge_named_and_refuses_one_the_account_lacks() {
    let env = Env::new();
    let bare = env.seed_tls_edge(json!(null));
    let missing = "edgtls_2gxDJG9rZ3p0Dt6GC99qJiL57Ww";
    let file = write(
        &env,
        "account.toml",
        &format!(
            "[tls_termination.{bare}]\nterminate_at = \"edge\"\n\n[tls_termination.{missing}]\nterminate_at = \"edge\"\n"
        ),
    );
    env.mock.clear_requests();
    let out = env.run(&["plan", "-f", &file]);
    out.code(2)
        .says(&format!("account.toml:4: tls_termination.{missing}"))
        .says("no TLS edge");
    assert!(
        !out.stderr.contains(&format!("tls_termination.{bare}:")),
        "{}",
        out.stderr
    );
    let out = env.run(&["apply", "-f", &file, "--yes"]);
    out.code(2);
    assert!(writes(&env).is_empty(), "{:?}", writes(&env));
    // An edge that exists without the module is a create.
    write(
        &env,
        "account.toml",
        &format!("[tls_termination.{bare}]\nterminate_at = \"edge\"\n"),
    );
    env.run(&["plan", "-f", &file])
        .ok()
        .prints("create\ttls_termination.");
}

#[test]
fn a_destination_id_the_account_lacks_is_refused_at_its_key_s_line() {
    let env = Env::new();
    let file = write(
        &env,
        "account.toml",
        "[event_subscriptions.s]\ndescription = \"s\"\nsources = [\"ip_policy_created.v0\"]\ndestinations = [\"ed_2gxNoSuchDestination\"]\n",
    );
    env.mock.clear_requests();
    env.run(&["plan", "-f", &file])
        .code(2)
        .says("account.toml:4: event_subscriptions.s.destinations")
        .says("ed_2gxNoSuchDestination");
    env.run(&["apply", "-f", &file, "--yes"]).code(2);
    assert!(writes(&env).is_empty());
    // A name the files do not have is reported at the key's line too, not the table's.
    write(
        &env,
        "account.toml",
        "[event_subscriptions.s]\nsources = [\"ip_policy_created.v0\"]\n\ndestinations = [\"audti\"]\n",
    );
    env.run(&["plan", "-f", &file])
        .code(2)
        .says("account.toml:4: event_subscriptions.s.destinations");
}

#[test]
fn an_adopted_id_the_account_lacks_says_to_remove_the_id_line_at_its_line() {
    let env = Env::new();
    let file = write(
        &env,
        "account.toml",
        "[ip_policies.gone]\ndescription = \"x\"\nid = \"ipp_2gxGoneLongAgo\"\n",
    );
    let out = env.run(&["plan", "-f", &file]);
    out.code(2)
        .says("account.toml:3: ip_policies.gone.id")
        .says("ipp_2gxGoneLongAgo")
        .says("remove the id line");
}

/// Two IP policies and a file that changes both; the emulator and the file.
fn two_updates() -> (Env, Vec<String>, String) {
    let env = Env::new();
    let policies = env.seed_ids(
        "ip_policies",
        json!({"ip_policies": [{"description": "a"}, {"description": "b"}]}),
    );
    let file = write(
        &env,
        "account.toml",
        &format!(
            "[ip_policies.a]\nid = \"{}\"\ndescription = \"a2\"\n\n[ip_policies.b]\nid = \"{}\"\ndescription = \"b2\"\n",
            policies[0], policies[1]
        ),
    );
    (env, policies, file)
}

/// The emulator answers a PATCH of `id` with `status` and an API error body.
fn refuse(env: &Env, id: &str, status: u16) {
    env.mock.inject(json!({
        "method": "PATCH", "path": format!("/ip_policies/{id}"), "status": status,
        "body": json!({"error_code": "ERR_NGROK_206", "status_code": status, "msg": "refused on purpose", "details": {}}).to_string()
    }));
}

#[test]
fn a_change_the_service_refuses_is_reported_once_without_a_useless_retry_hint() {
    // The first change fails: one error, the failure said once.
    let (env, policies, file) = two_updates();
    refuse(&env, &policies[0], 400);
    let out = env.run(&["apply", "-f", &file, "--yes"]);
    out.code(1).says("refused on purpose").says("ip_policies.a");
    assert_eq!(
        out.stderr.matches("refused on purpose").count(),
        1,
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.matches("error:").count(), 1, "{}", out.stderr);
    assert!(!out.stderr.contains("failed:"), "{}", out.stderr);
    assert!(!out.stderr.contains("apply again"), "{}", out.stderr);
    // Part-way, refused: what was done and not, no hint to run again.
    let (env, policies, file) = two_updates();
    refuse(&env, &policies[1], 400);
    let out = env.run(&["apply", "-f", &file, "--yes"]);
    out.code(5)
        .says("Done: 1 change(s)")
        .says("update ip_policies.b");
    assert_eq!(
        out.stderr.matches("refused on purpose").count(),
        1,
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("apply again"), "{}", out.stderr);
    // Part-way, the service unavailable: running again can help, and says so.
    let (env, policies, file) = two_updates();
    refuse(&env, &policies[1], 503);
    let out = env.run(&["apply", "-f", &file, "--yes"]);
    out.code(5).says("apply again");
    assert_eq!(
        out.stderr.matches("refused on purpose").count(),
        1,
        "{}",
        out.stderr
    );
}

#[test]
fn names_and_keys_of_a_file_reach_the_terminal_escaped() {
    let env = Env::new();
    let file = write(
        &env,
        "account.toml",
        "[ip_policies.\"evil\\u001b]0;TITLE\\u0007\"]\n\n[ip_policies.ok]\n\"colour\\nerror: forged line\" = \"red\"\n\n[tls_termination.edgtls_1]\nterminate_at = \"up\\u001b[2Jstream\"\n",
    );
    let out = env.run(&["plan", "-f", &file]);
    out.code(2).says("3 problem(s)");
    assert!(!out.stderr.contains('\u{1b}'), "{:?}", out.stderr);
    assert!(!out.stderr.contains('\u{7}'), "{:?}", out.stderr);
    assert!(
        !out.stderr.lines().any(|l| l.starts_with("error: forged")),
        "{}",
        out.stderr
    );
    out.says("evil\\x1b]0;TITLE\\x07")
        .says("colour\\nerror: forged line");
    assert!(env.requests().is_empty());
}

#[test]
fn forgetting_f_is_answered_with_the_command_meant() {
    let env = Env::new();
    let file = write(&env, "account.toml", "[ip_policies.office]\n");
    let dir = env.dir.path().join("accounts");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("a.toml"), "[ip_policies.office]\n").unwrap();
    env.mock.clear_requests();
    env.run(&["plan", &file])
        .code(2)
        .says(&format!("did you mean 'tunnelctl plan -f {file}'"));
    env.run(&["apply", &file])
        .code(2)
        .says("an account file, not a saved plan")
        .says(&format!("did you mean 'tunnelctl apply -f {file}'"));
    let d = dir.to_string_lossy().into_owned();
    env.run(&["apply", &d, "--yes"])
        .code(2)
        .says(&format!("did you mean 'tunnelctl apply -f {d}'"));
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    // A saved plan is still a plan.
    let plan = env.dir.path().join("plan.json");
    let plan = plan.to_string_lossy().into_owned();
    env.run(&["plan", "-f", &file, "--out", &plan]).ok();
    common::run(env.cmd().args(["apply", &plan, "--yes"])).ok();
}

/// The members the API reference shows no fields of (s3, datadog) are passed on as written,
/// but the service takes only a table (an object) there.
#[test]
fn a_target_member_passed_on_as_written_must_be_a_table() {
    let env = Env::new();
    let file = write(
        &env,
        "account.toml",
        "[event_destinations.d]\ndescription = \"d\"\n[event_destinations.d.target]\ns3 = \"my-bucket\"\n",
    );
    env.run(&["plan", "-f", &file])
        .code(2)
        .says("account.toml:4: event_destinations.d.target.s3");
    env.run(&["apply", "-f", &file, "--yes"]).code(2);
    assert!(writes(&env).is_empty(), "{:?}", writes(&env));
    write(
        &env,
        "account.toml",
        "[event_destinations.d]\ndescription = \"d\"\n[event_destinations.d.target.s3]\nbucket = \"my-bucket\"\n",
    );
    env.run(&["apply", "-f", &file, "--yes"]).ok();
}
