//! Every IPC call (a Tauri "command"), declared once.
//!
//! [`ipc_calls!`] turns each declaration into a `#[tauri::command]` (all async, so they
//! run on Tauri's Tokio runtime, which session actors need), the handler that registers
//! them, and the TypeScript binding the UI calls (`ui/src/gen/ipc.ts`), so a command's
//! name, arguments and result type are written in one place only. Bodies are one-liners
//! into the engine service; logic lives there, where it is tested without a window.

mod bindings;

use std::path::PathBuf;

use memo_protocol::{
    AgentsPage, AppInfo, ApprovalMode, ApprovalSettings, ChangeScope, ChangesReport,
    CheckpointSummary, CommitPreview, CommitRequest, CommitResult, Completion, CompletionKind,
    ConnectionReport, EditableFile, EditableFileKind, EventEnvelope, ExportFormat,
    ExternalAgentCheck, ExternalAgentInput, ExternalAgentsPage, GitFileDiff, GitStageRequest,
    GitStatus, HistoryPage, ImportReport, KeepRequest, KeyStatus, LocalServer, McpServerCheck,
    McpServerInput, McpSettingsPage, Op, PageMessage, PluginInstall, PluginsPage, PromptReport,
    ProviderChange, ProviderInput, ProviderSettingsPage, ProviderSummary, PullRequestPlan,
    PullRequestRequest, PullRequestResult, PushRequest, PushResult, RestoreMode, RestoreReport,
    RevertRequest, RevertResult, ReviewedRequest, RewindOutcome, RuleInput, SearchResult,
    SessionActivity, SessionId, SessionPage, SessionStatus, SessionSummary, SkillChange,
    SkillsPage, TrustDecision, WindowSignal, WorkspaceTrustReport,
};
use memo_service::{GitPlace, SearchRequest, StartRequest};

pub use bindings::typescript;

/// Path of the generated bindings, relative to the repository root.
pub const BINDINGS_PATH: &str = "ui/src/gen/ipc.ts";

/// The shape of one command for the binding generator.
pub struct CommandSpec {
    pub name: &'static str,
    pub doc: &'static str,
    /// `(name, TypeScript type)` of each argument, in order.
    pub args: Vec<(&'static str, String)>,
    /// A streaming argument: its name and the TypeScript type of one message.
    pub channel: Option<(&'static str, String)>,
    pub result: String,
}

macro_rules! ipc_calls {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($state:ident $(, $arg:ident : $ty:ty)* $(; channel $chan:ident : $msg:ty)?) -> $ret:ty $body:block
    )*) => {
        $(
            $(#[doc = $doc])*
            #[tauri::command]
            pub async fn $name(
                $state: tauri::State<'_, crate::state::AppState>,
                $($arg: $ty,)*
                $($chan: crate::page_channel::ChannelId,)?
            ) -> Result<$ret, crate::error::IpcError> {
                $(let $chan = crate::page_channel::PageChannel::<$msg>::new($state.mailbox(), $chan);)?
                $body
            }
        )*

        /// The Tauri handler for every command above.
        pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($name),*]
        }

        /// Every command's shape, for the TypeScript bindings.
        pub fn specs() -> Vec<CommandSpec> {
            let cfg = ts_rs::Config::new().with_large_int("number");
            let _ = &cfg;
            vec![$(
                CommandSpec {
                    name: stringify!($name),
                    doc: concat!($($doc, "\n"),*),
                    args: vec![$((stringify!($arg), <$ty as ts_rs::TS>::name(&cfg))),*],
                    channel: None$(.or(Some((stringify!($chan), <$msg as ts_rs::TS>::name(&cfg)))))?,
                    result: <$ret as ts_rs::TS>::name(&cfg),
                }
            ),*]
        }
    };
}

ipc_calls! {
    /// Version, data folder and platform as the Rust side computed them.
    fn app_info(state) -> AppInfo {
        let home = state.service().home()?;
        Ok(AppInfo {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            memo_home: home.root().display().to_string(),
            platform: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH),
            // The engine takes its version from the workspace, like this package.
            engine: format!("memo-engine {}", env!("CARGO_PKG_VERSION")),
            time_zone: crate::time_zone::local(),
            languages: crate::languages::from_env(|name| std::env::var(name).ok()),
        })
    }

    /// Providers from `$MEMO_HOME/config.toml`; a broken config fails with code `config`.
    fn list_providers(state) -> Vec<ProviderSummary> {
        Ok(state.service().list_providers()?)
    }

    /// Starts a session in `cwd` (with the config's current provider unless one is named, in
    /// config.toml's approval mode unless `approval_mode` is given).
    fn start_session(state, cwd: String, provider: Option<String>, model: Option<String>, approval_mode: Option<ApprovalMode>) -> SessionSummary {
        let request = StartRequest { cwd: PathBuf::from(cwd), provider, model, approval_mode, ..StartRequest::default() };
        Ok(state.service().start_session(request)?)
    }

    /// Makes a stored session live again (a no-op for one that already is). Imported
    /// history continues in a fork, whose summary comes back.
    fn resume_session(state, session_id: SessionId) -> SessionSummary {
        Ok(state.service().resume_session(&session_id, None)?)
    }

    /// Stored sessions, newest first; only those of `cwd` when given.
    fn list_sessions(state, cwd: Option<String>) -> SessionPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().list_sessions(cwd.as_deref(), 200, 0)?)
    }

    /// Streams the session's events with `seq > after_seq` to `on_events` in batches,
    /// stored ones first. A new subscription to the same session replaces the previous one.
    fn subscribe_session(state, session_id: SessionId, after_seq: u64; channel on_events: Vec<EventEnvelope>) -> () {
        Ok(state.bridge().subscribe(&session_id, after_seq, on_events)?)
    }

    /// Up to `turns` whole turns of a stored session before `before_seq` (default: its
    /// end), without the deltas of finished steps: a long session opens from its end and
    /// reaches back page by page. With `from_seq`: from the turn holding that event on.
    fn history_page(state, session_id: SessionId, before_seq: Option<u64>, turns: Option<u32>, from_seq: Option<u64>) -> HistoryPage {
        Ok(state.service().history_page(&session_id, before_seq, turns, from_seq)?)
    }

    /// The whole output of a tool call (its `tool_call_end` is event `seq`): the window is
    /// sent only the start of a long one.
    fn tool_output(state, session_id: SessionId, seq: u64) -> String {
        Ok(state.service().tool_output(&session_id, seq)?)
    }

    /// Stops streaming a session's events to the window (the session goes on running).
    fn unsubscribe_session(state, session_id: SessionId) -> () {
        state.bridge().unsubscribe(&session_id);
        Ok(())
    }

    /// Streams what every live session is doing (running, waiting for approval, finished)
    /// to `on_activity`: the whole list now and again at each change.
    fn subscribe_activity(state; channel on_activity: Vec<SessionActivity>) -> () {
        state.bridge().subscribe_activity(on_activity);
        Ok(())
    }

    /// Waits until the shell has sent messages on channels the page passed to commands,
    /// and hands over all there are: the page's side of every channel (page_channel.rs).
    fn receive_messages(state) -> Vec<PageMessage> {
        Ok(state.mailbox().receive().await)
    }

    /// Opens the channel on which the shell tells the window what it asks of it on its
    /// own: a clicked notification's session to show, folders a second launch handed over.
    fn subscribe_window_signals(state; channel on_signal: WindowSignal) -> () {
        state.signals().subscribe(on_signal);
        Ok(())
    }

    /// Shows a desktop notification about a session; clicking it (or its `open_label`
    /// action, in the window's language) brings the window back and signals the window to
    /// show that session. False when the desktop shows none.
    fn notify_session(state, session_id: SessionId, title: String, body: String, open_label: String) -> bool {
        Ok(state.attention().notify(session_id.as_str(), &title, &body, &open_label))
    }

    /// Puts the number of sessions waiting for the user on the window (title and badge).
    fn set_waiting_count(state, count: u32) -> () {
        state.attention().set_count(count);
        Ok(())
    }

    /// The real path of a folder a person typed, or why it cannot be opened (no such
    /// folder, a file, unreadable: `invalid_input`); nothing is opened or remembered.
    fn check_folder(state, path: String) -> String {
        Ok(state.service().check_folder(&path)?)
    }

    /// Whether each path is an existing folder (remembered folders may have gone).
    fn folders_exist(state, paths: Vec<String>) -> Vec<bool> {
        let _ = &state;
        Ok(paths.iter().map(|p| std::path::Path::new(p).is_dir()).collect())
    }

    /// Sends an op (a message, an interrupt, an approval decision) to a live session.
    fn submit_op(state, session_id: SessionId, op: Op) -> () {
        Ok(state.service().submit(&session_id, op)?)
    }

    /// Renames a stored session; an empty or over-long title is refused (`invalid_input`).
    fn rename_session(state, session_id: SessionId, title: String) -> SessionSummary {
        Ok(state.service().rename_session(&session_id, &title)?)
    }

    /// Deletes a session and its history (stopping it first if it is open).
    fn delete_session(state, session_id: SessionId) -> () {
        Ok(state.bridge().delete_session(&session_id).await?)
    }

    /// Forks the conversation up to just before the turn that starts at event `turn_seq`
    /// into a new, open session, and returns it with that turn's message. The original is
    /// kept.
    fn rewind_session(state, session_id: SessionId, turn_seq: u64) -> RewindOutcome {
        Ok(state.service().rewind_session(&session_id, turn_seq)?)
    }

    /// Files changed in the session's last turn, in the whole session, or (in a git
    /// repository) everything uncommitted, with diffs from then to now.
    fn session_changes(state, session_id: SessionId, scope: ChangeScope) -> ChangesReport {
        Ok(state.service().session_changes(&session_id, scope)?)
    }

    /// Puts back hunks of one file (or all of it); a `conflict` error when the file
    /// changed since its diff was shown. Returns the scope's list afresh, the checkpoint
    /// that undoes the revert, or why it was held back (someone's later lines).
    fn revert_change(state, session_id: SessionId, request: RevertRequest) -> RevertResult {
        Ok(state.service().revert_change(&session_id, &request)?)
    }

    /// Keeps (or takes back) hunks of a file of the changes panel: staged in git's index,
    /// or marked in Memo's store outside git; returns the scope's list afresh.
    fn keep_change(state, session_id: SessionId, request: KeepRequest) -> ChangesReport {
        Ok(state.service().keep_change(&session_id, &request)?)
    }

    /// Marks a file of the changes panel reviewed as it stands (or not any more).
    fn mark_reviewed(state, session_id: SessionId, request: ReviewedRequest) -> ChangesReport {
        Ok(state.service().mark_reviewed(&session_id, &request)?)
    }

    /// The session's repository as git sees it: branch, upstream, staged, unstaged and
    /// untracked files, an operation in progress.
    fn git_status(state, session_id: SessionId) -> GitStatus {
        Ok(state.service().git_status(GitPlace::Session(&session_id))?)
    }

    /// One file's staged and unstaged diffs, in git's own hunks.
    fn git_file_diff(state, session_id: SessionId, path: String) -> GitFileDiff {
        Ok(state.service().git_file_diff(GitPlace::Session(&session_id), &path)?)
    }

    /// Stages or unstages hunks of a file (or all of it); returns the status after.
    fn git_stage(state, session_id: SessionId, request: GitStageRequest) -> GitStatus {
        Ok(state.service().git_stage(GitPlace::Session(&session_id), &request)?)
    }

    /// What a commit would take now, the staged files that look like secrets, and why it
    /// cannot be made, if it cannot.
    fn commit_preview(state, session_id: SessionId) -> CommitPreview {
        Ok(state.service().commit_preview(GitPlace::Session(&session_id))?)
    }

    /// A commit message for what is staged, drafted by the session's model.
    fn draft_commit_message(state, session_id: SessionId) -> String {
        Ok(state.service().draft_commit_message(GitPlace::Session(&session_id)).await?)
    }

    /// Commits exactly what is staged; the repository's hooks run.
    fn commit_staged(state, session_id: SessionId, request: CommitRequest) -> CommitResult {
        Ok(state.service().commit(GitPlace::Session(&session_id), &request)?)
    }

    /// Pushes the session's branch, or asks which remote when it has no upstream.
    fn push_branch(state, session_id: SessionId, request: PushRequest) -> PushResult {
        Ok(state.service().push(GitPlace::Session(&session_id), &request)?)
    }

    /// A pull request's title and body drafted by the session's model, with the command
    /// that would open it or the page to open it in.
    fn draft_pull_request(state, session_id: SessionId) -> PullRequestPlan {
        Ok(state.service().draft_pull_request(GitPlace::Session(&session_id)).await?)
    }

    /// Opens the pull request with the forge's CLI.
    fn open_pull_request(state, session_id: SessionId, request: PullRequestRequest) -> PullRequestResult {
        Ok(state.service().open_pull_request(GitPlace::Session(&session_id), &request)?)
    }

    /// Undoes a revert of the changes panel: `path` gets back what it held before it;
    /// left alone (a conflict) if it changed since, unless `overwrite`.
    fn undo_revert(state, session_id: SessionId, checkpoint: u64, path: String, overwrite: bool) -> RestoreReport {
        Ok(state.service().undo_revert(&session_id, checkpoint, &path, overwrite)?)
    }

    /// Writes the session to `path` (from the save dialog) as Markdown, for reading, or
    /// Memo Code JSONL, for moving; returns the bytes written.
    fn export_session(state, session_id: SessionId, path: String, format: ExportFormat) -> u64 {
        Ok(state.service().export_session(&session_id, std::path::Path::new(&path), format)?)
    }

    /// Imports Memo Code JSONL files (from the open dialog) as read-only sessions.
    fn import_sessions(state, paths: Vec<String>) -> ImportReport {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        Ok(state.service().import_memo_code(&paths)?)
    }

    /// The session's checkpoints, oldest first.
    fn session_checkpoints(state, session_id: SessionId) -> Vec<CheckpointSummary> {
        Ok(state.service().session_checkpoints(&session_id)?)
    }

    /// What restoring the code to just after event `to_seq` would do to each file.
    fn preview_restore(state, session_id: SessionId, to_seq: u64) -> RestoreReport {
        Ok(state.service().preview_restore(&session_id, to_seq)?)
    }

    /// Restores code, conversation (as a new open session) or both to just after event
    /// `to_seq`; conflicting files only when listed in `overwrite`.
    fn restore_session(state, session_id: SessionId, to_seq: u64, mode: RestoreMode, overwrite: Vec<String>) -> RestoreReport {
        Ok(state.service().restore(&session_id, to_seq, mode, &overwrite)?)
    }

    /// Undoes a restore (its `undo_checkpoint`).
    fn undo_restore(state, session_id: SessionId, checkpoint: u64, overwrite: Vec<String>) -> RestoreReport {
        Ok(state.service().undo_restore(&session_id, checkpoint, &overwrite)?)
    }

    /// Memo's worktrees (of the repository `cwd` is in, when given), oldest first; missing
    /// ones included so they can be forgotten.
    fn list_worktrees(state, cwd: Option<String>) -> Vec<memo_protocol::WorktreeInfo> {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().list_worktrees(cwd.as_deref())?)
    }

    /// Creates a branch `memo/<name>` and a worktree of the repository `cwd` is in (under
    /// Memo's folder) and starts a session there.
    fn start_worktree_session(state, cwd: String, name: Option<String>, provider: Option<String>, model: Option<String>, approval_mode: Option<ApprovalMode>) -> memo_protocol::WorktreeSession {
        let start = StartRequest { cwd: PathBuf::from(cwd), provider, model, approval_mode, ..StartRequest::default() };
        Ok(state.service().start_session_in_worktree(memo_service::WorktreeSessionRequest { start, name })?)
    }

    /// The Memo worktree the session works in, or null.
    fn session_worktree(state, session_id: SessionId) -> Option<memo_protocol::WorktreeInfo> {
        Ok(state.service().worktree_for_session(&session_id)?)
    }

    /// Uncommitted files, commits ahead of / behind the base branch, and the exact list a
    /// discard must be confirmed with.
    fn worktree_status(state, worktree_id: String) -> memo_protocol::WorktreeStatus {
        Ok(state.service().worktree_status(&worktree_id)?)
    }

    /// Every file the worktree changed since its branch started, committed or not.
    fn worktree_diff(state, worktree_id: String) -> memo_protocol::WorktreeDiff {
        Ok(state.service().worktree_diff(&worktree_id)?)
    }

    /// Commits the worktree's work with `message` and merges it into the base branch; a
    /// `conflict` error (nothing changed) when that would overwrite the user's files.
    fn merge_worktree(state, worktree_id: String, message: String) -> memo_protocol::WorktreeMerge {
        Ok(state.service().merge_worktree(&worktree_id, &message)?)
    }

    /// Commits the worktree's work, removes its folder and keeps its branch to publish.
    fn keep_worktree_branch(state, worktree_id: String, message: String) -> memo_protocol::KeptBranch {
        Ok(state.service().keep_worktree_branch(&worktree_id, &message).await?)
    }

    /// Removes the worktree and its branch; with work to lose, only when `confirm` is the
    /// status's `discard_confirmation` as it is now (else `conflict`).
    fn discard_worktree(state, worktree_id: String, confirm: Option<Vec<String>>) -> memo_protocol::WorktreeDiscard {
        Ok(state.service().discard_worktree(&worktree_id, confirm).await?)
    }

    /// Drops a worktree whose folder is gone from the list; its branch is kept.
    fn forget_worktree(state, worktree_id: String) -> () {
        Ok(state.service().forget_worktree(&worktree_id)?)
    }

    /// Messages matching `query` across stored sessions, best first; those of `cwd` when
    /// given.
    fn search_sessions(state, query: String, cwd: Option<String>) -> Vec<SearchResult> {
        let mut request = SearchRequest::new(query);
        request.cwd = cwd.map(PathBuf::from);
        Ok(state.service().search_sessions(&request)?)
    }

    /// Where `provider`'s key would come from (keychain, environment, nowhere).
    fn key_status(state, provider: String) -> KeyStatus {
        Ok(state.service().key_status(&provider)?)
    }

    /// Stores `key` for `provider` in the OS keychain; the key never comes back.
    fn set_api_key(state, provider: String, key: String) -> KeyStatus {
        Ok(state.service().set_api_key(&provider, &key)?)
    }

    /// Removes `provider`'s key from the OS keychain.
    fn delete_api_key(state, provider: String) -> KeyStatus {
        Ok(state.service().delete_api_key(&provider)?)
    }

    /// What the model sees, layer by layer: the open session's prompt when `session_id` is
    /// live, else the prompt a new session in `cwd` would get.
    fn prompt_layers(state, session_id: Option<SessionId>, cwd: Option<String>, provider: Option<String>, model: Option<String>) -> PromptReport {
        Ok(state.service().prompt_layers(session_id.as_ref(), cwd.map(PathBuf::from), provider, model)?)
    }

    /// Providers and model profiles of config.toml with the file's revision; an invalid
    /// file fails with code `config` and its `file:line:column`.
    fn provider_settings(state) -> ProviderSettingsPage {
        Ok(state.service().provider_settings()?)
    }

    /// Applies one change to config.toml if it still has `revision` (else `conflict`),
    /// keeping its comments, order and unknown keys.
    fn update_providers(state, change: ProviderChange, revision: String) -> ProviderSettingsPage {
        Ok(state.service().update_providers(&change, &revision)?)
    }

    /// SOUL.md, the folder `cwd`'s instructions, or the SKILL.md at `path`, for an editor.
    fn read_editable_file(state, kind: EditableFileKind, cwd: Option<String>, path: Option<String>) -> EditableFile {
        let cwd = cwd.map(PathBuf::from);
        let path = path.map(PathBuf::from);
        Ok(state.service().read_file(kind, cwd.as_deref(), path.as_deref())?)
    }

    /// Saves an editor's text if the file still has `revision` (else `conflict`).
    fn write_editable_file(state, kind: EditableFileKind, cwd: Option<String>, path: Option<String>, content: String, revision: String) -> EditableFile {
        let cwd = cwd.map(PathBuf::from);
        let path = path.map(PathBuf::from);
        Ok(state.service().write_file(kind, cwd.as_deref(), path.as_deref(), &content, &revision)?)
    }

    /// The agent types a session in `cwd` can start as subagents (built-in, the folder's,
    /// the user's, plugins'), with the agent files that could not be read.
    fn list_agents(state, cwd: String) -> AgentsPage {
        Ok(state.service().list_agents(std::path::Path::new(&cwd))?)
    }

    /// Every skill (Memo's, the folder's, other agents'), enabled or not.
    fn list_skills(state, cwd: Option<String>) -> SkillsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().list_skills(cwd.as_deref())?)
    }

    /// Creates, saves, renames, deletes (to the trash), enables or disables a skill.
    fn change_skill(state, change: SkillChange, cwd: Option<String>) -> SkillsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().change_skill(&change, cwd.as_deref())?)
    }

    /// Every installed Claude Code plugin, with its commands, skills, agents, hooks, MCP
    /// servers and problems.
    fn list_plugins(state) -> PluginsPage {
        Ok(state.service().list_plugins()?)
    }

    /// Installs a plugin from a folder (copied) or a git URL (cloned) into the Memo home;
    /// `replace` lets it take the place of an installed plugin of the same name.
    fn install_plugin(state, source: PluginInstall, replace: bool) -> PluginsPage {
        Ok(state.service().install_plugin(&source, replace).await?)
    }

    /// Turns a plugin on or off for sessions started from now on.
    fn set_plugin_enabled(state, name: String, enabled: bool) -> PluginsPage {
        Ok(state.service().set_plugin_enabled(&name, enabled)?)
    }

    /// Deletes Memo's copy of a plugin (never the folder it was installed from).
    fn remove_plugin(state, name: String) -> PluginsPage {
        Ok(state.service().remove_plugin(&name)?)
    }

    /// Sends one minimal request to `provider` with `key` (typed, not stored) or its
    /// stored key, and says how it went.
    fn test_connection(state, provider: ProviderInput, key: Option<String>) -> ConnectionReport {
        Ok(state.service().test_connection(&provider, key.as_deref()).await?)
    }

    /// OpenAI-compatible servers on this machine's usual ports, with their models.
    fn probe_local_servers(state) -> Vec<LocalServer> {
        Ok(state.service().probe_local_servers().await)
    }

    /// How full the session's context is (against its model's window) and its cost.
    fn session_status(state, session_id: SessionId) -> SessionStatus {
        Ok(state.service().session_status(&session_id)?)
    }

    /// Suggestions for the composer after `/`, `@` or `$` (`typed` is the word after it).
    fn complete(state, cwd: String, session_id: Option<SessionId>, kind: CompletionKind, typed: String) -> Vec<Completion> {
        Ok(state.service().complete(std::path::Path::new(&cwd), session_id.as_ref(), kind, &typed, 12)?)
    }

    /// What the folder's own project files would start (MCP servers) and whether the user
    /// must be asked before a session there starts them.
    fn workspace_trust(state, cwd: String) -> WorkspaceTrustReport {
        Ok(state.service().workspace_trust(std::path::Path::new(&cwd))?)
    }

    /// Trusts (or refuses) what the folder would start now; asked again if that changes.
    fn set_workspace_trust(state, cwd: String, trusted: bool) -> WorkspaceTrustReport {
        Ok(state.service().set_workspace_trust(std::path::Path::new(&cwd), trusted)?)
    }

    /// Every remembered trust decision, most recent first.
    fn trust_decisions(state) -> Vec<TrustDecision> {
        Ok(state.service().trust_decisions()?)
    }

    /// Forgets a folder's trust decision, so opening it asks again.
    fn forget_workspace_trust(state, folder: String) -> () {
        Ok(state.service().forget_workspace_trust(std::path::Path::new(&folder))?)
    }

    /// The mode new sessions start in, every kept approval rule, the built-in tools, and
    /// other agents' permissions for a session in `cwd`.
    fn approval_settings(state, cwd: Option<String>) -> ApprovalSettings {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().approval_settings(cwd.as_deref())?)
    }

    /// Turns a built-in tool off for new sessions (config.toml's `disabled_tools`), or on.
    fn set_tool_disabled(state, name: String, disabled: bool) -> ApprovalSettings {
        Ok(state.service().set_tool_disabled(&name, disabled)?)
    }

    /// Writes the default approval mode to config.toml.
    fn set_default_approval_mode(state, mode: ApprovalMode) -> ApprovalSettings {
        Ok(state.service().set_default_approval_mode(mode)?)
    }

    /// Adds a rule (`id` null) or replaces rule `id`.
    fn save_approval_rule(state, id: Option<String>, rule: RuleInput) -> ApprovalSettings {
        Ok(state.service().save_approval_rule(id.as_deref(), &rule)?)
    }

    /// Writes the kept rules to `path` (chosen in a save dialog); returns how many.
    fn export_approval_rules(state, path: String) -> u32 {
        Ok(state.service().export_approval_rules(std::path::Path::new(&path))?)
    }

    /// Deletes a kept rule: its calls ask again.
    fn delete_approval_rule(state, id: String) -> ApprovalSettings {
        Ok(state.service().delete_approval_rule(&id)?)
    }

    /// Settings → External agents: other agents Memo runs over ACP, and the presets.
    fn external_agents_page(state) -> ExternalAgentsPage {
        Ok(state.service().external_agents_page().await?)
    }

    /// Adds an external agent (`editing` false) or changes it; secret values go to the
    /// keychain.
    fn save_external_agent(state, input: ExternalAgentInput, editing: bool) -> ExternalAgentsPage {
        Ok(state.service().save_external_agent(&input, editing).await?)
    }

    /// Removes an external agent and its keychain values.
    fn remove_external_agent(state, name: String) -> ExternalAgentsPage {
        Ok(state.service().remove_external_agent(&name).await?)
    }

    /// Starts the agent, asks it `initialize` and stops it: whether it runs, what it
    /// is, how it signs in.
    fn check_external_agent(state, name: String) -> ExternalAgentCheck {
        Ok(state.service().check_external_agent(&name, None).await?)
    }

    /// Starts a session in `cwd` whose turns external agent `agent` runs (it starts with
    /// the first message).
    fn start_external_session(state, cwd: String, agent: String, approval_mode: Option<ApprovalMode>) -> SessionSummary {
        let request = memo_service::ExternalSessionRequest { cwd: PathBuf::from(cwd), agent, approval_mode };
        Ok(state.service().start_external_session(request)?)
    }

    /// Every MCP server a session in `cwd` would use (config.toml and the folder's own
    /// files), where each comes from, and whether the folder's trust lets it start.
    fn mcp_settings(state, cwd: Option<String>) -> McpSettingsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().mcp_settings(cwd.as_deref())?)
    }

    /// Starts the servers (all, or those in `names`) briefly and reports each one's state,
    /// tools, prompts and resources, then stops them. An untrusted folder's own servers
    /// are never started.
    fn check_mcp_servers(state, cwd: Option<String>, names: Option<Vec<String>>) -> Vec<McpServerCheck> {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().check_mcp_servers(cwd.as_deref(), names).await?)
    }

    /// Signs in to an HTTP MCP server with OAuth in the system browser (tokens to the OS
    /// keychain); resolves when the sign-in is done or failed.
    fn mcp_login(state, cwd: Option<String>, name: String) -> () {
        let cwd = cwd.map(PathBuf::from);
        state.service().mcp_login(cwd.as_deref(), &name, None).await?;
        Ok(())
    }

    /// Restarts an MCP server in every open session that has it; returns how many.
    fn restart_mcp_server(state, name: String) -> u32 {
        Ok(state.service().restart_mcp_server(&name))
    }

    /// Adds a server to config.toml (`editing`: replaces the one of that name); typed env
    /// and header values go to the OS keychain.
    fn save_mcp_server(state, server: McpServerInput, editing: bool, cwd: Option<String>) -> McpSettingsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().save_mcp_server(&server, editing, cwd.as_deref())?)
    }

    /// Removes a server from config.toml, with its keychain values.
    fn remove_mcp_server(state, name: String, cwd: Option<String>) -> McpSettingsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().remove_mcp_server(&name, cwd.as_deref())?)
    }

    /// Turns a server on or off for new sessions (config.toml's `active_mcp_servers`).
    fn set_mcp_server_enabled(state, name: String, enabled: bool, cwd: Option<String>) -> McpSettingsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().set_mcp_server_enabled(&name, enabled, cwd.as_deref())?)
    }

    /// Turns one tool of a config.toml server off (`exclude_tools`) or on again.
    fn set_mcp_tool_enabled(state, server: String, tool: String, enabled: bool, cwd: Option<String>) -> McpSettingsPage {
        let cwd = cwd.map(PathBuf::from);
        Ok(state.service().set_mcp_tool_enabled(&server, &tool, enabled, cwd.as_deref())?)
    }

    /// Starts a shell in the folder `cwd` on a new terminal of `cols` x `rows` cells. Its
    /// output (base64 bytes) and finally its exit arrive on `on_output`; rendered output is
    /// acked with `terminal_ack`, or the terminal stops reading after 1 MiB.
    fn terminal_open(state, cwd: String, cols: u16, rows: u16; channel on_output: memo_protocol::TerminalMessage) -> memo_protocol::TerminalId {
        let request = memo_terminal::OpenRequest { group: cwd.clone(), cwd: PathBuf::from(cwd), cols, rows, shell: None };
        Ok(state.terminals().open(request, crate::terminal::ChannelSink(on_output))?)
    }

    /// Types `data` (keystrokes, pasted text) into the terminal; never waits for the shell.
    fn terminal_write(state, id: memo_protocol::TerminalId, data: String) -> () {
        Ok(state.terminals().write(id, data)?)
    }

    /// Tells the terminal's programs its new size in character cells.
    fn terminal_resize(state, id: memo_protocol::TerminalId, cols: u16, rows: u16) -> () {
        Ok(state.terminals().resize(id, cols, rows)?)
    }

    /// The window rendered `bytes` more (decoded) bytes of the terminal's output.
    fn terminal_ack(state, id: memo_protocol::TerminalId, bytes: u32) -> () {
        Ok(state.terminals().ack(id, usize::try_from(bytes).unwrap_or(usize::MAX))?)
    }

    /// Closes a terminal, ending every process started in it (background jobs too).
    fn terminal_close(state, id: memo_protocol::TerminalId) -> () {
        Ok(state.terminals().close(id)?)
    }

    /// Closes every terminal of the workspace `cwd`; returns how many.
    fn terminal_close_group(state, cwd: String) -> u32 {
        Ok(u32::try_from(state.terminals().close_group(&cwd)).unwrap_or(u32::MAX))
    }

    /// Folders asked for from outside the window (`memo-desktop DIR`, a second launch),
    /// each once; the window also hears `memo://open-requests` when one arrives.
    fn take_open_requests(state) -> Vec<String> {
        Ok(state.open_requests().take())
    }
}
