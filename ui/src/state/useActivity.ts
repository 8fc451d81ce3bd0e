import { useCallback, useEffect, useRef, useState } from "react";

import { Channel } from "@tauri-apps/api/core";

import type { SessionActivity } from "../gen/protocol";
import { ipc } from "../ipc";
import { t } from "../i18n";
import { emptyActivity, markSeen, noticesBetween, receive, sessionsWaiting, type ActivityView } from "./activity";
import { defaultAttentionPrefs, loadAttentionPrefs, onAttentionPrefs, type AttentionPrefs } from "./attentionPrefs";
import { onWindowSignal } from "./windowSignals";

/**
 * Follows every live session's activity. The session in front (`shownId`) is read as it
 * goes; others collect "unread" until shown. Notifies (and badges the window) as the
 * user's Notifications settings allow, and hands a clicked notification's session to
 * `onOpen`. `scope` is the Memo home; null until known.
 */
export function useActivity(
  scope: string | null,
  shownId: string | null,
  onOpen: (sessionId: string) => void,
): ActivityView {
  const [view, setView] = useState<ActivityView>(emptyActivity);
  const [prefs, setPrefs] = useState<AttentionPrefs>(defaultAttentionPrefs);
  const [focused, setFocused] = useState(() => document.hasFocus());
  const context = useRef({ shownId, focused, prefs });
  context.current = { shownId, focused, prefs };
  const openRef = useRef(onOpen);
  openRef.current = onOpen;

  useEffect(() => {
    if (scope === null) return;
    setPrefs(loadAttentionPrefs(window.localStorage, scope));
    return onAttentionPrefs(scope, setPrefs);
  }, [scope]);

  // The view as last computed: snapshots arrive outside React's render, and notifying
  // from inside a state updater could notify twice.
  const viewRef = useRef(view);
  const update = useCallback((change: (v: ActivityView) => ActivityView) => {
    const next = change(viewRef.current);
    if (next === viewRef.current) return;
    viewRef.current = next;
    setView(next);
  }, []);

  const onSnapshot = useCallback(
    (snapshot: SessionActivity[]) => {
      const before = viewRef.current;
      const { shownId: shown, focused: hasFocus, prefs: allowed } = context.current;
      let after = receive(before, snapshot);
      if (hasFocus) after = markSeen(after, shown);
      update(() => after);
      if (!allowed.desktop) return;
      for (const notice of noticesBetween(before, after, shown, hasFocus)) {
        ipc
          .notifySession({ sessionId: notice.sessionId, title: notice.title, body: notice.body, openLabel: t("common:open") })
          .catch(() => undefined);
      }
    },
    [update],
  );

  useEffect(() => {
    const channel = new Channel<SessionActivity[]>(onSnapshot);
    ipc.subscribeActivity({ onActivity: channel }).catch(() => undefined);
  }, [onSnapshot]);

  useEffect(() => {
    const onFocus = () => setFocused(true);
    const onBlur = () => setFocused(false);
    window.addEventListener("focus", onFocus);
    window.addEventListener("blur", onBlur);
    return () => {
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("blur", onBlur);
    };
  }, []);

  // Shown with the window in focus: read.
  useEffect(() => {
    if (focused) update((v) => markSeen(v, shownId));
  }, [focused, shownId, update]);

  const waiting = sessionsWaiting(view);
  useEffect(() => {
    const count = prefs.badge ? waiting : 0;
    // The page's title too: it is what the window shows where the shell cannot set one.
    document.title = count > 0 ? `Memo (${count})` : "Memo";
    ipc.setWaitingCount({ count }).catch(() => undefined);
  }, [waiting, prefs.badge]);

  // A notification about a session was clicked.
  useEffect(() => onWindowSignal("open_session", (signal) => openRef.current(signal.session_id)), []);

  return view;
}
