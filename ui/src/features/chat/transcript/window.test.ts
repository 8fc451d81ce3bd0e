import { describe, expect, it } from "vitest";

import type { TranscriptEntry, TurnView } from "../../../state/transcript";
import { WINDOW, focusIndex, windowStart } from "./window";

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
    expect(windowStart(entries(5), null, null)).toBe(0);
  });

  it("renders the newest WINDOW of a long one, and follows new entries", () => {
    expect(windowStart(entries(500), null, null)).toBe(500 - WINDOW);
    expect(windowStart(entries(501), null, null)).toBe(501 - WINDOW);
  });

  it("keeps the user's own start once they scrolled up", () => {
    expect(windowStart(entries(501), 440, null)).toBe(440);
  });

  it("reaches back to the turn a search hit is in", () => {
    // Event 123 is in turn 12 (starts at 121).
    expect(focusIndex(entries(500), 123)).toBe(12);
    expect(windowStart(entries(500), null, 123)).toBe(12);
    // A hit inside the window changes nothing.
    expect(windowStart(entries(500), null, 4991)).toBe(500 - WINDOW);
    expect(focusIndex(entries(3), 0)).toBeNull();
  });

  it("never starts past the end", () => {
    expect(windowStart(entries(10), 40, null)).toBe(10);
  });
});
