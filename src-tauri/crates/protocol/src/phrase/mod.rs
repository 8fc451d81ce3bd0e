//! Sentences for people, sent as a code and its arguments, never as finished English.
//!
//! A [`Phrase`] is what Rust means ("run `cargo test`", "`rm -r $X/` deletes from the
//! root if the variable is empty"); each front end words it in its person's language. The
//! desktop looks the code up in its `phrases` catalog (`ui/src/i18n/locales/<language>/
//! phrases.json`, one entry per variant, the variant's fields as the placeholders); Rust
//! itself words it in English from the same English file ([`Phrase::english`]), for
//! memo-cli, logs and the one-line `reason` kept beside the phrases for older readers. So
//! the English of a sentence is written once, and a missing or misspelt entry fails a test
//! here rather than showing a code to a person.
//!
//! A field may itself be a phrase (or a list of them): it is worded first, then put in.
//! A variant with a `count` field has plural entries (`code_one`, `code_other`), as
//! i18next expects.
//!
//! What goes to the model is not a phrase: it stays English, as the tools write it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One sentence (or a part of one) for a person. Serialized as `{"code": "...", ...fields}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Phrase {
    // Why Memo asks before a call runs (an approval's reasons).
    /// An exec call: the command it runs.
    RunCommand {
        command: String,
    },
    /// Asked to run without the sandbox, with the model's reason.
    OutsideSandbox {
        justification: String,
    },
    /// Asked to run without the sandbox, giving no reason.
    OutsideSandboxUnjustified,
    /// Typing into a running command's terminal.
    SendToSession {
        text: String,
        session: String,
        command: String,
    },
    /// Waiting on a running command's terminal without typing.
    WaitOnSession {
        session: String,
        command: String,
    },
    /// write_file over an existing file.
    OverwriteFile {
        path: String,
        added: u64,
        removed: u64,
    },
    /// write_file or a patch making a new file.
    CreateFile {
        path: String,
        added: u64,
    },
    /// A patch deleting a file.
    DeleteFile {
        path: String,
        removed: u64,
    },
    /// A patch moving (and maybe changing) a file.
    MoveFile {
        path: String,
        to: String,
        added: u64,
        removed: u64,
    },
    /// A patch or edit changing a file in place.
    EditFile {
        path: String,
        added: u64,
        removed: u64,
    },
    /// A line typed into a running command that the guard asks about, and why.
    TypedLine {
        line: String,
        why: Box<Phrase>,
    },
    /// A tool with no words of its own.
    ToolRuns {
        tool: String,
    },
    /// save_memory: where the fact goes, and the fact.
    SaveMemory {
        path: String,
        fact: String,
    },
    /// webfetch: a fetched URL can carry data out.
    FetchUrl {
        url: String,
        host: String,
    },
    /// An MCP server's tool, and who rated its risk.
    McpToolRuns {
        server: String,
        tool: String,
        rated: Box<Phrase>,
    },
    McpRatedReadOnly,
    McpRatedByNameAgainstServer,
    McpRatedByName,
    /// A PreToolUse hook asked for the person's answer, saying why.
    HookAsks {
        why: String,
    },
    HookAsksSilently,
    /// The call names files a deny-read rule covers (`count` of them, listed).
    NamesDeniedFiles {
        count: u64,
        files: String,
        source: String,
        pattern: String,
    },
    // Why the command guard asks about a command, every time (critical).
    // What lives in a protected area.
    AreaSystemFiles,
    AreaCredentials,
    AreaLoginFile,
    GuardUnreadable,
    GuardNestedTooDeep,
    GuardWritesProtected {
        command: String,
        target: String,
        what: Box<Phrase>,
        area: String,
    },
    GuardDeletesProtected {
        command: String,
        target: String,
        what: Box<Phrase>,
        area: String,
    },
    GuardScriptFromCommand {
        program: String,
        producer: String,
    },
    GuardProgramUnknown {
        program: String,
    },
    GuardScriptUnknown {
        command: String,
    },
    GuardFindDeletesProtected {
        command: String,
        start: String,
        area: String,
        what: Box<Phrase>,
    },
    GuardFindChangesProtected {
        command: String,
        start: String,
        area: String,
        what: Box<Phrase>,
    },
    GuardXargsChangesProtected {
        command: String,
        source: String,
        area: String,
        what: Box<Phrase>,
    },
    GuardCodeUnknown {
        snippet: String,
    },
    GuardInlineCodeProtected {
        area: String,
        what: Box<Phrase>,
    },
    GuardInlineCodeOutside {
        path: String,
    },
    GuardRmVariableRoot {
        target: String,
    },
    GuardDeletesMainBranch,
    GuardForcePushMain,
    GuardAtJobsRemoved {
        command: String,
    },
    GuardCrontabRemoved {
        command: String,
    },
    GuardCrontabReplaced {
        command: String,
        source: String,
    },
    GuardCrontabReplacedFromStdin {
        command: String,
    },
    GuardPermissionsHome {
        command: String,
        folder: String,
    },
    GuardPermissionsSystem {
        command: String,
        folder: String,
    },
    GuardGitOutside {
        command: String,
        subcommand: String,
        folder: String,
    },
    // Why a folder a person typed cannot be opened.
    FolderNotFullPath {
        path: String,
    },
    FolderMissing {
        path: String,
    },
    FolderNotPermitted {
        path: String,
    },
    FolderUnreadable {
        path: String,
        error: String,
    },
    FolderIsFile {
        path: String,
    },
    FolderNotListable {
        path: String,
    },
    FolderUnlistable {
        path: String,
        error: String,
    },
    // Reaching a model server, and testing a connection.
    ReachRefused,
    ReachNoHost,
    ReachTls,
    ReachReset,
    ReachNoRoute,
    ReachTimedOut,
    ReachFailed,
    CouldNotReach {
        target: String,
        reason: Box<Phrase>,
    },
    CouldNotReachRunning {
        target: String,
    },
    CouldNotReachOnline {
        target: String,
    },
    ConnectChooseModel,
    ConnectNoKey {
        base_url: String,
    },
    ConnectBadUrl {
        error: String,
    },
    ConnectOk {
        model: String,
        base_url: String,
    },
    ConnectTimeout {
        base_url: String,
        seconds: u64,
    },
    ConnectKeyRefused {
        detail: String,
    },
    ConnectSlow {
        base_url: String,
        detail: String,
    },
    ConnectNothing {
        base_url: String,
        detail: String,
    },
    ConnectNoModel {
        base_url: String,
        model: String,
        detail: String,
    },
    ConnectBusy {
        detail: String,
    },
    ConnectFailed {
        detail: String,
    },
    AnsweredHttp {
        status: u64,
        path: String,
    },
    AnsweredNotJson {
        path: String,
    },
    AnsweredNoModelList {
        list_key: String,
    },
    // A port that answered with no model list.
    AnsweredNoModels {
        path: String,
    },
    // Sessions, their events and pages; the service's home, keychain and checkpoints.
    SessionNotFound {
        id: String,
    },
    SessionNotOpen {
        id: String,
    },
    SessionNotOpenResume {
        id: String,
    },
    SessionNoEvent {
        id: String,
        seq: u64,
    },
    SessionNoEventPastLast {
        id: String,
        seq: u64,
        last: u64,
    },
    EventNotTurnStart {
        id: String,
        seq: u64,
        kind: String,
    },
    EventNotToolEnd {
        id: String,
        seq: u64,
        kind: String,
    },
    SessionTitleEmpty,
    SessionTitleTooLong {
        max: u64,
    },
    NotAFileName {
        path: String,
    },
    PageNeedsTurn,
    PageBothWays,
    PageBeforeZero,
    PageStartsAtZero,
    SubagentTakesNoInput,
    HomeUnresolved {
        error: String,
    },
    KeychainFailed {
        error: String,
    },
    CheckpointsFailed {
        error: String,
    },
    // Approval rules and the changes panel.
    NoBuiltinTool {
        name: String,
    },
    NoApprovalRule {
        id: String,
    },
    RulesNotExported {
        error: String,
    },
    NotAFolder {
        path: String,
    },
    CheckpointsOff,
    FolderNotGitRepo,
    ChangesNotTracked {
        reason: String,
    },
    NothingToRevert {
        path: String,
    },
    ChangedSinceShown {
        path: String,
    },
    RevertNotText {
        path: String,
    },
    NoSuchHunk {
        path: String,
        hunks: u64,
        hunk: u64,
    },
    ChangedWhileReverting {
        path: String,
    },
    OverSizeCap {
        path: String,
    },
    // API keys, the prompt report, MCP sign-in and plugins.
    NoProviderNamed {
        provider: String,
    },
    ApiKeyEmpty,
    ApiKeyMalformed,
    PromptReportNeedsSession,
    McpServerNotFound {
        name: String,
    },
    McpServerUntrusted {
        name: String,
    },
    McpServerIsStdio {
        name: String,
    },
    McpSignInFailed {
        name: String,
        error: String,
    },
    PluginInstallStopped {
        error: String,
    },
    PluginFromClaudeCode {
        id: String,
    },
    PluginFolderNeeded,
    PluginPathNotAbsolute {
        path: String,
    },
    // Provider and model settings, editable files and skills.
    UnknownWireApi {
        api: String,
    },
    BaseUrlScheme {
        url: String,
    },
    PriceInvalid {
        what: Box<Phrase>,
    },
    PriceInput,
    PriceOutput,
    PriceCachedInput,
    ContextWindowZero,
    TemperatureRange,
    ThinkingBudgetMin,
    NotUtf8 {
        path: String,
    },
    TextTooLarge {
        size_kb: u64,
        max_kb: u64,
    },
    InstructionsNeedFolder,
    SkillFileNeedsPath,
    SkillNeedsName,
    SkillNameUnusable {
        name: String,
    },
    SkillNotFound {
        path: String,
    },
    SkillNotOurs {
        path: String,
    },
    BuiltinSkillNotEditable {
        name: String,
    },
    SkillNeedsDescription,
    DescriptionTooLong {
        max: u64,
    },
    ProjectSkillNeedsFolder,
    NewSkillPlace,
    AlreadyExistsPickName {
        path: String,
    },
    SkillNotSaved {
        error: String,
    },
    SkillNotCreated {
        error: String,
    },
    SkillNotRenamed {
        error: String,
    },
    BuiltinSkillsNotRenamed,
    BuiltinSkillsNotDeleted,
    HasNoFolder {
        path: String,
    },
    HasNoParentFolder {
        path: String,
    },
    SkillNoFrontMatter,
    SkillFrontMatterUnclosed,
    // Worktrees.
    WorktreeNeedsCommitMessage,
    NotInGitRepo {
        path: String,
    },
    RepoHasNoCommit {
        path: String,
    },
    WorktreeNotFound {
        id: String,
    },
    WorktreeMissing {
        id: String,
        reason: Box<Phrase>,
    },
    MergeStoppedOnConflicts {
        branch: String,
        base: String,
        files: String,
    },
    DiscardLosesFiles {
        files: String,
    },
    DiscardLosesCommits {
        commits: String,
    },
    DiscardLosesBoth {
        files: String,
        commits: String,
    },
    // What a folder's own prompt file would change (the trust prompt).
    SystemFileReplaces,
    SystemFileAppends,
    // Why Settings → MCP shows a server as not running.
    McpNotTrusted {
        file: String,
    },
    McpTurnedOff,
    McpNotStarted,
    // Settings → MCP and the trust list refusing an edit.
    McpServerNotInConfig {
        name: String,
    },
    McpServerExists {
        name: String,
        source: String,
    },
    McpActiveServersBad {
        setting: String,
        error: String,
    },
    McpToolNotIncluded {
        server: String,
        tool: String,
    },
    McpValueEnv,
    McpValueHeader,
    McpValueNoName {
        what: Box<Phrase>,
    },
    McpValueBadName {
        what: Box<Phrase>,
        name: String,
    },
    McpValueTwice {
        what: Box<Phrase>,
        name: String,
    },
    McpValueLineBreak {
        name: String,
    },
    McpValueMissing {
        what: Box<Phrase>,
        name: String,
    },
    McpStdioNeedsCommand,
    McpHttpNeedsUrl,
    McpServerDefinedElsewhere {
        name: String,
        file: String,
    },
    NoTrustDecision {
        folder: String,
    },
    // Worktree refusals, kept-rule summaries, approvals nobody answered
    WorktreeDetachedAtStart {
        path: String,
    },
    WorktreeBaseBranchGone {
        base: String,
    },
    WorktreeCheckoutOnOtherBranch {
        path: String,
        current: String,
        base: String,
    },
    WorktreeCheckoutDetached {
        path: String,
        base: String,
    },
    WorktreeCheckoutMidMerge {
        path: String,
    },
    WorktreeCheckoutOverlaps {
        path: String,
        files: String,
    },
    WorktreeStillThere {
        path: String,
    },
    RuleCommandExactly {
        pattern: String,
    },
    RuleCommandPrefix {
        pattern: String,
    },
    RulePattern {
        pattern: String,
    },
    RuleRunWithoutAsking {
        rules: Vec<Phrase>,
    },
    RuleChangeWithoutAsking {
        rules: Vec<Phrase>,
    },
    RuleMcpWithoutAsking {
        rules: Vec<Phrase>,
    },
    RuleFetchWithoutAsking {
        rules: Vec<Phrase>,
    },
    TurnStoppedBeforeAnswer,
    SessionStoppedBeforeAnswer,
    // Worktrees that are gone
    WorktreeUnlinked {
        path: String,
        repo: String,
    },
    FolderGone {
        path: String,
    },
    RepositoryGone {
        path: String,
    },
    // MCP servers: starting, failing, restarting (the server's own words go as AsSaid)
    AsSaid {
        text: String,
    },
    McpServerNotConfigured {
        name: String,
    },
    McpCommandNotFound {
        command: String,
        path: String,
    },
    McpCouldNotStart {
        command: String,
        error: String,
    },
    McpStartupTimeout {
        seconds: String,
    },
    McpNeedsLogin {
        server: String,
    },
    McpCallTimeout {
        seconds: String,
    },
    McpNotAvailable {
        server: String,
        state: String,
    },
    McpServerAnsweredError {
        number: String,
        error: String,
    },
    McpConnectionClosed,
    McpClosedInHandshake,
    McpHandshakeFailed {
        error: String,
    },
    McpExitedInHandshake {
        exit: Box<Phrase>,
    },
    McpProcessEnded {
        exit: Box<Phrase>,
    },
    ProcessExitedWithCode {
        status: String,
    },
    ProcessKilledBySignal {
        signal: String,
    },
    ProcessExited,
    McpUnauthorized,
    McpHttpStatus {
        url: String,
        status: String,
    },
    McpNotEventStream {
        url: String,
    },
    McpEventStreamBroke {
        error: String,
    },
    McpEventStreamEnded,
    McpNoEndpoint,
    McpBadEndpoint {
        endpoint: String,
        error: String,
    },
    McpEndpointOffOrigin {
        endpoint: String,
    },
    McpGaveUp {
        reason: Box<Phrase>,
        count: u64,
    },
    McpRestartingIn {
        reason: Box<Phrase>,
        seconds: String,
    },
    McpRestartingAfter {
        reason: Box<Phrase>,
    },
    AcpAllowOnce,
    AcpAllowForSession,
    AcpAllowAlwaysHere,
    AcpAllowAlwaysHereTo {
        rule: Box<Phrase>,
    },
    AcpDeny,
    AcpInitializeFirst,
    AcpKeyMethod,
    AcpKeyMethodHow {
        provider: String,
    },
    AcpNoSession {
        id: String,
    },
    AcpTurnRunning,
    AcpTurnFailed,
    AcpSessionEnded,
    AcpModeAuto,
    AcpModeAutoEffect,
    AcpModeStrict,
    AcpModeStrictEffect,
    AcpModeDangerous,
    AcpModeDangerousEffect,
    AcpCwdNotAbsolute {
        path: String,
    },
    AcpCwdMissing {
        path: String,
    },
    SessionHeldElsewhere {
        program: String,
        pid: String,
    },
    ExternalAgentNotInConfig {
        name: String,
    },
    ExternalAgentExists {
        name: String,
    },
    ExternalAgentNameBad {
        name: String,
    },
    ExternalAgentCommandMissing,
    ExternalAgentNotFound {
        command: String,
        install: String,
    },
    ExternalAgentFailed {
        name: String,
        message: String,
    },
    ExternalAgentSignIn {
        name: String,
    },
    ExternalAgentSessionOnly {
        what: String,
    },
    ExternalAgentSettingRefused {
        setting: String,
        value: String,
        message: String,
    },
    // Git, from review to commit (memo-git)
    GitUnavailable {
        error: String,
    },
    GitFailed {
        command: String,
        output: String,
    },
    GitNotARepository {
        path: String,
    },
    GitChangedSinceShown {
        path: String,
    },
    GitHunkNotInIndex {
        path: String,
    },
    GitOperationInProgress {
        operation: String,
    },
    GitNoIdentity,
    GitNothingStaged,
    GitEmptyMessage,
    GitSecretsStaged {
        count: u64,
    },
    GitCommitRefused {
        output: String,
    },
    GitDetachedHead,
    GitNoSuchRemote {
        remote: String,
    },
    GitNoRemote,
    GitPushProtected {
        remote: String,
        branch: String,
    },
    GitPushLeaseStale {
        remote: String,
        branch: String,
    },
    GitPushBehind {
        remote: String,
        branch: String,
    },
    GitPushAuth {
        remote: String,
    },
    GitPushRemoteRefused {
        remote: String,
        branch: String,
    },
    GitPullRequestFailed {
        command: String,
        output: String,
    },
    GitNoForgeCli {
        url: String,
    },
    GitNoForge,
    GitHunkCommitted {
        path: String,
    },
}

mod wording;
#[cfg(test)]
use wording::{english_catalog, ENGLISH};

#[cfg(test)]
mod tests;
