//! Phrases worded in English, from the catalog the desktop renders too.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Phrase;

/// The English catalog the desktop renders too: one source for both.
pub(super) const ENGLISH: &str = include_str!("../../../../../ui/src/i18n/locales/en/phrases.json");

/// Between the parts of a list of phrases (an approval's reasons), in English.
const LIST_SEPARATOR: &str = "; ";

impl Phrase {
    /// The sentence in English, from the catalog the desktop uses.
    pub fn english(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        word(&value, english_catalog())
    }

    /// Several phrases as one English line, as an approval's `reason`.
    pub fn english_list(phrases: &[Phrase]) -> String {
        phrases
            .iter()
            .map(Phrase::english)
            .collect::<Vec<_>>()
            .join(LIST_SEPARATOR)
    }
}

impl std::fmt::Display for Phrase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.english())
    }
}

pub(super) fn english_catalog() -> &'static HashMap<String, String> {
    static CATALOG: OnceLock<HashMap<String, String>> = OnceLock::new();
    // A catalog that does not parse fails `every_phrase_has_its_english` below; at run
    // time the codes themselves are shown rather than nothing.
    CATALOG.get_or_init(|| serde_json::from_str(ENGLISH).unwrap_or_default())
}

/// Words a serialized phrase: its entry (plural by `count`), placeholders filled, nested
/// phrases worded first.
fn word(value: &serde_json::Value, catalog: &HashMap<String, String>) -> String {
    use serde_json::Value;
    let Some(fields) = value.as_object() else {
        return String::new();
    };
    let code = fields
        .get("code")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let count = fields.get("count").and_then(Value::as_u64);
    let key = match count {
        Some(1) => format!("{code}_one"),
        Some(_) => format!("{code}_other"),
        None => code.to_owned(),
    };
    let Some(template) = catalog.get(&key).or_else(|| catalog.get(code)) else {
        return code.to_owned();
    };
    let mut out = String::with_capacity(template.len());
    let mut rest = template.as_str();
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let name = after[..end].trim();
        out.push_str(&field_text(fields.get(name), catalog));
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

fn field_text(value: Option<&serde_json::Value>, catalog: &HashMap<String, String>) -> String {
    use serde_json::Value;
    match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(object @ Value::Object(_)) => word(object, catalog),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| field_text(Some(item), catalog))
            .collect::<Vec<_>>()
            .join(LIST_SEPARATOR),
        Some(Value::Null) | None => String::new(),
    }
}
