//! One duration grammar for every flag that takes one: `--timeout 1h30m`, `--since 2d`,
//! `--since 36h` mean what they say, and a wrong value is refused (exit 2) naming the forms.

use crate::common::{strings, strings_at, Env};
use serde_json::json;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

#[test]
fn timeout_takes_combined_units_and_refuses_a_wrong_one_naming_the_forms() {
    let env = Env::new();
    env.run(&["ip-policies", "list", "--timeout", "1h30m"]).ok();
    assert_eq!(env.mock.requests().len(), 1);
    let out = env.run(&["ip-policies", "list", "--timeout", "5x"]);
    out.code(2)
        .says_all(&["--timeout", "'5x' is not a duration", "1.5", "1h30m", "2d"]);
    // Still at most a day, said as such.
    env.run(&["ip-policies", "list", "--timeout", "2d"])
        .code(2)
        .says("more than a day");
    assert_eq!(
        env.mock.requests().len(),
        1,
        "nothing sent for a wrong value"
    );
}

#[test]
fn since_takes_days_and_hours_and_refuses_a_wrong_one_naming_the_forms() {
    let env = Env::new();
    let now = OffsetDateTime::now_utc();
    let ago = |hours: i64| {
        (now - time::Duration::hours(hours))
            .format(&Rfc3339)
            .unwrap_or_default()
    };
    // Oldest first; the list shows newest first.
    let ids = env.mock.seed_captures(json!([
        {"tunnel_name": "a (http)", "method": "GET", "uri": "/3d", "status_code": 200, "start": ago(72)},
        {"tunnel_name": "a (http)", "method": "GET", "uri": "/40h", "status_code": 200, "start": ago(40)},
        {"tunnel_name": "a (http)", "method": "GET", "uri": "/30h", "status_code": 200, "start": ago(30)},
        {"tunnel_name": "a (http)", "method": "GET", "uri": "/now", "status_code": 200}
    ]));
    let id = strings(&ids);
    let listed = |since: &str| {
        let out = env.local(&["requests", "list", "--since", since, "--json"]);
        out.ok();
        strings_at(&out.json(), "/id")
    };
    assert_eq!(listed("2d"), [&*id[3], &id[2], &id[1]]);
    assert_eq!(listed("36h"), [&*id[3], &id[2]]);
    assert_eq!(listed("1d12h"), [&*id[3], &id[2]]);
    let asked = env.mock.agent_requests().len();
    env.local(&["requests", "list", "--since", "2x"])
        .code(2)
        .says_all(&[
            "--since",
            "'2x' is not a duration",
            "1h30m",
            "2d",
            "RFC 3339",
        ]);
    assert_eq!(env.mock.agent_requests().len(), asked, "nothing asked");
}

#[test]
fn a_negative_value_of_every_duration_flag_is_called_negative_not_a_flag() {
    let env = Env::new();
    let history = env.dir.path().join("history.sqlite3");
    let history = history.to_str().unwrap();
    for (flag, args) in [
        (
            "--since",
            &["local", "requests", "list", "--since", "-2d"][..],
        ),
        (
            "--since",
            &["local", "requests", "list", "--history", "--since", "-2d"],
        ),
        (
            "--since",
            &[
                "local", "requests", "export", "--har", "x.har", "--since", "-2d",
            ],
        ),
        (
            "--max-age",
            &["local", "requests", "record", "--once", "--max-age", "-2d"],
        ),
        (
            "--before",
            &[
                "local",
                "requests",
                "clear",
                "--history",
                "--before",
                "-2d",
                "--yes",
            ],
        ),
        (
            "--settle",
            &["sessions", "upgrade", "--all", "--settle", "-20s"],
        ),
        ("--timeout", &["ip-policies", "list", "--timeout", "-1s"]),
    ] {
        let out = env.run(&[&["--history-file", history][..], args].concat());
        out.code(2)
            .says(flag)
            .says("is a negative duration: give one more than zero");
        assert!(
            !out.stderr.contains("unexpected argument"),
            "{args:?}: {}",
            out.stderr
        );
    }
    // The pace of requests is a count per duration: a negative count is named as such.
    let out = env.run(&["--rate", "-5/60", "ip-policies", "list"]);
    out.code(2)
        .says("--rate")
        .says("'-5' in '-5/60' is not a whole number of requests above 0");
    assert!(
        !out.stderr.contains("unexpected argument"),
        "{}",
        out.stderr
    );
    assert!(env.requests().is_empty(), "nothing sent");
    assert!(env.mock.agent_requests().is_empty(), "nothing asked");
    assert!(!std::path::Path::new(history).exists(), "no history made");
}
