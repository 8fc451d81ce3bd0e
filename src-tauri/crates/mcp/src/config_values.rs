//! Typed reads of one server's keys, for TOML and JSON alike (both go through
//! `serde_json::Value`), remembering which keys were read so unknown ones can be reported.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde_json::Value;

/// A bad value; `key` is relative to the server's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ValueError {
    pub key: Option<String>,
    pub message: String,
}

impl ValueError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            key: None,
            message: message.into(),
        }
    }

    pub fn at(key: &str, message: impl Into<String>) -> Self {
        Self {
            key: Some(key.to_owned()),
            message: message.into(),
        }
    }
}

pub(crate) struct Fields<'a> {
    map: &'a serde_json::Map<String, Value>,
    read: BTreeSet<&'static str>,
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "a table",
    }
}

impl<'a> Fields<'a> {
    pub fn new(value: &'a Value) -> Result<Self, ValueError> {
        match value {
            Value::Object(map) => Ok(Self {
                map,
                read: BTreeSet::new(),
            }),
            other => Err(ValueError::new(format!(
                "expected a table, got {}",
                type_name(other)
            ))),
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.read.insert(key);
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.get(key).is_some_and(|v| !v.is_null())
    }

    pub fn string(&mut self, key: &'static str) -> Result<Option<String>, ValueError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(ValueError::at(
                key,
                format!("expected a string, got {}", type_name(other)),
            )),
        }
    }

    pub fn bool(&mut self, key: &'static str) -> Result<Option<bool>, ValueError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(ValueError::at(
                key,
                format!("expected true or false, got {}", type_name(other)),
            )),
        }
    }

    pub fn strings(&mut self, key: &'static str) -> Result<Option<Vec<String>>, ValueError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    // Numbers in args (ports...) are common in hand-written JSON.
                    Value::Number(n) => Ok(n.to_string()),
                    other => Err(ValueError::at(
                        key,
                        format!("expected strings, found {}", type_name(other)),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err(ValueError::at(
                key,
                format!("expected an array of strings, got {}", type_name(other)),
            )),
        }
    }

    pub fn string_map(
        &mut self,
        key: &'static str,
    ) -> Result<Option<BTreeMap<String, String>>, ValueError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Object(map)) => map
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    Value::Number(n) => Ok((k.clone(), n.to_string())),
                    Value::Bool(b) => Ok((k.clone(), b.to_string())),
                    other => Err(ValueError::at(
                        &format!("{key}.{k}"),
                        format!("expected a string, got {}", type_name(other)),
                    )),
                })
                .collect::<Result<BTreeMap<_, _>, _>>()
                .map(Some),
            Some(other) => Err(ValueError::at(
                key,
                format!("expected a table of strings, got {}", type_name(other)),
            )),
        }
    }

    pub fn table(&mut self, key: &'static str) -> Result<Option<&'a Value>, ValueError> {
        match self.get(key) {
            None => Ok(None),
            Some(v @ Value::Object(_)) => Ok(Some(v)),
            Some(other) => Err(ValueError::at(
                key,
                format!("expected a table, got {}", type_name(other)),
            )),
        }
    }

    pub fn port(&mut self, key: &'static str) -> Result<Option<u16>, ValueError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .and_then(|n| u16::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| ValueError::at(key, format!("expected a port number, got {n}"))),
            Some(other) => Err(ValueError::at(
                key,
                format!("expected a port number, got {}", type_name(other)),
            )),
        }
    }

    /// The first of `keys` present, as a duration; each key comes with its unit in ms.
    pub fn duration(
        &mut self,
        keys: &[(&'static str, f64)],
    ) -> Result<Option<Duration>, ValueError> {
        for (key, ms_per_unit) in keys {
            match self.get(key) {
                None => continue,
                Some(Value::Number(n)) => {
                    let ms = n.as_f64().unwrap_or(-1.0) * ms_per_unit;
                    if !(ms > 0.0 && ms.is_finite()) {
                        return Err(ValueError::at(
                            key,
                            format!("expected a positive number, got {n}"),
                        ));
                    }
                    // Read the rest so they are not reported as unknown.
                    for (other, _) in keys {
                        self.read.insert(other);
                    }
                    return Ok(Some(Duration::from_secs_f64(ms / 1000.0)));
                }
                Some(other) => {
                    return Err(ValueError::at(
                        key,
                        format!("expected a number, got {}", type_name(other)),
                    ))
                }
            }
        }
        Ok(None)
    }

    /// Keys present that nothing read.
    pub fn unknown(&self) -> Vec<String> {
        self.map
            .keys()
            .filter(|k| !self.read.contains(k.as_str()))
            .cloned()
            .collect()
    }

    /// Marks keys as understood without reading them (other agents' settings we ignore).
    pub fn ignore(&mut self, keys: &[&'static str]) {
        self.read.extend(keys.iter().copied());
    }
}
