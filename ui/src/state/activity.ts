// Every live session's state as the sidebar shows it, and when to tell the user: the pure
// part of ./useActivity. The backend says what each session is doing; "unread" is the
// window's own notion (a turn ended while the session was not in front of the user).
import type { SessionActivity } from "../gen/protocol";
import { t } from "../i18n";

/** What a session row shows, most urgent first. */
export type SessionBadge = "waiting" | "running" | "failed" | "unread" | null;

export interface ActivityView {
  byId: Map<string, SessionActivity>;
  /** Session id -> the turns_ended count the user has seen. */
  seen: Record<string, number>;
}

export const emptyActivity: ActivityView = { byId: new Map(), seen: {} };

/** A new snapshot: sessions new to the window count as seen up to now. */
export function receive(view: ActivityView, snapshot: SessionActivity[]): ActivityView {
  const byId = new Map(snapshot.map((a) => [a.session_id, a]));
  const seen: Record<string, number> = {};
  for (const a of snapshot) seen[a.session_id] = view.seen[a.session_id] ?? a.turns_ended;
  return { byId, seen };
}

/** The user is looking at `sessionId`: everything it did so far is read. */
export function markSeen(view: ActivityView, sessionId: string | null): ActivityView {
  if (sessionId === null) return view;
  const activity = view.byId.get(sessionId);
  if (activity === undefined || view.seen[sessionId] === activity.turns_ended) return view;
  return { ...view, seen: { ...view.seen, [sessionId]: activity.turns_ended } };
}

export function badgeOf(view: ActivityView, sessionId: string): SessionBadge {
  const activity = view.byId.get(sessionId);
  if (activity === undefined) return null;
  if (activity.state === "waiting") return "waiting";
  if (activity.state === "running") return "running";
  const unread = activity.turns_ended > (view.seen[sessionId] ?? activity.turns_ended);
  if (!unread) return null;
  return activity.last_outcome === "failed" ? "failed" : "unread";
}

/** How many things one session waits for (approvals and questions). */
export function waitingCount(activity: SessionActivity): number {
  return activity.approvals.length + activity.questions;
}

/** Sessions waiting for the user, for the window's title and badge. */
export function sessionsWaiting(view: ActivityView): number {
  let count = 0;
  for (const a of view.byId.values()) if (a.state === "waiting") count++;
  return count;
}

/** Sessions the sidebar's "Active" list shows: every one with something to say. */
export function activeSessions(view: ActivityView): SessionActivity[] {
  return [...view.byId.values()].filter((a) => badgeOf(view, a.session_id) !== null);
}

export interface Notice {
  sessionId: string;
  title: string;
  body: string;
}

/**
 * What to notify about between two snapshots: a session that starts waiting for more than
 * before, or whose turn ended, while the user does not see it (`shownId` is the session in
 * front; `focused` whether the window has the focus).
 */
export function noticesBetween(
  before: ActivityView,
  after: ActivityView,
  shownId: string | null,
  focused: boolean,
): Notice[] {
  const notices: Notice[] = [];
  for (const a of after.byId.values()) {
    if (focused && a.session_id === shownId) continue;
    const prior = before.byId.get(a.session_id);
    if (prior === undefined) continue;
    const label = a.label.trim() === "" ? t("notifications:session.someSession") : t("notifications:session.named", { label: a.label });
    if (waitingCount(a) > waitingCount(prior) && a.approvals.length > prior.approvals.length) {
      const latest = a.approvals[a.approvals.length - 1];
      notices.push({
        sessionId: a.session_id,
        title: t("notifications:session.approvalNeeded"),
        body: t("notifications:session.wantsToRun", { label, summary: latest?.summary ?? t("notifications:session.aTool") }),
      });
    } else if (a.questions > prior.questions) {
      notices.push({
        sessionId: a.session_id,
        title: t("notifications:session.question"),
        body: t("notifications:session.waitingForAnswer", { label }),
      });
    } else if (a.turns_ended > prior.turns_ended) {
      const failed = a.last_outcome === "failed";
      notices.push({
        sessionId: a.session_id,
        title: failed ? t("notifications:session.failed") : t("notifications:session.finished"),
        body:
          failed && a.last_error
            ? t("notifications:session.failedWith", { label, error: a.last_error })
            : t("notifications:session.done", { label }),
      });
    }
  }
  return notices;
}

/** One session's dot: its badge and how many things it waits for. */
export function sessionStatus(view: ActivityView, sessionId: string): { badge: SessionBadge; count: number } {
  const activity = view.byId.get(sessionId);
  return { badge: badgeOf(view, sessionId), count: activity ? waitingCount(activity) : 0 };
}

const URGENCY: Record<Exclude<SessionBadge, null>, number> = { waiting: 4, failed: 3, running: 2, unread: 1 };

/**
 * A folder's dot: the most urgent of its live sessions', and how many things they wait
 * for. `folderOf` maps a session's folder to the one it shows under (a worktree's
 * repository).
 */
export function folderStatus(
  view: ActivityView,
  folder: string,
  folderOf: (path: string) => string = (path) => path,
): { badge: SessionBadge; count: number } {
  let badge: SessionBadge = null;
  let count = 0;
  for (const a of view.byId.values()) {
    if (folderOf(a.cwd) !== folder) continue;
    const own = badgeOf(view, a.session_id);
    if (own !== null && (badge === null || URGENCY[own] > URGENCY[badge])) badge = own;
    count += waitingCount(a);
  }
  return { badge, count };
}
