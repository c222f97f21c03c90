//! Machine output on a terminal never writes a control character: `--json` and `-o ndjson`
//! write C1 controls, DEL, bidi overrides and zero-width characters as `\u` escapes (still
//! valid JSON, decoding to the same value), `--jq` strings are escaped; in a pipe the output
//! is exact.

use serde_json::{json, Value};

use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

const EVIL: &str = "a\u{1b}]52;c;aGk=\u{7}b\u{9b}2Jc\u{202e}d\u{7f}e\u{200b}f\u{2066}g";

/// Characters a terminal acts on, or that reorder or hide text.
fn raw_danger(text: &str) -> Option<char> {
    text.chars().find(|c| {
        (c.is_control() && *c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}')
    })
}

fn seeded() -> Env {
    let env = Env::new();
    env.seed(json!({"ip_policies": [{"description": EVIL, "metadata": "m"}]}));
    env
}

fn on_terminal(env: &Env, args: &[&str]) -> Out {
    run(env.cmd().env(var::FORCE_TTY, "1").args(args))
}

#[test]
fn json_on_a_terminal_escapes_and_stays_valid() {
    let env = seeded();
    let out = on_terminal(&env, &["ip-policies", "list", "--json"]);
    out.ok();
    assert_eq!(raw_danger(&out.stdout), None, "{:?}", out.stdout);
    out.prints("\\u009b");
    out.prints("\\u202e");
    assert_eq!(
        out.json()[0]["description"],
        EVIL,
        "decodes to the server's value"
    );
    let id = out.json()[0]["id"].as_str().unwrap().to_string();
    let get = on_terminal(&env, &["ip-policies", "get", &id, "--json"]);
    get.ok();
    assert_eq!(raw_danger(&get.stdout), None, "{:?}", get.stdout);
    assert_eq!(get.json()["description"], EVIL);
    let nd = on_terminal(&env, &["ip-policies", "list", "-o", "ndjson"]);
    nd.ok();
    assert_eq!(raw_danger(&nd.stdout), None, "{:?}", nd.stdout);
    let line: Value = serde_json::from_str(nd.stdout.trim()).unwrap();
    assert_eq!(line["description"], EVIL);
}

#[test]
fn json_in_a_pipe_is_exact() {
    let env = seeded();
    let out = env.run(&["ip-policies", "list", "--json"]);
    out.ok();
    assert_eq!(out.json()[0]["description"], EVIL);
    // The server's text as it sent it: its C1 and bidi characters unescaped.
    assert!(
        out.stdout.contains('\u{9b}') && out.stdout.contains('\u{202e}'),
        "{:?}",
        out.stdout
    );
    let nd = env.run(&["ip-policies", "list", "-o", "ndjson"]);
    assert!(nd.stdout.contains('\u{9b}'), "{:?}", nd.stdout);
}

#[test]
fn jq_strings_are_escaped_on_a_terminal_and_raw_in_a_pipe() {
    let env = seeded();
    let tty = on_terminal(&env, &["ip-policies", "list", "--jq", ".[].description"]);
    tty.ok();
    assert_eq!(raw_danger(&tty.stdout), None, "{:?}", tty.stdout);
    tty.prints("\\x1b]52;c;aGk=\\x07b");
    let values = on_terminal(&env, &["ip-policies", "list", "--jq", "[.[].description]"]);
    assert_eq!(raw_danger(&values.stdout), None, "{:?}", values.stdout);
    let pipe = env.run(&["ip-policies", "list", "--jq", ".[].description"]);
    assert_eq!(pipe.stdout, format!("{EVIL}\n"), "exact, like jq -r");
}
