//! Editing `[mcp_servers.<name>]` (and the top-level `active_mcp_servers`) in config.toml
//! in place, keeping the user's comments, order and formatting, in the form Memo Code
//! writes: `memo-cli mcp add|remove` and Settings → MCP.

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
        /// Variables whose values are in the OS keychain (`keychain_env`).
        secret_env: Vec<String>,
    },
    Http {
        url: String,
        /// Legacy HTTP+SSE instead of streamable HTTP.
        sse: bool,
        bearer_token_env_var: Option<String>,
        headers: BTreeMap<String, String>,
        /// Headers whose values are in the OS keychain (`keychain_headers`).
        secret_headers: Vec<String>,
    },
}

/// The keys a server's transport is written with; an edit replaces all of them.
const TRANSPORT_KEYS: &[&str] = &[
    "type",
    "command",
    "args",
    "env",
    "keychain_env",
    "url",
    "http_headers",
    "headers",
    "keychain_headers",
];
/// Keys that only mean something for one kind of transport, dropped when it changes.
const STDIO_ONLY: &[&str] = &["cwd", "stderr"];
const HTTP_ONLY: &[&str] = &["bearer_token_env_var", "env_http_headers", "oauth"];

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
    save_server(path, name, server, false)
}

/// Replaces the transport of `name` (command, args, env; or URL and headers), keeping
/// its other settings (enabled, tool filters, timeouts) and its comments.
pub fn update_server(path: &Path, name: &str, server: &NewServer) -> Result<(), McpError> {
    save_server(path, name, server, true)
}

fn servers_table<'a>(
    doc: &'a mut DocumentMut,
    path: &Path,
) -> Result<&'a mut dyn toml_edit::TableLike, McpError> {
    doc.entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = Table::new();
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_like_mut()
        .ok_or_else(|| McpError::Config(format!("{}: mcp_servers is not a table", path.display())))
}

fn save_server(path: &Path, name: &str, server: &NewServer, replace: bool) -> Result<(), McpError> {
    check_name(name).map_err(|e| McpError::Config(e.message))?;
    let mut doc = read(path)?;
    let servers = servers_table(&mut doc, path)?;
    let old = servers.get(name).and_then(Item::as_table_like);
    match (old.is_some(), replace) {
        (true, false) => {
            return Err(McpError::Config(format!(
                "{}: an MCP server named \"{name}\" already exists; remove it first",
                path.display()
            )))
        }
        (false, true) => {
            return Err(McpError::Config(format!(
                "{}: no MCP server named \"{name}\"",
                path.display()
            )))
        }
        _ => {}
    }
    let mut table = Table::new();
    let dropped: &[&str] = match server {
        NewServer::Stdio {
            command,
            args,
            env,
            secret_env,
        } => {
            table.insert("command", value(command.as_str()));
            if !args.is_empty() {
                table.insert("args", value(args.iter().collect::<Array>()));
            }
            if !env.is_empty() {
                table.insert("env", value(inline(env)));
            }
            if !secret_env.is_empty() {
                table.insert("keychain_env", value(secret_env.iter().collect::<Array>()));
            }
            HTTP_ONLY
        }
        NewServer::Http {
            url,
            sse,
            bearer_token_env_var,
            headers,
            secret_headers,
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
            if !secret_headers.is_empty() {
                table.insert(
                    "keychain_headers",
                    value(secret_headers.iter().collect::<Array>()),
                );
            }
            STDIO_ONLY
        }
    };
    if let Some(old) = servers.get(name).and_then(Item::as_table) {
        table.decor_mut().clone_from(old.decor());
        for (key, item) in old.iter() {
            if !TRANSPORT_KEYS.contains(&key) && !dropped.contains(&key) && !table.contains_key(key)
            {
                table.insert(key, item.clone());
            }
        }
    } else if let Some(old) = servers.get(name).and_then(Item::as_table_like) {
        // An inline table (`name = { command = ... }`): its other keys are kept too.
        let kept: Vec<(String, Item)> = old
            .iter()
            .filter(|(key, _)| {
                !TRANSPORT_KEYS.contains(key) && !dropped.contains(key) && !table.contains_key(key)
            })
            .map(|(key, item)| (key.to_owned(), item.clone()))
            .collect();
        for (key, item) in kept {
            table.insert(&key, item);
        }
    }
    servers.insert(name, Item::Table(table));
    write(path, &doc)
}

/// Turns one tool of `server` off (into its `exclude_tools`, or `disabled_tools` when the
/// table already uses that spelling) or on again.
pub fn set_tool_excluded(
    path: &Path,
    server: &str,
    tool: &str,
    excluded: bool,
) -> Result<(), McpError> {
    let mut doc = read(path)?;
    let table = doc
        .get_mut("mcp_servers")
        .and_then(Item::as_table_like_mut)
        .and_then(|servers| servers.get_mut(server))
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| {
            McpError::Config(format!(
                "{}: no MCP server named \"{server}\"",
                path.display()
            ))
        })?;
    let key = if table.contains_key("disabled_tools") && !table.contains_key("exclude_tools") {
        "disabled_tools"
    } else {
        "exclude_tools"
    };
    let mut list: Vec<String> = table
        .get(key)
        .and_then(Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    list.retain(|t| t != tool);
    if excluded {
        list.push(tool.to_owned());
    }
    if list.is_empty() {
        table.remove(key);
    } else {
        table.insert(key, value(list.iter().collect::<Array>()));
    }
    write(path, &doc)
}

/// Sets (or with `None` removes) the top-level `active_mcp_servers`.
pub fn set_active_servers(path: &Path, names: Option<&[String]>) -> Result<(), McpError> {
    let mut doc = read(path)?;
    match names {
        Some(names) => {
            doc[crate::config::ACTIVE_SERVERS] = value(names.iter().collect::<Array>());
        }
        None => {
            doc.remove(crate::config::ACTIVE_SERVERS);
        }
    }
    write(path, &doc)
}

/// Removes `enabled = false` from a server's table (the page's one switch for a server is
/// `active_mcp_servers`, so an old `enabled = false` must not keep it off).
pub fn clear_disabled(path: &Path, server: &str) -> Result<(), McpError> {
    let mut doc = read(path)?;
    let Some(table) = doc
        .get_mut("mcp_servers")
        .and_then(Item::as_table_like_mut)
        .and_then(|servers| servers.get_mut(server))
        .and_then(Item::as_table_like_mut)
    else {
        return Ok(());
    };
    if table.get("enabled").and_then(Item::as_bool) == Some(false) {
        table.remove("enabled");
        write(path, &doc)?;
    }
    Ok(())
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
                secret_env: vec![],
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
                secret_headers: vec![],
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
                secret_env: vec![],
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
                secret_headers: vec![],
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
                secret_env: vec![],
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("contains ' '"), "{err}");
    }

    #[test]
    fn edit_keeps_other_settings_and_tools_and_active_list_are_toggled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let original = "# mine\n[mcp_servers.fs] # files\ncommand = \"old\"\nenv = { A = \"1\" }\ncwd = \"/src\"\ntool_timeout_sec = 5\ndisabled_tools = [\"a\"]\n\n[mcp_servers.web]\nurl = \"https://example.com/mcp\"\n";
        std::fs::write(&path, original).unwrap();
        update_server(
            &path,
            "fs",
            &NewServer::Stdio {
                command: "node".into(),
                args: vec!["x.js".into()],
                env: BTreeMap::new(),
                secret_env: vec!["API_KEY".into()],
            },
        )
        .unwrap();
        set_tool_excluded(&path, "fs", "b", true).unwrap();
        set_tool_excluded(&path, "fs", "a", false).unwrap();
        set_active_servers(&path, Some(&["web".to_owned()])).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("active_mcp_servers = [\"web\"]\n# mine\n[mcp_servers.fs] # files\ncommand = \"node\"\nargs = [\"x.js\"]\nkeychain_env = [\"API_KEY\"]\ncwd = \"/src\"\ntool_timeout_sec = 5\ndisabled_tools = [\"b\"]\n"), "{text}");
        let config = memo_config::Config::load_file(&path).unwrap();
        let set = crate::load_config(&config, None, &|_: &str| None);
        assert!(set.problems.is_empty(), "{:?}", set.problems);
        let fs = set.get("fs").unwrap();
        assert!(!fs.enabled, "not in active_mcp_servers");
        assert!(set.get("web").unwrap().enabled);
        assert_eq!(fs.exclude_tools, ["b"]);
        let TransportConfig::Stdio(stdio) = &fs.transport else {
            panic!()
        };
        assert_eq!(stdio.secret_env, ["API_KEY"]);
        assert!(stdio.env.is_empty());

        let err = update_server(
            &path,
            "nope",
            &NewServer::Stdio {
                command: "x".into(),
                args: vec![],
                env: BTreeMap::new(),
                secret_env: vec![],
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("no MCP server"), "{err}");
        // Switching to HTTP drops what only a process has.
        update_server(
            &path,
            "fs",
            &NewServer::Http {
                url: "http://127.0.0.1:9/sse".into(),
                sse: true,
                bearer_token_env_var: None,
                headers: BTreeMap::new(),
                secret_headers: vec!["Authorization".into()],
            },
        )
        .unwrap();
        set_active_servers(&path, None).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("cwd") && !text.contains("active_mcp_servers"),
            "{text}"
        );
        let config = memo_config::Config::load_file(&path).unwrap();
        let set = crate::load_config(&config, None, &|_: &str| None);
        assert!(set.get("fs").unwrap().enabled);
    }
}
