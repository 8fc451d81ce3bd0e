//! The `mcpServers` objects other agents keep in a project, read unchanged:
//!
//! - Claude Code `.mcp.json`: `type` (stdio | http | sse), `command`, `args`, `env`, `url`,
//!   `headers`; `${VAR}` and `${VAR:-default}` expand from the environment.
//! - Gemini CLI `.gemini/settings.json`: `command`, `args`, `env`, `cwd`, `url` (SSE),
//!   `httpUrl` (streamable HTTP), `headers`, `timeout` (ms per call), `includeTools`,
//!   `excludeTools`; `$VAR`/`${VAR}` expand; comments are allowed.
//! - Cursor `.cursor/mcp.json`: `command`, `args`, `env`, `url`, `headers`;
//!   `${env:VAR}` and `${workspaceFolder}` expand. A URL ending in `/sse` is the legacy
//!   transport, any other streamable HTTP.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::config::{
    check_name, check_url, ConfigProblem, ConfigSource, HttpConfig, OAuthSettings, ServerConfig,
    SourceKind, StderrMode, StdioConfig, TransportConfig, DEFAULT_STARTUP_TIMEOUT,
    DEFAULT_TOOL_TIMEOUT,
};
use crate::config_values::{Fields, ValueError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonFlavor {
    Claude,
    Gemini,
    Cursor,
}

impl JsonFlavor {
    fn kind(self) -> SourceKind {
        match self {
            JsonFlavor::Claude => SourceKind::Claude,
            JsonFlavor::Gemini => SourceKind::Gemini,
            JsonFlavor::Cursor => SourceKind::Cursor,
        }
    }
}

/// Parses one project file's `mcpServers`. A file without that key has no servers.
pub fn parse_json_file(
    text: &str,
    path: &Path,
    flavor: JsonFlavor,
    env: &dyn Fn(&str) -> Option<String>,
) -> (Vec<ServerConfig>, Vec<ConfigProblem>) {
    let mut servers = Vec::new();
    let mut problems = Vec::new();
    let problem = |key: String, message: String| ConfigProblem {
        path: path.to_owned(),
        key,
        message,
    };
    let root: Value = match serde_json::from_str(&strip_comments(text)) {
        Ok(root) => root,
        Err(e) => {
            problems.push(problem("mcpServers".into(), format!("invalid JSON: {e}")));
            return (servers, problems);
        }
    };
    let Some(map) = root.get("mcpServers") else {
        return (servers, problems);
    };
    let Some(map) = map.as_object() else {
        problems.push(problem("mcpServers".into(), "expected an object".into()));
        return (servers, problems);
    };
    let source = ConfigSource {
        kind: flavor.kind(),
        path: path.to_owned(),
    };
    let workspace = path
        .parent()
        .map(|p| {
            if matches!(flavor, JsonFlavor::Claude) {
                p.to_path_buf()
            } else {
                // .gemini/settings.json and .cursor/mcp.json sit one folder down.
                p.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        })
        .unwrap_or_default();
    for (name, value) in map {
        let mut expander = Expander {
            env,
            flavor,
            workspace: &workspace,
            missing: Vec::new(),
        };
        let key = format!("mcpServers.{name}");
        match json_server(name, value, &source, &mut expander) {
            Ok(server) => {
                for var in expander.missing {
                    problems.push(problem(
                        key.clone(),
                        format!("environment variable {var} is not set (expanded to \"\")"),
                    ));
                }
                servers.push(server);
            }
            Err(e) => problems.push(problem(
                e.key.map(|k| format!("{key}.{k}")).unwrap_or(key),
                e.message,
            )),
        }
    }
    (servers, problems)
}

fn json_server(
    name: &str,
    value: &Value,
    source: &ConfigSource,
    x: &mut Expander<'_>,
) -> Result<ServerConfig, ValueError> {
    check_name(name)?;
    let mut f = Fields::new(value)?;
    // Settings of the other agents that mean nothing here.
    f.ignore(&[
        "trust",
        "description",
        "disabled",
        "autoApprove",
        "alwaysAllow",
        "oauth",
        "authProviderType",
        "envFile",
    ]);
    let kind = f.string("type")?;
    let url = f.string("url")?.map(|u| x.expand(&u));
    let http_url = f.string("httpUrl")?.map(|u| x.expand(&u));
    let headers = x.expand_map(f.string_map("headers")?.unwrap_or_default());
    let http = |url: String| -> Result<HttpConfig, ValueError> {
        check_url(&url)?;
        Ok(HttpConfig {
            url,
            bearer_token_env_var: None,
            headers: headers.clone(),
            env_headers: Default::default(),
            secret_headers: Vec::new(),
            oauth: OAuthSettings::default(),
        })
    };
    let transport = match (kind.as_deref(), url, http_url) {
        (_, _, Some(url)) => TransportConfig::StreamableHttp(http(url)?),
        (Some("sse"), Some(url), None) => TransportConfig::Sse(http(url)?),
        (Some("http" | "streamable-http" | "streamable_http"), Some(url), None) => {
            TransportConfig::StreamableHttp(http(url)?)
        }
        (None, Some(url), None) => {
            // Gemini's `url` is SSE; Cursor and Claude guess from the path.
            let sse = matches!(source.kind, SourceKind::Gemini)
                || url.trim_end_matches('/').ends_with("/sse");
            if sse {
                TransportConfig::Sse(http(url)?)
            } else {
                TransportConfig::StreamableHttp(http(url)?)
            }
        }
        (None | Some("stdio"), None, None) => {
            let command = f
                .string("command")?
                .map(|c| x.expand(&c))
                .filter(|c| !c.trim().is_empty())
                .ok_or_else(|| ValueError::at("command", "missing: needs a command or a url"))?;
            TransportConfig::Stdio(StdioConfig {
                command,
                args: f
                    .strings("args")?
                    .unwrap_or_default()
                    .iter()
                    .map(|a| x.expand(a))
                    .collect(),
                env: x.expand_env(f.string_map("env")?.unwrap_or_default()),
                // Project files are other agents' formats, which keep no secrets in Memo's keychain.
                secret_env: Vec::new(),
                cwd: f.string("cwd")?.map(|c| PathBuf::from(x.expand(&c))),
                stderr: StderrMode::Pipe,
            })
        }
        (Some(other), url, _) => {
            return Err(if url.is_none() && other != "stdio" {
                ValueError::at("url", format!("missing: a {other} server needs a url"))
            } else {
                ValueError::at("type", format!("unknown transport \"{other}\""))
            });
        }
    };
    let timeout = match f.get_number("timeout") {
        Some(ms) if ms > 0.0 && ms.is_finite() => Duration::from_secs_f64(ms / 1000.0),
        _ => DEFAULT_TOOL_TIMEOUT,
    };
    Ok(ServerConfig {
        name: name.to_owned(),
        transport,
        enabled: !f.bool("disabled")?.unwrap_or(false),
        include_tools: f.strings("includeTools")?,
        exclude_tools: f.strings("excludeTools")?.unwrap_or_default(),
        startup_timeout: DEFAULT_STARTUP_TIMEOUT,
        tool_timeout: timeout,
        source: source.clone(),
    })
}

impl Fields<'_> {
    fn get_number(&mut self, key: &'static str) -> Option<f64> {
        self.has(key).then_some(())?;
        self.duration(&[(key, 1.0)])
            .ok()
            .flatten()
            .map(|d| d.as_secs_f64() * 1000.0)
    }
}

/// `${...}` references of the three agents' config files.
struct Expander<'a> {
    env: &'a dyn Fn(&str) -> Option<String>,
    flavor: JsonFlavor,
    workspace: &'a Path,
    missing: Vec<String>,
}

impl Expander<'_> {
    fn expand(&mut self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else {
                out.push_str(&rest[start..]);
                return out;
            };
            out.push_str(&self.resolve(&after[..end]));
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        out
    }

    fn resolve(&mut self, expr: &str) -> String {
        if expr == "workspaceFolder" && self.flavor == JsonFlavor::Cursor {
            return self.workspace.display().to_string();
        }
        let expr = expr.strip_prefix("env:").unwrap_or(expr);
        let (var, default) = match expr.split_once(":-") {
            Some((var, default)) => (var, Some(default)),
            None => (expr, None),
        };
        match ((self.env)(var), default) {
            (Some(value), _) => value,
            (None, Some(default)) => default.to_owned(),
            (None, None) => {
                self.missing.push(var.to_owned());
                String::new()
            }
        }
    }

    fn expand_map(
        &mut self,
        map: std::collections::BTreeMap<String, String>,
    ) -> std::collections::BTreeMap<String, String> {
        map.into_iter().map(|(k, v)| (k, self.expand(&v))).collect()
    }

    /// Gemini also expands a bare `$VAR` in env values.
    fn expand_env(
        &mut self,
        map: std::collections::BTreeMap<String, String>,
    ) -> std::collections::BTreeMap<String, String> {
        map.into_iter()
            .map(|(k, v)| {
                let v = match (self.flavor, v.strip_prefix('$')) {
                    (JsonFlavor::Gemini, Some(var))
                        if !var.starts_with('{')
                            && !var.is_empty()
                            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                    {
                        self.resolve(var)
                    }
                    _ => self.expand(&v),
                };
                (k, v)
            })
            .collect()
    }
}

/// Drops `//` and `/* */` comments outside strings (Gemini's settings allow them).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(flavor: JsonFlavor, text: &str) -> (Vec<ServerConfig>, Vec<ConfigProblem>) {
        let env = |k: &str| match k {
            "TOKEN" => Some("s3cret".to_owned()),
            "HOME" => Some("/home/u".to_owned()),
            _ => None,
        };
        parse_json_file(text, Path::new("/p/.cursor/mcp.json"), flavor, &env)
    }

    #[test]
    fn claude_file_with_types_and_expansion() {
        let (servers, problems) = parse(
            JsonFlavor::Claude,
            r#"{"mcpServers": {
                "fs": {"command": "npx", "args": ["-y", "srv", "${HOME}/x"], "env": {"T": "${TOKEN}", "D": "${NOPE:-dflt}"}},
                "api": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
                "old": {"type": "sse", "url": "https://h/sse"},
                "bad": {"type": "http"},
                "miss": {"command": "x", "args": ["${MISSING}"]}
            }}"#,
        );
        let names: Vec<_> = servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["api", "fs", "miss", "old"]);
        let TransportConfig::Stdio(fs) = &servers[1].transport else {
            panic!()
        };
        assert_eq!(fs.args, ["-y", "srv", "/home/u/x"]);
        assert_eq!(fs.env["T"], "s3cret");
        assert_eq!(fs.env["D"], "dflt");
        let TransportConfig::StreamableHttp(api) = &servers[0].transport else {
            panic!()
        };
        assert_eq!(api.headers["Authorization"], "Bearer s3cret");
        assert!(matches!(servers[3].transport, TransportConfig::Sse(_)));
        assert_eq!(servers[0].source.kind, SourceKind::Claude);
        let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert!(
            shown
                .iter()
                .any(|p| p.contains("mcpServers.bad.url: missing")),
            "{shown:?}"
        );
        assert!(
            shown
                .iter()
                .any(|p| p.contains("mcpServers.miss") && p.contains("MISSING")),
            "{shown:?}"
        );
    }

    #[test]
    fn gemini_file_with_comments_http_url_filters_and_timeout() {
        let (servers, problems) = parse(
            JsonFlavor::Gemini,
            r#"{
              // user settings
              "theme": "dark",
              "mcpServers": {
                "py": {"command": "uvx", "args": ["srv"], "cwd": "./tools", "env": {"K": "$TOKEN"},
                       "timeout": 30000, "trust": true, "includeTools": ["a", "b"], "excludeTools": ["b"]},
                "remote": {"httpUrl": "https://h/mcp", "headers": {"X": "1"}},
                "legacy": {"url": "https://h/events"} /* SSE */
              }
            }"#,
        );
        assert!(problems.is_empty(), "{problems:?}");
        let py = servers.iter().find(|s| s.name == "py").unwrap();
        let TransportConfig::Stdio(stdio) = &py.transport else {
            panic!()
        };
        assert_eq!(stdio.env["K"], "s3cret");
        assert_eq!(stdio.cwd.as_deref(), Some(Path::new("./tools")));
        assert_eq!(py.tool_timeout, Duration::from_secs(30));
        assert!(py.allows_tool("a") && !py.allows_tool("b") && !py.allows_tool("c"));
        let remote = servers.iter().find(|s| s.name == "remote").unwrap();
        assert!(matches!(
            remote.transport,
            TransportConfig::StreamableHttp(_)
        ));
        let legacy = servers.iter().find(|s| s.name == "legacy").unwrap();
        assert!(matches!(legacy.transport, TransportConfig::Sse(_)));
    }

    #[test]
    fn cursor_file_guesses_sse_from_the_path_and_expands_its_variables() {
        let (servers, problems) = parse(
            JsonFlavor::Cursor,
            r#"{"mcpServers": {
                "a": {"url": "http://localhost:9/sse"},
                "b": {"url": "http://localhost:9/mcp", "headers": {"K": "${env:TOKEN}"}},
                "c": {"command": "node", "args": ["${workspaceFolder}/srv.js"]}
            }}"#,
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert!(matches!(servers[0].transport, TransportConfig::Sse(_)));
        let TransportConfig::StreamableHttp(b) = &servers[1].transport else {
            panic!()
        };
        assert_eq!(b.headers["K"], "s3cret");
        let TransportConfig::Stdio(c) = &servers[2].transport else {
            panic!()
        };
        assert_eq!(c.args, ["/p/srv.js"]);
    }

    #[test]
    fn broken_files_are_problems_not_panics() {
        let (servers, problems) = parse(JsonFlavor::Claude, "{not json");
        assert!(servers.is_empty());
        assert!(problems[0].message.contains("invalid JSON"));
        let (servers, problems) = parse(JsonFlavor::Claude, r#"{"other": 1}"#);
        assert!(servers.is_empty() && problems.is_empty());
        let (_, problems) = parse(
            JsonFlavor::Claude,
            r#"{"mcpServers": {"a b": {"command": "x"}}}"#,
        );
        assert!(problems[0].message.contains("contains ' '"), "{problems:?}");
    }

    #[test]
    fn comments_inside_strings_survive() {
        assert_eq!(
            strip_comments(r#"{"u": "http://x//y", /* c */ "v": "/*"} // end"#),
            r#"{"u": "http://x//y",  "v": "/*"} "#
        );
    }
}
