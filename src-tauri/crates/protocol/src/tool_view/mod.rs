//! What a tool call is and did, typed: the one meaning every front end renders (the
//! desktop's cards, memo-cli's text, the ACP and remote front ends). The tool's own code
//! fills it in; the engine adds what only it knows. Front ends never read a tool's
//! arguments or the text written for the model to work it out again.
//!
//! Kinds follow what editors already speak (the Agent Client Protocol's tool kinds), so a
//! view maps onto ACP's one to one: [`ToolView::kind`].

mod text;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{FileDiff, PlanItem, SubagentState};

/// The Agent Client Protocol's tool kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    Read,
    Edit,
    Delete,
    Move,
    Search,
    Execute,
    Think,
    Fetch,
    Other,
}

/// One tool call as people read it. Sent when the call's arguments are known
/// (`tool_call_view`) and again, complete, with its end (`tool_call_end.view`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolView {
    Command(CommandView),
    FileEdit(FileEditView),
    Read(ReadView),
    Search(SearchView),
    List(ListView),
    Fetch(FetchView),
    Plan(PlanView),
    Subagent(SubagentView),
    McpCall(McpCallView),
    Memory(MemoryView),
    Other(OtherView),
}

/// A shell command (or input written to one still running).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CommandView {
    /// The command line as it runs (an argv joined with shell quoting).
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cwd: Option<String>,
    /// Run inside Memo's sandbox (Landlock), or outside it (approved escalation, or no
    /// sandbox on this system).
    pub sandboxed: bool,
    /// Text written to the running command's stdin (`write_stdin`), when that is what
    /// the call did; `command` is then the command it was written to, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stdin: Option<String>,
    pub state: CommandState,
    /// From start to the moment the call returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<u64>,
    /// Where in the call's stored output (`tool_call_end.output`) what the command
    /// printed is: the rest is bookkeeping for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output: Option<OutputRange>,
}

impl CommandView {
    /// Ended badly: a non-zero exit, or killed by a signal.
    pub fn failed(&self) -> bool {
        matches!(self.state, CommandState::Exited { code } if code != 0)
            || matches!(self.state, CommandState::Killed { .. })
    }

    /// A command not run yet: what it is, where, in or out of the sandbox; `stdin` for
    /// input written to one already running.
    pub fn pending(
        command: String,
        cwd: Option<String>,
        sandboxed: bool,
        stdin: Option<String>,
    ) -> Self {
        Self {
            command,
            cwd,
            sandboxed,
            stdin,
            state: CommandState::Pending,
            duration_ms: None,
            output: None,
        }
    }
}

/// Where a command is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CommandState {
    /// Not started yet (waiting for approval) or running inside the call.
    Pending,
    /// Still running after the call returned; the model polls it by this id.
    Running {
        session_id: u32,
    },
    Exited {
        code: i32,
    },
    /// Ended by a signal (a timeout's or an interrupt's kill included).
    Killed {
        signal: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        code: Option<i32>,
    },
}

/// A stretch of a call's stored output, in bytes (UTF-8), `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OutputRange {
    #[ts(type = "number")]
    pub start: u64,
    #[ts(type = "number")]
    pub end: u64,
}

impl OutputRange {
    /// The stretch of `output` (the whole call output, or a window's start of it: then
    /// what fits), on character boundaries.
    pub fn of(self, output: &str) -> &str {
        let clamp = |at: u64| {
            let mut at = usize::try_from(at).unwrap_or(usize::MAX).min(output.len());
            while !output.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let (start, end) = (clamp(self.start), clamp(self.end));
        &output[start..end.max(start)]
    }

    /// Moved `by` bytes later (text put in front of the output).
    pub fn shifted(self, by: u64) -> Self {
        Self {
            start: self.start.saturating_add(by),
            end: self.end.saturating_add(by),
        }
    }
}

/// Files a call writes: an edit tool's, or what an MCP server's or a command's call was
/// found to have changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileEditView {
    pub files: Vec<EditedFile>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EditedFile {
    /// As the call names it (relative to the workspace when inside it).
    pub path: String,
    pub change: EditKind,
    /// The change, hunk by hunk with line numbers: proposed before the call runs, what
    /// was written after (`None` when it is not text, or not known yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub diff: Option<FileDiff>,
    /// The hunks of `diff` written, when a person accepted only some (`None`: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub applied_hunks: Option<Vec<u32>>,
    /// The edits of a several-edit call written, when a person accepted only some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub applied_edits: Option<Vec<u32>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EditKind {
    Add,
    Modify,
    Delete,
    Move { from: String },
}

/// A file read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReadView {
    pub path: String,
    /// 1-based, inclusive; `None` before the call ran or when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub end_line: Option<u32>,
    /// Lines of the file, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_lines: Option<u32>,
    /// Less than the asked range came back (a cap on lines or characters).
    pub truncated: bool,
}

/// A search of file contents (`grep`) or names (`glob`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SearchView {
    pub pattern: String,
    /// Where: a folder, or a glob files must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scope: Option<String>,
    /// Matches found (files for a name search), once run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub matches: Option<u32>,
    /// The first few, in order.
    pub first: Vec<Location>,
    /// More matched than were returned.
    pub truncated: bool,
}

/// A place in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Location {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub line: Option<u32>,
}

/// A folder listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ListView {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub entries: Option<u32>,
    pub truncated: bool,
}

/// A web page fetched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FetchView {
    pub url: String,
    /// The HTTP status, once answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<u16>,
    /// Bytes of the body read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_type: Option<String>,
}

/// The plan, as the call left it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlanView {
    pub steps: Vec<PlanItem>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub explanation: Option<String>,
}

/// Work with subagents: starting one, sending it input, waiting for them, closing one,
/// listing them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SubagentView {
    pub action: SubagentAction,
    /// What it was asked (`spawn`, `send_input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub task: Option<String>,
    /// The agent type asked for (`spawn`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_type: Option<String>,
    /// The agents the call is about: asked for before it runs, as they stood after.
    pub agents: Vec<AgentLine>,
    /// A wait that came back before every agent it waited for was done.
    pub timed_out: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SubagentAction {
    /// Start an agent on a task.
    Spawn,
    /// Send more input to one already running.
    Send,
    /// Wait for some agents (or all) to finish.
    WaitFor,
    Close,
    List,
}

/// One agent as a collab call saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AgentLine {
    pub agent_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub agent_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub state: Option<SubagentState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub answer: Option<String>,
    /// Why it failed, or what went wrong reaching it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
}

/// A call of an MCP server's tool (or of a server's resources).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct McpCallView {
    pub server: String,
    pub tool: String,
    /// The arguments, pretty-printed JSON.
    pub arguments: String,
    /// The server marks the tool read-only (`readOnlyHint`); `None` when it says nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub read_only: Option<bool>,
    /// What the server answered, block by block.
    pub content: Vec<McpContent>,
    /// Files the checkpoint scan found the call changed (workspace-relative).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub changed_files: Vec<String>,
}

/// One content block of an MCP tool result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum McpContent {
    Text {
        text: String,
    },
    Image {
        mime_type: String,
        #[ts(type = "number")]
        bytes: u64,
    },
    Audio {
        mime_type: String,
        #[ts(type = "number")]
        bytes: u64,
    },
    Resource {
        uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        text: Option<String>,
    },
    ResourceLink {
        uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        name: Option<String>,
    },
}

/// Memo's memory of the person (`save_memory` / `get_memory`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MemoryView {
    pub action: MemoryAction,
    /// What was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fact: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MemoryAction {
    Save,
    Get,
}

/// Any other tool: its name and its arguments, pretty-printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OtherView {
    pub name: String,
    pub arguments: String,
}

impl ToolView {
    /// The ACP tool kind this view is.
    pub fn kind(&self) -> ToolKind {
        match self {
            ToolView::Command(_) => ToolKind::Execute,
            ToolView::FileEdit(edit) => match edit.files.as_slice() {
                [one] => match one.change {
                    EditKind::Delete => ToolKind::Delete,
                    EditKind::Move { .. } => ToolKind::Move,
                    EditKind::Add | EditKind::Modify => ToolKind::Edit,
                },
                _ => ToolKind::Edit,
            },
            ToolView::Read(_) | ToolView::List(_) => ToolKind::Read,
            ToolView::Search(_) => ToolKind::Search,
            ToolView::Fetch(_) => ToolKind::Fetch,
            ToolView::Plan(_) => ToolKind::Think,
            ToolView::Subagent(_) | ToolView::Memory(_) | ToolView::Other(_) => ToolKind::Other,
            ToolView::McpCall(call) if !call.changed_files.is_empty() => ToolKind::Edit,
            ToolView::McpCall(call) if call.read_only == Some(true) => ToolKind::Read,
            ToolView::McpCall(_) => ToolKind::Other,
        }
    }

    /// The view of a tool nothing more is known of.
    pub fn other(name: &str, arguments: &serde_json::Value) -> Self {
        ToolView::Other(OtherView {
            name: name.to_owned(),
            arguments: pretty(arguments),
        })
    }
}

/// Arguments as people read them: pretty JSON, `{}` left out as nothing.
pub fn pretty(arguments: &serde_json::Value) -> String {
    match arguments {
        serde_json::Value::Object(map) if map.is_empty() => String::new(),
        value => serde_json::to_string_pretty(value).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_range_cuts_on_character_boundaries_and_within_the_text() {
        let out = "Output:\nhé\n";
        let range = OutputRange { start: 8, end: 100 };
        assert_eq!(range.of(out), "hé\n");
        assert_eq!(OutputRange { start: 8, end: 10 }.of(out), "h");
        assert_eq!(range.shifted(3).of("ab"), "");
    }

    #[test]
    fn kinds_are_acps() {
        let edit = |change| {
            ToolView::FileEdit(FileEditView {
                files: vec![EditedFile {
                    path: "a".into(),
                    change,
                    diff: None,
                    applied_hunks: None,
                    applied_edits: None,
                }],
            })
        };
        assert_eq!(edit(EditKind::Delete).kind(), ToolKind::Delete);
        assert_eq!(
            edit(EditKind::Move { from: "b".into() }).kind(),
            ToolKind::Move
        );
        assert_eq!(edit(EditKind::Add).kind(), ToolKind::Edit);
        let mcp = |read_only, changed_files: Vec<String>| {
            ToolView::McpCall(McpCallView {
                server: "s".into(),
                tool: "t".into(),
                arguments: String::new(),
                read_only,
                content: Vec::new(),
                changed_files,
            })
            .kind()
        };
        assert_eq!(mcp(Some(true), vec![]), ToolKind::Read);
        assert_eq!(mcp(Some(true), vec!["a".into()]), ToolKind::Edit);
        assert_eq!(mcp(None, vec![]), ToolKind::Other);
    }
}
