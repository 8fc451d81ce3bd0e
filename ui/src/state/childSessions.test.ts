import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { EventEnvelope } from "../gen/protocol";
import { ChildSessions, type ChildFeedApi } from "./childSessions";
import type { Schedule } from "./frameQueue";

/** A backend whose subscriptions the test drives: `send` delivers a batch to the current one. */
function fakeApi() {
  const calls: string[] = [];
  let deliver: ((batch: EventEnvelope[]) => void) | null = null;
  const api: ChildFeedApi = {
    subscribe: (id, afterSeq, onEvents) => {
      calls.push(`subscribe ${id} after ${afterSeq}`);
      deliver = onEvents;
      return Promise.resolve();
    },
    unsubscribe: (id) => {
      calls.push(`unsubscribe ${id}`);
      deliver = null;
      return Promise.resolve();
    },
  };
  return { api, calls, send: (batch: EventEnvelope[]) => deliver?.(batch) };
}

/** Frames run at once: what is pushed is applied when pushed. */
const immediately: Schedule = (callback) => {
  callback();
  return () => undefined;
};

function event(seq: number, text: string): EventEnvelope {
  return { session_id: "child", turn_id: "t1", seq, timestamp_ms: seq, event: { type: "turn_started", input: { text } } };
}

describe("ChildSessions", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("subscribes once for every viewer and lets go a while after the last one leaves", () => {
    const backend = fakeApi();
    const feeds = new ChildSessions(backend.api, { releaseDelayMs: 1000, schedule: immediately });
    const card = feeds.use("child");
    const view = feeds.use("child");
    expect(backend.calls).toEqual(["subscribe child after 0"]);

    card();
    view();
    vi.advanceTimersByTime(999);
    expect(backend.calls).toEqual(["subscribe child after 0"]);
    vi.advanceTimersByTime(1);
    expect(backend.calls).toEqual(["subscribe child after 0", "unsubscribe child"]);
  });

  it("keeps the subscription when the card comes back within the delay", () => {
    const backend = fakeApi();
    const feeds = new ChildSessions(backend.api, { releaseDelayMs: 1000, schedule: immediately });
    feeds.use("child")();
    vi.advanceTimersByTime(500);
    const again = feeds.use("child");
    vi.advanceTimersByTime(5000);
    expect(backend.calls).toEqual(["subscribe child after 0"]);
    again();
  });

  it("folds the child's events into its transcript, tells listeners, and resumes after what it read", () => {
    const backend = fakeApi();
    const feeds = new ChildSessions(backend.api, { releaseDelayMs: 10, schedule: immediately });
    const changed = vi.fn();
    feeds.listen("child", changed);
    const release = feeds.use("child");
    expect(feeds.feed("child").loading).toBe(true);

    backend.send([event(1, "review src/"), event(1, "review src/")]);
    const feed = feeds.feed("child");
    expect(feed.loading).toBe(false);
    expect(feed.transcript.lastSeq).toBe(1);
    expect(feed.transcript.entries).toHaveLength(1);
    expect(changed).toHaveBeenCalledTimes(1);
    // Unchanged: the same object, so React does not render again.
    expect(feeds.feed("child")).toBe(feed);

    release();
    vi.advanceTimersByTime(10);
    feeds.use("child");
    expect(backend.calls).toEqual(["subscribe child after 0", "unsubscribe child", "subscribe child after 1"]);
  });

  it("says why a child's events could not be read", async () => {
    const api: ChildFeedApi = {
      subscribe: () => Promise.reject(new Error("no such session")),
      unsubscribe: () => Promise.resolve(),
    };
    const feeds = new ChildSessions(api, { schedule: immediately });
    feeds.use("gone");
    await vi.waitFor(() => expect(feeds.feed("gone").error).toMatch(/no such session/));
    expect(feeds.feed("gone").loading).toBe(false);
  });
});
