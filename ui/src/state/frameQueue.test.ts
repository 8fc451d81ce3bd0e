import { describe, expect, it } from "vitest";

import { frameQueue, type Schedule } from "./frameQueue";

/** A schedule the test advances by hand: `tick()` is one frame. */
function frames() {
  let pending: (() => void) | null = null;
  let scheduled = 0;
  const schedule: Schedule = (callback) => {
    scheduled++;
    pending = callback;
    return () => {
      pending = null;
    };
  };
  const tick = () => {
    const run = pending;
    pending = null;
    run?.();
  };
  return { schedule, tick, scheduled: () => scheduled };
}

describe("frameQueue", () => {
  it("hands over everything pushed within a frame once per key, in order", () => {
    const clock = frames();
    const flushed: [string, number[]][] = [];
    const queue = frameQueue<number>((key, items) => flushed.push([key, items]), clock.schedule);
    queue.push("a", [1, 2]);
    queue.push("b", [10]);
    queue.push("a", [3]);
    expect(flushed).toEqual([]);
    expect(clock.scheduled()).toBe(1);
    clock.tick();
    expect(flushed).toEqual([
      ["a", [1, 2, 3]],
      ["b", [10]],
    ]);
    queue.push("a", [4]);
    expect(clock.scheduled()).toBe(2);
    clock.tick();
    expect(flushed.at(-1)).toEqual(["a", [4]]);
  });

  it("drops what waits for a discarded key, and everything once disposed", () => {
    const clock = frames();
    const flushed: string[] = [];
    const queue = frameQueue<number>((key) => flushed.push(key), clock.schedule);
    queue.push("a", [1]);
    queue.push("b", [2]);
    queue.discard("a");
    clock.tick();
    expect(flushed).toEqual(["b"]);
    queue.push("c", [3]);
    queue.dispose();
    clock.tick();
    expect(flushed).toEqual(["b"]);
  });

  it("schedules nothing for an empty push", () => {
    const clock = frames();
    const queue = frameQueue<number>(() => undefined, clock.schedule);
    queue.push("a", []);
    expect(clock.scheduled()).toBe(0);
  });
});
