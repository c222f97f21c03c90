//! Each scheme through the public functions: published vectors, every verdict per provider,
//! the tolerance's edges, several signatures, and malformed headers from a visitor.

use super::*;

const NOW: i64 = 1_700_000_000;
const BODY: &[u8] = "{\"event\":\"ping\",\"name\":\"Zoë ✓\"}".as_bytes();
/// A Standard Webhooks secret: `whsec_` and the base64 of the key.
const STANDARD_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

fn secret(p: Provider) -> &'static str {
    match p {
        Provider::Standard => STANDARD_SECRET,
        Provider::Stripe => "whsec_stripe_unit_secret",
        _ => "unit test secret",
    }
}

fn secrets() -> Secrets {
    Provider::ALL
        .into_iter()
        .fold(Secrets::new(), |s, p| s.with(p, secret(p)))
}

/// A request signed by `p` at `at`, with a plain header beside the signature.
fn signed(p: Provider, at: i64) -> Vec<(String, String)> {
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    let sig = sign(&headers, BODY, p, secret(p), at).unwrap();
    apply(&mut headers, sig);
    headers
}

fn check(headers: &[(String, String)], body: &[u8], at: i64) -> Check {
    verify(headers, body, &secrets(), at)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn githubs_published_vector_is_valid() {
    // GitHub docs, "Validating webhook deliveries".
    let headers = [(
        "X-Hub-Signature-256",
        "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    )];
    let s = Secrets::new().with(Provider::Github, "It's a Secret to Everybody");
    let c = verify(&headers, b"Hello, World!", &s, NOW);
    assert_eq!(
        (c.provider, c.result),
        (Some(Provider::Github), Verdict::Valid)
    );
    let ours = sign(
        &[("a", "b")],
        b"Hello, World!",
        Provider::Github,
        "It's a Secret to Everybody",
        NOW,
    )
    .unwrap();
    assert_eq!(ours, pairs(&[("X-Hub-Signature-256", headers[0].1)]));
}

#[test]
fn every_provider_signs_what_it_then_finds_valid() {
    for p in Provider::ALL {
        let headers = signed(p, NOW);
        let c = check(&headers, BODY, NOW + 10);
        assert_eq!(
            (c.provider, c.result),
            (Some(p), Verdict::Valid),
            "{p}: {}",
            c.detail
        );
        assert_eq!(detect(&headers), Some(p));
    }
}

#[test]
fn a_changed_body_or_another_secret_is_invalid() {
    for p in Provider::ALL {
        let headers = signed(p, NOW);
        let c = check(&headers, b"{\"event\":\"pong\"}", NOW);
        assert_eq!(c.result, Verdict::Invalid, "{p}");
        assert!(c.detail.contains("does not match"), "{}", c.detail);
        let other = match p {
            Provider::Standard => "whsec_c2VjcmV0LXR3by0xMjM0NTY3ODkw".to_string(),
            _ => format!("{}-rotated", secret(p)),
        };
        let c = verify(&headers, BODY, &Secrets::new().with(p, other), NOW);
        assert_eq!(c.result, Verdict::Invalid, "{p}");
    }
}

#[test]
fn no_secret_names_the_variable_and_an_unsigned_request_has_no_provider() {
    for p in Provider::ALL {
        let c = verify(&signed(p, NOW), BODY, &Secrets::new(), NOW);
        assert_eq!((c.provider, c.result), (Some(p), Verdict::NoSecret));
        assert!(c.detail.contains(p.env_var()), "{}", c.detail);
    }
    let c = check(&pairs(&[("Content-Type", "text/plain")]), BODY, NOW);
    assert_eq!((c.provider, c.result), (None, Verdict::Unsigned));
    let none: [(&str, &str); 0] = [];
    assert_eq!(check(&pairs(&none), b"", NOW).result, Verdict::Unsigned);
}

#[test]
fn timestamps_expire_after_300_seconds_not_at_them() {
    for p in [Provider::Stripe, Provider::Slack, Provider::Standard] {
        let headers = signed(p, NOW);
        assert_eq!(
            check(&headers, BODY, NOW + 300).result,
            Verdict::Valid,
            "{p}"
        );
        let c = check(&headers, BODY, NOW + 301);
        assert_eq!(c.result, Verdict::Expired, "{p}");
        assert!(c.detail.contains("301 s ago"), "{}", c.detail);
        // An expired signature that does not match is invalid: it would never pass.
        assert_eq!(check(&headers, b"x", NOW + 3600).result, Verdict::Invalid);
    }
    for p in [Provider::Github, Provider::Shopify] {
        assert_eq!(
            check(&signed(p, NOW), BODY, NOW + 86_400 * 365).result,
            Verdict::Valid
        );
    }
}

#[test]
fn a_future_timestamp_expires_where_the_provider_refuses_it() {
    for p in [Provider::Slack, Provider::Standard] {
        let headers = signed(p, NOW + 301);
        assert_eq!(check(&headers, BODY, NOW).result, Verdict::Expired, "{p}");
        assert_eq!(
            check(&signed(p, NOW + 300), BODY, NOW).result,
            Verdict::Valid
        );
    }
    // Stripe's libraries look back only.
    let c = check(&signed(Provider::Stripe, NOW + 3600), BODY, NOW);
    assert_eq!(c.result, Verdict::Valid, "{}", c.detail);
}

#[test]
fn one_matching_entry_among_several_is_enough() {
    let stripe = signed(Provider::Stripe, NOW);
    let value = &stripe[1].1;
    let (t, v1) = value.split_once(",v1=").unwrap();
    let many = format!("{t},v1={},v0=zz,v1={v1},v1=nothex", "0".repeat(64));
    let c = check(&pairs(&[("stripe-signature", &many)]), BODY, NOW);
    assert_eq!(c.result, Verdict::Valid, "{}", c.detail);

    let standard = signed(Provider::Standard, NOW);
    let sig = &standard[3].1;
    let many = format!("v1a,AAAA v1,AAAA {sig} v2,{}", &sig[3..]);
    let mut h = standard.clone();
    h[3].1 = many;
    assert_eq!(check(&h, BODY, NOW).result, Verdict::Valid);
}

#[test]
fn svix_names_are_read_and_kept() {
    let s = secrets();
    let h = pairs(&[
        ("Svix-Id", "msg_1"),
        ("svix-timestamp", "0"),
        ("svix-signature", "v1,AAAA"),
    ]);
    let fresh = sign(&h, BODY, Provider::Standard, STANDARD_SECRET, NOW).unwrap();
    let names: Vec<&str> = fresh.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Svix-Id", "svix-timestamp", "svix-signature"]);
    assert_eq!(fresh[0].1, "msg_1", "the id is kept");
    let mut h2 = h.clone();
    apply(&mut h2, fresh);
    assert_eq!(h2.len(), 3);
    assert_eq!(verify(&h2, BODY, &s, NOW).result, Verdict::Valid);
    assert_eq!(verify(&h, BODY, &s, NOW).result, Verdict::Invalid);
}

#[test]
fn a_request_without_signature_gets_the_canonical_names_and_an_id() {
    let none: [(&str, &str); 0] = [];
    let names = |p: Provider| -> Vec<String> {
        sign(&none, BODY, p, secret(p), NOW)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    };
    assert_eq!(names(Provider::Github), ["X-Hub-Signature-256"]);
    assert_eq!(names(Provider::Stripe), ["Stripe-Signature"]);
    assert_eq!(
        names(Provider::Slack),
        ["X-Slack-Request-Timestamp", "X-Slack-Signature"]
    );
    assert_eq!(names(Provider::Shopify), ["X-Shopify-Hmac-Sha256"]);
    assert_eq!(
        names(Provider::Standard),
        ["webhook-id", "webhook-timestamp", "webhook-signature"]
    );
    let fresh = sign(&none, BODY, Provider::Standard, STANDARD_SECRET, NOW).unwrap();
    assert!(
        fresh[0].1.starts_with("msg_") && fresh[0].1.len() == 31,
        "{}",
        fresh[0].1
    );
    let stripe = sign(&none, BODY, Provider::Stripe, secret(Provider::Stripe), NOW).unwrap();
    assert!(
        stripe[0].1.starts_with("t=1700000000,v1="),
        "{}",
        stripe[0].1
    );
}

#[test]
fn re_signing_replaces_the_old_headers_in_place_and_keeps_their_case() {
    let mut h = pairs(&[
        ("x-hub-signature-256", "sha256=00"),
        ("X-Hub-Signature", "sha1=00"),
        ("Accept", "*/*"),
        ("X-HUB-SIGNATURE-256", "sha256=11"),
    ]);
    let fresh = sign(&h, BODY, Provider::Github, "s3cret-value", NOW).unwrap();
    apply(&mut h, fresh);
    let names: Vec<&str> = h.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["x-hub-signature-256", "X-Hub-Signature", "Accept"]);
    assert!(
        h[1].1.starts_with("sha1=") && h[1].1.len() == 45,
        "legacy SHA-1 re-signed too"
    );
    let s = Secrets::new().with(Provider::Github, "s3cret-value");
    assert_eq!(verify(&h, BODY, &s, NOW).result, Verdict::Valid);
}

#[test]
fn malformed_headers_are_invalid_and_never_panic() {
    let cases: &[(&str, &str)] = &[
        ("X-Hub-Signature-256", ""),
        ("X-Hub-Signature-256", "sha256="),
        ("X-Hub-Signature-256", "sha256=xyz"),
        ("X-Hub-Signature-256", "sha1=abcd"),
        ("X-Hub-Signature-256", "sha256=é€"),
        ("Stripe-Signature", ""),
        ("Stripe-Signature", ",,,=,=="),
        ("Stripe-Signature", "v1=abcd"),
        ("Stripe-Signature", "t=,v1=abcd"),
        ("Stripe-Signature", "t=-5,v1=abcd"),
        ("Stripe-Signature", "t=99999999999999999999,v1=ab"),
        ("Stripe-Signature", "t=1700000000"),
        ("Stripe-Signature", "t=1700000000,v1=ü"),
        ("X-Slack-Signature", "v0=abcd"),
        ("X-Slack-Signature", "v1=abcd"),
        ("X-Shopify-Hmac-Sha256", "not base64!"),
        ("X-Shopify-Hmac-Sha256", ""),
        ("webhook-signature", "v1,AAAA"),
        ("svix-signature", "v1"),
    ];
    for (name, value) in cases {
        let c = check(&pairs(&[(name, value)]), BODY, NOW);
        assert_eq!(c.result, Verdict::Invalid, "{name}: {value}");
        assert!(c.provider.is_some());
        assert!(!c.detail.contains(value) || value.len() < 2, "{}", c.detail);
    }
    let slack = pairs(&[
        ("X-Slack-Signature", "v0=ab"),
        ("X-Slack-Request-Timestamp", "soon"),
    ]);
    assert_eq!(check(&slack, BODY, NOW).result, Verdict::Invalid);
    let std = pairs(&[
        ("webhook-id", "a"),
        ("webhook-timestamp", "1700000000"),
        ("webhook-signature", "v1,*** v2,AAAA ,"),
    ]);
    assert_eq!(check(&std, BODY, NOW).result, Verdict::Invalid);
    // Any bytes at all, and clocks at the ends of the range.
    let odd = pairs(&[("Stripe-Signature", "t=0,v1=00")]);
    for now in [i64::MIN, -1, 0, i64::MAX] {
        let _ = check(&odd, BODY, now);
        let _ = check(&signed(Provider::Slack, 0), BODY, now);
        let _ = sign(&odd, &[0xff, 0x00], Provider::Stripe, "k", now);
    }
}

#[test]
fn details_and_debug_never_hold_a_secret() {
    let s = secrets();
    assert!(!format!("{s:?}").contains("secret"), "{s:?}");
    for p in Provider::ALL {
        for at in [NOW, NOW + 4000] {
            for body in [BODY, b"x"] {
                let c = verify(&signed(p, NOW), body, &s, at);
                assert!(!c.detail.contains(secret(p)), "{}", c.detail);
            }
        }
    }
    let bad = Secrets::new().with(Provider::Standard, "whsec_***not-base64***");
    let c = verify(&signed(Provider::Standard, NOW), BODY, &bad, NOW);
    assert_eq!(c.result, Verdict::Invalid);
    assert!(
        c.detail
            .contains(crate::registry::env::WEBHOOK_SECRET_STANDARD)
            && !c.detail.contains("***"),
        "{}",
        c.detail
    );
    let e = sign(&[("a", "b")], BODY, Provider::Standard, "whsec_***", NOW).unwrap_err();
    assert!(!e.to_string().contains("***"), "{e}");
}

#[test]
fn verdicts_read_back_and_two_of_them_fail() {
    for v in Verdict::ALL {
        assert_eq!(v.as_str().parse::<Verdict>(), Ok(v));
        assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
    }
    let failing: Vec<Verdict> = Verdict::ALL.into_iter().filter(|v| v.fails()).collect();
    assert_eq!(failing, [Verdict::Invalid, Verdict::Expired]);
    assert_eq!(serde_json::to_value(Provider::Github).unwrap(), "github");
}

#[test]
fn the_digests_of_every_signature_are_found_and_nothing_else() {
    for p in Provider::ALL {
        let headers = signed(p, NOW);
        let found = digests(&headers);
        assert!(!found.is_empty(), "{p:?}: {headers:?}");
        for d in &found {
            assert!(d.len() >= 16, "{p:?}: {d}");
            assert!(
                headers.iter().any(|(_, v)| v.contains(d.as_str())),
                "{p:?}: {d} in {headers:?}"
            );
            assert!(!d.contains(&NOW.to_string()), "{p:?}: no timestamp: {d}");
        }
    }
    let stripe = pairs(&[(
        "Stripe-Signature",
        "t=1700000000,v1=0123456789abcdef0123,v1=fedcba9876543210fedc",
    )]);
    assert_eq!(
        digests(&stripe),
        ["0123456789abcdef0123", "fedcba9876543210fedc"]
    );
    let standard = pairs(&[
        ("webhook-id", "msg_0123456789abcdef"),
        (
            "webhook-signature",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1,aGVsbG8gd29ybGQgaGVsbG8=",
        ),
    ]);
    assert_eq!(
        digests(&standard),
        [
            "K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
            "aGVsbG8gd29ybGQgaGVsbG8="
        ]
    );
}
