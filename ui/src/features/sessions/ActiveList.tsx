import { useState } from "react";

import type { SessionActivity } from "../../gen/protocol";
import { useT } from "../../i18n";
import { badgeOf, waitingCount, type ActivityView, type SessionBadge } from "../../state/activity";
import { folderName } from "../../state/workspaces";
import { StatusDot } from "./StatusDot";

interface ActiveListProps {
  activity: ActivityView;
  sessions: SessionActivity[];
  shownId: string | null;
  onOpen: (activity: SessionActivity) => void;
  /** Answers one pending approval; rejects with a message to show. */
  onDecide: (sessionId: string, requestId: string, approve: boolean) => Promise<void>;
  /** Where a session works, in words (a worktree session: its repository and branch). */
  placeOf?: (cwd: string) => string;
}

/**
 * The state in a word beside the folder: the running ring and the unread dot are both
 * small accent marks, and without a word a running session read as an unread one. Waiting
 * ones show their approvals below instead.
 */
const SAID_IN_WORDS: ReadonlySet<SessionBadge> = new Set<SessionBadge>(["running", "unread", "failed"]);

/**
 * Every session with something to say, whatever folder it is in: those waiting for an
 * approval first (answerable right here), then running, failed and finished-unread ones.
 */
export function ActiveList({ activity, sessions, shownId, onOpen, onDecide, placeOf = folderName }: ActiveListProps) {
  const t = useT("sessions");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (sessions.length === 0) return null;
  const rank = { waiting: 0, running: 1, failed: 2, unread: 3 } as const;
  const ordered = [...sessions].sort((a, b) => {
    const ra = rank[badgeOf(activity, a.session_id) ?? "unread"];
    const rb = rank[badgeOf(activity, b.session_id) ?? "unread"];
    return ra - rb || b.updated_ms - a.updated_ms;
  });

  const decide = async (sessionId: string, requestId: string, approve: boolean) => {
    setBusy(requestId);
    setError(null);
    try {
      await onDecide(sessionId, requestId, approve);
    } catch (raised) {
      setError(raised instanceof Error ? raised.message : String(raised));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="sidebar__section" aria-labelledby="sidebar-active" data-testid="active-list">
      <div className="sidebar__heading-row">
        <h2 id="sidebar-active" className="sidebar__heading">
          {t("active.heading")}
        </h2>
      </div>
      <ul className="nav-list">
        {ordered.map((a) => {
          const badge = badgeOf(activity, a.session_id);
          const shown = a.session_id === shownId;
          return (
            <li key={a.session_id} className={`active-item${shown ? " active-item--shown" : ""}`} data-testid="active-row" data-session={a.session_id}>
              <button type="button" className="active-item__main" onClick={() => onOpen(a)} data-testid="active-open" title={a.cwd}>
                <StatusDot badge={badge} count={waitingCount(a)} />
                <span className="active-item__text">
                  <span className="active-item__label">{a.label.trim() === "" ? t("active.newSession") : a.label}</span>
                  <span className="active-item__meta">
                    {badge !== null && SAID_IN_WORDS.has(badge) && (
                      <span className={`active-item__state active-item__state--${badge}`} data-testid="active-state">
                        {t(`active.${badge}`)}
                        {" · "}
                      </span>
                    )}
                    {placeOf(a.cwd)}
                    {badge === "failed" && a.last_error ? ` · ${a.last_error}` : ""}
                  </span>
                </span>
              </button>
              {a.approvals.map((p) => (
                <div key={p.request_id} className={`active-approval active-approval--${p.risk}`} data-testid="active-approval">
                  {p.agent && (
                    <span className="active-approval__agent" data-testid="active-approval-agent" title={p.agent.agent_id}>
                      {t("active.subagentAsks", { type: p.agent.agent_type })}
                    </span>
                  )}
                  <code className="active-approval__what" title={p.summary}>
                    {p.summary}
                  </code>
                  <div className="active-approval__actions">
                    <button
                      type="button"
                      className="button button--small button--primary"
                      disabled={busy !== null}
                      onClick={() => void decide(a.session_id, p.request_id, true)}
                      data-testid="sidebar-approve"
                      title={p.has_diff ? t("active.approveWhole") : t("active.approveOnce")}
                    >
                      {t("active.approve")}
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy !== null}
                      onClick={() => void decide(a.session_id, p.request_id, false)}
                      data-testid="sidebar-deny"
                    >
                      {t("active.deny")}
                    </button>
                  </div>
                </div>
              ))}
              {a.questions > 0 && <p className="active-item__note">{t("active.question")}</p>}
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="sidebar__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
