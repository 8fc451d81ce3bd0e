// Finding things in the transcript's entries, shared by the reducers.
import type { TranscriptEntry, TurnView } from "./types";

/** The index of the turn `turnId`, or -1. */
export function findTurn(entries: readonly TranscriptEntry[], turnId: string): number {
  // The turn being streamed is almost always the last entry.
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.kind === "turn" && entry.turnId === turnId) {
      return i;
    }
  }
  return -1;
}

/** `entries` with the one at `index` replaced (the same array when nothing changed). */
export function replaceAt(entries: TranscriptEntry[], index: number, entry: TranscriptEntry | TurnView): TranscriptEntry[] {
  if (entries[index] === entry) return entries;
  const next = entries.slice();
  next[index] = entry;
  return next;
}
