// Which entries of a long transcript are in the DOM: the newest WINDOW, more as the user
// scrolls up, and always the one a search hit points at. Rendering a 1,000-message
// session whole costs seconds on every switch to it; the newest few are all anyone sees.
import type { TranscriptEntry } from "../../../state/transcript";

/** Entries rendered when a conversation is shown, and added per step back. */
export const WINDOW = 30;

/**
 * The index of the first rendered entry. `from` is the user's own (after scrolling up),
 * null while following the newest; `focusSeq` pulls in the turn holding that event.
 */
export function windowStart(entries: readonly TranscriptEntry[], from: number | null, focusSeq: number | null): number {
  let start = from ?? Math.max(0, entries.length - WINDOW);
  if (focusSeq !== null) {
    const index = focusIndex(entries, focusSeq);
    if (index !== null) start = Math.min(start, index);
  }
  return Math.max(0, Math.min(start, entries.length));
}

/** The last turn that starts at or before `seq` (the turn holding that event). */
export function focusIndex(entries: readonly TranscriptEntry[], seq: number): number | null {
  let found: number | null = null;
  entries.forEach((entry, index) => {
    if (entry.kind === "turn" && entry.startSeq <= seq) found = index;
  });
  return found;
}
