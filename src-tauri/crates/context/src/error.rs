//! Why a skill, command, front matter or attachment could not be used.
//!
//! Nothing here fails a session: callers turn these errors into
//! [`memo_protocol::ContextProblem`]s, notices or tool errors with `to_string()`, so every
//! Display text is the message a user reads.

/// A failure reading or parsing a file Memo puts into a prompt.
///
/// `Clone` and `Eq` so that results can be cached and compared in tests; I/O errors are
/// therefore kept as their message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    /// A file could not be read. `path` is `None` when the caller already names the file
    /// (a reported problem carries it): the message then says "cannot read it".
    #[error("cannot read {}: {message}", .path.as_deref().unwrap_or("it"))]
    Unreadable {
        path: Option<String>,
        message: String,
    },
    /// An I/O error of an `@path` attachment, shown as is in the notice naming the file.
    #[error("{0}")]
    Io(String),
    /// A `---` opening fence without a closing one.
    #[error("front matter starts with --- but is never closed")]
    UnclosedFrontMatter,
    /// A SKILL.md without front matter.
    #[error("no front matter (a --- block with name and description)")]
    NoFrontMatter,
    /// The front matter is not valid YAML; holds the parser's message.
    #[error("invalid YAML front matter: {0}")]
    InvalidYaml(String),
    /// The front matter holds nothing.
    #[error("front matter is empty")]
    EmptyFrontMatter,
    /// The front matter is YAML but not a mapping (a list, a scalar).
    #[error("front matter is not a mapping of keys to values")]
    NotAMapping,
    /// A required front matter field is absent or blank.
    #[error("front matter has no {0}")]
    MissingField(String),
    /// A front matter field that must be text is a number, list...
    #[error("front matter field {0} is not text")]
    FieldNotText(String),
    /// A built-in skill name that Memo does not ship.
    #[error("unknown built-in skill {0}")]
    UnknownBuiltinSkill(String),
    /// A Markdown command whose body is empty.
    #[error("the prompt is empty")]
    EmptyPrompt,
    /// A TOML command whose `prompt` is blank.
    #[error("prompt is empty")]
    EmptyPromptKey,
    /// A TOML command file that does not parse; holds the parser's message.
    #[error("invalid TOML: {0}")]
    InvalidToml(String),
    /// A TOML command whose `prompt` is not a string; holds the TOML type found.
    #[error("prompt must be a string, got {0}")]
    PromptNotString(String),
    /// A TOML command without a `prompt`.
    #[error("no prompt key")]
    NoPromptKey,
    /// The attachment budget of the message is used up.
    #[error("size limit of the message reached")]
    SizeLimitReached,
    /// An attachment that looks binary (a NUL byte near the start).
    #[error("binary file")]
    Binary,
    /// An attachment that is not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// An error in the file at `path` (shown as `path: error`).
    #[error("{path}: {source}")]
    InFile {
        path: String,
        source: Box<ContextError>,
    },
}

impl ContextError {
    /// An unreadable file the message does not name ("cannot read it: ...").
    pub fn unreadable(err: &std::io::Error) -> Self {
        ContextError::Unreadable {
            path: None,
            message: err.to_string(),
        }
    }

    /// An unreadable file named in the message ("cannot read /p/SKILL.md: ...").
    pub fn unreadable_at(path: &std::path::Path, err: &std::io::Error) -> Self {
        ContextError::Unreadable {
            path: Some(path.display().to_string()),
            message: err.to_string(),
        }
    }

    /// This error, prefixed with the file it happened in.
    pub fn in_file(self, path: impl Into<String>) -> Self {
        ContextError::InFile {
            path: path.into(),
            source: Box::new(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::parse_skill_text;
    use crate::text::split_front_matter;

    #[test]
    fn messages_are_the_ones_users_see() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        assert_eq!(
            ContextError::unreadable(&io).to_string(),
            "cannot read it: gone"
        );
        assert_eq!(
            ContextError::unreadable_at(std::path::Path::new("/s/SKILL.md"), &io).to_string(),
            "cannot read /s/SKILL.md: gone"
        );
        assert_eq!(
            ContextError::UnclosedFrontMatter.to_string(),
            "front matter starts with --- but is never closed"
        );
        assert_eq!(
            ContextError::UnclosedFrontMatter
                .in_file("builtin:x/SKILL.md")
                .to_string(),
            "builtin:x/SKILL.md: front matter starts with --- but is never closed"
        );
        assert_eq!(
            ContextError::MissingField("name".into()).to_string(),
            "front matter has no name"
        );
        assert_eq!(
            ContextError::PromptNotString("integer".into()).to_string(),
            "prompt must be a string, got integer"
        );
        assert_eq!(ContextError::Io("denied".into()).to_string(), "denied");
    }

    #[test]
    fn bad_front_matter_gives_the_matching_variant() {
        assert_eq!(
            split_front_matter("---\nname: a\nbody"),
            Err(ContextError::UnclosedFrontMatter)
        );
        assert_eq!(
            parse_skill_text("# no front matter"),
            Err(ContextError::NoFrontMatter)
        );
        assert_eq!(
            parse_skill_text("---\n- a\n---\n"),
            Err(ContextError::NotAMapping)
        );
        assert_eq!(
            parse_skill_text("---\n---\nbody"),
            Err(ContextError::EmptyFrontMatter)
        );
        assert_eq!(
            parse_skill_text("---\nname: a\n---\n"),
            Err(ContextError::MissingField("description".into()))
        );
        assert_eq!(
            parse_skill_text("---\nname: 3\ndescription: d\n---\n"),
            Err(ContextError::FieldNotText("name".into()))
        );
        assert!(matches!(
            parse_skill_text("---\nname: [a\n---\n"),
            Err(ContextError::InvalidYaml(_))
        ));
    }
}
