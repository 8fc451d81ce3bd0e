//! Turns provider failures (HTTP status + headers + body, or an error event inside the
//! stream) into a classified [`ProviderError`]. One classifier serves all three wire
//! formats because their error bodies overlap: `{"error":{"message","type","code"}}`
//! (OpenAI and compatibles), `{"type":"error","error":{"type","message"}}` (Anthropic) and
//! `{"error":{"code","message","status","details"}}` (Gemini, sometimes wrapped in `[...]`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::header::HeaderMap;
use serde_json::Value;

use crate::ProviderError;

/// Longest provider message kept in an error: HTML error pages from proxies can be huge.
const MAX_MESSAGE_CHARS: usize = 1000;

/// What we could read out of an error body.
#[derive(Debug, Default, PartialEq)]
struct ErrorBody {
    message: Option<String>,
    /// `error.type`, string `error.code`, `error.status` and Gemini's
    /// `error.details[].reason`, lowercased.
    tags: Vec<String>,
    /// Gemini puts the HTTP status in `error.code`; stream errors have no other status.
    numeric_code: Option<u16>,
    /// Gemini's `google.rpc.RetryInfo.retryDelay`.
    retry_delay: Option<Duration>,
}

/// Classifies an HTTP error response.
pub fn classify_http(status: u16, headers: &HeaderMap, body: &str) -> ProviderError {
    classify(
        Some(status),
        retry_after_from_headers(headers, SystemTime::now()),
        body,
    )
}

/// Classifies an error that arrived inside a 200 stream (an OpenAI `{"error":...}` chunk, an
/// Anthropic `error` event, a Gemini error chunk).
pub fn classify_stream_error(body: &str) -> ProviderError {
    classify(None, None, body)
}

/// The shared rules. `status` is None for in-stream errors; then the body's numeric code or
/// its error type decides.
pub fn classify(status: Option<u16>, header_delay: Option<Duration>, body: &str) -> ProviderError {
    let info = parse_error_body(body);
    let message = info
        .message
        .clone()
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| fallback_message(status, body));
    let message = truncate(&message);
    let retry_after = header_delay.or(info.retry_delay);
    let has_tag = |names: &[&str]| info.tags.iter().any(|t| names.contains(&t.as_str()));
    let status = status.or(info.numeric_code);

    // A quota that is used up will not come back by retrying in a few seconds.
    if has_tag(&["insufficient_quota"]) {
        return ProviderError::Fatal(message);
    }
    if status == Some(429)
        || has_tag(&[
            "rate_limit_error",
            "rate_limit_exceeded",
            "resource_exhausted",
        ])
    {
        return ProviderError::RateLimited {
            retry_after,
            message,
        };
    }
    // OpenAI signals overload only in the message ("The engine is currently overloaded").
    let says_overloaded = matches!(status, None | Some(500..=599))
        && message.to_ascii_lowercase().contains("overloaded");
    if matches!(status, Some(529 | 503))
        || has_tag(&["overloaded_error", "unavailable"])
        || says_overloaded
    {
        return ProviderError::Overloaded {
            retry_after,
            message,
        };
    }
    if matches!(status, None | Some(400 | 413))
        && (has_tag(&["context_length_exceeded"]) || mentions_context_overflow(&message))
    {
        return ProviderError::ContextOverflow(message);
    }
    if matches!(status, Some(401 | 403))
        || has_tag(&[
            "authentication_error",
            "permission_error",
            "invalid_api_key",
            "api_key_invalid",
            "unauthenticated",
            "permission_denied",
        ])
    {
        return ProviderError::Auth(message);
    }
    if matches!(status, Some(408 | 409 | 500..=599))
        || has_tag(&[
            "api_error",
            "server_error",
            "timeout_error",
            "internal",
            "deadline_exceeded",
        ])
    {
        return ProviderError::Transient(message);
    }
    ProviderError::Fatal(message)
}

fn mentions_context_overflow(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    [
        "context_length_exceeded",
        "prompt is too long",
        "maximum context length",
        "exceeds the maximum number of tokens",
        "exceeds the available context size",
        "context window",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
}

fn fallback_message(status: Option<u16>, body: &str) -> String {
    let trimmed = body.trim();
    match (status, trimmed.is_empty()) {
        (Some(status), true) => format!("HTTP {status}"),
        (Some(status), false) => format!("HTTP {status}: {trimmed}"),
        (None, true) => "unknown error".to_owned(),
        (None, false) => trimmed.to_owned(),
    }
}

fn truncate(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message.to_owned(),
    }
}

fn parse_error_body(body: &str) -> ErrorBody {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return ErrorBody::default();
    };
    // Gemini's non-SSE errors come as a one-element array.
    let value = match value {
        Value::Array(mut items) if !items.is_empty() => items.swap_remove(0),
        other => other,
    };
    let mut info = ErrorBody::default();
    let error = value.get("error").unwrap_or(&value);
    match error {
        // Ollama and some proxies: {"error": "model not found"}.
        Value::String(text) => info.message = Some(text.clone()),
        Value::Object(map) => {
            info.message = map
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| value.get("detail").and_then(Value::as_str))
                .map(str::to_owned);
            for key in ["type", "code", "status"] {
                match map.get(key) {
                    Some(Value::String(tag)) => info.tags.push(tag.to_ascii_lowercase()),
                    Some(Value::Number(code)) => {
                        info.numeric_code = code.as_u64().and_then(|c| u16::try_from(c).ok());
                    }
                    _ => {}
                }
            }
            let details = map.get("details").and_then(Value::as_array);
            let details = details.map(Vec::as_slice).unwrap_or_default();
            info.retry_delay = details
                .iter()
                .filter_map(|d| d.get("retryDelay").and_then(Value::as_str))
                .find_map(parse_duration_seconds_suffix);
            // `google.rpc.ErrorInfo.reason`: Gemini reports a bad key as 400
            // INVALID_ARGUMENT with reason API_KEY_INVALID.
            info.tags.extend(
                details
                    .iter()
                    .filter_map(|d| d.get("reason").and_then(Value::as_str))
                    .map(str::to_ascii_lowercase),
            );
        }
        _ => {}
    }
    info
}

/// Parses a protobuf-JSON duration such as `"30s"` or `"1.5s"`.
fn parse_duration_seconds_suffix(text: &str) -> Option<Duration> {
    parse_seconds(text.trim().strip_suffix('s')?)
}

fn parse_seconds(text: &str) -> Option<Duration> {
    let secs: f64 = text.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)))
}

/// `retry-after-ms` (OpenAI), then `retry-after` as seconds or as an HTTP date.
pub fn retry_after_from_headers(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = header("retry-after-ms").and_then(parse_seconds) {
        // parse_seconds read the number as seconds; it was milliseconds.
        return Some(ms / 1000);
    }
    let value = header("retry-after")?;
    parse_seconds(value).or_else(|| {
        let at = parse_http_date(value)?;
        Some(at.duration_since(now).unwrap_or(Duration::ZERO))
    })
}

/// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only HTTP date form
/// servers are allowed to send today.
fn parse_http_date(text: &str) -> Option<SystemTime> {
    let rest = text.trim();
    let rest = rest.split_once(", ").map_or(rest, |(_, r)| r);
    let mut parts = rest.split_ascii_whitespace();
    let day: u64 = parts.next()?.parse().ok()?;
    let month = match parts.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: i64 = parts.next()?.parse().ok()?;
    let mut hms = parts.next()?.split(':');
    let hour: u64 = hms.next()?.parse().ok()?;
    let minute: u64 = hms.next()?.parse().ok()?;
    let second: u64 = hms.next()?.parse().ok()?;
    // The header comes from the server: an absurd year must not overflow the arithmetic
    // below or `SystemTime` (whose addition panics on overflow).
    if parts.next()? != "GMT"
        || !(1..=31).contains(&day)
        || !(1970..=9999).contains(&year)
        || hour > 23
        || minute > 59
    {
        return None;
    }
    let days = days_from_civil(year, month, day as i64);
    let secs = u64::try_from(days).ok()? * 86_400 + hour * 3600 + minute * 60 + second.min(60);
    UNIX_EPOCH.checked_add(Duration::from_secs(secs))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn rate_limit_with_retry_after_seconds() {
        let err = classify_http(
            429,
            &headers(&[("retry-after", "7")]),
            r#"{"error":{"message":"Slow down","type":"requests","code":"rate_limit_exceeded"}}"#,
        );
        assert_eq!(
            err,
            ProviderError::RateLimited {
                retry_after: Some(Duration::from_secs(7)),
                message: "Slow down".into()
            }
        );
    }

    #[test]
    fn retry_after_ms_wins_and_http_date_is_understood() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37
        let h = headers(&[("retry-after-ms", "1500"), ("retry-after", "9")]);
        assert_eq!(
            retry_after_from_headers(&h, now),
            Some(Duration::from_millis(1500))
        );
        let h = headers(&[("retry-after", "Sun, 06 Nov 1994 08:50:07 GMT")]);
        assert_eq!(
            retry_after_from_headers(&h, now),
            Some(Duration::from_secs(30))
        );
        let h = headers(&[("retry-after", "Sun, 06 Nov 1994 08:00:00 GMT")]);
        assert_eq!(retry_after_from_headers(&h, now), Some(Duration::ZERO));
        let h = headers(&[("retry-after", "soon")]);
        assert_eq!(retry_after_from_headers(&h, now), None);
    }

    #[test]
    fn hostile_retry_after_dates_do_not_panic() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777);
        for date in [
            "Sun, 06 Nov 300000000000 08:49:37 GMT",
            "Sun, 06 Nov 9223372036854775807 08:49:37 GMT",
            "Sun, 06 Nov -9223372036854775808 08:49:37 GMT",
            "Sun, 06 Nov 10000 08:49:37 GMT",
        ] {
            let h = headers(&[("retry-after", date)]);
            assert_eq!(retry_after_from_headers(&h, now), None, "{date}");
        }
        // The largest year still accepted is honoured (and capped later by the policy).
        let h = headers(&[("retry-after", "Fri, 31 Dec 9999 23:59:59 GMT")]);
        assert!(retry_after_from_headers(&h, now).is_some());
    }

    #[test]
    fn gemini_retry_delay_from_details() {
        let body = r#"[{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED",
            "details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure"},
                       {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"30s"}]}}]"#;
        assert_eq!(
            classify_http(429, &HeaderMap::new(), body),
            ProviderError::RateLimited {
                retry_after: Some(Duration::from_secs(30)),
                message: "Quota exceeded".into()
            }
        );
        // The same body inside a stream (no HTTP status) classifies the same way.
        assert!(matches!(
            classify_stream_error(body),
            ProviderError::RateLimited { .. }
        ));
    }

    #[test]
    fn overloaded_variants() {
        let anthropic =
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        for (status, body) in [(529, anthropic), (503, "busy"), (500, anthropic)] {
            assert!(
                matches!(
                    classify_http(status, &HeaderMap::new(), body),
                    ProviderError::Overloaded { .. }
                ),
                "{status} {body}"
            );
        }
        assert!(matches!(
            classify_stream_error(anthropic),
            ProviderError::Overloaded { .. }
        ));
        let openai = r#"{"error":{"message":"The engine is currently overloaded, please try again later.","type":"server_error"}}"#;
        assert!(matches!(
            classify_stream_error(openai),
            ProviderError::Overloaded { .. }
        ));
    }

    #[test]
    fn context_overflow_messages() {
        let cases = [
            r#"{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
            r#"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
        ];
        for body in cases {
            assert!(
                matches!(
                    classify_http(400, &HeaderMap::new(), body),
                    ProviderError::ContextOverflow(_)
                ),
                "{body}"
            );
        }
        assert!(matches!(
            classify_http(413, &HeaderMap::new(), "prompt is too long"),
            ProviderError::ContextOverflow(_)
        ));
        // A plain bad request stays fatal, with the provider's message.
        assert_eq!(
            classify_http(
                400,
                &HeaderMap::new(),
                r#"{"error":{"message":"Unknown parameter: foo"}}"#
            ),
            ProviderError::Fatal("Unknown parameter: foo".into())
        );
    }

    #[test]
    fn auth_transient_and_fatal() {
        let none = HeaderMap::new();
        assert!(matches!(
            classify_http(401, &none, "{}"),
            ProviderError::Auth(_)
        ));
        assert!(matches!(
            classify_http(403, &none, ""),
            ProviderError::Auth(_)
        ));
        for status in [408, 409, 500, 502, 504] {
            assert!(matches!(
                classify_http(status, &none, ""),
                ProviderError::Transient(_)
            ));
        }
        assert_eq!(
            classify_http(404, &none, r#"{"error":"model 'x' not found"}"#),
            ProviderError::Fatal("model 'x' not found".into())
        );
        assert_eq!(
            classify_http(418, &none, ""),
            ProviderError::Fatal("HTTP 418".into())
        );
    }

    #[test]
    fn gemini_invalid_key_is_auth_despite_status_400() {
        // Gemini answers a bad key with 400 INVALID_ARGUMENT; only the ErrorInfo reason
        // tells it apart from a bad request.
        let body = r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",
            "status":"INVALID_ARGUMENT","details":[
              {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID",
               "domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}},
              {"@type":"type.googleapis.com/google.rpc.LocalizedMessage","locale":"en-US",
               "message":"API key not valid. Please pass a valid API key."}]}}"#;
        assert_eq!(
            classify_http(400, &HeaderMap::new(), body),
            ProviderError::Auth("API key not valid. Please pass a valid API key.".into())
        );
        assert!(matches!(
            classify_stream_error(body),
            ProviderError::Auth(_)
        ));
    }

    #[test]
    fn used_up_quota_is_not_retried() {
        let body = r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#;
        assert!(matches!(
            classify_http(429, &HeaderMap::new(), body),
            ProviderError::Fatal(_)
        ));
    }

    #[test]
    fn stream_errors_by_type() {
        assert!(matches!(
            classify_stream_error(
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"x"}}"#
            ),
            ProviderError::RateLimited { .. }
        ));
        assert!(matches!(
            classify_stream_error(r#"{"error":{"message":"oops","type":"server_error"}}"#),
            ProviderError::Transient(_)
        ));
        assert!(matches!(
            classify_stream_error(r#"{"type":"error","error":{"type":"api_error","message":"x"}}"#),
            ProviderError::Transient(_)
        ));
    }

    #[test]
    fn long_bodies_are_truncated() {
        let body = "x".repeat(5000);
        let ProviderError::Fatal(message) = classify_http(400, &HeaderMap::new(), &body) else {
            panic!("expected fatal");
        };
        assert!(message.chars().count() < 1100);
    }
}
