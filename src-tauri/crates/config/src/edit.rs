//! Editing config.toml in place: providers, the current provider, model profiles and
//! string lists (`active_skills`), keeping the user's comments, order, formatting and every
//! key Memo does not know.
//!
//! A [`ConfigFile`] remembers the [`Revision`] of the text it was read from. Saving checks
//! that the file on disk still has that revision — otherwise someone (an editor, Memo
//! Code, another window) changed it since, and overwriting would lose their change, so the
//! save is refused with [`ConfigError::Conflict`]. An invalid file is never edited: opening
//! it reports the problem as `file:line:column`. The edited text is validated like a
//! loaded one before it is written, and written atomically (temporary file + rename).

use std::path::{Path, PathBuf};

use memo_model::WireApi;
use toml_edit::{value, Array, ArrayOfTables, DocumentMut, Item, Table};

use crate::config::Config;
use crate::error::ConfigError;

/// Identifies one version of a file's text: its length and a 64-bit FNV-1a hash, or
/// `absent` for a file that does not exist. Equal text gives an equal revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision(String);

impl Revision {
    pub const ABSENT: &'static str = "absent";

    pub fn of(text: Option<&[u8]>) -> Revision {
        match text {
            None => Revision(Self::ABSENT.to_owned()),
            Some(bytes) => {
                let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
                for byte in bytes {
                    hash ^= u64::from(*byte);
                    hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
                }
                Revision(format!("{}-{hash:016x}", bytes.len()))
            }
        }
    }

    /// The revision of `path` as it is on disk now.
    pub fn of_file(path: &Path) -> Result<Revision, std::io::Error> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(Revision::of(Some(&bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Revision::of(None)),
            Err(e) => Err(e),
        }
    }

    pub fn parse(text: &str) -> Revision {
        Revision(text.to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so
/// a crash never leaves half a file; refuses when the file's revision is no longer
/// `expected`. Returns the new revision.
pub fn write_if_unchanged(
    path: &Path,
    bytes: &[u8],
    expected: &Revision,
) -> Result<Revision, ConfigError> {
    let on_disk = Revision::of_file(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if &on_disk != expected {
        return Err(ConfigError::Conflict {
            path: path.to_path_buf(),
        });
    }
    let write_error = |source| ConfigError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(write_error)?;
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{file_name}.memo-{}.tmp", std::process::id()));
    let result = (|| {
        use std::io::Write;
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        // Keep the permissions of the file being replaced (a config may be 0600).
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if let Err(source) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(write_error(source));
    }
    Ok(Revision::of(Some(bytes)))
}

/// A provider entry as the settings pane edits it. `None` removes the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderEdit {
    pub name: String,
    pub api: WireApi,
    pub model: String,
    pub base_url: Option<String>,
    pub env_api_key: Option<String>,
}

/// The model profile keys the settings pane edits. `None` removes the key; keys not
/// listed here are kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelProfileEdit {
    pub context_window: Option<u64>,
    pub input_price_per_mtok: Option<f64>,
    pub output_price_per_mtok: Option<f64>,
    pub cached_input_price_per_mtok: Option<f64>,
    pub thinking_budget_tokens: Option<u32>,
    pub supports_vision: Option<bool>,
    pub temperature: Option<f64>,
}

/// config.toml opened for editing.
pub struct ConfigFile {
    path: PathBuf,
    doc: DocumentMut,
    revision: Revision,
}

impl ConfigFile {
    /// Reads and validates the file (a missing file is an empty one). A file with an
    /// error is reported and cannot be edited.
    pub fn open(path: &Path) -> Result<ConfigFile, ConfigError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        let revision = Revision::of(bytes.as_deref());
        let text = match bytes {
            Some(bytes) => String::from_utf8(bytes).map_err(|_| ConfigError::Invalid {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                key: None,
                message: "the file is not UTF-8 text".into(),
            })?,
            None => String::new(),
        };
        Config::parse(&text, path)?;
        let doc = text
            .parse::<DocumentMut>()
            .map_err(|e| ConfigError::Invalid {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                key: None,
                message: e.to_string(),
            })?;
        Ok(ConfigFile {
            path: path.to_path_buf(),
            doc,
            revision,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The revision of the text this was read from.
    pub fn revision(&self) -> &Revision {
        &self.revision
    }

    /// The edited text.
    pub fn text(&self) -> String {
        self.doc.to_string()
    }

    fn edit_error(&self, message: impl Into<String>) -> ConfigError {
        ConfigError::Edit {
            path: self.path.clone(),
            message: message.into(),
        }
    }

    /// Adds a provider, or changes the one named `original` (renaming it when the edit
    /// has another name). Keys of the entry that the edit does not cover are kept.
    pub fn upsert_provider(
        &mut self,
        original: Option<&str>,
        edit: &ProviderEdit,
    ) -> Result<(), ConfigError> {
        let name = edit.name.trim();
        check_name(name).map_err(|m| self.edit_error(m))?;
        if edit.model.trim().is_empty() {
            return Err(self.edit_error("a provider needs a model"));
        }
        let renamed = original.is_some_and(|o| o != name);
        if (original.is_none() || renamed) && self.find_provider(name).is_some() {
            return Err(self.edit_error(format!("a provider named \"{name}\" already exists")));
        }
        match original {
            Some(old) => {
                let Some(location) = self.find_provider(old) else {
                    return Err(self.edit_error(format!("no provider named \"{old}\"")));
                };
                let location = if renamed {
                    self.rename_provider(location, old, name)?
                } else {
                    location
                };
                let table = self.provider_table(&location)?;
                fill_provider(table, edit);
                if renamed && self.current_provider().as_deref() == Some(old) {
                    self.doc["current_provider"] = value(name);
                }
            }
            None => {
                let mut table = Table::new();
                fill_provider(&mut table, edit);
                self.append_provider(name, table)?;
            }
        }
        Ok(())
    }

    /// Removes a provider; when it was the current one, `current_provider` goes too (the
    /// first remaining provider is then used).
    pub fn remove_provider(&mut self, name: &str) -> Result<(), ConfigError> {
        let location = self
            .find_provider(name)
            .ok_or_else(|| self.edit_error(format!("no provider named \"{name}\"")))?;
        let no_providers = self.edit_error("no providers");
        let providers = self.doc.get_mut("providers").ok_or(no_providers)?;
        match location {
            Location::Group { group, index } => {
                let groups = providers
                    .as_table_like_mut()
                    .ok_or_else(|| ConfigError::Edit {
                        path: self.path.clone(),
                        message: "providers is not a table".into(),
                    })?;
                let emptied = match groups.get_mut(&group) {
                    Some(Item::ArrayOfTables(entries)) => {
                        entries.remove(index);
                        entries.is_empty()
                    }
                    _ => true,
                };
                if emptied {
                    groups.remove(&group);
                }
            }
            Location::List { index } => {
                if let Some(entries) = providers.as_array_of_tables_mut() {
                    entries.remove(index);
                }
            }
        }
        if self.current_provider().as_deref() == Some(name) {
            self.doc.remove("current_provider");
        }
        Ok(())
    }

    /// Adds external agent `agent.name`, or replaces its entry (comments around it kept).
    pub fn upsert_external_agent(
        &mut self,
        agent: &crate::ExternalAgentConfig,
    ) -> Result<(), ConfigError> {
        if !crate::valid_external_agent_name(&agent.name) {
            return Err(self.edit_error(format!(
                "{:?} is not a usable name: use letters, digits, - and _",
                agent.name
            )));
        }
        let root = self.doc.as_table_mut();
        let section = root
            .entry(crate::EXTERNAL_AGENTS)
            .or_insert_with(|| {
                let mut table = Table::new();
                table.set_implicit(true);
                Item::Table(table)
            })
            .as_table_mut()
            .ok_or_else(|| ConfigError::Edit {
                path: self.path.clone(),
                message: format!("{} is not a table", crate::EXTERNAL_AGENTS),
            })?;
        let mut entry = match section.remove(&agent.name) {
            Some(Item::Table(table)) => table,
            _ => Table::new(),
        };
        entry["command"] = value(agent.command.as_str());
        let list = |items: &[String]| value(items.iter().map(String::as_str).collect::<Array>());
        if agent.args.is_empty() {
            entry.remove("args");
        } else {
            entry["args"] = list(&agent.args);
        }
        if agent.env.is_empty() {
            entry.remove("env");
        } else {
            let mut env = toml_edit::InlineTable::new();
            for (k, v) in &agent.env {
                env.insert(k, v.as_str().into());
            }
            entry["env"] = value(env);
        }
        if agent.secret_env.is_empty() {
            entry.remove("secret_env");
        } else {
            entry["secret_env"] = list(&agent.secret_env);
        }
        if agent.withhold_mcp_servers {
            entry["offer_mcp_servers"] = value(false);
        } else {
            entry.remove("offer_mcp_servers");
        }
        section.insert(&agent.name, Item::Table(entry));
        Ok(())
    }

    /// Removes external agent `name`; false when there was none.
    pub fn remove_external_agent(&mut self, name: &str) -> bool {
        let Some(section) = self
            .doc
            .get_mut(crate::EXTERNAL_AGENTS)
            .and_then(Item::as_table_mut)
        else {
            return false;
        };
        let removed = section.remove(name).is_some();
        if section.is_empty() {
            self.doc.remove(crate::EXTERNAL_AGENTS);
        }
        removed
    }

    pub fn set_current_provider(&mut self, name: &str) -> Result<(), ConfigError> {
        if self.find_provider(name).is_none() {
            return Err(self.edit_error(format!("no provider named \"{name}\"")));
        }
        self.doc["current_provider"] = value(name);
        Ok(())
    }

    fn current_provider(&self) -> Option<String> {
        self.doc
            .get("current_provider")
            .and_then(Item::as_str)
            .map(str::to_owned)
    }

    /// Sets the edited keys of `[model_profiles."<key>"]` (creating it), keeping others.
    /// A profile left with no keys is removed.
    pub fn set_model_profile(
        &mut self,
        key: &str,
        edit: &ModelProfileEdit,
    ) -> Result<(), ConfigError> {
        if key.trim().is_empty() {
            return Err(self.edit_error("a model profile needs a model name"));
        }
        let path = self.path.clone();
        let profiles = self
            .doc
            .entry("model_profiles")
            .or_insert_with(|| implicit_table().into())
            .as_table_like_mut()
            .ok_or_else(|| ConfigError::Edit {
                path: path.clone(),
                message: "model_profiles is not a table".into(),
            })?;
        let profile = profiles
            .entry(key)
            .or_insert(Item::Table(Table::new()))
            .as_table_like_mut()
            .ok_or_else(|| ConfigError::Edit {
                path,
                message: format!("model_profiles.{key} is not a table"),
            })?;
        set_or_remove(
            profile,
            "context_window",
            edit.context_window.map(|v| v as i64),
        );
        set_or_remove(profile, "input_price_per_mtok", edit.input_price_per_mtok);
        set_or_remove(profile, "output_price_per_mtok", edit.output_price_per_mtok);
        set_or_remove(
            profile,
            "cached_input_price_per_mtok",
            edit.cached_input_price_per_mtok,
        );
        set_or_remove(
            profile,
            "thinking_budget_tokens",
            edit.thinking_budget_tokens.map(i64::from),
        );
        set_or_remove(profile, "supports_vision", edit.supports_vision);
        set_or_remove(profile, "temperature", edit.temperature);
        if profile.is_empty() {
            profiles.remove(key);
        }
        Ok(())
    }

    /// Sets a top-level list of strings (`active_skills`), or removes it with `None`.
    pub fn set_string_list(&mut self, key: &str, items: Option<&[String]>) {
        match items {
            Some(items) => {
                self.doc[key] = value(items.iter().map(String::as_str).collect::<Array>());
            }
            None => {
                self.doc.remove(key);
            }
        }
    }

    /// Sets a top-level string (`approval_mode = "strict"`), keeping its comment, or
    /// removes it with `None`.
    pub fn set_string(&mut self, key: &str, text: Option<&str>) {
        set_or_remove(self.doc.as_table_mut(), key, text);
    }

    /// Validates the edited text like a loaded file and writes it if the file on disk is
    /// still the one this was read from. Returns the new revision.
    pub fn save(&mut self) -> Result<Revision, ConfigError> {
        let text = self.doc.to_string();
        Config::parse(&text, &self.path)?;
        let revision = write_if_unchanged(&self.path, text.as_bytes(), &self.revision)?;
        self.revision = revision.clone();
        Ok(revision)
    }

    /// Where the provider called `name` is: `[[providers.<group>]]` entry `index`, or
    /// `[[providers]]` entry `index`.
    fn find_provider(&self, name: &str) -> Option<Location> {
        let providers = self.doc.get("providers")?;
        if let Some(list) = providers.as_array_of_tables() {
            return list
                .iter()
                .position(|t| t.get("name").and_then(Item::as_str) == Some(name))
                .map(|index| Location::List { index });
        }
        let groups = providers.as_table_like()?;
        for (group, entries) in groups.iter() {
            let tables: Vec<&Table> = match entries {
                Item::ArrayOfTables(list) => list.iter().collect(),
                Item::Table(t) => vec![t],
                _ => continue,
            };
            for (index, table) in tables.into_iter().enumerate() {
                let entry_name = table.get("name").and_then(Item::as_str).unwrap_or(group);
                if entry_name == name {
                    return Some(Location::Group {
                        group: group.to_owned(),
                        index,
                    });
                }
            }
        }
        None
    }

    fn provider_table(&mut self, location: &Location) -> Result<&mut Table, ConfigError> {
        let path = self.path.clone();
        let missing = || ConfigError::Edit {
            path: path.clone(),
            message: "the provider entry is not a table".into(),
        };
        let providers = self.doc.get_mut("providers").ok_or_else(&missing)?;
        match location {
            Location::List { index } => providers
                .as_array_of_tables_mut()
                .and_then(|l| l.get_mut(*index))
                .ok_or_else(missing),
            Location::Group { group, index } => {
                let entries = providers
                    .as_table_like_mut()
                    .and_then(|g| g.get_mut(group))
                    .ok_or_else(&missing)?;
                match entries {
                    Item::ArrayOfTables(list) => list.get_mut(*index).ok_or_else(missing),
                    Item::Table(table) => Ok(table),
                    _ => Err(missing()),
                }
            }
        }
    }

    /// A `[[providers.<old>]]` group whose only entry is renamed moves to the new group
    /// name (Memo Code names the group after the provider); other forms keep their place.
    fn rename_provider(
        &mut self,
        location: Location,
        old: &str,
        new: &str,
    ) -> Result<Location, ConfigError> {
        if let Location::Group { group, index } = &location {
            let path = self.path.clone();
            let groups = self
                .doc
                .get_mut("providers")
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| ConfigError::Edit {
                    path,
                    message: "providers is not a table".into(),
                })?;
            let single = match groups.get(group) {
                Some(Item::ArrayOfTables(list)) => list.len() == 1,
                Some(Item::Table(_)) => true,
                _ => false,
            };
            if group == old && single && !groups.contains_key(new) {
                if let Some(item) = groups.remove(group) {
                    groups.insert(new, item);
                    return Ok(Location::Group {
                        group: new.to_owned(),
                        index: *index,
                    });
                }
            }
        }
        Ok(location)
    }

    fn append_provider(&mut self, name: &str, table: Table) -> Result<(), ConfigError> {
        let path = self.path.clone();
        let providers = self
            .doc
            .entry("providers")
            .or_insert_with(|| implicit_table().into());
        if let Some(list) = providers.as_array_of_tables_mut() {
            list.push(table);
            return Ok(());
        }
        let groups = providers
            .as_table_like_mut()
            .ok_or_else(|| ConfigError::Edit {
                path,
                message: "providers is neither [[providers]] nor [[providers.<name>]]".into(),
            })?;
        let mut list = ArrayOfTables::new();
        list.push(table);
        groups.insert(name, Item::ArrayOfTables(list));
        Ok(())
    }
}

enum Location {
    Group { group: String, index: usize },
    List { index: usize },
}

fn implicit_table() -> Table {
    let mut table = Table::new();
    table.set_implicit(true);
    table
}

fn fill_provider(table: &mut Table, edit: &ProviderEdit) {
    set_or_remove(table, "name", Some(edit.name.trim()));
    // `api` is ours; a default one is left out so Memo Code reads the file unchanged.
    match edit.api {
        WireApi::Openai => {
            table.remove("api");
        }
        other => {
            set_or_remove(table, "api", Some(other.as_str()));
        }
    }
    set_or_remove(table, "model", Some(edit.model.trim()));
    set_or_remove(
        table,
        "base_url",
        edit.base_url
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty()),
    );
    set_or_remove(
        table,
        "env_api_key",
        edit.env_api_key
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty()),
    );
}

fn set_or_remove<V: Into<toml_edit::Value>>(
    table: &mut dyn toml_edit::TableLike,
    key: &str,
    new: Option<V>,
) {
    match new {
        Some(v) => {
            // Assigning through the existing item keeps its comments and position.
            match table.get_mut(key) {
                Some(item) if item.is_value() => {
                    let decor = item.as_value().map(|v| v.decor().clone());
                    let mut fresh = v.into();
                    if let Some(decor) = decor {
                        *fresh.decor_mut() = decor;
                    }
                    *item = Item::Value(fresh);
                }
                _ => {
                    table.insert(key, Item::Value(v.into()));
                }
            }
        }
        None => {
            table.remove(key);
        }
    }
}

/// Provider names become TOML keys and keychain entries: keep them plain.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a provider needs a name".into());
    }
    if name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "\"{name}\" is not a usable provider name: use letters, digits, '-', '_' or '.' (at most 64)"
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
