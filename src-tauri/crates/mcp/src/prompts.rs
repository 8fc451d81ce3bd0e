//! Server prompts as slash commands: `/server:prompt` followed by its arguments, either
//! `name=value` or by position in the order the server declares them; quotes group
//! words, and the last argument takes whatever words are left.

use std::collections::BTreeMap;

use crate::calls::CallError;
use crate::manager::{McpManager, PromptInfo};

/// `/server:prompt rest` split into its parts; `None` for anything else.
pub fn parse_command(text: &str) -> Option<(&str, &str, &str)> {
    let body = text.trim_start().strip_prefix('/')?;
    let (head, rest) = match body.find(char::is_whitespace) {
        Some(at) => (&body[..at], body[at..].trim()),
        None => (body, ""),
    };
    let (server, prompt) = head.split_once(':')?;
    if server.is_empty() || prompt.is_empty() {
        return None;
    }
    Some((server, prompt, rest))
}

/// Words with shell-like quoting ("two words", 'two words').
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                started = true;
            }
            None if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            None => {
                current.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(current);
    }
    out
}

/// Binds the command line's words to the prompt's arguments.
pub fn bind_arguments(prompt: &PromptInfo, rest: &str) -> Result<BTreeMap<String, String>, String> {
    let mut bound = BTreeMap::new();
    let mut positional = Vec::new();
    for token in tokens(rest) {
        match token.split_once('=') {
            Some((key, value)) if prompt.arguments.iter().any(|a| a.name == key) => {
                bound.insert(key.to_owned(), value.to_owned());
            }
            _ => positional.push(token),
        }
    }
    let open: Vec<&str> = prompt
        .arguments
        .iter()
        .map(|a| a.name.as_str())
        .filter(|name| !bound.contains_key(*name))
        .collect();
    let mut words = positional.into_iter();
    for (i, name) in open.iter().enumerate() {
        let value = if i + 1 == open.len() {
            let rest: Vec<String> = words.by_ref().collect();
            (!rest.is_empty()).then(|| rest.join(" "))
        } else {
            words.next()
        };
        if let Some(value) = value {
            bound.insert((*name).to_owned(), value);
        }
    }
    if words.next().is_some() || (open.is_empty() && !rest.trim().is_empty() && bound.is_empty()) {
        return Err(format!("too many arguments. Usage: {}", usage(prompt)));
    }
    let missing: Vec<&str> = prompt
        .arguments
        .iter()
        .filter(|a| a.required && !bound.contains_key(&a.name))
        .map(|a| a.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing {}: {}. Usage: {}",
            if missing.len() == 1 {
                "argument"
            } else {
                "arguments"
            },
            missing.join(", "),
            usage(prompt)
        ));
    }
    Ok(bound)
}

/// `/server:prompt <required> [optional]`.
pub fn usage(prompt: &PromptInfo) -> String {
    let mut out = format!("/{}", prompt.command());
    for a in &prompt.arguments {
        if a.required {
            out.push_str(&format!(" <{}>", a.name));
        } else {
            out.push_str(&format!(" [{}]", a.name));
        }
    }
    out
}

/// What a `/server:prompt` line became.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptCommand {
    /// The prompt's text, to send as the user's message.
    Expanded { command: String, text: String },
    /// Why it could not be used (unknown prompt, bad arguments, server down).
    Failed { command: String, message: String },
}

impl McpManager {
    /// Whether `text` names a prompt of a configured server (`/server:prompt ...`).
    pub fn is_prompt_command(&self, text: &str) -> bool {
        parse_command(text).is_some_and(|(server, _, _)| self.inner.slot(server).is_some())
    }

    /// Renders `/server:prompt args`; `None` when `text` is not such a command.
    pub async fn expand_prompt_command(&self, text: &str) -> Option<PromptCommand> {
        let (server, name, rest) = parse_command(text)?;
        self.inner.slot(server)?;
        let command = format!("/{server}:{name}");
        let failed = |message: String| {
            Some(PromptCommand::Failed {
                command: command.clone(),
                message,
            })
        };
        // The catalog may still be loading on a first turn.
        let prompt = match self.prompt_info(server, name) {
            Some(p) => p,
            None => {
                self.wait_ready().await;
                match self.prompt_info(server, name) {
                    Some(p) => p,
                    None => {
                        let known: Vec<String> = self
                            .prompts()
                            .iter()
                            .filter(|p| p.server == server)
                            .map(|p| format!("/{}", p.command()))
                            .collect();
                        return failed(if known.is_empty() {
                            format!(
                                "the MCP server \"{server}\" offers no prompts (or is not running)"
                            )
                        } else {
                            format!(
                                "the MCP server \"{server}\" has no prompt \"{name}\"; it has {}",
                                known.join(", ")
                            )
                        });
                    }
                }
            }
        };
        let args = match bind_arguments(&prompt, rest) {
            Ok(args) => args,
            Err(message) => return failed(message),
        };
        match self.get_prompt(server, name, args).await {
            Ok(text) => Some(PromptCommand::Expanded { command, text }),
            Err(CallError::Failed(e)) => failed(e.to_string()),
            Err(CallError::Tool(m)) => failed(m),
            Err(CallError::Interrupted) => failed("interrupted".into()),
        }
    }

    /// The servers, their state, tools and prompt commands, for `/mcp`.
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from("MCP servers:\n");
        let prompts = self.prompts();
        for s in self.servers() {
            let _ = write!(
                out,
                "  {} — {} ({}, {})",
                s.name,
                s.status.label().replace('_', " "),
                s.transport,
                s.source
            );
            if let Some(message) = &s.message {
                let _ = write!(out, ": {message}");
            }
            out.push('\n');
            if !s.tools.is_empty() {
                let _ = writeln!(
                    out,
                    "      tools ({}): {}",
                    s.tools.len(),
                    s.tools.join(", ")
                );
            }
            let commands: Vec<String> = prompts
                .iter()
                .filter(|p| p.server == s.name)
                .map(usage)
                .collect();
            if !commands.is_empty() {
                let _ = writeln!(out, "      prompts: {}", commands.join(", "));
            }
            if let Some(tail) = &s.stderr_tail {
                let _ = writeln!(out, "      stderr:");
                for line in tail.lines() {
                    let _ = writeln!(out, "        {line}");
                }
            }
        }
        for note in self.notes() {
            let _ = writeln!(out, "  ! {note}");
        }
        // Where the user changes this, in the app (memo-cli has `mcp add|remove` too).
        let _ = writeln!(
            out,
            "Add, edit or turn off servers and their tools in Settings → MCP (new sessions use the changes)."
        );
        out.trim_end().to_owned()
    }

    fn prompt_info(&self, server: &str, name: &str) -> Option<PromptInfo> {
        self.prompts()
            .into_iter()
            .find(|p| p.server == server && p.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::PromptArgument;

    fn prompt(args: &[(&str, bool)]) -> PromptInfo {
        PromptInfo {
            server: "ev".into(),
            name: "args-prompt".into(),
            description: None,
            arguments: args
                .iter()
                .map(|(n, r)| PromptArgument {
                    name: (*n).into(),
                    description: None,
                    required: *r,
                })
                .collect(),
        }
    }

    #[test]
    fn commands_parse_into_server_prompt_and_rest() {
        assert_eq!(
            parse_command("/ev:args-prompt a b"),
            Some(("ev", "args-prompt", "a b"))
        );
        assert_eq!(parse_command("  /ev:simple"), Some(("ev", "simple", "")));
        assert_eq!(parse_command("/compact now"), None);
        assert_eq!(parse_command("/:x"), None);
        assert_eq!(parse_command("hello /ev:x"), None);
    }

    #[test]
    fn arguments_bind_by_name_position_and_the_rest() {
        let p = prompt(&[("city", true), ("state", false)]);
        let bind = |rest: &str| bind_arguments(&p, rest);
        assert_eq!(
            bind("Paris").unwrap(),
            BTreeMap::from([("city".into(), "Paris".into())])
        );
        assert_eq!(
            bind("\"New York\" NY").unwrap(),
            BTreeMap::from([
                ("city".into(), "New York".into()),
                ("state".into(), "NY".into())
            ])
        );
        assert_eq!(
            bind("state=CA San Francisco").unwrap(),
            BTreeMap::from([
                ("city".into(), "San Francisco".into()),
                ("state".into(), "CA".into())
            ])
        );
        assert_eq!(
            bind("Austin Texas state").unwrap()["state"],
            "Texas state",
            "the last argument takes the remaining words"
        );
        let err = bind("").unwrap_err();
        assert!(
            err.contains("missing argument: city")
                && err.contains("/ev:args-prompt <city> [state]"),
            "{err}"
        );
        let none = prompt(&[]);
        assert!(bind_arguments(&none, "").unwrap().is_empty());
        assert!(bind_arguments(&none, "extra")
            .unwrap_err()
            .contains("too many"));
    }
}
