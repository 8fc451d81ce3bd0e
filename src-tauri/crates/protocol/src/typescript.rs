//! Renders the TypeScript declarations of the protocol into one file for the UI
//! (`ui/src/gen/protocol.ts`). A test compares the committed file with a fresh rendering,
//! so a Rust change that is not regenerated fails CI.

use ts_rs::{Config, TS};

use crate::*;

/// Where the generated file lives, relative to the repository root.
pub const GENERATED_PATH: &str = "ui/src/gen/protocol.ts";

pub fn render() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = [
        <serde_json::Value as TS>::decl(&cfg),
        SessionId::decl(&cfg),
        TurnId::decl(&cfg),
        ToolCallId::decl(&cfg),
        ApprovalId::decl(&cfg),
        Op::decl(&cfg),
        UserInput::decl(&cfg),
        ImageInput::decl(&cfg),
        RiskLevel::decl(&cfg),
        ApprovalRequest::decl(&cfg),
        FileDiff::decl(&cfg),
        DiffHunk::decl(&cfg),
        EditChoice::decl(&cfg),
        ReviewDecision::decl(&cfg),
        EventEnvelope::decl(&cfg),
        AgentEvent::decl(&cfg),
        ToolCallSummary::decl(&cfg),
        HookEventName::decl(&cfg),
        HookVerdict::decl(&cfg),
        HookRunStatus::decl(&cfg),
        HookRunSummary::decl(&cfg),
        SubagentRef::decl(&cfg),
        SubagentState::decl(&cfg),
        AgentSource::decl(&cfg),
        AgentInfo::decl(&cfg),
        AgentsPage::decl(&cfg),
        ToolStatus::decl(&cfg),
        ToolErrorKind::decl(&cfg),
        McpServerState::decl(&cfg),
        ErrorKind::decl(&cfg),
        TurnEndReason::decl(&cfg),
        TokenUsage::decl(&cfg),
        PlanItem::decl(&cfg),
        PlanStatus::decl(&cfg),
        SessionSummary::decl(&cfg),
        ProviderSummary::decl(&cfg),
        RewindOutcome::decl(&cfg),
        SearchResult::decl(&cfg),
        KeyStatus::decl(&cfg),
        ErrorCode::decl(&cfg),
        AppInfo::decl(&cfg),
        ZoneOffsets::decl(&cfg),
        ZoneChange::decl(&cfg),
        SessionPage::decl(&cfg),
        SessionStatus::decl(&cfg),
        CompletionKind::decl(&cfg),
        Completion::decl(&cfg),
        UsageReport::decl(&cfg),
        ModelUsageReport::decl(&cfg),
        ImportReport::decl(&cfg),
        ExportFormat::decl(&cfg),
        ImportedFile::decl(&cfg),
        ImportFailure::decl(&cfg),
        ImportStatus::decl(&cfg),
        SkippedLine::decl(&cfg),
        InputExpansion::decl(&cfg),
        InputAttachment::decl(&cfg),
        AttachmentKind::decl(&cfg),
        CompactionTrigger::decl(&cfg),
        CompactionStatus::decl(&cfg),
        HostAction::decl(&cfg),
        PromptReport::decl(&cfg),
        TurnSystemPrompt::decl(&cfg),
        PromptHook::decl(&cfg),
        PromptLayer::decl(&cfg),
        PromptLayerKind::decl(&cfg),
        PromptSource::decl(&cfg),
        SourceStatus::decl(&cfg),
        ContextProblem::decl(&cfg),
        ProviderSettings::decl(&cfg),
        ModelProfileInput::decl(&cfg),
        ModelProfileSettings::decl(&cfg),
        ProviderSettingsPage::decl(&cfg),
        ProviderInput::decl(&cfg),
        ProviderChange::decl(&cfg),
        EditableFileKind::decl(&cfg),
        EditableFile::decl(&cfg),
        ConnectionReport::decl(&cfg),
        LocalServer::decl(&cfg),
        SkillScopeKind::decl(&cfg),
        SkillInfo::decl(&cfg),
        SkillsPage::decl(&cfg),
        SkillChange::decl(&cfg),
        PluginSourceKind::decl(&cfg),
        PluginPartInfo::decl(&cfg),
        PluginHookInfo::decl(&cfg),
        PluginServerInfo::decl(&cfg),
        PluginInfo::decl(&cfg),
        PluginsPage::decl(&cfg),
        PluginInstall::decl(&cfg),
        ChangeKind::decl(&cfg),
        FileChange::decl(&cfg),
        ChangeScope::decl(&cfg),
        ChangesReport::decl(&cfg),
        RevertRequest::decl(&cfg),
        RevertResult::decl(&cfg),
        HeldBack::decl(&cfg),
        CheckpointSummary::decl(&cfg),
        RestoreMode::decl(&cfg),
        RestoreAction::decl(&cfg),
        RestoreFile::decl(&cfg),
        RestoreReport::decl(&cfg),
        TrustState::decl(&cfg),
        ApprovalMode::decl(&cfg),
        RuleDecision::decl(&cfg),
        RuleKind::decl(&cfg),
        ApprovalRuleInfo::decl(&cfg),
        RuleInput::decl(&cfg),
        ImportedPermission::decl(&cfg),
        ToolSwitch::decl(&cfg),
        ApprovalSettings::decl(&cfg),
        ProjectPermissionInfo::decl(&cfg),
        ProjectServerInfo::decl(&cfg),
        ProjectPromptFile::decl(&cfg),
        WorkspaceTrustReport::decl(&cfg),
        TrustDecision::decl(&cfg),
        WorktreeState::decl(&cfg),
        WorktreeInfo::decl(&cfg),
        WorktreeFileStatus::decl(&cfg),
        WorktreeFile::decl(&cfg),
        WorktreeCommit::decl(&cfg),
        WorktreeStatus::decl(&cfg),
        WorktreeDiff::decl(&cfg),
        WorktreeMerge::decl(&cfg),
        KeptBranch::decl(&cfg),
        WorktreeDiscard::decl(&cfg),
        WorktreeSession::decl(&cfg),
        McpSourceKind::decl(&cfg),
        McpTransportKind::decl(&cfg),
        McpValueInfo::decl(&cfg),
        McpServerInfo::decl(&cfg),
        McpSettingsPage::decl(&cfg),
        McpCheckState::decl(&cfg),
        McpToolEntry::decl(&cfg),
        McpPromptEntry::decl(&cfg),
        McpResourceEntry::decl(&cfg),
        McpServerCheck::decl(&cfg),
        McpSecretInput::decl(&cfg),
        McpServerInput::decl(&cfg),
        TerminalId::decl(&cfg),
        TerminalMessage::decl(&cfg),
        ActivityState::decl(&cfg),
        PendingApproval::decl(&cfg),
        SessionActivity::decl(&cfg),
        WindowSignal::decl(&cfg),
        PageMessage::decl(&cfg),
        HistoryPage::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from src-tauri/crates/protocol by `cargo run -p memo-protocol --bin gen-ts`.\n\
         // Do not edit by hand: the protocol crate's tests fail when this file is stale.\n\n",
    );
    for decl in decls {
        out.push_str("export ");
        out.push_str(decl.trim());
        out.push_str("\n\n");
    }
    // Constants the UI needs to read values exactly as Rust writes them.
    for (name, mark) in [
        ("SEARCH_MARK_START", SEARCH_MARK_START),
        ("SEARCH_MARK_END", SEARCH_MARK_END),
    ] {
        out.push_str(&format!(
            "export const {name} = \"\\u{{{:04X}}}\";\n\n",
            u32::from(mark)
        ));
    }
    let codes: Vec<String> = ErrorCode::ALL
        .iter()
        .map(|c| format!("\"{}\"", c.as_str()))
        .collect();
    out.push_str(&format!(
        "export const ERROR_CODES: readonly ErrorCode[] = [{}];\n\n",
        codes.join(", ")
    ));
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
