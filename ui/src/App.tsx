import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from "react";

import { ChatView } from "./features/chat/ChatView";
import { Onboarding } from "./features/onboarding/Onboarding";
import type { SettingsSection } from "./features/settings/SettingsView";
import { Sidebar } from "./features/sessions/Sidebar";
import { StatusBar } from "./features/status/StatusBar";
import { TrustBanner } from "./features/trust/TrustBanner";
import { TrustDialog } from "./features/trust/TrustDialog";
import { useWorkspaceTrust } from "./features/trust/useWorkspaceTrust";
import type { SearchResult, SessionActivity, SessionSummary, WorktreeInfo } from "./gen/protocol";
import { TerminalDock } from "./features/terminal/TerminalDock";
import { useTerminalDock } from "./features/terminal/useTerminalDock";
import { WatchCommandContext, findToolCall, watchedOutput } from "./features/terminal/watch";
import { folderFor, placeName, worktreeOf, worktreesOf } from "./features/worktrees/worktreeList";
import type { WorktreeSession } from "./gen/protocol";
import { useT } from "./i18n";
import { ipc, pickFolder, resolveApproval } from "./ipc";
import type { ActivityView } from "./state/activity";
import { useActivity } from "./state/useActivity";
import { useMissingFolders } from "./state/useMissingFolders";
import { memoPath } from "./state/appInfo";
import { useAppInfo } from "./state/useAppInfo";
import { useChat } from "./state/useChat";
import { useLoadable } from "./state/useLoadable";
import { useSettleConfigError } from "./state/useSettleConfigError";
import { useWindowReturn } from "./state/useWindowReturn";
import { useOpenRequests } from "./state/useOpenRequests";
import { useWorkspaces } from "./state/useWorkspaces";

// Settings carry the code editor (CodeMirror): loaded when first opened, not at start-up.
const SettingsView = lazy(() => import("./features/settings/SettingsView").then((m) => ({ default: m.SettingsView })));

const listAllWorktrees = () => ipc.listWorktrees({ cwd: null });

const EMPTY_NAMES: string[] = [];

/** The names of config.toml's external agents, for the new-session picker. */
async function loadExternalAgents(): Promise<string[]> {
  return (await ipc.externalAgentsPage()).agents.map((agent) => agent.name);
}

export function App() {
  const t = useT("app");
  const appInfo = useAppInfo();
  const info = appInfo.state.status === "ready" ? appInfo.state.info : null;
  // Workspaces are remembered per Memo home; wait for it unless it could not be resolved.
  const scope = info?.memo_home ?? (appInfo.state.status === "error" ? "" : null);
  const workspaces = useWorkspaces(scope);
  const missingFolders = useMissingFolders(workspaces.workspaces);
  // A remembered folder that has gone is listed as missing, never opened.
  const cwd = workspaces.current !== null && missingFolders.has(workspaces.current) ? null : workspaces.current;
  useOpenRequests(scope === null ? null : workspaces.open);

  const providers = useLoadable("list_providers", "providers", ipc.listProviders);
  const externalAgents = useLoadable("external_agents_page", "external_agents", loadExternalAgents);
  const loadSessions = useCallback(async () => (await ipc.listSessions({ cwd })).sessions, [cwd]);
  const sessions = useLoadable("list_sessions", cwd, loadSessions);
  const chat = useChat(cwd, sessions.reload);
  const trust = useWorkspaceTrust(cwd);
  const shownSessionId = chat.state.session?.id ?? null;
  const { openSession: openChatSession, openStarted } = chat;
  const openWorkspace = workspaces.open;
  const [settings, setSettings] = useState<{ section: SettingsSection } | null>(null);
  // A session elsewhere (the Active list, a clicked notification): its folder, then it.
  const openAnywhere = useCallback(
    (sessionId: string, folder: string | null) => {
      if (folder !== null) openWorkspace(folder);
      openChatSession({ id: sessionId }, undefined, folder ?? undefined);
      setSettings(null);
    },
    [openChatSession, openWorkspace],
  );
  // Memo's worktrees, every repository's: a worktree session shows under its repository.
  const worktreeList = useLoadable("list_worktrees", scope, listAllWorktrees);
  const worktrees = useMemo(
    () => (worktreeList.state.status === "ready" ? worktreeList.state.value : []),
    [worktreeList.state],
  );
  const folderOf = useCallback((path: string) => folderFor(worktrees, path), [worktrees]);
  const placeOf = useCallback((path: string) => placeName(worktrees, path), [worktrees]);
  const shownWorktree = worktreeOf(worktrees, chat.state.session);
  const reloadWorktrees = worktreeList.reload;
  const activityRef = useRef<ActivityView | null>(null);
  const openNotified = useCallback(
    (sessionId: string) => {
      const where = activityRef.current?.byId.get(sessionId)?.cwd;
      openAnywhere(sessionId, where === undefined ? null : folderOf(where));
    },
    [openAnywhere, folderOf],
  );
  const activity = useActivity(scope, shownSessionId, openNotified);
  activityRef.current = activity;
  const decide = useCallback(
    (sessionId: string, requestId: string, approve: boolean) =>
      resolveApproval(sessionId, requestId, approve ? { type: "approve_once" } : { type: "deny", reason: null }),
    [],
  );
  const [pickError, setPickError] = useState<string | null>(null);
  // The terminal starts where the session in front works: its worktree when it has one.
  const dock = useTerminalDock(shownWorktree?.session_cwd ?? cwd);
  const { watch: watchInDock, closeFolder: closeTerminals } = dock;
  const watchCommand = useCallback(
    (callId: string, command: string) => {
      if (shownSessionId !== null) watchInDock({ sessionId: shownSessionId, callId, command });
    },
    [shownSessionId, watchInDock],
  );
  // Looked up again only when the transcript or the watched call changes.
  const shownTranscript = chat.state.transcript;
  const watched = useMemo(
    () =>
      dock.watching !== null && dock.watching.sessionId === shownSessionId
        ? { command: dock.watching.command, ...watchedOutput(findToolCall(shownTranscript, dock.watching.callId)) }
        : null,
    [dock.watching, shownSessionId, shownTranscript],
  );
  const closeWorkspace = workspaces.close;
  const closeFolder = useCallback(
    (path: string) => {
      closeWorkspace(path);
      closeTerminals(path);
      for (const w of worktreesOf(worktrees, path)) closeTerminals(w.path);
    },
    [closeWorkspace, closeTerminals, worktrees],
  );
  const onWorktreeStarted = useCallback(
    ({ session }: WorktreeSession) => {
      reloadWorktrees();
      openStarted(session);
    },
    [reloadWorktrees, openStarted],
  );
  // Already open: stay where it is (re-opening would drop a page's unsaved text unasked).
  const openSettings = useCallback(
    (section: SettingsSection = "providers") => setSettings((current) => current ?? { section }),
    [],
  );
  // External agents are added in Settings: the new-session picker lists them once it closes.
  const reloadAgentsOnClose = externalAgents.reload;
  const closeSettings = useCallback(() => {
    setSettings(null);
    reloadAgentsOnClose();
  }, [reloadAgentsOnClose]);

  // Ctrl+, (Cmd+, on macOS) opens settings, as in every desktop editor.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === ",") {
        event.preventDefault();
        openSettings();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openSettings]);

  // config.toml is edited outside the app: read it again when the user comes back to the
  // window or switches folders, so the header and banner never show a stale verdict (and
  // the app info, when it could not be read, gets another try with them).
  const reloadProviders = providers.reload;
  const reloadAppInfo = appInfo.reload;
  const appInfoFailed = appInfo.state.status === "error";
  const reloadExternalAgents = externalAgents.reload;
  const recheckConfig = useCallback(() => {
    reloadProviders();
    reloadExternalAgents();
    if (appInfoFailed) reloadAppInfo();
  }, [reloadProviders, reloadExternalAgents, reloadAppInfo, appInfoFailed]);
  useWindowReturn(recheckConfig);
  useEffect(() => {
    if (cwd !== null) reloadProviders();
  }, [cwd, reloadProviders]);
  // A send that failed on config.toml shows the banner too, and its card goes by itself
  // once the file is fixed (read again on focus, or after Settings saves).
  useSettleConfigError(chat.state.error, providers.state, reloadProviders, chat.dismissError);

  const reloadSessions = sessions.reload;
  const rename = useCallback(
    async (session: SessionSummary, title: string) => {
      await ipc.renameSession({ sessionId: session.id, title });
      reloadSessions();
    },
    [reloadSessions],
  );
  const { newSession } = chat;
  const activeSessionId = chat.state.session?.id ?? null;
  const { forget } = chat;
  const remove = useCallback(
    async (session: SessionSummary) => {
      await ipc.deleteSession({ sessionId: session.id });
      // The open conversation is gone: show a fresh one instead of a dead transcript.
      if (session.id === activeSessionId) newSession();
      forget(session.id);
      reloadSessions();
    },
    [activeSessionId, newSession, forget, reloadSessions],
  );

  const search = useCallback((query: string) => ipc.searchSessions({ query, cwd }), [cwd]);
  const { openSession } = chat;
  // A hit in a subagent's session: its parent opens, then the subagent's own view.
  const [agentHit, setAgentHit] = useState<{ parentId: string; childId: string } | null>(null);
  const openResult = useCallback(
    (result: SearchResult) => {
      const { session } = result;
      if (session.agent_type !== undefined && session.parent_session_id !== null) {
        openSession({ id: session.parent_session_id });
        setAgentHit({ parentId: session.parent_session_id, childId: session.id });
        return;
      }
      setAgentHit(null);
      openSession(session, result.seq);
    },
    [openSession],
  );
  const agentHitShown = useCallback(() => setAgentHit(null), []);

  // No provider at all: the first-run screen instead of a chat that cannot send.
  // Someone who only runs external agents has nothing to set up either.
  const agentNames = externalAgents.state.status === "ready" ? externalAgents.state.value : EMPTY_NAMES;
  const needsOnboarding = providers.state.status === "ready" && providers.state.value.length === 0 && agentNames.length === 0;

  const pick = useCallback(() => {
    setPickError(null);
    pickFolder().then(
      (path) => {
        if (path !== null) openWorkspace(path);
      },
      (error: Error) => setPickError(error.message),
    );
  }, [openWorkspace]);

  // The sidebar is memoized and its props kept stable, so a streaming answer (a render of
  // App per frame) does not render the sidebar again each frame.
  const openSettingsPane = useCallback(() => openSettings(), [openSettings]);
  const openActive = useCallback(
    (a: SessionActivity) => openAnywhere(a.session_id, folderOf(a.cwd)),
    [openAnywhere, folderOf],
  );
  const openWorktree = useCallback(
    (w: WorktreeInfo) => {
      if (w.session_id) openChatSession({ id: w.session_id });
    },
    [openChatSession],
  );
  const folderWorktrees = useMemo(() => worktreesOf(worktrees, cwd), [worktrees, cwd]);

  return (
    <div className="app-shell">
      <Sidebar
        workspaces={workspaces.workspaces}
        current={cwd}
        sessions={sessions.state}
        activeSessionId={chat.state.session?.id ?? null}
        onPickFolder={pick}
        onOpenWorkspace={workspaces.open}
        onCloseWorkspace={closeFolder}
        onOpenSession={chat.openSession}
        onNewSession={chat.newSession}
        onRenameSession={rename}
        onDeleteSession={remove}
        onSessionsImported={reloadSessions}
        searchSessions={search}
        onOpenSearchResult={openResult}
        onOpenSettings={openSettingsPane}
        settingsOpen={settings !== null}
        activity={activity}
        onOpenActive={openActive}
        onDecide={decide}
        missingFolders={missingFolders}
        folderOf={folderOf}
        placeOf={placeOf}
        worktrees={folderWorktrees}
        newSessionMode={chat.nextApprovalMode}
        newSessionProvider={chat.nextProvider}
        onWorktreeStarted={onWorktreeStarted}
        onOpenWorktree={openWorktree}
      />
      <main className="app-shell__main">
        <div className="app-shell__work">
        {settings !== null ? (
          <Suspense fallback={<p className="settings__loading">{t("openingSettings")}</p>}>
            <SettingsView
              key={settings.section}
              cwd={cwd}
              initialSection={settings.section}
              onClose={closeSettings}
              onProvidersChanged={recheckConfig}
              scope={scope}
              memoHome={info?.memo_home ?? null}
            />
          </Suspense>
        ) : providers.state.status === "loading" || providers.state.status === "idle" ? (
          // A moment at start-up: neither the chat nor the first-run screen, so neither flashes.
          <div className="app-shell__pending" aria-busy="true" />
        ) : needsOnboarding ? (
          <Onboarding onDone={providers.reload} onOpenSettings={() => openSettings()} />
        ) : (
          <WatchCommandContext.Provider value={watchCommand}>
            <ChatView
              cwd={cwd}
              chat={chat}
              providers={providers.state}
              externalAgents={agentNames}
              configPath={info ? memoPath(info.memo_home, "config.toml") : null}
              onReloadProviders={providers.reload}
              onOpenSettings={() => openSettings()}
              onPickFolder={pick}
              onOpenPath={workspaces.open}
              notice={<TrustBanner report={trust.report} onReview={trust.review} />}
              worktree={shownWorktree}
              onWorktreeChanged={reloadWorktrees}
              terminalOpen={dock.open}
              onToggleTerminal={dock.toggle}
              agentSessionToOpen={agentHit !== null && agentHit.parentId === shownSessionId ? agentHit.childId : null}
              onAgentSessionOpened={agentHitShown}
            />
          </WatchCommandContext.Provider>
        )}
        </div>
        <TerminalDock
          folders={dock.folders}
          current={shownWorktree?.session_cwd ?? cwd}
          open={dock.open && settings === null}
          onHide={dock.hide}
          watching={settings === null ? watched : null}
          onStopWatching={dock.stopWatching}
        />
      </main>
      {trust.prompting && trust.report !== null && settings === null && !needsOnboarding && (
        <TrustDialog
          report={trust.report}
          saving={trust.saving}
          error={trust.error}
          onDecide={(trusted) => void trust.decide(trusted)}
          onDismiss={trust.dismiss}
        />
      )}
      <StatusBar state={appInfo.state} onRetry={appInfo.reload} />
      {pickError && (
        <div className="toast" role="alert" onClick={() => setPickError(null)}>
          {t("folderPickerFailed", { error: pickError })}
        </div>
      )}
    </div>
  );
}
