//! The providers' official webhook libraries (installed by `tests/providers/setup.sh` under
//! `target/providers`), driven through the small scripts beside this file: they sign requests
//! and verify them, for the tests that hold tunnelctl's signatures against them
//! (`tests/signatures.rs`, and the command-line tests in `tests/cli/signed_webhooks.rs`).

#![allow(dead_code)]

// The one skip helper: every crate that includes this file has it as `crate::skip`.
use crate::skip;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// The installed libraries and how to run their scripts.
pub struct Official {
    python: PathBuf,
    node_dir: PathBuf,
}

impl Official {
    /// The libraries, or `None` after saying SKIPPED and why (`skip::cannot_run`: under CI a
    /// missing library fails the test instead).
    pub fn find(test: &str) -> Option<Official> {
        let dir = std::env::var_os("TUNNELCTL_PROVIDERS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/providers"));
        if dir.join("ready").exists() {
            return Some(Official {
                python: dir.join("venv/bin/python"),
                node_dir: dir.join("node"),
            });
        }
        let reason = std::fs::read_to_string(dir.join("SKIPPED"))
            .map(|r| r.trim().to_string())
            .unwrap_or_else(|_| "tests/providers/setup.sh has not been run".to_string());
        let why = format!(
            "the providers' official libraries are not installed ({reason}); run tests/providers/setup.sh"
        );
        skip::cannot_run(format!("{test}: {why}"));
        None
    }

    /// Runs `ops` through the script of `lib` and returns one result per op.
    pub fn run(&self, lib: &str, ops: Vec<Value>) -> Vec<Value> {
        let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/providers");
        let mut cmd = if lib == "github" {
            // Copied beside node_modules: an ES module resolves its imports from where it is.
            let script = self.node_dir.join("github.mjs");
            std::fs::copy(scripts.join("github.mjs"), &script).unwrap();
            let mut c = Command::new("node");
            c.arg(script);
            c
        } else {
            let mut c = Command::new(&self.python);
            c.arg(scripts.join("official.py"));
            c
        };
        let ops: Vec<Value> = ops
            .into_iter()
            .map(|mut op| {
                op["lib"] = json!(lib);
                op
            })
            .collect();
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{lib}'s script does not start: {e}"));
        let input = json!({ "ops": ops }).to_string();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{lib}'s script failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let results = doc["results"].as_array().unwrap().clone();
        assert_eq!(results.len(), ops.len());
        results
    }

    /// The headers `lib` signs `body` with at `at`.
    pub fn sign(&self, lib: &str, body: &str, secret: &str, at: i64) -> Vec<(String, String)> {
        self.sign_at(lib, body, secret, &[at]).remove(0)
    }

    /// The headers `lib` signs `body` with at each of `times`, in one run of its script.
    pub fn sign_at(
        &self,
        lib: &str,
        body: &str,
        secret: &str,
        times: &[i64],
    ) -> Vec<Vec<(String, String)>> {
        let ops = times
            .iter()
            .map(|at| json!({"op": "sign", "secret": secret, "body": body, "timestamp": at, "id": "msg_official_1"}))
            .collect();
        let results = self.run(lib, ops);
        results.iter().map(|r| headers(&r["headers"])).collect()
    }
}

pub fn headers(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().unwrap().to_string(),
                pair[1].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A verify op for `headers` and `body` under `secret`.
pub fn verify_op(headers: &[(String, String)], body: &str, secret: &str) -> Value {
    json!({"op": "verify", "secret": secret, "body": body, "headers": headers})
}

pub fn accepted(result: &Value) -> bool {
    result["accepted"].as_bool().unwrap()
}
