import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";

import { ChatIcon } from "../../components/icons";
import type { CompletionKind, ProviderSummary, WorktreeInfo } from "../../gen/protocol";
import type { ChatController } from "../../state/useChat";
import type { Loadable } from "../../state/useLoadable";
import { modelProblemOf, pendingAsks, revertPointOf, tailLastTurn } from "../../state/chatTail";
import type { TranscriptEntry, TurnView } from "../../state/transcript";
import { useT } from "../../i18n";
import { draftKey } from "../../state/drafts";
import { useRise } from "../../state/useRise";
import { useStickToBottom } from "../../state/useStickToBottom";
import { useWidthClass } from "../../state/useWidthClass";
import { folderName } from "../../state/workspaces";
import { ipc } from "../../ipc";
import { ChangesPanel } from "../changes/ChangesPanel";
import { TerminalIcon } from "../terminal/icons";
import { BranchIcon, WorktreePanel } from "../worktrees";
import { RestoreDialog } from "../changes/RestoreDialog";
import { changedFileCount, changesButtonCount, transcriptChanges, type PanelCount } from "../changes/transcriptChanges";
import { ContextMeter } from "../context/ContextMeter";
import { PromptInspector } from "../context/PromptInspector";
import { stepKeyOf, useSessionStatus } from "../context/useSessionStatus";
import "../context/context.css";
import { ApiKeyPanel, type KeyActions } from "./ApiKeyPanel";
import { ModeControl } from "../approvals/ModeControl";
import { useDefaultApprovalMode } from "../approvals/useDefaultApprovalMode";
import { ChatHeader } from "./ChatHeader";
import { externalAgentOf } from "../../state/externalAgents";
import { Composer } from "./Composer";
import { OpenFolder } from "./OpenFolder";
import { ProviderBanner } from "./ProviderBanner";
import { ResolveApprovalContext } from "./transcript/ApprovalCard";
import { ErrorNotice } from "./transcript/Notices";
import { Transcript } from "./transcript/Transcript";
import { ReadOutputContext } from "./transcript/wholeOutput";
import { SubagentView } from "../subagents/SubagentView";
import "./chat.css";
import "./transcript/transcript.css";
import "../subagents/subagents.css";

const KEY_ACTIONS: KeyActions = {
  status: (provider) => ipc.keyStatus({ provider }),
  save: (provider, key) => ipc.setApiKey({ provider, key }),
  remove: (provider) => ipc.deleteApiKey({ provider }),
};

/** What the user was trying to do when a command failed: its title's key in the catalog. */
const FAILURE_TITLES: Record<string, string> = {
  start_session: "failure.startSession",
  resume_session: "failure.resumeSession",
  subscribe_session: "failure.subscribeSession",
  submit_op: "failure.submitOp",
  send: "failure.send",
  retry: "failure.retry",
  rewind_session: "failure.rewindSession",
  restore_session: "failure.restoreSession",
};

/** What a subagent's view calls the conversation that started it: its title or first message. */
function conversationName(title: string | null, entries: readonly TranscriptEntry[], unnamed: string): string {
  if (title) return title;
  const first = entries.find((entry) => entry.kind === "turn");
  const line = first?.kind === "turn" ? first.input.replace(/\s+/g, " ").trim() : "";
  if (line === "") return unnamed;
  return line.length > 60 ? `“${line.slice(0, 59)}…”` : `“${line}”`;
}

/** Below these widths the header drops detail (tightest first). */
const WIDTH_STEPS: [number, string][] = [
  [560, "chat--compact chat--tight"],
  [760, "chat--compact"],
];

interface ChatViewProps {
  cwd: string | null;
  chat: ChatController;
  providers: Loadable<ProviderSummary[]>;
  /** External agents a new session can run on (config.toml's `[external_agents]`). */
  externalAgents?: string[];
  configPath: string | null;
  onReloadProviders: () => void;
  onOpenSettings: () => void;
  onPickFolder: () => void;
  onOpenPath: (path: string) => void;
  /** Shown under the header: the folder's project servers are off until it is trusted. */
  notice?: ReactNode;
  /** The Memo worktree the open session works in, if it works in one. */
  worktree?: WorktreeInfo | null;
  /** A worktree was merged, kept as a branch or discarded: the lists are stale. */
  onWorktreeChanged?: () => void;
  terminalOpen?: boolean;
  onToggleTerminal?: () => void;
  /** A subagent's session to show once this session's history is in (a search hit in it). */
  agentSessionToOpen?: string | null;
  onAgentSessionOpened?: () => void;
}

/** The side drawer shown: one at a time, since two would squeeze the conversation. */
type Drawer = "changes" | "inspector" | "worktree" | null;

export function ChatView(props: ChatViewProps) {
  const t = useT("chat");
  const { cwd, chat, providers } = props;
  const { state } = chat;
  const { ref: scrollRef, element: scrollBody, pinned, scrollToBottom, unpin } = useStickToBottom();
  const hasTurns = state.transcript.entries.length > 0;
  const sessionId = state.session?.id ?? null;
  const readOutput = useMemo(
    () => (sessionId === null ? null : (seq: number) => ipc.toolOutput({ sessionId, seq })),
    [sessionId],
  );
  const [keyProvider, setKeyProvider] = useState<string | null>(null);
  const [drawer, setDrawer] = useState<Drawer>(null);
  const inspectorOpen = drawer === "inspector";
  const changesOpen = drawer === "changes";
  const toggleDrawer = useCallback((which: Exclude<Drawer, null>) => setDrawer((open) => (open === which ? null : which)), []);
  const { worktree = null } = props;
  const chatRef = useRef<HTMLElement>(null);
  const widthClass = useWidthClass(chatRef, WIDTH_STEPS);
  // The point a restore goes back to: just after `toSeq` (before a message, or a turn).
  // `turnOnly`: the last turn's code (a revert), else a message's point (a rewind); the
  // dialog's title is put in words when shown.
  const [restoreAt, setRestoreAt] = useState<{ toSeq: number; turnOnly: boolean } | null>(null);
  // Stable, so the memoized turns are not all rendered again with every streamed frame.
  const rewindTo = useCallback(
    (turn: TurnView) => setRestoreAt({ toSeq: Math.max(turn.startSeq - 1, 0), turnOnly: false }),
    [],
  );
  // Runs the failed or interrupted turn again: its message is in the conversation already,
  // so sending it anew would put it there twice.
  const { retryTurn } = chat;
  const retry = useCallback((_turn: TurnView) => retryTurn(), [retryTurn]);
  const [restoredTick, setRestoredTick] = useState(0);
  const touched = useMemo(() => transcriptChanges(state.transcript.entries), [state.transcript.entries]);
  // Changes made at the session's end, where tools run: each one reads the status again.
  const tailChanges = useMemo(() => transcriptChanges(state.tail.transcript.entries).records, [state.tail.transcript.entries]);
  // The session's end, not the loaded window's: a page read or let go is no step.
  const stepKey = `${tailLastTurn(state.tail)?.startSeq ?? 0}:${stepKeyOf(state.tail.transcript.entries, state.session?.model ?? null)}:${tailChanges}`;
  const status = useSessionStatus(state.session?.id ?? null, stepKey);
  // What the changes panel last listed: after a revert (or an undo) the button counts that.
  const [panelCount, setPanelCount] = useState<PanelCount | null>(null);
  const changedFiles = changesButtonCount(
    changedFileCount(status, state.session?.id ?? null, touched.paths),
    panelCount,
    state.session?.id ?? null,
    touched.records,
    changesOpen,
  );
  const defaultMode = useDefaultApprovalMode(cwd);
  // The open session's mode as it reports it; before a session, the one it will start in.
  const approvalMode = state.session ? (status?.approval_mode ?? null) : (chat.nextApprovalMode ?? defaultMode.mode);
  // Only the default can come from an unreadable config.toml.
  const modeProblem = state.session === null && chat.nextApprovalMode === null ? defaultMode.problem : null;
  // The provider a key would be for: the open session's, else the one a new session uses.
  const providerInUse =
    state.session?.provider ??
    chat.nextProvider ??
    (providers.status === "ready" ? (providers.value.find((p) => p.is_current)?.name ?? null) : null);
  // An external agent's keys are its own (Settings → External agents), not a provider's.
  const activeProvider = externalAgentOf(providerInUse) === null ? providerInUse : null;

  // A search hit opened this session: once its history is shown, the transcript brings the
  // turn holding the matched event into view (its own layout effect, which runs first);
  // the view stops following the end and the focus is done.
  const { focusSeq, phase } = state;
  const { clearFocus } = chat;
  useEffect(() => {
    if (focusSeq === null || phase !== "idle" || !hasTurns || !scrollBody) return;
    unpin();
    clearFocus();
  }, [focusSeq, phase, hasTurns, scrollBody, clearFocus, unpin]);

  // An external agent's session: named by the agent as it calls itself (once it started),
  // and its context meter only when the agent reports its usage (it keeps its context).
  const external = externalAgentOf(state.session?.provider) !== null;
  // A new session about to run on an external agent says who answers.
  const chosenAgent = state.session === null ? externalAgentOf(chat.nextProvider) : null;
  const headerSession =
    external && state.session && state.transcript.session
      ? { ...state.session, model: state.transcript.session.model }
      : state.session;

  // In the session's own folder: a worktree session's files are its checkout's.
  const completeIn = state.session?.cwd ?? cwd;
  const complete = useCallback(
    (kind: CompletionKind, typed: string) =>
      completeIn === null ? Promise.resolve([]) : ipc.complete({ cwd: completeIn, sessionId, kind, typed }),
    [completeIn, sessionId],
  );

  // The header's dot turns red while the session's newest turn failed to reach the model.
  const modelProblem = useMemo(() => modelProblemOf(state.tail), [state.tail]);

  // A subagent's transcript shown in place of this one (the session goes on meanwhile).
  const [openedAgent, setOpenedAgent] = useState<{ sessionId: string; agentId: string } | null>(null);
  const openAgent = useCallback(
    (agentId: string) => {
      if (sessionId !== null) setOpenedAgent({ sessionId, agentId });
    },
    [sessionId],
  );
  const closeAgent = useCallback(() => setOpenedAgent(null), []);
  const { agentSessionToOpen = null, onAgentSessionOpened } = props;
  useEffect(() => {
    if (agentSessionToOpen === null || sessionId === null || phase !== "idle") return;
    const agent = Object.values(state.transcript.agents).find((a) => a.sessionId === agentSessionToOpen);
    // Not found (its start is in an earlier page of a long session): the parent it is.
    if (agent) setOpenedAgent({ sessionId, agentId: agent.agentId });
    onAgentSessionOpened?.();
  }, [agentSessionToOpen, sessionId, phase, state.transcript.agents, onAgentSessionOpened]);
  const shownAgent =
    openedAgent !== null && openedAgent.sessionId === sessionId ? (state.transcript.agents[openedAgent.agentId] ?? null) : null;

  // Sending a message, or the agent (or one of its subagents) asking for approval or an MCP
  // server for input, brings the newest turn into view even when the user had scrolled up to
  // read: both need their attention now. Read far back in a long session, what is loaded
  // stops short of the live end, so the end is loaded first (and then brought into view,
  // below). Counted from the session's end (its tail), never from what is loaded.
  const { jumpToLatest } = chat;
  const hasNewer = state.history?.after ?? false;
  const waiting = pendingAsks(state.tail);
  useEffect(() => {
    if (phase === "sending") scrollToBottom();
  }, [phase, scrollToBottom]);
  // Counted per session: ChatView shows one conversation after another.
  useRise(sessionId, state.tail.asked, () => {
    if (hasNewer) void jumpToLatest();
    else scrollToBottom();
  });
  // The loaded part was moved to the live end: the view goes there and follows it.
  useRise(sessionId, state.latest, scrollToBottom);
  // Whether the transcript follows the end: it may not while pinned (reading on page by
  // page, it stays on its entry until the user scrolls to the bottom themselves), and then
  // what grows below is out of sight, so "Latest" is offered.
  const [following, setFollowing] = useState(true);
  const { setReading } = chat;
  const onReading = useCallback(
    (key: string | null) => {
      setFollowing(key === null);
      if (sessionId !== null) setReading(sessionId, key);
    },
    [sessionId, setReading],
  );
  // "Revert the last turn's changes" restores code to before the session's last turn,
  // which the window may not hold: never to the last one loaded.
  const revertPoint = revertPointOf(state.tail);
  // The composer's draft is the shown session's (or, before it starts, the folder's).
  const composerDraft = draftKey(sessionId, cwd);
  const failureTitle = state.error ? FAILURE_TITLES[state.error.command] : undefined;
  // Another program (an editor's `memo-cli acp`) runs this session: shown to read only.
  const heldElsewhere = state.error?.phrase?.code === "session_held_elsewhere";

  return (
    <ResolveApprovalContext.Provider value={chat.resolve}>
    <section className={`chat ${widthClass}`} aria-label={t("view.label")} ref={chatRef}>
      <ChatHeader
        cwd={cwd}
        session={headerSession}
        providers={providers}
        mcp={state.transcript.mcp}
        nextProvider={chat.nextProvider}
        onChooseProvider={chat.chooseProvider}
        externalAgents={props.externalAgents ?? []}
        onManageKey={activeProvider ? () => setKeyProvider(activeProvider) : undefined}
        onSwitchModel={chat.switchModel}
        agentSettings={state.transcript.agentSettings.length > 0 ? state.transcript.agentSettings : (status?.agent_settings ?? [])}
        onSetAgentSetting={chat.setAgentSetting}
        modelProblem={modelProblem}
        busy={chat.running !== null || state.phase !== "idle"}
        mode={
          cwd && (
            <ModeControl mode={approvalMode} live={state.session !== null} onChange={chat.setApprovalMode} problem={modeProblem} />
          )
        }
        meter={
          status &&
          (!external || status.context_window > 0) && (
            <ContextMeter
              status={status}
              open={inspectorOpen}
              onOpen={() => toggleDrawer("inspector")}
              agent={external ? (headerSession?.model ?? externalAgentOf(state.session?.provider) ?? undefined) : undefined}
            />
          )
        }
        onOpenInspector={
          cwd && !external ? () => toggleDrawer("inspector") : undefined
        }
        changes={
          <>
            {state.session && worktree && (
              <button
                type="button"
                className={`changes-toggle${drawer === "worktree" ? " changes-toggle--open" : ""}`}
                onClick={() => toggleDrawer("worktree")}
                aria-pressed={drawer === "worktree"}
                title={t("view.worktreeTitle", { branch: worktree.branch })}
                data-testid="open-worktree"
              >
                <BranchIcon className="changes-toggle__icon" />
                <span className="changes-toggle__label">{worktree.branch.replace(/^memo\//, "")}</span>
              </button>
            )}
            {state.session && (
              <button
                type="button"
                className={`changes-toggle${changesOpen ? " changes-toggle--open" : ""}`}
                onClick={() => toggleDrawer("changes")}
                aria-pressed={changesOpen}
                title={t("view.changesTitle")}
                data-testid="open-changes"
              >
                {t("view.changes")}
                {changedFiles > 0 && <span className="changes-toggle__count">{changedFiles}</span>}
              </button>
            )}
            {cwd && props.onToggleTerminal && (
              <button
                type="button"
                className={`icon-button${props.terminalOpen ? " icon-button--on" : ""}`}
                onClick={props.onToggleTerminal}
                aria-pressed={props.terminalOpen ?? false}
                aria-label={t("view.terminal")}
                title={t("view.terminalTitle")}
                data-testid="toggle-terminal"
              >
                <TerminalIcon />
              </button>
            )}
          </>
        }
      />
      <ProviderBanner
        providers={providers}
        configPath={props.configPath}
        onReload={props.onReloadProviders}
        onOpenSettings={props.onOpenSettings}
      />
      {props.notice}
      {keyProvider && (
        <ApiKeyPanel
          key={keyProvider}
          provider={keyProvider}
          actions={KEY_ACTIONS}
          onClose={(saved) => {
            setKeyProvider(null);
            // The failure that asked for the key is settled; sending again will work.
            if (saved && state.error?.code === "missing_key") chat.dismissError();
          }}
        />
      )}

      {shownAgent !== null ? (
        <SubagentView
          key={shownAgent.agentId}
          agent={shownAgent}
          parentTitle={conversationName(state.session?.title ?? null, state.transcript.entries, t("view.unnamedConversation"))}
          onBack={closeAgent}
        />
      ) : (
      <>
      <div className={`chat__body${hasTurns ? "" : " chat__body--centered"}`} ref={scrollRef}>
        {cwd === null ? (
          <OpenFolder onPick={props.onPickFolder} onOpenPath={props.onOpenPath} />
        ) : hasTurns ? (
          <ReadOutputContext.Provider value={readOutput}>
            <Transcript
              key={state.session?.id ?? "new"}
              transcript={state.transcript}
              onElicit={chat.answerElicitation}
              onRewind={state.session ? rewindTo : undefined}
              rewindDisabled={chat.running !== null || state.phase !== "idle"}
              onRetry={retry}
              scroller={scrollBody}
              pinned={pinned}
              focusSeq={focusSeq}
              hasOlder={state.history?.more ?? false}
              onLoadOlder={chat.loadOlder}
              hasNewer={state.history?.after ?? false}
              onLoadNewer={chat.loadNewer}
              latest={state.latest}
              onReading={onReading}
              onOpenAgent={openAgent}
            />
          </ReadOutputContext.Provider>
        ) : state.phase === "loading" ? (
          <p className="chat__loading">{t("view.loadingConversation")}</p>
        ) : (
          <div className="empty-state" data-testid="chat-new-session">
            <div className="empty-state__badge">
              <ChatIcon className="empty-state__icon" />
            </div>
            <h2 className="empty-state__title">{t("view.newSession")}</h2>
            <p className="empty-state__folder" title={cwd}>
              {folderName(cwd)}
            </p>
            <p className="empty-state__text">
              {chosenAgent !== null ? t("view.newExternalSessionText", { agent: chosenAgent }) : t("view.newSessionText")}
            </p>
          </div>
        )}
        {state.error && (
          <div className="chat__error">
            <ErrorNotice
              kind={state.error.code === "config" ? "config" : state.error.code === "missing_key" ? "auth" : "internal"}
              title={failureTitle === undefined ? undefined : t(failureTitle)}
              message={state.error.message}
            />
            {state.error.code === "missing_key" && activeProvider && (
              <button
                type="button"
                className="button button--primary"
                data-testid="add-api-key"
                onClick={() => setKeyProvider(activeProvider)}
              >
                {t("view.addApiKey")}
              </button>
            )}
            <button type="button" className="button button--quiet" onClick={chat.dismissError}>
              {t("view.dismiss")}
            </button>
          </div>
        )}
      </div>

      {(!pinned || hasNewer || !following) && hasTurns && (
        <button
          type="button"
          className={`jump-latest${hasNewer && waiting > 0 ? " jump-latest--asks" : ""}`}
          data-testid="jump-latest"
          onClick={hasNewer ? () => void jumpToLatest() : scrollToBottom}
        >
          {/* A question waiting at the end, out of what is loaded, is not left unsaid. */}
          {hasNewer && waiting > 0 ? t("view.waitingForYou") : t("view.latest")}
        </button>
      )}

      <Composer
        draftKey={composerDraft}
        disabled={cwd === null || state.phase === "loading" || heldElsewhere}
        busy={state.phase === "sending"}
        running={chat.running !== null}
        placeholder={
          cwd === null
            ? t("view.placeholderNoFolder")
            : heldElsewhere
              ? t("view.placeholderHeldElsewhere")
              : t("view.placeholder")
        }
        prefill={state.prefill}
        onSend={chat.send}
        onStop={chat.stop}
        complete={complete}
      />
      </>
      )}
    </section>
    {changesOpen && state.session && (
      <ChangesPanel
        sessionId={state.session.id}
        refreshKey={`${touched.records}:${state.phase}:${chat.running === null}:${restoredTick}`}
        busy={chat.running !== null || state.phase !== "idle"}
        onSendComments={(text) => void chat.send(text, [])}
        onRevertTurn={() => {
          if (revertPoint !== null) setRestoreAt({ toSeq: revertPoint, turnOnly: true });
        }}
        onClose={() => setDrawer(null)}
        onReport={(report) => {
          if (state.session) setPanelCount({ sessionId: state.session.id, files: report.files.length, records: touched.records });
        }}
      />
    )}
    {drawer === "worktree" && state.session && worktree && (
      <WorktreePanel
        key={worktree.id}
        worktree={worktree}
        refreshKey={`${touched.records}:${state.phase}:${chat.running === null}`}
        busy={chat.running !== null || state.phase !== "idle"}
        onMerged={() => props.onWorktreeChanged?.()}
        onKept={() => props.onWorktreeChanged?.()}
        onDiscarded={() => {
          setDrawer(null);
          props.onWorktreeChanged?.();
        }}
        onClose={() => setDrawer(null)}
      />
    )}
    {restoreAt && state.session && (
      <RestoreDialog
        sessionId={state.session.id}
        toSeq={restoreAt.toSeq}
        title={restoreAt.turnOnly ? t("view.revertTurnTitle") : t("view.rewindTitle")}
        modes={restoreAt.turnOnly ? ["code"] : ["code", "conversation", "both"]}
        onConversation={chat.openRestored}
        onCodeRestored={() => setRestoredTick((tick) => tick + 1)}
        onClose={() => setRestoreAt(null)}
      />
    )}
    {inspectorOpen && cwd && (
      <PromptInspector
        sessionId={state.session?.id ?? null}
        cwd={cwd}
        refreshKey={stepKey}
        onClose={() => setDrawer(null)}
      />
    )}
    </ResolveApprovalContext.Provider>
  );
}