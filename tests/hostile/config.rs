//! Hostile conditions for the config file: many writers at once, and every key the help and
//! docs/configuration.md name: settable, readable, shown with its source, used, and checked.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::hostile::{page, Hostile, Reply, Seen};
use crate::common::{run, Env, API_KEY};

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Before the lock, each writer renamed its own copy over the others' and 1 to 4 of 20
/// concurrent `config set` runs survived.
#[test]
fn twenty_concurrent_config_sets_on_twenty_profiles_all_survive() {
    let env = Env::new();
    env.write_config("# kept\n[default]\napi_url = \"https://default.example.com\"\n");
    let children: Vec<_> = (0..20)
        .map(|i| {
            env.std_cmd()
                .args([
                    "--profile",
                    &format!("p{i}"),
                    "config",
                    "set",
                    "api_url",
                    &format!("https://p{i}.example.com"),
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(text.starts_with("# kept\n"), "{text}");
    assert!(text.contains("https://default.example.com"), "{text}");
    for i in 0..20 {
        let out = run(env
            .bare()
            .args(["--profile", &format!("p{i}"), "config", "get", "api_url"]));
        out.ok();
        assert_eq!(
            out.stdout.trim(),
            format!("https://p{i}.example.com"),
            "{text}"
        );
    }
    #[cfg(unix)]
    {
        assert_eq!(mode(&env.config_path()), 0o600);
    }
    // The lock file went with the last writer's lock (issue 33: it was left behind).
    assert!(!env.dir.path().join("config.toml.lock").exists());
    // No temporary file is left behind.
    let stray: Vec<_> = std::fs::read_dir(env.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".config.toml."))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

/// Whether process `pid` has `path` open (Linux: its descriptors in `/proc`).
fn has_open(pid: u32, path: &std::path::Path) -> bool {
    let (Ok(fds), Ok(path)) = (
        std::fs::read_dir(format!("/proc/{pid}/fd")),
        std::fs::canonicalize(path),
    ) else {
        return false;
    };
    fds.filter_map(Result::ok)
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == path))
}

/// A writer waits for the one holding the lock, then re-reads the file: the holder's change
/// (made while the other waited) survives.
#[test]
fn a_writer_waits_for_the_lock_and_keeps_the_holders_change() {
    let env = Env::new();
    let lock_path = env.dir.path().join("config.toml.lock");
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .unwrap();
    fs4::FileExt::lock(&lock).unwrap();
    let child = env
        .std_cmd()
        .args([
            "--profile",
            "b",
            "config",
            "set",
            "api_url",
            "https://b.example.com",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The writer has opened the lock file: from there on it waits for the lock we hold.
    crate::common::wait_until("the writer at the lock", || {
        has_open(child.id(), &lock_path)
    });
    // The holder writes while the other waits.
    env.write_config("[a]\napi_url = \"https://a.example.com\"\n");
    let mut child = child;
    assert!(
        child.try_wait().unwrap().is_none(),
        "the writer waits while the lock is held"
    );
    fs4::FileExt::unlock(&lock).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(env.config_path()).unwrap();
    assert!(text.contains("https://a.example.com"), "{text}");
    assert!(text.contains("https://b.example.com"), "{text}");
}

/// `config set rate 60/60` and `config set max_attempts 5` were refused as unknown keys
/// although the help and docs/configuration.md name them.
#[test]
fn every_documented_key_can_be_set_read_shown_and_unset() {
    let env = Env::new();
    let keys = [
        ("api_url", "https://api.example.com"),
        ("agent_url", "http://127.0.0.1:4999/api"),
        ("max_attempts", "5"),
        ("rate", "60/60"),
    ];
    for (key, value) in keys {
        run(env.bare().args(["config", "set", key, value])).ok();
        let out = run(env.bare().args(["config", "get", key]));
        out.ok();
        assert_eq!(out.stdout.trim(), value, "{key}");
    }
    run(env
        .bare()
        .args(["config", "set", "api_key", "-"])
        .write_stdin(format!("{API_KEY}\n")))
    .ok();
    let out = run(env.bare().args(["config", "get", "api_key"]));
    out.ok();
    out.prints("redacted");

    let show = run(env.bare().args(["config", "show", "--json"]));
    show.ok();
    let settings = &show.json()["settings"];
    for (key, value) in keys {
        assert_eq!(settings[key]["value"], value, "{key}: {settings}");
        assert_eq!(settings[key]["source"], "profile default", "{key}");
    }
    assert_eq!(settings["api_key"]["source"], "profile default");
    let tsv = run(env.bare().args(["config", "show"]));
    tsv.prints("max_attempts\t5\tprofile default");
    tsv.prints("rate\t60/60\tprofile default");

    // A flag wins over the profile, and says so.
    let show = run(env.bare().args([
        "--rate",
        "off",
        "--max-attempts",
        "2",
        "config",
        "show",
        "--json",
    ]));
    let settings = &show.json()["settings"];
    assert_eq!(settings["rate"]["value"], "off");
    assert_eq!(settings["rate"]["source"], "flag");
    assert_eq!(settings["max_attempts"]["value"], "2");
    assert_eq!(settings["max_attempts"]["source"], "flag");

    for key in ["max_attempts", "rate"] {
        run(env.bare().args(["config", "unset", key])).ok();
        run(env.bare().args(["config", "get", key])).code(3);
    }
    let show = run(env.bare().args(["config", "show", "--json"]));
    let settings = &show.json()["settings"];
    assert_eq!(settings["max_attempts"]["value"], "3");
    assert_eq!(settings["max_attempts"]["source"], "default");
    assert_eq!(settings["rate"]["value"], "120/60");
    assert_eq!(settings["rate"]["source"], "default");
}

/// Wrong values are refused before anything is written, with exit 2 and the rule.
#[test]
fn wrong_values_of_every_key_are_refused_and_nothing_is_written() {
    let env = Env::new();
    let cases = [
        ("rate", "abc", "N/SECONDS"),
        ("rate", "0/60", "above 0"),
        ("rate", "10/0", "above 0"),
        ("max_attempts", "99", "1 to 20"),
        ("max_attempts", "0", "1 to 20"),
        ("max_attempts", "three", "whole number"),
        ("api_url", "http://api.example.com", "https"),
        ("api_url", "not a url", "not a URL"),
        ("agent_url", "not a url", "not a URL"),
        ("api_key", " ", "empty"),
        ("colour", "blue", "unknown key"),
    ];
    for (key, value, says) in cases {
        let out = run(env.bare().args(["config", "set", key, value]));
        out.code(2);
        assert!(out.stderr.contains(says), "{key} {value}: {}", out.stderr);
        assert!(!env.config_path().exists(), "{key} {value} wrote the file");
    }
    run(env.bare().args(["config", "get", "colour"])).code(2);
    run(env.bare().args(["config", "unset", "colour"])).code(2);
}

/// A bad value put in the file by hand is a configuration error (exit 3) naming the key,
/// before any request.
#[test]
fn a_bad_value_in_the_file_is_exit_3_naming_the_key() {
    let env = Env::new();
    for (key, value) in [("rate", "fast"), ("max_attempts", "100")] {
        std::fs::write(
            env.config_path(),
            format!("[default]\n{key} = \"{value}\"\n"),
        )
        .unwrap();
        let out = env.run(&["ip-policies", "list"]);
        out.code(3);
        out.says(key);
    }
    assert!(env.requests().is_empty());
}

/// `api_url` and `api_key` from the profile reach the management API; `agent_url` is where the
/// agent is looked for.
#[test]
fn url_and_key_keys_are_used() {
    let env = Env::new();
    run(env
        .bare()
        .args(["config", "set", "api_url", &env.mock.url()]))
    .ok();
    run(env
        .bare()
        .args(["config", "set", "api_key", "-"])
        .write_stdin(format!("{API_KEY}\n")))
    .ok();
    run(env.bare().args(["ip-policies", "list"])).ok();
    let reqs = env.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(
        reqs[0].header("authorization"),
        Some(format!("Bearer {API_KEY}").as_str())
    );

    let agent = Hostile::start(|_| Reply::ok(r#"{"tunnels":[],"uri":"/api/tunnels"}"#));
    run(env.bare().args([
        "config",
        "set",
        "agent_url",
        &format!("{}/api", agent.url()),
    ]))
    .ok();
    run(env.bare().args(["local", "tunnels", "list"])).ok();
    let seen = agent.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].path(), "/api/tunnels");
}

/// `max_attempts` from the profile sets how many times a retryable failure is tried; the flag
/// wins over it.
#[test]
fn max_attempts_key_is_used() {
    let env = Env::new();
    let server = Hostile::start(|_| Reply::Json(503, "{}".into()));
    run(env.bare().args(["config", "set", "max_attempts", "4"])).ok();
    let out = env.run_at(&server.url(), &["ip-policies", "list"]);
    out.code(1);
    assert_eq!(server.count(), 4, "{}", out.stderr);

    let server = Hostile::start(|_| Reply::Json(503, "{}".into()));
    run(env.bare().args(["config", "set", "max_attempts", "1"])).ok();
    env.run_at(&server.url(), &["ip-policies", "list"]).code(1);
    assert_eq!(server.count(), 1);

    let server = Hostile::start(|_| Reply::Json(503, "{}".into()));
    env.run_at(
        &server.url(),
        &["--max-attempts", "2", "ip-policies", "list"],
    )
    .code(1);
    assert_eq!(server.count(), 2);
}

/// `rate` from the profile paces requests: three pages at one request per 1.5 s take at
/// least 3 s; `off` from the flag does not wait (not even for a rate of one a day).
#[test]
fn rate_key_is_used() {
    let env = Env::new();
    // next_page_uri is absolute: the handler learns the server's URL once it runs.
    let base = Arc::new(Mutex::new(String::new()));
    let known = base.clone();
    let server = Hostile::start(move |req: &Seen| {
        let url = known.lock().unwrap().clone();
        let n: usize = req
            .query()
            .and_then(|q| {
                q.split('&')
                    .find_map(|kv| kv.strip_prefix("before_id=ipp_"))
            })
            .and_then(|n| n.parse().ok())
            .unwrap_or(3);
        let item = format!(
            r#"{{"id":"ipp_{m}","uri":"{url}/ip_policies/ipp_{m}","created_at":"2024-01-01T00:00:00Z","description":"","metadata":""}}"#,
            m = n - 1
        );
        let next = (n > 1).then(|| format!("{url}/ip_policies?before_id=ipp_{}", n - 1));
        Reply::ok(page(
            "ip_policies",
            &item,
            &format!("{url}/ip_policies"),
            next.as_deref(),
        ))
    });
    *base.lock().unwrap() = server.url();
    run(env.bare().args(["config", "set", "rate", "1/1.5"])).ok();
    let start = Instant::now();
    let out = env.run_at(&server.url(), &["ip-policies", "list", "--json"]);
    out.ok();
    let elapsed = start.elapsed();
    assert_eq!(
        out.json().as_array().map(Vec::len),
        Some(3),
        "{}",
        out.stdout
    );
    assert_eq!(server.count(), 3);
    assert!(elapsed >= Duration::from_millis(2900), "{elapsed:?}");

    // With one request a day in the profile, `--rate off` lists all three pages: paced, the
    // second page would wait a day (the guard only ends a run that hangs).
    run(env.bare().args(["config", "set", "rate", "1/86400"])).ok();
    let out = run(env
        .cmd_at(&server.url())
        .args(["--rate", "off", "ip-policies", "list", "--json"])
        .timeout(Duration::from_secs(300)));
    out.ok();
    assert_eq!(out.json().as_array().map(Vec::len), Some(3));
    assert_eq!(server.count(), 6);
}
