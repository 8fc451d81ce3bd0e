import { ChatIcon, FolderIcon, LogoMark } from "../../components/icons";

// Workspaces and sessions come from the engine's store once it is wired in; until then
// the lists are honestly empty rather than filled with sample data.
export function Sidebar() {
  return (
    <aside className="sidebar" aria-label="Workspaces and sessions" data-testid="sidebar">
      <div className="sidebar__brand">
        <LogoMark className="sidebar__logo" />
        <span className="sidebar__name">Memo</span>
      </div>

      <div className="sidebar__content">
        <section className="sidebar__section" aria-labelledby="sidebar-workspaces">
          <h2 id="sidebar-workspaces" className="sidebar__heading">
            Workspaces
          </h2>
          <div className="sidebar__empty" data-testid="workspaces-empty">
            <FolderIcon className="sidebar__empty-icon" />
            <p>No folders opened yet.</p>
          </div>
        </section>

        <section className="sidebar__section" aria-labelledby="sidebar-sessions">
          <h2 id="sidebar-sessions" className="sidebar__heading">
            Sessions
          </h2>
          <div className="sidebar__empty" data-testid="sessions-empty">
            <ChatIcon className="sidebar__empty-icon" />
            <p>Conversations you start will be listed here.</p>
          </div>
        </section>
      </div>
    </aside>
  );
}
