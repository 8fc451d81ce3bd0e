import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";

import type { ApprovalMode, HostAction, ImageInput, ReviewDecision, SessionSummary } from "../gen/protocol";
import {
  commands,
  interruptTurn,
  resolveApproval,
  sendUserTurn,
  submitOp,
  subscribeSession,
  toCommandError,
} from "../ipc";
import { chatReducer, initialChat, type ChatState } from "./chat";
import { runningTurn, type TurnView } from "./transcript";

export interface ChatController {
  state: ChatState;
  running: TurnView | null;
  /** Resolves true once the message was handed to the session (the composer then clears). */
  send: (text: string, images?: ImageInput[]) => Promise<boolean>;
  stop: () => void;
  resolve: (requestId: string, decision: ReviewDecision) => Promise<void>;
  /** Opens a stored session; `focusSeq` scrolls to that event once shown. */
  openSession: (summary: SessionSummary, focusSeq?: number) => void;
  /** The focus was brought into view. */
  clearFocus: () => void;
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
  /** The approval mode the next new session starts in; null: config.toml's default. */
  nextApprovalMode: ApprovalMode | null;
  /** Changes the open session's approval mode, or the next session's when none is open. */
  setApprovalMode: (mode: ApprovalMode) => void;
  dismissError: () => void;
}

/**
 * Drives the conversation of folder `cwd`. `onSessionsChanged` fires when the sidebar's
 * session list is stale: a session was created, a turn ended, a title became known.
 */
export function useChat(cwd: string | null, onSessionsChanged: () => void): ChatController {
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const [nextProvider, setNextProvider] = useState<string | null>(null);
  const providerRef = useRef(nextProvider);
  providerRef.current = nextProvider;
  const [nextApprovalMode, setNextApprovalMode] = useState<ApprovalMode | null>(null);
  const approvalModeRef = useRef(nextApprovalMode);
  approvalModeRef.current = nextApprovalMode;
  const stateRef = useRef(state);
  stateRef.current = state;
  const changed = useRef(onSessionsChanged);
  changed.current = onSessionsChanged;
  // Bumped whenever the chat switches conversation; async work of an older one stops there.
  const generation = useRef(0);

  // Set below; host actions (/new, /resume) are acted on through it.
  const onHostAction = useRef<(action: HostAction) => void>(() => undefined);

  const attach = useCallback(async (session: SessionSummary, gen: number) => {
    // Always from 0: the transcript is rebuilt from the full history, deduplicated by seq.
    await subscribeSession(session.id, 0, (batch) => {
      if (gen !== generation.current) return;
      dispatch({ type: "events", sessionId: session.id, batch });
      // Replayed turns change nothing in the sidebar; a turn starting (the first message
      // names an untitled session) or ending now does.
      const live = batch.filter((e) => e.seq > session.last_seq);
      if (live.some((e) => e.event.type === "turn_started" || e.event.type === "turn_ended")) changed.current();
      // Only commands typed now act on the window; replayed history never does.
      for (const envelope of batch) {
        const { event } = envelope;
        if (envelope.seq > session.last_seq && event.type === "command_result" && event.ok && event.action) {
          onHostAction.current(event.action);
        }
      }
    });
  }, []);

  const newSession = useCallback(() => {
    generation.current++;
    dispatch({ type: "reset" });
  }, []);

  useEffect(newSession, [cwd, newSession]);

  const openSession = useCallback(
    (summary: SessionSummary, focusSeq?: number) => {
      const gen = ++generation.current;
      dispatch({ type: "loading" });
      if (focusSeq !== undefined) dispatch({ type: "focus", seq: focusSeq });
      void (async () => {
        try {
          const session = await commands.resumeSession({ sessionId: summary.id });
          if (gen !== generation.current) return;
          dispatch({ type: "opened", session });
          await attach(session, gen);
        } catch (raised) {
          if (gen === generation.current) dispatch({ type: "failed", error: toCommandError("resume_session", raised) });
        }
      })();
    },
    [attach],
  );

  const rewind = useCallback(
    (turn: TurnView) => {
      const current = stateRef.current.session;
      if (current === null) return;
      const gen = ++generation.current;
      dispatch({ type: "loading" });
      void (async () => {
        try {
          const { session, text } = await commands.rewindSession({ sessionId: current.id, turnSeq: turn.startSeq });
          if (gen !== generation.current) return;
          dispatch({ type: "opened", session });
          dispatch({ type: "prefill", text });
          await attach(session, gen);
          changed.current();
        } catch (raised) {
          if (gen === generation.current) dispatch({ type: "failed", error: toCommandError("rewind_session", raised) });
        }
      })();
    },
    [attach],
  );

  const openRestored = useCallback(
    (session: SessionSummary, message: string | null) => {
      const gen = ++generation.current;
      dispatch({ type: "opened", session });
      if (message !== null) dispatch({ type: "prefill", text: message });
      void (async () => {
        try {
          await attach(session, gen);
          changed.current();
        } catch (raised) {
          if (gen === generation.current) dispatch({ type: "failed", error: toCommandError("restore_session", raised) });
        }
      })();
    },
    [attach],
  );

  onHostAction.current = (action: HostAction) => {
    switch (action.type) {
      case "new_session":
        newSession();
        changed.current();
        return;
      case "resume_session":
        if (action.session_id) {
          openSession({ ...(stateRef.current.session as SessionSummary), id: action.session_id });
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
      if (cwd === null) return false;
      const gen = generation.current;
      dispatch({ type: "sending" });
      try {
        let session = stateRef.current.session;
        if (session === null) {
          // A fresh conversation becomes a session only when there is something to say.
          const provider = providerRef.current;
          session = await commands.startSession({ cwd, provider, approvalMode: approvalModeRef.current });
          if (gen !== generation.current) return false;
          dispatch({ type: "opened", session });
          await attach(session, gen);
          changed.current();
        }
        await sendUserTurn(session.id, text, images);
        return true;
      } catch (raised) {
        if (gen === generation.current) dispatch({ type: "failed", error: toCommandError("send", raised) });
        return false;
      }
    },
    [cwd, attach],
  );

  const stop = useCallback(() => {
    const session = stateRef.current.session;
    if (session === null) return;
    interruptTurn(session.id).catch((raised: unknown) =>
      dispatch({ type: "failed", error: toCommandError("interrupt", raised) }),
    );
  }, []);

  const resolve = useCallback(async (requestId: string, decision: ReviewDecision) => {
    const session = stateRef.current.session;
    if (session === null) return;
    try {
      await resolveApproval(session.id, requestId, decision);
    } catch (raised) {
      dispatch({ type: "failed", error: toCommandError("resolve_approval", raised) });
    }
  }, []);

  const dismissError = useCallback(() => dispatch({ type: "dismiss_error" }), []);

  const switchModel = useCallback((provider: string) => {
    const session = stateRef.current.session;
    if (session === null || provider === "") return;
    // The answer (model_switched, or an error) arrives as an event of the session.
    submitOp(session.id, { type: "switch_model", provider, model: null }).catch((raised: unknown) =>
      dispatch({ type: "failed", error: toCommandError("switch_model", raised) }),
    );
  }, []);

  const setApprovalMode = useCallback((mode: ApprovalMode) => {
    const session = stateRef.current.session;
    if (session === null) {
      setNextApprovalMode(mode);
      return;
    }
    // The answer (approval_mode_changed) arrives as an event of the session.
    submitOp(session.id, { type: "set_approval_mode", mode }).catch((raised: unknown) =>
      dispatch({ type: "failed", error: toCommandError("set_approval_mode", raised) }),
    );
  }, []);

  const answerElicitation = useCallback(
    async (requestId: string, action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => {
      const session = stateRef.current.session;
      if (session === null) return;
      try {
        await submitOp(session.id, { type: "resolve_elicitation", request_id: requestId, action, ...(content ? { content } : {}) });
      } catch (raised) {
        dispatch({ type: "failed", error: toCommandError("resolve_elicitation", raised) });
      }
    },
    [],
  );

  const running = useMemo(() => runningTurn(state.transcript), [state.transcript]);
  const clearFocus = useCallback(() => dispatch({ type: "focus", seq: null }), []);
  const chooseProvider = useCallback((name: string) => setNextProvider(name === "" ? null : name), []);
  return {
    state,
    running,
    send,
    stop,
    resolve,
    openSession,
    clearFocus,
    newSession,
    rewind,
    openRestored,
    nextProvider,
    chooseProvider,
    switchModel,
    nextApprovalMode,
    setApprovalMode,
    answerElicitation,
    dismissError,
  };
}
