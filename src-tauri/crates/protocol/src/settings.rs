//! What the settings pane and the first-run screen read and change: providers and model
//! profiles (config.toml), Memo's own Markdown files (SOUL.md, a folder's AGENTS.md),
//! skills, connection tests and local model servers.
//!
//! Every editable thing comes with a `revision` (of the file it was read from) that a
//! change sends back; a file changed on disk since is refused as a conflict.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::KeyStatus;

/// A provider of config.toml as the settings pane shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderSettings {
    pub name: String,
    /// `openai`, `anthropic` or `gemini`.
    pub api: String,
    pub model: String,
    /// As written in config.toml; `None` uses the wire API's public endpoint.
    pub base_url: Option<String>,
    /// The endpoint requests go to.
    pub effective_base_url: String,
    pub env_api_key: Option<String>,
    pub is_current: bool,
    /// Where its key comes from (a server on this machine needs none).
    pub key: KeyStatus,
}

/// The keys of `[model_profiles."<key>"]` the settings pane edits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct ModelProfileInput {
    #[ts(type = "number | null")]
    pub context_window: Option<u64>,
    /// USD per million tokens.
    pub input_price_per_mtok: Option<f64>,
    pub output_price_per_mtok: Option<f64>,
    pub cached_input_price_per_mtok: Option<f64>,
    pub thinking_budget_tokens: Option<u32>,
    /// Whether the model takes images.
    pub supports_vision: Option<bool>,
    /// Sampling temperature, 0 to 2 (`None`: the server's default).
    pub temperature: Option<f64>,
}

/// One `[model_profiles."<key>"]`, keyed by `model` or `provider:model`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ModelProfileSettings {
    pub key: String,
    pub profile: ModelProfileInput,
}

/// Providers and profiles of config.toml, with the revision a change must name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ProviderSettingsPage {
    pub config_path: String,
    pub revision: String,
    pub current_provider: Option<String>,
    pub providers: Vec<ProviderSettings>,
    pub model_profiles: Vec<ModelProfileSettings>,
    /// What config.toml says in a form worth changing, applied anyway
    /// (`file:line:column: …`): an unquoted dotted model name in a table header.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// A provider as a form submits it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderInput {
    pub name: String,
    /// `openai`, `anthropic` or `gemini`.
    pub api: String,
    pub model: String,
    pub base_url: Option<String>,
    pub env_api_key: Option<String>,
}

/// One change to the providers of config.toml.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ProviderChange {
    /// Adds a provider (`original` null) or changes the one named `original`.
    Save {
        original: Option<String>,
        provider: ProviderInput,
        make_current: bool,
    },
    Remove {
        name: String,
    },
    MakeCurrent {
        name: String,
    },
    SaveProfile {
        key: String,
        profile: ModelProfileInput,
    },
    RemoveProfile {
        key: String,
    },
}

/// Memo's own Markdown files that the app edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum EditableFileKind {
    /// `$MEMO_HOME/SOUL.md`: who the agent is, for every project.
    Soul,
    /// The folder's AGENTS.md (or the CLAUDE.md / GEMINI.md it has instead).
    ProjectInstructions,
    /// A skill's SKILL.md.
    Skill,
}

/// A text file as an editor opens it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EditableFile {
    pub kind: EditableFileKind,
    pub path: String,
    pub content: String,
    /// Sent back with a save; `absent` for a file that does not exist yet.
    pub revision: String,
    pub exists: bool,
}

/// How a "Test connection" went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ConnectionReport {
    pub ok: bool,
    /// `ok`, `auth` (the key was refused), `not_found` (wrong URL or model), `timeout`,
    /// `network` (nothing answered), `missing_key` or `other`.
    pub outcome: String,
    /// One sentence for the person: what happened and what to try (in English).
    pub message: String,
    /// The same sentence as a phrase, for a front end to word in its language.
    pub phrase: crate::Phrase,
    #[ts(type = "number")]
    pub elapsed_ms: u64,
}

/// An OpenAI-compatible server found on this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalServer {
    /// `ollama`, `llama.cpp`, `lm-studio` or `vllm`: what usually listens on the port.
    pub kind: String,
    /// Display name, e.g. "Ollama".
    pub label: String,
    /// The OpenAI-compatible base URL (`http://127.0.0.1:11434/v1`).
    pub base_url: String,
    pub models: Vec<String>,
    /// Set when something answered on the port but gave no model to use: what it said
    /// ("answered HTTP 404 at /v1/models"), for a person to set it up by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<crate::Phrase>")]
    pub no_models: Option<crate::Phrase>,
    /// The context window the server runs with, when it says (llama.cpp's `n_ctx`,
    /// vLLM's `max_model_len`, Ollama's `num_ctx`): a small one gets the compact prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub context_window: Option<u64>,
}

/// Where a skill was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SkillScopeKind {
    /// `$MEMO_HOME/skills`.
    User,
    /// The project's `.agents/skills` (or another agent's folder in the project).
    Project,
    /// Another agent's user folder (`~/.claude/skills`, `~/.codex/skills`,
    /// `~/.agents/skills`): read, never written by Memo.
    OtherAgent,
    /// An installed plugin's (`plugin:skill`): read, never written; the plugin's own
    /// switch (Settings → Plugins) turns it on or off.
    Plugin,
    /// Shipped with Memo.
    Builtin,
}

/// A skill as the settings pane lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SkillInfo {
    pub name: String,
    pub description: String,
    pub scope: SkillScopeKind,
    /// The SKILL.md, or `builtin:<name>`.
    pub path: String,
    /// Listed in the prompt and usable with `$name` (`active_skills` decides).
    pub enabled: bool,
    /// Memo may change or delete it (user and project skills).
    pub editable: bool,
}

/// Every skill, the files that could not be read, and the revision of config.toml (which
/// enabling or disabling a skill changes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SkillsPage {
    pub skills: Vec<SkillInfo>,
    pub problems: Vec<crate::ContextProblem>,
    /// Whether `active_skills` is set (otherwise every skill is enabled).
    pub filtered: bool,
    pub config_revision: String,
}

/// One change to the skills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SkillChange {
    /// A new SKILL.md in `$MEMO_HOME/skills/<name>/` (user) or the project's
    /// `.agents/skills/<name>/`.
    Create {
        scope: SkillScopeKind,
        name: String,
        description: String,
        body: String,
    },
    /// Replaces a SKILL.md's whole text (front matter included), checked first.
    Save {
        path: String,
        content: String,
        revision: String,
    },
    /// Moves the skill's folder and sets `name` in its front matter.
    Rename {
        path: String,
        new_name: String,
    },
    Delete {
        path: String,
    },
    /// Enables or disables a skill in `active_skills`.
    SetEnabled {
        path: String,
        enabled: bool,
        config_revision: String,
    },
}
