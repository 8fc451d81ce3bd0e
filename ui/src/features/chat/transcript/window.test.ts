import { describe, expect, it } from "vitest";

import type { TranscriptEntry, TurnView } from "../../../state/transcript";
import { WINDOW, focusIndex, windowRange } from "./window";

function turn(i: number): TurnView {
  return {
    kind: "turn",
    key: `t${i}`,
    turnId: `t${i}`,
    input: `message ${i}`,
    images: [],
    items: [],
    status: "completed",
    usage: null,
    startedMs: i,
    startSeq: i * 10 + 1,
  };
}

const entries = (n: number): TranscriptEntry[] => Array.from({ length: n }, (_, i) => turn(i));

describe("transcript window", () => {
  it("renders everything of a short conversation", () => {
    expect(windowRange(entries(5), null, null, null)).toEqual({ start: 0, end: 5 });
  });

  it("renders the newest WINDOW of a long one, and follows new entries", () => {
    expect(windowRange(entries(500), null, null, null)).toEqual({ start: 500 - WINDOW, end: 500 });
    expect(windowRange(entries(501), null, null, null)).toEqual({ start: 501 - WINDOW, end: 501 });
  });

  it("keeps the user's own bounds once they read back or jumped", () => {
    expect(windowRange(entries(501), 440, null, null)).toEqual({ start: 440, end: 501 });
    expect(windowRange(entries(501), 10, 60, null)).toEqual({ start: 10, end: 60 });
  });

  it("shows a search hit far back with a little before it and a window after it", () => {
    // Event 123 is in turn 12 (starts at 121).
    expect(focusIndex(entries(500), 123)).toBe(12);
    expect(windowRange(entries(500), null, null, 123)).toEqual({ start: 10, end: 12 + WINDOW });
    // A hit inside the window changes nothing.
    expect(windowRange(entries(500), null, null, 4991)).toEqual({ start: 500 - WINDOW, end: 500 });
    expect(focusIndex(entries(3), 0)).toBeNull();
  });

  it("never reaches past the end", () => {
    expect(windowRange(entries(10), 40, null, null)).toEqual({ start: 10, end: 10 });
    expect(windowRange(entries(10), 2, 99, null)).toEqual({ start: 2, end: 10 });
  });
});
