//! Settings read as people write them: a profile's value in its natural TOML type (`read_only =
//! true`, `max_attempts = 5`) or the same as a string; a value that does not read stops the
//! command (exit 3) naming the file, the profile and the key; a safety setting never fails
//! open; an environment variable set but empty is unset, and a wrong one is named as the
//! variable it is, never as a flag nobody typed.

use crate::common::{run, strings, Env, API_KEY};
use serde_json::json;
use tunnelctl::registry::env as var;

/// One session to restart, seeded; its ID.
fn a_session(env: &Env) -> String {
    strings(&env.seed(json!({"sessions": [{"os": "linux", "region": "eu"}]}))["sessions"])[0]
        .clone()
}

/// The line of `config show` (tab-separated in a pipe) for `key`: its value and source.
fn shown(env: &Env, key: &str) -> (String, String) {
    let out = run(env.bare().args(["config", "show"]));
    out.ok();
    let line = out
        .stdout
        .lines()
        .find(|l| l.split('\t').next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} in config show:\n{}", out.stdout));
    let mut cells = line.split('\t').skip(1);
    (
        cells.next().unwrap_or_default().to_string(),
        cells.next().unwrap_or_default().to_string(),
    )
}

/// `read_only = true`, a TOML boolean, as the guide's "true or false" invites: `ip-policies
/// create` and `sessions restart` are refused and the emulator receives nothing; `config show`
/// says it is on, from the profile. It used to be dropped in silence: both went through, and
/// `config show` said `read_only false default`.
#[test]
fn a_boolean_read_only_in_the_profile_refuses_every_write() {
    let env = Env::new();
    let id = a_session(&env);
    env.write_config("[default]\nread_only = true\n");
    let out = env.run(&["ip-policies", "create", "--description", "office"]);
    out.code(2)
        .says("read-only is on (read_only from profile default)")
        .says("nothing was sent");
    let out = env.run(&["sessions", "restart", &id]);
    out.code(2)
        .says("read-only is on")
        .says("'sessions restart'");
    assert!(env.requests().is_empty(), "{:?}", env.requests());
    assert_eq!(
        shown(&env, "read_only"),
        ("true".into(), "profile default".into())
    );
    // `false` lets them through.
    env.write_config("[default]\nread_only = false\n");
    env.run(&["ip-policies", "create", "--description", "office"])
        .ok();
    assert_eq!(env.writes().len(), 1);
}

/// `max_attempts = 5`, a TOML integer, applies: a GET answered 503 every time is tried five
/// times, and `config show` says 5 from the profile (it used to be dropped: three tries).
#[test]
fn an_integer_max_attempts_in_the_profile_applies() {
    let env = Env::new();
    env.write_config("[default]\nmax_attempts = 5\nrate = \"off\"\n");
    assert_eq!(
        shown(&env, "max_attempts"),
        ("5".into(), "profile default".into())
    );
    env.mock
        .inject(json!({"path": "/ip_policies", "status": 503, "count": 100}));
    env.run(&["ip-policies", "list"]).code(1).says("503");
    assert_eq!(env.requests().len(), 5, "{:?}", env.requests());
}

/// Every profile key takes its natural TOML type or the same as a string, and both mean the
/// same: `config show` shows each value, from the profile.
#[test]
fn each_key_takes_its_natural_type_or_a_string() {
    let env = Env::new();
    let url = env.mock.url();
    let history = env.dir.path().join("h.sqlite3");
    let history = history.to_str().unwrap();
    let natural = [
        ("api_url", format!("{url:?}"), url.clone()),
        (
            "agent_url",
            "\"http://127.0.0.1:1/api\"".into(),
            "http://127.0.0.1:1/api".into(),
        ),
        ("max_attempts", "4".into(), "4".into()),
        ("rate", "\"off\"".into(), "off".into()),
        ("read_only", "true".into(), "true".into()),
        ("history_file", format!("{history:?}"), history.into()),
        ("history_max_size", "1048576".into(), "1048576".into()),
        ("history_max_size", "\"2MiB\"".into(), "2MiB".into()),
        ("history_max_age", "\"7d\"".into(), "7d".into()),
        ("history_max_age", "3600".into(), "3600".into()),
    ];
    let as_strings = [
        ("max_attempts", "\"4\"", "4"),
        ("read_only", "\"true\"", "true"),
        ("read_only", "\"false\"", "false"),
    ];
    let cases = natural
        .iter()
        .map(|(k, v, s)| (*k, v.as_str(), s.as_str()))
        .chain(as_strings);
    for (key, written, shows) in cases {
        env.write_config(&format!("[default]\n{key} = {written}\n"));
        assert_eq!(
            shown(&env, key),
            (shows.to_string(), "profile default".to_string()),
            "{key} = {written}"
        );
        // And every command reads it (no exit 3).
        let out = env.run(&["local", "requests", "list", "--history", "--json"]);
        assert_ne!(out.code, 3, "{key} = {written}: {}", out.stderr);
    }
}

/// A value that does not read, of a wrong type or a wrong text, stops every command that
/// reads settings with exit 3, naming the file, the profile and the key; nothing is sent.
#[test]
fn a_value_that_does_not_read_stops_the_command_naming_file_profile_and_key() {
    let env = Env::new();
    let path = env.config_path();
    let file = path.to_str().unwrap();
    for (key, written) in [
        ("read_only", "1"),
        ("read_only", "\"maybe\""),
        ("read_only", "\"\""),
        ("read_only", "[true]"),
        ("read_only", "{ on = true }"),
        ("max_attempts", "5.5"),
        ("max_attempts", "true"),
        ("max_attempts", "99"),
        ("rate", "120"),
        ("api_url", "5"),
        ("agent_url", "false"),
        ("history_max_size", "true"),
        ("history_max_age", "1.5"),
        ("webhook_secret_stripe", "7"),
    ] {
        // The profile points at the emulator (but for the key tried), and nothing else does.
        let mut profile = format!("[prod]\n{key} = {written}\napi_key = {API_KEY:?}\n");
        if key != "api_url" {
            profile.push_str(&format!("api_url = {:?}\n", env.mock.url()));
        }
        if key != "agent_url" {
            profile.push_str(&format!("agent_url = {:?}\n", env.mock.agent_url()));
        }
        env.write_config(&profile);
        for args in [
            &["--profile", "prod", "ip-policies", "list"][..],
            &[
                "--profile",
                "prod",
                "ip-policies",
                "create",
                "--description",
                "x",
            ],
            &["--profile", "prod", "local", "tunnels", "list"],
        ] {
            let out = run(env.bare().args(args));
            assert_eq!(out.code, 3, "{key} = {written}, {args:?}: {}", out.stderr);
            out.says(file)
                .says("profile 'prod'")
                .says(&format!("'{key}'"));
        }
        assert!(env.requests().is_empty(), "{key} = {written}: nothing sent");
        assert!(env.mock.agent_requests().is_empty(), "{key} = {written}");
    }
    // A profile that is not a table is no profile at all.
    env.write_config("prod = 5\n");
    let out = env.run(&["--profile", "prod", "ip-policies", "list"]);
    out.code(3).says(file).says("'prod'");
    assert!(env.requests().is_empty());
    // `config show` still shows a wrong value as written, so that `config set` can mend it.
    env.write_config("[default]\nread_only = 1\n");
    assert_eq!(
        shown(&env, "read_only"),
        ("1".into(), "profile default".into())
    );
    env.run(&["config", "set", "read_only", "true"]).ok();
    env.run(&["sessions", "restart", "ts_x"])
        .code(2)
        .says("read-only is on");
}

/// `config set` writes a switch and a count in their TOML types (what the guide shows), and
/// `config get` reads a typed value back.
#[test]
fn config_set_writes_the_natural_type_and_config_get_reads_it() {
    let env = Env::new();
    env.run(&["config", "set", "read_only", "yes"]).ok();
    env.run(&["config", "set", "max_attempts", "5"]).ok();
    env.run(&["config", "set", "rate", "60/60"]).ok();
    let text = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(text.contains("read_only = true\n"), "{text}");
    assert!(text.contains("max_attempts = 5\n"), "{text}");
    assert!(text.contains("rate = \"60/60\"\n"), "{text}");
    env.run(&["config", "get", "read_only"])
        .ok()
        .prints("true\n");
    env.run(&["config", "get", "max_attempts"])
        .ok()
        .prints("5\n");
}

/// The config file's warning that others can read it is said once per run (it was said twice
/// by `config show`, which read the file twice).
#[cfg(unix)]
#[test]
fn the_mode_warning_is_said_once() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    env.write_config(&Env::default_profile(&env.mock.url()));
    std::fs::set_permissions(env.config_path(), std::fs::Permissions::from_mode(0o644)).unwrap();
    for args in [
        &["config", "show"][..],
        &["ip-policies", "list"],
        &["config", "set", "rate", "off"],
    ] {
        let out = run(env.bare().args(args));
        out.ok();
        assert_eq!(
            out.stderr.matches("chmod 600").count(),
            1,
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// An environment variable set but empty is unset, for every setting: the profile (or the
/// default) applies. `TUNNELCTL_READ_ONLY=` used to fail every command with `invalid value ''
/// for '--read-only'`; `TUNNELCTL_CONFIG=` and `TUNNELCTL_HISTORY_FILE=` with "a value is
/// required for '--config <FILE>'".
#[test]
fn an_empty_variable_is_unset_for_every_setting() {
    let env = Env::new();
    let id = a_session(&env);
    // Empty, read-only is what the profile says: on here, so the restart is refused…
    env.write_config("[default]\nread_only = true\n");
    let out = run(env
        .cmd()
        .env(var::READ_ONLY, "")
        .args(["sessions", "restart", &id]));
    out.code(2).says("read_only from profile default");
    // …and off (the default) without it.
    env.write_config("");
    let out = run(env
        .cmd()
        .env(var::READ_ONLY, "")
        .args(["ip-policies", "list"]));
    out.ok();
    for setting in tunnelctl::registry::SETTINGS {
        let Some(variable) = setting.env else {
            continue;
        };
        let out = run(env
            .cmd()
            .env(variable, "")
            .args(["config", "show", "--json"]));
        out.ok();
        let source = &out.json()["settings"][setting.key]["source"];
        if setting.in_profile {
            assert_ne!(
                source.as_str(),
                Some(format!("env {variable}").as_str()),
                "{variable}= is unset"
            );
        }
    }
    // The other settings' commands run on, the empty ones unset.
    for variable in [var::CONFIG, var::PROFILE, var::HISTORY_FILE, var::AGENT_URL] {
        let out = run(env.cmd().env(variable, "").args(["ip-policies", "list"]));
        out.ok();
    }
    let out = run(env
        .bare()
        .env(var::API_URL, "")
        .env(var::API_KEY, API_KEY)
        .args(["ip-policies", "list"]));
    out.code(3).says("no management API URL");
}

/// A wrong value from the environment names the variable it came from, never a flag the user
/// did not type, and stops the command as a wrong setting does (exit 3), nothing sent.
#[test]
fn a_wrong_variable_is_named_as_the_variable() {
    let env = Env::new();
    let id = a_session(&env);
    let cases: [(&str, &str, &[&str]); 3] = [
        (var::READ_ONLY, "maybe", &["sessions", "restart", &id]),
        (var::API_URL, "nonsense", &["ip-policies", "list"]),
        (var::AGENT_URL, "nonsense", &["local", "tunnels", "list"]),
    ];
    for (variable, value, args) in cases {
        let out = run(env.cmd().env(variable, value).args(args));
        out.code(3).says(variable).says(&format!("'{value}'"));
        assert!(!out.stderr.contains("--"), "{variable}: {}", out.stderr);
    }
    // A key with its line's end (from a file written on Windows): named, never shown.
    let out = run(env
        .cmd()
        .env(var::API_KEY, format!("{API_KEY}\r"))
        .args(["ip-policies", "list"]));
    out.code(3)
        .says("the API key (the environment variable TUNNELCTL_API_KEY)")
        .says("control character");
    assert!(env.requests().is_empty());
    assert!(env.mock.agent_requests().is_empty());
}
