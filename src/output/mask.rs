//! Secrets the service echoes (AWS secret access keys), masked before anything is printed
//! unless `--show-secrets` asks for machine output as sent; and the cheap test a list item's
//! text passes first, so most items are passed through without being parsed.

use serde_json::Value;

/// Does `text` contain `needle` (ASCII letters in any case)? No copy of `text` is made: this
/// runs on every item of a list.
fn contains_ignore_case(text: &str, needle: &str) -> bool {
    let (hay, needle) = (text.as_bytes(), needle.as_bytes());
    let Some(first) = needle.first() else {
        return true;
    };
    hay.windows(needle.len())
        .any(|w| w[0].eq_ignore_ascii_case(first) && w.eq_ignore_ascii_case(needle))
}

/// The value with the secrets the service echoes (AWS secret access keys) masked.
pub(super) fn mask(mut value: Value, fields: &[&str]) -> Value {
    crate::secrets::mask_secret_fields(&mut value, fields);
    value
}

/// Might this JSON text hold a secret field, or a known secret? A field name in any case, or
/// written with `\u` escapes, counts too; so does any text the known-secret check matches.
pub(super) fn may_hold_secret(text: &str, fields: &[&str]) -> bool {
    if text.contains("\\u") || crate::secrets::holds_known(text) {
        return true;
    }
    fields.iter().any(|f| contains_ignore_case(text, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_field_is_suspected_in_any_case_or_escaped() {
        let fields = ["secret_access_key"];
        assert!(may_hold_secret(r#"{"Secret_Access_Key":"x"}"#, &fields));
        assert!(may_hold_secret(r#"{"s\u0065cret":"x"}"#, &fields));
        assert!(!may_hold_secret(r#"{"id":"ipp_1"}"#, &fields));
        assert!(contains_ignore_case("anything", ""));
    }
}
