// The diff as a flat list of fixed-height items (hunk headers, lines, the comment form), so
// a large diff can render only what is near the viewport: with every height known up front,
// the items on screen are two binary searches away, no measuring needed.

/** Heights in CSS pixels; diff.css sizes the elements to match exactly. */
export const ROW_HEIGHT = 20;
export const HEADER_HEIGHT = 28;
export const FORM_HEIGHT = 136;

/** Above this many lines only the rows near the viewport are rendered. */
export const WINDOW_THRESHOLD = 1500;

/** Rendered beyond each edge of the viewport, so a quick scroll does not show blank space. */
export const OVERSCAN_PX = 400;

export type LayoutItem =
  | { kind: "header"; hunk: number; key: string }
  | { kind: "row"; hunk: number; row: number; key: string }
  | { kind: "form"; hunk: number; key: string };

export interface Layout {
  items: LayoutItem[];
  /** offsets[i] is the top of item i; offsets[items.length] is the total height. */
  offsets: number[];
}

function heightOf(item: LayoutItem): number {
  return item.kind === "row" ? ROW_HEIGHT : item.kind === "header" ? HEADER_HEIGHT : FORM_HEIGHT;
}

/**
 * Items for hunks with `rowCounts[h]` display rows each, and the comment form right under
 * row `formAfter.row` of hunk `formAfter.hunk` when there is one.
 */
export function buildLayout(rowCounts: readonly number[], formAfter: { hunk: number; row: number } | null): Layout {
  const items: LayoutItem[] = [];
  rowCounts.forEach((count, hunk) => {
    items.push({ kind: "header", hunk, key: `h${hunk}` });
    for (let row = 0; row < count; row++) {
      items.push({ kind: "row", hunk, row, key: `r${hunk}-${row}` });
      if (formAfter !== null && formAfter.hunk === hunk && formAfter.row === row) {
        items.push({ kind: "form", hunk, key: "comment-form" });
      }
    }
  });
  const offsets = new Array<number>(items.length + 1);
  let top = 0;
  items.forEach((item, i) => {
    offsets[i] = top;
    top += heightOf(item);
  });
  offsets[items.length] = top;
  return { items, offsets };
}

/** The first index whose item ends below `y`. */
function firstEndingBelow(offsets: readonly number[], count: number, y: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((offsets[mid + 1] ?? 0) <= y) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The items [start, end) that overlap the band from `top` to `bottom`. */
export function visibleRange(layout: Layout, top: number, bottom: number): { start: number; end: number } {
  const count = layout.items.length;
  const start = firstEndingBelow(layout.offsets, count, Math.max(0, top));
  let end = start;
  while (end < count && (layout.offsets[end] ?? 0) < bottom) end++;
  return { start, end };
}
