//! `memo-cli mcp add|remove`: editing `[mcp_servers.<name>]` in config.toml in place,
//! keeping the user's comments, order and formatting, in the form Memo Code writes.

use std::collections::BTreeMap;
use std::path::Path;

use toml_edit::{value, Array, DocumentMut, InlineTable, Item, Table};

use crate::config::check_name;
use crate::error::McpError;

/// A server to add.
#[derive(Debug, Clone, PartialEq)]
pub enum NewServer {
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
    },
    Http {
        url: String,
        /// Legacy HTTP+SSE instead of streamable HTTP.
        sse: bool,
        bearer_token_env_var: Option<String>,
        headers: BTreeMap<String, String>,
    },
}

fn read(path: &Path) -> Result<DocumentMut, McpError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e.into()),
    };
    text.parse::<DocumentMut>()
        .map_err(|e| McpError::Config(format!("{}: {e}", path.display())))
}

/// Writes through a temporary file so a crash never leaves half a config.
fn write(path: &Path, doc: &DocumentMut) -> Result<(), McpError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, doc.to_string())?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// Adds `name`; fails when config.toml already has a server of that name.
pub fn add_server(path: &Path, name: &str, server: &NewServer) -> Result<(), McpError> {
    check_name(name).map_err(|e| McpError::Config(e.message))?;
    let mut doc = read(path)?;
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = Table::new();
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_like_mut()
        .ok_or_else(|| {
            McpError::Config(format!("{}: mcp_servers is not a table", path.display()))
        })?;
    if servers.contains_key(name) {
        return Err(McpError::Config(format!(
            "{}: an MCP server named \"{name}\" already exists; remove it first",
            path.display()
        )));
    }
    let mut table = Table::new();
    match server {
        NewServer::Stdio { command, args, env } => {
            table.insert("command", value(command.as_str()));
            if !args.is_empty() {
                table.insert("args", value(args.iter().collect::<Array>()));
            }
            if !env.is_empty() {
                table.insert("env", value(inline(env)));
            }
        }
        NewServer::Http {
            url,
            sse,
            bearer_token_env_var,
            headers,
        } => {
            crate::config::check_url(url).map_err(|e| McpError::Config(e.message))?;
            table.insert("type", value(if *sse { "sse" } else { "streamable_http" }));
            table.insert("url", value(url.as_str()));
            if let Some(var) = bearer_token_env_var {
                table.insert("bearer_token_env_var", value(var.as_str()));
            }
            if !headers.is_empty() {
                table.insert("http_headers", value(inline(headers)));
            }
        }
    }
    servers.insert(name, Item::Table(table));
    write(path, &doc)
}

fn inline(map: &BTreeMap<String, String>) -> InlineTable {
    map.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// Removes `name` from config.toml; returns whether it was there.
pub fn remove_server(path: &Path, name: &str) -> Result<bool, McpError> {
    let mut doc = read(path)?;
    let Some(servers) = doc.get_mut("mcp_servers").and_then(Item::as_table_like_mut) else {
        return Ok(false);
    };
    if servers.remove(name).is_none() {
        return Ok(false);
    }
    if servers.is_empty() {
        doc.remove("mcp_servers");
    }
    write(path, &doc)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{parse_memo_config, TransportConfig};

    fn parsed(path: &Path) -> Vec<crate::config::ServerConfig> {
        let config = memo_config::Config::load_file(path).unwrap();
        let (servers, problems) = parse_memo_config(&config.extra, path);
        assert!(problems.is_empty(), "{problems:?}");
        servers
    }

    #[test]
    fn add_and_remove_keep_the_rest_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let original = "# my providers\ncurrent_provider = \"deepseek\" # the default\n\n[[providers.deepseek]]\nname = \"deepseek\"\nmodel = \"deepseek-chat\"\n";
        std::fs::write(&path, original).unwrap();
        add_server(
            &path,
            "fs",
            &NewServer::Stdio {
                command: "npx".into(),
                args: vec![
                    "-y".into(),
                    "@modelcontextprotocol/server-filesystem".into(),
                ],
                env: BTreeMap::from([("LOG".into(), "1".into())]),
            },
        )
        .unwrap();
        add_server(
            &path,
            "remote",
            &NewServer::Http {
                url: "https://example.com/mcp".into(),
                sse: false,
                bearer_token_env_var: Some("MCP_TOKEN".into()),
                headers: BTreeMap::from([("X-Team".into(), "platform".into())]),
            },
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(original), "{text}");
        assert!(text.contains("[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-filesystem\"]\nenv = { LOG = \"1\" }\n"), "{text}");
        let servers = parsed(&path);
        assert_eq!(servers.len(), 2);
        let TransportConfig::StreamableHttp(h) = &servers[1].transport else {
            panic!("{servers:?}")
        };
        assert_eq!(h.bearer_token_env_var.as_deref(), Some("MCP_TOKEN"));
        assert_eq!(h.headers["X-Team"], "platform");

        let err = add_server(
            &path,
            "fs",
            &NewServer::Stdio {
                command: "x".into(),
                args: vec![],
                env: BTreeMap::new(),
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
        assert!(remove_server(&path, "fs").unwrap());
        assert!(!remove_server(&path, "fs").unwrap());
        assert!(remove_server(&path, "remote").unwrap());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().trim_end(),
            original.trim_end()
        );
    }

    #[test]
    fn a_missing_file_is_created_and_bad_names_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("home/config.toml");
        add_server(
            &path,
            "old",
            &NewServer::Http {
                url: "http://127.0.0.1:9/sse".into(),
                sse: true,
                bearer_token_env_var: None,
                headers: BTreeMap::new(),
            },
        )
        .unwrap();
        assert!(matches!(
            parsed(&path)[0].transport,
            TransportConfig::Sse(_)
        ));
        let err = add_server(
            &path,
            "bad name",
            &NewServer::Stdio {
                command: "x".into(),
                args: vec![],
                env: BTreeMap::new(),
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("contains ' '"), "{err}");
    }
}
