//! Workspace trust through the engine: what a folder's project files would start or let
//! run unasked (MCP servers; other agents' allow permissions; Claude Code hooks; a
//! `.memo/SYSTEM.md` that would replace the base instructions, safety rules included, or
//! an `APPEND_SYSTEM.md` that would add to them), the user's decision about
//! it, and whether a session in the folder may use them. Front ends ask here; none of them
//! reads the trust file or the project files itself.

use std::path::{Path, PathBuf};

use memo_config::{RuleDecision, TrustRecord, TrustStatus, TrustStore};
use memo_mcp::ProjectServer;

use crate::imported_rules::{Effect, ImportedEntry};
use crate::{Engine, EngineError};

/// A folder's trust, as the trust prompt and the settings show it.
#[derive(Debug, Clone)]
pub struct WorkspaceTrust {
    pub folder: PathBuf,
    pub status: TrustStatus,
    /// What the folder's project files would start.
    pub servers: Vec<ProjectServer>,
    /// Other agents' allow permissions in the folder's own files: calls they cover would
    /// run without asking.
    pub permissions: Vec<ImportedEntry>,
    /// The hooks in the folder's `.claude/settings*.json` (`hook PreToolUse Bash: ./x`):
    /// commands that would run at the session's moments.
    pub hooks: Vec<String>,
    /// The folder's files that would change Memo's base instructions, each with what it
    /// would do.
    pub prompt_files: Vec<PromptFile>,
}

/// A project file that changes how the agent is told to behave beyond ordinary project
/// instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptFile {
    /// Relative to the folder: `.memo/SYSTEM.md`.
    pub path: String,
    /// What it would change, in words.
    pub effect: memo_protocol::Phrase,
    /// Of its content: a changed file asks again.
    pub digest: String,
}

/// `.memo/SYSTEM.md` and `.memo/APPEND_SYSTEM.md` in `folder`'s workspace root, when they
/// hold anything.
fn prompt_files(folder: &Path) -> Vec<PromptFile> {
    use sha2::Digest;
    let root = memo_context::workspace_root(folder);
    [
        ("SYSTEM.md", memo_protocol::Phrase::SystemFileReplaces),
        ("APPEND_SYSTEM.md", memo_protocol::Phrase::SystemFileAppends),
    ]
    .into_iter()
    .filter_map(|(name, effect)| {
        let text = std::fs::read_to_string(root.join(".memo").join(name)).ok()?;
        if text.trim().is_empty() {
            return None;
        }
        let digest = sha2::Sha256::digest(text.as_bytes());
        Some(PromptFile {
            path: format!(".memo/{name}"),
            effect,
            digest: digest.iter().take(8).map(|b| format!("{b:02x}")).collect(),
        })
    })
    .collect()
}

impl WorkspaceTrust {
    /// Whether the user should be asked: the folder would run something and has no
    /// standing decision about exactly that.
    pub fn needs_decision(&self) -> bool {
        self.asks_anything() && matches!(self.status, TrustStatus::Unasked | TrustStatus::Changed)
    }

    /// Whether the folder's files would run or allow anything at all.
    pub fn asks_anything(&self) -> bool {
        !self.servers.is_empty()
            || !self.permissions.is_empty()
            || !self.hooks.is_empty()
            || !self.prompt_files.is_empty()
    }

    pub fn fingerprints(&self) -> Vec<String> {
        fingerprints(
            &self.servers,
            &self.permissions,
            &self.hooks,
            &self.prompt_files,
        )
    }
}

/// One line per thing the folder would run or allow; a changed line asks again.
fn fingerprints(
    servers: &[ProjectServer],
    permissions: &[ImportedEntry],
    hooks: &[String],
    prompt_files: &[PromptFile],
) -> Vec<String> {
    servers
        .iter()
        .map(ProjectServer::fingerprint)
        .chain(permissions.iter().map(permission_line))
        .chain(hooks.iter().cloned())
        .chain(
            prompt_files
                .iter()
                .map(|f| format!("{} {} ({})", f.path, f.effect, f.digest)),
        )
        .collect()
}

/// `.claude/settings.json allows Bash(npm test:*)`, the file relative to the folder.
pub fn permission_line(entry: &ImportedEntry) -> String {
    format!("{} allows {}", relative_file(entry), entry.text)
}

/// The settings file an entry came from, as the folder sees it.
pub fn relative_file(entry: &ImportedEntry) -> String {
    let parts: Vec<_> = entry.file.components().rev().take(2).collect();
    parts
        .into_iter()
        .rev()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The entries a folder's own files add that let calls run unasked.
fn project_allows(imported: Vec<ImportedEntry>) -> Vec<ImportedEntry> {
    imported
        .into_iter()
        .filter(|e| {
            e.project
                && e.decision == RuleDecision::Allow
                && matches!(e.effect, Effect::Rule { .. })
        })
        .collect()
}

impl Engine {
    fn trust_store(&self) -> Option<TrustStore> {
        let home = self.options().memo_home.as_deref()?;
        Some(TrustStore::at(
            memo_config::MemoHome::at(home).trusted_folders(),
        ))
    }

    /// What `folder` would start and what the user decided about it. Without a Memo home
    /// (hand-built engines in tests) nothing is ever trusted.
    pub fn workspace_trust(&self, folder: &Path) -> Result<WorkspaceTrust, EngineError> {
        self.trust_given(folder, self.imported_permissions(Some(folder)))
    }

    /// [`Self::workspace_trust`] with the folder's permissions already read.
    fn trust_given(
        &self,
        folder: &Path,
        imported: Vec<ImportedEntry>,
    ) -> Result<WorkspaceTrust, EngineError> {
        let env = self.options().env.clone();
        let servers = memo_mcp::project_servers(self.config(), folder, &|name: &str| env(name));
        let permissions = project_allows(imported);
        let hooks = memo_hooks::load_hooks(&self.hook_paths(folder), false).project_trust_items();
        let prompt_files = prompt_files(folder);
        let fingerprints = fingerprints(&servers, &permissions, &hooks, &prompt_files);
        let status = match self.trust_store() {
            Some(store) => store.status(folder, &fingerprints)?,
            None => TrustStatus::Unasked,
        };
        Ok(WorkspaceTrust {
            folder: folder.to_path_buf(),
            status,
            servers,
            permissions,
            hooks,
            prompt_files,
        })
    }

    /// Other agents' permissions for a session in `folder` (the OS home's and the
    /// folder's own files).
    pub fn imported_permissions(&self, folder: Option<&Path>) -> Vec<ImportedEntry> {
        crate::imported_rules::read(folder, self.os_home().as_deref())
    }

    /// The user's home folder (from the injected environment).
    pub(crate) fn os_home(&self) -> Option<PathBuf> {
        let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
        (self.options().env)(var)
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
    }

    /// Records the user's decision about what `folder` would start now.
    pub fn set_workspace_trust(
        &self,
        folder: &Path,
        trusted: bool,
    ) -> Result<WorkspaceTrust, EngineError> {
        let store = self
            .trust_store()
            .ok_or(EngineError::Config(memo_config::ConfigError::NoHome))?;
        let current = self.workspace_trust(folder)?;
        store.decide(folder, trusted, &current.fingerprints())?;
        self.workspace_trust(folder)
    }

    /// Every folder with a decision, by path.
    pub fn trust_decisions(&self) -> Result<Vec<(String, TrustRecord)>, EngineError> {
        match self.trust_store() {
            Some(store) => Ok(store.list()?.into_iter().collect()),
            None => Ok(Vec::new()),
        }
    }

    /// Forgets the decision about `folder` (it is asked about again on next open).
    pub fn forget_workspace_trust(&self, folder: &Path) -> Result<bool, EngineError> {
        let store = self
            .trust_store()
            .ok_or(EngineError::Config(memo_config::ConfigError::NoHome))?;
        Ok(store.forget(folder)?)
    }

    /// Whether a session in `folder` may start the project's servers. A damaged trust
    /// file trusts nothing (and is reported in the log and by [`Self::workspace_trust`]).
    /// `imported`: the folder's permissions, which the session reads anyway.
    pub(crate) fn project_trusted(&self, folder: &Path, imported: &[ImportedEntry]) -> bool {
        match self.trust_given(folder, imported.to_vec()) {
            Ok(trust) => trust.status == TrustStatus::Trusted,
            Err(error) => {
                tracing::warn!(%error, "workspace trust unreadable; project servers not started");
                false
            }
        }
    }
}
