import { ChatIcon, PlusIcon } from "../../components/icons";
import type { SessionSummary } from "../../gen/protocol";
import { sessionTitle } from "../../state/sessionTitles";
import type { Loadable } from "../../state/useLoadable";
import { formatWhen } from "../chat/format";

interface SessionListProps {
  folderOpen: boolean;
  sessions: Loadable<SessionSummary[]>;
  activeId: string | null;
  onOpen: (session: SessionSummary) => void;
  onNew: () => void;
}

function label(session: SessionSummary): string {
  return session.title ?? sessionTitle(window.localStorage, session.id) ?? "Untitled session";
}

export function SessionList({ folderOpen, sessions, activeId, onOpen, onNew }: SessionListProps) {
  return (
    <section className="sidebar__section" aria-labelledby="sidebar-sessions">
      <div className="sidebar__heading-row">
        <h2 id="sidebar-sessions" className="sidebar__heading">
          Sessions
        </h2>
        {folderOpen && (
          <button type="button" className="icon-button" onClick={onNew} title="New session" aria-label="New session" data-testid="new-session">
            <PlusIcon />
          </button>
        )}
      </div>
      {!folderOpen ? (
        <div className="sidebar__empty" data-testid="sessions-empty">
          <ChatIcon className="sidebar__empty-icon" />
          <p>Conversations you start will be listed here.</p>
        </div>
      ) : sessions.status === "error" ? (
        <p className="sidebar__error" role="alert">
          {sessions.error.message}
        </p>
      ) : sessions.status === "ready" && sessions.value.length > 0 ? (
        <ul className="nav-list" data-testid="session-list">
          {sessions.value.map((session) => {
            const active = session.id === activeId;
            return (
              <li key={session.id} className={`nav-item${active ? " nav-item--active" : ""}`}>
                <button
                  type="button"
                  className="nav-item__main nav-item__main--session"
                  aria-current={active ? "true" : undefined}
                  data-testid="session-item"
                  onClick={() => onOpen(session)}
                >
                  <span className="nav-item__label">{label(session)}</span>
                  <span className="nav-item__meta">
                    {formatWhen(session.updated_ms)} · {session.model}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <div className="sidebar__empty" data-testid="sessions-empty">
          <ChatIcon className="sidebar__empty-icon" />
          <p>{sessions.status === "loading" ? "Loading…" : "No conversations in this folder yet."}</p>
        </div>
      )}
    </section>
  );
}
