// Which entries of a long transcript are in the DOM: the newest WINDOW, more as the user
// scrolls up; or, for a search hit far back, a stretch from just before its turn, with
// later entries added on request. Rendering a 1,000-message session whole costs seconds on
// every switch to it; the few on screen are all anyone sees.
import type { TranscriptEntry } from "../../../state/transcript";

/** Entries rendered when a conversation is shown, and added per step. */
export const WINDOW = 30;
/** Entries shown above a search hit's turn, for context. */
const BEFORE_FOCUS = 2;

export interface WindowRange {
  /** The first rendered entry. */
  start: number;
  /** One past the last rendered entry (the length when the newest are shown). */
  end: number;
}

/**
 * `from` and `to` are the user's own bounds (after reading back or jumping to a hit),
 * null while following the newest; `focusSeq` pulls in the turn holding that event.
 */
export function windowRange(
  entries: readonly TranscriptEntry[],
  from: number | null,
  to: number | null,
  focusSeq: number | null,
): WindowRange {
  const n = entries.length;
  let start = from ?? Math.max(0, n - WINDOW);
  let end = to ?? n;
  if (focusSeq !== null) {
    const index = focusIndex(entries, focusSeq);
    if (index !== null && (index < start || index >= end)) {
      start = Math.max(0, index - BEFORE_FOCUS);
      end = Math.min(n, index + WINDOW);
    }
  }
  start = Math.max(0, Math.min(start, n));
  return { start, end: Math.max(start, Math.min(end, n)) };
}

/** The last turn that starts at or before `seq` (the turn holding that event). */
export function focusIndex(entries: readonly TranscriptEntry[], seq: number): number | null {
  let found: number | null = null;
  entries.forEach((entry, index) => {
    if (entry.kind === "turn" && entry.startSeq <= seq) found = index;
  });
  return found;
}
