//! tunnelctl's webhook signatures against the providers' official libraries, in both
//! directions: what the libraries sign is `valid` to us (and `invalid` or `expired` when it
//! should be), and what we sign their verifiers accept. Our own HMAC on both sides would
//! prove nothing.
//!
//! The libraries (Python: stripe, slack_sdk, standardwebhooks, svix; npm:
//! @octokit/webhooks-methods) are installed by `tests/providers/setup.sh`, which `.ci/run`
//! runs; the small scripts beside it speak JSON with this file. Without them each test says
//! SKIPPED and why, on stderr past cargo's capture, rather than passing in silence; under CI
//! (the variable `CI` set) they fail instead.

// Tests may unwrap: a failure there is the test failing (the workspace lints deny it elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{SystemTime, UNIX_EPOCH};

#[path = "providers/official.rs"]
mod official;
#[path = "common/skip.rs"]
mod skip;

use official::{accepted, verify_op, Official};
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
