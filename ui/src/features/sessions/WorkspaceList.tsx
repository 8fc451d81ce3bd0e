import { CloseIcon, FolderIcon, PlusIcon } from "../../components/icons";
import { folderName, type Workspace } from "../../state/workspaces";

interface WorkspaceListProps {
  workspaces: Workspace[];
  current: string | null;
  onPick: () => void;
  onOpen: (path: string) => void;
  onClose: (path: string) => void;
}

export function WorkspaceList({ workspaces, current, onPick, onOpen, onClose }: WorkspaceListProps) {
  return (
    <section className="sidebar__section" aria-labelledby="sidebar-workspaces">
      <div className="sidebar__heading-row">
        <h2 id="sidebar-workspaces" className="sidebar__heading">
          Workspaces
        </h2>
        <button type="button" className="icon-button" onClick={onPick} title="Open folder…" aria-label="Open folder…">
          <PlusIcon />
        </button>
      </div>
      {workspaces.length === 0 ? (
        <div className="sidebar__empty" data-testid="workspaces-empty">
          <FolderIcon className="sidebar__empty-icon" />
          <p>No folders opened yet.</p>
        </div>
      ) : (
        <ul className="nav-list" data-testid="workspace-list">
          {workspaces.map((workspace) => {
            const active = workspace.path === current;
            return (
              <li key={workspace.path} className={`nav-item${active ? " nav-item--active" : ""}`}>
                <button
                  type="button"
                  className="nav-item__main"
                  title={workspace.path}
                  aria-current={active ? "true" : undefined}
                  data-testid="workspace-item"
                  onClick={() => onOpen(workspace.path)}
                >
                  <FolderIcon className="nav-item__icon" />
                  <span className="nav-item__label">{folderName(workspace.path)}</span>
                </button>
                <button
                  type="button"
                  className="nav-item__remove"
                  title="Remove from the list"
                  aria-label={`Remove ${folderName(workspace.path)} from the list`}
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
