//! Shared harness of the integration tests: an emulator on a loopback port, the built
//! `tunnelctl` binary with an isolated environment, and a check that no secret ever reaches
//! stdout or stderr.

#![allow(dead_code)]

pub mod fixtures;
pub mod hostile;
pub mod postgres;
pub mod pty;
pub mod real_agent;
pub mod rusage;
pub mod seed;
pub mod skip;
pub mod tls;
pub mod upstream;

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;
use tunnelctl::registry::env as var;
use tunnelctl_mock::{Mock, MockOptions, RecordedRequest};

/// The API key the emulator accepts in tests: long and distinctive, so any leak is found.
pub const API_KEY: &str = "tk_test_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
/// An AWS secret used by tests; it must never be printed either.
pub const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY";

/// One test's world: the emulator and a private folder for the config file.
pub struct Env {
    pub mock: Mock,
    pub dir: tempfile::TempDir,
}

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    /// stdout as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    /// Asserts the exit code, showing the output when it differs.
    #[track_caller]
    pub fn code(&self, expected: i32) -> &Self {
        assert_eq!(
            self.code, expected,
            "exit code; stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    /// Asserts success.
    #[track_caller]
    pub fn ok(&self) -> &Self {
        self.code(0)
    }

    /// Asserts that stderr holds `text`.
    #[track_caller]
    pub fn says(&self, text: &str) -> &Self {
        holds("stderr", &self.stderr, text);
        self
    }

    /// Asserts that stderr holds each of `texts`.
    #[track_caller]
    pub fn says_all(&self, texts: &[&str]) -> &Self {
        for text in texts {
            self.says(text);
        }
        self
    }

    /// Asserts that a detail view shows each `(label, value)` on the line the label starts.
    #[track_caller]
    pub fn shows_rows(&self, rows: &[(&str, &str)]) -> &Self {
        for (label, value) in rows {
            let row = self.row(label);
            assert!(row.contains(value), "{label} {value}: {row}");
        }
        self
    }

    /// The first line of stdout that starts with `label` (after indentation): a detail
    /// view's row; fails the test when there is none.
    #[track_caller]
    pub fn row(&self, label: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label} row:\n{}", self.stdout))
    }

    /// stdout as newline-delimited JSON: one value a line.
    pub fn ndjson(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect()
    }

    /// Asserts that stdout holds `text`.
    #[track_caller]
    pub fn prints(&self, text: &str) -> &Self {
        holds("stdout", &self.stdout, text);
        self
    }

    /// Asserts that stdout shows a relative time ("… ago" or "just now").
    #[track_caller]
    pub fn shows_age(&self) -> &Self {
        let shown = self.stdout.contains("ago") || self.stdout.contains("just now");
        assert!(shown, "no relative time in stdout:\n{}", self.stdout);
        self
    }

    /// Asserts exit 4 for a 404 on `request` (`"GET /ip_policies/ipp_x"`), nothing on stdout.
    #[track_caller]
    pub fn not_found(&self, request: &str) -> &Self {
        self.code(4).says("404").says(request);
        assert_eq!(self.stdout, "", "nothing on stdout");
        self
    }
}

/// Asserts that `output` (the stream `name`) holds `text`, showing it when not.
#[track_caller]
fn holds(name: &str, output: &str, text: &str) {
    assert!(output.contains(text), "{text:?} not in {name}:\n{output}");
}

impl Env {
    /// An emulator with default options.
    pub fn new() -> Env {
        Env::with(MockOptions::default())
    }

    /// An emulator with these options (the API key is always [`API_KEY`]).
    pub fn with(mut opts: MockOptions) -> Env {
        opts.api_key = API_KEY.to_string();
        let mock = Mock::start(opts).expect("the emulator starts");
        let dir = tempfile::tempdir().expect("a temp dir");
        Env { mock, dir }
    }

    /// The config file path of this test.
    pub fn config_path(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// Writes the config file of this test.
    pub fn write_config(&self, text: &str) {
        std::fs::write(self.config_path(), text).expect("the config file is written");
    }

    /// A default profile pointing at `url` with the test key, as config file text.
    pub fn default_profile(url: &str) -> String {
        format!("[default]\napi_url = \"{url}\"\napi_key = \"{API_KEY}\"\n")
    }

    /// The binary as a plain `std::process::Command`, pointed at the emulator (for tests
    /// that need to hold the child process, e.g. to close its stdout or signal it).
    pub fn std_cmd(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("tunnelctl"));
        self.isolate(&mut cmd);
        cmd.env(var::API_URL, self.mock.url())
            .env(var::API_KEY, API_KEY);
        cmd
    }

    /// Gives `cmd` this test's isolated environment: no `TUNNELCTL_*` of the person running
    /// the tests, this test's config file and home folder, no colour.
    pub fn isolate(&self, cmd: &mut std::process::Command) {
        for (k, _) in std::env::vars() {
            if k.starts_with("TUNNELCTL_") || k == "RUST_BACKTRACE" || k == "RUST_LIB_BACKTRACE" {
                cmd.env_remove(k);
            }
        }
        // Backoff between retries shortened (debug builds only): the suite tests what is
        // retried, not how long the jitter sleeps.
        cmd.env(var::TEST_BACKOFF_MS, "20")
            .env(var::CONFIG, self.config_path())
            .env("NO_COLOR", "1")
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg"));
    }

    /// The binary with no settings at all but an isolated config file path.
    pub fn bare(&self) -> Command {
        let mut std = std::process::Command::new(assert_cmd::cargo::cargo_bin("tunnelctl"));
        self.isolate(&mut std);
        Command::from_std(std)
    }

    /// The binary pointed at the emulator through the environment.
    pub fn cmd(&self) -> Command {
        let mut cmd = self.bare();
        cmd.env(var::API_URL, self.mock.url())
            .env(var::API_KEY, API_KEY);
        cmd
    }

    /// The binary pointed at another server (a hostile one) as its management API, with the
    /// test key, and at the same server as its agent.
    pub fn cmd_at(&self, url: &str) -> Command {
        let mut cmd = self.bare();
        cmd.env(var::API_URL, url)
            .env(var::API_KEY, API_KEY)
            .env(var::AGENT_URL, format!("{url}/api"));
        cmd
    }

    /// [`Env::cmd_at`] as a plain `std::process::Command` (to hold the child process).
    pub fn std_cmd_at(&self, url: &str) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("tunnelctl"));
        self.isolate(&mut cmd);
        cmd.env(var::API_URL, url)
            .env(var::API_KEY, API_KEY)
            .env(var::AGENT_URL, format!("{url}/api"));
        cmd
    }

    /// `tunnelctl [FLAGS] local inspect [ARGS]` against the agent at `agent_url`, in the test's
    /// folder (where the inspector's `s` saves), with no editor of the person running the tests
    /// (`VISUAL` and `EDITOR` unset): ready for [`pty::Pty::spawn`].
    pub fn inspector_cmd(
        &self,
        agent_url: &str,
        flags: &[&str],
        args: &[&str],
    ) -> std::process::Command {
        let mut cmd = self.std_cmd();
        cmd.env(var::AGENT_URL, agent_url)
            .env_remove("VISUAL")
            .env_remove("EDITOR")
            .current_dir(self.dir.path())
            .args(flags)
            .args(["local", "inspect"])
            .args(args);
        cmd
    }

    /// The binary pointed at the emulator, started on a pseudo-terminal of `rows` x `cols`
    /// (see [`pty::Pty`]).
    pub fn pty(&self, args: &[&str], rows: u16, cols: u16) -> pty::Pty {
        pty::Pty::spawn(self.std_cmd().args(args), rows, cols)
    }

    /// Runs the binary against another server (see [`Env::cmd_at`]).
    pub fn run_at(&self, url: &str, args: &[&str]) -> Out {
        run(self.cmd_at(url).args(args))
    }

    /// Runs the binary with these arguments (pointed at the emulator; stdin empty).
    pub fn run(&self, args: &[&str]) -> Out {
        run(self.cmd().args(args))
    }

    /// Runs `tunnelctl local ARGS` against the emulator's agent half.
    pub fn local(&self, args: &[&str]) -> Out {
        let agent = self.mock.agent_url();
        run(self
            .cmd()
            .env(var::AGENT_URL, agent)
            .arg("local")
            .args(args))
    }

    /// Runs `PREFIX ARGS` (a module's command words, then the rest).
    pub fn run_in(&self, prefix: &[&str], args: &[&str]) -> Out {
        run(self.cmd().args(prefix).args(args))
    }

    /// [`Env::run_in`] with the rest as one line of words (see [`words`]).
    pub fn run_words(&self, prefix: &[&str], line: &str) -> Out {
        self.run_in(prefix, &words(line))
    }

    /// [`Env::run`] with the output taken for a terminal (tables, notes on stderr).
    pub fn run_tty(&self, args: &[&str]) -> Out {
        run(self.cmd().env(var::FORCE_TTY, "1").args(args))
    }

    /// [`Env::run_tty`] on a terminal `columns` wide.
    pub fn run_terminal(&self, columns: u16, args: &[&str]) -> Out {
        run(self
            .cmd()
            .env(var::FORCE_TTY, "1")
            .env("COLUMNS", columns.to_string())
            .args(args))
    }

    /// The requests the emulator received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.mock.requests()
    }

    /// The requests other than GET.
    pub fn writes(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.method != "GET")
            .collect()
    }

    /// Seeds the emulator.
    pub fn seed(&self, spec: Value) -> Value {
        self.mock.seed(spec)
    }
}

/// The words of a command line (split on white space: for arguments without spaces).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The string at JSON `pointer` in each item of a JSON array, in order (`""` for the items
/// themselves, `"/id"` for their ids); panics, naming the value, on anything else.
pub fn strings_at(list: &Value, pointer: &str) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("not a JSON array: {list}"))
        .iter()
        .map(|item| match item.pointer(pointer).and_then(Value::as_str) {
            Some(s) => s.to_string(),
            None => panic!("no string at {pointer:?} in {item}"),
        })
        .collect()
}

/// A JSON array of strings as strings.
pub fn strings(list: &Value) -> Vec<String> {
    strings_at(list, "")
}

/// Runs a prepared command; fails the test if a secret appears in its output.
pub fn run(cmd: &mut Command) -> Out {
    let output = cmd.output().expect("the binary runs");
    let out = Out {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert_no_secret(&out);
    out
}

/// `bytes` gzipped, as a server sends a body with `Content-Encoding: gzip`.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("gzip in memory");
    enc.finish().expect("gzip in memory")
}

/// No API key nor AWS secret in the output.
#[track_caller]
pub fn assert_no_secret(out: &Out) {
    for secret in [API_KEY, AWS_SECRET] {
        assert!(
            !out.stdout.contains(secret),
            "a secret reached stdout:\n{}",
            out.stdout
        );
        assert!(
            !out.stderr.contains(secret),
            "a secret reached stderr:\n{}",
            out.stderr
        );
    }
    assert!(
        !out.stderr.contains("panicked"),
        "the binary panicked:\n{}",
        out.stderr
    );
}

/// Asserts the headers every management request carries.
#[track_caller]
pub fn assert_management_headers(req: &RecordedRequest) {
    assert_eq!(
        req.header("authorization"),
        Some(format!("Bearer {API_KEY}").as_str()),
        "{req:?}"
    );
    assert_eq!(req.header("service-version"), Some("2"));
    assert_eq!(req.header("accept"), Some("application/json"));
    let ua = req.header("user-agent").unwrap_or_default();
    assert!(ua.starts_with("tunnelctl/"), "user agent {ua}");
    if req.body.is_empty() {
        assert_eq!(req.header("content-type"), None, "no body, no content type");
    } else {
        assert_eq!(req.header("content-type"), Some("application/json"));
    }
}

/// Asserts a request's method and path, that it has no query, and the management headers.
#[track_caller]
pub fn assert_request(req: &RecordedRequest, method: &str, path: &str) {
    assert_eq!((req.method.as_str(), req.path.as_str()), (method, path));
    assert_eq!(req.query, None, "{req:?}");
    assert_management_headers(req);
}

/// Asserts the one write (see [`only_write`]): method, path, headers and JSON body.
#[track_caller]
pub fn assert_write(env: &Env, method: &str, path: &str, body: Value) -> RecordedRequest {
    let req = only_write(env);
    assert_request(&req, method, path);
    assert_eq!(req.body_json(), Some(body), "{req:?}");
    req
}

/// The one request that is not a GET; fails unless there is exactly one.
#[track_caller]
pub fn only_write(env: &Env) -> RecordedRequest {
    let writes = env.writes();
    assert_eq!(
        writes.len(),
        1,
        "expected exactly one write, got {writes:?}"
    );
    writes.into_iter().next().expect("one write")
}

/// Waits until `cond` holds (checked every 10 ms, for at most 20 s, then the test fails
/// naming `what`): tests wait for what they need to have happened, never for a time.
#[track_caller]
pub fn wait_until(what: &str, cond: impl FnMut() -> bool) {
    wait_until_every(what, std::time::Duration::from_millis(10), cond)
}

/// [`wait_until`], looking again every `every` (for a condition that costs a command to check).
pub fn wait_until_every(what: &str, every: std::time::Duration, mut cond: impl FnMut() -> bool) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !cond() {
        assert!(
            std::time::Instant::now() < end,
            "timed out waiting for {what}"
        );
        std::thread::sleep(every);
    }
}
