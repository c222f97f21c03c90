//! The secrets this process holds (the API key, AWS secret access keys) and how they are kept
//! out of everything shown to the user.
//!
//! - **Known secrets.** Every secret the program learns is registered here, and
//!   [`redact_known`] replaces each one in any text shown to the user: a server that echoes
//!   the key in an error message, a response header or a body cannot make us print it. The
//!   escaper of server text applies it to every server string (it depends on this module, not
//!   the other way round).
//! - **Secret fields.** [`mask_secret_fields`] hides the values of fields that hold secrets,
//!   named in [`SECRET_FIELDS`] (the renderers, which know no resource, mask them too).
//!
//! A leaf: it depends on nothing else in the program.

use std::borrow::Cow;
use std::sync::RwLock;

use serde_json::Value;

/// The names of the fields of any resource that hold secrets (an event destination's AWS
/// secret access key): masked wherever a resource is shown or traced.
pub const SECRET_FIELDS: &[&str] = &["aws_secret_access_key"];

/// Secrets shorter than this are not registered: replacing two or three characters wherever
/// they appear would mangle ordinary text, and no real key is that short.
const MIN_SECRET_LEN: usize = 8;

static KNOWN: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Remembers a secret so that [`redact_known`] hides it from every text shown to the user.
pub fn register_secret(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    // A poisoned lock only means another thread panicked while pushing: the list is intact.
    let mut known = KNOWN.write().unwrap_or_else(|e| e.into_inner());
    if !known.iter().any(|k| k == secret) {
        known.push(secret.to_string());
    }
}

/// Does `text` hold a registered secret?
pub fn holds_known(text: &str) -> bool {
    // No secret fits in a shorter text: a table's short cells are checked without the lock.
    if text.len() < MIN_SECRET_LEN {
        return false;
    }
    let known = KNOWN.read().unwrap_or_else(|e| e.into_inner());
    known.iter().any(|k| text.contains(k.as_str()))
}

/// `text` with every registered secret replaced by its redacted form (`abcd…(redacted)`).
pub fn redact_known(text: &str) -> Cow<'_, str> {
    let known = KNOWN.read().unwrap_or_else(|e| e.into_inner());
    if !known.iter().any(|k| text.contains(k.as_str())) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for k in known.iter() {
        if out.contains(k.as_str()) {
            out = out.replace(k.as_str(), &redact(k));
        }
    }
    Cow::Owned(out)
}

/// `bytes` with every registered secret replaced by its redacted form, as [`redact_known`]
/// does for text (captured traffic shown raw on a terminal need not be UTF-8).
pub fn redact_known_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    let known = KNOWN.read().unwrap_or_else(|e| e.into_inner());
    let holds = |hay: &[u8], k: &str| hay.windows(k.len()).position(|w| w == k.as_bytes());
    if !known.iter().any(|k| holds(bytes, k).is_some()) {
        return Cow::Borrowed(bytes);
    }
    let mut out = bytes.to_vec();
    for k in known.iter() {
        while let Some(at) = holds(&out, k) {
            out.splice(at..at + k.len(), redact(k).into_bytes());
        }
    }
    Cow::Owned(out)
}

/// Shows that a secret is set without showing it: the first four characters of a long key,
/// nothing of a short one.
pub fn redact(secret: &str) -> String {
    if secret.chars().count() >= 20 {
        let head: String = secret.chars().take(4).collect();
        format!("{head}…(redacted)")
    } else {
        "…(redacted)".to_string()
    }
}

/// Is this the name of a field that holds a secret, whatever the case the server writes the
/// name in?
fn is_secret_field(name: &str, fields: &[&str]) -> bool {
    fields.iter().any(|f| name.eq_ignore_ascii_case(f))
}

/// Hides secrets wherever they are in a JSON value: the values of the fields named in
/// `fields` become `…(redacted)`, and any secret this process knows (the API key, an AWS
/// secret it read) is redacted inside every string, as in the rest of the output.
pub fn mask_secret_fields(v: &mut Value, fields: &[&str]) {
    match v {
        Value::Object(map) => {
            for (k, val) in map.iter_mut() {
                if is_secret_field(k, fields) && !val.is_null() {
                    *val = Value::String("…(redacted)".into());
                } else {
                    mask_secret_fields(val, fields);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| mask_secret_fields(i, fields)),
        Value::String(text) if holds_known(text) => {
            *text = redact_known(text).into_owned();
        }
        _ => {}
    }
}

/// Is `name` one of `fields` (a secret field), whatever its case?
pub fn is_secret(name: &str, fields: &[&str]) -> bool {
    is_secret_field(name, fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_are_redacted_and_short_ones_ignored() {
        register_secret("sk_unit_0123456789abcdefghij");
        register_secret("short");
        assert_eq!(
            redact_known("bad key Bearer sk_unit_0123456789abcdefghij!"),
            "bad key Bearer sk_u…(redacted)!"
        );
        assert!(holds_known("x sk_unit_0123456789abcdefghij"));
        assert_eq!(redact_known("a short text"), "a short text");
        assert_eq!(
            &*redact_known_bytes(b"\xff sk_unit_0123456789abcdefghij sk_unit_0123456789abcdefghij"),
            &b"\xff sk_u\xe2\x80\xa6(redacted) sk_u\xe2\x80\xa6(redacted)"[..]
        );
    }

    #[test]
    fn short_keys_show_nothing() {
        assert_eq!(redact("abc"), "…(redacted)");
        assert_eq!(redact("abcdefghijklmnopqrstuvwxyz"), "abcd…(redacted)");
    }
}
