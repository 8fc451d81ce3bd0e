//! What a project's own files would start: the list a person is shown before trusting a
//! folder, and the fingerprint [`memo_config::TrustStore`] keeps so a change is asked
//! about again.

use std::path::Path;

use crate::config::TransportConfig;
use crate::config_files::load_project;

/// One server a project file declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectServer {
    /// The file, relative to the folder (`.mcp.json`).
    pub file: String,
    pub name: String,
    /// What starting it does: the command line, or the address it connects to.
    pub runs: String,
}

impl ProjectServer {
    /// One line naming everything that decides what runs; a different line is a different
    /// thing to trust.
    pub fn fingerprint(&self) -> String {
        format!("{} {}: {}", self.file, self.name, self.runs)
    }
}

/// The enabled servers of `dir`'s project files (empty when `mcp_project_configs = false`
/// in config.toml turns them off altogether).
pub fn project_servers(
    config: &memo_config::Config,
    dir: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<ProjectServer> {
    if !project_configs_enabled(config) {
        return Vec::new();
    }
    load_project(dir, env)
        .servers
        .into_iter()
        .filter(|s| s.enabled)
        .map(|s| ProjectServer {
            file: s
                .source
                .path
                .strip_prefix(dir)
                .unwrap_or(&s.source.path)
                .to_string_lossy()
                .into_owned(),
            runs: describe(&s.transport),
            name: s.name,
        })
        .collect()
}

/// Whether config.toml lets project files declare servers at all (`mcp_project_configs`).
pub fn project_configs_enabled(config: &memo_config::Config) -> bool {
    !matches!(
        config.extra.get("mcp_project_configs"),
        Some(toml::Value::Boolean(false))
    )
}

/// The command line with its environment's names; the values are not shown (they may be
/// secrets) but a digest of them is part of the line, so changing one asks again.
fn describe(transport: &TransportConfig) -> String {
    match transport {
        TransportConfig::Stdio(stdio) => {
            let mut line = std::iter::once(stdio.command.as_str())
                .chain(stdio.args.iter().map(String::as_str))
                .map(quote)
                .collect::<Vec<_>>()
                .join(" ");
            if let Some(cwd) = &stdio.cwd {
                line.push_str(&format!(" (in {})", cwd.display()));
            }
            if !stdio.env.is_empty() {
                let names: Vec<&str> = stdio.env.keys().map(String::as_str).collect();
                let values: Vec<(&String, &String)> = stdio.env.iter().collect();
                line.push_str(&format!(
                    " (env {} #{:08x})",
                    names.join(", "),
                    digest(&format!("{values:?}"))
                ));
            }
            line
        }
        TransportConfig::StreamableHttp(http) | TransportConfig::Sse(http) => {
            let mut line = format!("connects to {}", http.url);
            let headers: Vec<&str> = http
                .headers
                .keys()
                .chain(http.env_headers.keys())
                .map(String::as_str)
                .collect();
            if !headers.is_empty() {
                line.push_str(&format!(" (headers {})", headers.join(", ")));
            }
            line
        }
    }
}

/// Words with spaces or quotes are shown quoted as a shell would need them, so the line
/// reads as what runs: in double quotes when nothing in the word is special there (a
/// `sh -c` script full of single quotes stays readable), else in single quotes.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@+,%~".contains(c))
    {
        word.to_owned()
    } else if !word.contains(['"', '$', '`', '\\', '!']) {
        format!("\"{word}\"")
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// FNV-1a: stable across builds, unlike std's hasher.
fn digest(text: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in text.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_projects_servers_are_listed_as_what_they_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".mcp.json"),
            r#"{"mcpServers": {
                "files": {"command": "npx", "args": ["-y", "server files", "it's", "$HOME"], "env": {"TOKEN": "${T}"}},
                "remote": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"X-Key": "k"}},
                "off": {"command": "x", "disabled": true}
            }}"#,
        )
        .unwrap();
        let config = memo_config::Config::parse("", Path::new("/h/config.toml")).unwrap();
        let env = |name: &str| (name == "T").then(|| "secret".to_owned());
        let servers = project_servers(&config, dir.path(), &env);
        let lines: Vec<String> = servers.iter().map(ProjectServer::fingerprint).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with(
                r#".mcp.json files: npx -y "server files" "it's" '$HOME' (env TOKEN #"#
            ),
            "{lines:?}"
        );
        assert!(!lines[0].contains("secret"));
        assert_eq!(
            lines[1],
            ".mcp.json remote: connects to https://mcp.example.com/mcp (headers X-Key)"
        );
        // Another value for the same variable is another fingerprint.
        let other = |name: &str| (name == "T").then(|| "other".to_owned());
        assert_ne!(
            project_servers(&config, dir.path(), &other)[0].fingerprint(),
            lines[0]
        );
        let off =
            memo_config::Config::parse("mcp_project_configs = false\n", Path::new("/h/c.toml"))
                .unwrap();
        assert!(project_servers(&off, dir.path(), &env).is_empty());
    }
}
