// The session's end as it is now, kept apart from the loaded window (./chatWindow). A long
// session's window may hold a stretch far from the end (a search hit, or read far back), so
// whatever asks "is a turn running?", "is the user asked something?" or "what was the last
// turn?" must not read the loaded transcript: the turn may simply not be loaded. The tail
// is the session's last turn on, seeded from the end page and kept current by every live
// event (shown or held back), whatever the window does. Pure.
import type { EventEnvelope, HistoryPage } from "../gen/protocol";
import { applyBatch, emptyTranscript, runningTurn, waitingApprovals, type TranscriptState, type TurnView } from "./transcript";
import { t } from "../i18n";

export interface ChatTail {
  /** From the session's last turn on (and what followed it); earlier turns are let go. */
  transcript: TranscriptState;
  /**
   * Questions (approvals, input requests) asked since the session was shown, counted up: a
   * new one needs the user's attention now even when the window is far from the end. Those
   * asked before (in the end page, or replayed when a short session opens) are not counted.
   */
  asked: number;
}

export const emptyTail: ChatTail = { transcript: emptyTranscript, asked: 0 };

const isAsk = (e: EventEnvelope) => e.event.type === "approval_requested" || e.event.type === "elicitation_requested";

/**
 * Keeps the last turn and what follows it, and any input request still unanswered before
 * it (an MCP server may wait across turns); relayed approvals stay in `agents`. Bounded
 * this way, the tail costs one turn whatever the session's length.
 */
function cut(transcript: TranscriptState): TranscriptState {
  const { entries } = transcript;
  let last = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]?.kind === "turn") {
      last = i;
      break;
    }
  }
  if (last <= 0) return transcript;
  const waiting = entries.slice(0, last).filter((e) => e.kind === "elicitation" && e.answer === null);
  return { ...transcript, entries: [...waiting, ...entries.slice(last)] };
}

/** The tail of a transcript that reaches the session's end (an end page, all of a session). */
export function tailOf(transcript: TranscriptState): ChatTail {
  return { transcript: cut(transcript), asked: 0 };
}

/** The tail read from the session's end page, for a window opened short of the end. */
export function tailFromPage(page: HistoryPage): ChatTail {
  const applied = applyBatch(emptyTranscript, page.events);
  return tailOf({ ...applied, lastSeq: Math.max(applied.lastSeq, page.to_seq) });
}

/**
 * Live events: the tail follows them, held back from the window or not. `shownAt`: the
 * session's last seq when it was shown; questions after it are new.
 */
export function tailEvents(tail: ChatTail, batch: readonly EventEnvelope[], shownAt: number): ChatTail {
  // Seqs already in the tail (a resubscription, or the end page overlapping the first live
  // batch) are skipped by the transcript reducer; only new questions are counted.
  const fresh = batch.filter((e) => e.seq === 0 || e.seq > tail.transcript.lastSeq);
  if (fresh.length === 0) return tail;
  const transcript = applyBatch(tail.transcript, fresh);
  const asked = tail.asked + fresh.filter((e) => e.seq > shownAt && isAsk(e)).length;
  const started = fresh.some((e) => e.event.type === "turn_started");
  return { transcript: started ? cut(transcript) : transcript, asked };
}

/** The turn running at the session's end, if any (Stop, Esc, the controls a turn locks). */
export function tailRunning(tail: ChatTail): TurnView | null {
  return runningTurn(tail.transcript);
}

/** The session's last turn, wherever the window is. */
export function tailLastTurn(tail: ChatTail): TurnView | null {
  const { entries } = tail.transcript;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.kind === "turn") return entry;
  }
  return null;
}

/** Approvals and input requests waiting for the user at the session's end. */
export function pendingAsks(tail: ChatTail): number {
  const approvals = waitingApprovals(tail.transcript, tailRunning(tail));
  const inputs = tail.transcript.entries.filter((e) => e.kind === "elicitation" && e.answer === null).length;
  return approvals + inputs;
}

/** Failures that say the model could not be reached (the header's dot turns red). */
const MODEL_PROBLEMS = ["network", "auth", "overloaded", "rate_limited"];

/** Why the session's last request failed to reach the model, or null. */
export function modelProblemOf(tail: ChatTail): string | null {
  const last = tailLastTurn(tail);
  if (last === null || last.status !== "failed") return null;
  const error = [...last.items].reverse().find((item) => item.kind === "error");
  if (error?.kind !== "error" || !MODEL_PROBLEMS.includes(error.errorKind)) return null;
  return t("chat:header.lastRequestFailed", { error: error.message });
}

/**
 * Where "Revert the last turn's changes" restores the code to: just before the session's
 * last turn, never the last turn loaded (a window at a search hit ends far back).
 */
export function revertPointOf(tail: ChatTail): number | null {
  const last = tailLastTurn(tail);
  return last === null ? null : Math.max(last.startSeq - 1, 0);
}
