//! Workspace trust: the prompt shown when a folder's project files would start programs,
//! and the decisions listed (and revoked) in settings.

use std::path::Path;

use memo_config::TrustStatus;
use memo_engine::trust::WorkspaceTrust;
use memo_protocol::{
    Phrase, ProjectPermissionInfo, ProjectServerInfo, TrustDecision, TrustState,
    WorkspaceTrustReport,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

impl Service {
    /// What `folder`'s project files would start, and whether the user must be asked.
    pub fn workspace_trust(&self, folder: &Path) -> Result<WorkspaceTrustReport> {
        let folder = existing_folder(folder)?;
        Ok(report(&self.engine()?.workspace_trust(&folder)?))
    }

    /// Trusts (or refuses) what `folder` would start now. Sessions started afterwards
    /// follow it; a session already running keeps what it started with.
    pub fn set_workspace_trust(
        &self,
        folder: &Path,
        trusted: bool,
    ) -> Result<WorkspaceTrustReport> {
        let folder = existing_folder(folder)?;
        Ok(report(
            &self.engine()?.set_workspace_trust(&folder, trusted)?,
        ))
    }

    /// Every remembered decision, most recent first.
    pub fn trust_decisions(&self) -> Result<Vec<TrustDecision>> {
        let mut out: Vec<TrustDecision> = self
            .engine()?
            .trust_decisions()?
            .into_iter()
            .map(|(folder, record)| TrustDecision {
                folder,
                trusted: record.trusted,
                items: record.items,
                decided_at: record.decided_at,
            })
            .collect();
        out.sort_by(|a, b| {
            b.decided_at
                .cmp(&a.decided_at)
                .then(a.folder.cmp(&b.folder))
        });
        Ok(out)
    }

    /// Forgets the decision about `folder`, so opening it asks again.
    pub fn forget_workspace_trust(&self, folder: &Path) -> Result<()> {
        if self.engine()?.forget_workspace_trust(folder)? {
            Ok(())
        } else {
            Err(ServiceError::not_found(Phrase::NoTrustDecision {
                folder: folder.display().to_string(),
            }))
        }
    }
}

fn existing_folder(folder: &Path) -> Result<std::path::PathBuf> {
    if folder.is_dir() {
        Ok(folder.to_path_buf())
    } else {
        Err(ServiceError::invalid(Phrase::NotAFolder {
            path: folder.display().to_string(),
        }))
    }
}

fn report(trust: &WorkspaceTrust) -> WorkspaceTrustReport {
    WorkspaceTrustReport {
        folder: trust.folder.display().to_string(),
        state: match trust.status {
            TrustStatus::Trusted => TrustState::Trusted,
            TrustStatus::Untrusted => TrustState::Untrusted,
            TrustStatus::Unasked => TrustState::Unasked,
            TrustStatus::Changed => TrustState::Changed,
        },
        needs_decision: trust.needs_decision(),
        servers: trust
            .servers
            .iter()
            .map(|s| ProjectServerInfo {
                file: s.file.clone(),
                name: s.name.clone(),
                runs: s.runs.clone(),
            })
            .collect(),
        permissions: trust
            .permissions
            .iter()
            .map(|p| ProjectPermissionInfo {
                file: memo_engine::trust::relative_file(p),
                text: p.text.clone(),
            })
            .collect(),
        hooks: trust.hooks.clone(),
        prompt_files: trust
            .prompt_files
            .iter()
            .map(|f| memo_protocol::ProjectPromptFile {
                path: f.path.clone(),
                effect: f.effect.clone(),
            })
            .collect(),
    }
}
