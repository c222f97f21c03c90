//! What a signed request claims, in the one shape every scheme reads its headers into, so that
//! checking the signature and its age is written once (in `mod.rs`) for all of them.

/// A request's signature as its headers state it.
pub(super) struct Claim {
    /// The bytes the provider signs (the body, or the body with a timestamp and an id).
    pub message: Vec<u8>,
    /// The signatures given; one matching is enough (providers send several while a secret
    /// is being rotated).
    pub tags: Vec<Vec<u8>>,
    /// The signed timestamp (Unix seconds), for schemes that sign one.
    pub timestamp: Option<i64>,
}

/// `a.b.c` as bytes: the timestamped schemes sign their parts joined by a separator.
pub(super) fn joined(parts: &[&[u8]], separator: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push(separator);
        }
        out.extend_from_slice(part);
    }
    out
}

/// A Unix timestamp written as decimal digits (no sign, no fraction, as the providers send
/// it); `None` for anything else, including a number too large to be a date.
pub(super) fn timestamp(text: &str) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_plain_digits() {
        assert_eq!(timestamp("1700000000"), Some(1_700_000_000));
        for bad in ["", "-1", "+1", "1.5", " 1", "99999999999999999999999"] {
            assert_eq!(timestamp(bad), None, "{bad}");
        }
        assert_eq!(joined(&[b"a", b"", b"c"], b'.'), b"a..c");
    }
}
