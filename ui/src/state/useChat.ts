import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";

import type { ApprovalMode, EventEnvelope, HostAction, ImageInput, ReviewDecision, SessionSummary } from "../gen/protocol";
import {
  IpcError,
  ipc,
  interruptTurn,
  resolveApproval,
  sendUserTurn,
  submitOp,
  subscribeSession,
  toIpcError,
} from "../ipc";
import type { ChatAction, ChatState } from "./chat";
import { tailRunning } from "./chatTail";
import { subscribeAfter } from "./chatWindow";
import { externalAgentOf } from "./externalAgents";
import { chatsReducer, draftKey, evictable, initialChats, shownChat, shownKey } from "./chats";
import { frameQueue } from "./frameQueue";
import type { TurnView } from "./transcript";
import { t } from "../i18n";

/** Sessions longer than this (in events) open from their end, a page of turns at a time. */
const PAGED_ABOVE_EVENTS = 2000;
/** Turns per page of a long session. */
const PAGE_TURNS = 40;

export interface ChatController {
  state: ChatState;
  /** The turn running at the session's end, loaded in the window or not. */
  running: TurnView | null;
  /** Resolves true once the message was handed to the session (the composer then clears). */
  send: (text: string, images?: ImageInput[]) => Promise<boolean>;
  stop: () => void;
  /** Runs the session's failed or interrupted last turn again, its message sent once. */
  retryTurn: () => void;
  resolve: (requestId: string, decision: ReviewDecision) => Promise<void>;
  /**
   * Shows a stored session in folder `inFolder` (default: the current one); `focusSeq`
   * scrolls to that event once shown.
   */
  openSession: (target: { id: string }, focusSeq?: number, inFolder?: string) => void;
  /**
   * Shows a session started elsewhere with the next session's choices (a worktree session):
   * the mode picked for it is used up, as when a message starts one here.
   */
  openStarted: (session: SessionSummary) => void;
  /** Lets go of a session's conversation (it was deleted). */
  forget: (sessionId: string) => void;
  /** Reads the page before the loaded part of a long session (`state.history`). */
  loadOlder: () => void;
  /** Reads the page after it, when it does not reach the live end. */
  loadNewer: () => void;
  /** Loads the session's end in place of a stretch short of it; resolves once shown. */
  jumpToLatest: () => Promise<void>;
  /** The focus was brought into view. */
  clearFocus: () => void;
  /**
   * What the user reads in session `sessionId`: the key of the entry at the top of the view,
   * or null while the view follows the end. Live events never let that entry go.
   */
  setReading: (sessionId: string, key: string | null) => void;
  newSession: () => void;
  /** Continues in a new session from before `turn`, with its message back in the composer. */
  rewind: (turn: TurnView) => void;
  /** Opens a conversation a restore made, with `message` offered again in the composer. */
  openRestored: (session: SessionSummary, message: string | null) => void;
  /** The provider the next new session starts with; null: config.toml's current one. */
  nextProvider: string | null;
  chooseProvider: (name: string) => void;
  /** Switches the open session to `provider` (its configured model) for the next turns. */
  switchModel: (provider: string) => void;
  /** Answers an MCP server's request for input in the open session. */
  answerElicitation: (requestId: string, action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => Promise<void>;
  /**
   * The approval mode the next new session starts in; null: config.toml's default. Used up
   * once a session starts with it, and dropped by "New session".
   */
  nextApprovalMode: ApprovalMode | null;
  /** Changes the open session's approval mode, or the next session's when none is open. */
  setApprovalMode: (mode: ApprovalMode) => void;
  /** Sets one of the open session's external agent's own settings (its mode, model…). */
  setAgentSetting: (setting: string, value: string) => void;
  dismissError: () => void;
}

/**
 * Drives the conversations of the window: folder `cwd`'s shown one is the controller's
 * `state`; every session shown before stays subscribed and current in the background (up
 * to MAX_KEPT), so switching folder or session never stops or loses a running turn and
 * switching back is instant. `onSessionsChanged` fires when the sidebar's session list is
 * stale: a session was created, a turn ended, a title became known.
 */
export function useChat(cwd: string | null, onSessionsChanged: () => void): ChatController {
  const [chats, dispatchAll] = useReducer(chatsReducer, initialChats);
  const state = shownChat(chats, cwd);
  const [nextProvider, setNextProvider] = useState<string | null>(null);
  const providerRef = useRef(nextProvider);
  providerRef.current = nextProvider;
  const [nextApprovalMode, setNextApprovalMode] = useState<ApprovalMode | null>(null);
  const approvalModeRef = useRef(nextApprovalMode);
  approvalModeRef.current = nextApprovalMode;
  const stateRef = useRef(state);
  stateRef.current = state;
  const chatsRef = useRef(chats);
  chatsRef.current = chats;
  const cwdRef = useRef(cwd);
  cwdRef.current = cwd;
  const changed = useRef(onSessionsChanged);
  changed.current = onSessionsChanged;
  // Sessions whose events this window receives; each is subscribed once. The value marks
  // one subscription: batches of an earlier one, let go (forgotten, evicted) while some were
  // still on their way, are dropped instead of landing in the conversation read anew.
  const subscribed = useRef(new Map<string, object>());
  // Set below; openSession lets go of a session it must read again.
  const forgetRef = useRef<(sessionId: string) => void>(() => undefined);

  const dispatchTo = useCallback((key: string, action: ChatAction) => dispatchAll({ type: "chat", key, action }), []);
  // The entry each session's view reads (absent: following the end). A ref, not state: it
  // changes as the user scrolls and matters only when events arrive.
  const reading = useRef(new Map<string, string>());
  // Events reach the reducers once a frame (all sessions' in one render).
  const [incoming] = useState(() =>
    frameQueue<EventEnvelope>((sessionId, batch) =>
      dispatchAll({
        type: "chat",
        key: sessionId,
        action: { type: "events", sessionId, batch, reading: reading.current.get(sessionId) ?? null },
      }),
    ),
  );
  const setReading = useCallback((sessionId: string, key: string | null) => {
    if (key === null) reading.current.delete(sessionId);
    else reading.current.set(sessionId, key);
  }, []);
  useEffect(() => () => incoming.dispose(), [incoming]);

  // Set below; host actions (/new, /resume) are acted on through it.
  const onHostAction = useRef<(action: HostAction) => void>(() => undefined);

  const attach = useCallback(
    async (session: SessionSummary, afterSeq = 0) => {
      if (subscribed.current.has(session.id)) return;
      const subscription = {};
      subscribed.current.set(session.id, subscription);
      try {
        // Stored events after `afterSeq` first (all of a short session; what follows the
        // loaded page of a long one), then live ones; deduplicated by seq.
        await subscribeSession(session.id, afterSeq, (batch) => {
          if (subscribed.current.get(session.id) !== subscription) return;
          incoming.push(session.id, batch);
          // Replayed turns change nothing in the sidebar; a turn starting (the first message
          // names an untitled session) or ending now does.
          const live = batch.filter((e) => e.seq > session.last_seq);
          if (live.some((e) => e.event.type === "turn_started" || e.event.type === "turn_ended")) changed.current();
          // Only commands typed now, in the conversation in front, act on the window.
          if (shownKey(chatsRef.current, cwdRef.current) !== session.id) return;
          for (const envelope of live) {
            const { event } = envelope;
            if (event.type === "command_result" && event.ok && event.action) onHostAction.current(event.action);
          }
        });
      } catch (raised) {
        if (subscribed.current.get(session.id) === subscription) subscribed.current.delete(session.id);
        throw raised;
      }
    },
    [incoming],
  );

  // Conversations past MAX_KEPT that nobody looks at are let go (resubscribed if reopened).
  useEffect(() => {
    const gone = evictable(chats);
    if (gone.length === 0) return;
    for (const id of gone) {
      subscribed.current.delete(id);
      reading.current.delete(id);
      incoming.discard(id);
      ipc.unsubscribeSession({ sessionId: id }).catch(() => undefined);
    }
    dispatchAll({ type: "drop", keys: gone });
  }, [chats, incoming]);

  const newSession = useCallback(() => {
    const folder = cwdRef.current;
    if (folder === null) return;
    dispatchTo(draftKey(folder), { type: "reset" });
    dispatchAll({ type: "show", cwd: folder, key: draftKey(folder) });
    // A mode picked for an earlier session is not this one's: it starts in the default.
    setNextApprovalMode(null);
  }, [dispatchTo]);

  const openSession = useCallback(
    (summary: { id: string }, focusSeq?: number, inFolder?: string) => {
      const folder = inFolder ?? cwdRef.current;
      if (folder === null) return;
      const known = chatsRef.current.byKey[summary.id];
      // A search hit outside the loaded part of a kept session: read it again from there.
      const outside =
        known !== undefined && focusSeq !== undefined && known.history !== null &&
        (focusSeq < known.history.from || (known.history.after && focusSeq > known.transcript.lastSeq));
      if (outside) forgetRef.current(summary.id);
      const kept = chatsRef.current.byKey[summary.id] !== undefined && subscribed.current.has(summary.id) && !outside;
      if (!kept) dispatchTo(summary.id, { type: "loading" });
      dispatchAll({ type: "show", cwd: folder, key: summary.id });
      if (focusSeq !== undefined) dispatchTo(summary.id, { type: "focus", seq: focusSeq });
      // Already here and current: nothing to fetch, the switch is instant.
      if (kept) return;
      void (async () => {
        try {
          const session = await ipc.resumeSession({ sessionId: summary.id });
          dispatchTo(session.id, { type: "opened", session });
          if (session.id !== summary.id) {
            // Imported history continues in a fork: show that instead.
            dispatchAll({ type: "show", cwd: folder, key: session.id });
            dispatchAll({ type: "drop", keys: [summary.id] });
          }
          if (session.last_seq <= PAGED_ABOVE_EVENTS) {
            await attach(session);
            return;
          }
          // A long session: its end (or a page from a search hit on) first, earlier and
          // later pages on demand. Short of the end, only what happens from now on comes
          // live (held back until the window meets the end); the log in between is paged.
          const page = await ipc.historyPage({
            sessionId: session.id,
            beforeSeq: null,
            turns: PAGE_TURNS,
            fromSeq: focusSeq ?? null,
          });
          // Short of the end, the end's last turn too: a turn may be running there, or
          // asking for approval, and the composer and the controls must know.
          const end = page.has_after
            ? await ipc.historyPage({ sessionId: session.id, beforeSeq: null, turns: 1, fromSeq: null })
            : undefined;
          dispatchTo(session.id, { type: "page", sessionId: session.id, page, ...(end ? { end } : {}) });
          await attach(session, subscribeAfter(page, session.last_seq));
        } catch (raised) {
          const error = toIpcError("resume_session", raised);
          // Another program runs it (an editor's `memo-cli acp`): its stored history is
          // still there to read, under the sentence saying where it runs.
          if (error.code === "conflict" && isSummary(summary)) {
            try {
              dispatchTo(summary.id, { type: "opened", session: summary });
              const page = await ipc.historyPage({ sessionId: summary.id, beforeSeq: null, turns: PAGE_TURNS, fromSeq: focusSeq ?? null });
              dispatchTo(summary.id, { type: "page", sessionId: summary.id, page });
            } catch {
              // Nothing more to show than the error itself.
            }
          }
          dispatchTo(summary.id, { type: "failed", error });
        }
      })();
    },
    [attach, dispatchTo],
  );

  const openStarted = useCallback(
    (session: SessionSummary) => {
      approvalModeRef.current = null;
      setNextApprovalMode(null);
      openSession(session);
    },
    [openSession],
  );

  /** Shows a session made here (a rewind, a restore) with `message` back in the composer. */
  const showNew = useCallback(
    async (session: SessionSummary, message: string | null, folder: string) => {
      dispatchTo(session.id, { type: "opened", session });
      if (message !== null) dispatchTo(session.id, { type: "prefill", text: message });
      dispatchAll({ type: "show", cwd: folder, key: session.id });
      await attach(session);
      changed.current();
    },
    [attach, dispatchTo],
  );

  const rewind = useCallback(
    (turn: TurnView) => {
      const current = stateRef.current.session;
      const folder = cwdRef.current;
      if (current === null || folder === null) return;
      void (async () => {
        try {
          const { session, text } = await ipc.rewindSession({ sessionId: current.id, turnSeq: turn.startSeq });
          await showNew(session, text, folder);
        } catch (raised) {
          dispatchTo(current.id, { type: "failed", error: toIpcError("rewind_session", raised) });
        }
      })();
    },
    [dispatchTo, showNew],
  );

  const openRestored = useCallback(
    (session: SessionSummary, message: string | null) => {
      const folder = cwdRef.current;
      if (folder === null) return;
      showNew(session, message, folder).catch((raised: unknown) =>
        dispatchTo(session.id, { type: "failed", error: toIpcError("restore_session", raised) }),
      );
    },
    [dispatchTo, showNew],
  );

  const forget = useCallback(
    (sessionId: string) => {
      reading.current.delete(sessionId);
      if (subscribed.current.delete(sessionId)) {
        ipc.unsubscribeSession({ sessionId }).catch(() => undefined);
      }
      incoming.discard(sessionId);
      dispatchAll({ type: "drop", keys: [sessionId] });
    },
    [incoming],
  );
  forgetRef.current = forget;

  // One earlier page at a time per session.
  const loadingOlder = useRef(new Set<string>());
  const loadOlder = useCallback(() => {
    const { session, history } = stateRef.current;
    if (session === null || !history?.more || loadingOlder.current.has(session.id)) return;
    loadingOlder.current.add(session.id);
    ipc
      .historyPage({ sessionId: session.id, beforeSeq: history.from, turns: PAGE_TURNS, fromSeq: null })
      .then(
        (page) => dispatchTo(session.id, { type: "older", sessionId: session.id, page }),
        (raised: unknown) => dispatchTo(session.id, { type: "failed", error: toIpcError("history_page", raised) }),
      )
      .finally(() => loadingOlder.current.delete(session.id));
  }, [dispatchTo]);

  // One later page (or end page) at a time per session.
  const loadingNewer = useRef(new Set<string>());
  const loadNewer = useCallback(() => {
    const { session, history, transcript } = stateRef.current;
    if (session === null || !history?.after || loadingNewer.current.has(session.id)) return;
    loadingNewer.current.add(session.id);
    ipc
      .historyPage({ sessionId: session.id, beforeSeq: null, turns: PAGE_TURNS, fromSeq: transcript.lastSeq + 1 })
      .then(
        (page) => dispatchTo(session.id, { type: "newer", sessionId: session.id, page }),
        (raised: unknown) => dispatchTo(session.id, { type: "failed", error: toIpcError("history_page", raised) }),
      )
      .finally(() => loadingNewer.current.delete(session.id));
  }, [dispatchTo]);

  const jumpToLatest = useCallback(async () => {
    const { session, held } = stateRef.current;
    if (session === null || held === null) return;
    loadingNewer.current.add(session.id);
    try {
      const page = await ipc.historyPage({ sessionId: session.id, beforeSeq: null, turns: PAGE_TURNS, fromSeq: null });
      dispatchTo(session.id, { type: "latest", sessionId: session.id, page });
    } catch (raised) {
      dispatchTo(session.id, { type: "failed", error: toIpcError("history_page", raised) });
    } finally {
      loadingNewer.current.delete(session.id);
    }
  }, [dispatchTo]);

  onHostAction.current = (action: HostAction) => {
    switch (action.type) {
      case "new_session":
        newSession();
        changed.current();
        return;
      case "resume_session":
        if (action.session_id) {
          openSession({ id: action.session_id });
        }
        return;
      case "pick_model":
        // The answer lists the models; a session keeps its model, and the header picks
        // the model of the next new session.
        return;
    }
  };

  const send = useCallback(
    async (text: string, images: ImageInput[] = []) => {
      const folder = cwdRef.current;
      if (folder === null) return false;
      let key = shownKey(chatsRef.current, folder) ?? draftKey(folder);
      // The session would refuse it (one turn at a time), but only in an event after the
      // composer had cleared: refused here, the message stays in the composer.
      if (tailRunning(stateRef.current.tail) !== null) {
        const refused = new IpcError("send", "conflict", t("chat:composer.turnStillRunning"), false);
        dispatchTo(key, { type: "failed", error: refused });
        return false;
      }
      dispatchTo(key, { type: "sending" });
      try {
        let session = stateRef.current.session;
        // Read far back: the message and its answer belong at the end, shown from there.
        if (stateRef.current.held !== null) await jumpToLatest();
        if (session === null) {
          // A fresh conversation becomes a session only when there is something to say.
          const provider = providerRef.current;
          const agent = externalAgentOf(provider);
          session =
            agent !== null
              ? await ipc.startExternalSession({ cwd: folder, agent, approvalMode: approvalModeRef.current })
              : await ipc.startSession({ cwd: folder, provider, approvalMode: approvalModeRef.current });
          // The pick was for this session; the next one starts in the default again (a
          // Strict chosen here carried into every later session).
          approvalModeRef.current = null;
          setNextApprovalMode(null);
          dispatchTo(key, { type: "opened", session });
          dispatchAll({ type: "promote", cwd: folder, sessionId: session.id });
          key = session.id;
          await attach(session);
          changed.current();
        }
        await sendUserTurn(session.id, text, images);
        return true;
      } catch (raised) {
        dispatchTo(key, { type: "failed", error: toIpcError("send", raised) });
        return false;
      }
    },
    [attach, dispatchTo, jumpToLatest],
  );

  const stop = useCallback(() => {
    const session = stateRef.current.session;
    if (session === null) return;
    interruptTurn(session.id).catch((raised: unknown) =>
      dispatchTo(session.id, { type: "failed", error: toIpcError("interrupt", raised) }),
    );
  }, [dispatchTo]);

  const retryTurn = useCallback(() => {
    const session = stateRef.current.session;
    if (session === null) return;
    submitOp(session.id, { type: "retry_turn" }).catch((raised: unknown) =>
      dispatchTo(session.id, { type: "failed", error: toIpcError("retry", raised) }),
    );
  }, [dispatchTo]);

  const resolve = useCallback(async (requestId: string, decision: ReviewDecision) => {
    const session = stateRef.current.session;
    if (session === null) return;
    try {
      await resolveApproval(session.id, requestId, decision);
    } catch (raised) {
      dispatchTo(session.id, { type: "failed", error: toIpcError("resolve_approval", raised) });
    }
  }, [dispatchTo]);

  const dismissError = useCallback(() => {
    const key = shownKey(chatsRef.current, cwdRef.current);
    if (key !== null) dispatchTo(key, { type: "dismiss_error" });
  }, [dispatchTo]);

  const switchModel = useCallback((provider: string) => {
    const session = stateRef.current.session;
    if (session === null || provider === "") return;
    // The answer (model_switched, or an error) arrives as an event of the session.
    submitOp(session.id, { type: "switch_model", provider, model: null }).catch((raised: unknown) =>
      dispatchTo(session.id, { type: "failed", error: toIpcError("switch_model", raised) }),
    );
  }, [dispatchTo]);

  const setApprovalMode = useCallback((mode: ApprovalMode) => {
    const session = stateRef.current.session;
    if (session === null) {
      setNextApprovalMode(mode);
      return;
    }
    // The answer (approval_mode_changed) arrives as an event of the session.
    submitOp(session.id, { type: "set_approval_mode", mode }).catch((raised: unknown) =>
      dispatchTo(session.id, { type: "failed", error: toIpcError("set_approval_mode", raised) }),
    );
  }, [dispatchTo]);

  const setAgentSetting = useCallback((setting: string, value: string) => {
    const session = stateRef.current.session;
    if (session === null) return;
    // The answer (external_agent_settings, or an error naming what it offers) is an event.
    submitOp(session.id, { type: "set_agent_setting", setting, value }).catch((raised: unknown) =>
      dispatchTo(session.id, { type: "failed", error: toIpcError("set_agent_setting", raised) }),
    );
  }, [dispatchTo]);

  const answerElicitation = useCallback(
    async (requestId: string, action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => {
      const session = stateRef.current.session;
      if (session === null) return;
      try {
        await submitOp(session.id, { type: "resolve_elicitation", request_id: requestId, action, ...(content ? { content } : {}) });
      } catch (raised) {
        dispatchTo(session.id, { type: "failed", error: toIpcError("resolve_elicitation", raised) });
      }
    },
    [dispatchTo],
  );

  // From the session's end, not the loaded window: a running turn may be far from it.
  const running = useMemo(() => tailRunning(state.tail), [state.tail]);
  const clearFocus = useCallback(() => {
    const key = shownKey(chatsRef.current, cwdRef.current);
    if (key !== null) dispatchTo(key, { type: "focus", seq: null });
  }, [dispatchTo]);
  const chooseProvider = useCallback((name: string) => setNextProvider(name === "" ? null : name), []);
  return {
    state,
    running,
    send,
    stop,
    retryTurn,
    resolve,
    openSession,
    openStarted,
    clearFocus,
    setReading,
    newSession,
    rewind,
    openRestored,
    nextProvider,
    chooseProvider,
    switchModel,
    nextApprovalMode,
    setApprovalMode,
    setAgentSetting,
    answerElicitation,
    dismissError,
    forget,
    loadOlder,
    loadNewer,
    jumpToLatest,
  };
}

/** A whole session summary (the sidebar's), not just an id to open. */
function isSummary(summary: { id: string }): summary is SessionSummary {
  return "cwd" in summary && "last_seq" in summary;
}
