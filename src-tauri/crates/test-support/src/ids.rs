//! Provider-looking identifiers (`chatcmpl-…`, `call_…`, `msg_…`, `toolu_…`).
//!
//! They only need to be unique within a test run and shaped like the real ones, so a
//! process-wide counter mixed with the start time is enough; no RNG dependency.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// splitmix64: cheap, well-distributed bits from a sequential seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `prefix` followed by `len` alphanumeric characters, unique per call in this process.
pub(crate) fn new_id(prefix: &str, len: usize) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut state = mix(COUNTER.fetch_add(1, Ordering::Relaxed) ^ nanos.rotate_left(17));
    let mut id = String::with_capacity(prefix.len() + len);
    id.push_str(prefix);
    for _ in 0..len {
        state = mix(state);
        id.push(ALPHABET[(state % ALPHABET.len() as u64) as usize] as char);
    }
    id
}

/// Seconds since the Unix epoch, for OpenAI's `created` field.
pub(crate) fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_prefix_length_and_are_unique() {
        let a = new_id("call_", 24);
        let b = new_id("call_", 24);
        assert!(a.starts_with("call_"));
        assert_eq!(a.len(), 5 + 24);
        assert_ne!(a, b);
        assert!(a[5..].chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
