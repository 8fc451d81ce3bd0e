//! `[external_agents.<name>]` in config.toml: other agents Memo runs over the Agent Client
//! Protocol (Claude Code, Codex, Gemini CLI, OpenCode, Goose…), each a command Memo starts
//! for a session.
//!
//! ```toml
//! [external_agents.claude-code]
//! command = "npx"
//! args = ["-y", "@zed-industries/claude-code-acp"]
//! env = { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = "1" }
//! secret_env = ["ANTHROPIC_API_KEY"]   # values in the OS keychain, never in this file
//! offer_mcp_servers = false            # keep Memo's MCP servers from it (default: offered)
//! ```

use std::collections::BTreeMap;

use toml::Value;

use crate::error::ConfigError;
use crate::source::{KeyPath, Source};

/// The config.toml table external agents are kept in.
pub const EXTERNAL_AGENTS: &str = "external_agents";

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExternalAgentConfig {
    /// Its key in `[external_agents]`.
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// Plain environment values, as written.
    pub env: BTreeMap<String, String>,
    /// Variables whose values are in the keychain (see [`external_agent_secret_key`]).
    pub secret_env: Vec<String>,
    /// Memo's MCP servers are not offered to it (`offer_mcp_servers = false`); by default
    /// its sessions get them, as an editor gives an agent its context servers.
    pub withhold_mcp_servers: bool,
}

/// The keychain entry of external agent `agent`'s secret variable `var`.
pub fn external_agent_secret_key(agent: &str, var: &str) -> String {
    format!("external-agent:{agent}:{var}")
}

/// Whether `name` can name an external agent: letters, digits, `-` and `_`.
pub fn valid_external_agent_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn strings(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Vec<String> {
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                Value::String(s) => Some(s.clone()),
                other => {
                    errors.push(src.error(
                        &at.index(i),
                        format!("expected a string, found {}", other.type_str()),
                    ));
                    None
                }
            })
            .collect(),
        other => {
            errors.push(src.error(
                at,
                format!("expected a list of strings, found {}", other.type_str()),
            ));
            Vec::new()
        }
    }
}

pub(crate) fn external_agents(
    src: &Source<'_>,
    at: &KeyPath,
    value: &Value,
    errors: &mut Vec<ConfigError>,
) -> Vec<ExternalAgentConfig> {
    let Value::Table(agents) = value else {
        errors.push(src.error(
            at,
            format!(
                "expected [{EXTERNAL_AGENTS}.<name>] tables, found {}",
                value.type_str()
            ),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, entry) in agents {
        let entry_at = at.key(name);
        if !valid_external_agent_name(name) {
            errors.push(src.error(
                &entry_at,
                format!("{name:?} is not a usable name: use letters, digits, - and _"),
            ));
            continue;
        }
        let Value::Table(table) = entry else {
            errors.push(src.error(
                &entry_at,
                format!("expected a table, found {}", entry.type_str()),
            ));
            continue;
        };
        let mut agent = ExternalAgentConfig {
            name: name.clone(),
            ..ExternalAgentConfig::default()
        };
        for (key, value) in table {
            let key_at = entry_at.key(key);
            match key.as_str() {
                "command" => match value {
                    Value::String(s) if !s.trim().is_empty() => agent.command = s.clone(),
                    other => errors.push(src.error(
                        &key_at,
                        format!(
                            "expected the command to run, found {}",
                            crate::values::found(other)
                        ),
                    )),
                },
                "args" => agent.args = strings(src, &key_at, value, errors),
                "secret_env" => agent.secret_env = strings(src, &key_at, value, errors),
                "offer_mcp_servers" => match value {
                    Value::Boolean(offer) => agent.withhold_mcp_servers = !offer,
                    other => errors.push(src.error(
                        &key_at,
                        format!("expected true or false, found {}", other.type_str()),
                    )),
                },
                "env" => match value {
                    Value::Table(vars) => {
                        for (var, v) in vars {
                            match v {
                                Value::String(s) => {
                                    agent.env.insert(var.clone(), s.clone());
                                }
                                other => errors.push(src.error(
                                    &key_at.key(var),
                                    format!("expected a string, found {}", other.type_str()),
                                )),
                            }
                        }
                    }
                    other => errors.push(src.error(
                        &key_at,
                        format!("expected a table of strings, found {}", other.type_str()),
                    )),
                },
                other => errors.push(src.error(
                    &key_at,
                    format!("unknown key {other:?} (known: command, args, env, secret_env, offer_mcp_servers)"),
                )),
            }
        }
        if agent.command.is_empty() && !table.contains_key("command") {
            errors.push(src.error(&entry_at, "an external agent needs a `command`"));
            continue;
        }
        out.push(agent);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::Config;

    #[test]
    fn agents_are_read_with_their_env_and_secret_names() {
        let config = Config::parse(
            r#"
[external_agents.claude-code]
command = "npx"
args = ["-y", "@zed-industries/claude-code-acp"]
env = { DISABLE_TELEMETRY = "1" }
secret_env = ["ANTHROPIC_API_KEY"]
"#,
            Path::new("/c.toml"),
        )
        .unwrap();
        let agent = &config.external_agents[0];
        assert_eq!(agent.name, "claude-code");
        assert_eq!(agent.command, "npx");
        assert_eq!(agent.args, ["-y", "@zed-industries/claude-code-acp"]);
        assert_eq!(agent.env["DISABLE_TELEMETRY"], "1");
        assert_eq!(agent.secret_env, ["ANTHROPIC_API_KEY"]);
        assert!(!agent.withhold_mcp_servers, "offered unless said otherwise");
        let withheld = Config::parse(
            "[external_agents.a]\ncommand = \"a\"\noffer_mcp_servers = false\n",
            Path::new("/c.toml"),
        )
        .unwrap();
        assert!(withheld.external_agents[0].withhold_mcp_servers);
    }

    #[test]
    fn a_broken_entry_names_its_key() {
        for (text, says) in [
            ("[external_agents.a]\nargs = []\n", "needs a `command`"),
            (
                "[external_agents.a]\ncommand = 3\n",
                "external_agents.a.command",
            ),
            (
                "[external_agents.a]\ncommand = \"x\"\nargs = [1]\n",
                "expected a string",
            ),
            (
                "[external_agents.\"a b\"]\ncommand = \"x\"\n",
                "not a usable name",
            ),
            (
                "[external_agents.a]\ncommand = \"x\"\nwat = 1\n",
                "unknown key",
            ),
        ] {
            let error = Config::parse(text, Path::new("/c.toml"))
                .unwrap_err()
                .to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
    }
}
