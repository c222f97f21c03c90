//! The text forms bytes travel in, decided once for the whole program: base64 (the agent's
//! `raw` bytes, HAR bodies, providers' signatures and secrets) and hex (providers' signatures).
//! A leaf: it depends on nothing else here.

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine};

/// Standard base64 that reads a value with or without its `=` padding (providers' own
/// libraries accept both) and writes it padded.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Decodes base64 text, white space around it ignored.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, base64::DecodeError> {
    BASE64.decode(text.trim())
}

/// Encodes bytes as base64 text, padded.
pub fn encode_base64(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// Lower-case hex.
pub fn encode_hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// The bytes of a hex text (either case); `None` when it is not hex.
pub fn decode_hex(text: &str) -> Option<Vec<u8>> {
    hex::decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_reads_with_or_without_padding() {
        assert_eq!(decode_base64("aGk=").ok(), Some(b"hi".to_vec()));
        assert_eq!(decode_base64(" aGk \n").ok(), Some(b"hi".to_vec()));
        assert!(decode_base64("a*b").is_err());
        assert_eq!(encode_base64(b"hi"), "aGk=");
    }

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(encode_hex(&[0x00, 0x7f, 0xff]), "007fff");
        assert_eq!(decode_hex("007FfF"), Some(vec![0x00, 0x7f, 0xff]));
        assert_eq!(decode_hex("abc"), None);
        assert_eq!(decode_hex("zz"), None);
        assert_eq!(decode_hex("é1"), None);
        assert_eq!(decode_hex(""), Some(vec![]));
    }
}
