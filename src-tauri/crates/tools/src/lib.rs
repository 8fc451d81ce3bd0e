//! The agent's tools. A tool is a named handler with a JSON-schema input, a risk level and
//! flags the engine's orchestrator uses to decide approval and concurrency. This crate has
//! no knowledge of sessions or models: the engine drives it.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

// Families in folders: the file tools, the shell tools and their sandbox, the guard that
// reads a command before it runs, and the shell parser both share.
pub mod command_guard;
pub mod exec;
pub mod files;
pub mod shell_parse;

mod get_memory;
pub mod groups;
mod profile;
pub mod repair;
pub mod risk;
mod runtime_tools;
mod save_memory;
pub mod schema;
pub mod truncate;
mod update_plan;
mod webfetch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::BoxFuture;
use memo_model::ToolSpec;
use memo_protocol::{AgentEvent, FileDiff, Phrase, RiskLevel, ToolErrorKind, ToolView};
use serde::de::DeserializeOwned;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

pub use files::apply_patch::ApplyPatchTool;
pub use files::diff::{FileHunks, Hunk};
pub use files::glob::GlobTool;
pub use files::grep_files::{matches_in_result as search_matches_in_result, GrepFilesTool};
pub use files::host::FileHost;
pub use files::list_dir::ListDirTool;
pub use files::path_policy::{PathPolicy, FS_ALLOWED_ROOTS_ENV, SANDBOX_WRITABLE_ROOTS_ENV};
pub use files::read_denials::{DeniedRead, NamedDenied, ReadDenials};
pub use files::read_file::{lines_in_result as read_lines_in_result, ReadFileTool};
pub use files::write_file::WriteFileTool;
pub use profile::ToolProfile;

pub use exec::command::{default_shell, exec_tools, ExecCommandTool, WriteStdinTool};
pub use exec::hosted::{HostedCommand, HostedOutput, TerminalHost};
pub use exec::sandbox::SandboxPolicy;
/// A command on a PTY of its own, for hosts that run another agent's terminals.
pub use exec::session::{ExecSession, KillReason, SpawnRequest};
pub use exec::shells::ExitInfo;
pub use get_memory::GetMemoryTool;
pub use runtime_tools::{every_builtin, ShellToolType};
pub use save_memory::SaveMemoryTool;
pub use update_plan::UpdatePlanTool;
pub use webfetch::WebFetchTool;

/// How much of a call's file change a person approved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Approved {
    /// All of it (or nothing needed approving).
    #[default]
    Whole,
    /// These hunks of the preview's diff (indices into its hunks).
    Hunks(Vec<u32>),
    /// These edits of a several-edit call (indices into the preview's `edits`).
    Edits(Vec<u32>),
}

impl Approved {
    /// From a decision's two optional lists (at most one is set).
    pub fn from_lists(hunks: Option<Vec<u32>>, edits: Option<Vec<u32>>) -> Self {
        match (hunks, edits) {
            (_, Some(edits)) => Self::Edits(edits),
            (Some(hunks), None) => Self::Hunks(hunks),
            (None, None) => Self::Whole,
        }
    }

    /// The hunks to apply; `None` for all of them (or when edits were picked instead).
    pub fn hunks(&self) -> Option<&[u32]> {
        match self {
            Self::Hunks(hunks) => Some(hunks),
            _ => None,
        }
    }

    /// The edits to apply, when they were picked one by one.
    pub fn edits(&self) -> Option<&[u32]> {
        match self {
            Self::Edits(edits) => Some(edits),
            _ => None,
        }
    }
}

/// One call as the engine hands it to its tool: the arguments (repaired, maybe rewritten
/// by a hook) and what the person approved of it.
#[derive(Debug, Clone)]
pub struct ToolInvocation {
    pub args: serde_json::Value,
    pub approved: Approved,
}

impl ToolInvocation {
    /// A call approved whole (or that needed no approval).
    pub fn whole(args: serde_json::Value) -> Self {
        Self {
            args,
            approved: Approved::Whole,
        }
    }
}

/// Another program's files and terminals, for the tools to use instead of the disk and
/// Memo's own terminal (an editor that runs Memo's agent over ACP). Default: neither.
#[derive(Debug, Clone, Default)]
pub struct Hosts {
    pub files: Option<Arc<dyn files::host::FileHost>>,
    pub terminals: Option<Arc<dyn exec::hosted::TerminalHost>>,
}

/// What a tool knows about where and how it runs.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The session's working directory; relative paths resolve against it.
    pub cwd: PathBuf,
    /// Which paths file tools may read and write.
    pub paths: Arc<PathPolicy>,
    /// Cancelled when the user interrupts the turn; long-running tools must stop promptly
    /// (and kill what they started).
    pub cancel: CancellationToken,
    /// `$MEMO_HOME`, for tools that read Memo's own files (memory).
    pub memo_home: Option<PathBuf>,
    /// The id of the call being run, when the engine runs it.
    pub call_id: Option<String>,
    /// Where a long-running tool reports how far it got (MCP progress notifications).
    pub progress: Option<ProgressSink>,
    /// Where a running command's output goes as it is printed (for display).
    pub live_output: Option<OutputSink>,
    /// Files whose content no tool may show (the user's read-deny rules).
    pub read_denials: Arc<ReadDenials>,
    /// Where the file tools read and write instead of the disk (an editor's buffers over
    /// ACP); `None`: the disk.
    pub files: Option<Arc<dyn files::host::FileHost>>,
    /// Where `exec_command` runs commands instead of Memo's own terminal (an editor's
    /// terminals over ACP); `None`: Memo's.
    pub terminals: Option<Arc<dyn exec::hosted::TerminalHost>>,
}

/// How far a long-running call got.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolProgress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// Receives a running call's progress; the engine turns it into events.
#[derive(Clone)]
pub struct ProgressSink(Arc<dyn Fn(ToolProgress) + Send + Sync>);

impl ProgressSink {
    pub fn new(f: impl Fn(ToolProgress) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    pub fn report(&self, progress: ToolProgress) {
        (self.0)(progress)
    }
}

/// Receives text a running call prints, in order; the engine turns it into events.
#[derive(Clone)]
pub struct OutputSink(Arc<dyn Fn(String) + Send + Sync>);

impl OutputSink {
    pub fn new(f: impl Fn(String) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    pub fn send(&self, chunk: String) {
        (self.0)(chunk)
    }
}

impl std::fmt::Debug for OutputSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OutputSink")
    }
}

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl ToolContext {
    /// A context rooted at `cwd`, plus the extra roots of `MEMO_FS_ALLOWED_ROOTS` and
    /// `MEMO_SANDBOX_WRITABLE_ROOTS` from the process environment.
    pub fn for_workspace(cwd: impl Into<PathBuf>) -> Self {
        let cwd = cwd.into();
        Self {
            paths: Arc::new(PathPolicy::from_env(&cwd, |name| std::env::var(name).ok())),
            cwd,
            cancel: CancellationToken::new(),
            memo_home: None,
            call_id: None,
            progress: None,
            live_output: None,
            read_denials: Arc::default(),
            files: None,
            terminals: None,
        }
    }

    /// Joins a possibly relative path onto the working directory. No checks at all: file
    /// tools use [`ToolContext::readable`] / [`ToolContext::writable`] instead.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        }
    }

    /// Checks the input (no NUL, `~`, look-alike slashes…), resolves it like the kernel
    /// would and checks the policy allows reading it; returns the real path.
    /// A file a read-deny rule covers is refused here, so every file tool honours it.
    pub fn readable(&self, path: &str) -> Result<PathBuf, ToolError> {
        let joined = files::path_policy::join_input(&self.cwd, path)?;
        let real = self.paths.check_read(&joined)?;
        self.check_not_denied(path, &joined)?;
        Ok(real)
    }

    /// Like [`ToolContext::readable`], for writing (writable roots, no `.git/`). A file a
    /// read-deny rule covers is not written either: an edit's diff and result quote it.
    pub fn writable(&self, path: &str) -> Result<PathBuf, ToolError> {
        let joined = files::path_policy::join_input(&self.cwd, path)?;
        let real = self.paths.check_write(&joined)?;
        self.check_not_denied(path, &joined)?;
        Ok(real)
    }

    /// Refuses `path` (absolute) when a read-deny rule covers it; `shown` names it.
    pub fn check_not_denied(&self, shown: &str, path: &Path) -> Result<(), ToolError> {
        match self.read_denials.denying(path) {
            Some(rule) => Err(ToolError::new(
                ToolErrorKind::PolicyDenied,
                rule.refusal(shown),
            )),
            None => Ok(()),
        }
    }
}

/// What the approval step needs to know about one call, computed before anything runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolPreview {
    /// The risk of this particular call (a tool may escalate, e.g. a critical command).
    pub risk: RiskLevel,
    /// What a "for this session" grant covers: a file or directory for writes, a command
    /// prefix for exec, server + tool for MCP. Never the tool name alone.
    pub fingerprint: String,
    /// Why the user is asked, as phrases (worded by each front end; in English by
    /// [`memo_protocol::Phrase::english_list`]).
    pub why: Vec<Phrase>,
    pub command: Option<String>,
    pub cwd: Option<String>,
    /// The proposed file change, with hunks the user may accept one by one.
    pub diff: Option<FileDiff>,
}

impl ToolPreview {
    /// Why the user is asked, on one English line (memo-cli, logs, tests).
    pub fn reason(&self) -> String {
        Phrase::english_list(&self.why)
    }
}

/// A tool's successful result: the text the model sees, optionally an event the engine
/// emits alongside it (e.g. a plan update), and what the call did as people read it
/// (`None`: the view from its arguments, [`Tool::view`], stands).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    pub content: String,
    pub event: Option<AgentEvent>,
    pub view: Option<ToolView>,
}

impl ToolOutput {
    pub fn text(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            event: None,
            view: None,
        }
    }

    pub fn with_view(mut self, view: ToolView) -> Self {
        self.view = Some(view);
        self
    }
}

impl From<String> for ToolOutput {
    fn from(content: String) -> Self {
        Self::text(content)
    }
}

impl From<&str> for ToolOutput {
    fn from(content: &str) -> Self {
        Self::text(content)
    }
}

/// A failure the model should see (it goes back as an error tool result, never ends a turn).
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{message}")]
pub struct ToolError {
    pub kind: ToolErrorKind,
    pub message: String,
    /// What the call did before it failed, when that says more than its arguments (a
    /// command's exit state and output after a timeout).
    pub view: Option<Box<ToolView>>,
}

impl ToolError {
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            view: None,
        }
    }

    pub fn with_view(mut self, view: ToolView) -> Self {
        self.view = Some(Box::new(view));
        self
    }

    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::InvalidInput, message)
    }

    pub fn policy_denied(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::PolicyDenied, message)
    }

    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::ExecutionFailed, message)
    }
}

pub type ToolResult = Result<ToolOutput, ToolError>;

pub trait Tool: Send + Sync {
    fn name(&self) -> &str;
    /// Written for the model: what the tool does and when to use it.
    fn description(&self) -> &str;
    fn input_schema(&self) -> serde_json::Value;
    /// Arguments few calls need: still accepted (validated against
    /// [`Tool::input_schema`]) but left out of the definition the model is sent, which a
    /// local model re-reads on every request.
    fn advanced_params(&self) -> &'static [&'static str] {
        &[]
    }
    /// A description of a sentence or two for the compact profile (small context
    /// windows); `None` uses the description's first sentence.
    fn brief(&self) -> Option<&str> {
        None
    }
    /// Arguments the compact profile also leaves out: modes and their options that small
    /// models misuse more often than they need (read_file's indentation mode).
    fn compact_hidden_params(&self) -> &'static [&'static str] {
        &[]
    }
    /// False for tools a coding task can do without (the plan, web pages, memory): the
    /// compact profile leaves them out of the definitions to fit a small context window.
    fn essential(&self) -> bool {
        true
    }
    fn risk(&self) -> RiskLevel;
    fn is_mutating(&self) -> bool {
        self.risk() > RiskLevel::Read
    }
    /// Whether the folder is scanned around its calls for what they changed (checkpoints,
    /// the changes panel). Mutating tools, and tools whose code Memo cannot see (an MCP
    /// server's, whatever it says it does).
    fn may_change_files(&self) -> bool {
        self.is_mutating()
    }
    /// Whether calls may run concurrently with other parallel-safe calls.
    fn parallel_safe(&self) -> bool {
        !self.is_mutating()
    }
    /// Describes the call for the approval step. The default covers tools whose calls
    /// are all alike; file and exec tools override it to name what exactly would change.
    /// Runs before approval, so it must not change anything.
    fn preview(
        &self,
        ctx: &ToolContext,
        args: &serde_json::Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let preview = ToolPreview {
            risk: self.risk(),
            fingerprint: format!("{}:{}", self.name(), args),
            why: vec![Phrase::ToolRuns {
                tool: self.name().to_owned(),
            }],
            command: None,
            cwd: Some(ctx.cwd.display().to_string()),
            diff: None,
        };
        Box::pin(async move { Ok(preview) })
    }
    /// What a call with these (valid) arguments is, as people read it, before it runs:
    /// its card until the result comes. Tools whose result says more return a fuller
    /// view with it ([`ToolOutput::view`]). Must be cheap and change nothing.
    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        let _ = ctx;
        ToolView::other(self.name(), args)
    }
    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult>;
    /// Runs a call as the engine hands it over: its arguments and how much of its change a
    /// person approved. Tools whose change can be taken in part (the file tools) override
    /// it; any other refuses a part rather than make the whole change.
    fn invoke(&self, ctx: ToolContext, call: ToolInvocation) -> BoxFuture<'static, ToolResult> {
        match call.approved {
            Approved::Whole => self.run(ctx, call.args),
            Approved::Hunks(_) | Approved::Edits(_) => {
                let name = self.name().to_owned();
                Box::pin(async move {
                    Err(ToolError::invalid_input(format!(
                        "{name} cannot make only part of its change; nothing was done"
                    )))
                })
            }
        }
    }
    /// Called once when the session ends: stop whatever the tool still has running
    /// (processes, connections). Handles to the session may outlive it, so this cannot be
    /// left to `Drop`.
    fn shutdown(&self) {}
}

/// Parses a tool's arguments into its typed input, turning serde's message into one the
/// model can act on.
pub fn parse_args<T: DeserializeOwned>(
    tool: &str,
    args: serde_json::Value,
) -> Result<T, ToolError> {
    serde_json::from_value(args)
        .map_err(|e| ToolError::invalid_input(format!("invalid arguments for {tool}: {e}")))
}

/// Tools that come and go while a session runs (MCP servers start late, crash, change
/// their lists, or load definitions on demand).
pub trait ToolSource: Send + Sync {
    /// The tools the model should see now.
    fn tools(&self) -> Vec<Arc<dyn Tool>>;
    /// A tool by name, including ones known but not currently listed (deferred).
    fn get(&self, name: &str) -> Option<Arc<dyn Tool>>;
    /// Every tool it can run, listed or not, so their calls are checked against their
    /// schemas either way.
    fn known(&self) -> Vec<Arc<dyn Tool>> {
        self.tools()
    }
    /// Changes whenever [`ToolSource::tools`] would answer differently, so callers can
    /// cache the tool definitions between changes.
    fn generation(&self) -> u64;
    /// Resolves once the source knows its tools for a first turn (bounded by its own
    /// startup timeouts).
    fn ready(&self) -> BoxFuture<'static, ()>;
    /// Stops whatever the source runs (server processes, connections).
    fn shutdown(&self);
}

#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
    sources: Vec<Arc<dyn ToolSource>>,
    /// Names the user turned off: never offered, never run (`server__*`: a whole server).
    excluded: Vec<String>,
    /// When set, the only names offered and run (a subagent limited to some tools); the
    /// same patterns as `excluded`.
    allowed: Option<Vec<String>>,
    /// The groups offered on demand ([`ToolRegistry::defer_groups`]).
    groups: Option<Arc<groups::ToolGroups>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in tools of the foundation.
    pub fn builtin() -> Self {
        let mut registry = Self::new();
        registry.register(Arc::new(ReadFileTool));
        registry.register(Arc::new(ListDirTool));
        registry.register(Arc::new(ApplyPatchTool::new()));
        registry.register(Arc::new(WriteFileTool::new()));
        registry.register(Arc::new(GlobTool));
        registry.register(Arc::new(GrepFilesTool));
        runtime_tools::register(&mut registry);
        registry
    }

    /// Adds a tool, replacing one of the same name.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_owned(), tool);
    }

    /// Takes a built-in tool out of the up-front list (to offer it on demand); `None` when
    /// there is none of that name, or it is turned off.
    pub(crate) fn take_builtin(&mut self, name: &str) -> Option<Arc<dyn Tool>> {
        if self.is_excluded(name) {
            return None;
        }
        self.tools.remove(name)
    }

    /// The groups offered on demand, when the session has them.
    pub fn groups(&self) -> Option<&Arc<groups::ToolGroups>> {
        self.groups.as_ref()
    }

    pub(crate) fn set_groups(&mut self, groups: Arc<groups::ToolGroups>) {
        self.groups = Some(groups);
    }

    /// Adds tools that change over time; built-in names win over a source's.
    pub fn add_source(&mut self, source: Arc<dyn ToolSource>) {
        self.sources.push(source);
    }

    /// Turns tools off for this registry's sessions: they are not offered to the model and
    /// a call naming one anyway finds no such tool.
    pub fn exclude(&mut self, names: impl IntoIterator<Item = String>) {
        self.excluded.extend(names);
    }

    /// Offers and runs only these tools from now on (`server__*`: a whole server's),
    /// whatever else is registered or arrives later; exclusions still apply.
    pub fn allow_only(&mut self, names: impl IntoIterator<Item = String>) {
        self.allowed = Some(names.into_iter().collect());
    }

    fn is_excluded(&self, name: &str) -> bool {
        let matches = |x: &String| match x.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => x == name,
        };
        self.excluded.iter().any(matches)
            || self
                .allowed
                .as_ref()
                .is_some_and(|allowed| !allowed.iter().any(matches))
    }

    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        if self.is_excluded(name) {
            return None;
        }
        self.tools
            .get(name)
            .cloned()
            .or_else(|| self.sources.iter().find_map(|s| s.get(name)))
    }

    pub fn names(&self) -> Vec<String> {
        self.listed()
            .into_iter()
            .map(|t| t.name().to_owned())
            .collect()
    }

    /// Ends every tool's background work (see [`Tool::shutdown`]) and every source's.
    pub fn shutdown(&self) {
        for tool in self.tools.values() {
            tool.shutdown();
        }
        for source in &self.sources {
            source.shutdown();
        }
    }

    /// Changes when the listed tools change (always 0 without sources).
    pub fn generation(&self) -> u64 {
        self.sources
            .iter()
            .fold(0u64, |acc, s| acc.wrapping_add(s.generation()))
    }

    /// Resolves when every source is ready for a first turn.
    pub fn ready(&self) -> BoxFuture<'static, ()> {
        let waits: Vec<_> = self.sources.iter().map(|s| s.ready()).collect();
        Box::pin(async move {
            futures::future::join_all(waits).await;
        })
    }

    /// Built-in tools, then the sources' tools whose names are not taken, less the
    /// excluded ones.
    fn listed(&self) -> Vec<Arc<dyn Tool>> {
        let mut out: Vec<Arc<dyn Tool>> = self.tools.values().cloned().collect();
        let mut seen: std::collections::BTreeSet<String> = self.tools.keys().cloned().collect();
        for source in &self.sources {
            for tool in source.tools() {
                if seen.insert(tool.name().to_owned()) {
                    out.push(tool);
                }
            }
        }
        out.retain(|t| !self.is_excluded(t.name()));
        out
    }

    /// The definitions sent to the model, in the standard profile.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.specs_for(ToolProfile::Standard)
    }

    pub fn specs_for(&self, profile: ToolProfile) -> Vec<ToolSpec> {
        let loaded: Vec<String> = self
            .groups
            .as_ref()
            .map(|g| g.tools().iter().map(|t| t.name().to_owned()).collect())
            .unwrap_or_default();
        self.listed()
            .iter()
            // A group the model loaded is listed whatever the profile: it asked for it.
            .filter(|t| {
                profile == ToolProfile::Standard
                    || t.essential()
                    || loaded.iter().any(|n| n == t.name())
            })
            .map(|t| profile::advertised(t.as_ref(), profile))
            .collect()
    }

    /// Every tool's full argument schema (advanced arguments included), for validation.
    pub fn schemas(&self) -> Vec<(String, serde_json::Value)> {
        let mut tools = self.listed();
        let mut seen: std::collections::BTreeSet<String> =
            tools.iter().map(|t| t.name().to_owned()).collect();
        for source in &self.sources {
            for tool in source.known() {
                if !self.is_excluded(tool.name()) && seen.insert(tool.name().to_owned()) {
                    tools.push(tool);
                }
            }
        }
        tools
            .iter()
            .map(|t| (t.name().to_owned(), t.input_schema()))
            .collect()
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn excluded_tools_are_neither_offered_nor_found() {
        let mut registry = ToolRegistry::builtin();
        assert!(registry.get("webfetch").is_some());
        registry.exclude(["webfetch".to_owned(), "write_*".to_owned()]);
        assert!(registry.get("webfetch").is_none());
        assert!(registry.get("write_file").is_none());
        assert!(registry.get("write_stdin").is_none());
        let names = registry.names();
        assert!(
            !names
                .iter()
                .any(|n| n == "webfetch" || n.starts_with("write_")),
            "{names:?}"
        );
        assert!(names.iter().any(|n| n == "read_file"));
        assert!(registry.specs().iter().all(|s| s.name != "webfetch"));
    }

    #[test]
    fn an_allow_list_keeps_only_its_tools_and_exclusions_still_win() {
        let mut registry = ToolRegistry::builtin();
        registry.allow_only([
            "read_file".to_owned(),
            "grep_*".to_owned(),
            "glob".to_owned(),
        ]);
        registry.exclude(["glob".to_owned()]);
        assert_eq!(registry.names(), vec!["grep_files", "read_file"]);
        assert!(registry.get("exec_command").is_none());
        assert!(registry.get("glob").is_none());
        assert!(registry.get("read_file").is_some());
    }
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Mutex;

    struct Named(&'static str);

    impl Tool for Named {
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            "d"
        }
        fn input_schema(&self) -> serde_json::Value {
            serde_json::json!({"type": "object"})
        }
        fn risk(&self) -> RiskLevel {
            RiskLevel::Read
        }
        fn run(&self, _: ToolContext, _: serde_json::Value) -> BoxFuture<'static, ToolResult> {
            Box::pin(async { Ok(ToolOutput::text("ok")) })
        }
    }

    #[derive(Default)]
    struct Source {
        listed: Mutex<Vec<&'static str>>,
        generation: AtomicU64,
        stopped: AtomicU64,
    }

    impl ToolSource for Source {
        fn tools(&self) -> Vec<Arc<dyn Tool>> {
            let listed = self.listed.lock().unwrap().clone();
            listed
                .into_iter()
                .map(|n| Arc::new(Named(n)) as Arc<dyn Tool>)
                .collect()
        }
        fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
            // Known even when not listed, like a deferred MCP tool.
            ["srv__a", "srv__b", "srv__hidden"]
                .into_iter()
                .find(|n| *n == name)
                .map(|n| Arc::new(Named(n)) as Arc<dyn Tool>)
        }
        fn generation(&self) -> u64 {
            self.generation.load(Ordering::SeqCst)
        }
        fn ready(&self) -> BoxFuture<'static, ()> {
            Box::pin(async {})
        }
        fn shutdown(&self) {
            self.stopped.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn sources_add_tools_that_change_and_builtins_keep_their_names() {
        let source = Arc::new(Source::default());
        *source.listed.lock().unwrap() = vec!["srv__a", "read_file"];
        let mut registry = ToolRegistry::builtin();
        registry.add_source(source.clone());
        registry.ready().await;
        let names = registry.names();
        assert!(names.contains(&"srv__a".to_owned()));
        assert_eq!(names.iter().filter(|n| *n == "read_file").count(), 1);
        assert_eq!(
            registry.get("read_file").unwrap().description(),
            ReadFileTool.description()
        );
        assert!(
            registry.get("srv__hidden").is_some(),
            "known but unlisted tools resolve"
        );
        assert!(registry.get("nope").is_none());
        let before = registry.generation();
        *source.listed.lock().unwrap() = vec!["srv__a", "srv__b"];
        source.generation.fetch_add(1, Ordering::SeqCst);
        assert_ne!(registry.generation(), before);
        assert!(registry.specs().iter().any(|s| s.name == "srv__b"));
        registry.shutdown();
        assert_eq!(source.stopped.load(Ordering::SeqCst), 1);
    }
}
