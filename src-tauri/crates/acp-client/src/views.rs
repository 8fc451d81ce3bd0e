//! An agent's tool call as Memo's typed view: ACP's kinds and content (diffs, locations,
//! terminals) map onto the views one to one, the way `memo-acp` maps them the other way.
//! And the question Memo's approvals judge, from what the call is.

use std::path::Path;

use memo_acp_wire::schema::{
    ContentBlock, ToolCallContent, ToolCallFields, ToolCallStatus, ToolKind,
};
use memo_engine::peer::PeerAction;
use memo_engine::tools::FileHunks;
use memo_protocol::{
    CommandState, CommandView, EditKind, EditedFile, FetchView, FileEditView, Location, OtherView,
    OutputRange, ReadView, RiskLevel, SearchView, ToolView,
};
use serde_json::Value;

/// ACP's kind names, as `ToolKind` reads them.
const KINDS: [&str; 9] = [
    "read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other",
];

/// Parses an agent's call fields; a kind this version does not know is `other` (the
/// spec lets agents grow kinds), and fields of the wrong shape are left out rather than
/// the whole update lost.
pub(crate) fn fields(mut value: Value) -> ToolCallFields {
    if let Some(kind) = value.get_mut("kind") {
        if !kind.as_str().is_some_and(|k| KINDS.contains(&k)) {
            *kind = Value::String("other".into());
        }
    }
    if let Ok(fields) = serde_json::from_value::<ToolCallFields>(value.clone()) {
        return fields;
    }
    // One bad field: take the others one by one.
    let mut out = ToolCallFields::default();
    let Value::Object(map) = value else {
        return out;
    };
    for (key, field) in map {
        let one = serde_json::json!({ key.clone(): field });
        if let Ok(parsed) = serde_json::from_value::<ToolCallFields>(one) {
            merge(&mut out, parsed);
        }
    }
    out
}

/// What an update says replaces what was known; the rest stays.
pub(crate) fn merge(into: &mut ToolCallFields, update: ToolCallFields) {
    macro_rules! take {
        ($($field:ident),*) => { $( if update.$field.is_some() { into.$field = update.$field; } )* };
    }
    take!(title, kind, status, content, locations, raw_input, raw_output);
}

/// One of the agent's calls, as far as it has told.
#[derive(Debug, Clone, Default)]
pub(crate) struct Call {
    pub fields: ToolCallFields,
    /// What its terminal printed, once Memo read it.
    pub terminal_output: Option<String>,
    pub terminal_exit: Option<i32>,
}

impl Call {
    pub fn kind(&self) -> ToolKind {
        self.fields.kind.unwrap_or(ToolKind::Other)
    }

    /// The name its card shows: the agent's title.
    pub fn name(&self) -> String {
        match self.fields.title.as_deref().map(str::trim) {
            Some(title) if !title.is_empty() => title.to_owned(),
            _ => format!("{:?}", self.kind()).to_lowercase(),
        }
    }

    /// Whether Memo scans the folder around it: whatever may write.
    pub fn may_change(&self) -> bool {
        !matches!(
            self.kind(),
            ToolKind::Read | ToolKind::Search | ToolKind::Think | ToolKind::Fetch
        )
    }

    pub fn ended(&self) -> Option<bool> {
        match self.fields.status {
            Some(ToolCallStatus::Completed) => Some(true),
            Some(ToolCallStatus::Failed) => Some(false),
            _ => None,
        }
    }

    /// Keeps what its terminal printed and how it ended (for its card and result).
    pub fn took(&mut self, output: memo_engine::peer::PeerOutput) {
        self.terminal_exit = output.exit.as_ref().and_then(|e| e.code);
        self.terminal_output = Some(output.output);
    }

    pub fn terminal_id(&self) -> Option<String> {
        self.fields.content.iter().flatten().find_map(|c| match c {
            ToolCallContent::Terminal { terminal_id } => Some(terminal_id.clone()),
            _ => None,
        })
    }

    fn input_str(&self, key: &str) -> Option<String> {
        self.fields
            .raw_input
            .as_ref()
            .and_then(|i| i.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    }

    /// The command of an `execute` call: its input's `command` (Claude Code, Gemini CLI) or
    /// `cmd` (Memo's and Codex's shape), a string or an argument vector; else its title
    /// without the quoting agents dress it in (`` `ls` ``, `$ ls`).
    fn command(&self) -> String {
        let input = self.fields.raw_input.as_ref();
        for key in ["command", "cmd"] {
            match input.and_then(|i| i.get(key)) {
                Some(Value::String(line)) if !line.trim().is_empty() => return line.clone(),
                Some(Value::Array(argv)) if !argv.is_empty() => {
                    let words: Option<Vec<&str>> = argv.iter().map(Value::as_str).collect();
                    if let Some(words) = words {
                        return words
                            .iter()
                            .map(|w| shell_word(w))
                            .collect::<Vec<_>>()
                            .join(" ");
                    }
                }
                _ => {}
            }
        }
        let title = self.name();
        let title = title.trim().trim_matches('`');
        title.strip_prefix("$ ").unwrap_or(title).to_owned()
    }

    /// What the call returned, as text: its terminal's output, its text content, or — when
    /// it showed none — its raw output. The raw output is the agent's machine-readable
    /// copy of the same result (OpenCode sends both), so it is not added to the content.
    pub fn output(&self) -> String {
        if let Some(output) = &self.terminal_output {
            return output.clone();
        }
        let mut text = String::new();
        for content in self.fields.content.iter().flatten() {
            if let ToolCallContent::Content {
                content: ContentBlock::Text(t),
            } = content
            {
                push_line(&mut text, &t.text);
            }
        }
        if !text.is_empty() {
            return text;
        }
        match &self.fields.raw_output {
            Some(Value::String(s)) => push_line(&mut text, s),
            Some(Value::Array(items)) => {
                for item in items {
                    if let Some(t) = item.get("text").and_then(Value::as_str) {
                        push_line(&mut text, t);
                    }
                }
            }
            Some(Value::Null) | None => {}
            // An object: its output field when it has one, else all of it.
            Some(other) => match ["output", "stdout", "text"]
                .iter()
                .find_map(|key| other.get(key).and_then(Value::as_str))
            {
                Some(output) => push_line(&mut text, output),
                None => push_line(&mut text, &other.to_string()),
            },
        }
        text
    }

    /// The card: a typed view from the kind and content.
    pub fn view(&self, cwd: &Path) -> ToolView {
        let shown = |path: &Path| shown_path(cwd, path);
        let locations: Vec<Location> = self
            .fields
            .locations
            .iter()
            .flatten()
            .map(|l| Location {
                path: shown(&l.path),
                line: l.line,
            })
            .collect();
        match self.kind() {
            ToolKind::Execute => {
                let output = self.output();
                let state = match (self.ended(), self.terminal_exit) {
                    (Some(_), Some(code)) => CommandState::Exited { code },
                    (Some(true), None) => CommandState::Exited { code: 0 },
                    (Some(false), None) => CommandState::Exited { code: 1 },
                    (None, _) => CommandState::Pending,
                };
                ToolView::Command(CommandView {
                    command: self.command(),
                    cwd: self.input_str("cwd"),
                    // The agent's own shell, or Memo's terminal with the policy's sandbox:
                    // not known to be sandboxed either way.
                    sandboxed: false,
                    stdin: None,
                    state,
                    duration_ms: None,
                    output: (!output.is_empty()).then_some(OutputRange {
                        start: 0,
                        end: output.len() as u64,
                    }),
                })
            }
            ToolKind::Edit | ToolKind::Delete | ToolKind::Move => {
                let mut files: Vec<EditedFile> = self
                    .fields
                    .content
                    .iter()
                    .flatten()
                    .filter_map(|c| match c {
                        ToolCallContent::Diff(diff) => Some(diff),
                        _ => None,
                    })
                    .map(|diff| {
                        let path = shown(&diff.path);
                        let old = diff.old_text.as_deref().unwrap_or_default();
                        let hunks = FileHunks::new(old, &diff.new_text);
                        let from = match diff.old_text {
                            Some(_) => format!("a/{path}"),
                            None => "/dev/null".to_owned(),
                        };
                        EditedFile {
                            diff: Some(hunks.file_diff(&path, &from, &format!("b/{path}"))),
                            change: match (self.kind(), &diff.old_text) {
                                (ToolKind::Delete, _) => EditKind::Delete,
                                (_, None) => EditKind::Add,
                                _ => EditKind::Modify,
                            },
                            path,
                            applied_hunks: None,
                            applied_edits: None,
                        }
                    })
                    .collect();
                if files.is_empty() {
                    files = locations
                        .iter()
                        .map(|l| EditedFile {
                            path: l.path.clone(),
                            change: if self.kind() == ToolKind::Delete {
                                EditKind::Delete
                            } else {
                                EditKind::Modify
                            },
                            diff: None,
                            applied_hunks: None,
                            applied_edits: None,
                        })
                        .collect();
                }
                if files.is_empty() {
                    return self.other_view();
                }
                ToolView::FileEdit(FileEditView { files })
            }
            ToolKind::Read => match locations.first() {
                Some(at) => ToolView::Read(ReadView {
                    path: at.path.clone(),
                    start_line: at.line,
                    end_line: None,
                    total_lines: None,
                    truncated: false,
                }),
                None => self.other_view(),
            },
            ToolKind::Search => ToolView::Search(SearchView {
                pattern: self
                    .input_str("pattern")
                    .or_else(|| self.input_str("query"))
                    .unwrap_or_else(|| self.name()),
                scope: self.input_str("path"),
                matches: None,
                first: locations,
                truncated: false,
            }),
            ToolKind::Fetch => ToolView::Fetch(FetchView {
                url: self.input_str("url").unwrap_or_else(|| self.name()),
                status: None,
                bytes: None,
                content_type: None,
            }),
            ToolKind::Think | ToolKind::Other => self.other_view(),
        }
    }

    fn other_view(&self) -> ToolView {
        ToolView::Other(OtherView {
            name: self.name(),
            arguments: self
                .fields
                .raw_input
                .as_ref()
                .and_then(|v| serde_json::to_string_pretty(v).ok())
                .unwrap_or_default(),
        })
    }

    /// What Memo's approvals judge when the agent asks to run this call.
    pub fn action(&self, agent: &str) -> PeerAction {
        match self.kind() {
            ToolKind::Execute => PeerAction::Command {
                command: self.command(),
                cwd: self.input_str("cwd"),
            },
            ToolKind::Edit | ToolKind::Delete | ToolKind::Move => {
                let diff = self.fields.content.iter().flatten().find_map(|c| match c {
                    ToolCallContent::Diff(diff) => Some(diff),
                    _ => None,
                });
                match diff {
                    Some(diff) => PeerAction::Edit {
                        path: diff.path.display().to_string(),
                        old_text: diff.old_text.clone(),
                        new_text: diff.new_text.clone(),
                    },
                    None => PeerAction::Other {
                        risk: RiskLevel::Write,
                        fingerprint: format!("acp:{agent}:{}", self.name()),
                    },
                }
            }
            ToolKind::Read | ToolKind::Search | ToolKind::Think => PeerAction::Other {
                risk: RiskLevel::Read,
                fingerprint: format!("acp:{agent}:{}", self.name()),
            },
            // A fetch reaches the network; anything unknown may do anything.
            ToolKind::Fetch | ToolKind::Other => PeerAction::Other {
                risk: RiskLevel::Execute,
                fingerprint: format!("acp:{agent}:{}", self.name()),
            },
        }
    }
}

/// One argument as a shell reads it back: quoted when it holds anything but plain
/// characters, so the guard sees the same words the agent will run.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn push_line(text: &mut String, line: &str) {
    if line.is_empty() {
        return;
    }
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(line);
}

/// A path as cards show it: relative to the workspace when inside it.
pub(crate) fn shown_path(cwd: &Path, path: &Path) -> String {
    path.strip_prefix(cwd)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(value: Value) -> Call {
        Call {
            fields: fields(value),
            ..Call::default()
        }
    }

    #[test]
    fn an_edit_with_a_diff_is_a_file_edit_with_hunks_and_asks_as_an_edit() {
        let c = call(json!({
            "kind": "edit", "title": "Edit `/w/notes.txt`", "status": "pending",
            "content": [{"type": "diff", "path": "/w/notes.txt", "oldText": "hello world", "newText": "hello memo"}],
            "locations": [{"path": "/w/notes.txt"}]
        }));
        let ToolView::FileEdit(edit) = c.view(Path::new("/w")) else {
            panic!("{:?}", c.view(Path::new("/w")));
        };
        assert_eq!(edit.files[0].path, "notes.txt");
        assert_eq!(edit.files[0].change, EditKind::Modify);
        assert!(edit.files[0]
            .diff
            .as_ref()
            .unwrap()
            .unified
            .contains("+hello memo"));
        assert!(c.may_change());
        assert_eq!(
            c.action("cc"),
            PeerAction::Edit {
                path: "/w/notes.txt".into(),
                old_text: Some("hello world".into()),
                new_text: "hello memo".into()
            }
        );
    }

    #[test]
    fn a_command_reads_its_input_and_ends_with_its_terminal_exit() {
        let mut c = call(json!({
            "kind": "execute", "title": "`echo hi`",
            "rawInput": {"command": "echo hi", "timeout": 10000}
        }));
        assert_eq!(
            c.action("cc"),
            PeerAction::Command {
                command: "echo hi".into(),
                cwd: None
            }
        );
        merge(&mut c.fields, fields(json!({"status": "completed"})));
        c.took(memo_engine::peer::PeerOutput {
            output: "hi\n".into(),
            truncated: false,
            exit: Some(memo_engine::peer::PeerExit {
                code: Some(3),
                signal: None,
            }),
        });
        let ToolView::Command(view) = c.view(Path::new("/w")) else {
            panic!()
        };
        assert_eq!(view.command, "echo hi");
        assert_eq!(view.state, CommandState::Exited { code: 3 });
        assert_eq!(view.output.unwrap().of(&c.output()), "hi\n");
    }

    #[test]
    fn a_command_is_read_from_each_agents_input_shape() {
        let command = |value: Value| call(value).command();
        // Memo's own agent: `cmd`, and a title made for people.
        assert_eq!(
            command(
                json!({"kind": "execute", "title": "$ echo a && echo b", "rawInput": {"cmd": "echo a && echo b"}})
            ),
            "echo a && echo b"
        );
        // An argument vector: each word quoted as the shell needs.
        assert_eq!(
            command(
                json!({"kind": "execute", "rawInput": {"command": ["bash", "-lc", "echo 'hi' > x"]}})
            ),
            "bash -lc 'echo '\\''hi'\\'' > x'"
        );
        // Only a title: without its dressing.
        assert_eq!(
            command(json!({"kind": "execute", "title": "$ ls -la"})),
            "ls -la"
        );
        assert_eq!(
            command(json!({"kind": "execute", "title": "`git status`"})),
            "git status"
        );
    }

    #[test]
    fn the_raw_output_is_read_only_when_the_call_showed_no_text() {
        // OpenCode: the text it shows, and the same result again as raw output.
        let shown = call(json!({
            "kind": "execute", "title": "bash",
            "content": [{"type": "content", "content": {"type": "text", "text": "(no output)"}}],
            "rawOutput": {"output": "(no output)", "metadata": {"exit": 0}}
        }));
        assert_eq!(shown.output(), "(no output)");
        let raw = |value: Value| {
            call(json!({"kind": "execute", "title": "x", "rawOutput": value})).output()
        };
        assert_eq!(
            raw(json!({"output": "hi\n", "metadata": {"exit": 0}})),
            "hi\n"
        );
        assert_eq!(raw(json!({"stdout": "out"})), "out");
        assert_eq!(raw(json!({"exit": 3})), "{\"exit\":3}");
        assert_eq!(raw(json!("plain")), "plain");
    }

    #[test]
    fn unknown_kinds_and_broken_fields_keep_the_rest() {
        let c = call(json!({
            "kind": "teleport", "title": "Beam", "status": "in_progress",
            "locations": "not a list", "rawOutput": [{"type": "text", "text": "done"}]
        }));
        assert_eq!(c.kind(), ToolKind::Other);
        assert_eq!(c.name(), "Beam");
        assert_eq!(c.fields.status, Some(ToolCallStatus::InProgress));
        assert_eq!(c.output(), "done");
        assert!(matches!(c.view(Path::new("/")), ToolView::Other(_)));
        assert!(matches!(
            c.action("cc"),
            PeerAction::Other {
                risk: RiskLevel::Execute,
                ..
            }
        ));
    }
}
