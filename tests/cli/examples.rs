//! Every example a person is shown runs and succeeds: the examples of each command's `--help`
//! (taken from the clap tree), the ```sh lines of the guides that call `tunnelctl` (README.md,
//! `docs/*.md`, `mock/README.md`: the convention is in [`crate::guides`]), and the man pages'
//! EXAMPLES (which must be the help's own). Each runs in bash, in a folder of its own, against
//! a fresh emulator seeded with what the examples name, placeholders (`ipp_2Qm…`) replaced by
//! seeded values ([`PLACEHOLDERS`]), beside the files the examples read (those the guides
//! give, ```json file=NAME), and must exit 0. An example that cannot run here is listed in
//! [`SKIPPED`] or [`SKIPPED_COMMANDS`] with the reason; any other example fails the test, and
//! so does a skip that no longer matches an example.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::Engine;
use clap::CommandFactory;
use serde_json::json;
use tunnelctl::cli::Cli;

use crate::common::seed::{kinesis_body, strings, KINESIS, ROLE};
use crate::common::upstream::Upstream;
use crate::common::{assert_no_secret, Env, Out, API_KEY, AWS_SECRET};
use crate::docs::{after_help, unroff_line};
use crate::guides;
use tunnelctl::registry::env as var;

/// Commands that cannot run here whatever their flags, by how they begin, and why.
const SKIPPED_COMMANDS: &[(&str, &str)] = &[
    (
        "tunnelctl local inspect",
        "full-screen: it needs a terminal (tests/cli/inspect.rs drives it in a pseudo-terminal)",
    ),
    (
        "tunnelctl sessions watch",
        "full-screen: it needs a terminal (tests/cli/sessions_watch.rs drives it in a pseudo-terminal)",
    ),
    (
        "tunnelctl local requests copy",
        "copies between stores that are not here, a PostgreSQL server among them \
         (tests/cli/team_history.rs runs one and copies)",
    ),
    (
        "tunnelctl local requests tail",
        "follows requests until Ctrl-C: it never ends by itself (tests/cli/local.rs stops it)",
    ),
];

/// Examples that cannot run here (by their command, without a trailing `# comment`), and why.
const SKIPPED: &[(&str, &str)] = &[
    (
        "tunnelctl config init",
        "asks for the URL and the key on a terminal (the prompt tests drive it in a pseudo-terminal)",
    ),
    (
        "tunnelctl --profile staging config init",
        "asks for the URL and the key on a terminal",
    ),
    (
        "tunnelctl local requests record",
        "records until Ctrl-C: it never ends by itself (tests/cli/history.rs stops one)",
    ),
    (
        "cargo run -p tunnelctl-mock -- --demo",
        "serves until Ctrl-C (its exec form runs)",
    ),
    (
        "target/debug/tunnelctl-mock --demo",
        "serves until Ctrl-C (its exec form runs)",
    ),
];

/// A value that stands in for a placeholder.
pub(crate) enum Stand {
    /// Seeded IDs of the [`World`] by name: the first for the placeholder's first occurrence in
    /// an example, the next for the next (an ID given twice is refused), and so on.
    Id(&'static [&'static str]),
    /// This text.
    Text(&'static str),
    /// The emulator's management URL (an example's own API URL, reached without network).
    ApiUrl,
    /// The emulator program (`target/debug/tunnelctl-mock`).
    MockProgram,
    /// The URL of the web server the world's tunnels forward to.
    Upstream,
}

/// Placeholders of the examples, longest first, and what stands in for them.
pub(crate) const PLACEHOLDERS: &[(&str, Stand)] = &[
    ("ts_2Qm…", Stand::Id(&["session"])),
    ("ts_2Qn…", Stand::Id(&["session2"])),
    ("ts_…", Stand::Id(&["session", "session2"])),
    ("ipp_2Qm…", Stand::Id(&["ip_policy"])),
    ("ipp_2Qn…", Stand::Id(&["ip_policy2"])),
    ("ipp_…", Stand::Id(&["ip_policy", "ip_policy2"])),
    ("bkdtg_2Qm…", Stand::Id(&["backend"])),
    ("bkdtg_…", Stand::Id(&["backend"])),
    ("edgtls_2Qm…", Stand::Id(&["tls_edge"])),
    ("edgtls_…", Stand::Id(&["tls_edge"])),
    ("ed_2Qm…", Stand::Id(&["destination"])),
    ("ed_2Qn…", Stand::Id(&["destination2"])),
    ("ed_…", Stand::Id(&["destination"])),
    ("esb_2Qm…", Stand::Id(&["subscription"])),
    ("esb_…", Stand::Id(&["subscription"])),
    ("airt_2Qm…", Stand::Id(&["capture"])),
    ("airt_2Qn…", Stand::Id(&["capture2"])),
    ("airt_…", Stand::Id(&["capture"])),
    ("arn:aws:kinesis:…:stream/events", Stand::Text(KINESIS)),
    ("arn:aws:kinesis:…", Stand::Text(KINESIS)),
    ("arn:aws:iam::…:role/deliver", Stand::Text(ROLE)),
    (
        "arn:aws:firehose:…",
        Stand::Text("arn:aws:firehose:us-east-1:123456789012:deliverystream/events"),
    ),
    (
        "arn:aws:logs:…",
        Stand::Text("arn:aws:logs:us-east-1:123456789012:log-group:tunnels"),
    ),
    ("AKIA…", Stand::Text("AKIAIOSFODNN7EXAMPLE")),
    (
        "SECRET_ACCESS_KEY=…",
        Stand::Text("SECRET_ACCESS_KEY=\"$SECRET\""),
    ),
    ("https://api.example.com", Stand::ApiUrl),
    ("https://api.staging.example.com", Stand::ApiUrl),
    ("cargo run -p tunnelctl-mock --", Stand::MockProgram),
    ("target/debug/tunnelctl-mock", Stand::MockProgram),
    ("http://localhost:3000", Stand::Upstream),
    ("http://localhost:8080", Stand::Upstream),
];

/// The webhook secrets every example has in its environment.
const WEBHOOK_SECRET_GITHUB: &str = "examples-github-secret";
const WEBHOOK_SECRET_STRIPE: &str = "whsec_examplesstripesecret0123456789";

/// How long one example may take (a rolling upgrade waits at least 10 s per batch).
const EXAMPLE_LIMIT: Duration = Duration::from_secs(90);

/// One example and where it was shown.
#[derive(Debug, Clone)]
struct Shown {
    text: String,
    place: String,
    /// Whether a guide shows it (it then runs beside the files the guides give).
    in_guide: bool,
}

/// The command of an example: its text without a trailing `# comment`.
pub(crate) fn command_of(text: &str) -> String {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if prev.is_whitespace() => return text[..i].trim_end().to_string(),
            _ => {}
        }
        prev = c;
    }
    text.trim_end().to_string()
}

/// The examples of every command's help.
fn help_examples() -> Vec<Shown> {
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<Shown>) {
        if let Some(text) = cmd.get_after_long_help().or_else(|| cmd.get_after_help()) {
            for e in after_help::parse(&text.to_string()).examples {
                out.push(Shown {
                    text: e.shell(),
                    place: format!("`{path} --help`"),
                    in_guide: false,
                });
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }
    let mut out = Vec::new();
    walk(&Cli::command(), "tunnelctl", &mut out);
    out
}

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The commands of the guides' ```sh blocks ([`guides::sh_commands`]).
fn guide_examples() -> Vec<Shown> {
    let mut out = Vec::new();
    for guide in guides::guides() {
        for (line, text) in guides::sh_commands(&guides::read(&guide)) {
            out.push(Shown {
                text,
                place: format!("{guide} line {line}"),
                in_guide: true,
            });
        }
    }
    out
}

/// The examples in the man pages' EXAMPLES sections, as a reader sees them.
fn man_examples() -> Vec<Shown> {
    let mut out = Vec::new();
    let mut pages: Vec<PathBuf> = fs::read_dir(root().join("man"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    for page in pages {
        let text = fs::read_to_string(&page).unwrap();
        let Some(section) = text.split("\n.SH EXAMPLES\n").nth(1) else {
            continue;
        };
        let body = section
            .split("\n.nf\n")
            .nth(1)
            .and_then(|b| b.split("\n.fi\n").next())
            .unwrap_or_else(|| panic!("{}: EXAMPLES not in .nf/.fi", page.display()));
        let mut current: Vec<String> = Vec::new();
        for line in body.lines().filter(|l| *l != ".sp") {
            current.push(unroff_line(line));
            if !line.ends_with("\\e") {
                out.push(Shown {
                    text: current.join("\n"),
                    place: page.file_name().unwrap().to_string_lossy().into_owned(),
                    in_guide: false,
                });
                current.clear();
            }
        }
    }
    out
}

/// A fresh emulator holding everything the examples name.
struct World {
    env: Env,
    upstream: Upstream,
    ids: Vec<(&'static str, String)>,
    cwd: tempfile::TempDir,
}

impl World {
    fn new(local: bool) -> World {
        let env = Env::new();
        let created = env.seed(json!({
            "sessions": [
                {"region": "us", "os": "linux", "agent_version": "3.19.1", "metadata": "{\"host\":\"web-1\"}"},
                {"region": "eu", "os": "linux", "agent_version": "3.19.1", "metadata": "{\"host\":\"web-2\",\"env\":\"staging\"}"},
                {"region": "eu", "os": "darwin", "agent_version": "3.18.4", "metadata": "{\"host\":\"build\"}"},
                {"region": "ap", "os": "linux", "agent_version": "3.18.4"}
            ],
            "ip_policies": [
                {"description": "office network", "metadata": "{\"team\":\"it\"}"},
                {"description": "ci runners"}
            ],
            "tls_edges": [{"module": {"enabled": true, "terminate_at": "edge", "min_version": "1.2"}}],
            "tunnels": [{"labels": {"env": "prod", "app": "web"}}],
            "backends": [{"description": "web production", "labels": {"env": "prod", "app": "web"}}],
            "event_destinations": [kinesis_body("audit stream"), kinesis_body("audit (eu)")],
        }));
        let first = |key: &str, n: usize| strings(&created[key])[n].clone();
        // The subscription delivers to the second destination: the first can be deleted.
        let subscription = env.seed_subscription(json!({
            "description": "policy changes",
            "sources": [{"type": "ip_policy_created.v0"}, {"type": "ip_policy_updated.v0"}],
            "destination_ids": [first("event_destinations", 1)],
        }));
        let mut ids = vec![
            ("session", first("sessions", 0)),
            ("session2", first("sessions", 1)),
            ("ip_policy", first("ip_policies", 0)),
            ("ip_policy2", first("ip_policies", 1)),
            ("tls_edge", first("tls_edges", 0)),
            ("backend", first("backends", 0)),
            ("destination", first("event_destinations", 0)),
            ("destination2", first("event_destinations", 1)),
            ("subscription", subscription),
        ];
        let upstream = Upstream::start();
        if local {
            for name in ["web", "hook", "staging"] {
                let port = upstream.port.to_string();
                env.local(&[
                    "tunnels", "start", "--name", name, "--proto", "http", "--addr", &port,
                ])
                .ok();
            }
            let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
            let captured = env.mock.seed_captures(json!([{
                "tunnel_name": "web (http)", "method": "POST", "uri": "/hook?n=1",
                "headers": {"Content-Type": ["application/json"]},
                "body_base64": b64(br#"{"event":"paid","data":{"amount":1200,"currency":"eur","items":[{"id":1}]}}"#),
                "status_code": 200,
                "response_headers": {"Content-Type": ["text/plain"]},
                "response_body_base64": b64(b"ok")
            }, {
                "tunnel_name": "web (http)", "method": "POST", "uri": "/hook?n=2",
                "headers": {"Content-Type": ["application/json"]},
                "body_base64": b64(b"{\"event\":\"refunded\"}"), "status_code": 200,
                "response_headers": {"Content-Type": ["text/plain"]},
                "response_body_base64": b64(b"ok")
            }]));
            ids.push(("capture", strings(&captured)[0].clone()));
            ids.push(("capture2", strings(&captured)[1].clone()));
        }
        let cwd = tempfile::tempdir().unwrap();
        let target =
            json!({"kinesis": {"auth": {"role": {"role_arn": ROLE}}, "stream_arn": KINESIS}});
        fs::write(cwd.path().join("target.json"), target.to_string()).unwrap();
        fs::write(
            cwd.path().join("patch.json"),
            r#"{"description":"patched"}"#,
        )
        .unwrap();
        fs::create_dir_all(env.dir.path().join(".config/fish/completions")).unwrap();
        let config = format!(
            "[default]\napi_url = \"{}\"\nagent_url = \"{}\"\nrate = \"120/60\"\n",
            env.mock.url(),
            env.mock.agent_url()
        );
        fs::write(env.config_path(), config).unwrap();
        World {
            env,
            upstream,
            ids,
            cwd,
        }
    }

    /// The example with its placeholders replaced (see [`substitute`]).
    fn substitute(&self, text: &str) -> String {
        substitute(text, |_, stand, nth| match stand {
            Stand::Id(names) => self.id(names[nth % names.len()]),
            Stand::Text(t) => t.to_string(),
            Stand::ApiUrl => self.env.mock.url(),
            Stand::MockProgram => mock_program().display().to_string(),
            Stand::Upstream => format!("http://127.0.0.1:{}", self.upstream.port),
        })
    }

    /// The files the `local requests` examples read (a body, saved requests, a HAR log), and
    /// an editor that changes what it is given; a file an example writes is not made first.
    fn write_request_files(&self, script: &str) {
        if !script.contains("local requests") {
            return;
        }
        let dir = self.cwd.path();
        fs::write(dir.join("event.json"), r#"{"event":"refunded"}"#).unwrap();
        let request = |body: &str| {
            format!(
                "POST /hook?n=1 HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
        };
        if !script.contains(" save ") {
            fs::write(dir.join("paid.http"), request(r#"{"event":"paid"}"#)).unwrap();
        }
        fs::write(dir.join("refund.http"), request(r#"{"event":"refunded"}"#)).unwrap();
        if !script.contains(" export ") {
            let har = self.env.local(&["requests", "export", "--har", "-"]);
            har.ok();
            fs::write(dir.join("hooks.har"), &har.stdout).unwrap();
        }
        // A fixture the upstream (an echo of the request) passes, for the `test` examples.
        if script.contains(" test ") {
            let hooks = dir.join("hooks");
            fs::create_dir_all(&hooks).unwrap();
            fs::write(hooks.join("post-hook.http"), request(r#"{"event":"paid"}"#)).unwrap();
            fs::write(
                hooks.join("post-hook.expect.toml"),
                "status = 200\njq = [\".method == \\\"POST\\\"\"]\n",
            )
            .unwrap();
        }
        let editor = dir.join("edit-request");
        fs::write(&editor, "#!/bin/sh\nsed -i 's/paid/refunded/' \"$1\"\n").unwrap();
        let mut perms = fs::metadata(&editor).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        fs::set_permissions(&editor, perms).unwrap();
    }

    /// The files the account-as-code examples read: `account.toml` (this world's account,
    /// exported, so a plan of it is clean), the folder `accounts/` holding it, and
    /// `plan.json` saved from it; a file an example writes itself is not made first.
    fn write_account_files(&self, script: &str) {
        let dir = self.cwd.path();
        let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let writes = |name: &str| {
            script.contains(&format!("-o {name}")) || script.contains(&format!("--out {name}"))
        };
        if script.contains("account.toml") && !writes("account.toml") {
            self.env
                .run(&["export", "--out", &path("account.toml")])
                .ok();
        }
        if script.contains("accounts/") {
            fs::create_dir_all(dir.join("accounts")).unwrap();
            self.env
                .run(&["export", "--out", &path("accounts/account.toml")])
                .ok();
        }
        if script.contains("plan.json") && !writes("plan.json") {
            if !dir.join("account.toml").exists() {
                self.env
                    .run(&["export", "--out", &path("account.toml")])
                    .ok();
            }
            let file = path("account.toml");
            self.env
                .run(&["plan", "-f", &file, "--out", &path("plan.json")])
                .ok();
        }
    }

    /// The seeded ID of this name.
    fn id(&self, name: &str) -> String {
        self.ids
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, id)| id.clone())
            .unwrap_or_else(|| panic!("no {name} in this world"))
    }

    /// The files the guides give, written beside the example, except one the example writes
    /// itself (`save --out paid.http` finds no `paid.http` there first, as a reader would not).
    fn write_guide_files(&self, script: &str, files: &BTreeMap<String, String>) {
        for (name, text) in files {
            let written = script.contains(&format!("--out {name}"))
                || (script.contains(" export ") && script.contains(&format!("--har {name}")));
            if !written {
                let path = self.cwd.path().join(name);
                if let Some(dir) = path.parent() {
                    fs::create_dir_all(dir).unwrap();
                }
                fs::write(path, text).unwrap();
            }
        }
    }

    /// Runs the example in bash with `tunnelctl` on PATH, pointed at the emulator, beside
    /// `files`; an example that starts the emulator program gets a PATH without `tunnelctl`,
    /// as right after a build. A webhook secret is set for GitHub and Stripe, from the
    /// environment, as a reader who signs requests has one.
    fn run(&self, text: &str, files: &BTreeMap<String, String>) -> Out {
        let script = self.substitute(text);
        self.write_request_files(&script);
        self.write_account_files(&script);
        self.write_guide_files(&script, files);
        let bin_dir = bin_dir();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let path = if script.starts_with(&mock_program().display().to_string()) {
            path
        } else {
            std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&path)))
                .unwrap()
        };
        let mut cmd = std::process::Command::new("bash");
        self.env.isolate(&mut cmd);
        let (out_path, err_path) = (self.cwd.path().join(".out"), self.cwd.path().join(".err"));
        cmd.arg("-c")
            .arg(&script)
            .current_dir(self.cwd.path())
            .env("PATH", path)
            .env(var::API_URL, self.env.mock.url())
            .env(var::API_KEY, API_KEY)
            .env(var::AGENT_URL, self.env.mock.agent_url())
            .env("KEY", API_KEY)
            .env("SECRET", AWS_SECRET)
            .env(var::WEBHOOK_SECRET_GITHUB, WEBHOOK_SECRET_GITHUB)
            .env(var::WEBHOOK_SECRET_STRIPE, WEBHOOK_SECRET_STRIPE)
            .env("EDITOR", self.cwd.path().join("edit-request"))
            .env_remove("VISUAL")
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out_path).unwrap())
            .stderr(fs::File::create(&err_path).unwrap());
        let mut child = cmd.spawn().expect("bash runs");
        let started = Instant::now();
        let code = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status.code().unwrap_or(-1);
            }
            if started.elapsed() > EXAMPLE_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                break -2;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = Out {
            code,
            stdout: fs::read_to_string(out_path).unwrap_or_default(),
            stderr: fs::read_to_string(err_path).unwrap_or_default(),
        };
        assert_no_secret(&out);
        out
    }
}

/// `text` with each placeholder of [`PLACEHOLDERS`] replaced by what `value` gives for it
/// (the placeholder, what stands in for it, and how often it came before in `text`), in one
/// pass from left to right (a value put in is never read again as a placeholder).
pub(crate) fn substitute(
    text: &str,
    mut value: impl FnMut(&str, &Stand, usize) -> String,
) -> String {
    let mut out = String::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let Some((placeholder, stand)) = PLACEHOLDERS.iter().find(|(p, _)| rest.starts_with(p))
        else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        };
        let nth = seen.iter().filter(|p| *p == placeholder).count();
        seen.push(placeholder);
        out.push_str(&value(placeholder, stand, nth));
        rest = &rest[placeholder.len()..];
    }
    out
}

/// The folder of the built binaries.
pub(crate) fn bin_dir() -> PathBuf {
    assert_cmd::cargo::cargo_bin("tunnelctl")
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The emulator program, built beside `tunnelctl` by `cargo test --workspace` or
/// `cargo build --workspace`.
pub(crate) fn mock_program() -> PathBuf {
    bin_dir().join("tunnelctl-mock")
}

/// Runs every example not skipped (several at once, each in a world of its own); returns the
/// failures, each with where it was shown and what it printed.
fn run_all(examples: &[Shown]) -> Vec<String> {
    let guide_files = guides::files();
    let none = BTreeMap::new();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..6 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(example) = examples.get(i) else {
                    break;
                };
                let world = World::new(example.text.contains("tunnelctl local"));
                let files = if example.in_guide {
                    &guide_files
                } else {
                    &none
                };
                let out = world.run(&example.text, files);
                if out.code != 0 {
                    failures.lock().unwrap().push(format!(
                        "{} (in {}) exited {}{}\nstdout:\n{}\nstderr:\n{}",
                        example.text,
                        example.place,
                        out.code,
                        if out.code == -2 {
                            " (killed: too long)"
                        } else {
                            ""
                        },
                        out.stdout,
                        out.stderr
                    ));
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

/// Whether `command` is `prefix`, or `prefix` followed by more words.
fn begins(command: &str, prefix: &str) -> bool {
    command
        .strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// Runs the examples that are not skipped and fails on any failure.
fn check(examples: Vec<Shown>, used_skips: &Mutex<BTreeSet<&'static str>>) {
    let mut runnable = Vec::new();
    for example in examples {
        let command = command_of(&example.text);
        let skip = SKIPPED
            .iter()
            .find(|(s, _)| *s == command)
            .or_else(|| SKIPPED_COMMANDS.iter().find(|(s, _)| begins(&command, s)));
        match skip {
            Some((s, _)) => {
                used_skips.lock().unwrap().insert(s);
            }
            None => runnable.push(example),
        }
    }
    if runnable.iter().any(|e| e.text.contains("tunnelctl-mock")) {
        assert!(
            mock_program().exists(),
            "{} is not built: run `cargo build --workspace` (or `cargo test --workspace`) first",
            mock_program().display()
        );
    }
    let failures = run_all(&runnable);
    assert!(
        failures.is_empty(),
        "{} of {} examples failed (an example that cannot run here, such as one that needs a \
         terminal, goes in SKIPPED with the reason; see \"Examples in the guides\" in \
         CONTRIBUTING.md):\n\n{}",
        failures.len(),
        runnable.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_help_example_runs() {
    let examples = help_examples();
    assert!(examples.len() > 50, "{} examples", examples.len());
    check(examples, &Mutex::new(BTreeSet::new()));
}

/// Every command of the guides' ```sh blocks: README.md, `docs/*.md`, `mock/README.md`.
#[test]
fn every_guide_example_runs() {
    let examples = guide_examples();
    assert!(examples.len() > 80, "{} examples", examples.len());
    check(examples, &Mutex::new(BTreeSet::new()));
}

/// The man pages show the help's examples (which [`every_help_example_runs`] runs), each
/// as written.
#[test]
fn man_page_examples_are_the_help_examples() {
    let help: BTreeSet<String> = help_examples().into_iter().map(|e| e.text).collect();
    let man = man_examples();
    assert!(man.len() > 50, "{} man page examples", man.len());
    for example in man {
        assert!(
            help.contains(&example.text),
            "{}: example not in any --help (regenerate the man pages?): {}",
            example.place,
            example.text
        );
    }
}

/// Every skip names an example that is still shown somewhere.
#[test]
fn every_skip_is_an_example() {
    let shown: BTreeSet<String> = help_examples()
        .into_iter()
        .chain(guide_examples())
        .map(|e| command_of(&e.text))
        .collect();
    for (skip, why) in SKIPPED {
        assert!(
            shown.contains(*skip),
            "skipped ({why}) but shown nowhere: {skip}"
        );
    }
    for (skip, why) in SKIPPED_COMMANDS {
        assert!(
            shown.iter().any(|c| begins(c, skip)),
            "skipped ({why}) but shown nowhere: {skip}"
        );
    }
}

#[test]
fn comments_are_cut_outside_quotes_only() {
    assert_eq!(command_of("tunnelctl a   # b"), "tunnelctl a");
    assert_eq!(
        command_of("tunnelctl a '# not' \"#\" x#y"),
        "tunnelctl a '# not' \"#\" x#y"
    );
}

/// `demo.sh`'s tour runs against the demo account and prints each command quoted as it
/// would be typed, so that it can be pasted.
#[test]
fn the_demo_tour_runs_and_prints_pasteable_commands() {
    let env = Env::new();
    env.seed(json!({"demo": true}));
    let mut cmd = std::process::Command::new("sh");
    env.isolate(&mut cmd);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let out = crate::common::run(
        assert_cmd::Command::from_std(cmd)
            .arg(root().join("demo.sh"))
            .arg("tour")
            .env(
                "PATH",
                std::env::join_paths(
                    std::iter::once(bin_dir()).chain(std::env::split_paths(&path)),
                )
                .unwrap(),
            )
            .env(var::API_URL, env.mock.url())
            .env(var::API_KEY, API_KEY),
    );
    out.ok();
    for line in [
        "$ tunnelctl sessions list\n",
        "$ tunnelctl ip-policies create --description 'office network'\n",
        "$ tunnelctl sessions list --jq '.[] | select(.os == \"linux\") | .id'\n",
    ] {
        assert!(
            out.stdout.contains(line),
            "{line:?} not in:\n{}",
            out.stdout
        );
    }
    assert!(out.stdout.contains("office network"));
    assert!(demo_builds_with_progress(&root().join("demo.sh")));
}

/// demo.sh says what it builds and lets cargo show its progress (no `--quiet`).
fn demo_builds_with_progress(script: &Path) -> bool {
    let text = fs::read_to_string(script).unwrap();
    let build = text
        .lines()
        .find(|l| l.trim_start().starts_with("cargo build"))
        .unwrap_or_default();
    !build.contains("--quiet") && !build.contains(" -q") && text.contains("echo \"Building")
}

/// Every ID the placeholder table names is seeded.
#[test]
fn every_placeholder_id_is_seeded() {
    let world = World::new(true);
    for (placeholder, stand) in PLACEHOLDERS {
        if let Stand::Id(names) = stand {
            for name in *names {
                assert!(
                    world.ids.iter().any(|(n, _)| n == name),
                    "{placeholder}: no {name} in the world"
                );
            }
        }
    }
}
