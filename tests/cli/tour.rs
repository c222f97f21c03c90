//! The README's tour, run as written: every command of its first block, in order, against
//! one emulator holding the demo account (what `tunnelctl-mock --demo` serves), each must
//! exit 0. Placeholders (`ts_…`) are replaced as a person reading along would fill them in:
//! with the IDs they picked from the last `list` of that kind the tour ran (or, before any,
//! from what the account shows at first use), the first `ts_…` of a line being the first
//! picked, the second the second. So a step that uses an ID an earlier step ended (a
//! restarted session) fails here, as it fails for them.

use std::collections::BTreeMap;
use std::fs;

use serde_json::{json, Value};

use crate::common::seed::{KINESIS, ROLE};
use crate::common::{assert_no_secret, Env, Out, API_KEY, AWS_SECRET};
use crate::examples::{bin_dir, root, substitute, Stand};
use crate::guides::sh_commands;
use tunnelctl::registry::env as var;

/// Where the tour starts: its first ```sh block after this heading.
const HEADING: &str = "\n## A tour\n";

/// The tour's commands with their README line numbers.
fn tour() -> Vec<(usize, String)> {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find(HEADING).expect("the README has a tour") + 1;
    let open = start + readme[start..].find("```sh\n").expect("a ```sh block");
    let close = open + 6 + readme[open + 6..].find("```\n").expect("the block ends");
    let before = readme[..start].lines().count();
    sh_commands(&readme[start..close + 4])
        .into_iter()
        .map(|(line, text)| (before + line, text))
        .collect()
}

/// `major.minor.patch` as numbers, for comparing agent versions.
fn version(v: &Value) -> Vec<u64> {
    v.as_str()
        .unwrap_or_default()
        .split('.')
        .map(|n| n.parse().unwrap_or(0))
        .collect()
}

/// The IDs a reader would pick for `kind` (the placeholder's prefix, `ts_`) from what the
/// account shows now, in the order the list shows them.
fn ids_shown(env: &Env, kind: &str, tls_edge: &str) -> Vec<String> {
    let list_of = |args: &[&str]| -> Vec<Value> {
        let out = env.run(&[args, &["--json"]].concat());
        out.ok();
        out.json().as_array().cloned().unwrap_or_default()
    };
    let items = match kind {
        // Sessions that can take an update and a restart: not Windows (no restart there) and
        // behind the newest version any agent runs.
        "ts_" => {
            let sessions = list_of(&["sessions", "list"]);
            let newest = sessions
                .iter()
                .map(|s| version(&s["agent_version"]))
                .max()
                .unwrap_or_default();
            sessions
                .into_iter()
                .filter(|s| s["os"] != "windows" && version(&s["agent_version"]) < newest)
                .collect()
        }
        "ipp_" => list_of(&["ip-policies", "list"]),
        "bkdtg_" => list_of(&["backends", "tunnel-group", "list"]),
        "ed_" => list_of(&["event-destinations", "list"]),
        "esb_" => list_of(&["event-subscriptions", "list"]),
        "edgtls_" => return vec![tls_edge.to_string()],
        other => panic!("the tour names an ID of a kind the test does not know: {other}"),
    };
    items
        .iter()
        .filter_map(|i| i["id"].as_str().map(str::to_string))
        .collect()
}

/// Runs one command of the tour in bash, in `dir`, with `tunnelctl` on PATH pointed at the
/// emulator.
fn run_line(env: &Env, dir: &std::path::Path, script: &str) -> Out {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(bin_dir()).chain(std::env::split_paths(&path)))
        .unwrap();
    let mut cmd = std::process::Command::new("bash");
    env.isolate(&mut cmd);
    cmd.arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .env(var::API_URL, env.mock.url())
        .env(var::API_KEY, API_KEY)
        .env(var::AGENT_URL, env.mock.agent_url())
        .env("SECRET", AWS_SECRET);
    let out = crate::common::run(&mut assert_cmd::Command::from_std(cmd));
    assert_no_secret(&out);
    out
}

/// The command that lists each kind of ID the tour names; running it is where a reader picks
/// new IDs of that kind.
const LISTS: &[(&str, &str)] = &[
    ("ts_", "tunnelctl sessions list"),
    ("ipp_", "tunnelctl ip-policies list"),
    ("bkdtg_", "tunnelctl backends tunnel-group list"),
    ("ed_", "tunnelctl event-destinations list"),
    ("esb_", "tunnelctl event-subscriptions list"),
];

#[test]
fn the_readme_tour_runs_top_to_bottom_against_the_demo_account() {
    let env = Env::new();
    let demo = env.seed(json!({"demo": true}));
    let tls_edge = demo["tls_edges"][0].as_str().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let target = json!({"kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS}});
    fs::write(dir.path().join("target.json"), target.to_string()).unwrap();

    let tour = tour();
    assert!(tour.len() >= 10, "{} commands in the tour", tour.len());
    assert!(tour[0].1.starts_with("tunnelctl sessions list"), "{tour:?}");
    // The reader's picks, by kind.
    let mut picked: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (line, text) in &tour {
        let script = substitute(text, |placeholder, stand, nth| match stand {
            Stand::Id(_) => {
                let kind = &placeholder[..=placeholder.find('_').unwrap_or(0)];
                let ids = picked
                    .entry(kind.to_string())
                    .or_insert_with(|| ids_shown(&env, kind, &tls_edge));
                ids.get(nth)
                    .unwrap_or_else(|| panic!("README line {line}: no {kind}… to pick: {ids:?}"))
                    .clone()
            }
            Stand::Text(t) => t.to_string(),
            Stand::ApiUrl => env.mock.url(),
            _ => panic!("README line {line}: {placeholder} has no place in the tour"),
        });
        let out = run_line(&env, dir.path(), &script);
        assert_eq!(
            out.code, 0,
            "README line {line}: {text}\nran: {script}\nstdout:\n{}\nstderr:\n{}",
            out.stdout, out.stderr
        );
        for (kind, list) in LISTS {
            if text.starts_with(list) {
                picked.insert(kind.to_string(), ids_shown(&env, kind, &tls_edge));
            }
        }
    }
}

/// `./demo.sh` shows the local half too, through the emulator program as a person runs it: a
/// tunnel to the demo's web app, three webhooks sent with curl (JSON, a form, a gzip body),
/// the list, one decoded, one replayed with a change.
#[test]
fn the_demo_script_shows_the_local_half() {
    let mock = crate::examples::mock_program();
    assert!(
        mock.exists(),
        "{} is not built: run `cargo build --workspace` first",
        mock.display()
    );
    let env = Env::new();
    let mut cmd = std::process::Command::new(mock);
    env.isolate(&mut cmd);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(bin_dir()).chain(std::env::split_paths(&path)))
        .unwrap();
    cmd.env("PATH", path)
        .args(["--demo", "exec", "--", "sh"])
        .arg(root().join("demo.sh"))
        .arg("tour");
    let out = crate::common::run(&mut assert_cmd::Command::from_std(cmd));
    out.ok();
    for shown in [
        "$ tunnelctl local tunnels start --name hook --proto http --addr http://127.0.0.1:",
        "$ curl -sS -o /dev/null -X POST http://127.0.0.1:",
        "-H 'Content-Encoding: gzip'",
        "$ tunnelctl local requests list\n",
        "POST\t/hooks/form\t200",
        "\"status\": \"green\"",
        "--set data.amount=2500\n",
        "\"amount\": 2500",
        "$ tunnelctl edges tls-termination get edgtls_",
    ] {
        assert!(
            out.stdout.contains(shown),
            "{shown:?} not in:\n{}",
            out.stdout
        );
    }
}
