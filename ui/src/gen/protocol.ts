// Generated from src-tauri/crates/protocol by `cargo run -p memo-protocol --bin gen-ts`.
// Do not edit by hand: the protocol crate's tests fail when this file is stale.

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

export type SessionId = string;

export type TurnId = string;

export type ToolCallId = string;

export type ApprovalId = string;

export type Op = { "type": "user_turn", input: UserInput, } | { "type": "retry_turn" } | { "type": "interrupt" } | { "type": "resolve_approval", request_id: ApprovalId, decision: ReviewDecision, } | { "type": "compact", instructions?: string, } | { "type": "set_approval_mode", mode: ApprovalMode, } | { "type": "resolve_elicitation", request_id: string, action: "accept" | "decline" | "cancel", content?: Record<string, unknown>, } | { "type": "switch_model", provider: string | null, model: string | null, } | { "type": "set_agent_setting", setting: string, value: string, } | { "type": "shutdown" };

export type UserInput = { 
/**
 * What the user typed.
 */
text: string, 
/**
 * Images pasted, dropped or picked in the composer, sent to the model with the text.
 */
images?: Array<ImageInput>, 
/**
 * Filled in by the engine when the model receives something else (a command's
 * prompt, `@path` attachments, a `$skill`); clients leave it out.
 */
expansion?: InputExpansion, 
/**
 * What the engine puts before a session's first message for the model: the date and
 * the repository's state (kept out of the system prompt so it stays the same across
 * days and sessions). Filled in by the engine; clients leave it out.
 */
session_context?: string, };

export type ImageInput = { 
/**
 * `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
 */
media_type: string, 
/**
 * The bytes, base64 (standard alphabet, padded).
 */
data: string, 
/**
 * The file name, when it had one (shown in the transcript).
 */
name?: string, };

export type RiskLevel = "read" | "write" | "execute" | "critical";

export type ApprovalRequest = { request_id: ApprovalId, call_id: ToolCallId, tool_name: string, risk: RiskLevel, 
/**
 * Why the policy asks, in English on one line: for memo-cli and for sessions stored
 * before `why` (a front end with words of its own renders `why`).
 */
reason: string, 
/**
 * Why the policy asks, as phrases each front end words in its language.
 */
why?: Array<Phrase>, 
/**
 * What a "for this session" grant would cover, e.g. `write:/repo/src` or `exec:cargo test`.
 */
fingerprint: string, command?: string | null, cwd?: string | null, 
/**
 * Proposed file change, so the client can accept or reject hunk by hunk (or edit by
 * edit). Boxed, like `agent`: most approvals have none.
 */
diff?: FileDiff | null, 
/**
 * The raw tool arguments as the model sent them.
 */
arguments: JsonValue, 
/**
 * What an "always" answer would keep as allow rules (command prefixes, files, an MCP
 * tool); empty when none can (critical calls always ask).
 */
rule_patterns?: Array<string>, 
/**
 * Those rules in plain words, for the "Always" choice: "run exactly `sed -i s/a/b/
 * notes.txt` without asking" (a command that writes is kept exactly, never as a
 * prefix), "run `cargo test …` without asking".
 * In English, for older readers; `rule_words` is what a front end words.
 */
rule_summary?: string | null, 
/**
 * The same as a phrase, worded in the person's language.
 */
rule_words?: Phrase, 
/**
 * The subagent that asks, when the question is relayed from one to its parent's log
 * (answer it in the parent: the parent passes the answer on). Boxed: every event
 * is as large as its largest kind, and most approvals have no agent.
 */
agent?: SubagentRef, };

export type Phrase = { "code": "run_command", command: string, } | { "code": "outside_sandbox", justification: string, } | { "code": "outside_sandbox_unjustified" } | { "code": "send_to_session", text: string, session: string, command: string, } | { "code": "wait_on_session", session: string, command: string, } | { "code": "overwrite_file", path: string, added: number, removed: number, } | { "code": "create_file", path: string, added: number, } | { "code": "delete_file", path: string, removed: number, } | { "code": "move_file", path: string, to: string, added: number, removed: number, } | { "code": "edit_file", path: string, added: number, removed: number, } | { "code": "typed_line", line: string, why: Phrase, } | { "code": "tool_runs", tool: string, } | { "code": "save_memory", path: string, fact: string, } | { "code": "fetch_url", url: string, host: string, } | { "code": "mcp_tool_runs", server: string, tool: string, rated: Phrase, } | { "code": "mcp_rated_read_only" } | { "code": "mcp_rated_by_name_against_server" } | { "code": "mcp_rated_by_name" } | { "code": "hook_asks", why: string, } | { "code": "hook_asks_silently" } | { "code": "names_denied_files", count: number, files: string, source: string, pattern: string, } | { "code": "area_system_files" } | { "code": "area_credentials" } | { "code": "area_login_file" } | { "code": "guard_unreadable" } | { "code": "guard_nested_too_deep" } | { "code": "guard_writes_protected", command: string, target: string, what: Phrase, area: string, } | { "code": "guard_deletes_protected", command: string, target: string, what: Phrase, area: string, } | { "code": "guard_script_from_command", program: string, producer: string, } | { "code": "guard_program_unknown", program: string, } | { "code": "guard_script_unknown", command: string, } | { "code": "guard_find_deletes_protected", command: string, start: string, area: string, what: Phrase, } | { "code": "guard_find_changes_protected", command: string, start: string, area: string, what: Phrase, } | { "code": "guard_xargs_changes_protected", command: string, source: string, area: string, what: Phrase, } | { "code": "guard_code_unknown", snippet: string, } | { "code": "guard_inline_code_protected", area: string, what: Phrase, } | { "code": "guard_inline_code_outside", path: string, } | { "code": "guard_rm_variable_root", target: string, } | { "code": "guard_deletes_main_branch" } | { "code": "guard_force_push_main" } | { "code": "guard_at_jobs_removed", command: string, } | { "code": "guard_crontab_removed", command: string, } | { "code": "guard_crontab_replaced", command: string, source: string, } | { "code": "guard_crontab_replaced_from_stdin", command: string, } | { "code": "guard_permissions_home", command: string, folder: string, } | { "code": "guard_permissions_system", command: string, folder: string, } | { "code": "guard_git_outside", command: string, subcommand: string, folder: string, } | { "code": "folder_not_full_path", path: string, } | { "code": "folder_missing", path: string, } | { "code": "folder_not_permitted", path: string, } | { "code": "folder_unreadable", path: string, error: string, } | { "code": "folder_is_file", path: string, } | { "code": "folder_not_listable", path: string, } | { "code": "folder_unlistable", path: string, error: string, } | { "code": "reach_refused" } | { "code": "reach_no_host" } | { "code": "reach_tls" } | { "code": "reach_reset" } | { "code": "reach_no_route" } | { "code": "reach_timed_out" } | { "code": "reach_failed" } | { "code": "could_not_reach", target: string, reason: Phrase, } | { "code": "could_not_reach_running", target: string, } | { "code": "could_not_reach_online", target: string, } | { "code": "connect_choose_model" } | { "code": "connect_no_key", base_url: string, } | { "code": "connect_bad_url", error: string, } | { "code": "connect_ok", model: string, base_url: string, } | { "code": "connect_timeout", base_url: string, seconds: number, } | { "code": "connect_key_refused", detail: string, } | { "code": "connect_slow", base_url: string, detail: string, } | { "code": "connect_nothing", base_url: string, detail: string, } | { "code": "connect_no_model", base_url: string, model: string, detail: string, } | { "code": "connect_busy", detail: string, } | { "code": "connect_failed", detail: string, } | { "code": "answered_http", status: number, path: string, } | { "code": "answered_not_json", path: string, } | { "code": "answered_no_model_list", list_key: string, } | { "code": "answered_no_models", path: string, } | { "code": "session_not_found", id: string, } | { "code": "session_not_open", id: string, } | { "code": "session_not_open_resume", id: string, } | { "code": "session_no_event", id: string, seq: number, } | { "code": "session_no_event_past_last", id: string, seq: number, last: number, } | { "code": "event_not_turn_start", id: string, seq: number, kind: string, } | { "code": "event_not_tool_end", id: string, seq: number, kind: string, } | { "code": "session_title_empty" } | { "code": "session_title_too_long", max: number, } | { "code": "not_a_file_name", path: string, } | { "code": "page_needs_turn" } | { "code": "page_both_ways" } | { "code": "page_before_zero" } | { "code": "page_starts_at_zero" } | { "code": "subagent_takes_no_input" } | { "code": "home_unresolved", error: string, } | { "code": "keychain_failed", error: string, } | { "code": "checkpoints_failed", error: string, } | { "code": "no_builtin_tool", name: string, } | { "code": "no_approval_rule", id: string, } | { "code": "rules_not_exported", error: string, } | { "code": "not_a_folder", path: string, } | { "code": "checkpoints_off" } | { "code": "folder_not_git_repo" } | { "code": "changes_not_tracked", reason: string, } | { "code": "nothing_to_revert", path: string, } | { "code": "changed_since_shown", path: string, } | { "code": "revert_not_text", path: string, } | { "code": "no_such_hunk", path: string, hunks: number, hunk: number, } | { "code": "changed_while_reverting", path: string, } | { "code": "over_size_cap", path: string, } | { "code": "no_provider_named", provider: string, } | { "code": "api_key_empty" } | { "code": "api_key_malformed" } | { "code": "prompt_report_needs_session" } | { "code": "mcp_server_not_found", name: string, } | { "code": "mcp_server_untrusted", name: string, } | { "code": "mcp_server_is_stdio", name: string, } | { "code": "mcp_sign_in_failed", name: string, error: string, } | { "code": "plugin_install_stopped", error: string, } | { "code": "plugin_from_claude_code", id: string, } | { "code": "plugin_folder_needed" } | { "code": "plugin_path_not_absolute", path: string, } | { "code": "unknown_wire_api", api: string, } | { "code": "base_url_scheme", url: string, } | { "code": "price_invalid", what: Phrase, } | { "code": "price_input" } | { "code": "price_output" } | { "code": "price_cached_input" } | { "code": "context_window_zero" } | { "code": "temperature_range" } | { "code": "thinking_budget_min" } | { "code": "not_utf8", path: string, } | { "code": "text_too_large", size_kb: number, max_kb: number, } | { "code": "instructions_need_folder" } | { "code": "skill_file_needs_path" } | { "code": "skill_needs_name" } | { "code": "skill_name_unusable", name: string, } | { "code": "skill_not_found", path: string, } | { "code": "skill_not_ours", path: string, } | { "code": "builtin_skill_not_editable", name: string, } | { "code": "skill_needs_description" } | { "code": "description_too_long", max: number, } | { "code": "project_skill_needs_folder" } | { "code": "new_skill_place" } | { "code": "already_exists_pick_name", path: string, } | { "code": "skill_not_saved", error: string, } | { "code": "skill_not_created", error: string, } | { "code": "skill_not_renamed", error: string, } | { "code": "builtin_skills_not_renamed" } | { "code": "builtin_skills_not_deleted" } | { "code": "has_no_folder", path: string, } | { "code": "has_no_parent_folder", path: string, } | { "code": "skill_no_front_matter" } | { "code": "skill_front_matter_unclosed" } | { "code": "worktree_needs_commit_message" } | { "code": "not_in_git_repo", path: string, } | { "code": "repo_has_no_commit", path: string, } | { "code": "worktree_not_found", id: string, } | { "code": "worktree_missing", id: string, reason: Phrase, } | { "code": "merge_stopped_on_conflicts", branch: string, base: string, files: string, } | { "code": "discard_loses_files", files: string, } | { "code": "discard_loses_commits", commits: string, } | { "code": "discard_loses_both", files: string, commits: string, } | { "code": "system_file_replaces" } | { "code": "system_file_appends" } | { "code": "mcp_not_trusted", file: string, } | { "code": "mcp_turned_off" } | { "code": "mcp_not_started" } | { "code": "mcp_server_not_in_config", name: string, } | { "code": "mcp_server_exists", name: string, source: string, } | { "code": "mcp_active_servers_bad", setting: string, error: string, } | { "code": "mcp_tool_not_included", server: string, tool: string, } | { "code": "mcp_value_env" } | { "code": "mcp_value_header" } | { "code": "mcp_value_no_name", what: Phrase, } | { "code": "mcp_value_bad_name", what: Phrase, name: string, } | { "code": "mcp_value_twice", what: Phrase, name: string, } | { "code": "mcp_value_line_break", name: string, } | { "code": "mcp_value_missing", what: Phrase, name: string, } | { "code": "mcp_stdio_needs_command" } | { "code": "mcp_http_needs_url" } | { "code": "mcp_server_defined_elsewhere", name: string, file: string, } | { "code": "no_trust_decision", folder: string, } | { "code": "worktree_detached_at_start", path: string, } | { "code": "worktree_base_branch_gone", base: string, } | { "code": "worktree_checkout_on_other_branch", path: string, current: string, base: string, } | { "code": "worktree_checkout_detached", path: string, base: string, } | { "code": "worktree_checkout_mid_merge", path: string, } | { "code": "worktree_checkout_overlaps", path: string, files: string, } | { "code": "worktree_still_there", path: string, } | { "code": "rule_command_exactly", pattern: string, } | { "code": "rule_command_prefix", pattern: string, } | { "code": "rule_pattern", pattern: string, } | { "code": "rule_run_without_asking", rules: Array<Phrase>, } | { "code": "rule_change_without_asking", rules: Array<Phrase>, } | { "code": "rule_mcp_without_asking", rules: Array<Phrase>, } | { "code": "rule_fetch_without_asking", rules: Array<Phrase>, } | { "code": "turn_stopped_before_answer" } | { "code": "session_stopped_before_answer" } | { "code": "worktree_unlinked", path: string, repo: string, } | { "code": "folder_gone", path: string, } | { "code": "repository_gone", path: string, } | { "code": "as_said", text: string, } | { "code": "mcp_server_not_configured", name: string, } | { "code": "mcp_command_not_found", command: string, path: string, } | { "code": "mcp_could_not_start", command: string, error: string, } | { "code": "mcp_startup_timeout", seconds: string, } | { "code": "mcp_needs_login", server: string, } | { "code": "mcp_call_timeout", seconds: string, } | { "code": "mcp_not_available", server: string, state: string, } | { "code": "mcp_server_answered_error", number: string, error: string, } | { "code": "mcp_connection_closed" } | { "code": "mcp_closed_in_handshake" } | { "code": "mcp_handshake_failed", error: string, } | { "code": "mcp_exited_in_handshake", exit: Phrase, } | { "code": "mcp_process_ended", exit: Phrase, } | { "code": "process_exited_with_code", status: string, } | { "code": "process_killed_by_signal", signal: string, } | { "code": "process_exited" } | { "code": "mcp_unauthorized" } | { "code": "mcp_http_status", url: string, status: string, } | { "code": "mcp_not_event_stream", url: string, } | { "code": "mcp_event_stream_broke", error: string, } | { "code": "mcp_event_stream_ended" } | { "code": "mcp_no_endpoint" } | { "code": "mcp_bad_endpoint", endpoint: string, error: string, } | { "code": "mcp_endpoint_off_origin", endpoint: string, } | { "code": "mcp_gave_up", reason: Phrase, count: number, } | { "code": "mcp_restarting_in", reason: Phrase, seconds: string, } | { "code": "mcp_restarting_after", reason: Phrase, } | { "code": "acp_allow_once" } | { "code": "acp_allow_for_session" } | { "code": "acp_allow_always_here" } | { "code": "acp_allow_always_here_to", rule: Phrase, } | { "code": "acp_deny" } | { "code": "acp_initialize_first" } | { "code": "acp_key_method" } | { "code": "acp_key_method_how", provider: string, } | { "code": "acp_no_session", id: string, } | { "code": "acp_turn_running" } | { "code": "acp_turn_failed" } | { "code": "acp_session_ended" } | { "code": "acp_mode_auto" } | { "code": "acp_mode_auto_effect" } | { "code": "acp_mode_strict" } | { "code": "acp_mode_strict_effect" } | { "code": "acp_mode_dangerous" } | { "code": "acp_mode_dangerous_effect" } | { "code": "acp_cwd_not_absolute", path: string, } | { "code": "acp_cwd_missing", path: string, } | { "code": "session_held_elsewhere", program: string, pid: string, } | { "code": "external_agent_not_in_config", name: string, } | { "code": "external_agent_exists", name: string, } | { "code": "external_agent_name_bad", name: string, } | { "code": "external_agent_command_missing" } | { "code": "external_agent_not_found", command: string, install: string, } | { "code": "external_agent_failed", name: string, message: string, } | { "code": "external_agent_sign_in", name: string, } | { "code": "external_agent_session_only", what: string, } | { "code": "external_agent_setting_refused", setting: string, value: string, message: string, } | { "code": "git_unavailable", error: string, } | { "code": "git_failed", command: string, output: string, } | { "code": "git_not_a_repository", path: string, } | { "code": "git_changed_since_shown", path: string, } | { "code": "git_hunk_not_in_index", path: string, } | { "code": "git_operation_in_progress", operation: string, } | { "code": "git_no_identity" } | { "code": "git_nothing_staged" } | { "code": "git_empty_message" } | { "code": "git_secrets_staged", count: number, } | { "code": "git_commit_refused", output: string, } | { "code": "git_detached_head" } | { "code": "git_no_such_remote", remote: string, } | { "code": "git_no_remote" } | { "code": "git_push_protected", remote: string, branch: string, } | { "code": "git_push_lease_stale", remote: string, branch: string, } | { "code": "git_push_behind", remote: string, branch: string, } | { "code": "git_push_auth", remote: string, } | { "code": "git_push_remote_refused", remote: string, branch: string, } | { "code": "git_pull_request_failed", command: string, output: string, } | { "code": "git_no_forge_cli", url: string, } | { "code": "git_no_forge" } | { "code": "git_hunk_committed", path: string, };

export type FileDiff = { path: string, unified: string, hunks: Array<DiffHunk>, 
/**
 * The replacements of an edit call that sent several (`edits[]`), each with what it
 * alone changes, so a person can accept one edit and refuse another even where their
 * lines touch and share a hunk. Empty for a single edit and for patches.
 */
edits?: Array<EditChoice>, };

export type GitStatus = { 
/**
 * The branch checked out; `None` on a detached HEAD.
 */
branch?: string, 
/**
 * HEAD's abbreviated commit; `None` before the first commit.
 */
head?: string, 
/**
 * The branch's upstream, e.g. `origin/main`.
 */
upstream?: string, 
/**
 * Commits on the branch its upstream does not have, and the other way round.
 */
ahead: number, behind: number, 
/**
 * An operation in progress (a merge, a rebase…): committing waits until it is done.
 */
operation?: GitOperation, files: Array<GitFile>, 
/**
 * The repository's remotes, by name.
 */
remotes: Array<string>, 
/**
 * Whether `user.name` and `user.email` are set, which a commit needs.
 */
identity: boolean, };

export type GitOperation = "merge" | "rebase" | "cherry_pick" | "revert" | "bisect";

export type GitChange = "added" | "modified" | "deleted" | "renamed" | "type_changed";

export type GitFile = { path: string, 
/**
 * The path it was renamed from, for a staged rename.
 */
renamed_from?: string, 
/**
 * What is staged for it (the index against HEAD).
 */
staged?: GitChange, 
/**
 * What is not staged (the folder against the index).
 */
unstaged?: GitChange, untracked: boolean, 
/**
 * Unmerged: both sides changed it in a merge that is not finished.
 */
conflicted: boolean, };

export type GitFileDiff = { path: string, staged?: FileDiff, unstaged?: FileDiff, 
/**
 * Binary on either side: staged or unstaged only as a whole file.
 */
binary: boolean, };

export type GitStageRequest = { path: string, 
/**
 * `false`: stage from the unstaged diff; `true`: unstage from the staged diff.
 */
unstage: boolean, 
/**
 * Indices into that side's hunks; `None` stages (or unstages) the whole file.
 */
hunks?: Array<number>, 
/**
 * That side's unified text as shown; refused when the file changed since.
 */
shown_diff?: string, };

export type SecretFlag = { path: string, 
/**
 * The staged line it was seen on (`None`: the file's name gave it away).
 */
line?: number, looks_like: SecretKind, };

export type SecretKind = "env_file" | "ssh_key" | "key_store" | "credentials_file" | "private_key" | "aws_key" | "forge_token" | "provider_key" | "google_key" | "slack_token";

export type CommitPreview = { 
/**
 * Staged files, relative to the repository's top.
 */
files: Array<string>, flagged: Array<SecretFlag>, 
/**
 * Why a commit cannot be made now (nothing staged, a merge in progress, no identity).
 */
blocked?: Phrase, };

export type CommitRequest = { message: string, 
/**
 * Commit although staged files were flagged as secrets: the person saw the flags.
 */
allow_flagged: boolean, };

export type CommitResult = { 
/**
 * The new commit, abbreviated.
 */
commit: string, 
/**
 * Its first line.
 */
summary: string, 
/**
 * What git (and the repository's hooks) printed.
 */
output: string, };

export type PushRequest = { 
/**
 * The remote to push to and set as upstream, for a branch without one.
 */
remote?: string, 
/**
 * Force (with lease): only after a confirmation naming `remote` and branch.
 */
force: boolean, };

export type PushResult = { "type": "pushed", remote: string, branch: string, 
/**
 * Whether this push set the branch's upstream.
 */
set_upstream: boolean, output: string, } | { "type": "choose_remote", branch: string, remotes: Array<string>, } | { "type": "rejected", remote: string, branch: string, reason: Phrase, output: string, };

export type PullRequestPlan = { title: string, body: string, 
/**
 * The command Memo runs (`gh pr create …`, `glab mr create …`): argv, not a shell
 * line. Empty when no forge CLI is installed.
 */
command: Array<string>, 
/**
 * The remote's compare page, for a forge whose CLI is not installed.
 */
compare_url?: string, };

export type PullRequestRequest = { title: string, body: string, };

export type PullRequestResult = { 
/**
 * The pull request's address as the CLI printed it.
 */
url?: string, output: string, };

export type KeepRequest = { scope: ChangeScope, path: string, 
/**
 * Indices into the diff's hunks; `None`: all of them.
 */
hunks?: Array<number>, 
/**
 * The diff's unified text as shown; refused when the file changed since.
 */
shown_diff: string, 
/**
 * Take the keep back (unstage).
 */
undo?: boolean, };

export type ReviewedRequest = { scope: ChangeScope, path: string, shown_diff: string, reviewed: boolean, };

export type DiffHunk = { index: number, header: string, text: string, };

export type EditChoice = { 
/**
 * Position in the call's `edits[]`, from 0.
 */
index: number, 
/**
 * "Edit 2 of 3 · line 14".
 */
label: string, 
/**
 * What this edit alone changes, numbered as the file stands after the edits before
 * it (several hunks for a `replace_all`).
 */
hunks: Array<DiffHunk>, };

export type ReviewDecision = { "type": "approve_once", accepted_hunks?: Array<number> | null, accepted_edits?: Array<number>, } | { "type": "approve_for_session" } | { "type": "approve_step" } | { "type": "approve_always", project: boolean, } | { "type": "deny", reason?: string | null, } | { "type": "unanswered", because: Phrase, };

export type EventEnvelope = { session_id: SessionId, 
/**
 * `None` for session-level events outside any turn.
 */
turn_id: TurnId | null, seq: number, 
/**
 * Milliseconds since the Unix epoch.
 */
timestamp_ms: number, event: AgentEvent, };

export type AgentEvent = { "type": "session_started", cwd: string, provider: string, model: string, } | { "type": "turn_started", input: UserInput, } | { "type": "turn_resumed", retry_of: TurnId, } | { "type": "text_delta", delta: string, } | { "type": "reasoning_delta", delta: string, } | { "type": "tool_call_begin", call_id: ToolCallId, name: string, } | { "type": "tool_call_args_delta", call_id: ToolCallId, delta: string, } | { "type": "assistant_message", text: string, reasoning?: string | null, tool_calls: Array<ToolCallSummary>, 
/**
 * Opaque provider data that must be echoed back (thinking signatures).
 */
provider_data?: JsonValue | null, } | { "type": "tool_args_repaired", call_id: ToolCallId, repairs: Array<string>, } | { "type": "model_request_sent", 
/**
 * 0-based step of the turn.
 */
step: number, 
/**
 * Estimated input tokens of the request.
 */
input_tokens: number, 
/**
 * Whether the server is on this machine (loopback): slow first bytes are normal.
 */
local: boolean, } | { "type": "tool_call_view", call_id: ToolCallId, view: ToolView, } | { "type": "tool_call_end", call_id: ToolCallId, name: string, status: ToolStatus, error_kind?: ToolErrorKind | null, 
/**
 * What the call was and did. Always set by this version; a stored session from
 * before views has it filled in when it is read (`memo_engine::views`).
 */
view?: ToolView, output: string, 
/**
 * Set only in what a window is sent: `output` is the start of a longer output of
 * this many bytes, which the store keeps whole (`tool_output` reads it). The log
 * itself always holds the whole output.
 */
full_length?: number, } | { "type": "approval_requested", request: ApprovalRequest, } | { "type": "tool_call_allowed", call_id: ToolCallId, rules: Array<string>, } | { "type": "approval_resolved", request_id: ApprovalId, decision: ReviewDecision, } | { "type": "usage", step: TokenUsage, turn_total: TokenUsage, } | { "type": "retrying", attempt: number, max_attempts: number, delay_ms: number, reason: string, discarded_partial: boolean, } | { "type": "plan_updated", explanation?: string | null, plan: Array<PlanItem>, } | { "type": "compaction_progress", done: number, total: number, } | { "type": "context_compacted", trigger: CompactionTrigger, status: CompactionStatus, 
/**
 * The `<state_snapshot>` standing in for the older history.
 */
summary?: string, kept_messages: number, compacted_messages: number, 
/**
 * Estimated tokens of the history before and after (after = before when unchanged).
 */
tokens_before: number, tokens_after: number, 
/**
 * Tokens the summarisation call itself cost.
 */
usage: TokenUsage, 
/**
 * Why it failed or was skipped.
 */
message?: string, } | { "type": "command_result", command: string, ok: boolean, output: string, action?: HostAction, } | { "type": "elicitation_requested", request_id: string, server: string, message: string, schema: { properties?: Record<string, Record<string, unknown>>, required?: string[] }, } | { "type": "elicitation_resolved", request_id: string, action: "accept" | "decline" | "cancel", } | { "type": "approval_mode_changed", mode: ApprovalMode, } | { "type": "model_switched", provider: string, model: string, 
/**
 * Tokens the new model accepts in one request.
 */
context_window: number, } | { "type": "tool_progress", call_id: ToolCallId, progress: number, total?: number, message?: string, } | { "type": "tool_output", call_id: ToolCallId, chunk: string, } | { "type": "mcp_server_status", server: string, status: McpServerState, 
/**
 * stdio | streamable_http | sse
 */
transport: string, 
/**
 * Where it was configured: the file and the agent that wrote it.
 */
source: string, tools: number, 
/**
 * What happened, in English (for older readers and logs).
 */
message?: string, 
/**
 * The same as a phrase, worded in the person's language.
 */
phrase?: Phrase, 
/**
 * The last lines the server wrote to stderr, when it failed.
 */
stderr_tail?: string, restarts: number, } | { "type": "external_agent_started", 
/**
 * Its name in config.toml.
 */
agent: string, 
/**
 * What it calls itself, with its version when it says.
 */
label: string, version?: string, agent_session: string, 
/**
 * It continued its earlier session rather than starting a new one.
 */
resumed: boolean, } | { "type": "external_agent_usage", used_tokens: number, context_window: number, cost_usd?: number, } | { "type": "external_agent_settings", settings: Array<AgentSetting>, } | { "type": "files_changed", call_id?: ToolCallId, 
/**
 * The checkpoint that recorded these changes.
 */
checkpoint: number, changes: Array<FileChange>, } | { "type": "hook_ran", event: HookEventName, 
/**
 * The tool call a `PreToolUse` / `PostToolUse` hook ran for.
 */
call_id?: ToolCallId, hooks: Array<HookRunSummary>, 
/**
 * The hooks' combined decision (block over ask over allow).
 */
decision?: HookVerdict, 
/**
 * Why, as the hooks said it (cut when long).
 */
reason?: string, 
/**
 * A hook asked the agent to stop (`"continue": false`).
 */
stopped: boolean, 
/**
 * Added to the conversation as a user-side message: context from
 * `UserPromptSubmit` / `SessionStart`, a `Stop` hook's reason to go on. (Tool
 * hooks' words go into the call's result instead.)
 */
for_model?: string, } | { "type": "hooks_skipped", count: number, 
/**
 * The project settings files they are in.
 */
files: Array<string>, 
/**
 * "3 project hooks not run: folder not trusted".
 */
message: string, } | { "type": "subagent_started", call_id: ToolCallId, agent: SubagentRef, 
/**
 * The task it was given.
 */
task: string, } | { "type": "subagent_updated", agent_id: string, state: SubagentState, 
/**
 * Its last answer (cut when long), once it has one.
 */
answer?: string, 
/**
 * Why it failed.
 */
message?: string, } | { "type": "error", kind: ErrorKind, 
/**
 * Written for people: what happened, in a sentence.
 */
message: string, retryable: boolean, 
/**
 * The technical detail behind it (an HTTP client's error chain), for a disclosure.
 */
detail?: string, 
/**
 * `message` as a phrase, where it has one: a front end words it in its language.
 */
phrase?: Phrase, } | { "type": "turn_ended", reason: TurnEndReason, usage: TokenUsage, };

export type ToolCallSummary = { call_id: ToolCallId, name: string, 
/**
 * Arguments exactly as the model produced them (may be invalid JSON).
 */
arguments: string, };

export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";

export type ToolView = { "type": "command" } & CommandView | { "type": "file_edit" } & FileEditView | { "type": "read" } & ReadView | { "type": "search" } & SearchView | { "type": "list" } & ListView | { "type": "fetch" } & FetchView | { "type": "plan" } & PlanView | { "type": "subagent" } & SubagentView | { "type": "mcp_call" } & McpCallView | { "type": "memory" } & MemoryView | { "type": "other" } & OtherView;

export type CommandView = { 
/**
 * The command line as it runs (an argv joined with shell quoting).
 */
command: string, cwd?: string, 
/**
 * Run inside Memo's sandbox (Landlock), or outside it (approved escalation, or no
 * sandbox on this system).
 */
sandboxed: boolean, 
/**
 * Text written to the running command's stdin (`write_stdin`), when that is what
 * the call did; `command` is then the command it was written to, when known.
 */
stdin?: string, state: CommandState, 
/**
 * From start to the moment the call returned.
 */
duration_ms?: number, 
/**
 * Where in the call's stored output (`tool_call_end.output`) what the command
 * printed is: the rest is bookkeeping for the model.
 */
output?: OutputRange, };

export type CommandState = { "state": "pending" } | { "state": "running", session_id: number, } | { "state": "exited", code: number, } | { "state": "killed", signal: string, code?: number, };

export type OutputRange = { start: number, end: number, };

export type FileEditView = { files: Array<EditedFile>, };

export type EditedFile = { 
/**
 * As the call names it (relative to the workspace when inside it).
 */
path: string, change: EditKind, 
/**
 * The change, hunk by hunk with line numbers: proposed before the call runs, what
 * was written after (`None` when it is not text, or not known yet).
 */
diff?: FileDiff, 
/**
 * The hunks of `diff` written, when a person accepted only some (`None`: all).
 */
applied_hunks?: Array<number>, 
/**
 * The edits of a several-edit call written, when a person accepted only some.
 */
applied_edits?: Array<number>, };

export type EditKind = { "kind": "add" } | { "kind": "modify" } | { "kind": "delete" } | { "kind": "move", from: string, };

export type ReadView = { path: string, 
/**
 * 1-based, inclusive; `None` before the call ran or when it failed.
 */
start_line?: number, end_line?: number, 
/**
 * Lines of the file, when known.
 */
total_lines?: number, 
/**
 * Less than the asked range came back (a cap on lines or characters).
 */
truncated: boolean, };

export type SearchView = { pattern: string, 
/**
 * Where: a folder, or a glob files must match.
 */
scope?: string, 
/**
 * Matches found (files for a name search), once run.
 */
matches?: number, 
/**
 * The first few, in order.
 */
first: Array<Location>, 
/**
 * More matched than were returned.
 */
truncated: boolean, };

export type Location = { path: string, line?: number, };

export type ListView = { path: string, entries?: number, truncated: boolean, };

export type FetchView = { url: string, 
/**
 * The HTTP status, once answered.
 */
status?: number, 
/**
 * Bytes of the body read.
 */
bytes?: number, content_type?: string, };

export type PlanView = { steps: Array<PlanItem>, explanation?: string, };

export type SubagentView = { action: SubagentAction, 
/**
 * What it was asked (`spawn`, `send_input`).
 */
task?: string, 
/**
 * The agent type asked for (`spawn`).
 */
agent_type?: string, 
/**
 * The agents the call is about: asked for before it runs, as they stood after.
 */
agents: Array<AgentLine>, 
/**
 * A wait that came back before every agent it waited for was done.
 */
timed_out: boolean, };

export type SubagentAction = "spawn" | "send" | "wait_for" | "close" | "list";

export type AgentLine = { agent_id: string, agent_type?: string, state?: SubagentState, answer?: string, 
/**
 * Why it failed, or what went wrong reaching it.
 */
message?: string, };

export type McpCallView = { server: string, tool: string, 
/**
 * The arguments, pretty-printed JSON.
 */
arguments: string, 
/**
 * The server marks the tool read-only (`readOnlyHint`); `None` when it says nothing.
 */
read_only?: boolean, 
/**
 * What the server answered, block by block.
 */
content: Array<McpContent>, 
/**
 * Files the checkpoint scan found the call changed (workspace-relative).
 */
changed_files?: Array<string>, };

export type McpContent = { "type": "text", text: string, } | { "type": "image", mime_type: string, bytes: number, } | { "type": "audio", mime_type: string, bytes: number, } | { "type": "resource", uri: string, text?: string, } | { "type": "resource_link", uri: string, name?: string, };

export type MemoryView = { action: MemoryAction, 
/**
 * What was saved.
 */
fact?: string, };

export type MemoryAction = "save" | "get";

export type OtherView = { name: string, arguments: string, };

export type HookEventName = "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "Notification" | "Stop" | "SubagentStop" | "PreCompact" | "SessionStart" | "SessionEnd" | "BeforeAgentStart";

export type HookVerdict = "allow" | "ask" | "block";

export type HookRunStatus = "ok" | "blocked" | "failed" | "timed_out" | "cancelled";

export type HookRunSummary = { 
/**
 * The command as configured (cut when very long).
 */
command: string, 
/**
 * The settings file it came from.
 */
source: string, status: HookRunStatus, exit_code?: number, duration_ms: number, 
/**
 * This hook's own decision, when it made one.
 */
decision?: HookVerdict, 
/**
 * Its reason, message, output or error for the user (cut when long).
 */
message?: string, };

export type SubagentRef = { 
/**
 * `agent-3f9a2c1b`: what `send_input`, `wait` and `close_agent` take.
 */
agent_id: string, 
/**
 * The agent type it runs as (`general`, `codebase_investigator`, a custom agent's
 * name such as `reviewer` or `my-plugin:reviewer`).
 */
agent_type: string, session_id: SessionId, };

export type SubagentState = "running" | "finished" | "failed" | "interrupted" | "closed";

export type AgentSource = "builtin" | "user" | "project" | "plugin";

export type AgentInfo = { name: string, description: string, source: AgentSource, 
/**
 * The file it was read from (none for built-in agents).
 */
path?: string, 
/**
 * The tools it may use; `None`: all of its parent's (but the collab tools).
 */
tools?: Array<string>, 
/**
 * The model it asks for (`None` or `inherit`: its parent's).
 */
model?: string, 
/**
 * Another definition of the same name that this one hides (project over user).
 */
shadows?: string, };

export type AgentsPage = { agents: Array<AgentInfo>, 
/**
 * One line per file that could not be read as an agent (with its path).
 */
problems: Array<string>, 
/**
 * Whether the model is offered the collab tools (`MEMO_ENABLE_COLLAB_TOOLS`).
 */
collab_enabled: boolean, 
/**
 * At most this many subagents run at once (`MEMO_SUBAGENT_MAX_AGENTS`).
 */
max_agents: number, };

export type ExternalAgentsPage = { agents: Array<ExternalAgentEntry>, 
/**
 * Known agents a person can add in one step (never installed by Memo).
 */
presets: Array<ExternalAgentPreset>, 
/**
 * Where they are kept.
 */
config_path: string, };

export type ExternalAgentEntry = { name: string, command: string, args: Array<string>, 
/**
 * Plain values, as written in config.toml.
 */
env: Array<EnvValue>, 
/**
 * Variables whose values are in the keychain.
 */
secrets: Array<SecretState>, 
/**
 * The command was found (on PATH, or as the path given).
 */
found: boolean, 
/**
 * Memo's MCP servers are offered to its sessions.
 */
offer_mcp_servers: boolean, 
/**
 * The preset it matches, for its install hint.
 */
preset?: string, };

export type EnvValue = { name: string, value: string, };

export type SecretState = { name: string, 
/**
 * A value is in the keychain.
 */
stored: boolean, };

export type ExternalAgentPreset = { 
/**
 * Also the name it is added under.
 */
id: string, label: string, command: string, args: Array<string>, 
/**
 * Keys it reads from the environment (stored in the keychain when given).
 */
secrets: Array<string>, 
/**
 * The command that installs it, shown to copy; Memo does not run it.
 */
install: string, };

export type ExternalAgentInput = { name: string, command: string, args: Array<string>, env: Array<EnvValue>, secrets: Array<SecretInput>, 
/**
 * Offer Memo's MCP servers to its sessions.
 */
offer_mcp_servers: boolean, };

export type SecretInput = { name: string, value?: string, };

export type ExternalAgentCheck = { name: string, ok: boolean, 
/**
 * What it calls itself.
 */
label?: string, version?: string, 
/**
 * Its ways to sign in.
 */
auth_methods: Array<string>, 
/**
 * Why it failed, as the agent or the OS said it.
 */
error?: string, elapsed_ms: number, };

export type AgentSetting = { 
/**
 * The agent's id of it.
 */
id: string, 
/**
 * Its name, as the agent words it.
 */
name: string, 
/**
 * What it is for (`mode`, `model`, `thought_level`, or the agent's own), when said.
 */
category?: string, 
/**
 * The value chosen now.
 */
current: string, choices: Array<AgentSettingChoice>, };

export type AgentSettingChoice = { value: string, name: string, description?: string, };

export type ToolStatus = "ok" | "error";

export type ToolErrorKind = "unknown_tool" | "invalid_input" | "approval_denied" | "policy_denied" | "sandbox_denied" | "timeout" | "execution_failed" | "interrupted";

export type McpServerState = "starting" | "ready" | "failed" | "crashed" | "needs_auth" | "stopped" | "disabled";

export type ErrorKind = "rate_limited" | "overloaded" | "context_overflow" | "auth" | "network" | "provider" | "config" | "storage" | "internal" | "invalid_op";

export type TurnEndReason = "completed" | "interrupted" | "step_limit" | "failed";

export type TokenUsage = { input_tokens: number, output_tokens: number, 
/**
 * Input tokens served from the provider's prompt cache (a subset of `input_tokens`).
 */
cached_input_tokens: number, 
/**
 * Output tokens spent on reasoning (a subset of `output_tokens`).
 */
reasoning_tokens: number, };

export type PlanItem = { step: string, status: PlanStatus, };

export type PlanStatus = "pending" | "in_progress" | "completed";

export type SessionSummary = { id: SessionId, title: string | null, cwd: string, provider: string, model: string, created_ms: number, updated_ms: number, 
/**
 * The seq of the newest stored event; a client subscribes after what it has.
 */
last_seq: number, 
/**
 * The first message, on one line and cut short: what names a session with no title.
 */
preview: string | null, 
/**
 * Set for a fork: the session it was forked from, and the last seq it shares.
 */
parent_session_id: SessionId | null, fork_seq: number | null, 
/**
 * Imported history, kept as it was: continuing it forks a new session.
 */
read_only: boolean, 
/**
 * Where imported history came from (`memo-code`), and its id there.
 */
origin: string | null, origin_id: string | null, 
/**
 * Set for a subagent's session: the agent type it ran as; `parent_session_id` is
 * then the session that spawned it (and `fork_seq` is none).
 */
agent_type?: string, };

export type ProviderSummary = { name: string, model: string, 
/**
 * `openai`, `anthropic` or `gemini`.
 */
api: string, base_url: string, is_current: boolean, };

export type RewindOutcome = { session: SessionSummary, text: string, };

export type SearchResult = { session: SessionSummary, 
/**
 * The matching event, to scroll to once the session is open.
 */
seq: number, 
/**
 * `user`, `assistant` or `tool` (the tool names an assistant step called).
 */
role: string, 
/**
 * Words around the match; each matched term sits between
 * [`SEARCH_MARK_START`] and [`SEARCH_MARK_END`].
 */
snippet: string, timestamp_ms: number, };

export type KeyStatus = { provider: string, 
/**
 * `OS keychain` or `environment variable NAME`; `None` when there is no key.
 */
source: string | null, 
/**
 * False for a server on this machine, which needs no key.
 */
required: boolean, 
/**
 * Why the keychain could not be read, when it could not.
 */
keychain_error: string | null, };

export type ErrorCode = "invalid_input" | "not_found" | "io" | "unavailable" | "config" | "missing_key" | "conflict" | "internal";

export type AppInfo = { 
/**
 * The app's own version.
 */
version: string, 
/**
 * Absolute path of Memo's data folder, as the Rust side resolved it.
 */
memo_home: string, 
/**
 * `<os>-<arch>`, e.g. `linux-x86_64`.
 */
platform: string, 
/**
 * `memo-engine <version>`.
 */
engine: string, 
/**
 * The computer's time zone over the years around now; `None` where the shell cannot
 * read it (the page then uses the web engine's own clock).
 */
time_zone: ZoneOffsets | null, 
/**
 * The desktop's languages for messages, most wanted first, as POSIX locales set them
 * (`LANGUAGE`, then `LC_ALL`, `LC_MESSAGES`, `LANG`): "zh_CN", "en_US". The web
 * engine's own `navigator.languages` misses them when the locale is not installed.
 */
languages: Array<string>, };

export type ZoneOffsets = { 
/**
 * Start of the span (ms since the epoch).
 */
from_ms: number, 
/**
 * End of the span, excluded. Outside the span the offsets are not known.
 */
until_ms: number, 
/**
 * Seconds east of UTC at `from_ms`.
 */
offset_seconds: number, 
/**
 * The changes in the span, in order.
 */
changes: Array<ZoneChange>, };

export type ZoneChange = { at_ms: number, offset_seconds: number, };

export type SessionPage = { total: number, sessions: Array<SessionSummary>, };

export type SessionStatus = { session_id: SessionId, 
/**
 * Tokens the session's model accepts in one request.
 */
context_window: number, 
/**
 * Tokens the conversation takes now: the newest model call's input and output, or
 * before any call the system prompt and tool definitions.
 */
used_tokens: number, 
/**
 * Compaction starts when a request reaches this share of the window.
 */
compact_at_percent: number, 
/**
 * Sum over the priced calls; `None` when no call had a price.
 */
cost_usd: number | null, calls: number, 
/**
 * The mode the session asks in now; `None` when it is not open.
 */
approval_mode: ApprovalMode | null, 
/**
 * Distinct files the session's tool calls changed, over its whole history (the
 * transcript may hold only the end of a long one).
 */
changed_files: number, 
/**
 * An external agent's own settings (its mode, model…) as last recorded, over its
 * whole history; empty for Memo's own sessions and agents that offer none.
 */
agent_settings?: Array<AgentSetting>, };

export type CompletionKind = "command" | "path" | "skill";

export type Completion = { kind: CompletionKind, 
/**
 * What replaces the typed word, with its sigil (`/review`, `@src/`, `$pdf`).
 */
value: string, 
/**
 * A short explanation (a command's description, "folder").
 */
detail: string | null, };

export type UsageReport = { session_id: SessionId | null, calls: number, tokens: TokenUsage, cost_usd: number | null, by_model: Array<ModelUsageReport>, };

export type ModelUsageReport = { provider: string, model: string, calls: number, tokens: TokenUsage, 
/**
 * Sum over the calls that had a price; `None` when none had one.
 */
cost_usd: number | null, 
/**
 * Calls recorded without a price (their cost is unknown, not zero).
 */
unpriced_calls: number, };

export type ImportReport = { files: Array<ImportedFile>, failed: Array<ImportFailure>, };

export type ExportFormat = "markdown" | "memo_code_jsonl";

export type ImportedFile = { path: string, status: ImportStatus, session_id: SessionId | null, origin_id: string, events: number, skipped_lines: Array<SkippedLine>, };

export type ImportFailure = { path: string, error: string, };

export type ImportStatus = "new" | "updated" | "unchanged" | "empty";

export type SkippedLine = { line: number, reason: string, };

export type InputExpansion = { 
/**
 * The text sent to the model for this message.
 */
prompt: string, 
/**
 * The slash command that produced `prompt` (`/init`, `/openspec:proposal`).
 */
command?: string, attachments: Array<InputAttachment>, 
/**
 * Things the user should know: a missing `@path`, a skipped binary file...
 */
notices: Array<string>, };

export type InputAttachment = { kind: AttachmentKind, 
/**
 * As written by the user (`@src/lib.rs`, `$code-review`).
 */
reference: string, 
/**
 * The resolved file or directory.
 */
path: string, 
/**
 * Files included (1 for a file or a skill).
 */
files: number, chars: number, 
/**
 * Some content was left out because of size limits.
 */
truncated: boolean, };

export type AttachmentKind = "file" | "directory" | "skill";

export type CompactionTrigger = "auto" | "manual" | "clear";

export type CompactionStatus = "compacted" | "cleared" | "inflated" | "failed" | "skipped";

export type HostAction = { "type": "new_session" } | { "type": "resume_session", session_id?: SessionId, } | { "type": "pick_model" };

export type PromptReport = { cwd: string, 
/**
 * The workspace root the project files were searched from (git root, else `cwd`).
 */
workspace_root: string, model: string, 
/**
 * How tokens were counted: `tiktoken:<encoding>` or `estimate:bytes`.
 */
token_counter: string, 
/**
 * Always the six layers, in order; a layer with nothing to say has empty `content`.
 */
layers: Array<PromptLayer>, 
/**
 * The system prompt (layers 1-5) in characters and estimated tokens.
 */
system_chars: number, system_tokens: number, 
/**
 * System prompt plus tool definitions: what every request costs before any message.
 */
total_tokens: number, 
/**
 * Files that were skipped or could not be used (bad front matter, template errors,
 * clashing names...). Never fatal.
 */
problems: Array<ContextProblem>, 
/**
 * The last turn's system prompt when `BeforeAgentStart` hooks replaced it (for that
 * turn only: the next one starts from the layers above again).
 */
turn_override?: TurnSystemPrompt, };

export type TurnSystemPrompt = { turn_id: TurnId, 
/**
 * Each hook that changed it, in the order they ran (each saw the one before's).
 */
changed_by: Array<PromptHook>, 
/**
 * The text sent as the system prompt in that turn.
 */
content: string, chars: number, };

export type PromptHook = { command: string, 
/**
 * The settings file it is configured in.
 */
file: string, };

export type PromptLayer = { kind: PromptLayerKind, title: string, 
/**
 * The files (or built-in templates, as `builtin:<name>`) this layer was made from.
 */
sources: Array<PromptSource>, 
/**
 * The layer's text exactly as sent; for `tool_definitions`, the JSON of the API's
 * tools field.
 */
content: string, chars: number, tokens: number, 
/**
 * How many tools a `tool_definitions` layer sends (its title in any language).
 */
tool_count?: number, };

export type PromptLayerKind = "base" | "soul" | "project_context" | "skills" | "tool_descriptions" | "tool_definitions";

export type PromptSource = { path: string, status: SourceStatus, 
/**
 * Characters and tokens this source contributes (after trimming).
 */
chars: number, tokens: number, 
/**
 * The file's own length when it was trimmed.
 */
original_chars?: number, };

export type SourceStatus = "loaded" | "trimmed" | "missing" | "empty" | "untrusted";

export type ContextProblem = { path: string, message: string, };

export type ProviderSettings = { name: string, 
/**
 * `openai`, `anthropic` or `gemini`.
 */
api: string, model: string, 
/**
 * As written in config.toml; `None` uses the wire API's public endpoint.
 */
base_url: string | null, 
/**
 * The endpoint requests go to.
 */
effective_base_url: string, env_api_key: string | null, is_current: boolean, 
/**
 * Where its key comes from (a server on this machine needs none).
 */
key: KeyStatus, };

export type ModelProfileInput = { context_window: number | null, 
/**
 * USD per million tokens.
 */
input_price_per_mtok: number | null, output_price_per_mtok: number | null, cached_input_price_per_mtok: number | null, thinking_budget_tokens: number | null, 
/**
 * Whether the model takes images.
 */
supports_vision: boolean | null, 
/**
 * Sampling temperature, 0 to 2 (`None`: the server's default).
 */
temperature: number | null, };

export type ModelProfileSettings = { key: string, profile: ModelProfileInput, };

export type ProviderSettingsPage = { config_path: string, revision: string, current_provider: string | null, providers: Array<ProviderSettings>, model_profiles: Array<ModelProfileSettings>, 
/**
 * What config.toml says in a form worth changing, applied anyway
 * (`file:line:column: …`): an unquoted dotted model name in a table header.
 */
warnings: Array<string>, };

export type ProviderInput = { name: string, 
/**
 * `openai`, `anthropic` or `gemini`.
 */
api: string, model: string, base_url: string | null, env_api_key: string | null, };

export type ProviderChange = { "type": "save", original: string | null, provider: ProviderInput, make_current: boolean, } | { "type": "remove", name: string, } | { "type": "make_current", name: string, } | { "type": "save_profile", key: string, profile: ModelProfileInput, } | { "type": "remove_profile", key: string, };

export type EditableFileKind = "soul" | "project_instructions" | "skill";

export type EditableFile = { kind: EditableFileKind, path: string, content: string, 
/**
 * Sent back with a save; `absent` for a file that does not exist yet.
 */
revision: string, exists: boolean, };

export type ConnectionReport = { ok: boolean, 
/**
 * `ok`, `auth` (the key was refused), `not_found` (wrong URL or model), `timeout`,
 * `network` (nothing answered), `missing_key` or `other`.
 */
outcome: string, 
/**
 * One sentence for the person: what happened and what to try (in English).
 */
message: string, 
/**
 * The same sentence as a phrase, for a front end to word in its language.
 */
phrase: Phrase, elapsed_ms: number, };

export type LocalServer = { 
/**
 * `ollama`, `llama.cpp`, `lm-studio` or `vllm`: what usually listens on the port.
 */
kind: string, 
/**
 * Display name, e.g. "Ollama".
 */
label: string, 
/**
 * The OpenAI-compatible base URL (`http://127.0.0.1:11434/v1`).
 */
base_url: string, models: Array<string>, 
/**
 * Set when something answered on the port but gave no model to use: what it said
 * ("answered HTTP 404 at /v1/models"), for a person to set it up by hand.
 */
no_models?: Phrase, 
/**
 * The context window the server runs with, when it says (llama.cpp's `n_ctx`,
 * vLLM's `max_model_len`, Ollama's `num_ctx`): a small one gets the compact prompt.
 */
context_window?: number, };

export type SkillScopeKind = "user" | "project" | "other_agent" | "plugin" | "builtin";

export type SkillInfo = { name: string, description: string, scope: SkillScopeKind, 
/**
 * The SKILL.md, or `builtin:<name>`.
 */
path: string, 
/**
 * Listed in the prompt and usable with `$name` (`active_skills` decides).
 */
enabled: boolean, 
/**
 * Memo may change or delete it (user and project skills).
 */
editable: boolean, };

export type SkillsPage = { skills: Array<SkillInfo>, problems: Array<ContextProblem>, 
/**
 * Whether `active_skills` is set (otherwise every skill is enabled).
 */
filtered: boolean, config_revision: string, };

export type SkillChange = { "type": "create", scope: SkillScopeKind, name: string, description: string, body: string, } | { "type": "save", path: string, content: string, revision: string, } | { "type": "rename", path: string, new_name: string, } | { "type": "delete", path: string, } | { "type": "set_enabled", path: string, enabled: boolean, config_revision: string, };

export type PluginSourceKind = "folder" | "git" | "claude_code";

export type PluginPartInfo = { name: string, description: string | null, path: string, };

export type PluginHookInfo = { 
/**
 * `PreToolUse`, `UserPromptSubmit`...
 */
event: string, 
/**
 * Empty: every tool (or every occasion).
 */
matcher: string, command: string, };

export type PluginServerInfo = { name: string, 
/**
 * `stdio`, `streamable_http` or `sse`.
 */
transport: string, 
/**
 * The command line or the URL.
 */
target: string, };

export type PluginInfo = { name: string, version: string | null, description: string | null, author: string | null, source_kind: PluginSourceKind, 
/**
 * The folder or git URL it was installed from.
 */
source: string, 
/**
 * Memo's copy, in `$MEMO_HOME/plugins/<name>`.
 */
path: string, enabled: boolean, 
/**
 * Milliseconds since the Unix epoch.
 */
installed_at_ms: number, commands: Array<PluginPartInfo>, skills: Array<PluginPartInfo>, agents: Array<PluginPartInfo>, hooks: Array<PluginHookInfo>, mcp_servers: Array<PluginServerInfo>, 
/**
 * What could not be read (a broken manifest, a skipped file, a bad server).
 */
problems: Array<string>, 
/**
 * Installed (by Claude Code, for its project or local scope) for this folder only:
 * sessions elsewhere do not load it.
 */
for_folder?: string, };

export type PluginsPage = { plugins: Array<PluginInfo>, 
/**
 * `$MEMO_HOME/plugins`.
 */
dir: string, };

export type PluginInstall = { "type": "folder", path: string, } | { "type": "git", url: string, };

export type ChangeKind = "created" | "modified" | "deleted";

export type FileChange = { 
/**
 * Relative to the workspace folder, `/`-separated.
 */
path: string, kind: ChangeKind, 
/**
 * What made the change: a tool's name (`apply_patch`, `exec_command`, an MCP tool),
 * `outside` (someone or something outside Memo), `restore` or `review`.
 */
sources: Array<string>, 
/**
 * False when a side is over the size cap or unreadable: the change is recorded but
 * cannot be put back.
 */
restorable: boolean, binary: boolean, 
/**
 * Lines added and removed (0 for binary files).
 */
added: number, removed: number, 
/**
 * Text diff from the earlier to the later state; `None` for binary files, files over
 * the cap, and diffs too large to send (fetched on demand instead).
 */
diff?: FileDiff, 
/**
 * Hunks of `diff` the person kept: in a git repository, those staged in the index
 * (not yet committed); elsewhere, those marked kept in Memo's store.
 */
kept?: Array<number>, 
/**
 * Hunks of `diff` git already has at HEAD: committed, so neither kept nor to unstage.
 */
committed?: Array<number>, 
/**
 * The person marked the file reviewed, and it has not changed since.
 */
reviewed?: boolean, };

export type ChangeScope = "last_turn" | "session" | "uncommitted";

export type ChangesReport = { scope: ChangeScope, files: Array<FileChange>, 
/**
 * Whether the workspace is a git repository (the uncommitted scope needs one).
 */
git: boolean, 
/**
 * Why the list may be incomplete or empty (no git, no checkpoints), as a phrase.
 */
note?: Phrase, };

export type RevertRequest = { scope: ChangeScope, path: string, 
/**
 * Indices into the diff's hunks; `None` reverts the whole file.
 */
hunks?: Array<number>, 
/**
 * The diff's unified text as shown; the revert is refused when the file changed since.
 */
shown_diff: string, 
/**
 * Revert even though lines changed after the agent's edit (by the person or anything
 * else) would go with it: the answer to a [`RevertResult::held_back`]. What is lost
 * stays recoverable through the result's undo checkpoint.
 */
force?: boolean, };

export type RevertResult = { 
/**
 * The panel's list after the revert.
 */
changes: ChangesReport, 
/**
 * Restoring the file from this checkpoint undoes the revert (the panel's Undo);
 * `None` when nothing was written.
 */
undo_checkpoint?: number, 
/**
 * Nothing was written because the revert would drop lines someone changed after the
 * agent; asking again with `force` reverts anyway.
 */
held_back?: HeldBack, };

export type HeldBack = { path: string, 
/**
 * The lines, numbered as the file stands now: "4", "4–6", "4, 9–10".
 */
lines: string, 
/**
 * The sentence to show.
 */
message: string, };

export type CheckpointSummary = { id: number, 
/**
 * The session event this checkpoint follows.
 */
seq: number, turn_id?: TurnId, call_id?: ToolCallId, 
/**
 * `turn_start`, a tool's name, `outside`, `restore` or `review`.
 */
source: string, created_ms: number, files: Array<string>, };

export type RestoreMode = "code" | "conversation" | "both";

export type RestoreAction = "write" | "delete" | "conflict" | "not_restorable" | "unchanged";

export type RestoreFile = { path: string, action: RestoreAction, 
/**
 * For a conflict: what happened to the file after the agent's change.
 */
detail?: string, };

export type RestoreReport = { files: Array<RestoreFile>, 
/**
 * The checkpoint recording the restore itself; restoring to just before it undoes it.
 */
undo_checkpoint?: number, 
/**
 * The conversation restored as a new session (conversation and both modes).
 */
session?: SessionSummary, 
/**
 * The message the conversation was rewound to, for the composer to offer again.
 */
message?: string, };

export type TrustState = "trusted" | "untrusted" | "unasked" | "changed";

export type ApprovalMode = "auto" | "strict" | "dangerous";

export type RuleDecision = "allow" | "deny";

export type RuleKind = "command" | "write" | "mcp" | "web" | "read";

export type ApprovalRuleInfo = { id: string, decision: RuleDecision, kind: RuleKind, pattern: string, 
/**
 * The folder it applies in (and below); `None`: everywhere.
 */
project: string | null, 
/**
 * A command rule matching the command exactly, not as a prefix.
 */
exact: boolean, created_at: number, last_used_at: number | null, };

export type RuleInput = { decision: RuleDecision, kind: RuleKind, pattern: string, project: string | null, 
/**
 * See [`ApprovalRuleInfo::exact`].
 */
exact: boolean, };

export type ImportedPermission = { file: string, 
/**
 * As written there.
 */
text: string, decision: RuleDecision, 
/**
 * What Memo does with it (`allows command \`npm test\``, `turns off webfetch`), or
 * why it is not applied.
 */
effect: string, applied: boolean, };

export type ToolSwitch = { name: string, 
/**
 * Off in config.toml's `disabled_tools`.
 */
disabled: boolean, };

export type ApprovalSettings = { 
/**
 * config.toml's `approval_mode`: what new sessions start in.
 */
default_mode: ApprovalMode, 
/**
 * Where the rules are kept (`approval_rules.json` in Memo's home).
 */
rules_path: string, rules: Array<ApprovalRuleInfo>, 
/**
 * Why the rules file could not be read (no rule applies until it is fixed).
 */
rules_error: string | null, 
/**
 * Other agents' permissions for the folder asked about (and the user's own).
 */
imported: Array<ImportedPermission>, tools: Array<ToolSwitch>, };

export type ProjectPermissionInfo = { 
/**
 * The file, relative to the folder.
 */
file: string, 
/**
 * As written: `Bash(npm run test:*)`.
 */
text: string, };

export type ProjectServerInfo = { 
/**
 * The file, relative to the folder (`.mcp.json`).
 */
file: string, name: string, 
/**
 * The command line it runs, or `connects to <url>`.
 */
runs: string, };

export type ProjectPromptFile = { 
/**
 * Relative to the folder.
 */
path: string, 
/**
 * "replaces Memo's base instructions, safety rules included".
 */
effect: Phrase, };

export type WorkspaceTrustReport = { folder: string, state: TrustState, 
/**
 * The folder would start something and the user has not decided about exactly that.
 */
needs_decision: boolean, servers: Array<ProjectServerInfo>, permissions: Array<ProjectPermissionInfo>, 
/**
 * The folder's own Claude Code hooks (`hook PreToolUse Bash: ./guard.sh`): commands
 * that run at the session's moments once the folder is trusted.
 */
hooks: Array<string>, 
/**
 * The folder's files that would change Memo's base instructions; until it is trusted,
 * Memo's own are used.
 */
prompt_files: Array<ProjectPromptFile>, };

export type TrustDecision = { folder: string, trusted: boolean, 
/**
 * What the folder would start when it was decided.
 */
items: Array<string>, 
/**
 * Seconds since the Unix epoch.
 */
decided_at: number, };

export type WorktreeState = "ready" | "missing" | "unlinked";

export type WorktreeInfo = { 
/**
 * Memo's short id of the worktree (also the end of its folder name).
 */
id: string, 
/**
 * The checkout it was created from, where a merge lands.
 */
repo_root: string, 
/**
 * The worktree folder, under `$MEMO_HOME/worktrees`.
 */
path: string, 
/**
 * Where a session in it starts: the same subfolder of the repository as the folder it
 * was asked for (the worktree's root when that was the repository's root).
 */
session_cwd: string, 
/**
 * `memo/<name>`.
 */
branch: string, 
/**
 * The branch the repository was on when the worktree was created; `None` when it was
 * on a detached HEAD (the branch can then be kept, not merged).
 */
base_branch?: string, 
/**
 * The commit the branch started from.
 */
base_commit: string, 
/**
 * Milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * The session started in it, once it has started.
 */
session_id?: SessionId, state: WorktreeState, };

export type WorktreeFileStatus = "modified" | "added" | "deleted" | "renamed" | "untracked" | "conflicted";

export type WorktreeFile = { 
/**
 * Relative to the worktree's root, `/`-separated.
 */
path: string, status: WorktreeFileStatus, };

export type WorktreeCommit = { sha: string, short_sha: string, subject: string, };

export type WorktreeStatus = { worktree: WorktreeInfo, 
/**
 * Uncommitted files (tracked changes and untracked files).
 */
uncommitted: Array<WorktreeFile>, 
/**
 * Commits on the branch that the base branch does not have, oldest first.
 */
ahead: Array<WorktreeCommit>, 
/**
 * Commits on the base branch since the worktree's branch left it.
 */
behind: number, 
/**
 * Everything committed on the branch is in the base branch.
 */
merged: boolean, 
/**
 * What discarding the worktree would lose, as `discard_worktree` must be given it to
 * go ahead: one entry per uncommitted file, then one per unmerged commit. Empty when
 * nothing would be lost.
 */
discard_confirmation: Array<string>, };

export type WorktreeDiff = { base_commit: string, files: Array<FileChange>, };

export type WorktreeMerge = { 
/**
 * The commit made of the uncommitted work first, if there was any.
 */
committed?: WorktreeCommit, base_branch: string, 
/**
 * The base branch's new tip.
 */
head: string, 
/**
 * Files the merge changed in the main checkout.
 */
files: Array<string>, 
/**
 * The worktree afterwards (it stays, clean and merged, until discarded).
 */
status: WorktreeStatus, };

export type KeptBranch = { branch: string, committed?: WorktreeCommit, 
/**
 * The repository's remote to push to (`origin` when there is one); `None` when it has
 * no remote.
 */
remote?: string, 
/**
 * `git push -u <remote> <branch>`, to run in `repo_root`.
 */
push_command: string, repo_root: string, };

export type WorktreeDiscard = { branch: string, 
/**
 * False when the branch could not be deleted (checked out somewhere else); `note` says
 * why.
 */
branch_deleted: boolean, note?: string, };

export type WorktreeSession = { session: SessionSummary, worktree: WorktreeInfo, };

export type McpSourceKind = "memo" | "claude" | "gemini" | "cursor" | "plugin" | "codex" | "editor";

export type McpTransportKind = "stdio" | "streamable_http" | "sse";

export type McpValueInfo = { name: string, 
/**
 * Kept in the OS keychain (else written in the file).
 */
in_keychain: boolean, 
/**
 * In the keychain but not there any more (the server will not start).
 */
missing: boolean, };

export type McpServerInfo = { name: string, source: McpSourceKind, 
/**
 * The file it comes from.
 */
source_path: string, 
/**
 * That file as a person names it: `config.toml`, `.mcp.json` (the folder's),
 * `~/.claude.json` (the user's own, for every folder).
 */
source_label: string, transport: McpTransportKind, 
/**
 * stdio: the command and its arguments.
 */
command: string | null, args: Array<string>, 
/**
 * HTTP: the server's URL.
 */
url: string | null, env: Array<McpValueInfo>, headers: Array<McpValueInfo>, 
/**
 * Starts in new sessions (its own `enabled` and `active_mcp_servers` allow it).
 */
enabled: boolean, 
/**
 * Tools turned off (`exclude_tools`).
 */
excluded_tools: Array<string>, 
/**
 * Only these tools, when the config says so (`include_tools`).
 */
included_tools: Array<string> | null, 
/**
 * A project server of a folder that is not trusted: sessions do not start it, and
 * neither does a check.
 */
blocked: boolean, };

export type McpSettingsPage = { 
/**
 * Memo's config.toml.
 */
config_path: string, 
/**
 * The open folder whose project files were read, if any.
 */
folder: string | null, 
/**
 * The folder's trust, when one is open.
 */
trust: TrustState | null, servers: Array<McpServerInfo>, 
/**
 * config.toml has `active_mcp_servers`: only the servers it names start.
 */
active_list: boolean, 
/**
 * What could not be read (a bad table, a name defined twice), one line each.
 */
problems: Array<string>, };

export type McpCheckState = "ready" | "failed" | "crashed" | "needs_login" | "disabled" | "blocked";

export type McpToolEntry = { name: string, description: string, 
/**
 * Offered to the model (not in the server's exclude list, and in its include list
 * when it has one).
 */
enabled: boolean, };

export type McpPromptEntry = { name: string, description: string | null, };

export type McpResourceEntry = { uri: string, name: string, };

export type McpServerCheck = { name: string, state: McpCheckState, 
/**
 * Why it failed (or was not started), in English.
 */
message: string | null, 
/**
 * The same, as a phrase, where Memo said it (the server's own errors are its text).
 */
phrase?: Phrase, 
/**
 * The last lines it wrote to stderr, when it failed.
 */
stderr_tail: string | null, 
/**
 * Every tool it offers, the turned-off ones included.
 */
tools: Array<McpToolEntry>, prompts: Array<McpPromptEntry>, resources: Array<McpResourceEntry>, };

export type McpSecretInput = { name: string, value: string | null, };

export type McpServerInput = { name: string, transport: McpTransportKind, 
/**
 * stdio
 */
command: string, args: Array<string>, env: Array<McpSecretInput>, 
/**
 * HTTP
 */
url: string, headers: Array<McpSecretInput>, 
/**
 * HTTP: the environment variable holding a bearer token (`None` keeps what an edited
 * server had).
 */
bearer_token_env_var?: string, };

export type TerminalId = number;

export type TerminalMessage = { "type": "output", data: string, } | { "type": "exit", code: number | null, };

export type ActivityState = "idle" | "running" | "waiting";

export type PendingApproval = { request_id: ApprovalId, tool_name: string, 
/**
 * The command, the file, or the tool and its arguments, on one line and cut short.
 */
summary: string, risk: RiskLevel, 
/**
 * A file change: approving it from a summary approves every hunk.
 */
has_diff: boolean, 
/**
 * The subagent that asks, for a question relayed from one.
 */
agent?: SubagentRef, };

export type SessionActivity = { session_id: SessionId, cwd: string, 
/**
 * The title, else the first message, else empty (a session nothing was said in yet).
 */
label: string, state: ActivityState, 
/**
 * Oldest first.
 */
approvals: Array<PendingApproval>, 
/**
 * MCP servers' questions waiting for an answer.
 */
questions: number, 
/**
 * Turns ended since the session became live: the UI marks a session unread when this
 * grows while the session is not in front of the user.
 */
turns_ended: number, 
/**
 * How the last turn ended, once one has.
 */
last_outcome: TurnEndReason | null, 
/**
 * The last error of the current or last turn.
 */
last_error: string | null, updated_ms: number, };

export type WindowSignal = { "kind": "open_session", session_id: SessionId, } | { "kind": "open_requests" } | { "kind": "place_caret" };

export type PageMessage = { 
/**
 * The page's callback for the channel.
 */
channel: number, 
/**
 * The message's place in its channel, from 0: the page puts them back in order.
 */
index: number, 
/**
 * The message as JSON; absent on the channel's end.
 */
message?: unknown, };

export type HistoryPage = { events: Array<EventEnvelope>, 
/**
 * The first seq the page covers (a turn's start, or 1).
 */
from_seq: number, 
/**
 * The last seq it covers; when `has_after` is false, live events follow after it.
 */
to_seq: number, 
/**
 * Whether the session has events before `from_seq`.
 */
has_more: boolean, 
/**
 * Whether the session had events after `to_seq` when the page was read: the page does
 * not reach the live end, and the next one starts at `to_seq + 1`.
 */
has_after: boolean, };

export const SEARCH_MARK_START = "\u{E000}";

export const SEARCH_MARK_END = "\u{E001}";

export const EXTERNAL_AGENT_PROVIDER_PREFIX = "acp:";

export const ERROR_CODES: readonly ErrorCode[] = ["invalid_input", "not_found", "io", "unavailable", "config", "missing_key", "conflict", "internal"];
