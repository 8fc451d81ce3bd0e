//! A view as one line of plain text, for the front ends that write text (memo-cli's
//! output and session transcripts; a tool call's title for editors over ACP). The window
//! draws the typed view itself, in the person's language.

use super::{CommandState, CommandView, EditKind, EditedFile, ToolView};
use crate::{DiffHunk, FileDiff, SubagentAction};

/// Characters of free text (a task, a fact, arguments) a title keeps.
const TITLE_CHARS: usize = 100;

impl ToolView {
    /// What the call is: `$ cargo test`, `edit src/a.rs`, `read src/a.rs:1-40`,
    /// `search "todo" in src`, `github · create_issue`, `spawn reviewer: check …`.
    pub fn title(&self) -> String {
        match self {
            ToolView::Command(command) => command_title(command),
            ToolView::FileEdit(edit) => {
                let verb = match edit.files.as_slice() {
                    [one] => match &one.change {
                        EditKind::Add => "create",
                        EditKind::Modify => "edit",
                        EditKind::Delete => "delete",
                        EditKind::Move { .. } => "move",
                    },
                    _ => "edit",
                };
                let paths: Vec<String> = edit
                    .files
                    .iter()
                    .map(|file| match &file.change {
                        EditKind::Move { from } => format!("{from} → {}", file.path),
                        _ => file.path.clone(),
                    })
                    .collect();
                format!("{verb} {}", paths.join(", "))
            }
            ToolView::Read(read) => match (read.start_line, read.end_line) {
                (Some(start), Some(end)) if end != start => {
                    format!("read {}:{start}-{end}", read.path)
                }
                (Some(start), _) => format!("read {}:{start}", read.path),
                _ => format!("read {}", read.path),
            },
            ToolView::Search(search) => match &search.scope {
                Some(scope) => format!("search {:?} in {scope}", search.pattern),
                None => format!("search {:?}", search.pattern),
            },
            ToolView::List(list) => format!("list {}", list.path),
            ToolView::Fetch(fetch) => format!("fetch {}", fetch.url),
            ToolView::Plan(plan) => format!("plan ({} steps)", plan.steps.len()),
            ToolView::Subagent(agent) => {
                let ids: Vec<&str> = agent.agents.iter().map(|a| a.agent_id.as_str()).collect();
                match agent.action {
                    SubagentAction::Spawn => format!(
                        "spawn {}: {}",
                        agent.agent_type.as_deref().unwrap_or("agent"),
                        clip(agent.task.as_deref().unwrap_or_default())
                    ),
                    SubagentAction::Send => format!("send to {}", ids.join(", ")),
                    SubagentAction::WaitFor if ids.is_empty() => "wait for every subagent".into(),
                    SubagentAction::WaitFor => format!("wait for {}", ids.join(", ")),
                    SubagentAction::Close => format!("close {}", ids.join(", ")),
                    SubagentAction::List => "list subagents".into(),
                }
            }
            ToolView::McpCall(call) => format!("{} · {}", call.server, call.tool),
            ToolView::Memory(memory) => match &memory.fact {
                Some(fact) => format!("remember: {}", clip(fact)),
                None => "read memory".into(),
            },
            ToolView::Other(other) if other.arguments.is_empty() => other.name.clone(),
            ToolView::Other(other) => format!("{} {}", other.name, clip(&other.arguments)),
        }
    }

    /// What came of it, when the view knows more than "ok" or "failed": `exit 1 · 1.2 s`,
    /// `+3 -1`, `12 matches`, `40 lines`, `HTTP 200 · 3 KB`, `2 of 3 done`.
    pub fn outcome(&self) -> Option<String> {
        match self {
            ToolView::Command(command) => command_outcome(command),
            ToolView::FileEdit(edit) => {
                let (added, removed) = edit
                    .files
                    .iter()
                    .filter_map(EditedFile::written_line_counts)
                    .fold((0, 0), |(a, r), (da, dr)| (a + da, r + dr));
                let partly = edit
                    .files
                    .iter()
                    .any(|file| file.applied_hunks.is_some() || file.applied_edits.is_some());
                let stat = format!("+{added} -{removed}");
                Some(if partly {
                    format!("{stat} (part of it)")
                } else {
                    stat
                })
            }
            ToolView::Read(read) => {
                let (start, end) = (read.start_line?, read.end_line?);
                let lines = end.saturating_sub(start) + 1;
                let cut = if read.truncated { ", cut short" } else { "" };
                Some(format!("{lines} {}{cut}", plural(lines, "line", "lines")))
            }
            ToolView::Search(search) => {
                let matches = search.matches?;
                let more = if search.truncated { "+" } else { "" };
                Some(format!(
                    "{matches}{more} {}",
                    plural(matches, "match", "matches")
                ))
            }
            ToolView::List(list) => {
                let entries = list.entries?;
                Some(format!("{entries} {}", plural(entries, "entry", "entries")))
            }
            ToolView::Fetch(fetch) => {
                let mut parts = vec![format!("HTTP {}", fetch.status?)];
                if let Some(bytes) = fetch.bytes {
                    parts.push(bytes_text(bytes));
                }
                Some(parts.join(" · "))
            }
            ToolView::Subagent(agent) if agent.action == SubagentAction::WaitFor => {
                let done = agent
                    .agents
                    .iter()
                    .filter(|a| a.state.is_some_and(|s| s != crate::SubagentState::Running))
                    .count();
                let timed_out = if agent.timed_out { ", timed out" } else { "" };
                Some(format!("{done} of {} done{timed_out}", agent.agents.len()))
            }
            ToolView::McpCall(call) if !call.changed_files.is_empty() => {
                Some(format!("changed {}", call.changed_files.join(", ")))
            }
            _ => None,
        }
    }
}

impl FileDiff {
    /// Lines added and removed over its hunks.
    pub fn line_counts(&self) -> (u32, u32) {
        hunk_line_counts(&self.hunks)
    }
}

impl EditedFile {
    /// Lines added and removed by what was written: of a change a person took only part
    /// of, the hunks applied. `None` without a diff.
    pub fn written_line_counts(&self) -> Option<(u32, u32)> {
        let diff = self.diff.as_ref()?;
        Some(match &self.applied_hunks {
            None => diff.line_counts(),
            Some(applied) => {
                hunk_line_counts(diff.hunks.iter().filter(|h| applied.contains(&h.index)))
            }
        })
    }
}

fn hunk_line_counts<'a>(hunks: impl IntoIterator<Item = &'a DiffHunk>) -> (u32, u32) {
    let mut counts = (0u32, 0u32);
    for line in hunks.into_iter().flat_map(|hunk| hunk.text.lines()) {
        if line.starts_with('+') {
            counts.0 += 1;
        } else if line.starts_with('-') {
            counts.1 += 1;
        }
    }
    counts
}

fn command_title(command: &CommandView) -> String {
    let target = if command.command.is_empty() {
        "a running command"
    } else {
        &command.command
    };
    match command.stdin.as_deref() {
        None => format!("$ {}", command.command),
        Some("") => format!("output of {target}"),
        Some(typed) => format!("type {typed:?} into {target}"),
    }
}

fn command_outcome(command: &CommandView) -> Option<String> {
    let state = match &command.state {
        CommandState::Pending => return None,
        CommandState::Running { session_id } => format!("still running (session {session_id})"),
        CommandState::Exited { code } => format!("exit {code}"),
        CommandState::Killed { signal, .. } => format!("killed by {signal}"),
    };
    Some(match command.duration_ms {
        Some(ms) => format!("{state} · {}", duration_text(ms)),
        None => state,
    })
}

/// "850 ms", "1.2 s", "2 min 5 s".
fn duration_text(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms} ms");
    }
    let seconds = ms as f64 / 1000.0;
    if seconds < 60.0 {
        return format!("{seconds:.1} s");
    }
    let minutes = ms / 60_000;
    format!("{minutes} min {} s", (ms % 60_000) / 1000)
}

fn bytes_text(bytes: u64) -> String {
    match bytes {
        b if b < 1024 => format!("{b} bytes"),
        b if b < 1024 * 1024 => format!("{} KB", b.div_ceil(1024)),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

fn plural(count: u32, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 {
        one
    } else {
        many
    }
}

/// Free text on one line, cut to [`TITLE_CHARS`] characters.
fn clip(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= TITLE_CHARS {
        return line;
    }
    let cut: String = line.chars().take(TITLE_CHARS - 1).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FileEditView, ReadView, SearchView};

    #[test]
    fn a_command_reads_as_its_line_and_its_end() {
        let mut command = CommandView::pending("cargo test".into(), None, true, None);
        let view = ToolView::Command(command.clone());
        assert_eq!(view.title(), "$ cargo test");
        assert_eq!(view.outcome(), None);
        command.state = CommandState::Exited { code: 101 };
        command.duration_ms = Some(1234);
        assert_eq!(
            ToolView::Command(command.clone()).outcome().as_deref(),
            Some("exit 101 · 1.2 s")
        );
        command.stdin = Some(String::new());
        assert_eq!(ToolView::Command(command).title(), "output of cargo test");
    }

    #[test]
    fn an_edit_reads_as_its_files_and_a_diff_stat() {
        let diff = FileDiff {
            path: "a.rs".into(),
            unified: String::new(),
            hunks: vec![
                DiffHunk {
                    index: 0,
                    header: "@@ -1,2 +1,2 @@".into(),
                    text: " keep\n-old\n+new\n+more\n".into(),
                },
                DiffHunk {
                    index: 1,
                    header: "@@ -9,1 +10,1 @@".into(),
                    text: "-refused\n+not written\n".into(),
                },
            ],
            edits: Vec::new(),
        };
        let view = ToolView::FileEdit(FileEditView {
            files: vec![EditedFile {
                path: "a.rs".into(),
                change: EditKind::Modify,
                diff: Some(diff),
                applied_hunks: Some(vec![0]),
                applied_edits: None,
            }],
        });
        assert_eq!(view.title(), "edit a.rs");
        assert_eq!(view.outcome().as_deref(), Some("+2 -1 (part of it)"));
    }

    #[test]
    fn reads_and_searches_say_how_much_came_back() {
        let read = ToolView::Read(ReadView {
            path: "src/a.rs".into(),
            start_line: Some(1),
            end_line: Some(40),
            total_lines: Some(90),
            truncated: true,
        });
        assert_eq!(read.title(), "read src/a.rs:1-40");
        assert_eq!(read.outcome().as_deref(), Some("40 lines, cut short"));
        let search = ToolView::Search(SearchView {
            pattern: "todo".into(),
            scope: Some("src".into()),
            matches: Some(1),
            first: Vec::new(),
            truncated: false,
        });
        assert_eq!(search.title(), "search \"todo\" in src");
        assert_eq!(search.outcome().as_deref(), Some("1 match"));
    }
}
