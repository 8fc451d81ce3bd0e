import { useState } from "react";

import { CloseIcon, FolderIcon, PlusIcon } from "../../components/icons";
import { isImeComposing } from "../../components/ime";
import { useT } from "../../i18n";
import { useFolderPathForm } from "../../state/useFolderPathForm";
import type { SessionBadge } from "../../state/activity";
import { folderName, type Workspace } from "../../state/workspaces";
import { StatusDot } from "./StatusDot";

interface WorkspaceListProps {
  workspaces: Workspace[];
  current: string | null;
  onPick: () => void;
  onOpen: (path: string) => void;
  onClose: (path: string) => void;
  /** Folders that are no longer there: shown as missing, never opened. */
  missing?: ReadonlySet<string> | undefined;
  /** The most urgent state among a folder's live sessions, and how many wait. */
  statusOf?: ((path: string) => { badge: SessionBadge; count: number }) | undefined;
}

/** Adds a folder by its typed path (with ~ and relative-path checks) or the native picker. */
function AddFolder({ onPick, onOpen, onDone }: { onPick: () => void; onOpen: (path: string) => void; onDone: () => void }) {
  const t = useT("sessions");
  const { path, setPath, problem, submit } = useFolderPathForm((folder) => {
    onOpen(folder);
    onDone();
  });
  return (
    <form className="add-folder" onSubmit={submit} data-testid="workspace-add-form">
      <input
        className="input add-folder__input"
        placeholder={t("workspaces.pathPlaceholder")}
        aria-label={t("workspaces.path")}
        spellCheck={false}
        autoComplete="off"
        autoFocus
        value={path}
        onChange={(event) => setPath(event.target.value)}
        onKeyDown={(event) => {
          if (isImeComposing(event)) return;
          if (event.key === "Escape") onDone();
        }}
        data-testid="workspace-path-input"
      />
      <div className="add-folder__actions">
        <button type="button" className="button button--quiet" onClick={() => { onPick(); onDone(); }} data-testid="workspace-browse">
          {t("workspaces.browse")}
        </button>
        <button type="submit" className="button button--small button--primary" disabled={path.trim() === ""} data-testid="workspace-path-open">
          {t("common:open")}
        </button>
      </div>
      {problem && (
        <p className="add-folder__error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

export function WorkspaceList({ workspaces, current, onPick, onOpen, onClose, missing, statusOf }: WorkspaceListProps) {
  const t = useT("sessions");
  const [adding, setAdding] = useState(false);
  return (
    <section className="sidebar__section" aria-labelledby="sidebar-workspaces">
      <div className="sidebar__heading-row">
        <h2 id="sidebar-workspaces" className="sidebar__heading">
          {t("workspaces.heading")}
        </h2>
        <button
          type="button"
          className="icon-button"
          onClick={() => setAdding((open) => !open)}
          title={t("workspaces.add")}
          aria-label={t("workspaces.add")}
          aria-expanded={adding}
          data-testid="workspace-add"
        >
          <PlusIcon />
        </button>
      </div>
      {adding && <AddFolder onPick={onPick} onOpen={onOpen} onDone={() => setAdding(false)} />}
      {workspaces.length === 0 ? (
        <div className="sidebar__empty" data-testid="workspaces-empty">
          <FolderIcon className="sidebar__empty-icon" />
          <p>{t("workspaces.empty")}</p>
        </div>
      ) : (
        <ul className="nav-list" data-testid="workspace-list">
          {workspaces.map((workspace) => {
            const active = workspace.path === current;
            const gone = missing?.has(workspace.path) ?? false;
            const status = statusOf?.(workspace.path) ?? { badge: null, count: 0 };
            return (
              <li
                key={workspace.path}
                className={`nav-item${active ? " nav-item--active" : ""}${gone ? " nav-item--missing" : ""}`}
                data-testid="workspace-row"
                data-missing={gone ? "true" : undefined}
              >
                <button
                  type="button"
                  className="nav-item__main"
                  title={gone ? t("workspaces.gone", { path: workspace.path }) : workspace.path}
                  aria-current={active ? "true" : undefined}
                  aria-disabled={gone ? "true" : undefined}
                  data-testid="workspace-item"
                  onClick={() => {
                    if (!gone) onOpen(workspace.path);
                  }}
                >
                  <FolderIcon className="nav-item__icon" />
                  <span className="nav-item__label">{folderName(workspace.path)}</span>
                  {gone ? <span className="nav-item__tag">{t("workspaces.missing")}</span> : <StatusDot badge={status.badge} count={status.count} />}
                </button>
                <button
                  type="button"
                  className="nav-item__remove"
                  title={t("workspaces.removeTitle")}
                  aria-label={t("workspaces.remove", { name: folderName(workspace.path) })}
                  onClick={() => onClose(workspace.path)}
                >
                  <CloseIcon />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
