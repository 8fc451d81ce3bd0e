//! "What would the model see here?" without starting a session: the prompt a new session
//! would send, layer by layer, for the settings pane's prompt inspector and `memo-cli`.

use std::path::Path;

use memo_config::{Config, ProviderConfig};
use memo_model::WireApi;
use memo_protocol::PromptReport;

use crate::engine::Engine;
use crate::options::{usable_cwd, EnvLookup, SessionOptions};
use crate::prompt::{session_context, PromptSetup};
use crate::tools::ToolRegistry;
use crate::EngineError;

impl Engine {
    /// The prompt a new session with `opts` would send, layer by layer, without starting
    /// it (no API key needed).
    pub fn prompt_layers(&self, opts: &SessionOptions) -> Result<PromptReport, EngineError> {
        let options = self.options();
        let cwd = usable_cwd(opts.cwd.clone())?;
        let trusted = opts
            .trust_project
            .unwrap_or_else(|| self.project_trusted(&cwd, &self.imported_permissions(Some(&cwd))));
        prompt_layers(
            options.memo_home.as_deref(),
            &options.config,
            &options.env,
            opts,
            trusted,
        )
    }
}

/// [`Engine::prompt_layers`] without an engine: only the Memo home, config and
/// environment are needed, and whether the folder is trusted. Without any configured
/// provider, the prompt is assembled for `opts.model` (or a placeholder model name).
pub fn prompt_layers(
    memo_home: Option<&Path>,
    config: &Config,
    env: &EnvLookup,
    opts: &SessionOptions,
    project_trusted: bool,
) -> Result<PromptReport, EngineError> {
    let cwd = usable_cwd(opts.cwd.clone())?;
    let provider = match config.provider(opts.provider.as_deref()) {
        Ok(provider) => provider,
        Err(_) if config.providers.is_empty() && opts.provider.is_none() => ProviderConfig {
            name: "none".into(),
            api: WireApi::default(),
            env_api_key: None,
            model: "unconfigured-model".into(),
            base_url: None,
            extra: toml::Table::new(),
        },
        Err(err) => return Err(err.into()),
    };
    let model = opts.model.clone().unwrap_or_else(|| provider.model.clone());
    let mut tools = ToolRegistry::builtin();
    // The collab tools a session would get: their definitions are part of the prompt.
    if let Some(subagents) = crate::agents::session_runtime(memo_home, config, env, &cwd) {
        for tool in crate::agents::collab::tools(&subagents) {
            tools.register(tool);
        }
    }
    tools.defer_groups(crate::tool_groups::ON_DEMAND);
    let setup = PromptSetup {
        memo_home,
        config,
        env,
        project_trusted,
    };
    let (_, context) = session_context(setup, &cwd, &provider, &model, &mut tools, None);
    context.report.ok_or_else(|| EngineError::InvalidSetting {
        path: cwd.display().to_string(),
        key: "prompt".into(),
        message: "no prompt report was assembled".into(),
    })
}
