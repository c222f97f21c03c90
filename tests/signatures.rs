//! tunnelctl's webhook signatures against the providers' official libraries, in both
//! directions: what the libraries sign is `valid` to us (and `invalid` or `expired` when it
//! should be), and what we sign their verifiers accept. Our own HMAC on both sides would
//! prove nothing.
//!
//! The libraries (Python: stripe, slack_sdk, standardwebhooks, svix; npm:
//! @octokit/webhooks-methods) are installed by `tests/providers/setup.sh`, which `.ci/run`
//! runs; the small scripts beside it speak JSON with this file. Without them each test says
//! SKIPPED and why, on stderr past cargo's capture, rather than passing in silence.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tunnelctl::signature::{apply, detect, sign, verify, Provider, Secrets, Verdict};

/// A body with bytes beyond ASCII, which every side must sign as the same UTF-8.
const BODY: &str = "{\"id\":\"evt_1\",\"text\":\"Zoë's naïve café ✓\"}";

/// The official libraries, by the name the scripts know them by, with the provider each
/// speaks for.
const LIBS: [(&str, Provider); 6] = [
    ("github", Provider::Github),
    ("stripe", Provider::Stripe),
    ("slack", Provider::Slack),
    ("shopify", Provider::Shopify),
    ("standardwebhooks", Provider::Standard),
    ("svix", Provider::Standard),
];

fn secret(p: Provider) -> &'static str {
    match p {
        Provider::Github => "It's a Secret to Everybody, 2",
        Provider::Stripe => "whsec_test_stripe_0123456789abcdef",
        Provider::Slack => "8f742231b10e8888abcd99yyyzzz85a5",
        Provider::Shopify => "shpss_test_0123456789abcdef",
        Provider::Standard => "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }
}

/// A secret of the same provider that is not the right one.
fn wrong_secret(p: Provider) -> &'static str {
    match p {
        Provider::Standard => "whsec_d3JvbmctYnV0LXdlbGwtZm9ybWVkLWtleQ==",
        Provider::Stripe => "whsec_test_stripe_wrong_secret",
        _ => "a wrong secret entirely",
    }
}

fn now() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(since.as_secs()).unwrap()
}

fn ours(p: Provider) -> Secrets {
    Secrets::new().with(p, secret(p))
}

/// The installed libraries and how to run their scripts.
struct Official {
    python: PathBuf,
    node_dir: PathBuf,
}

impl Official {
    /// The libraries, or `None` after saying SKIPPED and why (on the real stderr, which
    /// cargo's capture does not hide).
    fn find(test: &str) -> Option<Official> {
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
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: the providers' official libraries are not installed ({reason}); run tests/providers/setup.sh"
        );
        None
    }

    /// Runs `ops` through the script of `lib` and returns one result per op.
    fn run(&self, lib: &str, ops: Vec<Value>) -> Vec<Value> {
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
    fn sign(&self, lib: &str, body: &str, secret: &str, at: i64) -> Vec<(String, String)> {
        self.sign_at(lib, body, secret, &[at]).remove(0)
    }

    /// The headers `lib` signs `body` with at each of `times`, in one run of its script.
    fn sign_at(
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

fn headers(list: &Value) -> Vec<(String, String)> {
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
fn verify_op(headers: &[(String, String)], body: &str, secret: &str) -> Value {
    json!({"op": "verify", "secret": secret, "body": body, "headers": headers})
}

fn accepted(result: &Value) -> bool {
    result["accepted"].as_bool().unwrap()
}

#[test]
fn what_the_official_libraries_sign_is_valid_for_us() {
    let Some(official) = Official::find("what_the_official_libraries_sign_is_valid_for_us") else {
        return;
    };
    let now = now();
    for (lib, p) in LIBS {
        let [signed, old] =
            <[_; 2]>::try_from(official.sign_at(lib, BODY, secret(p), &[now, now - 3600])).unwrap();
        assert_eq!(detect(&signed), Some(p), "{lib}: {signed:?}");
        let check = verify(&signed, BODY.as_bytes(), &ours(p), now);
        assert_eq!(check.result, Verdict::Valid, "{lib}: {}", check.detail);

        let changed = verify(&signed, b"{\"id\":\"evt_2\"}", &ours(p), now);
        assert_eq!(changed.result, Verdict::Invalid, "{lib}: a changed body");
        let other = Secrets::new().with(p, wrong_secret(p));
        let wrong = verify(&signed, BODY.as_bytes(), &other, now);
        assert_eq!(wrong.result, Verdict::Invalid, "{lib}: another secret");
        let none = verify(&signed, BODY.as_bytes(), &Secrets::new(), now);
        assert_eq!(none.result, Verdict::NoSecret, "{lib}");

        if p.tolerance().is_some() {
            let check = verify(&old, BODY.as_bytes(), &ours(p), now);
            assert_eq!(check.result, Verdict::Expired, "{lib}: {}", check.detail);
        }
    }
}

#[test]
fn githubs_library_makes_the_published_test_vector() {
    let Some(official) = Official::find("githubs_library_makes_the_published_test_vector") else {
        return;
    };
    let signed = official.sign("github", "Hello, World!", "It's a Secret to Everybody", 0);
    assert_eq!(
        signed[0].1,
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    );
    let ours = sign(
        &signed,
        b"Hello, World!",
        Provider::Github,
        "It's a Secret to Everybody",
        0,
    )
    .unwrap();
    assert_eq!(ours, signed);
}

#[test]
fn what_we_sign_the_official_verifiers_accept() {
    let Some(official) = Official::find("what_we_sign_the_official_verifiers_accept") else {
        return;
    };
    let now = now();
    for (lib, p) in LIBS {
        // A request not signed yet (`send --sign`), except that svix's verifier reads only
        // svix- names, which a request from Svix arrives with.
        let start: Vec<(String, String)> = match lib {
            "svix" => official.sign(lib, "old body", secret(p), now - 7200),
            _ => vec![("Content-Type".into(), "application/json".into())],
        };
        let mut fresh = start.clone();
        apply(
            &mut fresh,
            sign(&start, BODY.as_bytes(), p, secret(p), now).unwrap(),
        );
        let results = official.run(
            lib,
            vec![
                verify_op(&fresh, BODY, secret(p)),
                verify_op(&fresh, "{\"id\":\"evt_2\"}", secret(p)),
                verify_op(&fresh, BODY, wrong_secret(p)),
            ],
        );
        assert!(accepted(&results[0]), "{lib} refused ours: {}", results[0]);
        assert!(!accepted(&results[1]), "{lib} accepted a changed body");
        assert!(!accepted(&results[2]), "{lib} accepted another secret");
    }
}

#[test]
fn an_expired_official_signature_re_signed_by_us_is_accepted_again() {
    let Some(official) =
        Official::find("an_expired_official_signature_re_signed_by_us_is_accepted_again")
    else {
        return;
    };
    let now = now();
    for (lib, p) in LIBS.into_iter().filter(|(_, p)| p.tolerance().is_some()) {
        // Signed an hour ago; replayed now with a changed body (`replay --body`).
        let captured = official.sign(lib, BODY, secret(p), now - 3600);
        let changed = "{\"id\":\"evt_1\",\"text\":\"changed in a replay\"}";
        let mut replayed = captured.clone();
        apply(
            &mut replayed,
            sign(&captured, changed.as_bytes(), p, secret(p), now).unwrap(),
        );
        let names =
            |h: &[(String, String)]| -> Vec<String> { h.iter().map(|(n, _)| n.clone()).collect() };
        assert_eq!(names(&replayed), names(&captured), "{lib}: same names");
        let results = official.run(
            lib,
            vec![
                verify_op(&captured, BODY, secret(p)),
                verify_op(&replayed, changed, secret(p)),
            ],
        );
        assert!(
            !accepted(&results[0]),
            "{lib} accepted an hour-old signature"
        );
        assert!(
            accepted(&results[1]),
            "{lib} refused the re-signed: {}",
            results[1]
        );
        let check = verify(&replayed, changed.as_bytes(), &ours(p), now);
        assert_eq!(check.result, Verdict::Valid, "{lib}");
    }
}
