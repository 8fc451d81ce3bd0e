// The conversation in the chat column: which session it shows, its transcript, and what
// the UI is waiting for. Async work lives in ./useChat; this is the pure part.
import type { EventEnvelope, HistoryPage, SessionSummary } from "../gen/protocol";
import type { IpcError } from "../ipc";
import { type HeldEvents, type HistoryWindow, latestPage, liveEvents, newerPage, olderPage, openPage, WINDOW_LIMITS } from "./chatWindow";
import { type ChatTail, emptyTail, tailEvents, tailFromPage, tailOf } from "./chatTail";
import { emptyTranscript, type TranscriptState } from "./transcript";

/**
 * - `idle`: nothing in flight (a turn may still be running; see `runningTurn`).
 * - `loading`: resuming a stored session and replaying its history.
 * - `sending`: a message was submitted and its `turn_started` has not arrived yet.
 */
export type ChatPhase = "idle" | "loading" | "sending";

export interface ChatState {
  session: SessionSummary | null;
  transcript: TranscriptState;
  phase: ChatPhase;
  error: IpcError | null;
  /** Text to put in the composer (a rewound message); `id` changes with each request. */
  prefill: { id: number; text: string } | null;
  /** An event to bring into view once the history is shown (a search hit). */
  focusSeq: number | null;
  /**
   * A long session is read a page at a time: which stretch of it is loaded, whether more
   * lies before or after it. Null when everything from the first event to the live end is.
   */
  history: HistoryWindow | null;
  /** Live events held back while the loaded stretch does not reach the live end. */
  held: HeldEvents | null;
  /** Counts the times the window was moved to the live end ("Jump to latest"). */
  latest: number;
  /**
   * The session's end, whatever stretch the window holds: whether a turn runs there, what
   * waits for the user, what the last turn was.
   */
  tail: ChatTail;
}

export type ChatAction =
  | { type: "reset" }
  | { type: "loading" }
  | { type: "opened"; session: SessionSummary }
  /**
   * `reading`: the key of the entry at the top of the view while the user reads rather than
   * follows the end (null or absent: following); what it shows is not let go to make room.
   */
  | { type: "events"; sessionId: string; batch: EventEnvelope[]; reading?: string | null }
  | { type: "sending" }
  | { type: "failed"; error: IpcError }
  | { type: "dismiss_error" }
  | { type: "prefill"; text: string }
  | { type: "focus"; seq: number | null }
  /**
   * A long session's first page: its end, or from a search hit on; then `end` is the
   * session's end page, for the tail.
   */
  | { type: "page"; sessionId: string; page: HistoryPage; end?: HistoryPage }
  /** An earlier page, shown above what is there. */
  | { type: "older"; sessionId: string; page: HistoryPage }
  /** A later page, shown below what is there. */
  | { type: "newer"; sessionId: string; page: HistoryPage }
  /** The session's end page, in place of what is there. */
  | { type: "latest"; sessionId: string; page: HistoryPage };

export const initialChat: ChatState = {
  session: null,
  transcript: emptyTranscript,
  phase: "idle",
  error: null,
  prefill: null,
  focusSeq: null,
  history: null,
  held: null,
  latest: 0,
  tail: emptyTail,
};

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "reset":
      return initialChat;
    case "loading":
      return { ...initialChat, phase: "loading" };
    case "opened":
      // A session started by the first message stays `sending` until its turn starts; a
      // resumed one stays `loading` until its history arrives.
      return {
        session: action.session,
        transcript: emptyTranscript,
        phase: state.phase,
        error: null,
        prefill: state.prefill,
        focusSeq: state.focusSeq,
        history: null,
        held: null,
        latest: 0,
        tail: emptyTail,
      };
    case "events": {
      if (state.session?.id !== action.sessionId) {
        return state; // a batch from a session the user has left
      }
      // Shown, or held back while the loaded stretch does not reach the live end.
      const shown = liveEvents(state, action.batch, WINDOW_LIMITS, action.reading ?? null);
      // The end follows every live event, shown or held back.
      const tail = tailEvents(state.tail, action.batch, state.session.last_seq);
      const { transcript } = shown;
      // The header shows the model the next turn uses: follow switches.
      const switched = action.batch.filter((e) => e.event.type === "model_switched").pop();
      const session =
        switched && switched.event.type === "model_switched" && state.session
          ? { ...state.session, provider: switched.event.provider, model: switched.event.model }
          : state.session;
      // A slash command is answered by a `command_result` outside any turn: no turn starts.
      const answered = action.batch.some(
        (e) =>
          e.event.type === "turn_started" ||
          e.event.type === "error" ||
          (e.event.type === "command_result" && e.turn_id === null),
      );
      // A long history replays in several batches: loading ends when it has all arrived.
      const loaded = transcript.lastSeq >= (state.session?.last_seq ?? 0);
      const phase =
        (state.phase === "loading" && loaded) || (state.phase === "sending" && answered) ? "idle" : state.phase;
      return shown === state && tail === state.tail && phase === state.phase && session === state.session
        ? state
        : { ...shown, tail, session, phase };
    }
    case "sending":
      return { ...state, phase: "sending", error: null };
    case "failed":
      return { ...state, phase: "idle", error: action.error };
    case "dismiss_error":
      return { ...state, error: null };
    case "focus":
      return state.focusSeq === action.seq ? state : { ...state, focusSeq: action.seq };
    case "page": {
      if (state.session?.id !== action.sessionId) return state;
      const opened = openPage(state, action.page, state.session.last_seq);
      // Short of the end, the tail comes from the end page read with it; else it is the end.
      const tail = action.page.has_after
        ? action.end
          ? tailFromPage(action.end)
          : state.tail
        : tailOf(opened.transcript);
      // A page short of the end is all there is to load for now.
      const loaded = action.page.has_after || opened.transcript.lastSeq >= state.session.last_seq;
      return { ...opened, tail, phase: state.phase === "loading" && loaded ? "idle" : state.phase };
    }
    case "older":
      return state.session?.id === action.sessionId ? olderPage(state, action.page) : state;
    case "newer":
      return state.session?.id === action.sessionId ? newerPage(state, action.page) : state;
    case "latest": {
      if (state.session?.id !== action.sessionId) return state;
      const moved = latestPage(state, action.page);
      return moved === state ? state : { ...moved, latest: state.latest + 1 };
    }
    case "prefill":
      return { ...state, prefill: { id: (state.prefill?.id ?? 0) + 1, text: action.text } };
  }
}
