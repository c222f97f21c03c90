//! GitHub's scheme: `X-Hub-Signature-256: sha256=HEX`, the HMAC-SHA256 of the body
//! (GitHub docs, "Validating webhook deliveries").

use super::claim::Claim;
use super::crypto::{mac, mac_sha1};
use super::headers::Headers;
use crate::encoding::{decode_hex, encode_hex};

/// The header that carries the signature.
pub(super) const HEADER: &str = "X-Hub-Signature-256";
/// The legacy SHA-1 header GitHub still sends beside it; re-signed too when present, so it
/// never goes out stale.
pub(super) const LEGACY_HEADER: &str = "X-Hub-Signature";

pub(super) fn claim(h: &Headers, body: &[u8]) -> Result<Claim, String> {
    let value = h.get(HEADER).unwrap_or_default();
    let tag = value
        .strip_prefix("sha256=")
        .and_then(decode_hex)
        .ok_or_else(|| format!("{HEADER} is not sha256=HEX"))?;
    Ok(Claim {
        message: body.to_vec(),
        tags: vec![tag],
        timestamp: None,
    })
}

pub(super) fn sign(h: &Headers, body: &[u8], key: &[u8]) -> Vec<(String, String)> {
    let mut out = vec![(
        h.spelling(HEADER),
        format!("sha256={}", encode_hex(&mac(key, body))),
    )];
    if h.has(LEGACY_HEADER) {
        out.push((
            h.spelling(LEGACY_HEADER),
            format!("sha1={}", encode_hex(&mac_sha1(key, body))),
        ));
    }
    out
}
