import { memo } from "react";

import { GearIcon, LogoMark } from "../../components/icons";
import type {
  ApprovalMode,
  SearchResult,
  SessionActivity,
  SessionSummary,
  WorktreeInfo,
  WorktreeSession,
} from "../../gen/protocol";
import { useT } from "../../i18n";
import { activeSessions, folderStatus, sessionStatus, type ActivityView } from "../../state/activity";
import type { Loadable } from "../../state/useLoadable";
import type { Workspace } from "../../state/workspaces";
import { ActiveList } from "./ActiveList";
import { SessionList } from "./SessionList";
import { WorkspaceList } from "./WorkspaceList";
import { WorktreeList } from "./WorktreeList";
import "./sidebar.css";

interface SidebarProps {
  workspaces: Workspace[];
  current: string | null;
  sessions: Loadable<SessionSummary[]>;
  activeSessionId: string | null;
  onPickFolder: () => void;
  onOpenWorkspace: (path: string) => void;
  onCloseWorkspace: (path: string) => void;
  onOpenSession: (session: SessionSummary) => void;
  onNewSession: () => void;
  onRenameSession: (session: SessionSummary, title: string) => Promise<void>;
  onDeleteSession: (session: SessionSummary) => Promise<void>;
  /** Sessions were imported from files: read the list again. */
  onSessionsImported: () => void;
  searchSessions: (text: string) => Promise<SearchResult[]>;
  onOpenSearchResult: (result: SearchResult) => void;
  onOpenSettings: () => void;
  settingsOpen: boolean;
  /** Live sessions' states: the Active list and the dots on rows. */
  activity: ActivityView;
  onOpenActive: (activity: SessionActivity) => void;
  onDecide: (sessionId: string, requestId: string, approve: boolean) => Promise<void>;
  missingFolders: ReadonlySet<string>;
  /** Maps a session's folder to the workspace it shows under (a worktree's repository). */
  folderOf: (path: string) => string;
  /** Where a session works, in words: its folder, or a worktree's repository and branch. */
  placeOf: (path: string) => string;
  /** The open folder's worktree sessions, and starting one. */
  worktrees: WorktreeInfo[];
  newSessionMode: ApprovalMode | null;
  newSessionProvider: string | null;
  onWorktreeStarted: (started: WorktreeSession) => void;
  onOpenWorktree: (worktree: WorktreeInfo) => void;
}

export const Sidebar = memo(function Sidebar(props: SidebarProps) {
  const t = useT("sessions");
  return (
    <aside className="sidebar" aria-label={t("sidebar.label")} data-testid="sidebar">
      <div className="sidebar__brand">
        <LogoMark className="sidebar__logo" />
        <span className="sidebar__name">{t("sidebar.brand")}</span>
      </div>

      <div className="sidebar__content">
        <ActiveList
          activity={props.activity}
          sessions={activeSessions(props.activity)}
          shownId={props.activeSessionId}
          onOpen={props.onOpenActive}
          onDecide={props.onDecide}
          placeOf={props.placeOf}
        />
        <WorkspaceList
          missing={props.missingFolders}
          statusOf={(path) => folderStatus(props.activity, path, props.folderOf)}
          workspaces={props.workspaces}
          current={props.current}
          onPick={props.onPickFolder}
          onOpen={props.onOpenWorkspace}
          onClose={props.onCloseWorkspace}
        />
        <SessionList
          statusOf={(id) => sessionStatus(props.activity, id)}
          folderOpen={props.current !== null}
          sessions={props.sessions}
          activeId={props.activeSessionId}
          onOpen={props.onOpenSession}
          onNew={props.onNewSession}
          onRename={props.onRenameSession}
          onDelete={props.onDeleteSession}
          onImported={props.onSessionsImported}
          search={props.searchSessions}
          onOpenResult={props.onOpenSearchResult}
        />
        <WorktreeList
          cwd={props.current}
          worktrees={props.worktrees}
          activeSessionId={props.activeSessionId}
          approvalMode={props.newSessionMode}
          provider={props.newSessionProvider}
          onStarted={props.onWorktreeStarted}
          onOpen={props.onOpenWorktree}
          statusOf={(id) => sessionStatus(props.activity, id)}
        />
      </div>
      <div className="sidebar__footer">
        <button
          type="button"
          className={`sidebar__settings${props.settingsOpen ? " sidebar__settings--active" : ""}`}
          onClick={props.onOpenSettings}
          title={t("sidebar.settingsTitle")}
          data-testid="open-settings"
        >
          <GearIcon className="sidebar__settings-icon" />
          {t("sidebar.settings")}
          <kbd className="sidebar__kbd">{t("sidebar.settingsKeys")}</kbd>
        </button>
      </div>
    </aside>
  );
});
