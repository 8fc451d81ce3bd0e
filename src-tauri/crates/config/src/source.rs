//! Where things are in config.toml: key paths, byte spans, and line/column numbers.
//!
//! Validation works on the owned `toml::Value` tree (pleasant to query) and asks this module
//! for the span of the offending key by its path, looked up in toml's span-preserving
//! `DeTable` parse of the same text. Keeping the two apart means the checks never have to
//! thread spans around.

use std::fmt;
use std::ops::Range;
use std::path::Path;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::error::ConfigError;

/// One step of a key path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// A key path such as `providers.deepseek[0].api`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KeyPath(Vec<Seg>);

impl KeyPath {
    pub(crate) fn root() -> Self {
        Self(Vec::new())
    }

    pub(crate) fn key(&self, key: &str) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key.to_owned()));
        Self(segs)
    }

    pub(crate) fn index(&self, index: usize) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Index(index));
        Self(segs)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write_key(f, key)?;
                }
                Seg::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// Writes a key the way it would be written in TOML: bare when possible, quoted otherwise
/// (`model_profiles."deepseek:deepseek-chat"`), so the user can search the file for it.
fn write_key(f: &mut fmt::Formatter<'_>, key: &str) -> fmt::Result {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        f.write_str(key)
    } else {
        write!(f, "{key:?}")
    }
}

/// The text of config.toml together with its span-preserving parse.
pub(crate) struct Source<'a> {
    pub(crate) path: &'a Path,
    text: &'a str,
    root: Spanned<DeTable<'a>>,
}

impl<'a> Source<'a> {
    /// Parses the text; a syntax error becomes [`ConfigError::Invalid`] with the position
    /// and, when the parser got far enough to know it, the key being defined.
    pub(crate) fn parse(path: &'a Path, text: &'a str) -> Result<Self, ConfigError> {
        let (root, errors) = DeTable::parse_recoverable(text);
        if let Some(first) = errors
            .iter()
            .min_by_key(|e| e.span().map(|s| s.start).unwrap_or(usize::MAX))
        {
            let span = first.span().unwrap_or(0..0);
            let src = Source { path, text, root };
            let key = src.path_at(&span);
            return Err(src.error_at(span, key, format!("invalid TOML: {}", first.message())));
        }
        Ok(Source { path, text, root })
    }

    /// The span of the value at `path` (for tables defined by a header, the header).
    /// Falls back to the nearest ancestor that has one, then to the start of the file.
    pub(crate) fn span_of(&self, path: &KeyPath) -> Range<usize> {
        let mut span = 0..0;
        // `None` stands for the root table, which has no DeValue of its own.
        let mut current: Option<&DeValue<'_>> = None;
        for seg in &path.0 {
            let next = match seg {
                Seg::Key(key) => {
                    let table = match current {
                        None => Some(self.root.get_ref()),
                        Some(value) => value.as_table(),
                    };
                    table.and_then(|t| {
                        t.iter()
                            .find(|(k, _)| k.get_ref().as_ref() == key.as_str())
                            .map(|(_, v)| v)
                    })
                }
                Seg::Index(i) => match current {
                    Some(DeValue::Array(items)) => items.get(*i),
                    _ => None,
                },
            };
            let Some(next) = next else { break };
            span = next.span();
            current = Some(next.get_ref());
        }
        span
    }

    /// The deepest key path whose key or value span contains `span` (used to name the key
    /// in syntax errors).
    fn path_at(&self, span: &Range<usize>) -> Option<KeyPath> {
        let mut found = None;
        visit_table(self.root.get_ref(), &KeyPath::root(), span, &mut found);
        found
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        // Spans always fall on char boundaries, but a bogus one must not panic.
        let before = self.text.get(..offset).unwrap_or(self.text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let column = before[line_start..].chars().count() + 1;
        (line, column)
    }

    pub(crate) fn error_at(
        &self,
        span: Range<usize>,
        key: Option<KeyPath>,
        message: String,
    ) -> ConfigError {
        let (line, column) = self.line_col(span.start);
        ConfigError::Invalid {
            path: self.path.to_path_buf(),
            line,
            column,
            key: key.map(|k| k.to_string()).filter(|k| !k.is_empty()),
            message,
        }
    }

    /// An error about the value at `path`, positioned at that value.
    pub(crate) fn error(&self, path: &KeyPath, message: impl Into<String>) -> ConfigError {
        self.error_at(self.span_of(path), Some(path.clone()), message.into())
    }
}

fn contains(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn visit_table(
    table: &DeTable<'_>,
    path: &KeyPath,
    target: &Range<usize>,
    found: &mut Option<KeyPath>,
) {
    for (key, value) in table.iter() {
        // Error recovery invents empty keys for text it could not read; naming one would
        // only confuse ("\"\": invalid TOML").
        if key.get_ref().is_empty() {
            continue;
        }
        let here = path.key(key.get_ref());
        if contains(&key.span(), target) || contains(&value.span(), target) {
            *found = Some(here.clone());
        }
        visit_value(value.get_ref(), &here, target, found);
    }
}

fn visit_value(
    value: &DeValue<'_>,
    path: &KeyPath,
    target: &Range<usize>,
    found: &mut Option<KeyPath>,
) {
    match value {
        DeValue::Table(t) => visit_table(t, path, target, found),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let here = path.index(i);
                if contains(&item.span(), target) {
                    *found = Some(here.clone());
                }
                visit_value(item.get_ref(), &here, target, found);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_like_toml_keys() {
        let p = KeyPath::root()
            .key("providers")
            .key("deepseek")
            .index(0)
            .key("api");
        assert_eq!(p.to_string(), "providers.deepseek[0].api");
        let p = KeyPath::root().key("model_profiles").key("deepseek:chat");
        assert_eq!(p.to_string(), "model_profiles.\"deepseek:chat\"");
        assert_eq!(
            KeyPath::root().key("providers").index(2).to_string(),
            "providers[2]"
        );
    }

    #[test]
    fn line_and_column_count_characters() {
        let path = Path::new("c.toml");
        let text = "a = 1\n\"名前\" = \"x\"\n";
        let src = Source::parse(path, text).unwrap();
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(6), (2, 1));
        // After the quoted two 3-byte characters and " = ".
        let value = text.find("\"x").unwrap();
        assert_eq!(src.line_col(value), (2, 8));
    }

    #[test]
    fn span_lookup_follows_arrays_of_tables() {
        let path = Path::new("c.toml");
        let text = "[[providers.a]]\nmodel = \"m\"\n\n[[providers.a]]\napi = \"x\"\n";
        let src = Source::parse(path, text).unwrap();
        let api = KeyPath::root()
            .key("providers")
            .key("a")
            .index(1)
            .key("api");
        assert_eq!(&text[src.span_of(&api)], "\"x\"");
        let second = KeyPath::root().key("providers").key("a").index(1);
        assert_eq!(src.line_col(src.span_of(&second).start), (4, 1));
        // A missing key falls back to its parent.
        let missing = second.key("model");
        assert_eq!(src.span_of(&missing), src.span_of(&second));
    }
}
