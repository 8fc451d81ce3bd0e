//! Files whose content the model must never be given: the user's read-deny rules (Memo's
//! kept `read` rules and other agents' `Read(./.env)` denies). People use these to keep
//! `.env`, keys and credentials away from the agent, so they win over everything: every
//! tool that would show a file's content refuses it (read_file, grep_files, edits, whose
//! diffs and results quote the file, MCP `file://` resources), and `@path` attachments
//! leave it out. Names alone reveal no content, so listings (list_dir, glob) still show
//! them.
//!
//! Patterns follow Claude Code's reading of its `Read(...)` specifiers: `./x` and `x/y`
//! from the base folder, `//abs` absolute, `~/x` in the home folder, and a pattern without
//! a `/` in any folder below the base, as in `.gitignore`. A pattern naming a folder also
//! covers what is inside it.
//!
//! The engine replaces the list before every step, so a rule kept or deleted in settings
//! counts from the next tool call on.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use globset::{GlobBuilder, GlobMatcher};
use memo_protocol::Phrase;

/// One read-deny rule, ready to match paths.
#[derive(Clone)]
pub struct DeniedRead {
    /// As the user wrote it: `./.env`.
    pub pattern: String,
    /// Where it comes from, for the message: `~/.claude/settings.json` or "your rule".
    pub source: String,
    matchers: Vec<GlobMatcher>,
}

impl std::fmt::Debug for DeniedRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeniedRead({} from {})", self.pattern, self.source)
    }
}

impl DeniedRead {
    /// `pattern` relative to `base` (the session's folder, or the rule's project); `home`
    /// for `~/`. `None` when the pattern is not a glob globset reads.
    pub fn new(pattern: &str, source: &str, base: &Path, home: Option<&Path>) -> Option<Self> {
        let written = pattern.trim();
        if written.is_empty() {
            return None;
        }
        let mut bases = vec![base.to_path_buf()];
        // The folder as the kernel names it too, so a path resolved through a symlinked
        // project folder still matches.
        if let Ok(real) = base.canonicalize() {
            if real != base {
                bases.push(real);
            }
        }
        let absolute: Vec<PathBuf> = if let Some(abs) = written.strip_prefix("//") {
            vec![PathBuf::from(format!("/{abs}"))]
        } else if let Some(rest) = written.strip_prefix("~/") {
            vec![home?.join(rest)]
        } else if Path::new(written).is_absolute() {
            vec![PathBuf::from(written)]
        } else {
            let anchored = written.starts_with("./");
            let rel = written.strip_prefix("./").unwrap_or(written);
            let rel = rel.trim_end_matches('/');
            // gitignore's rule: a name without a slash matches at any depth; `./` anchors.
            let rel = if anchored || rel.contains('/') || rel.starts_with("**") {
                rel.to_owned()
            } else {
                format!("**/{rel}")
            };
            bases.iter().map(|b| b.join(&rel)).collect()
        };
        let mut matchers = Vec::new();
        for path in absolute {
            let text = path.to_string_lossy();
            let text = text.trim_end_matches('/');
            for glob in [text.to_owned(), format!("{text}/**")] {
                let compiled = GlobBuilder::new(&glob)
                    .literal_separator(true)
                    .build()
                    .ok()?;
                matchers.push(compiled.compile_matcher());
            }
        }
        Some(Self {
            pattern: written.to_owned(),
            source: source.to_owned(),
            matchers,
        })
    }

    pub fn matches(&self, path: &Path) -> bool {
        self.matchers.iter().any(|m| m.is_match(path))
    }

    /// [`DeniedRead::matches`] after `..` and `.` are taken out lexically, as the shell's
    /// `cat sub/../.env` opens `.env`.
    fn matches_normalized(&self, path: &Path) -> bool {
        self.matches(&crate::command_guard::normalize_path(path))
    }

    /// What the model is told instead of the content.
    pub fn refusal(&self, shown: &str) -> String {
        format!(
            "{shown}: a rule denies reading this file ({} `{}`); its content is not available. \
             Do not try to read it another way.",
            self.source, self.pattern
        )
    }
}

/// The session's read-deny rules, shared by every call's context.
#[derive(Default)]
pub struct ReadDenials {
    rules: RwLock<Arc<Vec<DeniedRead>>>,
}

/// A path a shell command names that a rule denies reading.
#[derive(Debug, Clone)]
pub struct NamedDenied {
    /// As the command wrote it.
    pub word: String,
    pub rule: DeniedRead,
}

impl NamedDenied {
    /// The warning an approval card shows.
    pub fn warning(named: &[NamedDenied]) -> Option<Phrase> {
        let first = named.first()?;
        let words: Vec<&str> = named.iter().map(|n| n.word.as_str()).collect();
        Some(Phrase::NamesDeniedFiles {
            count: named.len() as u64,
            files: words.join(", "),
            source: first.rule.source.to_string(),
            pattern: first.rule.pattern.clone(),
        })
    }
}

/// Shell-glob characters: a word with them may name a denied file without spelling it.
const GLOB_CHARS: &[char] = &['*', '?', '['];

impl std::fmt::Debug for ReadDenials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.current().iter()).finish()
    }
}

impl ReadDenials {
    pub fn new(rules: Vec<DeniedRead>) -> Self {
        Self {
            rules: RwLock::new(Arc::new(rules)),
        }
    }

    pub fn replace(&self, rules: Vec<DeniedRead>) {
        // A poisoned lock only ever held a whole Arc: take it back.
        *self.rules.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(rules);
    }

    pub fn current(&self) -> Arc<Vec<DeniedRead>> {
        self.rules.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    pub fn is_empty(&self) -> bool {
        self.current().is_empty()
    }

    /// The paths a shell command's words and redirections name that a rule denies: the
    /// command runs outside the file tools, so it cannot be refused like a read, but the
    /// person is asked, told why. Words are paths as the shell would take them from `cwd`
    /// (`~/` is `home`; `--file=x` is `x`); a glob word is matched against its folder's
    /// entries. Commands it cannot read as a script are split on whitespace.
    pub fn named_in_command(
        &self,
        command: &str,
        cwd: &Path,
        home: Option<&Path>,
    ) -> Vec<NamedDenied> {
        if self.is_empty() {
            return Vec::new();
        }
        let script = crate::shell_parse::parse(command);
        let mut words = Vec::new();
        collect_words(&script, &mut words);
        if script.unreadable {
            words.extend(command.split_whitespace().map(str::to_owned));
        }
        let mut out: Vec<NamedDenied> = Vec::new();
        for word in words {
            let candidate = word
                .split_once('=')
                .filter(|(flag, _)| flag.starts_with('-'))
                .map_or(word.as_str(), |(_, value)| value)
                .trim_matches(|c| c == '\'' || c == '"');
            if candidate.is_empty() || candidate.starts_with('-') && !candidate.contains('/') {
                continue;
            }
            for path in expand_word(candidate, cwd, home) {
                if let Some(rule) = self.denying(&path) {
                    if !out.iter().any(|n| n.word == word) {
                        out.push(NamedDenied {
                            word: word.clone(),
                            rule,
                        });
                    }
                    break;
                }
            }
        }
        out
    }

    /// The rule that denies `path`, checked as given and as the kernel resolves it (a
    /// symlink to `.env` is `.env`; `.env` as a symlink elsewhere is still `.env`).
    pub fn denying(&self, path: &Path) -> Option<DeniedRead> {
        let rules = self.current();
        if rules.is_empty() {
            return None;
        }
        let real = path.canonicalize().ok();
        rules
            .iter()
            .find(|r| r.matches_normalized(path) || real.as_deref().is_some_and(|p| r.matches(p)))
            .cloned()
    }
}

fn collect_words(script: &crate::shell_parse::Script, out: &mut Vec<String>) {
    for pipeline in &script.pipelines {
        for command in &pipeline.commands {
            out.extend(command.words.iter().cloned());
            out.extend(
                command
                    .redirects
                    .iter()
                    .filter(|r| r.op != "<<" && !r.target.starts_with('&'))
                    .map(|r| r.target.clone()),
            );
            // `<<<` strings and heredocs feed a shell or interpreter a script of its own.
            for body in &command.heredocs {
                collect_words(&crate::shell_parse::parse(body), out);
            }
            for inner in &command.substitutions {
                collect_words(inner, out);
            }
        }
    }
}

/// The paths a word may name: itself, or for a glob the entries of its folder it matches.
fn expand_word(word: &str, cwd: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let joined = match (word.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => cwd.join(word),
    };
    let text = joined.to_string_lossy();
    if !text.contains(GLOB_CHARS) {
        return vec![joined];
    }
    let (Some(dir), Some(name)) = (joined.parent(), joined.file_name()) else {
        return Vec::new();
    };
    if dir.to_string_lossy().contains(GLOB_CHARS) {
        // A glob in a folder name: too many places to look; the file name alone is
        // matched against the rule patterns by `denying` on the word itself.
        return vec![joined];
    }
    let Ok(glob) = GlobBuilder::new(&name.to_string_lossy())
        .literal_separator(true)
        .build()
    else {
        return Vec::new();
    };
    let matcher = glob.compile_matcher();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| matcher.is_match(e.file_name()))
        .map(|e| e.path())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(pattern: &str) -> DeniedRead {
        DeniedRead::new(pattern, "test", Path::new("/p"), Some(Path::new("/home/u"))).unwrap()
    }

    #[test]
    fn claude_forms_match_what_claude_code_means() {
        let env = rule("./.env");
        assert!(env.matches(Path::new("/p/.env")));
        assert!(
            !env.matches(Path::new("/p/sub/.env")),
            "./ anchors at the base"
        );
        let anywhere = rule("**/.env");
        assert!(anywhere.matches(Path::new("/p/.env")));
        assert!(anywhere.matches(Path::new("/p/a/b/.env")));
        let bare = rule(".env");
        assert!(bare.matches(Path::new("/p/x/.env")), "no slash: any depth");
        assert!(!bare.matches(Path::new("/p/.env.example")));
        let dir = rule("secrets");
        assert!(
            dir.matches(Path::new("/p/secrets/key.pem")),
            "a folder's contents"
        );
        assert!(rule("~/.aws/**").matches(Path::new("/home/u/.aws/credentials")));
        assert!(rule("//etc/shadow").matches(Path::new("/etc/shadow")));
        assert!(rule("config/*.key").matches(Path::new("/p/config/a.key")));
        assert!(!rule("config/*.key").matches(Path::new("/p/config/x/a.key")));
    }

    #[test]
    fn commands_naming_a_denied_file_are_found_however_written() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::write(base.join(".env"), "SECRET=1").unwrap();
        std::fs::create_dir(base.join("sub")).unwrap();
        let denials =
            ReadDenials::new(vec![DeniedRead::new("./.env", "test", &base, None).unwrap()]);
        let named = |cmd: &str| {
            denials
                .named_in_command(cmd, &base, None)
                .into_iter()
                .map(|n| n.word)
                .collect::<Vec<_>>()
        };
        assert_eq!(named("cat .env"), [".env"]);
        assert_eq!(named("cat ./.env | base64"), ["./.env"]);
        assert_eq!(named("wc -l < .env"), [".env"]);
        assert_eq!(named("grep -r KEY --file=.env ."), ["--file=.env"]);
        assert_eq!(named("cat .en*"), [".en*"]);
        assert_eq!(named("echo $(cat sub/../.env)"), ["sub/../.env"]);
        assert_eq!(named("bash <<< 'cat .env'"), [".env"]);
        assert!(named("cat .env.example README.md").is_empty());
        assert!(named("ls -la").is_empty());
    }

    #[test]
    fn a_symlink_to_a_denied_file_is_denied() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::write(base.join(".env"), "SECRET=1").unwrap();
        std::os::unix::fs::symlink(base.join(".env"), base.join("innocent.txt")).unwrap();
        let denials =
            ReadDenials::new(vec![DeniedRead::new("./.env", "test", &base, None).unwrap()]);
        assert!(denials.denying(&base.join("innocent.txt")).is_some());
        assert!(denials.denying(&base.join("other.txt")).is_none());
    }
}
