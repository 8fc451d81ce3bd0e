//! Recognising `/command args` in what the user typed.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    New,
    Clear,
    Compact,
    Init,
    Help,
    Models,
    Mcp,
    Resume,
    Skills,
    Agents,
}

impl Builtin {
    pub const ALL: [Builtin; 10] = [
        Builtin::Help,
        Builtin::New,
        Builtin::Clear,
        Builtin::Compact,
        Builtin::Init,
        Builtin::Models,
        Builtin::Mcp,
        Builtin::Resume,
        Builtin::Skills,
        Builtin::Agents,
    ];

    pub fn parse(name: &str) -> Option<Builtin> {
        Some(match name {
            "new" => Builtin::New,
            "clear" => Builtin::Clear,
            "compact" => Builtin::Compact,
            "init" => Builtin::Init,
            "help" => Builtin::Help,
            "models" => Builtin::Models,
            "mcp" => Builtin::Mcp,
            "resume" => Builtin::Resume,
            "skills" => Builtin::Skills,
            "agents" => Builtin::Agents,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Builtin::New => "new",
            Builtin::Clear => "clear",
            Builtin::Compact => "compact",
            Builtin::Init => "init",
            Builtin::Help => "help",
            Builtin::Models => "models",
            Builtin::Mcp => "mcp",
            Builtin::Resume => "resume",
            Builtin::Skills => "skills",
            Builtin::Agents => "agents",
        }
    }

    pub fn usage(self) -> &'static str {
        match self {
            Builtin::New => "/new — start a fresh session in this folder",
            Builtin::Clear => "/clear — forget this session's conversation (the log keeps it)",
            Builtin::Compact => "/compact [focus] — summarise older messages to free context",
            Builtin::Init => "/init — have the agent write AGENTS.md for this project",
            Builtin::Help => "/help — list commands",
            Builtin::Models => "/models — show or switch the provider and model",
            Builtin::Mcp => "/mcp — list MCP servers and their tools",
            Builtin::Resume => "/resume [session id] — reopen a stored session",
            Builtin::Skills => "/skills — list skills and files that could not be loaded",
            Builtin::Agents => {
                "/agents [type task] — list agent types; with a type and a task, delegate it"
            }
        }
    }
}

/// `/name args` split apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlashCall<'a> {
    pub name: &'a str,
    pub args: &'a str,
}

/// A command when the text starts with `/` and a command-like name. A first word with
/// another slash (`/usr/bin/env is missing`) is a path, so the text goes to the model.
pub fn parse(text: &str) -> Option<SlashCall<'_>> {
    let rest = text.trim_start().strip_prefix('/')?;
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let name = &rest[..end];
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'));
    valid.then(|| SlashCall {
        name,
        args: rest[end..].trim(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_paths_are_told_apart() {
        assert_eq!(
            parse("/compact focus on tests"),
            Some(SlashCall {
                name: "compact",
                args: "focus on tests"
            })
        );
        assert_eq!(
            parse("  /openspec:proposal add X"),
            Some(SlashCall {
                name: "openspec:proposal",
                args: "add X"
            })
        );
        assert_eq!(
            parse("/help"),
            Some(SlashCall {
                name: "help",
                args: ""
            })
        );
        assert_eq!(parse("/usr/bin/env is missing"), None);
        assert_eq!(parse("/ hello"), None);
        assert_eq!(parse("hello /help"), None);
    }

    #[test]
    fn every_builtin_parses_and_has_a_usage() {
        for b in Builtin::ALL {
            assert_eq!(Builtin::parse(b.name()), Some(b));
            assert!(b.usage().starts_with(&format!("/{}", b.name())));
        }
    }
}
