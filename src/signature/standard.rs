//! The Standard Webhooks scheme (standardwebhooks.com; Svix, Clerk, Resend, … send it under
//! `svix-` names): `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,B64 …`, the
//! base64 HMAC-SHA256 of `ID.TS.body` under the base64-decoded part of the `whsec_…` secret.

use super::claim::{self, Claim};
use super::crypto::mac;
use super::headers::Headers;
use crate::encoding::{decode_base64, encode_base64};

/// The prefix of the header names the specification uses.
const STANDARD: &str = "webhook-";
/// The prefix Svix and the services built on it use for the same headers.
const SVIX: &str = "svix-";

/// The signature header under either prefix: what marks a request as using this scheme.
pub(super) const HEADERS: [&str; 2] = ["webhook-signature", "svix-signature"];

/// Every header of the scheme under both prefixes.
pub(super) const ALL_HEADERS: [&str; 6] = [
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "svix-id",
    "svix-timestamp",
    "svix-signature",
];

/// The key a secret stands for: the base64 after an optional `whsec_`, as the
/// specification's libraries read it.
pub(super) fn key(secret: &str) -> Result<Vec<u8>, String> {
    let encoded = secret.trim();
    let encoded = encoded.strip_prefix("whsec_").unwrap_or(encoded);
    decode_base64(encoded)
        .ok()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| "the secret is not base64 after 'whsec_'".to_string())
}

/// The prefix the request uses: `svix-` when any of its scheme headers has it.
fn prefix(h: &Headers) -> &'static str {
    if ["svix-id", "svix-timestamp", "svix-signature"]
        .iter()
        .any(|n| h.has(n))
    {
        SVIX
    } else {
        STANDARD
    }
}

fn message(id: &str, stamp: &str, body: &[u8]) -> Vec<u8> {
    claim::joined(&[id.as_bytes(), stamp.as_bytes(), body], b'.')
}

pub(super) fn claim(h: &Headers, body: &[u8]) -> Result<Claim, String> {
    let p = if h.has("svix-signature") {
        SVIX
    } else {
        STANDARD
    };
    let name = |n: &str| format!("{p}{n}");
    let field = |n: &str| {
        h.get(&name(n))
            .filter(|v| !v.is_empty())
            .ok_or_else(|| format!("{} is missing", name(n)))
    };
    let id = field("id")?;
    let stamp = field("timestamp")?;
    let signatures = field("signature")?;
    let ts =
        claim::timestamp(stamp).ok_or_else(|| format!("{} is not a number", name("timestamp")))?;
    let tags: Vec<Vec<u8>> = signatures
        .split(' ')
        .filter_map(|entry| entry.split_once(','))
        .filter(|(version, _)| *version == "v1")
        .filter_map(|(_, tag)| decode_base64(tag).ok())
        .collect();
    if tags.is_empty() {
        return Err(format!("{} has no v1,BASE64 entry", name("signature")));
    }
    Ok(Claim {
        message: message(id, stamp, body),
        tags,
        timestamp: Some(ts),
    })
}

pub(super) fn sign(h: &Headers, body: &[u8], key: &[u8], now: i64) -> Vec<(String, String)> {
    let p = prefix(h);
    let name = |n: &str| h.spelling(&format!("{p}{n}"));
    let id = h
        .get(&format!("{p}id"))
        .filter(|v| !v.is_empty())
        .map_or_else(new_id, str::to_string);
    let stamp = now.to_string();
    let tag = mac(key, &message(&id, &stamp, body));
    vec![
        (name("id"), id),
        (name("timestamp"), stamp),
        (name("signature"), format!("v1,{}", encode_base64(&tag))),
    ]
}

/// A fresh message id in the form Svix uses (`msg_` and 27 letters or digits), for a
/// request signed for the first time.
fn new_id() -> String {
    let tail: String = std::iter::repeat_with(fastrand::alphanumeric)
        .take(27)
        .collect();
    format!("msg_{tail}")
}
