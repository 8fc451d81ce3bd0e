//! Readers of single config values: each checks one TOML value's type and range and, when
//! it is wrong, records an error at the value's own line instead of failing the whole file.

use toml::Value;

use crate::error::ConfigError;
use crate::source::{KeyPath, Source};

pub(crate) fn found(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        Value::Integer(i) => i.to_string(),
        Value::Boolean(b) => b.to_string(),
        other => other.type_str().to_owned(),
    }
}

pub(crate) fn string(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        other => {
            errors.push(src.error(at, format!("expected a string, found {}", other.type_str())));
            None
        }
    }
}

pub(crate) fn percent(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Option<u8> {
    let parsed = match value {
        Value::Integer(i) => u8::try_from(*i).ok().filter(|p| (1..=100).contains(p)),
        _ => None,
    };
    if parsed.is_none() {
        errors.push(src.error(
            at,
            format!("expected an integer from 1 to 100, found {}", found(value)),
        ));
    }
    parsed
}

pub(crate) fn boolean(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Option<bool> {
    match value {
        Value::Boolean(b) => Some(*b),
        other => {
            errors.push(src.error(
                at,
                format!("expected true or false, found {}", found(other)),
            ));
            None
        }
    }
}

pub(crate) fn positive(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Option<u64> {
    let parsed = match value {
        Value::Integer(i) => u64::try_from(*i).ok().filter(|n| *n > 0),
        _ => None,
    };
    if parsed.is_none() {
        errors.push(src.error(
            at,
            format!("expected a positive integer, found {}", found(value)),
        ));
    }
    parsed
}

/// A price: a finite, non-negative number (integers allowed).
pub(crate) fn price(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Option<f64> {
    let parsed = match value {
        Value::Float(f) => Some(*f),
        Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
    .filter(|p| p.is_finite() && *p >= 0.0);
    if parsed.is_none() {
        errors.push(src.error(
            at,
            format!(
                "expected a price in USD per million tokens (a number >= 0), found {}",
                found(value)
            ),
        ));
    }
    parsed
}
