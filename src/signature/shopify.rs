//! Shopify's scheme: `X-Shopify-Hmac-Sha256: B64`, the base64 HMAC-SHA256 of the body
//! (Shopify docs, "Verify webhooks").

use super::claim::Claim;
use super::crypto::mac;
use super::headers::Headers;
use crate::encoding::{decode_base64, encode_base64};

/// The header that carries the signature.
pub(super) const HEADER: &str = "X-Shopify-Hmac-Sha256";

pub(super) fn claim(h: &Headers, body: &[u8]) -> Result<Claim, String> {
    let tag = h
        .get(HEADER)
        .and_then(|b| decode_base64(b).ok())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| format!("{HEADER} is not base64"))?;
    Ok(Claim {
        message: body.to_vec(),
        tags: vec![tag],
        timestamp: None,
    })
}

pub(super) fn sign(h: &Headers, body: &[u8], key: &[u8]) -> Vec<(String, String)> {
    vec![(h.spelling(HEADER), encode_base64(&mac(key, body)))]
}
