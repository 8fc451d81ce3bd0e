use std::collections::{BTreeSet, HashMap};

use super::*;

/// One of each variant. The match below has no wildcard, so a new variant does not
/// compile until it is added here, and then the tests check its English entry.
fn every_phrase() -> Vec<Phrase> {
    let s = |text: &str| text.to_owned();
    let all = vec![
        Phrase::RunCommand {
            command: s("cargo test"),
        },
        Phrase::OutsideSandbox {
            justification: s("needs the network"),
        },
        Phrase::OutsideSandboxUnjustified,
        Phrase::SendToSession {
            text: s("\"y\\n\""),
            session: s("3"),
            command: s("python"),
        },
        Phrase::WaitOnSession {
            session: s("3"),
            command: s("python"),
        },
        Phrase::OverwriteFile {
            path: s("a.txt"),
            added: 2,
            removed: 1,
        },
        Phrase::CreateFile {
            path: s("a.txt"),
            added: 2,
        },
        Phrase::DeleteFile {
            path: s("a.txt"),
            removed: 3,
        },
        Phrase::MoveFile {
            path: s("a.txt"),
            to: s("b.txt"),
            added: 1,
            removed: 1,
        },
        Phrase::EditFile {
            path: s("a.txt"),
            added: 1,
            removed: 1,
        },
        Phrase::TypedLine {
            line: s("git push -f origin main"),
            why: Box::new(Phrase::HookAsksSilently),
        },
        Phrase::ToolRuns { tool: s("todo") },
        Phrase::SaveMemory {
            path: s("~/.memo/memory.md"),
            fact: s("likes tabs"),
        },
        Phrase::FetchUrl {
            url: s("https://example.com/"),
            host: s("example.com"),
        },
        Phrase::McpToolRuns {
            server: s("files"),
            tool: s("write"),
            rated: Box::new(Phrase::McpRatedByName),
        },
        Phrase::McpRatedReadOnly,
        Phrase::McpRatedByNameAgainstServer,
        Phrase::McpRatedByName,
        Phrase::HookAsks {
            why: s("release branch"),
        },
        Phrase::HookAsksSilently,
        Phrase::NamesDeniedFiles {
            count: 2,
            files: s(".env, secrets.txt"),
            source: s("settings.json"),
            pattern: s(".env"),
        },
        Phrase::AreaSystemFiles,
        Phrase::AreaCredentials,
        Phrase::AreaLoginFile,
        Phrase::GuardUnreadable,
        Phrase::GuardNestedTooDeep,
        Phrase::GuardWritesProtected {
            command: s("command-value"),
            target: s("target-value"),
            what: Box::new(Phrase::AreaCredentials),
            area: s("area-value"),
        },
        Phrase::GuardDeletesProtected {
            command: s("command-value"),
            target: s("target-value"),
            what: Box::new(Phrase::AreaCredentials),
            area: s("area-value"),
        },
        Phrase::GuardScriptFromCommand {
            program: s("program-value"),
            producer: s("producer-value"),
        },
        Phrase::GuardProgramUnknown {
            program: s("program-value"),
        },
        Phrase::GuardScriptUnknown {
            command: s("command-value"),
        },
        Phrase::GuardFindDeletesProtected {
            command: s("command-value"),
            start: s("start-value"),
            area: s("area-value"),
            what: Box::new(Phrase::AreaCredentials),
        },
        Phrase::GuardFindChangesProtected {
            command: s("command-value"),
            start: s("start-value"),
            area: s("area-value"),
            what: Box::new(Phrase::AreaCredentials),
        },
        Phrase::GuardXargsChangesProtected {
            command: s("command-value"),
            source: s("source-value"),
            area: s("area-value"),
            what: Box::new(Phrase::AreaCredentials),
        },
        Phrase::GuardCodeUnknown {
            snippet: s("snippet-value"),
        },
        Phrase::GuardInlineCodeProtected {
            area: s("area-value"),
            what: Box::new(Phrase::AreaCredentials),
        },
        Phrase::GuardInlineCodeOutside {
            path: s("path-value"),
        },
        Phrase::GuardRmVariableRoot {
            target: s("target-value"),
        },
        Phrase::GuardDeletesMainBranch,
        Phrase::GuardForcePushMain,
        Phrase::GuardAtJobsRemoved {
            command: s("command-value"),
        },
        Phrase::GuardCrontabRemoved {
            command: s("command-value"),
        },
        Phrase::GuardCrontabReplaced {
            command: s("command-value"),
            source: s("source-value"),
        },
        Phrase::GuardCrontabReplacedFromStdin {
            command: s("command-value"),
        },
        Phrase::GuardPermissionsHome {
            command: s("command-value"),
            folder: s("folder-value"),
        },
        Phrase::GuardPermissionsSystem {
            command: s("command-value"),
            folder: s("folder-value"),
        },
        Phrase::GuardGitOutside {
            command: s("command-value"),
            subcommand: s("subcommand-value"),
            folder: s("folder-value"),
        },
        Phrase::FolderNotFullPath {
            path: s("path-value"),
        },
        Phrase::FolderMissing {
            path: s("path-value"),
        },
        Phrase::FolderNotPermitted {
            path: s("path-value"),
        },
        Phrase::FolderUnreadable {
            path: s("path-value"),
            error: s("error-value"),
        },
        Phrase::FolderIsFile {
            path: s("path-value"),
        },
        Phrase::FolderNotListable {
            path: s("path-value"),
        },
        Phrase::FolderUnlistable {
            path: s("path-value"),
            error: s("error-value"),
        },
        Phrase::ReachRefused,
        Phrase::ReachNoHost,
        Phrase::ReachTls,
        Phrase::ReachReset,
        Phrase::ReachNoRoute,
        Phrase::ReachTimedOut,
        Phrase::ReachFailed,
        Phrase::CouldNotReach {
            target: s("target-value"),
            reason: Box::new(Phrase::AreaCredentials),
        },
        Phrase::CouldNotReachRunning {
            target: s("target-value"),
        },
        Phrase::CouldNotReachOnline {
            target: s("target-value"),
        },
        Phrase::ConnectChooseModel,
        Phrase::ConnectNoKey {
            base_url: s("base_url-value"),
        },
        Phrase::ConnectBadUrl {
            error: s("error-value"),
        },
        Phrase::ConnectOk {
            model: s("model-value"),
            base_url: s("base_url-value"),
        },
        Phrase::ConnectTimeout {
            base_url: s("base_url-value"),
            seconds: 2,
        },
        Phrase::ConnectKeyRefused {
            detail: s("detail-value"),
        },
        Phrase::ConnectSlow {
            base_url: s("base_url-value"),
            detail: s("detail-value"),
        },
        Phrase::ConnectNothing {
            base_url: s("base_url-value"),
            detail: s("detail-value"),
        },
        Phrase::ConnectNoModel {
            base_url: s("base_url-value"),
            model: s("model-value"),
            detail: s("detail-value"),
        },
        Phrase::ConnectBusy {
            detail: s("detail-value"),
        },
        Phrase::ConnectFailed {
            detail: s("detail-value"),
        },
        Phrase::AnsweredHttp {
            status: 2,
            path: s("path-value"),
        },
        Phrase::AnsweredNotJson {
            path: s("path-value"),
        },
        Phrase::AnsweredNoModelList {
            list_key: s("list_key-value"),
        },
        Phrase::AnsweredNoModels {
            path: s("path-value"),
        },
        Phrase::SessionNotFound { id: s("id-value") },
        Phrase::SessionNotOpen { id: s("id-value") },
        Phrase::SessionNotOpenResume { id: s("id-value") },
        Phrase::SessionNoEvent {
            id: s("id-value"),
            seq: 2,
        },
        Phrase::SessionNoEventPastLast {
            id: s("id-value"),
            seq: 2,
            last: 2,
        },
        Phrase::EventNotTurnStart {
            id: s("id-value"),
            seq: 2,
            kind: s("kind-value"),
        },
        Phrase::EventNotToolEnd {
            id: s("id-value"),
            seq: 2,
            kind: s("kind-value"),
        },
        Phrase::SessionTitleEmpty,
        Phrase::SessionTitleTooLong { max: 2 },
        Phrase::NotAFileName {
            path: s("path-value"),
        },
        Phrase::PageNeedsTurn,
        Phrase::PageBothWays,
        Phrase::PageBeforeZero,
        Phrase::PageStartsAtZero,
        Phrase::SubagentTakesNoInput,
        Phrase::HomeUnresolved {
            error: s("error-value"),
        },
        Phrase::KeychainFailed {
            error: s("error-value"),
        },
        Phrase::CheckpointsFailed {
            error: s("error-value"),
        },
        Phrase::NoBuiltinTool {
            name: s("name-value"),
        },
        Phrase::NoApprovalRule { id: s("id-value") },
        Phrase::RulesNotExported {
            error: s("error-value"),
        },
        Phrase::NotAFolder {
            path: s("path-value"),
        },
        Phrase::CheckpointsOff,
        Phrase::FolderNotGitRepo,
        Phrase::ChangesNotTracked {
            reason: s("reason-value"),
        },
        Phrase::NothingToRevert {
            path: s("path-value"),
        },
        Phrase::ChangedSinceShown {
            path: s("path-value"),
        },
        Phrase::RevertNotText {
            path: s("path-value"),
        },
        Phrase::NoSuchHunk {
            path: s("path-value"),
            hunks: 2,
            hunk: 2,
        },
        Phrase::ChangedWhileReverting {
            path: s("path-value"),
        },
        Phrase::OverSizeCap {
            path: s("path-value"),
        },
        Phrase::NoProviderNamed {
            provider: s("provider-value"),
        },
        Phrase::ApiKeyEmpty,
        Phrase::ApiKeyMalformed,
        Phrase::PromptReportNeedsSession,
        Phrase::McpServerNotFound {
            name: s("name-value"),
        },
        Phrase::McpServerUntrusted {
            name: s("name-value"),
        },
        Phrase::McpServerIsStdio {
            name: s("name-value"),
        },
        Phrase::McpSignInFailed {
            name: s("name-value"),
            error: s("error-value"),
        },
        Phrase::PluginInstallStopped {
            error: s("error-value"),
        },
        Phrase::PluginFromClaudeCode { id: s("id-value") },
        Phrase::PluginFolderNeeded,
        Phrase::PluginPathNotAbsolute {
            path: s("path-value"),
        },
        Phrase::UnknownWireApi {
            api: s("api-value"),
        },
        Phrase::BaseUrlScheme {
            url: s("url-value"),
        },
        Phrase::PriceInvalid {
            what: Box::new(Phrase::AreaCredentials),
        },
        Phrase::PriceInput,
        Phrase::PriceOutput,
        Phrase::PriceCachedInput,
        Phrase::ContextWindowZero,
        Phrase::TemperatureRange,
        Phrase::ThinkingBudgetMin,
        Phrase::NotUtf8 {
            path: s("path-value"),
        },
        Phrase::TextTooLarge {
            size_kb: 2,
            max_kb: 2,
        },
        Phrase::InstructionsNeedFolder,
        Phrase::SkillFileNeedsPath,
        Phrase::SkillNeedsName,
        Phrase::SkillNameUnusable {
            name: s("name-value"),
        },
        Phrase::SkillNotFound {
            path: s("path-value"),
        },
        Phrase::SkillNotOurs {
            path: s("path-value"),
        },
        Phrase::BuiltinSkillNotEditable {
            name: s("name-value"),
        },
        Phrase::SkillNeedsDescription,
        Phrase::DescriptionTooLong { max: 2 },
        Phrase::ProjectSkillNeedsFolder,
        Phrase::NewSkillPlace,
        Phrase::AlreadyExistsPickName {
            path: s("path-value"),
        },
        Phrase::SkillNotSaved {
            error: s("error-value"),
        },
        Phrase::SkillNotCreated {
            error: s("error-value"),
        },
        Phrase::SkillNotRenamed {
            error: s("error-value"),
        },
        Phrase::BuiltinSkillsNotRenamed,
        Phrase::BuiltinSkillsNotDeleted,
        Phrase::HasNoFolder {
            path: s("path-value"),
        },
        Phrase::HasNoParentFolder {
            path: s("path-value"),
        },
        Phrase::SkillNoFrontMatter,
        Phrase::SkillFrontMatterUnclosed,
        Phrase::WorktreeNeedsCommitMessage,
        Phrase::NotInGitRepo {
            path: s("path-value"),
        },
        Phrase::RepoHasNoCommit {
            path: s("path-value"),
        },
        Phrase::WorktreeNotFound { id: s("id-value") },
        Phrase::WorktreeMissing {
            id: s("id-value"),
            reason: Box::new(Phrase::FolderGone {
                path: s("path-value"),
            }),
        },
        Phrase::MergeStoppedOnConflicts {
            branch: s("branch-value"),
            base: s("base-value"),
            files: s("files-value"),
        },
        Phrase::DiscardLosesFiles {
            files: s("files-value"),
        },
        Phrase::DiscardLosesCommits {
            commits: s("commits-value"),
        },
        Phrase::DiscardLosesBoth {
            files: s("files-value"),
            commits: s("commits-value"),
        },
        Phrase::SystemFileReplaces,
        Phrase::SystemFileAppends,
        Phrase::McpNotTrusted {
            file: s("file-value"),
        },
        Phrase::McpTurnedOff,
        Phrase::McpNotStarted,
        Phrase::McpServerNotInConfig {
            name: s("name-value"),
        },
        Phrase::McpServerExists {
            name: s("name-value"),
            source: s("source-value"),
        },
        Phrase::McpActiveServersBad {
            setting: s("setting-value"),
            error: s("error-value"),
        },
        Phrase::McpToolNotIncluded {
            server: s("server-value"),
            tool: s("tool-value"),
        },
        Phrase::McpValueEnv,
        Phrase::McpValueHeader,
        Phrase::McpValueNoName {
            what: Box::new(Phrase::AreaCredentials),
        },
        Phrase::McpValueBadName {
            what: Box::new(Phrase::AreaCredentials),
            name: s("name-value"),
        },
        Phrase::McpValueTwice {
            what: Box::new(Phrase::AreaCredentials),
            name: s("name-value"),
        },
        Phrase::McpValueLineBreak {
            name: s("name-value"),
        },
        Phrase::McpValueMissing {
            what: Box::new(Phrase::AreaCredentials),
            name: s("name-value"),
        },
        Phrase::McpStdioNeedsCommand,
        Phrase::McpHttpNeedsUrl,
        Phrase::McpServerDefinedElsewhere {
            name: s("name-value"),
            file: s("file-value"),
        },
        Phrase::NoTrustDecision {
            folder: s("folder-value"),
        },
        Phrase::WorktreeDetachedAtStart {
            path: s("path-value"),
        },
        Phrase::WorktreeBaseBranchGone {
            base: s("base-value"),
        },
        Phrase::WorktreeCheckoutOnOtherBranch {
            path: s("path-value"),
            current: s("current-value"),
            base: s("base-value"),
        },
        Phrase::WorktreeCheckoutDetached {
            path: s("path-value"),
            base: s("base-value"),
        },
        Phrase::WorktreeCheckoutMidMerge {
            path: s("path-value"),
        },
        Phrase::WorktreeCheckoutOverlaps {
            path: s("path-value"),
            files: s("files-value"),
        },
        Phrase::WorktreeStillThere {
            path: s("path-value"),
        },
        Phrase::RuleCommandExactly {
            pattern: s("pattern-value"),
        },
        Phrase::RuleCommandPrefix {
            pattern: s("pattern-value"),
        },
        Phrase::RulePattern {
            pattern: s("pattern-value"),
        },
        Phrase::RuleRunWithoutAsking {
            rules: vec![Phrase::AreaCredentials],
        },
        Phrase::RuleChangeWithoutAsking {
            rules: vec![Phrase::AreaCredentials],
        },
        Phrase::RuleMcpWithoutAsking {
            rules: vec![Phrase::AreaCredentials],
        },
        Phrase::RuleFetchWithoutAsking {
            rules: vec![Phrase::AreaCredentials],
        },
        Phrase::TurnStoppedBeforeAnswer,
        Phrase::SessionStoppedBeforeAnswer,
        Phrase::WorktreeUnlinked {
            path: s("path-value"),
            repo: s("repo-value"),
        },
        Phrase::FolderGone {
            path: s("path-value"),
        },
        Phrase::RepositoryGone {
            path: s("path-value"),
        },
        Phrase::AsSaid {
            text: s("text-value"),
        },
        Phrase::McpServerNotConfigured {
            name: s("name-value"),
        },
        Phrase::McpCommandNotFound {
            command: s("command-value"),
            path: s("path-value"),
        },
        Phrase::McpCouldNotStart {
            command: s("command-value"),
            error: s("error-value"),
        },
        Phrase::McpStartupTimeout {
            seconds: s("seconds-value"),
        },
        Phrase::McpNeedsLogin {
            server: s("server-value"),
        },
        Phrase::McpCallTimeout {
            seconds: s("seconds-value"),
        },
        Phrase::McpNotAvailable {
            server: s("server-value"),
            state: s("state-value"),
        },
        Phrase::McpServerAnsweredError {
            number: s("number-value"),
            error: s("error-value"),
        },
        Phrase::McpConnectionClosed,
        Phrase::McpClosedInHandshake,
        Phrase::McpHandshakeFailed {
            error: s("error-value"),
        },
        Phrase::McpExitedInHandshake {
            exit: Box::new(Phrase::AreaCredentials),
        },
        Phrase::McpProcessEnded {
            exit: Box::new(Phrase::AreaCredentials),
        },
        Phrase::ProcessExitedWithCode {
            status: s("status-value"),
        },
        Phrase::ProcessKilledBySignal {
            signal: s("signal-value"),
        },
        Phrase::ProcessExited,
        Phrase::McpUnauthorized,
        Phrase::McpHttpStatus {
            url: s("url-value"),
            status: s("status-value"),
        },
        Phrase::McpNotEventStream {
            url: s("url-value"),
        },
        Phrase::McpEventStreamBroke {
            error: s("error-value"),
        },
        Phrase::McpEventStreamEnded,
        Phrase::McpNoEndpoint,
        Phrase::McpBadEndpoint {
            endpoint: s("endpoint-value"),
            error: s("error-value"),
        },
        Phrase::McpEndpointOffOrigin {
            endpoint: s("endpoint-value"),
        },
        Phrase::McpGaveUp {
            reason: Box::new(Phrase::AreaCredentials),
            count: 2,
        },
        Phrase::McpRestartingIn {
            reason: Box::new(Phrase::AreaCredentials),
            seconds: s("seconds-value"),
        },
        Phrase::McpRestartingAfter {
            reason: Box::new(Phrase::AreaCredentials),
        },
        Phrase::AcpAllowOnce,
        Phrase::AcpAllowForSession,
        Phrase::AcpAllowAlwaysHere,
        Phrase::AcpAllowAlwaysHereTo {
            rule: Box::new(Phrase::AreaCredentials),
        },
        Phrase::AcpDeny,
        Phrase::AcpInitializeFirst,
        Phrase::AcpKeyMethod,
        Phrase::AcpKeyMethodHow {
            provider: s("provider-value"),
        },
        Phrase::AcpNoSession { id: s("id-value") },
        Phrase::AcpTurnRunning,
        Phrase::AcpTurnFailed,
        Phrase::AcpSessionEnded,
        Phrase::AcpModeAuto,
        Phrase::AcpModeAutoEffect,
        Phrase::AcpModeStrict,
        Phrase::AcpModeStrictEffect,
        Phrase::AcpModeDangerous,
        Phrase::AcpModeDangerousEffect,
        Phrase::AcpCwdNotAbsolute {
            path: s("path-value"),
        },
        Phrase::AcpCwdMissing {
            path: s("path-value"),
        },
        Phrase::SessionHeldElsewhere {
            program: s("program-value"),
            pid: s("pid-value"),
        },
        Phrase::ExternalAgentNotInConfig {
            name: s("name-value"),
        },
        Phrase::ExternalAgentExists {
            name: s("name-value"),
        },
        Phrase::ExternalAgentNameBad {
            name: s("name-value"),
        },
        Phrase::ExternalAgentCommandMissing,
        Phrase::ExternalAgentNotFound {
            command: s("command-value"),
            install: s("install-value"),
        },
        Phrase::ExternalAgentFailed {
            name: s("name-value"),
            message: s("message-value"),
        },
        Phrase::ExternalAgentSignIn {
            name: s("name-value"),
        },
        Phrase::ExternalAgentSessionOnly {
            what: s("what-value"),
        },
        Phrase::ExternalAgentSettingRefused {
            setting: s("setting-value"),
            value: s("value-value"),
            message: s("message-value"),
        },
        Phrase::GitUnavailable {
            error: s("error-value"),
        },
        Phrase::GitFailed {
            command: s("command-value"),
            output: s("output-value"),
        },
        Phrase::GitNotARepository {
            path: s("path-value"),
        },
        Phrase::GitChangedSinceShown {
            path: s("path-value"),
        },
        Phrase::GitHunkNotInIndex {
            path: s("path-value"),
        },
        Phrase::GitOperationInProgress {
            operation: s("operation-value"),
        },
        Phrase::GitNoIdentity,
        Phrase::GitNothingStaged,
        Phrase::GitEmptyMessage,
        Phrase::GitSecretsStaged { count: 1 },
        Phrase::GitCommitRefused {
            output: s("output-value"),
        },
        Phrase::GitDetachedHead,
        Phrase::GitNoSuchRemote {
            remote: s("remote-value"),
        },
        Phrase::GitNoRemote,
        Phrase::GitPushProtected {
            remote: s("remote-value"),
            branch: s("branch-value"),
        },
        Phrase::GitPushLeaseStale {
            remote: s("remote-value"),
            branch: s("branch-value"),
        },
        Phrase::GitPushBehind {
            remote: s("remote-value"),
            branch: s("branch-value"),
        },
        Phrase::GitPushAuth {
            remote: s("remote-value"),
        },
        Phrase::GitPushRemoteRefused {
            remote: s("remote-value"),
            branch: s("branch-value"),
        },
        Phrase::GitPullRequestFailed {
            command: s("command-value"),
            output: s("output-value"),
        },
        Phrase::GitNoForgeCli {
            url: s("url-value"),
        },
        Phrase::GitNoForge,
        Phrase::GitHunkCommitted {
            path: s("path-value"),
        },
    ];
    for phrase in &all {
        match phrase {
            Phrase::RunCommand { .. }
            | Phrase::OutsideSandbox { .. }
            | Phrase::OutsideSandboxUnjustified
            | Phrase::SendToSession { .. }
            | Phrase::WaitOnSession { .. }
            | Phrase::OverwriteFile { .. }
            | Phrase::CreateFile { .. }
            | Phrase::DeleteFile { .. }
            | Phrase::MoveFile { .. }
            | Phrase::EditFile { .. }
            | Phrase::TypedLine { .. }
            | Phrase::ToolRuns { .. }
            | Phrase::SaveMemory { .. }
            | Phrase::FetchUrl { .. }
            | Phrase::McpToolRuns { .. }
            | Phrase::McpRatedReadOnly
            | Phrase::McpRatedByNameAgainstServer
            | Phrase::McpRatedByName
            | Phrase::HookAsks { .. }
            | Phrase::HookAsksSilently
            | Phrase::NamesDeniedFiles { .. }
            | Phrase::AreaSystemFiles
            | Phrase::AreaCredentials
            | Phrase::AreaLoginFile
            | Phrase::GuardUnreadable
            | Phrase::GuardNestedTooDeep
            | Phrase::GuardWritesProtected { .. }
            | Phrase::GuardDeletesProtected { .. }
            | Phrase::GuardScriptFromCommand { .. }
            | Phrase::GuardProgramUnknown { .. }
            | Phrase::GuardScriptUnknown { .. }
            | Phrase::GuardFindDeletesProtected { .. }
            | Phrase::GuardFindChangesProtected { .. }
            | Phrase::GuardXargsChangesProtected { .. }
            | Phrase::GuardCodeUnknown { .. }
            | Phrase::GuardInlineCodeProtected { .. }
            | Phrase::GuardInlineCodeOutside { .. }
            | Phrase::GuardRmVariableRoot { .. }
            | Phrase::GuardDeletesMainBranch
            | Phrase::GuardForcePushMain
            | Phrase::GuardAtJobsRemoved { .. }
            | Phrase::GuardCrontabRemoved { .. }
            | Phrase::GuardCrontabReplaced { .. }
            | Phrase::GuardCrontabReplacedFromStdin { .. }
            | Phrase::GuardPermissionsHome { .. }
            | Phrase::GuardPermissionsSystem { .. }
            | Phrase::GuardGitOutside { .. }
            | Phrase::FolderNotFullPath { .. }
            | Phrase::FolderMissing { .. }
            | Phrase::FolderNotPermitted { .. }
            | Phrase::FolderUnreadable { .. }
            | Phrase::FolderIsFile { .. }
            | Phrase::FolderNotListable { .. }
            | Phrase::FolderUnlistable { .. }
            | Phrase::ReachRefused
            | Phrase::ReachNoHost
            | Phrase::ReachTls
            | Phrase::ReachReset
            | Phrase::ReachNoRoute
            | Phrase::ReachTimedOut
            | Phrase::ReachFailed
            | Phrase::CouldNotReach { .. }
            | Phrase::CouldNotReachRunning { .. }
            | Phrase::CouldNotReachOnline { .. }
            | Phrase::ConnectChooseModel
            | Phrase::ConnectNoKey { .. }
            | Phrase::ConnectBadUrl { .. }
            | Phrase::ConnectOk { .. }
            | Phrase::ConnectTimeout { .. }
            | Phrase::ConnectKeyRefused { .. }
            | Phrase::ConnectSlow { .. }
            | Phrase::ConnectNothing { .. }
            | Phrase::ConnectNoModel { .. }
            | Phrase::ConnectBusy { .. }
            | Phrase::ConnectFailed { .. }
            | Phrase::AnsweredHttp { .. }
            | Phrase::AnsweredNotJson { .. }
            | Phrase::AnsweredNoModelList { .. }
            | Phrase::AnsweredNoModels { .. }
            | Phrase::SessionNotFound { .. }
            | Phrase::SessionNotOpen { .. }
            | Phrase::SessionNotOpenResume { .. }
            | Phrase::SessionNoEvent { .. }
            | Phrase::SessionNoEventPastLast { .. }
            | Phrase::EventNotTurnStart { .. }
            | Phrase::EventNotToolEnd { .. }
            | Phrase::SessionTitleEmpty
            | Phrase::SessionTitleTooLong { .. }
            | Phrase::NotAFileName { .. }
            | Phrase::PageNeedsTurn
            | Phrase::PageBothWays
            | Phrase::PageBeforeZero
            | Phrase::PageStartsAtZero
            | Phrase::SubagentTakesNoInput
            | Phrase::HomeUnresolved { .. }
            | Phrase::KeychainFailed { .. }
            | Phrase::CheckpointsFailed { .. }
            | Phrase::NoBuiltinTool { .. }
            | Phrase::NoApprovalRule { .. }
            | Phrase::RulesNotExported { .. }
            | Phrase::NotAFolder { .. }
            | Phrase::CheckpointsOff
            | Phrase::FolderNotGitRepo
            | Phrase::ChangesNotTracked { .. }
            | Phrase::NothingToRevert { .. }
            | Phrase::ChangedSinceShown { .. }
            | Phrase::RevertNotText { .. }
            | Phrase::NoSuchHunk { .. }
            | Phrase::ChangedWhileReverting { .. }
            | Phrase::OverSizeCap { .. }
            | Phrase::NoProviderNamed { .. }
            | Phrase::ApiKeyEmpty
            | Phrase::ApiKeyMalformed
            | Phrase::PromptReportNeedsSession
            | Phrase::McpServerNotFound { .. }
            | Phrase::McpServerUntrusted { .. }
            | Phrase::McpServerIsStdio { .. }
            | Phrase::McpSignInFailed { .. }
            | Phrase::PluginInstallStopped { .. }
            | Phrase::PluginFromClaudeCode { .. }
            | Phrase::PluginFolderNeeded
            | Phrase::PluginPathNotAbsolute { .. }
            | Phrase::UnknownWireApi { .. }
            | Phrase::BaseUrlScheme { .. }
            | Phrase::PriceInvalid { .. }
            | Phrase::PriceInput
            | Phrase::PriceOutput
            | Phrase::PriceCachedInput
            | Phrase::ContextWindowZero
            | Phrase::TemperatureRange
            | Phrase::ThinkingBudgetMin
            | Phrase::NotUtf8 { .. }
            | Phrase::TextTooLarge { .. }
            | Phrase::InstructionsNeedFolder
            | Phrase::SkillFileNeedsPath
            | Phrase::SkillNeedsName
            | Phrase::SkillNameUnusable { .. }
            | Phrase::SkillNotFound { .. }
            | Phrase::SkillNotOurs { .. }
            | Phrase::BuiltinSkillNotEditable { .. }
            | Phrase::SkillNeedsDescription
            | Phrase::DescriptionTooLong { .. }
            | Phrase::ProjectSkillNeedsFolder
            | Phrase::NewSkillPlace
            | Phrase::AlreadyExistsPickName { .. }
            | Phrase::SkillNotSaved { .. }
            | Phrase::SkillNotCreated { .. }
            | Phrase::SkillNotRenamed { .. }
            | Phrase::BuiltinSkillsNotRenamed
            | Phrase::BuiltinSkillsNotDeleted
            | Phrase::HasNoFolder { .. }
            | Phrase::HasNoParentFolder { .. }
            | Phrase::SkillNoFrontMatter
            | Phrase::SkillFrontMatterUnclosed
            | Phrase::WorktreeNeedsCommitMessage
            | Phrase::NotInGitRepo { .. }
            | Phrase::RepoHasNoCommit { .. }
            | Phrase::WorktreeNotFound { .. }
            | Phrase::WorktreeMissing { .. }
            | Phrase::MergeStoppedOnConflicts { .. }
            | Phrase::DiscardLosesFiles { .. }
            | Phrase::DiscardLosesCommits { .. }
            | Phrase::DiscardLosesBoth { .. }
            | Phrase::SystemFileReplaces
            | Phrase::SystemFileAppends
            | Phrase::McpNotTrusted { .. }
            | Phrase::McpTurnedOff
            | Phrase::McpNotStarted
            | Phrase::McpServerNotInConfig { .. }
            | Phrase::McpServerExists { .. }
            | Phrase::McpActiveServersBad { .. }
            | Phrase::McpToolNotIncluded { .. }
            | Phrase::McpValueEnv
            | Phrase::McpValueHeader
            | Phrase::McpValueNoName { .. }
            | Phrase::McpValueBadName { .. }
            | Phrase::McpValueTwice { .. }
            | Phrase::McpValueLineBreak { .. }
            | Phrase::McpValueMissing { .. }
            | Phrase::McpStdioNeedsCommand
            | Phrase::McpHttpNeedsUrl
            | Phrase::McpServerDefinedElsewhere { .. }
            | Phrase::NoTrustDecision { .. }
            | Phrase::WorktreeDetachedAtStart { .. }
            | Phrase::WorktreeBaseBranchGone { .. }
            | Phrase::WorktreeCheckoutOnOtherBranch { .. }
            | Phrase::WorktreeCheckoutDetached { .. }
            | Phrase::WorktreeCheckoutMidMerge { .. }
            | Phrase::WorktreeCheckoutOverlaps { .. }
            | Phrase::WorktreeStillThere { .. }
            | Phrase::RuleCommandExactly { .. }
            | Phrase::RuleCommandPrefix { .. }
            | Phrase::RulePattern { .. }
            | Phrase::RuleRunWithoutAsking { .. }
            | Phrase::RuleChangeWithoutAsking { .. }
            | Phrase::RuleMcpWithoutAsking { .. }
            | Phrase::RuleFetchWithoutAsking { .. }
            | Phrase::TurnStoppedBeforeAnswer
            | Phrase::SessionStoppedBeforeAnswer
            | Phrase::WorktreeUnlinked { .. }
            | Phrase::FolderGone { .. }
            | Phrase::RepositoryGone { .. }
            | Phrase::AsSaid { .. }
            | Phrase::McpServerNotConfigured { .. }
            | Phrase::McpCommandNotFound { .. }
            | Phrase::McpCouldNotStart { .. }
            | Phrase::McpStartupTimeout { .. }
            | Phrase::McpNeedsLogin { .. }
            | Phrase::McpCallTimeout { .. }
            | Phrase::McpNotAvailable { .. }
            | Phrase::McpServerAnsweredError { .. }
            | Phrase::McpConnectionClosed
            | Phrase::McpClosedInHandshake
            | Phrase::McpHandshakeFailed { .. }
            | Phrase::McpExitedInHandshake { .. }
            | Phrase::McpProcessEnded { .. }
            | Phrase::ProcessExitedWithCode { .. }
            | Phrase::ProcessKilledBySignal { .. }
            | Phrase::ProcessExited
            | Phrase::McpUnauthorized
            | Phrase::McpHttpStatus { .. }
            | Phrase::McpNotEventStream { .. }
            | Phrase::McpEventStreamBroke { .. }
            | Phrase::McpEventStreamEnded
            | Phrase::McpNoEndpoint
            | Phrase::McpBadEndpoint { .. }
            | Phrase::McpEndpointOffOrigin { .. }
            | Phrase::McpGaveUp { .. }
            | Phrase::McpRestartingIn { .. }
            | Phrase::McpRestartingAfter { .. }
            | Phrase::AcpAllowOnce
            | Phrase::AcpAllowForSession
            | Phrase::AcpAllowAlwaysHere
            | Phrase::AcpAllowAlwaysHereTo { .. }
            | Phrase::AcpDeny
            | Phrase::AcpInitializeFirst
            | Phrase::AcpKeyMethod
            | Phrase::AcpKeyMethodHow { .. }
            | Phrase::AcpNoSession { .. }
            | Phrase::AcpTurnRunning
            | Phrase::AcpTurnFailed
            | Phrase::AcpSessionEnded
            | Phrase::AcpModeAuto
            | Phrase::AcpModeAutoEffect
            | Phrase::AcpModeStrict
            | Phrase::AcpModeStrictEffect
            | Phrase::AcpModeDangerous
            | Phrase::AcpModeDangerousEffect
            | Phrase::AcpCwdNotAbsolute { .. }
            | Phrase::AcpCwdMissing { .. }
            | Phrase::SessionHeldElsewhere { .. }
            | Phrase::ExternalAgentNotInConfig { .. }
            | Phrase::ExternalAgentExists { .. }
            | Phrase::ExternalAgentNameBad { .. }
            | Phrase::ExternalAgentCommandMissing
            | Phrase::ExternalAgentNotFound { .. }
            | Phrase::ExternalAgentFailed { .. }
            | Phrase::ExternalAgentSignIn { .. }
            | Phrase::ExternalAgentSessionOnly { .. }
            | Phrase::ExternalAgentSettingRefused { .. }
            | Phrase::GitUnavailable { .. }
            | Phrase::GitFailed { .. }
            | Phrase::GitNotARepository { .. }
            | Phrase::GitChangedSinceShown { .. }
            | Phrase::GitHunkNotInIndex { .. }
            | Phrase::GitOperationInProgress { .. }
            | Phrase::GitNoIdentity
            | Phrase::GitNothingStaged
            | Phrase::GitEmptyMessage
            | Phrase::GitSecretsStaged { .. }
            | Phrase::GitCommitRefused { .. }
            | Phrase::GitDetachedHead
            | Phrase::GitNoSuchRemote { .. }
            | Phrase::GitNoRemote
            | Phrase::GitPushProtected { .. }
            | Phrase::GitPushLeaseStale { .. }
            | Phrase::GitPushBehind { .. }
            | Phrase::GitPushAuth { .. }
            | Phrase::GitPushRemoteRefused { .. }
            | Phrase::GitPullRequestFailed { .. }
            | Phrase::GitNoForgeCli { .. }
            | Phrase::GitNoForge
            | Phrase::GitHunkCommitted { .. } => {}
        }
    }
    all
}

fn placeholders(template: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        out.insert(after[..end].trim().to_owned());
        rest = &after[end + 2..];
    }
    out
}

#[test]
fn the_english_catalog_parses() {
    let parsed: HashMap<String, String> = serde_json::from_str(ENGLISH).unwrap();
    assert!(!parsed.is_empty());
}

#[test]
fn every_phrase_has_its_english_with_exactly_its_fields() {
    let catalog = english_catalog();
    let mut used = BTreeSet::new();
    for phrase in every_phrase() {
        let value = serde_json::to_value(&phrase).unwrap();
        let object = value.as_object().unwrap();
        let code = object["code"].as_str().unwrap().to_owned();
        let fields: BTreeSet<String> = object.keys().filter(|k| *k != "code").cloned().collect();
        let keys: Vec<String> = if object.contains_key("count") {
            vec![format!("{code}_one"), format!("{code}_other")]
        } else {
            vec![code.clone()]
        };
        for key in keys {
            let template = catalog
                .get(&key)
                .unwrap_or_else(|| panic!("phrases.json has no \"{key}\""));
            // `count` picks the plural entry; the sentence need not say it.
            let mut wanted = fields.clone();
            let mut found = placeholders(template);
            wanted.remove("count");
            found.remove("count");
            assert_eq!(found, wanted, "the placeholders of \"{key}\"");
            used.insert(key);
        }
        let english = phrase.english();
        assert!(
            !english.contains("{{") && !english.is_empty(),
            "{code}: {english}"
        );
    }
    let unused: Vec<&String> = catalog.keys().filter(|k| !used.contains(*k)).collect();
    assert!(unused.is_empty(), "entries no phrase uses: {unused:?}");
}

#[test]
fn a_nested_phrase_and_a_plural_are_worded() {
    let phrase = Phrase::McpToolRuns {
        server: "files".into(),
        tool: "write".into(),
        rated: Box::new(Phrase::McpRatedReadOnly),
    };
    assert_eq!(
        phrase.english(),
        "the MCP server \"files\" would run its tool \"write\" (the server marks it read-only)"
    );
    let one = Phrase::NamesDeniedFiles {
        count: 1,
        files: ".env".into(),
        source: "settings.json".into(),
        pattern: ".env".into(),
    };
    assert!(
        one.english()
            .starts_with("it names .env, which a rule denies"),
        "{one}"
    );
    let list = Phrase::english_list(&[
        Phrase::RunCommand {
            command: "ls".into(),
        },
        Phrase::HookAsksSilently,
    ]);
    assert_eq!(list, "run `ls`; a PreToolUse hook asks");
}

#[test]
fn serialized_with_its_code_beside_its_fields() {
    let value = serde_json::to_value(Phrase::CreateFile {
        path: "a".into(),
        added: 3,
    })
    .unwrap();
    assert_eq!(
        value,
        serde_json::json!({"code": "create_file", "path": "a", "added": 3})
    );
}
