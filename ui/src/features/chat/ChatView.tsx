import { FolderIcon } from "../../components/icons";

export function ChatView() {
  return (
    <section className="chat" aria-label="Chat">
      <header className="chat__header">
        <h1 className="chat__title">No folder open</h1>
      </header>

      <div className="chat__body">
        <div className="empty-state" data-testid="chat-empty">
          <div className="empty-state__badge">
            <FolderIcon className="empty-state__icon" />
          </div>
          <h2 className="empty-state__title">Open a folder to start</h2>
          <p className="empty-state__text">
            Memo works inside a project folder: it reads your code, proposes changes for you to
            review, and runs only the commands you approve.
          </p>
          {/* Disabled rather than hidden so the layout is final; folder picking arrives
              with the session engine. */}
          <button type="button" className="button button--primary" disabled>
            Open folder…
          </button>
          <p className="empty-state__note">Opening folders is not available in this build yet.</p>
        </div>
      </div>

      <footer className="composer">
        <textarea
          className="composer__input"
          placeholder="Open a folder to start a session"
          aria-label="Message"
          rows={2}
          disabled
        />
        <button type="button" className="button button--primary composer__send" disabled>
          Send
        </button>
      </footer>
    </section>
  );
}
