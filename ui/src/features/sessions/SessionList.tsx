import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";

import { MenuButton } from "../../components/Menu";
import { ChatIcon, CloseIcon, ImportIcon, MoreIcon, PencilIcon, PlusIcon, TrashIcon } from "../../components/icons";
import { isImeComposing } from "../../components/ime";
import type { ExportFormat, SearchResult, SessionSummary } from "../../gen/protocol";
import type { Loadable } from "../../state/useLoadable";
import { formatWhen } from "../../format";
import { useT } from "../../i18n";
import type { SessionBadge } from "../../state/activity";
import { sessionLabel } from "./label";
import { StatusDot } from "./StatusDot";
import { SearchResults } from "./SearchResults";
import { exportFormat } from "./sessionFiles";
import { TransferNotice } from "./TransferNotice";
import { useSessionTransfer } from "./useSessionTransfer";

interface SessionListProps {
  folderOpen: boolean;
  sessions: Loadable<SessionSummary[]>;
  activeId: string | null;
  onOpen: (session: SessionSummary) => void;
  onNew: () => void;
  /** Resolves once stored; rejects with a message to show. */
  onRename: (session: SessionSummary, title: string) => Promise<void>;
  onDelete: (session: SessionSummary) => Promise<void>;
  /** Full-text search over the folder's sessions; no search box without it. */
  search?: ((text: string) => Promise<SearchResult[]>) | undefined;
  onOpenResult?: ((result: SearchResult) => void) | undefined;
  /** A live session's state, for the dot on its row. */
  statusOf?: ((sessionId: string) => { badge: SessionBadge; count: number }) | undefined;
  /** Sessions were imported: read the list again. */
  onImported?: (() => void) | undefined;
}

const EXPORTS: ExportFormat[] = ["markdown", "memo_code_jsonl"];
const nothing = () => undefined;

/** What a row is doing besides being listed. */
type RowMode = { kind: "rename"; id: string } | { kind: "confirm_delete"; id: string } | null;

export function SessionList(props: SessionListProps) {
  const { folderOpen, sessions, activeId, onOpen, onNew, onRename, onDelete, search, onOpenResult, statusOf } = props;
  const t = useT("sessions");
  const transfer = useSessionTransfer(props.onImported ?? nothing);
  const [mode, setMode] = useState<RowMode>(null);
  // The row whose menu is open keeps its buttons shown while the pointer is elsewhere.
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const searching = search !== undefined && query.trim() !== "";
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setMode(null);
    } catch (raised) {
      setError(raised instanceof Error ? raised.message : String(raised));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sidebar__section" aria-labelledby="sidebar-sessions">
      <div className="sidebar__heading-row">
        <h2 id="sidebar-sessions" className="sidebar__heading">
          {t("list.heading")}
        </h2>
        <div className="sidebar__heading-actions">
          {/* Imported sessions belong to the folder they were recorded in, open or not. */}
          <button
            type="button"
            className="icon-button"
            onClick={() => void transfer.importFiles()}
            disabled={transfer.busy !== null}
            title={t("list.importTitle")}
            aria-label={t("list.import")}
            data-testid="import-sessions"
          >
            <ImportIcon />
          </button>
          {folderOpen && (
            <button type="button" className="icon-button" onClick={onNew} title={t("list.new")} aria-label={t("list.new")} data-testid="new-session">
              <PlusIcon />
            </button>
          )}
        </div>
      </div>
      {folderOpen && search && (
        <div className="sidebar__search">
          <input
            type="search"
            className="sidebar__search-input"
            placeholder={t("list.search")}
            aria-label={t("list.search")}
            data-testid="session-search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (isImeComposing(event)) return;
              if (event.key === "Escape") setQuery("");
            }}
          />
          {query !== "" && (
            <button
              type="button"
              className="icon-button sidebar__search-clear"
              onClick={() => setQuery("")}
              title={t("list.clearSearch")}
              aria-label={t("list.clearSearch")}
              data-testid="session-search-clear"
            >
              <CloseIcon />
            </button>
          )}
        </div>
      )}
      {searching && search ? (
        <SearchResults
          query={query.trim()}
          search={search}
          onOpen={(result) => {
            setQuery("");
            onOpenResult?.(result);
          }}
        />
      ) : !folderOpen ? (
        <div className="sidebar__empty" data-testid="sessions-empty">
          <ChatIcon className="sidebar__empty-icon" />
          <p>{t("list.noFolder")}</p>
        </div>
      ) : sessions.status === "error" ? (
        <p className="sidebar__error" role="alert">
          {sessions.error.message}
        </p>
      ) : sessions.status === "ready" && sessions.value.length > 0 ? (
        <ul className="nav-list" data-testid="session-list">
          {sessions.value.map((session) => {
            const active = session.id === activeId;
            const rowMode = mode?.id === session.id ? mode.kind : null;
            // Once per row: a title may come from localStorage, which is parsed per read.
            const label = sessionLabel(session);
            const status = statusOf?.(session.id) ?? { badge: null, count: 0 };
            return (
              <li
                key={session.id}
                className={`nav-item${active ? " nav-item--active" : ""}${menuFor === session.id ? " nav-item--menu" : ""}`}
                data-testid="session-row"
              >
                {rowMode === "rename" ? (
                  <RenameField
                    initial={label}
                    disabled={busy}
                    onSave={(title) => act(() => onRename(session, title))}
                    onCancel={() => {
                      setMode(null);
                      setError(null);
                    }}
                  />
                ) : rowMode === "confirm_delete" ? (
                  <div className="nav-item__confirm" data-testid="session-delete-confirm">
                    <span>{t("list.confirmDelete", { label })}</span>
                    <div className="nav-item__confirm-actions">
                      <button
                        type="button"
                        className="button button--danger button--small"
                        disabled={busy}
                        onClick={() => void act(() => onDelete(session))}
                      >
                        {t("common:delete")}
                      </button>
                      <button type="button" className="button button--small" disabled={busy} onClick={() => setMode(null)}>
                        {t("common:cancel")}
                      </button>
                    </div>
                  </div>
                ) : (
                  <>
                    <button
                      type="button"
                      className="nav-item__main nav-item__main--session"
                      aria-current={active ? "true" : undefined}
                      data-testid="session-item"
                      onClick={() => onOpen(session)}
                    >
                      <span className="nav-item__title-row">
                        <span className="nav-item__label">{label}</span>
                        <StatusDot badge={status.badge} count={status.count} />
                      </span>
                      <span className="nav-item__meta">
                        {formatWhen(session.updated_ms)} · {session.model}
                      </span>
                    </button>
                    <RowAction
                      label={t("list.renameLabel", { label })}
                      title={t("list.rename")}
                      testId="session-rename"
                      icon={<PencilIcon />}
                      onClick={() => {
                        setError(null);
                        setMode({ kind: "rename", id: session.id });
                      }}
                    />
                    <RowAction
                      label={t("list.deleteLabel", { label })}
                      title={t("common:delete")}
                      testId="session-delete"
                      icon={<TrashIcon />}
                      onClick={() => {
                        setError(null);
                        setMode({ kind: "confirm_delete", id: session.id });
                      }}
                    />
                    <MenuButton
                      className="nav-item__action"
                      label={t("list.moreLabel", { label })}
                      title={t("list.more")}
                      testId="session-menu"
                      icon={<MoreIcon />}
                      onOpenChange={(open) => setMenuFor(open ? session.id : null)}
                      items={EXPORTS.map((format) => ({
                        label: exportFormat(format).item,
                        testId: `session-export-${format}`,
                        disabled: transfer.busy !== null,
                        onSelect: () => void transfer.exportAs(session, format),
                      }))}
                    />
                  </>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <div className="sidebar__empty" data-testid="sessions-empty">
          <ChatIcon className="sidebar__empty-icon" />
          <p>{sessions.status === "loading" ? t("common:loading") : t("list.empty")}</p>
        </div>
      )}
      {error && (
        <p className="sidebar__error" role="alert" data-testid="session-action-error">
          {error}
        </p>
      )}
      {transfer.notice && (
        <TransferNotice
          notice={transfer.notice}
          listed={sessions.status === "ready" ? sessions.value : []}
          onOpen={(session) => {
            transfer.dismiss();
            onOpen(session);
          }}
          onDismiss={transfer.dismiss}
        />
      )}
    </section>
  );
}

function RowAction(props: { label: string; title: string; testId: string; icon: ReactNode; onClick: () => void }) {
  return (
    <button
      type="button"
      className="nav-item__action"
      title={props.title}
      aria-label={props.label}
      data-testid={props.testId}
      onClick={props.onClick}
    >
      {props.icon}
    </button>
  );
}

function RenameField({
  initial,
  disabled,
  onSave,
  onCancel,
}: {
  initial: string;
  disabled: boolean;
  onSave: (title: string) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useT("sessions");
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === initial) {
      onCancel();
      return;
    }
    void onSave(value);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Esc while an input method composes drops the composition, not the rename.
    if (isImeComposing(event)) return;
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <form className="nav-item__rename" onSubmit={submit}>
      <input
        className="nav-item__rename-input"
        aria-label={t("list.title")}
        data-testid="session-rename-input"
        value={value}
        disabled={disabled}
        autoFocus
        maxLength={200}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKeyDown}
      />
    </form>
  );
}
