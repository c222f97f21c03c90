//! The primitives every scheme shares: HMAC-SHA256 (ring's, already in the tree through
//! rustls), its constant-time check, and the hex and base64 forms the providers write it in
//! (through [`crate::encoding`], the program's one place for them).

use ring::hmac;

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

#[cfg(test)]
mod tests {
    use super::*;

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
