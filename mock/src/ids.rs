//! Resource identifiers shaped like the service's: a type prefix and 27 base62 characters.
//!
//! The first 16 characters encode a counter that only grows, in an alphabet whose ASCII order
//! is its numeric order, so "newest first" is simply "id descending" and `before_id` paging is
//! a range query on the sorted map. The last 11 characters are random so that ids do not look
//! sequential and clients cannot come to rely on guessing them.

use rand::Rng;

/// Base62 digits in ASCII order, so that string order equals numeric order.
const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ORDERED_LEN: usize = 16;
const RANDOM_LEN: usize = 27 - ORDERED_LEN;

/// Hands out increasing identifiers; one per store so ordering holds across collections.
#[derive(Debug)]
pub struct IdGen {
    next: u128,
}

impl IdGen {
    /// Starts at the current time so that ids of different runs look different.
    pub fn new() -> Self {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        // 62^16 is about 2^95.3: seconds (under 2^33) shifted by 60 bits always fit, which
        // leaves room for 2^60 ids.
        let low: u64 = rand::rng().random::<u64>() >> 8;
        IdGen {
            next: (u128::from(secs) << 60) | u128::from(low),
        }
    }

    /// The next identifier with this prefix (e.g. `ipp_`).
    pub fn next(&mut self, prefix: &str) -> String {
        let n = self.next;
        self.next += 1;
        let mut out = String::with_capacity(prefix.len() + 27);
        out.push_str(prefix);
        let mut digits = [b'0'; ORDERED_LEN];
        let mut rest = n;
        for slot in digits.iter_mut().rev() {
            *slot = ALPHABET[(rest % 62) as usize];
            rest /= 62;
        }
        out.extend(digits.iter().map(|&b| b as char));
        out.push_str(&random(RANDOM_LEN));
        out
    }
}

/// A random base62 string, for identifiers whose order does not matter (operation ids).
pub fn random(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_increase_and_have_the_right_shape() {
        let mut g = IdGen::new();
        let mut prev = g.next("ipp_");
        for _ in 0..1000 {
            let id = g.next("ipp_");
            assert!(id > prev, "{id} should sort after {prev}");
            assert_eq!(id.len(), 4 + 27);
            assert!(id[4..].bytes().all(|b| b.is_ascii_alphanumeric()));
            prev = id;
        }
    }
}
