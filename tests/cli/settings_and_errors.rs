//! Settings and their precedence, the config commands, error reporting of every shape,
//! and the guards that keep the API key at home.

use crate::common::{run, Env, API_KEY};
use serde_json::json;
use tunnelctl::registry::env as var;
use tunnelctl_mock::MockOptions;

#[test]
fn no_api_key_exits_3_and_says_how_to_set_it() {
    let env = Env::new();
    let out = run(env
        .bare()
        .env(var::API_URL, env.mock.url())
        .args(["ip-policies", "list"]));
    out.code(3).says(var::API_KEY).says("tunnelctl config init");
    assert!(env.requests().is_empty());
}

#[test]
fn no_api_url_exits_3() {
    let env = Env::new();
    let out = run(env
        .bare()
        .env(var::API_KEY, API_KEY)
        .args(["sessions", "list"]));
    out.code(3).says(var::API_URL);
}

#[test]
fn flag_beats_env_beats_profile() {
    let env = Env::new();
    let other = Env::new();
    // The profile points at `other`; the environment at `env`.
    env.write_config(&Env::default_profile(&other.mock.url()));
    run(env.bare().args(["ip-policies", "list"])).ok();
    assert_eq!(
        other.requests().len(),
        1,
        "profile used when nothing else is set"
    );
    assert_eq!(env.requests().len(), 0);

    run(env
        .bare()
        .env(var::API_URL, env.mock.url())
        .args(["ip-policies", "list"]))
    .ok();
    assert_eq!(env.requests().len(), 1, "environment beats the profile");
    assert_eq!(other.requests().len(), 1);

    run(env
        .bare()
        .env(var::API_URL, "https://unused.invalid")
        .args(["--api-url", &other.mock.url(), "ip-policies", "list"]))
    .ok();
    assert_eq!(other.requests().len(), 2, "the flag beats the environment");

    // The key too: a wrong key in the environment loses to the right one in a flag.
    run(env
        .bare()
        .env(var::API_URL, env.mock.url())
        .env(var::API_KEY, "tk_wrong_wrong_wrong_wrong_wrong")
        .args(["--api-key", API_KEY, "ip-policies", "list"]))
    .ok();
    // And a wrong key is answered 401 by the server: exit 1 with the status.
    let out = run(env
        .bare()
        .env(var::API_URL, env.mock.url())
        .env(var::API_KEY, "tk_wrong_wrong_wrong_wrong_wrong")
        .args(["ip-policies", "list"]));
    out.code(1).says("401");
}

#[test]
fn profiles_are_chosen_by_flag_or_env() {
    let env = Env::new();
    env.write_config(&format!(
            "[default]\napi_url = \"https://default.invalid\"\napi_key = \"x\"\n\n[test]\napi_url = \"{}\"\napi_key = \"{API_KEY}\"\n",
            env.mock.url()
        ));
    run(env
        .bare()
        .args(["--profile", "test", "ip-policies", "list"]))
    .ok();
    run(env
        .bare()
        .env(var::PROFILE, "test")
        .args(["ip-policies", "list"]))
    .ok();
    assert_eq!(env.requests().len(), 2);
}

#[test]
fn config_set_get_unset_keep_other_keys_and_mode_0600() {
    let env = Env::new();
    env.write_config("# my settings\n[staging]\napi_url = \"https://staging.example.com\"\n");
    run(env
        .bare()
        .args(["config", "set", "api_url", &env.mock.url()]))
    .ok();
    let out = run(env
        .bare()
        .args(["config", "set", "api_key", "-"])
        .write_stdin(format!("{API_KEY}\n")));
    out.ok();
    let text = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(text.starts_with("# my settings"), "{text}");
    assert!(text.contains("[staging]") && text.contains("https://staging.example.com"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(env.config_path())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
    }
    let out = run(env.bare().args(["config", "get", "api_url"]));
    out.ok();
    assert_eq!(out.stdout.trim(), env.mock.url());
    let out = run(env.bare().args(["config", "get", "api_key"]));
    out.ok();
    assert!(out.stdout.contains("redacted"));
    run(env.bare().args(["ip-policies", "list"])).ok();
    run(env.bare().args(["config", "unset", "api_key"])).ok();
    run(env.bare().args(["ip-policies", "list"])).code(3);
    let out = run(env.bare().args(["config", "set", "colour", "x"]));
    out.code(2);
    let out = run(env
        .bare()
        .args(["config", "set", "api_url", "http://api.example.com"]));
    out.code(2).says("https");
    let out = run(env.bare().args(["config", "path"]));
    assert_eq!(out.stdout.trim(), env.config_path().display().to_string());
}

#[test]
fn config_init_off_a_terminal_reads_flags_and_stdin() {
    let env = Env::new();
    let out = run(env
        .bare()
        .args([
            "config",
            "init",
            "--api-url",
            &env.mock.url(),
            "--api-key-stdin",
        ])
        .write_stdin(format!("{API_KEY}\n")));
    out.ok();
    // No empty lock file is left beside it (issue 33).
    assert!(!env.dir.path().join("config.toml.lock").exists());
    run(env.bare().args(["ip-policies", "list"])).ok();
    let show = run(env.bare().args(["config", "show"]));
    show.ok();
    assert!(show.stdout.contains("redacted"));
    assert!(show.stdout.contains(&env.mock.url()));
    run(env.bare().args(["config", "init"])).code(2);
}

#[test]
fn unreadable_config_is_exit_3() {
    let env = Env::new();
    env.write_config("[default\napi_key = ");
    let out = run(env.bare().args(["ip-policies", "list"]));
    out.code(3).says("TOML");
}

#[test]
fn verbose_trace_redacts_the_key() {
    let env = Env::new();
    let out = env.run(&["ip-policies", "create", "--description", "x", "--verbose"]);
    out.ok()
        .says("> POST")
        .says("authorization: Bearer tk_t…(redacted)");
    assert!(out.stderr.contains("service-version: 2"));
    assert!(out.stderr.contains("< 201"));
}

#[test]
fn plain_http_to_another_host_is_refused_before_sending() {
    let env = Env::new();
    let out = run(env.bare().env(var::API_KEY, API_KEY).args([
        "--api-url",
        "http://api.example.com",
        "ip-policies",
        "list",
    ]));
    out.code(3).says("https://");
}

#[test]
fn next_page_on_another_host_is_not_followed() {
    for other in [
        "http://127.0.0.2:{port}",
        "http://127.0.0.1:1",
        "https://127.0.0.1:{port}",
    ] {
        let env = Env::with(MockOptions {
            page_size: 2,
            ..Default::default()
        });
        let port = env.mock.url().rsplit(':').next().unwrap().to_string();
        env.mock
            .configure(json!({"next_page_base": other.replace("{port}", &port)}));
        env.seed(json!({"ip_policy_count": 5}));
        let out = env.run(&["ip-policies", "list", "--json"]);
        out.code(1).says("refusing to follow next_page_uri");
        assert_eq!(env.requests().len(), 1, "only the first page was fetched");
    }
}

#[test]
fn error_bodies_of_every_shape_give_one_clear_message() {
    let env = Env::new();
    let cases = [
        (
            json!({"status": 400, "content_type": "application/json", "body": "{\"error_code\":\"ERR_NGROK_999\",\"status_code\":400,\"msg\":\"the policy is locked\",\"details\":{\"operation_id\":\"op_abc\"}}"}),
            vec!["400", "the policy is locked", "ERR_NGROK_999", "op_abc"],
        ),
        (
            json!({"status": 409, "content_type": "application/json", "body": "{\"msg\":\"conflict here\"}"}),
            vec!["409", "conflict here"],
        ),
        (
            json!({"status": 500, "content_type": "text/plain", "body": "upstream exploded\nstack..."}),
            vec!["500", "upstream exploded"],
        ),
        (
            json!({"status": 502, "content_type": "text/html", "body": "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"}),
            vec!["502", "Bad Gateway"],
        ),
        (
            json!({"status": 500, "body": ""}),
            vec!["500 Internal Server Error"],
        ),
        (
            json!({"status": 418, "content_type": "application/json", "body": "{\"error_code\":42}"}),
            vec!["418"],
        ),
        (
            json!({"status": 400, "content_type": "application/json", "body": "[1,2"}),
            vec!["400"],
        ),
    ];
    for (fault, needles) in cases {
        let mut f = fault.clone();
        f["method"] = json!("POST");
        f["path"] = json!("/ip_policies");
        f["count"] = json!(1);
        env.mock.inject(f);
        let out = env.run(&["ip-policies", "create", "--description", "x"]);
        out.code(1);
        assert!(
            out.stderr.starts_with("error: POST /ip_policies: "),
            "{}",
            out.stderr
        );
        for n in needles {
            assert!(out.stderr.contains(n), "{n} missing in: {}", out.stderr);
        }
        assert!(out.stderr.lines().count() <= 3, "{}", out.stderr);
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn help_shows_examples_and_exit_codes() {
    let env = Env::new();
    for path in [
        vec!["sessions", "restart"],
        vec!["ip-policies", "create"],
        vec!["backends", "tunnel-group", "update"],
        vec!["edges", "tls-termination", "set"],
        vec!["event-destinations", "create"],
        vec!["event-subscriptions", "sources", "create"],
        vec!["config", "init"],
    ] {
        let mut args = path.clone();
        args.push("--help");
        let out = env.run(&args);
        out.ok();
        assert!(out.stdout.contains("Example"), "{path:?}: {}", out.stdout);
    }
    let out = env.run(&["help", "exit-codes"]);
    out.ok();
    assert!(out.stdout.contains("130") && out.stdout.contains("partial failure"));
    let out = env.run(&["--api-key", "x", "--help"]);
    assert!(
        out.stdout.contains("safer"),
        "the help warns about --api-key"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let env = Env::new();
    env.seed(json!({"ip_policy_count": 300}));
    let mut child = env
        .std_cmd()
        .args(["ip-policies", "list", "-o", "ndjson"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
}

/// A size has one wording wherever it is given: the inspector's `--max-memory`, `record
/// --max-size` and the `history_max_size` key (none of them speaks of the others' captures or
/// memory). Nothing is sent.
#[test]
fn a_size_is_refused_in_one_wording_wherever_it_is_given() {
    let env = Env::new();
    let history = env.dir.path().join("h.sqlite3");
    let history = history.to_str().unwrap();
    for (value, wording) in [
        ("0", "'0' must be more than zero"),
        ("5x", "'5x' is not a size"),
    ] {
        for args in [
            vec!["local", "inspect", "--max-memory", value],
            vec![
                "--history-file",
                history,
                "local",
                "requests",
                "record",
                "--max-size",
                value,
            ],
            vec!["config", "set", "history_max_size", value],
        ] {
            let out = env.run(&args);
            out.code(2).says(wording).says("64MiB, 512KB");
            assert!(
                !out.stderr.contains("capture") && !out.stderr.contains("memory size"),
                "{args:?}: {}",
                out.stderr
            );
        }
    }
    assert!(env.requests().is_empty());
    assert!(env.mock.agent_requests().is_empty());
}

/// `config show` lists every key of the registry, each with its source; a wrong value in the
/// profile is shown as written there, while every other command stops on it, naming the key.
#[test]
fn config_show_lists_every_registered_key_and_a_wrong_value_stops_other_commands() {
    let env = Env::new();
    env.write_config("[default]\nhistory_max_age = \"soon\"\n");
    let out = env.run(&["config", "show", "--json"]);
    out.ok();
    let settings = &out.json()["settings"];
    for setting in tunnelctl::registry::profile_keys() {
        let shown = &settings[setting.key];
        assert!(shown["source"].is_string(), "{}: {shown}", setting.key);
        if let Some(default) = setting
            .default_value()
            .filter(|_| setting.key != "history_max_age")
        {
            assert_eq!(shown["value"], default, "{}", setting.key);
            assert_eq!(shown["source"], "default", "{}", setting.key);
        }
    }
    assert_eq!(settings["history_max_age"]["value"], "soon");
    assert_eq!(settings["history_max_age"]["source"], "profile default");
    let out = env.local(&["tunnels", "list"]);
    out.code(3)
        .says("the config key 'history_max_age' of profile 'default'")
        .says("'soon' is not a duration");
    assert!(env.mock.agent_requests().is_empty());
}

/// Each setting that has both a flag and a variable (read from the registry) is shown with
/// the one it came from, and its flag wins over its variable.
#[test]
fn config_show_says_whether_a_setting_came_from_its_flag_or_its_variable() {
    let env = Env::new();
    let settings = tunnelctl::registry::profile_keys();
    for s in settings.filter(|s| s.flag.is_some() && s.env.is_some()) {
        let (flag, var) = (s.flag.unwrap(), s.env.unwrap());
        // A switch's flag takes no value: typed, it is `true`; its variable says `false`.
        let switch = s.kind == tunnelctl::registry::ValueType::Switch;
        let (from_env, from_flag) = match switch {
            true => ("false", "true"),
            false => ("https://from-env.example", "https://from-flag.example"),
        };
        let flag_args: Vec<&str> = match switch {
            true => vec![flag],
            false => vec![flag, from_flag],
        };
        let show = |cmd: &mut assert_cmd::Command| {
            let out = run(cmd.args(["config", "show", "--json"]));
            out.ok();
            out.json()["settings"][s.key].clone()
        };
        let shown = show(env.bare().env(var, from_env));
        assert_eq!(shown["source"], format!("env {var}"), "{}", s.key);
        let shown = show(env.bare().args(&flag_args));
        assert_eq!(shown["source"], "flag", "{}", s.key);
        let shown = show(env.bare().env(var, from_env).args(&flag_args));
        assert_eq!(shown["source"], "flag", "{}", s.key);
        if !s.secret {
            assert_eq!(shown["value"], from_flag, "{}", s.key);
        }
    }
}

/// Read-only, from its flag, its variable or the profile, refuses every command that changes
/// sessions (exit 2) and sends nothing at all; a wrong value is refused wherever it is given,
/// and `false` (or nothing) lets the command through.
#[test]
fn read_only_refuses_every_command_that_changes_sessions_and_sends_nothing() {
    let env = Env::new();
    let ids = crate::common::strings(
        &env.seed(json!({"sessions": [{"os": "linux", "region": "eu"}]}))["sessions"],
    );
    let id = ids[0].as_str();
    let verbs: [&[&str]; 5] = [
        &["restart", id],
        &["stop", id, "--yes"],
        &["update", id],
        &["upgrade", id],
        &["restart", "--all"],
    ];
    type Give = fn(&mut assert_cmd::Command);
    let ways: [(&str, Give); 3] = [
        ("flag", |c| {
            c.arg("--read-only");
        }),
        ("env", |c| {
            c.env(var::READ_ONLY, "true");
        }),
        ("profile", |_| {}),
    ];
    for (way, give) in ways {
        env.write_config(if way == "profile" {
            "[default]\nread_only = \"true\"\n"
        } else {
            ""
        });
        for args in verbs {
            let mut cmd = env.cmd();
            give(&mut cmd);
            let out = run(cmd.arg("sessions").args(args));
            out.code(2)
                .says("read-only is on")
                .says("nothing was sent")
                .says(&format!("'sessions {}'", args[0]));
            assert!(env.requests().is_empty(), "{way} {args:?}: nothing is sent");
        }
    }
    // Reading is still allowed.
    run(env.cmd().arg("--read-only").args(["sessions", "list"])).ok();
    assert_eq!(env.writes().len(), 0);
    // A wrong value: from the variable, the profile, and `config set`; nothing sent.
    env.mock.clear_requests();
    env.write_config("");
    let out = run(env
        .cmd()
        .env(var::READ_ONLY, "maybe")
        .args(["sessions", "restart", id]));
    out.code(3)
        .says("the environment variable TUNNELCTL_READ_ONLY: 'maybe' is not true or false");
    env.write_config("[default]\nread_only = \"maybe\"\n");
    let out = env.run(&["sessions", "restart", id]);
    out.code(3)
        .says("the config key 'read_only' of profile 'default'")
        .says("'maybe' is not true or false");
    env.write_config("");
    let out = env.run(&["config", "set", "read_only", "maybe"]);
    out.code(2).says("'maybe' is not true or false");
    assert!(env.requests().is_empty());
    // Off: the variable's `false` wins over the profile's `true`, and the restart is sent.
    env.write_config("[default]\nread_only = \"true\"\n");
    let out = run(env
        .cmd()
        .env(var::READ_ONLY, "false")
        .args(["sessions", "restart", id]));
    out.ok();
    assert_eq!(env.writes().len(), 1);
}

/// Read-only means the account is not changed by any command, not only the sessions': a
/// create, a delete and an `apply` are refused (exit 2, `apply` before it asks), nothing
/// but reads reaches the server, and `plan` still shows what would change.
#[test]
fn read_only_refuses_every_write_to_the_account_and_sends_none() {
    let env = Env::new();
    let seeded = env.seed(json!({"ip_policies": [{"description": "office"}]}));
    let id = crate::common::strings(&seeded["ip_policies"])[0].clone();
    let file = env.dir.path().join("account.toml");
    std::fs::write(&file, "[ip_policies.lab]\ndescription = \"lab\"\n").unwrap();
    let file = file.to_str().unwrap();
    let writes: [&[&str]; 4] = [
        &["ip-policies", "create", "--description", "new"],
        &["ip-policies", "update", &id, "--description", "changed"],
        &["ip-policies", "delete", &id, "--yes"],
        &["apply", "-f", file, "--yes"],
    ];
    for args in writes {
        let out = run(env.cmd().arg("--read-only").args(args));
        out.code(2)
            .says("would change the account")
            .says("read-only is on (read_only from flag)")
            .says("nothing was sent");
        assert!(env.writes().is_empty(), "{args:?}: no write is sent");
    }
    env.write_config("[default]\nread_only = \"true\"\n");
    let out = env.run(&["apply", "-f", file, "--yes"]);
    out.code(2)
        .says("read-only is on (read_only from profile default)");
    // Reading and planning still work, and say what would change.
    let out = env.run(&["plan", "-f", file]);
    out.ok().says("1 to create");
    assert!(env.writes().is_empty());
    // Off, the same apply goes through.
    env.write_config("");
    env.run(&["apply", "-f", file, "--yes"]).ok();
    assert_eq!(env.writes().len(), 1);
}
