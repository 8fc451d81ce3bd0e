//! Settings → Plugins: the installed Claude Code plugins with what each brings, and
//! installing (from a folder or a git URL), enabling, disabling and removing them. The
//! work is memo-plugins'; this turns its results into protocol types and its errors into
//! [`ServiceError::Plugin`], whose code tells a missing folder from a bad manifest from a
//! name already taken. A change counts from the next session on, as hooks do.

use std::path::{Path, PathBuf};

use memo_plugins::{InstallSource, Part, Plugins, Source};
use memo_protocol::{
    Phrase, PluginHookInfo, PluginInfo, PluginInstall, PluginPartInfo, PluginServerInfo,
    PluginSourceKind, PluginsPage,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

fn part(part: Part) -> PluginPartInfo {
    PluginPartInfo {
        name: part.name,
        description: part.description,
        path: part.path.display().to_string(),
    }
}

impl Service {
    fn plugins(&self) -> Result<Plugins> {
        Ok(Plugins::at_home(self.home()?.root()))
    }

    /// Every installed plugin with its parts and problems: Memo's own, then those Claude
    /// Code installed.
    pub fn list_plugins(&self) -> Result<PluginsPage> {
        let plugins = self.plugins()?;
        let env = self.env().clone();
        let lookup = move |name: &str| env(name);
        let mut listed: Vec<PluginInfo> = plugins
            .list()?
            .into_iter()
            .map(|installed| {
                let record = installed.record;
                let (source_kind, source) = match &record.source {
                    Source::Folder { path } => {
                        (PluginSourceKind::Folder, path.display().to_string())
                    }
                    Source::Git { url } => (PluginSourceKind::Git, url.clone()),
                };
                let info = listed_info(
                    record.name.clone(),
                    record.version.clone(),
                    source_kind,
                    source,
                    &installed.root,
                    record.enabled,
                    record.installed_at_ms,
                );
                with_parts(info, &installed.root, installed.manifest, &lookup)
            })
            .collect();
        for plugin in self.claude_code_plugins() {
            // Memo's own copy of a name wins, as in sessions.
            let clash = listed
                .iter()
                .any(|p| p.name == plugin.name && p.source_kind != PluginSourceKind::ClaudeCode);
            let info = listed_info(
                plugin.name.clone(),
                plugin.version.clone(),
                PluginSourceKind::ClaudeCode,
                plugin.id.clone(),
                &plugin.root,
                plugin.enabled(),
                0,
            );
            let mut info = with_parts(info, &plugin.root, plugin.manifest, &lookup);
            if let memo_plugins::claude_code::Scope::Folder(dir) = &plugin.scope {
                info.for_folder = Some(dir.display().to_string());
            }
            if clash {
                info.enabled = false;
                info.problems.insert(
                    0,
                    "not loaded: a plugin installed in Memo has the same name".into(),
                );
            } else if !plugin.on_in_claude {
                info.problems.insert(
                    0,
                    "off in Claude Code: turn it on there (/plugin) to use it here".into(),
                );
            }
            listed.push(info);
        }
        Ok(PluginsPage {
            plugins: listed,
            dir: plugins.dir().display().to_string(),
        })
    }

    fn claude_code_plugins(&self) -> Vec<memo_plugins::claude_code::ClaudeCodePlugin> {
        let Some(user) = self.user_home() else {
            return Vec::new();
        };
        let memo = self.home().ok().map(|h| h.root().to_path_buf());
        use memo_plugins::claude_code::{installed, Applying, Scope};
        let every = installed(&user, memo.as_deref(), Applying::Anywhere);
        // One row per plugin: its user-wide install when it has one (what most sessions
        // load, and what the switch is about), else each folder's.
        let user_wide: std::collections::HashSet<String> = every
            .iter()
            .filter(|p| p.scope == Scope::User)
            .map(|p| p.id.clone())
            .collect();
        every
            .into_iter()
            .filter(|p| p.scope == Scope::User || !user_wide.contains(&p.id))
            .collect()
    }

    /// The Claude Code plugin a name means, when no plugin installed in Memo has it.
    fn claude_code_plugin(
        &self,
        name: &str,
    ) -> Result<Option<memo_plugins::claude_code::ClaudeCodePlugin>> {
        if self
            .plugins()?
            .list()?
            .iter()
            .any(|p| p.record.name == name)
        {
            return Ok(None);
        }
        Ok(self
            .claude_code_plugins()
            .into_iter()
            .find(|p| p.name == name))
    }

    /// Installs a plugin; `replace` lets it take the place of an installed one of the same
    /// name. A clone can take a while, so it runs off the async workers.
    pub async fn install_plugin(
        &self,
        request: &PluginInstall,
        replace: bool,
    ) -> Result<PluginsPage> {
        let source = match request {
            PluginInstall::Folder { path } => InstallSource::Folder(self.folder_path(path)?),
            PluginInstall::Git { url } => InstallSource::Git(url.trim().to_owned()),
        };
        let plugins = self.plugins()?;
        tokio::task::spawn_blocking(move || plugins.install(&source, replace))
            .await
            .map_err(|e| {
                ServiceError::invalid(Phrase::PluginInstallStopped {
                    error: e.to_string(),
                })
            })??;
        self.list_plugins()
    }

    /// Turns a plugin on or off for new sessions; one Claude Code installed is turned
    /// off for Memo only (Claude Code's settings are not written).
    pub fn set_plugin_enabled(&self, name: &str, enabled: bool) -> Result<PluginsPage> {
        match self.claude_code_plugin(name)? {
            Some(plugin) => memo_plugins::claude_code::set_enabled_in_memo(
                self.home()?.root(),
                &plugin.id,
                enabled,
            )?,
            None => {
                self.plugins()?.set_enabled(name, enabled)?;
            }
        }
        self.list_plugins()
    }

    /// Deletes Memo's copy (never the folder it was installed from). A plugin Claude
    /// Code installed is Claude Code's to remove.
    pub fn remove_plugin(&self, name: &str) -> Result<PluginsPage> {
        if let Some(plugin) = self.claude_code_plugin(name)? {
            return Err(ServiceError::invalid(Phrase::PluginFromClaudeCode {
                id: plugin.id.to_string(),
            }));
        }
        self.plugins()?.remove(name)?;
        self.list_plugins()
    }

    /// A typed folder: absolute, or `~/...` in the user's home.
    fn folder_path(&self, typed: &str) -> Result<PathBuf> {
        let typed = typed.trim();
        if typed.is_empty() {
            return Err(ServiceError::invalid(Phrase::PluginFolderNeeded));
        }
        let path = match (typed.strip_prefix("~/"), self.user_home()) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => PathBuf::from(typed),
        };
        if !path.is_absolute() {
            return Err(ServiceError::invalid(Phrase::PluginPathNotAbsolute {
                path: typed.to_owned(),
            }));
        }
        Ok(path)
    }
}

/// A plugin as Settings lists it, before its parts are read (see [`with_parts`]).
fn listed_info(
    name: String,
    version: Option<String>,
    source_kind: PluginSourceKind,
    source: String,
    root: &Path,
    enabled: bool,
    installed_at_ms: u64,
) -> PluginInfo {
    PluginInfo {
        name,
        version,
        description: None,
        author: None,
        source_kind,
        source,
        path: root.display().to_string(),
        enabled,
        installed_at_ms,
        commands: Vec::new(),
        skills: Vec::new(),
        agents: Vec::new(),
        hooks: Vec::new(),
        mcp_servers: Vec::new(),
        problems: Vec::new(),
        for_folder: None,
    }
}

/// `info` with what the plugin in `root` brings, or why it is not loaded.
fn with_parts(
    mut info: PluginInfo,
    root: &Path,
    manifest: memo_plugins::Result<memo_plugins::Manifest>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> PluginInfo {
    match manifest {
        Ok(manifest) => {
            let parts = memo_plugins::read_parts(&info.name, root, &manifest, lookup);
            info.version = manifest.version.or(info.version);
            info.description = manifest.description;
            info.author = manifest.author;
            info.commands = parts.commands.into_iter().map(part).collect();
            info.skills = parts.skills.into_iter().map(part).collect();
            info.agents = parts.agents.into_iter().map(part).collect();
            info.hooks = parts
                .hooks
                .into_iter()
                .map(|h| PluginHookInfo {
                    event: h.event,
                    matcher: h.matcher,
                    command: h.command,
                })
                .collect();
            info.mcp_servers = parts
                .mcp_servers
                .into_iter()
                .map(|s| PluginServerInfo {
                    name: s.name,
                    transport: s.transport,
                    target: s.target,
                })
                .collect();
            info.problems = parts.problems;
        }
        // Listed with why it is not loaded, so it can be replaced or removed.
        Err(error) => info.problems.push(error.to_string()),
    }
    info
}
