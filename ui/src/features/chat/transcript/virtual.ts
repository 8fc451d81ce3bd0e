// Which entries of a transcript are in the DOM: those in the viewport plus a margin, found
// from each entry's height (measured once it was shown, estimated before). Everything
// above and below is one empty block of the right height, so the scrollbar is right and a
// 10,000-message session costs what a short one does. Pure functions; Transcript.tsx
// measures and scrolls.

/** Height assumed for an entry never shown, before any was measured. */
export const DEFAULT_ESTIMATE_PX = 240;
/** Rendered beyond each edge of the viewport, so scrolling shows entries already laid out. */
export const OVERSCAN_PX = 900;
/** Closer than this to the top of what is loaded, the page before it is read. */
export const LOAD_OLDER_PX = 1500;
/** Closer than this to the bottom of what is loaded (short of the live end), the page after it. */
export const LOAD_NEWER_PX = 1500;

/** Where the view is: stuck to the end, or with entry `key`'s top `offset` px below the viewport's top. */
export type ViewPosition = { kind: "end" } | { kind: "anchor"; key: string; offset: number };

export interface Range {
  /** First rendered entry. */
  start: number;
  /** One past the last rendered entry. */
  end: number;
  /** The viewport's top in list coordinates (0 = the first entry's top). */
  top: number;
}

/** The height to assume for entries not measured yet: the mean of those that were. */
export function estimateOf(heights: ReadonlyMap<string, number>): number {
  if (heights.size === 0) return DEFAULT_ESTIMATE_PX;
  let sum = 0;
  for (const height of heights.values()) sum += height;
  return sum / heights.size;
}

/** Each entry's top, and the total height as the last element (n + 1 numbers). */
export function offsetsOf(keys: readonly string[], heights: ReadonlyMap<string, number>, estimate: number): number[] {
  const offsets = new Array<number>(keys.length + 1);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    offsets[i] = at;
    at += heights.get(keys[i] as string) ?? estimate;
  }
  offsets[keys.length] = at;
  return offsets;
}

/** The entry holding list coordinate `y` (the last one when past the end). */
export function indexAt(offsets: readonly number[], y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let low = 0;
  let high = n - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((offsets[middle] as number) <= y) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The entries to render for a viewport `viewport` px tall at `position`. An anchor whose
 * entry is gone (the conversation changed) counts as the end.
 */
export function rangeFor(
  keys: readonly string[],
  offsets: readonly number[],
  viewport: number,
  position: ViewPosition,
  overscan = OVERSCAN_PX,
): Range {
  const n = keys.length;
  const total = offsets[n] ?? 0;
  let top = Math.max(0, total - viewport);
  if (position.kind === "anchor") {
    const index = keys.indexOf(position.key);
    if (index >= 0) top = (offsets[index] as number) - position.offset;
  }
  if (n === 0) return { start: 0, end: 0, top: 0 };
  const start = indexAt(offsets, Math.max(0, top - overscan));
  const end = Math.min(n, indexAt(offsets, top + viewport + overscan) + 1);
  return { start, end, top };
}

/** Whether the page before the loaded part should be read: the view is near its top. */
export function wantsOlder(range: Range, hasOlder: boolean): boolean {
  return hasOlder && range.start === 0 && range.top < LOAD_OLDER_PX;
}

/**
 * Whether the page after the loaded part should be read: the view is near its bottom, and
 * it does not reach the live end. `offsets` ends with the total height.
 */
export function wantsNewer(range: Range, offsets: readonly number[], viewport: number, hasNewer: boolean): boolean {
  const n = offsets.length - 1;
  const total = offsets[n] ?? 0;
  return hasNewer && range.end === n && total - (range.top + viewport) < LOAD_NEWER_PX;
}

/** The last turn that starts at or before `seq` (the turn holding that event). */
export function turnHolding(entries: readonly { kind: string; startSeq?: number }[], seq: number): number | null {
  let found: number | null = null;
  entries.forEach((entry, index) => {
    if (entry.kind === "turn" && entry.startSeq !== undefined && entry.startSeq <= seq) found = index;
  });
  return found;
}
