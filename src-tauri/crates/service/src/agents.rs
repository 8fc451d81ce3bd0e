//! Subagents seen from the desktop: the agent types a folder's sessions can start (for
//! `/agents` and the settings), and reaching a subagent's session through the parent
//! that runs it. A subagent's session is never made live on its own: it is driven by its
//! parent, so opening one shows its transcript (live while its parent runs it).

use std::path::Path;

use memo_engine::{EventReceiver, SessionHandle};
use memo_protocol::{AgentsPage, Op, Phrase, SessionId};

use crate::error::{Result, ServiceError};
use crate::service::{lock, Service};

impl Service {
    /// The agent types a session in `cwd` can start, with the files that could not be
    /// read as agents.
    pub fn list_agents(&self, cwd: &Path) -> Result<AgentsPage> {
        let engine = self.engine()?;
        let catalog = engine.agent_catalog(cwd);
        let env = self.env();
        Ok(AgentsPage {
            agents: catalog.infos(),
            problems: catalog.problems.clone(),
            collab_enabled: memo_engine::agents::collab_enabled(engine.config(), env),
            max_agents: memo_engine::agents::max_agents(engine.config(), env),
        })
    }

    /// The live subagent session `id`, found through the open session that started it.
    pub(crate) fn live_child(&self, id: &SessionId) -> Option<SessionHandle> {
        lock(&self.live)
            .values()
            .find_map(|parent| parent.child(id))
    }

    /// Events of a subagent's session: live through its parent, or the stored ones when
    /// nothing runs it any more. `None` when `id` is not a subagent's session.
    pub(crate) fn subscribe_child(
        &self,
        id: &SessionId,
        after_seq: u64,
    ) -> Result<Option<EventReceiver>> {
        if let Some(child) = self.live_child(id) {
            return Ok(Some(child.subscribe(after_seq)?));
        }
        let store = self.store()?;
        match store.session(id)? {
            Some(record) if record.agent_type.is_some() => {
                Ok(Some(EventReceiver::stored(store, id.clone(), after_seq)))
            }
            _ => Ok(None),
        }
    }

    /// An op for a subagent's session: it can be interrupted or answered, not talked to
    /// (its parent gives it input). `None` when `id` is not a live subagent's session.
    pub(crate) fn submit_to_child(&self, id: &SessionId, op: Op) -> Option<Result<()>> {
        let child = self.live_child(id)?;
        Some(match op {
            Op::UserTurn { .. } | Op::Compact { .. } | Op::SwitchModel { .. } => {
                Err(ServiceError::invalid(Phrase::SubagentTakesNoInput))
            }
            op => child.submit(op).map_err(Into::into),
        })
    }
}
