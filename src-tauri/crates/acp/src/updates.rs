//! Memo's events as ACP `session/update`s: answer text and thinking as chunks, the plan,
//! and every tool call from its typed view (kind, title, status, locations with lines,
//! diffs for edits, the output for commands). Nothing here reads a tool's arguments or
//! the text written for the model to work out what a call was: the view says it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::schema as acp;
use crate::terminals::EditorTerminals;
use memo_protocol::{
    AgentEvent, CommandState, EditKind, EditedFile, FileChange, McpContent, PlanStatus, ToolStatus,
    ToolView,
};

/// The most of a running command's output an update carries: its tail, as a terminal
/// would show it. The whole output is in the call's final update.
const LIVE_OUTPUT_TAIL: usize = 16 * 1024;
/// The most of a finished call's output shown as its content.
const FINAL_OUTPUT_MAX: usize = 64 * 1024;

/// Turns one session's events into updates, remembering what each open call has shown.
pub struct Translator {
    cwd: PathBuf,
    /// Replaying a stored session (`session/load`): the user's own messages are sent
    /// too, since the client has not seen them.
    replay: bool,
    calls: HashMap<String, Call>,
    /// The editor's terminals commands run in: such a call shows its terminal, which
    /// holds the output, instead of the output as text.
    terminals: Option<Arc<EditorTerminals>>,
}

#[derive(Default)]
struct Call {
    arguments: String,
    output: String,
    view: Option<ToolView>,
    /// Files the checkpoint scan found the call changed (a command's edits).
    changed: Vec<String>,
}

impl Translator {
    pub fn new(cwd: impl Into<PathBuf>, replay: bool) -> Self {
        Self {
            cwd: cwd.into(),
            replay,
            calls: HashMap::new(),
            terminals: None,
        }
    }

    /// Shows the calls whose commands run in `terminals` with their terminal.
    pub fn with_terminals(mut self, terminals: Option<Arc<EditorTerminals>>) -> Self {
        self.terminals = terminals;
        self
    }

    /// The editor's terminal `call_id`'s command runs in, as the call's content.
    fn terminal_of(&self, call_id: &str) -> Option<acp::ToolCallContent> {
        let terminal_id = self.terminals.as_ref()?.of_call(call_id)?;
        Some(acp::ToolCallContent::Terminal { terminal_id })
    }

    /// The updates `event` makes, in order (often none).
    pub fn updates(&mut self, event: &AgentEvent) -> Vec<acp::SessionUpdate> {
        use acp::SessionUpdate as U;
        match event {
            AgentEvent::TurnStarted { input } if self.replay => {
                let mut chunks = vec![U::UserMessageChunk(acp::ContentChunk::text(&input.text))];
                chunks.extend(input.images.iter().map(|image| {
                    U::UserMessageChunk(acp::ContentChunk {
                        content: acp::ContentBlock::Image(acp::ImageContent {
                            data: image.data.clone(),
                            mime_type: image.media_type.clone(),
                        }),
                    })
                }));
                chunks
            }
            AgentEvent::TextDelta { delta } => {
                vec![U::AgentMessageChunk(acp::ContentChunk::text(delta))]
            }
            AgentEvent::ReasoningDelta { delta } => {
                vec![U::AgentThoughtChunk(acp::ContentChunk::text(delta))]
            }
            // A command answered outside a turn (`/help`): its output is the answer.
            AgentEvent::CommandResult { output, .. } => {
                vec![U::AgentMessageChunk(acp::ContentChunk::text(output))]
            }
            AgentEvent::ToolCallBegin { call_id, name } => {
                self.calls.insert(call_id.to_string(), Call::default());
                vec![U::ToolCall(acp::ToolCall {
                    tool_call_id: call_id.to_string(),
                    title: name.clone(),
                    kind: acp::ToolKind::Other,
                    status: acp::ToolCallStatus::Pending,
                })]
            }
            AgentEvent::ToolCallArgsDelta { call_id, delta } => {
                self.call(call_id.as_str()).arguments.push_str(delta);
                Vec::new()
            }
            AgentEvent::ToolCallView { call_id, view } => {
                let cwd = self.cwd.clone();
                let call = self.call(call_id.as_str());
                call.view = Some(view.clone());
                let fields = view_fields(view, &cwd)
                    .raw_input(serde_json::from_str::<serde_json::Value>(&call.arguments).ok());
                vec![U::ToolCallUpdate(acp::ToolCallUpdate::new(
                    call_id.to_string(),
                    fields,
                ))]
            }
            AgentEvent::ToolOutput { call_id, chunk } => {
                if let Some(terminal) = self.terminal_of(call_id.as_str()) {
                    // The editor's terminal shows the output as it comes.
                    let fields = acp::ToolCallFields::new()
                        .status(acp::ToolCallStatus::InProgress)
                        .content(vec![terminal]);
                    return vec![U::ToolCallUpdate(acp::ToolCallUpdate::new(
                        call_id.to_string(),
                        fields,
                    ))];
                }
                let call = self.call(call_id.as_str());
                call.output.push_str(chunk);
                // Only the tail is ever shown: a long build's output is not kept whole
                // here (the call's end carries it).
                if call.output.len() > 2 * LIVE_OUTPUT_TAIL {
                    call.output = tail(&call.output, LIVE_OUTPUT_TAIL).to_owned();
                }
                let fields = acp::ToolCallFields::new()
                    .status(acp::ToolCallStatus::InProgress)
                    .content(vec![output_block(tail(&call.output, LIVE_OUTPUT_TAIL))]);
                vec![U::ToolCallUpdate(acp::ToolCallUpdate::new(
                    call_id.to_string(),
                    fields,
                ))]
            }
            AgentEvent::FilesChanged {
                call_id: Some(call_id),
                changes,
                ..
            } => {
                let cwd = self.cwd.clone();
                let call = self.call(call_id.as_str());
                call.changed.extend(changes.iter().map(changed_path));
                let locations: Vec<acp::ToolCallLocation> = call
                    .changed
                    .iter()
                    .map(|path| acp::ToolCallLocation::new(absolute(&cwd, path), None))
                    .collect();
                let fields = acp::ToolCallFields::new().locations(locations);
                vec![U::ToolCallUpdate(acp::ToolCallUpdate::new(
                    call_id.to_string(),
                    fields,
                ))]
            }
            AgentEvent::ToolCallEnd {
                call_id,
                status,
                view,
                output,
                ..
            } => {
                let call = self.calls.remove(call_id.as_str()).unwrap_or_default();
                let view = view.clone().or(call.view);
                let mut fields =
                    end_fields(view.as_ref(), *status, output, &call.changed, &self.cwd);
                if let Some(terminal) = self.terminal_of(call_id.as_str()) {
                    fields = fields.content(vec![terminal]);
                }
                vec![U::ToolCallUpdate(acp::ToolCallUpdate::new(
                    call_id.to_string(),
                    fields,
                ))]
            }
            AgentEvent::PlanUpdated { plan, .. } => vec![U::Plan(acp::Plan {
                entries: plan
                    .iter()
                    .map(|item| acp::PlanEntry {
                        content: item.step.clone(),
                        priority: acp::PlanEntryPriority::Medium,
                        status: match item.status {
                            PlanStatus::Pending => acp::PlanEntryStatus::Pending,
                            PlanStatus::InProgress => acp::PlanEntryStatus::InProgress,
                            PlanStatus::Completed => acp::PlanEntryStatus::Completed,
                        },
                    })
                    .collect(),
            })],
            AgentEvent::ApprovalModeChanged { mode } => {
                vec![U::CurrentModeUpdate(acp::CurrentModeUpdate {
                    current_mode_id: *mode,
                })]
            }
            _ => Vec::new(),
        }
    }

    fn call(&mut self, call_id: &str) -> &mut Call {
        self.calls.entry(call_id.to_owned()).or_default()
    }

    /// What a permission request shows of the call: its view as it stands, and the
    /// change proposed.
    pub fn asked(
        &self,
        call_id: &str,
        name: &str,
        diff: Option<&memo_protocol::FileDiff>,
    ) -> acp::ToolCallFields {
        let call = self.calls.get(call_id);
        let mut fields = match call.and_then(|c| c.view.as_ref()) {
            Some(view) => view_fields(view, &self.cwd),
            None => acp::ToolCallFields::new().title(name.to_owned()),
        };
        if let Some(diff) = diff {
            fields = fields.content(vec![diff_content(&self.cwd, &diff.path, None, diff)]);
        }
        fields.raw_input(
            call.and_then(|c| serde_json::from_str::<serde_json::Value>(&c.arguments).ok()),
        )
    }
}

/// Title, kind, locations and content of a view, before or while the call runs.
fn view_fields(view: &ToolView, cwd: &Path) -> acp::ToolCallFields {
    let mut fields = acp::ToolCallFields::new()
        .title(view.title())
        .kind(view.kind())
        .locations(locations(view, cwd));
    let content = content(view, cwd);
    if !content.is_empty() {
        fields = fields.content(content);
    }
    fields
}

fn end_fields(
    view: Option<&ToolView>,
    status: ToolStatus,
    output: &str,
    changed: &[String],
    cwd: &Path,
) -> acp::ToolCallFields {
    let failed = status == ToolStatus::Error
        || matches!(view, Some(ToolView::Command(command)) if command.failed());
    let mut fields = match view {
        Some(view) => view_fields(view, cwd),
        None => acp::ToolCallFields::new(),
    };
    fields = fields
        .status(if failed {
            acp::ToolCallStatus::Failed
        } else {
            acp::ToolCallStatus::Completed
        })
        .raw_output(Some(serde_json::Value::String(output.to_owned())));
    // What the person reads of the result: a command's own output, or why a call failed.
    let shown = match view {
        Some(ToolView::Command(command)) => Some(match command.output {
            Some(range) => range.of(output),
            None => output,
        }),
        _ if status == ToolStatus::Error => Some(output),
        _ => None,
    };
    let mut content = view.map(|v| content(v, cwd)).unwrap_or_default();
    if let Some(text) = shown.filter(|text| !text.trim().is_empty()) {
        content.push(output_block(head(text, FINAL_OUTPUT_MAX)));
    }
    if !content.is_empty() {
        fields = fields.content(content);
    }
    if !changed.is_empty() {
        let mut places = view.map(|v| locations(v, cwd)).unwrap_or_default();
        places.extend(
            changed
                .iter()
                .map(|path| acp::ToolCallLocation::new(absolute(cwd, path), None)),
        );
        fields = fields.locations(places);
    }
    fields
}

fn locations(view: &ToolView, cwd: &Path) -> Vec<acp::ToolCallLocation> {
    let at = |path: &str, line: Option<u32>| acp::ToolCallLocation::new(absolute(cwd, path), line);
    match view {
        ToolView::Read(read) => vec![at(&read.path, read.start_line)],
        ToolView::FileEdit(edit) => edit
            .files
            .iter()
            .map(|file| {
                at(
                    &file.path,
                    file.diff.as_ref().and_then(|d| first_new_line(&d.hunks)),
                )
            })
            .collect(),
        ToolView::Search(search) => search
            .first
            .iter()
            .map(|place| at(&place.path, place.line))
            .collect(),
        ToolView::List(list) => vec![at(&list.path, None)],
        ToolView::McpCall(call) => call
            .changed_files
            .iter()
            .map(|path| at(path, None))
            .collect(),
        _ => Vec::new(),
    }
}

/// What the call shows inside its card: the diffs of an edit, an MCP server's text.
fn content(view: &ToolView, cwd: &Path) -> Vec<acp::ToolCallContent> {
    match view {
        ToolView::FileEdit(edit) => edit
            .files
            .iter()
            .filter_map(|file| {
                let diff = file.diff.as_ref()?;
                Some(diff_content(cwd, &file.path, Some(file), diff))
            })
            .collect(),
        ToolView::McpCall(call) => call
            .content
            .iter()
            .filter_map(|block| match block {
                McpContent::Text { text } => Some(text_content(text.clone())),
                McpContent::Resource {
                    text: Some(text), ..
                } => Some(text_content(text.clone())),
                _ => None,
            })
            .collect(),
        ToolView::Command(command)
            if matches!(command.state, CommandState::Pending) && command.stdin.is_some() =>
        {
            vec![text_content(command.stdin.clone().unwrap_or_default())]
        }
        _ => Vec::new(),
    }
}

fn text_content(text: String) -> acp::ToolCallContent {
    acp::ToolCallContent::text(text)
}

/// A command's output as a fenced block, which editors render as preformatted text.
fn output_block(text: &str) -> acp::ToolCallContent {
    let fence = if text.contains("```") { "````" } else { "```" };
    text_content(format!("{fence}\n{}\n{fence}", text.trim_end_matches('\n')))
}

/// An edit as ACP's diff: the text around and in its hunks, before and after. Memo keeps
/// hunks, not whole files; a client diffs the two texts and shows the same change. Of a
/// change a person took in part, only the hunks written.
fn diff_content(
    cwd: &Path,
    path: &str,
    file: Option<&EditedFile>,
    diff: &memo_protocol::FileDiff,
) -> acp::ToolCallContent {
    let applied = file.and_then(|f| f.applied_hunks.as_ref());
    let mut old = Vec::new();
    let mut new = Vec::new();
    for hunk in diff
        .hunks
        .iter()
        .filter(|h| applied.is_none_or(|a| a.contains(&h.index)))
    {
        if !old.is_empty() || !new.is_empty() {
            old.push("⋮");
            new.push("⋮");
        }
        for line in hunk.text.lines() {
            match line.split_at_checked(1) {
                Some(("-", rest)) => old.push(rest),
                Some(("+", rest)) => new.push(rest),
                Some((" ", rest)) => {
                    old.push(rest);
                    new.push(rest);
                }
                // "\ No newline at end of file" and the like.
                _ => {}
            }
        }
    }
    let added = matches!(file.map(|f| &f.change), Some(EditKind::Add));
    let old_text = (!added).then(|| old.join("\n"));
    acp::ToolCallContent::Diff(acp::Diff {
        path: absolute(cwd, path),
        old_text,
        new_text: new.join("\n"),
    })
}

/// The first line of the new text a change touches, from its first hunk's header
/// (`@@ -12,3 +12,4 @@`).
fn first_new_line(hunks: &[memo_protocol::DiffHunk]) -> Option<u32> {
    let header = &hunks.first()?.header;
    let plus = header
        .split_whitespace()
        .find(|part| part.starts_with('+'))?;
    plus[1..].split(',').next()?.parse().ok()
}

fn changed_path(change: &FileChange) -> String {
    change.path.clone()
}

fn absolute(cwd: &Path, path: &str) -> PathBuf {
    let path = Path::new(path);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    }
}

fn tail(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut at = text.len() - max;
    while !text.is_char_boundary(at) {
        at += 1;
    }
    &text[at..]
}

fn head(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut at = max;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    &text[..at]
}

#[cfg(test)]
#[path = "updates_tests.rs"]
mod tests;
