//! Ids of captured requests: `airt_` and a KSUID, like the real agent's
//! (`airt_3MQyB5UWxi6ObKrf63sbrno1uWl`).
//!
//! A KSUID is 20 bytes, a timestamp (seconds since 2014-05-13) and 16 bytes of payload, in
//! base62 (27 characters, ASCII order = numeric order). The real agent's payload is random, so
//! captures made in the same second sort randomly; here the payload starts with a counter, so
//! "newest first" (id descending) is exact and tests can rely on it.

use std::sync::Mutex;

use rand::Rng;

use crate::sync::lock;

const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// The KSUID epoch (2014-05-13T16:53:20Z) in Unix seconds.
const EPOCH: u64 = 1_400_000_000;

/// Hands out increasing capture ids.
#[derive(Debug)]
pub struct KsuidGen {
    state: Mutex<(u32, u64)>,
}

impl Default for KsuidGen {
    fn default() -> Self {
        // Start the counter at a random point, so ids of separate runs differ.
        let start: u64 = rand::rng().random::<u64>() >> 2;
        KsuidGen {
            state: Mutex::new((0, start)),
        }
    }
}

impl KsuidGen {
    /// The next id, `airt_` + 27 base62 characters, greater than every earlier one.
    pub fn next(&self) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(EPOCH);
        let ts = u32::try_from(now.saturating_sub(EPOCH)).unwrap_or(u32::MAX);
        let (ts, counter) = {
            let mut s = lock(&self.state);
            // Never go back in time, even if the clock does.
            s.0 = s.0.max(ts);
            s.1 = s.1.wrapping_add(1);
            *s
        };
        let random: u64 = rand::rng().random();
        let mut bytes = [0u8; 20];
        bytes[..4].copy_from_slice(&ts.to_be_bytes());
        bytes[4..12].copy_from_slice(&counter.to_be_bytes());
        bytes[12..].copy_from_slice(&random.to_be_bytes());
        format!("airt_{}", base62(bytes))
    }
}

/// A 160-bit big-endian number in 27 base62 digits.
fn base62(bytes: [u8; 20]) -> String {
    // Five 32-bit limbs, most significant first; long division by 62.
    let mut limbs = [0u32; 5];
    for (i, limb) in limbs.iter_mut().enumerate() {
        let mut word = [0u8; 4];
        word.copy_from_slice(&bytes[i * 4..i * 4 + 4]);
        *limb = u32::from_be_bytes(word);
    }
    let mut digits = [b'0'; 27];
    for slot in digits.iter_mut().rev() {
        let mut rem: u64 = 0;
        for limb in &mut limbs {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = u32::try_from(cur / 62).unwrap_or(u32::MAX);
            rem = cur % 62;
        }
        *slot = ALPHABET[usize::try_from(rem).unwrap_or(0)];
    }
    digits.iter().map(|&b| b as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_increase_and_look_like_the_agents() {
        let g = KsuidGen::default();
        let mut prev = g.next();
        assert_eq!(prev.len(), 5 + 27);
        assert!(prev.starts_with("airt_3"), "{prev}");
        for _ in 0..1000 {
            let id = g.next();
            assert!(id > prev);
            prev = id;
        }
    }

    #[test]
    fn base62_of_max_fits() {
        assert_eq!(base62([0xff; 20]), "aWgEPTl1tmebfsQzFP4bxwgy80V");
        assert_eq!(base62([0; 20]), "000000000000000000000000000");
    }
}
