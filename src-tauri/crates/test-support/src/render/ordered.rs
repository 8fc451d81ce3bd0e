//! JSON that keeps its keys in the order written.
//!
//! `serde_json::Value` sorts object keys (the workspace does not enable
//! `preserve_order`, and enabling it would change every crate). The real services
//! put `type`/`id` first, and the mock aims to be byte-for-byte faithful, so the
//! renderers build their payloads with [`J`] and the [`obj!`] macro instead.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// An ordered JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum J {
    Null,
    /// Any leaf (string, number, bool) or an already-built `Value`.
    Leaf(Value),
    Array(Vec<J>),
    Object(Vec<(&'static str, J)>),
}

impl J {
    /// Append a key to an object (no-op on other kinds, which renderers never do).
    pub(crate) fn push(&mut self, key: &'static str, value: impl Into<J>) {
        if let J::Object(pairs) = self {
            pairs.push((key, value.into()));
        }
    }
}

impl std::fmt::Display for J {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Serialising strings, numbers and ordered maps to a String cannot fail.
        let text = serde_json::to_string(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for J {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            J::Null => serializer.serialize_unit(),
            J::Leaf(value) => value.serialize(serializer),
            J::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            J::Object(pairs) => {
                let mut map = serializer.serialize_map(Some(pairs.len()))?;
                for (key, value) in pairs {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl From<Value> for J {
    fn from(value: Value) -> Self {
        J::Leaf(value)
    }
}

impl From<&str> for J {
    fn from(s: &str) -> Self {
        J::Leaf(Value::String(s.to_owned()))
    }
}

impl From<String> for J {
    fn from(s: String) -> Self {
        J::Leaf(Value::String(s))
    }
}

impl From<&String> for J {
    fn from(s: &String) -> Self {
        J::from(s.as_str())
    }
}

impl From<u64> for J {
    fn from(n: u64) -> Self {
        J::Leaf(Value::from(n))
    }
}

impl From<u16> for J {
    fn from(n: u16) -> Self {
        J::Leaf(Value::from(n))
    }
}

impl From<usize> for J {
    fn from(n: usize) -> Self {
        J::Leaf(Value::from(n))
    }
}

impl From<bool> for J {
    fn from(b: bool) -> Self {
        J::Leaf(Value::Bool(b))
    }
}

impl From<Vec<J>> for J {
    fn from(items: Vec<J>) -> Self {
        J::Array(items)
    }
}

impl<T: Into<J>> From<Option<T>> for J {
    fn from(value: Option<T>) -> Self {
        value.map_or(J::Null, Into::into)
    }
}

/// `obj! { "key" => value, … }`: an ordered JSON object; values are `Into<J>`.
macro_rules! obj {
    ($($key:literal => $value:expr),* $(,)?) => {
        $crate::render::ordered::J::Object(vec![
            $(($key, $crate::render::ordered::J::from($value))),*
        ])
    };
}
pub(crate) use obj;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_insertion_order() {
        let mut value = obj! {
            "type" => "message_start",
            "b" => 2u64,
            "a" => vec![J::Null, J::from(true)],
            "none" => Option::<&str>::None,
        };
        value.push("nested", obj! {"z" => "1", "y" => "2"});
        assert_eq!(
            value.to_string(),
            r#"{"type":"message_start","b":2,"a":[null,true],"none":null,"nested":{"z":"1","y":"2"}}"#
        );
    }
}
