//! `tunnelctl export`, `plan` and `apply` against the emulator: the account as code. Each
//! test checks what was printed, the exit code, and what the emulator received.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::{self, Env, Out, AWS_SECRET};
use tunnelctl::registry::env as var;

/// A seeded account: two IP policies, a backend, a destination and a subscription naming
/// it, all made outside tunnelctl.
struct Account {
    env: Env,
    policies: Vec<String>,
    backend: String,
    destination: String,
    subscription: String,
}

fn seeded() -> Account {
    let env = Env::new();
    let policies = env.seed_ids(
        "ip_policies",
        json!({"ip_policies": [
            {"description": "office network", "metadata": "{\"team\":\"it\"}"},
            {"description": "ci runners"}
        ]}),
    );
    let backend = env
        .seed_backends(json!([{"description": "web", "labels": {"env": "prod", "app": "web"}}]))
        .remove(0);
    let destination = env.seed_destinations(1).remove(0);
    let subscription = env.seed_subscription(json!({
        "description": "policy changes",
        "sources": [{"type": "ip_policy_created.v0"}],
        "destination_ids": [destination],
    }));
    Account {
        env,
        policies,
        backend,
        destination,
        subscription,
    }
}

impl Account {
    fn path(&self, name: &str) -> PathBuf {
        self.env.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> String {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }

    /// Exports the account into `name`; its path.
    fn export(&self, name: &str) -> String {
        let p = self.path(name).to_string_lossy().into_owned();
        self.env.run(&["export", "--out", &p]).ok();
        p
    }

    fn run(&self, args: &[&str]) -> Out {
        self.env.run(args)
    }

    fn run_with(&self, vars: &[(&str, &str)], args: &[&str]) -> Out {
        let mut cmd = self.env.cmd();
        for (k, v) in vars {
            cmd.env(k, v);
        }
        common::run(cmd.args(args))
    }

    /// The IDs of the IP policies whose ownership marker names `name`.
    fn managed_ids(&self, name: &str) -> Vec<String> {
        self.env
            .stored_all("ip_policies")
            .iter()
            .filter(|p| {
                let meta: Value = serde_json::from_str(p["metadata"].as_str().unwrap_or("null"))
                    .unwrap_or_default();
                meta["tunnelctl"]["name"] == name
            })
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    }

    /// Method and path of every request that is not a GET, in order.
    fn writes(&self) -> Vec<String> {
        self.env
            .writes()
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    }
}

/// Only GETs of the four lists were sent (and their next pages).
#[track_caller]
fn only_list_pages(env: &Env) {
    for r in env.requests() {
        assert_eq!(r.method, "GET", "{r:?}");
        assert!(
            [
                "/ip_policies",
                "/backends/tunnel_group",
                "/event_destinations",
                "/event_subscriptions"
            ]
            .contains(&r.path.as_str()),
            "not a list: {r:?}"
        );
    }
}

#[test]
fn an_exported_account_plans_with_no_changes() {
    let a = seeded();
    let file = a.export("account.toml");
    let text = a.read("account.toml");
    for id in a
        .policies
        .iter()
        .chain([&a.backend, &a.destination, &a.subscription])
    {
        assert!(text.contains(id), "{id} not exported:\n{text}");
    }
    assert!(text.contains("[ip_policies.office-network]"), "{text}");
    assert!(text.contains("destinations = [\"dest-1\"]"), "{text}");
    a.env.mock.clear_requests();
    let out = a.run(&["plan", "-f", &file, "--exit-code"]);
    out.ok().says("No changes");
    assert_eq!(out.stdout, "");
    only_list_pages(&a.env);
    let json = a.run(&["plan", "-f", &file, "--json"]);
    json.ok();
    assert_eq!(json.json()["changes"], false);
    assert_eq!(json.json()["actions"], json!([]));
}

#[test]
fn exporting_refuses_an_existing_file_without_force_and_an_unknown_kind() {
    let a = seeded();
    let file = a.write("account.toml", "# mine\n");
    a.env.mock.clear_requests();
    a.run(&["export", "--out", &file]).code(2).says("exists");
    assert_eq!(a.read("account.toml"), "# mine\n");
    a.run(&["export", "--out", &file, "--force"]).ok();
    assert!(a.read("account.toml").contains("[ip_policies."));
    let out = a.run(&["export", "sessions"]);
    out.code(2).says("invalid value 'sessions'");
    let tables = a.run(&["export", "ip_policies", "event-destinations"]);
    tables
        .ok()
        .prints("[ip_policies.")
        .prints("[event_destinations.");
    assert!(!tables.stdout.contains("[backends"), "{}", tables.stdout);
    let only = a.run(&["export", "backends"]);
    only.ok().prints("[backends.web]");
    assert!(!only.stdout.contains("[ip_policies"), "{}", only.stdout);
}

#[test]
fn edits_are_planned_exactly_applied_and_then_plan_is_clean() {
    let a = seeded();
    let file = a.export("account.toml");
    let text = a
        .read("account.toml")
        .replace(
            "description = \"ci runners\"",
            "description = \"build runners\"",
        )
        .replace("env = \"prod\"", "env = \"staging\"")
        + "\n[ip_policies.vpn]\ndescription = \"vpn\"\nmetadata = '{\"team\": \"net\"}'\n";
    a.write("account.toml", &text);
    a.env.mock.clear_requests();
    let plan = a.run(&["plan", "-f", &file]);
    plan.ok();
    assert_eq!(
        plan.stdout,
        format!(
            "update\tip_policies.ci-runners\t{}\tdescription\t\"ci runners\"\t\"build runners\"\n\
             create\tip_policies.vpn\t\tdescription\t\t\"vpn\"\n\
             create\tip_policies.vpn\t\tmetadata.team\t\t\"net\"\n\
             update\tbackends.web\t{}\tlabels.env\t\"prod\"\t\"staging\"\n",
            a.policies[1], a.backend
        )
    );
    plan.says("Plan: 1 to create, 2 to update, 0 to delete; 3 unchanged.");
    assert!(a.writes().is_empty());
    let applied = a.run(&["apply", "-f", &file, "--yes"]);
    applied
        .ok()
        .says("created ip_policies.vpn")
        .says("Applied 3 change(s)");
    let writes = a.env.writes();
    assert_eq!(writes.len(), 3, "{writes:?}");
    assert_eq!(writes[0].path, format!("/ip_policies/{}", a.policies[1]));
    let patch = writes[0].body_json().unwrap();
    assert_eq!(patch["description"], "build runners");
    assert_eq!(
        patch["metadata"], "{\"tunnelctl\":{\"name\":\"ci-runners\"}}",
        "an update records ownership"
    );
    assert_eq!(
        (writes[1].method.as_str(), writes[1].path.as_str()),
        ("POST", "/ip_policies")
    );
    let made = writes[1].body_json().unwrap();
    assert_eq!(made["description"], "vpn");
    let meta: Value = serde_json::from_str(made["metadata"].as_str().unwrap()).unwrap();
    assert_eq!(meta, json!({"team": "net", "tunnelctl": {"name": "vpn"}}));
    assert_eq!(
        writes[2].path,
        format!("/backends/tunnel_group/{}", a.backend)
    );
    assert_eq!(
        writes[2].body_json().unwrap()["labels"],
        json!({"env": "staging", "app": "web"})
    );
    a.run(&["plan", "-f", &file, "--exit-code"])
        .ok()
        .says("No changes");
}

#[test]
fn a_removed_resource_is_kept_without_prune_and_deleted_with_it_but_never_an_unmanaged_one() {
    let a = seeded();
    let file = a.write(
        "account.toml",
        "[ip_policies.temp]\ndescription = \"temporary\"\n\n[ip_policies.stays]\n",
    );
    a.run(&["apply", "-f", &file, "--yes"]).ok();
    let temp = a.managed_ids("temp").remove(0);
    a.write("account.toml", "[ip_policies.stays]\n");
    a.env.mock.clear_requests();
    let kept = a.run(&["plan", "-f", &file, "--exit-code"]);
    kept.ok()
        .says("No changes")
        .says(&format!("ip_policies.temp ({temp})"))
        .says("--prune deletes them")
        .says("Left alone: 5 resource(s) tunnelctl does not manage");
    let pruned = a.run(&["plan", "-f", &file, "--prune"]);
    pruned
        .ok()
        .prints(&format!("delete\tip_policies.temp\t{temp}\t"));
    assert!(a.writes().is_empty());
    a.run(&["apply", "-f", &file, "--prune", "--yes"]).ok();
    assert_eq!(a.writes(), vec![format!("DELETE /ip_policies/{temp}")]);
    for id in &a.policies {
        assert!(
            a.env.stored("ip_policies", id).is_some(),
            "{id} was deleted"
        );
    }
    a.run(&["plan", "-f", &file, "--prune", "--exit-code"]).ok();
}

#[test]
fn a_subscription_naming_a_destination_by_name_gets_its_id_after_it_is_made() {
    let a = seeded();
    let file = a.write(
        "account.toml",
        "[event_subscriptions.audit-all]\nsources = [\"ip_policy_updated.v0\"]\ndestinations = [\"audit\"]\n\n\
         [event_destinations.audit]\n[event_destinations.audit.target.kinesis]\n\
         stream_arn = \"arn:aws:kinesis:us-east-1:1:stream/a\"\nauth.role.role_arn = \"arn:aws:iam::1:role/r\"\n",
    );
    a.run(&["apply", "-f", &file, "--yes"]).ok();
    let writes = a.env.writes();
    assert_eq!(writes.len(), 2, "{writes:?}");
    assert_eq!(writes[0].path, "/event_destinations");
    assert_eq!(writes[1].path, "/event_subscriptions");
    let made = a
        .env
        .stored_all("event_destinations")
        .into_iter()
        .find(|d| d["metadata"].as_str().unwrap_or("").contains("audit"))
        .unwrap();
    assert_eq!(
        writes[1].body_json().unwrap()["destination_ids"],
        json!([made["id"]])
    );
    a.run(&["plan", "-f", &file, "--exit-code"]).ok();
}

#[test]
fn a_console_edit_between_plan_and_apply_refuses_the_saved_plan() {
    let a = seeded();
    let file = a.export("account.toml");
    let text = a.read("account.toml").replace(
        "description = \"office network\"",
        "description = \"office\"",
    );
    a.write("account.toml", &text);
    let saved = a.path("plan.json").to_string_lossy().into_owned();
    a.run(&["plan", "-f", &file, "--out", &saved]).ok();
    // Someone edits the policy in the console.
    a.run(&[
        "ip-policies",
        "update",
        &a.policies[0],
        "--description",
        "console",
    ])
    .ok();
    a.env.mock.clear_requests();
    let out = a.run(&["apply", &saved, "--yes"]);
    out.code(8)
        .says("changed since the plan")
        .says(&format!("ip_policies.office-network ({})", a.policies[0]))
        .says("description")
        .says("nothing was sent");
    assert!(a.writes().is_empty(), "{:?}", a.writes());
    // Unchanged, the saved plan applies.
    a.run(&[
        "ip-policies",
        "update",
        &a.policies[0],
        "--description",
        "office network",
    ])
    .ok();
    a.run(&["apply", &saved, "--yes"]).ok();
    a.run(&["plan", "-f", &file, "--exit-code"]).ok();
}

#[test]
fn a_saved_plan_is_written_like_export_and_refused_when_it_is_not_one() {
    let a = seeded();
    let file = a.export("account.toml");
    let saved = a.write("plan.json", "{}");
    a.run(&["plan", "-f", &file, "--out", &saved])
        .code(2)
        .says("exists");
    a.run(&["apply", &saved, "--yes"])
        .code(2)
        .says("not a saved plan");
    a.run(&["plan", "-f", &file, "--out", &saved, "--force"])
        .ok();
    let missing = a.path("nope.json").to_string_lossy().into_owned();
    a.run(&["apply", &missing, "--yes"]).code(2);
    // A plan made against one API is not applied to another.
    let other = Env::new();
    a.env.mock.clear_requests();
    let elsewhere = common::run(
        a.env
            .cmd()
            .env(var::API_URL, other.mock.url())
            .args(["apply", &saved, "--yes"]),
    );
    elsewhere.code(2).says("was made against the API at");
    assert!(other.requests().is_empty());
    a.run(&["apply", &saved, "-f", &file]).code(2);
}

#[test]
fn a_failure_part_way_exits_5_and_a_second_apply_converges_sending_nothing_twice() {
    let a = seeded();
    let file = a.write(
        "account.toml",
        "[ip_policies.one]\n[ip_policies.two]\n[backends.api]\nlabels = { app = \"api\" }\n",
    );
    // The second create's answer is lost after the policy was made; the backend fails.
    a.env.mock.inject(
        json!({"method": "POST", "path": "/backends/tunnel_group", "status": 500, "count": 1}),
    );
    let first = a.run(&["apply", "-f", &file, "--yes"]);
    first
        .code(5)
        .says("created ip_policies.one")
        .says("created ip_policies.two")
        .says("failed: create backends.api")
        .says("Not done: 1 change(s)");
    let second = a.run(&["apply", "-f", &file, "--yes"]);
    second.ok().says("created backends.api");
    assert!(
        !second.stdout.contains("ip_policies.one"),
        "{}",
        second.stdout
    );
    let posts: Vec<String> = a
        .writes()
        .into_iter()
        .filter(|w| w.starts_with("POST /ip_policies"))
        .collect();
    assert_eq!(posts.len(), 2, "each policy made once: {posts:?}");
    a.run(&["plan", "-f", &file, "--exit-code"]).ok();
}

#[test]
fn a_create_whose_answer_was_lost_is_found_again_not_made_twice() {
    let a = seeded();
    let file = a.write("account.toml", "[ip_policies.one]\n[ip_policies.two]\n");
    a.env.mock.inject(
        json!({"method": "POST", "path": "/ip_policies", "after": true, "reset": true, "count": 1}),
    );
    let first = a.run(&["apply", "-f", &file, "--yes"]);
    assert_ne!(first.code, 0, "{first:?}");
    first.says("create ip_policies.one");
    let second = a.run(&["apply", "-f", &file, "--yes"]);
    second.ok().says("created ip_policies.two");
    assert!(
        !second.stderr.contains("created ip_policies.one"),
        "{}",
        second.stderr
    );
    let made = a.managed_ids("one");
    assert_eq!(made.len(), 1, "{made:?}");
}

#[test]
fn subscriptions_are_deleted_before_the_destinations_they_name() {
    let a = seeded();
    let file = a.write(
        "account.toml",
        "[event_destinations.d]\n[event_destinations.d.target.kinesis]\nstream_arn = \"arn:k\"\nauth.role.role_arn = \"arn:r\"\n\n\
         [event_subscriptions.s]\nsources = [\"ip_policy_created.v0\"]\ndestinations = [\"d\"]\n",
    );
    a.run(&["apply", "-f", &file, "--yes"]).ok();
    a.write("account.toml", "");
    a.env.mock.clear_requests();
    a.run(&["apply", "-f", &file, "--prune", "--yes"]).ok();
    let w = a.writes();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("DELETE /event_subscriptions/"), "{w:?}");
    assert!(w[1].starts_with("DELETE /event_destinations/"), "{w:?}");
    assert!(a.env.stored("event_destinations", &a.destination).is_some());
}

#[test]
fn renaming_an_adopted_resource_changes_its_marker_only() {
    let a = seeded();
    let file = a.write("account.toml", "[ip_policies.first]\n");
    a.run(&["apply", "-f", &file, "--yes"]).ok();
    let id = a.managed_ids("first").remove(0);
    a.write(
        "account.toml",
        &format!("[ip_policies.second]\nid = \"{id}\"\n"),
    );
    a.env.mock.clear_requests();
    let out = a.run(&["apply", "-f", &file, "--prune", "--yes"]);
    out.ok().prints("(name)\t\"first\"\t\"second\"");
    assert_eq!(a.writes(), vec![format!("PATCH /ip_policies/{id}")]);
}

#[test]
fn secrets_stay_in_their_variable_and_out_of_every_output() {
    let a = seeded();
    let file = a.write(
        "account.toml",
        "[event_destinations.logs]\n[event_destinations.logs.target.cloudwatch_logs]\n\
         log_group_arn = \"arn:aws:logs:us-east-1:1:log-group:x\"\n\
         auth.creds = { aws_access_key_id = \"AKIAEXAMPLE\", aws_secret_access_key_env = \"LOGS_SECRET\" }\n",
    );
    let vars = [("LOGS_SECRET", AWS_SECRET)];
    // common::run fails the test if the secret reaches stdout or stderr.
    let plan = a.run_with(&vars, &["plan", "-f", &file]);
    plan.ok().prints("(secret)");
    a.run_with(&vars, &["plan", "-f", &file, "--json"]).ok();
    a.env.mock.clear_requests();
    a.run(&["apply", "-f", &file, "--yes"])
        .code(3)
        .says("LOGS_SECRET");
    assert!(a.writes().is_empty());
    let saved = a.path("plan.json").to_string_lossy().into_owned();
    a.run_with(&vars, &["plan", "-f", &file, "--out", &saved])
        .ok();
    assert!(!a.read("plan.json").contains(AWS_SECRET));
    a.run_with(&vars, &["apply", &saved, "--yes", "--verbose"])
        .ok();
    let sent = a.env.writes().remove(0).body_json().unwrap();
    assert_eq!(
        sent["target"]["cloudwatch_logs"]["auth"]["creds"]["aws_secret_access_key"],
        AWS_SECRET
    );
    let exported = a.export("again.toml");
    let text = a.read("again.toml");
    assert!(!text.contains(AWS_SECRET), "{text}");
    assert!(
        text.contains("aws_secret_access_key_env = \"AWS_SECRET_LOGS\""),
        "{text}"
    );
    a.run(&["plan", "-f", &exported, "--exit-code"]).ok();
    a.run(&["plan", "-f", &file, "--exit-code"]).ok();
}

#[test]
fn a_fresh_checkout_with_another_config_folder_plans_the_same() {
    let a = seeded();
    let file = a.write("account.toml", "[ip_policies.made]\ndescription = \"x\"\n");
    a.run(&["apply", "-f", &file, "--yes"]).ok();
    a.write("account.toml", "[ip_policies.made]\ndescription = \"y\"\n");
    let here = a.run(&["plan", "-f", &file, "--prune"]);
    let other = tempfile::tempdir().unwrap();
    let copy = other.path().join("account.toml");
    std::fs::copy(&file, &copy).unwrap();
    let there = common::run(
        a.env
            .cmd()
            .env(var::CONFIG, other.path().join("config.toml"))
            .env("HOME", other.path())
            .env("XDG_CONFIG_HOME", other.path())
            .args(["plan", "-f", &copy.to_string_lossy(), "--prune"]),
    );
    here.ok().prints("description\t\"x\"\t\"y\"");
    assert_eq!(here.stdout, there.stdout);
}

#[test]
fn exit_code_tells_no_changes_from_pending_from_an_error() {
    let a = seeded();
    let file = a.export("account.toml");
    a.run(&["plan", "-f", &file, "--exit-code"]).ok();
    a.write(
        "account.toml",
        &(a.read("account.toml") + "[ip_policies.new]\n"),
    );
    a.run(&["plan", "-f", &file, "--exit-code"])
        .code(8)
        .prints("create\tip_policies.new");
    // Without --exit-code, pending changes are a success.
    a.run(&["plan", "-f", &file]).ok();
    let closed = common::run(a.env.cmd().env(var::API_URL, "http://127.0.0.1:9").args([
        "plan",
        "-f",
        &file,
        "--exit-code",
        "--max-attempts",
        "1",
    ]));
    closed.code(6);
    a.write("bad.toml", "[ip_policies.x]\ncolour = \"red\"\n");
    let bad = a.path("bad.toml").to_string_lossy().into_owned();
    a.run(&["plan", "-f", &bad, "--exit-code"]).code(2);
}

#[test]
fn apply_without_a_terminal_refuses_without_yes_and_sends_nothing() {
    let a = seeded();
    let file = a.write("account.toml", "[ip_policies.new]\n");
    a.env.mock.clear_requests();
    a.run(&["apply", "-f", &file]).code(2).says("--yes");
    assert!(a.writes().is_empty());
    a.run(&["apply", "-f", &file, "--dry-run"])
        .ok()
        .prints("create\tip_policies.new");
    assert!(a.writes().is_empty());
    a.run(&["apply"]).code(2).says("apply -f FILE");
    a.run(&["plan"]).code(2).says("plan -f FILE");
}

/// Every kind of bad file: exit 2, naming the file, the line and the key, nothing sent.
#[test]
fn bad_files_exit_2_naming_file_line_and_key_and_send_nothing() {
    let a = seeded();
    let long = "x".repeat(256);
    let meta = format!("{{\"k\": \"{}\"}}", "m".repeat(4090));
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("unknown key", "[ip_policies.a]\ncolour = \"red\"\n".into(), ":2:", "ip_policies.a.colour"),
        ("unknown table", "[edges.a]\n".into(), ":1:", "edges"),
        ("dangling reference", "[event_subscriptions.s]\nsources = [\"x.v0\"]\ndestinations = [\"nowhere\"]\n".into(), ":3:", "event_subscriptions.s.destinations"),
        ("description over 255 bytes", format!("[ip_policies.a]\ndescription = \"{long}\"\n"), ":2:", "ip_policies.a.description"),
        ("metadata over 4096 bytes", format!("[ip_policies.a]\nmetadata = '{meta}'\n"), ":2:", "ip_policies.a.metadata"),
        ("two target members", "[event_destinations.d]\n[event_destinations.d.target.kinesis]\nstream_arn = \"a\"\nauth.role.role_arn = \"r\"\n[event_destinations.d.target.firehose]\ndelivery_stream_arn = \"b\"\nauth.role.role_arn = \"r\"\n".into(), ":2:", "event_destinations.d.target"),
        ("no target member", "[event_destinations.d]\ntarget = {}\n".into(), ":2:", "event_destinations.d.target"),
        ("a secret in the file", "[event_destinations.d.target.kinesis]\nstream_arn = \"a\"\nauth.creds = { aws_access_key_id = \"AKIA\", aws_secret_access_key = \"s\" }\n".into(), ":3:", "aws_secret_access_key"),
        ("a bad name", "[ip_policies.\"a b\"]\n".into(), ":1:", "ip_policies.a b"),
        ("a wrong id", "[ip_policies.a]\nid = \"bkdtg_1\"\n".into(), ":2:", "ip_policies.a.id"),
        ("upstream with a version", "[tls_termination.edgtls_1]\nterminate_at = \"upstream\"\nmin_version = \"1.2\"\n".into(), ":3:", "min_version"),
        ("not TOML", "[ip_policies.a\n".into(), ":1:", "not valid TOML"),
    ];
    for (what, text, line, key) in cases {
        let file = a.write("bad.toml", &text);
        a.env.mock.clear_requests();
        let out = a.run(&["plan", "-f", &file]);
        assert_eq!(out.code, 2, "{what}: {out:?}");
        assert!(
            out.stderr.contains(&format!("bad.toml{line}")),
            "{what}: {}",
            out.stderr
        );
        assert!(out.stderr.contains(key), "{what}: {}", out.stderr);
        assert!(
            a.env.requests().is_empty(),
            "{what}: sent {:?}",
            a.env.requests()
        );
        a.run(&["apply", "-f", &file, "--yes"]).code(2);
        assert!(a.env.requests().is_empty(), "{what}: apply sent something");
    }
    // A name given in two files.
    let one = a.write("one.toml", "[ip_policies.same]\n");
    let two = a.write("two.toml", "\n[ip_policies.same]\n");
    let out = a.run(&["plan", "-f", &one, "-f", &two]);
    out.code(2)
        .says("two.toml:2: ip_policies.same")
        .says("one.toml:1");
    // A folder reads every *.toml in it: the same two, found the same way.
    let dir = a.env.dir.path().join("dir");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(&one, dir.join("one.toml")).unwrap();
    std::fs::copy(&two, dir.join("two.toml")).unwrap();
    a.run(&["plan", "-f", &dir.to_string_lossy()])
        .code(2)
        .says("two.toml:2");
    let missing = a.path("missing.toml").to_string_lossy().into_owned();
    a.run(&["plan", "-f", &missing])
        .code(2)
        .says("missing.toml");
    assert!(a.env.requests().is_empty());
}

#[test]
fn a_folder_of_files_makes_one_account() {
    let a = seeded();
    let dir = a.env.dir.path().join("acct");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("destinations.toml"),
        "[event_destinations.d]\n[event_destinations.d.target.kinesis]\nstream_arn = \"arn:k\"\nauth.role.role_arn = \"arn:r\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("subscriptions.toml"),
        "[event_subscriptions.s]\nsources = [\"ip_policy_created.v0\"]\ndestinations = [\"d\"]\n",
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "not read").unwrap();
    let d = dir.to_string_lossy().into_owned();
    a.run(&["apply", "-f", &d, "--yes"]).ok();
    a.run(&["plan", "-f", &d, "--exit-code"]).ok();
}

#[test]
fn tls_termination_is_read_for_the_edges_named_only() {
    let a = seeded();
    let edge = a
        .env
        .seed_tls_edge(json!({"terminate_at": "edge", "min_version": "1.2"}));
    let file = a.write(
        "account.toml",
        &format!("[tls_termination.{edge}]\nterminate_at = \"edge\"\nmin_version = \"1.3\"\n"),
    );
    a.env.mock.clear_requests();
    let plan = a.run(&["plan", "-f", &file]);
    plan.ok().prints("min_version\t\"1.2\"\t\"1.3\"");
    let gets: Vec<String> = a
        .env
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/edges"))
        .map(|r| r.path.clone())
        .collect();
    assert_eq!(gets, vec![format!("/edges/tls/{edge}/tls_termination")]);
    a.run(&["apply", "-f", &file, "--yes"]).ok();
    a.run(&["plan", "-f", &file, "--exit-code"]).ok();
}

#[test]
fn a_plan_of_many_resources_sends_one_request_per_page_and_nothing_else() {
    let env = Env::with(tunnelctl_mock::MockOptions {
        page_size: 5,
        ..Default::default()
    });
    env.seed(json!({"ip_policy_count": 23}));
    env.seed_backends(
        (0..7)
            .map(|i| json!({"labels": {"n": i.to_string()}}))
            .collect::<Vec<_>>(),
    );
    let dests = env.seed_destinations(6);
    env.seed_subscriptions(
        (0..3)
            .map(|_| json!({"sources": [{"type": "ip_policy_created.v0"}], "destination_ids": [dests[0]]}))
            .collect::<Vec<_>>(),
    );
    let file = env.dir.path().join("account.toml");
    let file = file.to_string_lossy().into_owned();
    env.run(&["export", "--out", &file]).ok();
    env.mock.clear_requests();
    env.run(&["plan", "-f", &file, "--exit-code"])
        .ok()
        .says("39 resource(s) checked");
    only_list_pages(&env);
    // 23, 7, 6 and 3 items in pages of 5.
    assert_eq!(env.requests().len(), 5 + 2 + 2 + 1);
}

#[test]
fn apply_asks_on_a_terminal_and_a_no_sends_nothing() {
    use crate::common::pty::Pty;
    let a = seeded();
    let file = a.write("account.toml", "[ip_policies.new]\n");
    for (answer, code) in [("n\r", 2), ("y\r", 0)] {
        a.env.mock.clear_requests();
        let mut cmd = a.env.std_cmd();
        cmd.args(["apply", "-f", &file]);
        let mut term = Pty::spawn(&cmd, 30, 100);
        let screen = term.wait_for("Apply this change? [y/N]");
        assert!(screen.contains("create  ip_policies.new"), "{screen}");
        term.send(answer);
        assert_eq!(term.wait_exit(), code, "{answer:?}: {}", term.screen());
        let writes = a.writes();
        let expected = if code == 0 { 1 } else { 0 };
        assert_eq!(writes.len(), expected, "{answer:?}: {writes:?}");
    }
}

#[test]
fn the_plan_is_a_table_on_a_terminal_and_a_documented_object_in_json() {
    let a = seeded();
    let file = a.export("account.toml");
    let text = a
        .read("account.toml")
        .replace("env = \"prod\"", "env = \"qa\"");
    a.write("account.toml", &text);
    let table = common::run(
        a.env
            .cmd()
            .env(var::FORCE_TTY, "1")
            .env("COLUMNS", "200")
            .args(["plan", "-f", &file]),
    );
    table.ok();
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert!(lines[0].starts_with("ACTION  RESOURCE"), "{}", table.stdout);
    assert!(
        lines[1].contains("update  backends.web") && lines[1].contains("labels.env"),
        "{}",
        table.stdout
    );
    assert!(lines[1].contains("\"prod\"") && lines[1].contains("\"qa\""));
    assert_eq!(
        lines.last().unwrap(),
        &"Plan: 0 to create, 1 to update, 0 to delete; 4 unchanged."
    );
    let plan = a.run(&["plan", "-f", &file, "--json"]);
    let doc = plan.ok().json();
    assert_eq!(doc["format"], "tunnelctl-plan");
    assert_eq!(doc["changes"], true);
    assert_eq!(doc["summary"]["update"], 1);
    let action = &doc["actions"][0];
    assert_eq!(action["action"], "update");
    assert_eq!(action["kind"], "backends");
    assert_eq!(action["name"], "web");
    assert_eq!(action["id"], a.backend.as_str());
    assert_eq!(
        action["fields"],
        json!([{"path": "labels.env", "old": "prod", "new": "qa"}])
    );
    let jq = a.run(&["plan", "-f", &file, "--jq", ".actions[].name"]);
    jq.ok();
    assert_eq!(jq.stdout, "web\n");
}

#[test]
fn export_takes_out_for_its_file_wherever_the_global_flags_stand() {
    let a = seeded();
    let file = a.path("profiled.toml").to_string_lossy().into_owned();
    // `--profile export` is a flag's value, not the command.
    a.write("config.toml", "[export]\n");
    a.run(&["--profile", "export", "export", "--out", &file])
        .ok();
    assert!(a.read("profiled.toml").contains("[backends.web]"));
    a.run(&["export", "--out", "-"])
        .ok()
        .prints("[backends.web]");
    let empty = a.env.dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    a.run(&["plan", "-f", &empty.to_string_lossy()])
        .code(2)
        .says("no *.toml");
}

#[test]
fn an_id_the_account_lacks_or_a_name_two_resources_claim_is_refused_before_any_write() {
    let a = seeded();
    let file = a.write(
        "account.toml",
        "\n[ip_policies.gone]\nid = \"ipp_missing\"\n",
    );
    a.env.mock.clear_requests();
    a.run(&["apply", "-f", &file, "--yes"])
        .code(2)
        .says("account.toml:3")
        .says("ipp_missing");
    assert!(a.writes().is_empty());
    // Two resources carry the marker of one name (copied metadata): which is meant is asked.
    let marker = "{\"tunnelctl\":{\"name\":\"twin\"}}";
    let twins = a.env.seed_ids(
        "ip_policies",
        json!({"ip_policies": [{"metadata": marker}, {"metadata": marker}]}),
    );
    a.write("account.toml", "[ip_policies.twin]\n");
    let out = a.run(&["apply", "-f", &file, "--prune", "--yes"]);
    out.code(2).says(&twins[0]).says(&twins[1]).says("id = ");
    assert!(a.writes().is_empty());
}

/// A file of more resources than are checked at once on one thread (it is checked in two
/// halves) reports every problem, in the file's order, from both halves, and sends nothing;
/// fixed, it plans every resource in the file's order.
#[test]
fn a_large_file_reports_every_problem_in_order_and_plans_every_resource_in_order() {
    let env = Env::new();
    let bad = [3, 700];
    let text: String = (0..800)
        .map(|i| {
            let description = if bad.contains(&i) {
                "x".repeat(256)
            } else {
                format!("policy {i}")
            };
            format!("[ip_policies.p{i:03}]\ndescription = \"{description}\"\n\n")
        })
        .collect();
    let file = env.dir.path().join("large.toml");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_string_lossy().into_owned();
    let out = env.run(&["plan", "-f", &file]);
    out.code(2).says("2 problem(s)");
    let first = out
        .stderr
        .find("large.toml:11: ip_policies.p003.description");
    let second = out
        .stderr
        .find("large.toml:2102: ip_policies.p700.description");
    assert!(
        matches!((first, second), (Some(a), Some(b)) if a < b),
        "both problems, in the file's order: {}",
        out.stderr
    );
    assert!(env.requests().is_empty());
    let fixed = text.replace(&"x".repeat(256), "long");
    std::fs::write(&file, fixed).unwrap();
    let out = env.run(&["plan", "-f", &file, "--json"]);
    let plan: Value = serde_json::from_str(&out.ok().stdout).unwrap();
    let names: Vec<&str> = plan["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = (0..800).map(|i| format!("p{i:03}")).collect();
    assert_eq!(names, expected);
}
