//! Retry delays. The turn loop owns the retrying (it must tell the user when streamed
//! deltas are discarded); this only decides whether and how long to wait.

use std::time::Duration;

use crate::ProviderError;

/// Exponential backoff with jitter that defers to the server's `retry-after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts including the first one.
    pub max_attempts: u32,
    /// Delay before the first retry, before jitter.
    pub base_delay: Duration,
    /// Cap of the computed backoff.
    pub max_delay: Duration,
    /// Cap of a server-requested delay: a server asking for an hour (a daily quota) should
    /// not freeze the session; the retry then fails again and surfaces the error.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 5,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The delay before the next attempt after attempt number `attempt` (1-based) failed
    /// with `err`, or None when the error is not retryable or the attempts are used up.
    pub fn delay(&self, attempt: u32, err: &ProviderError) -> Option<Duration> {
        self.delay_with_jitter(attempt, err, rand::random::<f64>())
    }

    /// [`RetryPolicy::delay`] with the random factor supplied (in `[0, 1)`), for tests.
    pub fn delay_with_jitter(
        &self,
        attempt: u32,
        err: &ProviderError,
        jitter: f64,
    ) -> Option<Duration> {
        if !err.is_retryable() || attempt >= self.max_attempts {
            return None;
        }
        if let Some(requested) = err.retry_after() {
            // The server knows when capacity returns; jitter would only make us early or
            // needlessly late.
            return Some(requested.min(self.max_retry_after));
        }
        let exponent = attempt.saturating_sub(1).min(30);
        let backoff = self
            .base_delay
            .saturating_mul(1u32 << exponent)
            .min(self.max_delay);
        // "Equal jitter": at least half the backoff, so clients that failed together
        // spread out without any of them retrying almost immediately.
        let jitter = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some(backoff.mul_f64(0.5 + 0.5 * jitter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transient() -> ProviderError {
        ProviderError::Transient("reset".into())
    }

    #[test]
    fn exponential_with_jitter_bounds() {
        let policy = RetryPolicy::default();
        let at = |attempt, jitter| policy.delay_with_jitter(attempt, &transient(), jitter);
        assert_eq!(at(1, 0.0), Some(Duration::from_millis(250)));
        assert_eq!(at(1, 1.0), Some(Duration::from_millis(500)));
        assert_eq!(at(2, 1.0), Some(Duration::from_millis(1000)));
        assert_eq!(at(3, 0.5), Some(Duration::from_millis(1500)));
        assert_eq!(at(4, 1.0), Some(Duration::from_millis(4000)));
        assert_eq!(at(5, 1.0), None, "five attempts used up");
    }

    #[test]
    fn backoff_is_capped() {
        let policy = RetryPolicy {
            max_attempts: 100,
            ..RetryPolicy::default()
        };
        assert_eq!(
            policy.delay_with_jitter(40, &transient(), 1.0),
            Some(Duration::from_secs(30))
        );
    }

    #[test]
    fn server_retry_after_is_honoured_and_capped() {
        let policy = RetryPolicy::default();
        let limited = |secs| ProviderError::RateLimited {
            retry_after: Some(Duration::from_secs(secs)),
            message: String::new(),
        };
        assert_eq!(
            policy.delay_with_jitter(1, &limited(7), 0.9),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            policy.delay_with_jitter(1, &limited(3600), 0.9),
            Some(Duration::from_secs(60))
        );
        let overloaded = ProviderError::Overloaded {
            retry_after: None,
            message: String::new(),
        };
        assert_eq!(
            policy.delay_with_jitter(2, &overloaded, 0.0),
            Some(Duration::from_millis(500))
        );
    }

    #[test]
    fn non_retryable_errors() {
        let policy = RetryPolicy::default();
        for err in [
            ProviderError::Auth("bad key".into()),
            ProviderError::ContextOverflow("too long".into()),
            ProviderError::Fatal("bad request".into()),
        ] {
            assert_eq!(policy.delay_with_jitter(1, &err, 0.5), None);
        }
        assert!(policy
            .delay_with_jitter(1, &ProviderError::StreamInterrupted("cut".into()), 0.5)
            .is_some());
    }

    #[test]
    fn random_jitter_stays_in_range() {
        let policy = RetryPolicy::default();
        for _ in 0..100 {
            let Some(d) = policy.delay(2, &transient()) else {
                panic!("retryable");
            };
            assert!(d >= Duration::from_millis(500) && d <= Duration::from_millis(1000));
        }
    }
}
