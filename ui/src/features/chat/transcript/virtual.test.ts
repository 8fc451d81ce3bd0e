import { describe, expect, it } from "vitest";

import { DEFAULT_ESTIMATE_PX, estimateOf, indexAt, offsetsOf, rangeFor, turnHolding, wantsNewer, wantsOlder } from "./virtual";

const keys = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `e${from + i}`);

describe("the virtual list's layout", () => {
  it("lays out measured heights and estimates the rest from their mean", () => {
    const heights = new Map([
      ["e0", 100],
      ["e2", 300],
    ]);
    expect(estimateOf(new Map())).toBe(DEFAULT_ESTIMATE_PX);
    expect(estimateOf(heights)).toBe(200);
    expect(offsetsOf(keys(4), heights, 200)).toEqual([0, 100, 300, 600, 800]);
  });

  it("finds the entry holding a point, with variable heights", () => {
    const offsets = [0, 100, 300, 600, 800];
    expect(indexAt(offsets, 0)).toBe(0);
    expect(indexAt(offsets, 99)).toBe(0);
    expect(indexAt(offsets, 100)).toBe(1);
    expect(indexAt(offsets, 599)).toBe(2);
    expect(indexAt(offsets, 5000)).toBe(3);
    expect(indexAt([0], 10)).toBe(0);
  });
});

describe("what is rendered", () => {
  // 10,000 entries of 50 to 490 px.
  const many = keys(10_000);
  const heights = new Map(many.map((key, i) => [key, 50 + ((i * 37) % 441)]));
  const offsets = offsetsOf(many, heights, estimateOf(heights));
  const total = offsets[many.length] as number;

  it("follows the end: the last entries and the margin above them, nothing more", () => {
    const range = rangeFor(many, offsets, 800, { kind: "end" }, 900);
    expect(range.end).toBe(many.length);
    expect(range.top).toBe(total - 800);
    expect(offsets[range.start]).toBeLessThanOrEqual(total - 800 - 900);
    expect(offsets[range.start + 1]).toBeGreaterThan(total - 800 - 900);
    expect(range.end - range.start).toBeLessThan(30);
  });

  it("jumps to an entry: it and the margins around it, whatever is loaded above", () => {
    const range = rangeFor(many, offsets, 800, { kind: "anchor", key: "e4321", offset: 8 }, 900);
    expect(range.top).toBe((offsets[4321] as number) - 8);
    expect(range.start).toBeLessThan(4321);
    expect(range.end).toBeGreaterThan(4321);
    expect(range.end - range.start).toBeLessThan(30);
  });

  it("keeps the anchor's entries when a page is read above them", () => {
    const before = rangeFor(many, offsets, 800, { kind: "anchor", key: "e10", offset: -20 }, 300);
    const page = keys(40, -40);
    const all = [...page, ...many];
    const grown = offsetsOf(all, heights, estimateOf(heights));
    const after = rangeFor(all, grown, 800, { kind: "anchor", key: "e10", offset: -20 }, 300);
    expect(all.slice(after.start, after.end)).toEqual(many.slice(before.start, before.end));
    expect(after.top - (grown[50] as number)).toBe(before.top - (offsets[10] as number));
  });

  it("counts an anchor whose entry is gone as the end", () => {
    expect(rangeFor(many, offsets, 800, { kind: "anchor", key: "gone", offset: 0 }).end).toBe(many.length);
    expect(rangeFor([], [0], 800, { kind: "end" })).toEqual({ start: 0, end: 0, top: 0 });
  });

  it("asks for the page before only near the top of what is loaded", () => {
    const top = rangeFor(many, offsets, 800, { kind: "anchor", key: "e0", offset: 0 });
    expect(wantsOlder(top, true)).toBe(true);
    expect(wantsOlder(top, false)).toBe(false);
    expect(wantsOlder(rangeFor(many, offsets, 800, { kind: "end" }), true)).toBe(false);
  });

  it("asks for the page after only near the bottom of what is loaded, short of the live end", () => {
    const bottom = rangeFor(many, offsets, 800, { kind: "end" });
    expect(wantsNewer(bottom, offsets, 800, true)).toBe(true);
    expect(wantsNewer(bottom, offsets, 800, false)).toBe(false);
    const top = rangeFor(many, offsets, 800, { kind: "anchor", key: "e0", offset: 0 });
    expect(wantsNewer(top, offsets, 800, true)).toBe(false);
    // A little above the bottom still counts; a few screens above does not.
    const near = indexAt(offsets, total - 800 - 1000);
    const far = indexAt(offsets, total - 800 - 5000);
    const at = (index: number) =>
      rangeFor(many, offsets, 800, { kind: "anchor", key: many[index] as string, offset: 0 });
    expect(wantsNewer(at(near), offsets, 800, true)).toBe(true);
    expect(wantsNewer(at(far), offsets, 800, true)).toBe(false);
  });
});

describe("jumping to an event", () => {
  it("finds the last turn starting at or before it", () => {
    const entries = [
      { kind: "info" },
      { kind: "turn", startSeq: 5 },
      { kind: "notice" },
      { kind: "turn", startSeq: 40 },
    ];
    expect(turnHolding(entries, 4)).toBeNull();
    expect(turnHolding(entries, 5)).toBe(1);
    expect(turnHolding(entries, 39)).toBe(1);
    expect(turnHolding(entries, 900)).toBe(3);
  });
});
