// Generated from src-tauri/src/ipc/mod.rs; regenerate with
// `MEMO_UPDATE_BINDINGS=1 cargo test -p memo-desktop bindings`.
// Do not edit by hand: memo-desktop's tests fail when this file is stale.

import type { Channel } from "@tauri-apps/api/core";
import type { AgentsPage, AppInfo, ApprovalMode, ApprovalSettings, ChangeScope, ChangesReport, CheckpointSummary, CommitPreview, CommitRequest, CommitResult, Completion, CompletionKind, ConnectionReport, EditableFile, EditableFileKind, ErrorCode, EventEnvelope, ExportFormat, ExternalAgentCheck, ExternalAgentInput, ExternalAgentsPage, GitFileDiff, GitStageRequest, GitStatus, HistoryPage, ImportReport, KeepRequest, KeptBranch, KeyStatus, LocalServer, McpServerCheck, McpServerInput, McpSettingsPage, Op, PageMessage, Phrase, PluginInstall, PluginsPage, PromptReport, ProviderChange, ProviderInput, ProviderSettingsPage, ProviderSummary, PullRequestPlan, PullRequestRequest, PullRequestResult, PushRequest, PushResult, RestoreMode, RestoreReport, RevertRequest, RevertResult, ReviewedRequest, RewindOutcome, RuleInput, SearchResult, SessionActivity, SessionId, SessionPage, SessionStatus, SessionSummary, SkillChange, SkillsPage, TerminalId, TerminalMessage, TrustDecision, WindowSignal, WorkspaceTrustReport, WorktreeDiff, WorktreeDiscard, WorktreeInfo, WorktreeMerge, WorktreeSession, WorktreeStatus } from "./protocol";

/** What every IPC call rejects with. */
export type IpcErrorPayload = { code: ErrorCode, 
/**
 * In English: for logs, and for a front end with no words for `phrase`.
 */
message: string, retryable: boolean, 
/**
 * The message as a phrase the window words in its language, where Rust said it so.
 */
phrase?: Phrase, };

export const CALL_NAMES = [
  "app_info",
  "list_providers",
  "start_session",
  "resume_session",
  "list_sessions",
  "subscribe_session",
  "history_page",
  "tool_output",
  "unsubscribe_session",
  "subscribe_activity",
  "receive_messages",
  "subscribe_window_signals",
  "notify_session",
  "set_waiting_count",
  "check_folder",
  "folders_exist",
  "submit_op",
  "rename_session",
  "delete_session",
  "rewind_session",
  "session_changes",
  "revert_change",
  "keep_change",
  "mark_reviewed",
  "git_status",
  "git_file_diff",
  "git_stage",
  "commit_preview",
  "draft_commit_message",
  "commit_staged",
  "push_branch",
  "draft_pull_request",
  "open_pull_request",
  "undo_revert",
  "export_session",
  "import_sessions",
  "session_checkpoints",
  "preview_restore",
  "restore_session",
  "undo_restore",
  "list_worktrees",
  "start_worktree_session",
  "session_worktree",
  "worktree_status",
  "worktree_diff",
  "merge_worktree",
  "keep_worktree_branch",
  "discard_worktree",
  "forget_worktree",
  "search_sessions",
  "key_status",
  "set_api_key",
  "delete_api_key",
  "prompt_layers",
  "provider_settings",
  "update_providers",
  "read_editable_file",
  "write_editable_file",
  "list_agents",
  "list_skills",
  "change_skill",
  "list_plugins",
  "install_plugin",
  "set_plugin_enabled",
  "remove_plugin",
  "test_connection",
  "probe_local_servers",
  "session_status",
  "complete",
  "workspace_trust",
  "set_workspace_trust",
  "trust_decisions",
  "forget_workspace_trust",
  "approval_settings",
  "set_tool_disabled",
  "set_default_approval_mode",
  "save_approval_rule",
  "export_approval_rules",
  "delete_approval_rule",
  "external_agents_page",
  "save_external_agent",
  "remove_external_agent",
  "check_external_agent",
  "start_external_session",
  "mcp_settings",
  "check_mcp_servers",
  "mcp_login",
  "restart_mcp_server",
  "save_mcp_server",
  "remove_mcp_server",
  "set_mcp_server_enabled",
  "set_mcp_tool_enabled",
  "terminal_open",
  "terminal_write",
  "terminal_resize",
  "terminal_ack",
  "terminal_close",
  "terminal_close_group",
  "take_open_requests",
] as const;

export type CallName = (typeof CALL_NAMES)[number];

/** Makes one IPC call by name with its arguments (ui/src/ipc/invoke.ts). */
export type Invoke = <T>(call: CallName, args: Record<string, unknown>) => Promise<T>;

export interface IpcCalls {
  /**
   * Version, data folder and platform as the Rust side computed them.
   */
  appInfo(): Promise<AppInfo>;
  /**
   * Providers from `$MEMO_HOME/config.toml`; a broken config fails with code `config`.
   */
  listProviders(): Promise<Array<ProviderSummary>>;
  /**
   * Starts a session in `cwd` (with the config's current provider unless one is named, in
   * config.toml's approval mode unless `approval_mode` is given).
   */
  startSession(args: { cwd: string; provider?: string | null; model?: string | null; approvalMode?: ApprovalMode | null }): Promise<SessionSummary>;
  /**
   * Makes a stored session live again (a no-op for one that already is). Imported
   * history continues in a fork, whose summary comes back.
   */
  resumeSession(args: { sessionId: SessionId }): Promise<SessionSummary>;
  /**
   * Stored sessions, newest first; only those of `cwd` when given.
   */
  listSessions(args: { cwd?: string | null }): Promise<SessionPage>;
  /**
   * Streams the session's events with `seq > after_seq` to `on_events` in batches,
   * stored ones first. A new subscription to the same session replaces the previous one.
   */
  subscribeSession(args: { sessionId: SessionId; afterSeq: number; onEvents: Channel<Array<EventEnvelope>> }): Promise<void>;
  /**
   * Up to `turns` whole turns of a stored session before `before_seq` (default: its
   * end), without the deltas of finished steps: a long session opens from its end and
   * reaches back page by page. With `from_seq`: from the turn holding that event on.
   */
  historyPage(args: { sessionId: SessionId; beforeSeq?: number | null; turns?: number | null; fromSeq?: number | null }): Promise<HistoryPage>;
  /**
   * The whole output of a tool call (its `tool_call_end` is event `seq`): the window is
   * sent only the start of a long one.
   */
  toolOutput(args: { sessionId: SessionId; seq: number }): Promise<string>;
  /**
   * Stops streaming a session's events to the window (the session goes on running).
   */
  unsubscribeSession(args: { sessionId: SessionId }): Promise<void>;
  /**
   * Streams what every live session is doing (running, waiting for approval, finished)
   * to `on_activity`: the whole list now and again at each change.
   */
  subscribeActivity(args: { onActivity: Channel<Array<SessionActivity>> }): Promise<void>;
  /**
   * Waits until the shell has sent messages on channels the page passed to commands,
   * and hands over all there are: the page's side of every channel (page_channel.rs).
   */
  receiveMessages(): Promise<Array<PageMessage>>;
  /**
   * Opens the channel on which the shell tells the window what it asks of it on its
   * own: a clicked notification's session to show, folders a second launch handed over.
   */
  subscribeWindowSignals(args: { onSignal: Channel<WindowSignal> }): Promise<void>;
  /**
   * Shows a desktop notification about a session; clicking it (or its `open_label`
   * action, in the window's language) brings the window back and signals the window to
   * show that session. False when the desktop shows none.
   */
  notifySession(args: { sessionId: SessionId; title: string; body: string; openLabel: string }): Promise<boolean>;
  /**
   * Puts the number of sessions waiting for the user on the window (title and badge).
   */
  setWaitingCount(args: { count: number }): Promise<void>;
  /**
   * The real path of a folder a person typed, or why it cannot be opened (no such
   * folder, a file, unreadable: `invalid_input`); nothing is opened or remembered.
   */
  checkFolder(args: { path: string }): Promise<string>;
  /**
   * Whether each path is an existing folder (remembered folders may have gone).
   */
  foldersExist(args: { paths: Array<string> }): Promise<Array<boolean>>;
  /**
   * Sends an op (a message, an interrupt, an approval decision) to a live session.
   */
  submitOp(args: { sessionId: SessionId; op: Op }): Promise<void>;
  /**
   * Renames a stored session; an empty or over-long title is refused (`invalid_input`).
   */
  renameSession(args: { sessionId: SessionId; title: string }): Promise<SessionSummary>;
  /**
   * Deletes a session and its history (stopping it first if it is open).
   */
  deleteSession(args: { sessionId: SessionId }): Promise<void>;
  /**
   * Forks the conversation up to just before the turn that starts at event `turn_seq`
   * into a new, open session, and returns it with that turn's message. The original is
   * kept.
   */
  rewindSession(args: { sessionId: SessionId; turnSeq: number }): Promise<RewindOutcome>;
  /**
   * Files changed in the session's last turn, in the whole session, or (in a git
   * repository) everything uncommitted, with diffs from then to now.
   */
  sessionChanges(args: { sessionId: SessionId; scope: ChangeScope }): Promise<ChangesReport>;
  /**
   * Puts back hunks of one file (or all of it); a `conflict` error when the file
   * changed since its diff was shown. Returns the scope's list afresh, the checkpoint
   * that undoes the revert, or why it was held back (someone's later lines).
   */
  revertChange(args: { sessionId: SessionId; request: RevertRequest }): Promise<RevertResult>;
  /**
   * Keeps (or takes back) hunks of a file of the changes panel: staged in git's index,
   * or marked in Memo's store outside git; returns the scope's list afresh.
   */
  keepChange(args: { sessionId: SessionId; request: KeepRequest }): Promise<ChangesReport>;
  /**
   * Marks a file of the changes panel reviewed as it stands (or not any more).
   */
  markReviewed(args: { sessionId: SessionId; request: ReviewedRequest }): Promise<ChangesReport>;
  /**
   * The session's repository as git sees it: branch, upstream, staged, unstaged and
   * untracked files, an operation in progress.
   */
  gitStatus(args: { sessionId: SessionId }): Promise<GitStatus>;
  /**
   * One file's staged and unstaged diffs, in git's own hunks.
   */
  gitFileDiff(args: { sessionId: SessionId; path: string }): Promise<GitFileDiff>;
  /**
   * Stages or unstages hunks of a file (or all of it); returns the status after.
   */
  gitStage(args: { sessionId: SessionId; request: GitStageRequest }): Promise<GitStatus>;
  /**
   * What a commit would take now, the staged files that look like secrets, and why it
   * cannot be made, if it cannot.
   */
  commitPreview(args: { sessionId: SessionId }): Promise<CommitPreview>;
  /**
   * A commit message for what is staged, drafted by the session's model.
   */
  draftCommitMessage(args: { sessionId: SessionId }): Promise<string>;
  /**
   * Commits exactly what is staged; the repository's hooks run.
   */
  commitStaged(args: { sessionId: SessionId; request: CommitRequest }): Promise<CommitResult>;
  /**
   * Pushes the session's branch, or asks which remote when it has no upstream.
   */
  pushBranch(args: { sessionId: SessionId; request: PushRequest }): Promise<PushResult>;
  /**
   * A pull request's title and body drafted by the session's model, with the command
   * that would open it or the page to open it in.
   */
  draftPullRequest(args: { sessionId: SessionId }): Promise<PullRequestPlan>;
  /**
   * Opens the pull request with the forge's CLI.
   */
  openPullRequest(args: { sessionId: SessionId; request: PullRequestRequest }): Promise<PullRequestResult>;
  /**
   * Undoes a revert of the changes panel: `path` gets back what it held before it;
   * left alone (a conflict) if it changed since, unless `overwrite`.
   */
  undoRevert(args: { sessionId: SessionId; checkpoint: number; path: string; overwrite: boolean }): Promise<RestoreReport>;
  /**
   * Writes the session to `path` (from the save dialog) as Markdown, for reading, or
   * Memo Code JSONL, for moving; returns the bytes written.
   */
  exportSession(args: { sessionId: SessionId; path: string; format: ExportFormat }): Promise<number>;
  /**
   * Imports Memo Code JSONL files (from the open dialog) as read-only sessions.
   */
  importSessions(args: { paths: Array<string> }): Promise<ImportReport>;
  /**
   * The session's checkpoints, oldest first.
   */
  sessionCheckpoints(args: { sessionId: SessionId }): Promise<Array<CheckpointSummary>>;
  /**
   * What restoring the code to just after event `to_seq` would do to each file.
   */
  previewRestore(args: { sessionId: SessionId; toSeq: number }): Promise<RestoreReport>;
  /**
   * Restores code, conversation (as a new open session) or both to just after event
   * `to_seq`; conflicting files only when listed in `overwrite`.
   */
  restoreSession(args: { sessionId: SessionId; toSeq: number; mode: RestoreMode; overwrite: Array<string> }): Promise<RestoreReport>;
  /**
   * Undoes a restore (its `undo_checkpoint`).
   */
  undoRestore(args: { sessionId: SessionId; checkpoint: number; overwrite: Array<string> }): Promise<RestoreReport>;
  /**
   * Memo's worktrees (of the repository `cwd` is in, when given), oldest first; missing
   * ones included so they can be forgotten.
   */
  listWorktrees(args: { cwd?: string | null }): Promise<Array<WorktreeInfo>>;
  /**
   * Creates a branch `memo/<name>` and a worktree of the repository `cwd` is in (under
   * Memo's folder) and starts a session there.
   */
  startWorktreeSession(args: { cwd: string; name?: string | null; provider?: string | null; model?: string | null; approvalMode?: ApprovalMode | null }): Promise<WorktreeSession>;
  /**
   * The Memo worktree the session works in, or null.
   */
  sessionWorktree(args: { sessionId: SessionId }): Promise<WorktreeInfo | null>;
  /**
   * Uncommitted files, commits ahead of / behind the base branch, and the exact list a
   * discard must be confirmed with.
   */
  worktreeStatus(args: { worktreeId: string }): Promise<WorktreeStatus>;
  /**
   * Every file the worktree changed since its branch started, committed or not.
   */
  worktreeDiff(args: { worktreeId: string }): Promise<WorktreeDiff>;
  /**
   * Commits the worktree's work with `message` and merges it into the base branch; a
   * `conflict` error (nothing changed) when that would overwrite the user's files.
   */
  mergeWorktree(args: { worktreeId: string; message: string }): Promise<WorktreeMerge>;
  /**
   * Commits the worktree's work, removes its folder and keeps its branch to publish.
   */
  keepWorktreeBranch(args: { worktreeId: string; message: string }): Promise<KeptBranch>;
  /**
   * Removes the worktree and its branch; with work to lose, only when `confirm` is the
   * status's `discard_confirmation` as it is now (else `conflict`).
   */
  discardWorktree(args: { worktreeId: string; confirm?: Array<string> | null }): Promise<WorktreeDiscard>;
  /**
   * Drops a worktree whose folder is gone from the list; its branch is kept.
   */
  forgetWorktree(args: { worktreeId: string }): Promise<void>;
  /**
   * Messages matching `query` across stored sessions, best first; those of `cwd` when
   * given.
   */
  searchSessions(args: { query: string; cwd?: string | null }): Promise<Array<SearchResult>>;
  /**
   * Where `provider`'s key would come from (keychain, environment, nowhere).
   */
  keyStatus(args: { provider: string }): Promise<KeyStatus>;
  /**
   * Stores `key` for `provider` in the OS keychain; the key never comes back.
   */
  setApiKey(args: { provider: string; key: string }): Promise<KeyStatus>;
  /**
   * Removes `provider`'s key from the OS keychain.
   */
  deleteApiKey(args: { provider: string }): Promise<KeyStatus>;
  /**
   * What the model sees, layer by layer: the open session's prompt when `session_id` is
   * live, else the prompt a new session in `cwd` would get.
   */
  promptLayers(args: { sessionId?: SessionId | null; cwd?: string | null; provider?: string | null; model?: string | null }): Promise<PromptReport>;
  /**
   * Providers and model profiles of config.toml with the file's revision; an invalid
   * file fails with code `config` and its `file:line:column`.
   */
  providerSettings(): Promise<ProviderSettingsPage>;
  /**
   * Applies one change to config.toml if it still has `revision` (else `conflict`),
   * keeping its comments, order and unknown keys.
   */
  updateProviders(args: { change: ProviderChange; revision: string }): Promise<ProviderSettingsPage>;
  /**
   * SOUL.md, the folder `cwd`'s instructions, or the SKILL.md at `path`, for an editor.
   */
  readEditableFile(args: { kind: EditableFileKind; cwd?: string | null; path?: string | null }): Promise<EditableFile>;
  /**
   * Saves an editor's text if the file still has `revision` (else `conflict`).
   */
  writeEditableFile(args: { kind: EditableFileKind; cwd?: string | null; path?: string | null; content: string; revision: string }): Promise<EditableFile>;
  /**
   * The agent types a session in `cwd` can start as subagents (built-in, the folder's,
   * the user's, plugins'), with the agent files that could not be read.
   */
  listAgents(args: { cwd: string }): Promise<AgentsPage>;
  /**
   * Every skill (Memo's, the folder's, other agents'), enabled or not.
   */
  listSkills(args: { cwd?: string | null }): Promise<SkillsPage>;
  /**
   * Creates, saves, renames, deletes (to the trash), enables or disables a skill.
   */
  changeSkill(args: { change: SkillChange; cwd?: string | null }): Promise<SkillsPage>;
  /**
   * Every installed Claude Code plugin, with its commands, skills, agents, hooks, MCP
   * servers and problems.
   */
  listPlugins(): Promise<PluginsPage>;
  /**
   * Installs a plugin from a folder (copied) or a git URL (cloned) into the Memo home;
   * `replace` lets it take the place of an installed plugin of the same name.
   */
  installPlugin(args: { source: PluginInstall; replace: boolean }): Promise<PluginsPage>;
  /**
   * Turns a plugin on or off for sessions started from now on.
   */
  setPluginEnabled(args: { name: string; enabled: boolean }): Promise<PluginsPage>;
  /**
   * Deletes Memo's copy of a plugin (never the folder it was installed from).
   */
  removePlugin(args: { name: string }): Promise<PluginsPage>;
  /**
   * Sends one minimal request to `provider` with `key` (typed, not stored) or its
   * stored key, and says how it went.
   */
  testConnection(args: { provider: ProviderInput; key?: string | null }): Promise<ConnectionReport>;
  /**
   * OpenAI-compatible servers on this machine's usual ports, with their models.
   */
  probeLocalServers(): Promise<Array<LocalServer>>;
  /**
   * How full the session's context is (against its model's window) and its cost.
   */
  sessionStatus(args: { sessionId: SessionId }): Promise<SessionStatus>;
  /**
   * Suggestions for the composer after `/`, `@` or `$` (`typed` is the word after it).
   */
  complete(args: { cwd: string; sessionId?: SessionId | null; kind: CompletionKind; typed: string }): Promise<Array<Completion>>;
  /**
   * What the folder's own project files would start (MCP servers) and whether the user
   * must be asked before a session there starts them.
   */
  workspaceTrust(args: { cwd: string }): Promise<WorkspaceTrustReport>;
  /**
   * Trusts (or refuses) what the folder would start now; asked again if that changes.
   */
  setWorkspaceTrust(args: { cwd: string; trusted: boolean }): Promise<WorkspaceTrustReport>;
  /**
   * Every remembered trust decision, most recent first.
   */
  trustDecisions(): Promise<Array<TrustDecision>>;
  /**
   * Forgets a folder's trust decision, so opening it asks again.
   */
  forgetWorkspaceTrust(args: { folder: string }): Promise<void>;
  /**
   * The mode new sessions start in, every kept approval rule, the built-in tools, and
   * other agents' permissions for a session in `cwd`.
   */
  approvalSettings(args: { cwd?: string | null }): Promise<ApprovalSettings>;
  /**
   * Turns a built-in tool off for new sessions (config.toml's `disabled_tools`), or on.
   */
  setToolDisabled(args: { name: string; disabled: boolean }): Promise<ApprovalSettings>;
  /**
   * Writes the default approval mode to config.toml.
   */
  setDefaultApprovalMode(args: { mode: ApprovalMode }): Promise<ApprovalSettings>;
  /**
   * Adds a rule (`id` null) or replaces rule `id`.
   */
  saveApprovalRule(args: { id?: string | null; rule: RuleInput }): Promise<ApprovalSettings>;
  /**
   * Writes the kept rules to `path` (chosen in a save dialog); returns how many.
   */
  exportApprovalRules(args: { path: string }): Promise<number>;
  /**
   * Deletes a kept rule: its calls ask again.
   */
  deleteApprovalRule(args: { id: string }): Promise<ApprovalSettings>;
  /**
   * Settings → External agents: other agents Memo runs over ACP, and the presets.
   */
  externalAgentsPage(): Promise<ExternalAgentsPage>;
  /**
   * Adds an external agent (`editing` false) or changes it; secret values go to the
   * keychain.
   */
  saveExternalAgent(args: { input: ExternalAgentInput; editing: boolean }): Promise<ExternalAgentsPage>;
  /**
   * Removes an external agent and its keychain values.
   */
  removeExternalAgent(args: { name: string }): Promise<ExternalAgentsPage>;
  /**
   * Starts the agent, asks it `initialize` and stops it: whether it runs, what it
   * is, how it signs in.
   */
  checkExternalAgent(args: { name: string }): Promise<ExternalAgentCheck>;
  /**
   * Starts a session in `cwd` whose turns external agent `agent` runs (it starts with
   * the first message).
   */
  startExternalSession(args: { cwd: string; agent: string; approvalMode?: ApprovalMode | null }): Promise<SessionSummary>;
  /**
   * Every MCP server a session in `cwd` would use (config.toml and the folder's own
   * files), where each comes from, and whether the folder's trust lets it start.
   */
  mcpSettings(args: { cwd?: string | null }): Promise<McpSettingsPage>;
  /**
   * Starts the servers (all, or those in `names`) briefly and reports each one's state,
   * tools, prompts and resources, then stops them. An untrusted folder's own servers
   * are never started.
   */
  checkMcpServers(args: { cwd?: string | null; names?: Array<string> | null }): Promise<Array<McpServerCheck>>;
  /**
   * Signs in to an HTTP MCP server with OAuth in the system browser (tokens to the OS
   * keychain); resolves when the sign-in is done or failed.
   */
  mcpLogin(args: { cwd?: string | null; name: string }): Promise<void>;
  /**
   * Restarts an MCP server in every open session that has it; returns how many.
   */
  restartMcpServer(args: { name: string }): Promise<number>;
  /**
   * Adds a server to config.toml (`editing`: replaces the one of that name); typed env
   * and header values go to the OS keychain.
   */
  saveMcpServer(args: { server: McpServerInput; editing: boolean; cwd?: string | null }): Promise<McpSettingsPage>;
  /**
   * Removes a server from config.toml, with its keychain values.
   */
  removeMcpServer(args: { name: string; cwd?: string | null }): Promise<McpSettingsPage>;
  /**
   * Turns a server on or off for new sessions (config.toml's `active_mcp_servers`).
   */
  setMcpServerEnabled(args: { name: string; enabled: boolean; cwd?: string | null }): Promise<McpSettingsPage>;
  /**
   * Turns one tool of a config.toml server off (`exclude_tools`) or on again.
   */
  setMcpToolEnabled(args: { server: string; tool: string; enabled: boolean; cwd?: string | null }): Promise<McpSettingsPage>;
  /**
   * Starts a shell in the folder `cwd` on a new terminal of `cols` x `rows` cells. Its
   * output (base64 bytes) and finally its exit arrive on `on_output`; rendered output is
   * acked with `terminal_ack`, or the terminal stops reading after 1 MiB.
   */
  terminalOpen(args: { cwd: string; cols: number; rows: number; onOutput: Channel<TerminalMessage> }): Promise<TerminalId>;
  /**
   * Types `data` (keystrokes, pasted text) into the terminal; never waits for the shell.
   */
  terminalWrite(args: { id: TerminalId; data: string }): Promise<void>;
  /**
   * Tells the terminal's programs its new size in character cells.
   */
  terminalResize(args: { id: TerminalId; cols: number; rows: number }): Promise<void>;
  /**
   * The window rendered `bytes` more (decoded) bytes of the terminal's output.
   */
  terminalAck(args: { id: TerminalId; bytes: number }): Promise<void>;
  /**
   * Closes a terminal, ending every process started in it (background jobs too).
   */
  terminalClose(args: { id: TerminalId }): Promise<void>;
  /**
   * Closes every terminal of the workspace `cwd`; returns how many.
   */
  terminalCloseGroup(args: { cwd: string }): Promise<number>;
  /**
   * Folders asked for from outside the window (`memo-desktop DIR`, a second launch),
   * each once; the window also hears `memo://open-requests` when one arrives.
   */
  takeOpenRequests(): Promise<Array<string>>;
}

export function bindCalls(invoke: Invoke): IpcCalls {
  return {
    appInfo: () => invoke("app_info", {}),
    listProviders: () => invoke("list_providers", {}),
    startSession: (args) => invoke("start_session", args),
    resumeSession: (args) => invoke("resume_session", args),
    listSessions: (args) => invoke("list_sessions", args),
    subscribeSession: (args) => invoke("subscribe_session", args),
    historyPage: (args) => invoke("history_page", args),
    toolOutput: (args) => invoke("tool_output", args),
    unsubscribeSession: (args) => invoke("unsubscribe_session", args),
    subscribeActivity: (args) => invoke("subscribe_activity", args),
    receiveMessages: () => invoke("receive_messages", {}),
    subscribeWindowSignals: (args) => invoke("subscribe_window_signals", args),
    notifySession: (args) => invoke("notify_session", args),
    setWaitingCount: (args) => invoke("set_waiting_count", args),
    checkFolder: (args) => invoke("check_folder", args),
    foldersExist: (args) => invoke("folders_exist", args),
    submitOp: (args) => invoke("submit_op", args),
    renameSession: (args) => invoke("rename_session", args),
    deleteSession: (args) => invoke("delete_session", args),
    rewindSession: (args) => invoke("rewind_session", args),
    sessionChanges: (args) => invoke("session_changes", args),
    revertChange: (args) => invoke("revert_change", args),
    keepChange: (args) => invoke("keep_change", args),
    markReviewed: (args) => invoke("mark_reviewed", args),
    gitStatus: (args) => invoke("git_status", args),
    gitFileDiff: (args) => invoke("git_file_diff", args),
    gitStage: (args) => invoke("git_stage", args),
    commitPreview: (args) => invoke("commit_preview", args),
    draftCommitMessage: (args) => invoke("draft_commit_message", args),
    commitStaged: (args) => invoke("commit_staged", args),
    pushBranch: (args) => invoke("push_branch", args),
    draftPullRequest: (args) => invoke("draft_pull_request", args),
    openPullRequest: (args) => invoke("open_pull_request", args),
    undoRevert: (args) => invoke("undo_revert", args),
    exportSession: (args) => invoke("export_session", args),
    importSessions: (args) => invoke("import_sessions", args),
    sessionCheckpoints: (args) => invoke("session_checkpoints", args),
    previewRestore: (args) => invoke("preview_restore", args),
    restoreSession: (args) => invoke("restore_session", args),
    undoRestore: (args) => invoke("undo_restore", args),
    listWorktrees: (args) => invoke("list_worktrees", args),
    startWorktreeSession: (args) => invoke("start_worktree_session", args),
    sessionWorktree: (args) => invoke("session_worktree", args),
    worktreeStatus: (args) => invoke("worktree_status", args),
    worktreeDiff: (args) => invoke("worktree_diff", args),
    mergeWorktree: (args) => invoke("merge_worktree", args),
    keepWorktreeBranch: (args) => invoke("keep_worktree_branch", args),
    discardWorktree: (args) => invoke("discard_worktree", args),
    forgetWorktree: (args) => invoke("forget_worktree", args),
    searchSessions: (args) => invoke("search_sessions", args),
    keyStatus: (args) => invoke("key_status", args),
    setApiKey: (args) => invoke("set_api_key", args),
    deleteApiKey: (args) => invoke("delete_api_key", args),
    promptLayers: (args) => invoke("prompt_layers", args),
    providerSettings: () => invoke("provider_settings", {}),
    updateProviders: (args) => invoke("update_providers", args),
    readEditableFile: (args) => invoke("read_editable_file", args),
    writeEditableFile: (args) => invoke("write_editable_file", args),
    listAgents: (args) => invoke("list_agents", args),
    listSkills: (args) => invoke("list_skills", args),
    changeSkill: (args) => invoke("change_skill", args),
    listPlugins: () => invoke("list_plugins", {}),
    installPlugin: (args) => invoke("install_plugin", args),
    setPluginEnabled: (args) => invoke("set_plugin_enabled", args),
    removePlugin: (args) => invoke("remove_plugin", args),
    testConnection: (args) => invoke("test_connection", args),
    probeLocalServers: () => invoke("probe_local_servers", {}),
    sessionStatus: (args) => invoke("session_status", args),
    complete: (args) => invoke("complete", args),
    workspaceTrust: (args) => invoke("workspace_trust", args),
    setWorkspaceTrust: (args) => invoke("set_workspace_trust", args),
    trustDecisions: () => invoke("trust_decisions", {}),
    forgetWorkspaceTrust: (args) => invoke("forget_workspace_trust", args),
    approvalSettings: (args) => invoke("approval_settings", args),
    setToolDisabled: (args) => invoke("set_tool_disabled", args),
    setDefaultApprovalMode: (args) => invoke("set_default_approval_mode", args),
    saveApprovalRule: (args) => invoke("save_approval_rule", args),
    exportApprovalRules: (args) => invoke("export_approval_rules", args),
    deleteApprovalRule: (args) => invoke("delete_approval_rule", args),
    externalAgentsPage: () => invoke("external_agents_page", {}),
    saveExternalAgent: (args) => invoke("save_external_agent", args),
    removeExternalAgent: (args) => invoke("remove_external_agent", args),
    checkExternalAgent: (args) => invoke("check_external_agent", args),
    startExternalSession: (args) => invoke("start_external_session", args),
    mcpSettings: (args) => invoke("mcp_settings", args),
    checkMcpServers: (args) => invoke("check_mcp_servers", args),
    mcpLogin: (args) => invoke("mcp_login", args),
    restartMcpServer: (args) => invoke("restart_mcp_server", args),
    saveMcpServer: (args) => invoke("save_mcp_server", args),
    removeMcpServer: (args) => invoke("remove_mcp_server", args),
    setMcpServerEnabled: (args) => invoke("set_mcp_server_enabled", args),
    setMcpToolEnabled: (args) => invoke("set_mcp_tool_enabled", args),
    terminalOpen: (args) => invoke("terminal_open", args),
    terminalWrite: (args) => invoke("terminal_write", args),
    terminalResize: (args) => invoke("terminal_resize", args),
    terminalAck: (args) => invoke("terminal_ack", args),
    terminalClose: (args) => invoke("terminal_close", args),
    terminalCloseGroup: (args) => invoke("terminal_close_group", args),
    takeOpenRequests: () => invoke("take_open_requests", {}),
  };
}
