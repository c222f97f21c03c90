//! The primitives every scheme shares: HMAC-SHA256 (ring's, already in the tree through
//! rustls), its constant-time check, and the hex and base64 forms the providers write it in.

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine};
use ring::hmac;

/// Standard base64 that reads a value with or without its `=` padding: providers' own
/// libraries accept both (Standard Webhooks pads secrets itself before decoding).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// HMAC-SHA256 of `message` under `key`.
pub(super) fn mac(key: &[u8], message: &[u8]) -> Vec<u8> {
    let key = hmac::Key::new(hmac::HMAC_SHA256, key);
    hmac::sign(&key, message).as_ref().to_vec()
}

/// HMAC-SHA1, for GitHub's legacy `X-Hub-Signature` header kept beside the SHA-256 one.
pub(super) fn mac_sha1(key: &[u8], message: &[u8]) -> Vec<u8> {
    let key = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, key);
    hmac::sign(&key, message).as_ref().to_vec()
}

/// Does `tag` hold the HMAC-SHA256 of `message` under `key`? Compared in constant time, so
/// a sender cannot learn the right signature byte by byte from how long a refusal takes.
pub(super) fn matches(key: &[u8], message: &[u8], tag: &[u8]) -> bool {
    let key = hmac::Key::new(hmac::HMAC_SHA256, key);
    hmac::verify(&key, message, tag).is_ok()
}

/// Lower-case hex.
pub(super) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// The bytes of a hex text (either case); `None` when it is not hex.
pub(super) fn unhex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let value = |d: u8| {
        char::from(d)
            .to_digit(16)
            .and_then(|v| u8::try_from(v).ok())
    };
    digits
        .chunks_exact(2)
        .map(|pair| Some(value(pair[0])? << 4 | value(pair[1])?))
        .collect()
}

/// Standard base64, padded.
pub(super) fn base64(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// The bytes of a standard base64 text, padded or not; `None` when it is not base64.
pub(super) fn unbase64(text: &str) -> Option<Vec<u8>> {
    BASE64.decode(text.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(hex(&[0x00, 0x7f, 0xff]), "007fff");
        assert_eq!(unhex("007FfF"), Some(vec![0x00, 0x7f, 0xff]));
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("é1"), None);
        assert_eq!(unhex(""), Some(vec![]));
    }

    #[test]
    fn base64_reads_with_or_without_padding() {
        assert_eq!(unbase64("aGk="), Some(b"hi".to_vec()));
        assert_eq!(unbase64("aGk"), Some(b"hi".to_vec()));
        assert_eq!(unbase64("a*b"), None);
        assert_eq!(base64(b"hi"), "aGk=");
    }

    #[test]
    fn a_changed_tag_does_not_match() {
        let tag = mac(b"key", b"message");
        assert!(matches(b"key", b"message", &tag));
        let mut wrong = tag.clone();
        wrong[0] ^= 1;
        assert!(!matches(b"key", b"message", &wrong));
        assert!(!matches(b"key", b"message", &tag[..31]));
    }
}
