//! The settings pane's providers and files: config.toml edited in place (see
//! [`memo_config::edit`]), SOUL.md and a folder's AGENTS.md read and written with the same
//! conflict check. Nothing here overwrites a file that changed since it was read.

use std::path::{Path, PathBuf};

use memo_config::{Config, ConfigFile, ModelProfileEdit, ProviderEdit, Revision, MAX_TEMPERATURE};
use memo_model::WireApi;
use memo_protocol::{
    EditableFile, EditableFileKind, ModelProfileInput, ModelProfileSettings, Phrase,
    ProviderChange, ProviderInput, ProviderSettings, ProviderSettingsPage,
};

use crate::error::{Result, ServiceError};
use crate::service::Service;

/// Instruction files a folder may have, in the order Memo prefers them: an existing one is
/// edited as it is; a folder with none gets an AGENTS.md.
const INSTRUCTION_FILES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "GEMINI.md"];
/// Larger than any instruction file worth sending to a model; refuses a pasted binary.
const MAX_EDITABLE_BYTES: usize = 1024 * 1024;

pub(crate) fn wire_api(name: &str) -> Result<WireApi> {
    match name {
        "openai" => Ok(WireApi::Openai),
        "anthropic" => Ok(WireApi::Anthropic),
        "gemini" => Ok(WireApi::Gemini),
        other => Err(ServiceError::invalid(Phrase::UnknownWireApi {
            api: other.to_owned(),
        })),
    }
}

fn provider_edit(input: &ProviderInput) -> Result<ProviderEdit> {
    let base_url = input
        .base_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    if let Some(url) = base_url {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(ServiceError::invalid(Phrase::BaseUrlScheme {
                url: url.to_owned(),
            }));
        }
    }
    Ok(ProviderEdit {
        name: input.name.trim().to_owned(),
        api: wire_api(&input.api)?,
        model: input.model.trim().to_owned(),
        base_url: base_url.map(str::to_owned),
        env_api_key: input.env_api_key.clone(),
    })
}

fn profile_edit(input: &ModelProfileInput) -> Result<ModelProfileEdit> {
    for (what, price) in [
        (Phrase::PriceInput, input.input_price_per_mtok),
        (Phrase::PriceOutput, input.output_price_per_mtok),
        (Phrase::PriceCachedInput, input.cached_input_price_per_mtok),
    ] {
        if price.is_some_and(|p| !p.is_finite() || p < 0.0) {
            return Err(ServiceError::invalid(Phrase::PriceInvalid {
                what: Box::new(what),
            }));
        }
    }
    if input.context_window == Some(0) {
        return Err(ServiceError::invalid(Phrase::ContextWindowZero));
    }
    if input
        .temperature
        .is_some_and(|t| !(0.0..=MAX_TEMPERATURE).contains(&t))
    {
        return Err(ServiceError::invalid(Phrase::TemperatureRange));
    }
    if input.thinking_budget_tokens.is_some_and(|b| b < 1024) {
        return Err(ServiceError::invalid(Phrase::ThinkingBudgetMin));
    }
    Ok(ModelProfileEdit {
        context_window: input.context_window,
        input_price_per_mtok: input.input_price_per_mtok,
        output_price_per_mtok: input.output_price_per_mtok,
        cached_input_price_per_mtok: input.cached_input_price_per_mtok,
        thinking_budget_tokens: input.thinking_budget_tokens,
        supports_vision: input.supports_vision,
        temperature: input.temperature,
    })
}

impl Service {
    /// Providers and model profiles of config.toml, with the file's revision.
    pub fn provider_settings(&self) -> Result<ProviderSettingsPage> {
        let path = self.home()?.config_toml();
        let file = ConfigFile::open(&path)?;
        let config = Config::parse(&file.text(), &path)?;
        Ok(self.settings_page(&config, file.revision()))
    }

    fn settings_page(&self, config: &Config, revision: &Revision) -> ProviderSettingsPage {
        let current = config.provider(None).ok().map(|p| p.name);
        ProviderSettingsPage {
            config_path: config.path.display().to_string(),
            revision: revision.to_string(),
            current_provider: current.clone(),
            providers: config
                .providers
                .iter()
                .map(|p| ProviderSettings {
                    name: p.name.clone(),
                    api: p.api.as_str().to_owned(),
                    model: p.model.clone(),
                    base_url: p.base_url.clone(),
                    effective_base_url: p.base_url_or_default().to_owned(),
                    env_api_key: p.env_api_key.clone(),
                    is_current: current.as_deref() == Some(p.name.as_str()),
                    key: self.status_of(p.clone()),
                })
                .collect(),
            model_profiles: config
                .model_profiles
                .iter()
                .map(|(key, p)| ModelProfileSettings {
                    key: key.clone(),
                    profile: ModelProfileInput {
                        context_window: p.context_window,
                        input_price_per_mtok: p.input_price_per_mtok,
                        output_price_per_mtok: p.output_price_per_mtok,
                        cached_input_price_per_mtok: p.cached_input_price_per_mtok,
                        thinking_budget_tokens: p.thinking_budget_tokens,
                        supports_vision: p.supports_vision,
                        temperature: p.temperature,
                    },
                })
                .collect(),
            warnings: config.warnings.clone(),
        }
    }

    /// Applies one change to config.toml if it still has `revision`; returns the page as
    /// it is after the change.
    pub fn update_providers(
        &self,
        change: &ProviderChange,
        revision: &str,
    ) -> Result<ProviderSettingsPage> {
        let path = self.home()?.config_toml();
        let mut file = ConfigFile::open(&path)?;
        if file.revision().as_str() != revision {
            return Err(memo_config::ConfigError::Conflict { path }.into());
        }
        match change {
            ProviderChange::Save {
                original,
                provider,
                make_current,
            } => {
                let edit = provider_edit(provider)?;
                file.upsert_provider(original.as_deref(), &edit)?;
                if *make_current {
                    file.set_current_provider(&edit.name)?;
                }
            }
            ProviderChange::Remove { name } => file.remove_provider(name)?,
            ProviderChange::MakeCurrent { name } => file.set_current_provider(name)?,
            ProviderChange::SaveProfile { key, profile } => {
                file.set_model_profile(key.trim(), &profile_edit(profile)?)?
            }
            ProviderChange::RemoveProfile { key } => {
                file.set_model_profile(key, &ModelProfileEdit::default())?
            }
        }
        let revision = file.save()?;
        let config = Config::parse(&file.text(), &path)?;
        Ok(self.settings_page(&config, &revision))
    }

    /// SOUL.md, a folder's instruction file, or a skill's SKILL.md, as an editor opens it.
    pub fn read_file(
        &self,
        kind: EditableFileKind,
        cwd: Option<&Path>,
        path: Option<&Path>,
    ) -> Result<EditableFile> {
        let path = self.editable_path(kind, cwd, path)?;
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(ServiceError::io(path.display(), e)),
        };
        let revision = Revision::of(bytes.as_deref());
        let exists = bytes.is_some();
        let content = match bytes {
            Some(bytes) => String::from_utf8(bytes).map_err(|_| {
                ServiceError::invalid(Phrase::NotUtf8 {
                    path: path.display().to_string(),
                })
            })?,
            None => String::new(),
        };
        Ok(EditableFile {
            kind,
            path: path.display().to_string(),
            content,
            revision: revision.to_string(),
            exists,
        })
    }

    /// Writes an editable file if it still has `revision` (`absent`: it must not exist
    /// yet). Atomic: a temporary file is renamed over it.
    pub fn write_file(
        &self,
        kind: EditableFileKind,
        cwd: Option<&Path>,
        path: Option<&Path>,
        content: &str,
        revision: &str,
    ) -> Result<EditableFile> {
        if content.len() > MAX_EDITABLE_BYTES {
            return Err(ServiceError::invalid(Phrase::TextTooLarge {
                size_kb: (content.len() / 1024) as u64,
                max_kb: (MAX_EDITABLE_BYTES / 1024) as u64,
            }));
        }
        let target = self.editable_path(kind, cwd, path)?;
        if kind == EditableFileKind::Skill {
            memo_engine::context::skills::parse_skill_text(content).map_err(|e| {
                ServiceError::invalid(Phrase::SkillNotSaved {
                    error: e.to_string(),
                })
            })?;
        }
        memo_config::edit::write_if_unchanged(
            &target,
            content.as_bytes(),
            &Revision::parse(revision),
        )?;
        self.read_file(kind, cwd, Some(&target))
    }

    fn editable_path(
        &self,
        kind: EditableFileKind,
        cwd: Option<&Path>,
        path: Option<&Path>,
    ) -> Result<PathBuf> {
        match kind {
            EditableFileKind::Soul => Ok(self.home()?.root().join("SOUL.md")),
            EditableFileKind::ProjectInstructions => {
                let cwd =
                    cwd.ok_or_else(|| ServiceError::invalid(Phrase::InstructionsNeedFolder))?;
                let dir =
                    std::fs::canonicalize(cwd).map_err(|e| ServiceError::io(cwd.display(), e))?;
                Ok(INSTRUCTION_FILES
                    .iter()
                    .map(|name| dir.join(name))
                    .find(|p| p.is_file())
                    .unwrap_or_else(|| dir.join(INSTRUCTION_FILES[0])))
            }
            EditableFileKind::Skill => {
                let path = path.ok_or_else(|| ServiceError::invalid(Phrase::SkillFileNeedsPath))?;
                self.editable_skill_path(path, cwd)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ErrorCode;

    #[test]
    fn bad_settings_are_said_as_phrases() {
        let api = wire_api("grpc").unwrap_err();
        assert_eq!(api.code(), ErrorCode::InvalidInput);
        assert_eq!(
            api.to_string(),
            "unknown wire API \"grpc\": use openai, anthropic or gemini"
        );
        let price = profile_edit(&ModelProfileInput {
            cached_input_price_per_mtok: Some(-1.0),
            ..ModelProfileInput::default()
        })
        .unwrap_err();
        assert_eq!(price.code(), ErrorCode::InvalidInput);
        assert_eq!(
            price.phrase(),
            Some(&Phrase::PriceInvalid {
                what: Box::new(Phrase::PriceCachedInput)
            })
        );
        assert_eq!(
            price.to_string(),
            "the cached input price must be a number of dollars, zero or more"
        );
    }
}
