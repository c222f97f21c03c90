//! Slack's scheme: `X-Slack-Request-Timestamp: TS` and `X-Slack-Signature: v0=HEX`, the
//! HMAC-SHA256 of `v0:TS:body` (Slack docs, "Verifying requests from Slack").

use super::claim::{self, Claim};
use super::crypto::mac;
use super::headers::Headers;
use crate::encoding::{decode_hex, encode_hex};

/// The header that carries the signature.
pub(super) const HEADER: &str = "X-Slack-Signature";
/// The header that carries the signed timestamp.
pub(super) const TIMESTAMP: &str = "X-Slack-Request-Timestamp";

fn message(stamp: &str, body: &[u8]) -> Vec<u8> {
    claim::joined(&[b"v0", stamp.as_bytes(), body], b':')
}

pub(super) fn claim(h: &Headers, body: &[u8]) -> Result<Claim, String> {
    let tag = h
        .get(HEADER)
        .unwrap_or_default()
        .strip_prefix("v0=")
        .and_then(decode_hex)
        .ok_or_else(|| format!("{HEADER} is not v0=HEX"))?;
    let stamp = h
        .get(TIMESTAMP)
        .ok_or_else(|| format!("{TIMESTAMP} is missing"))?;
    let ts = claim::timestamp(stamp).ok_or_else(|| format!("{TIMESTAMP} is not a number"))?;
    Ok(Claim {
        message: message(stamp, body),
        tags: vec![tag],
        timestamp: Some(ts),
    })
}

pub(super) fn sign(h: &Headers, body: &[u8], key: &[u8], now: i64) -> Vec<(String, String)> {
    let stamp = now.to_string();
    let tag = mac(key, &message(&stamp, body));
    vec![
        (h.spelling(TIMESTAMP), stamp),
        (h.spelling(HEADER), format!("v0={}", encode_hex(&tag))),
    ]
}
