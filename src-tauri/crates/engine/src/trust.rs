//! Workspace trust through the engine: what a folder's project files would start, the
//! user's decision about it, and whether a session in the folder may start them. Front
//! ends ask here; none of them reads the trust file or the project files itself.

use std::path::{Path, PathBuf};

use memo_config::{TrustRecord, TrustStatus, TrustStore};
use memo_mcp::ProjectServer;

use crate::{Engine, EngineError};

/// A folder's trust, as the trust prompt and the settings show it.
#[derive(Debug, Clone)]
pub struct WorkspaceTrust {
    pub folder: PathBuf,
    pub status: TrustStatus,
    /// What the folder's project files would start.
    pub servers: Vec<ProjectServer>,
}

impl WorkspaceTrust {
    /// Whether the user should be asked: the folder would run something and has no
    /// standing decision about exactly that.
    pub fn needs_decision(&self) -> bool {
        !self.servers.is_empty()
            && matches!(self.status, TrustStatus::Unasked | TrustStatus::Changed)
    }

    pub fn fingerprints(&self) -> Vec<String> {
        self.servers
            .iter()
            .map(ProjectServer::fingerprint)
            .collect()
    }
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
        let env = self.options().env.clone();
        let servers = memo_mcp::project_servers(self.config(), folder, &|name: &str| env(name));
        let fingerprints: Vec<String> = servers.iter().map(ProjectServer::fingerprint).collect();
        let status = match self.trust_store() {
            Some(store) => store.status(folder, &fingerprints)?,
            None => TrustStatus::Unasked,
        };
        Ok(WorkspaceTrust {
            folder: folder.to_path_buf(),
            status,
            servers,
        })
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
    pub(crate) fn project_trusted(&self, folder: &Path) -> bool {
        match self.workspace_trust(folder) {
            Ok(trust) => trust.status == TrustStatus::Trusted,
            Err(error) => {
                tracing::warn!(%error, "workspace trust unreadable; project servers not started");
                false
            }
        }
    }
}
