// The conversation in the chat column: which session it shows, its transcript, and what
// the UI is waiting for. Async work lives in ./useChat; this is the pure part.
import type { EventEnvelope, HistoryPage, SessionSummary } from "../gen/protocol";
import type { CommandError } from "../ipc";
import { applyBatch, emptyTranscript, mergeAgents, type TranscriptState } from "./transcript";

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
  error: CommandError | null;
  /** Text to put in the composer (a rewound message); `id` changes with each request. */
  prefill: { id: number; text: string } | null;
  /** An event to bring into view once the history is shown (a search hit). */
  focusSeq: number | null;
  /**
   * A long session is read from its end: where the loaded history starts and whether
   * earlier pages exist. Null when everything from the first event is here.
   */
  history: { from: number; more: boolean } | null;
}

export type ChatAction =
  | { type: "reset" }
  | { type: "loading" }
  | { type: "opened"; session: SessionSummary }
  | { type: "events"; sessionId: string; batch: EventEnvelope[] }
  | { type: "sending" }
  | { type: "failed"; error: CommandError }
  | { type: "dismiss_error" }
  | { type: "prefill"; text: string }
  | { type: "focus"; seq: number | null }
  /** The stored history from its end (a long session's first page). */
  | { type: "page"; sessionId: string; page: HistoryPage }
  /** An earlier page, shown above what is there. */
  | { type: "older"; sessionId: string; page: HistoryPage };

export const initialChat: ChatState = {
  session: null,
  transcript: emptyTranscript,
  phase: "idle",
  error: null,
  prefill: null,
  focusSeq: null,
  history: null,
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
      };
    case "events": {
      if (state.session?.id !== action.sessionId) {
        return state; // a batch from a session the user has left
      }
      const transcript = applyBatch(state.transcript, action.batch);
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
      return transcript === state.transcript && phase === state.phase && session === state.session
        ? state
        : { ...state, session, transcript, phase };
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
      const applied = applyBatch(state.transcript, action.page.events);
      const transcript = { ...applied, lastSeq: Math.max(applied.lastSeq, action.page.to_seq) };
      const loaded = transcript.lastSeq >= (state.session?.last_seq ?? 0);
      return {
        ...state,
        transcript,
        phase: state.phase === "loading" && loaded ? "idle" : state.phase,
        history: action.page.has_more ? { from: action.page.from_seq, more: true } : null,
      };
    }
    case "older": {
      if (state.session?.id !== action.sessionId || state.history === null) return state;
      // Only the page that ends where the loaded history starts fits above it.
      if (action.page.to_seq !== state.history.from - 1) return state;
      const older = applyBatch(emptyTranscript, action.page.events);
      const transcript = {
        ...state.transcript,
        entries: [...older.entries, ...state.transcript.entries],
        session: state.transcript.session ?? older.session,
        agents: mergeAgents(older.agents, state.transcript.agents),
      };
      return {
        ...state,
        transcript,
        history: action.page.has_more ? { from: action.page.from_seq, more: true } : null,
      };
    }
    case "prefill":
      return { ...state, prefill: { id: (state.prefill?.id ?? 0) + 1, text: action.text } };
  }
}
