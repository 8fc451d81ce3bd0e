//! A group's `matcher`, read the way Claude Code reads it, so a user's settings select
//! the same hooks in Memo.
//!
//! - absent, `""` or `*`: everything;
//! - only letters, digits, `_`, `-`, spaces and `|` (`Bash`, `Edit|Write`): exact names,
//!   case-sensitive, `|` separating alternatives;
//! - anything else (`Notebook.*`, `mcp__github__.*`): a regular expression searched in
//!   the name, unanchored, as JavaScript's `RegExp.test` does (write `^…$` to anchor).
//!   One that does not compile is reported at load time and its group never runs.

use std::fmt;

use regex::Regex;
use serde::{Serialize, Serializer};

#[derive(Clone)]
pub struct Matcher {
    text: String,
    kind: MatcherKind,
}

#[derive(Clone)]
enum MatcherKind {
    All,
    Names(Vec<String>),
    Regex(Regex),
}

impl Matcher {
    /// The matcher that selects everything.
    pub fn all() -> Matcher {
        Matcher {
            text: String::new(),
            kind: MatcherKind::All,
        }
    }

    pub fn parse(text: &str) -> Result<Matcher, regex::Error> {
        let trimmed = text.trim();
        let kind = if trimmed.is_empty() || trimmed == "*" {
            MatcherKind::All
        } else if trimmed.chars().all(is_name_char) {
            MatcherKind::Names(
                trimmed
                    .split('|')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
                    .collect(),
            )
        } else {
            MatcherKind::Regex(Regex::new(text)?)
        };
        Ok(Matcher {
            text: text.to_owned(),
            kind,
        })
    }

    /// As written in the settings.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn matches(&self, subject: &str) -> bool {
        match &self.kind {
            MatcherKind::All => true,
            MatcherKind::Names(names) => names.iter().any(|n| n == subject),
            MatcherKind::Regex(re) => re.is_match(subject),
        }
    }

    /// Whether any of the subjects (a tool's Memo and Claude Code names) matches.
    pub fn matches_any<S: AsRef<str>>(&self, subjects: &[S]) -> bool {
        subjects.iter().any(|s| self.matches(s.as_ref()))
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '|' | ' ')
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Matcher({:?})", self.text)
    }
}

impl PartialEq for Matcher {
    fn eq(&self, other: &Matcher) -> bool {
        self.text == other.text
    }
}

impl Serialize for Matcher {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> Matcher {
        Matcher::parse(text).unwrap()
    }

    #[test]
    fn empty_and_star_match_everything() {
        assert!(m("").matches("Bash"));
        assert!(m("*").matches("anything"));
        assert!(Matcher::all().matches("x"));
    }

    #[test]
    fn plain_names_are_exact_and_case_sensitive() {
        assert!(m("Bash").matches("Bash"));
        assert!(!m("Bash").matches("BashOutput"));
        assert!(!m("bash").matches("Bash"));
        let alt = m("Edit | Write|MultiEdit");
        assert!(alt.matches("Write") && alt.matches("Edit") && alt.matches("MultiEdit"));
        assert!(!alt.matches("Read"));
        assert!(m("mcp__my-server__get").matches("mcp__my-server__get"));
    }

    #[test]
    fn other_patterns_are_unanchored_regexes() {
        assert!(m("Notebook.*").matches("NotebookEdit"));
        assert!(m("mcp__github__.*").matches("mcp__github__create_issue"));
        assert!(!m("mcp__github__.*").matches("mcp__gitlab__x"));
        assert!(m("^Bash$").matches("Bash"));
        assert!(!m("^Bash$").matches("BashOutput"));
        assert!(m("manual|auto").matches("auto"));
        assert!(Matcher::parse("(unclosed").is_err());
        assert!(m("Write").matches_any(&["apply_patch", "Edit", "Write"]));
    }
}
