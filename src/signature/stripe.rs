//! Stripe's scheme: `Stripe-Signature: t=TS,v1=HEX[,v1=HEX…]`, the HMAC-SHA256 of `TS.body`
//! under the `whsec_…` secret used as it is (Stripe docs, "Verify webhook signatures").

use super::claim::{self, Claim};
use super::crypto::mac;
use super::headers::Headers;
use crate::encoding::{decode_hex, encode_hex};

/// The header that carries the timestamp and the signatures.
pub(super) const HEADER: &str = "Stripe-Signature";

pub(super) fn claim(h: &Headers, body: &[u8]) -> Result<Claim, String> {
    let value = h.get(HEADER).unwrap_or_default();
    let mut stamp = None;
    let mut tags = Vec::new();
    for item in value.split(',') {
        let Some((key, val)) = item.split_once('=') else {
            continue;
        };
        match key.trim() {
            "t" if stamp.is_none() => stamp = Some(val.trim()),
            // A v1 that is not hex cannot match: skipped, as Stripe's libraries find none.
            "v1" => tags.extend(decode_hex(val.trim())),
            _ => {}
        }
    }
    let stamp = stamp.ok_or_else(|| format!("{HEADER} has no t= timestamp"))?;
    let ts = claim::timestamp(stamp)
        .ok_or_else(|| format!("the t= timestamp of {HEADER} is not a number"))?;
    if tags.is_empty() {
        return Err(format!("{HEADER} has no v1= signature"));
    }
    Ok(Claim {
        message: claim::joined(&[stamp.as_bytes(), body], b'.'),
        tags,
        timestamp: Some(ts),
    })
}

pub(super) fn sign(h: &Headers, body: &[u8], key: &[u8], now: i64) -> Vec<(String, String)> {
    let stamp = now.to_string();
    let tag = mac(key, &claim::joined(&[stamp.as_bytes(), body], b'.'));
    vec![(
        h.spelling(HEADER),
        format!("t={stamp},v1={}", encode_hex(&tag)),
    )]
}
