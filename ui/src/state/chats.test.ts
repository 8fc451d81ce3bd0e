import { describe, expect, it } from "vitest";

import type { EventEnvelope } from "../gen/protocol";
import { sessionSummary } from "../test/fixtures";
import { chatsReducer, draftKey, evictable, initialChats, shownChat, shownKey, type ChatsState } from "./chats";

function event(sessionId: string, seq: number, event: EventEnvelope["event"], turnId: string | null = "t1"): EventEnvelope {
  return { session_id: sessionId, turn_id: turnId, seq, timestamp_ms: seq, event };
}

function opened(state: ChatsState, id: string, cwd = "/a"): ChatsState {
  let next = chatsReducer(state, { type: "chat", key: id, action: { type: "opened", session: sessionSummary({ id, cwd }) } });
  next = chatsReducer(next, { type: "show", cwd, key: id });
  return next;
}

describe("chatsReducer", () => {
  it("shows each folder's draft until a session is chosen, and keeps each folder's choice", () => {
    let state = initialChats;
    expect(shownKey(state, "/a")).toBe(draftKey("/a"));
    expect(shownChat(state, null).session).toBeNull();
    state = opened(state, "s1", "/a");
    state = opened(state, "s2", "/b");
    expect(shownChat(state, "/a").session?.id).toBe("s1");
    expect(shownChat(state, "/b").session?.id).toBe("s2");
  });

  it("keeps a session out of sight current: its turn goes on while another is shown", () => {
    let state = opened(initialChats, "s1");
    state = opened(state, "s2");
    state = chatsReducer(state, {
      type: "chat",
      key: "s1",
      action: { type: "events", sessionId: "s1", batch: [event("s1", 1, { type: "turn_started", input: { text: "go" } })] },
    });
    expect(shownChat(state, "/a").session?.id).toBe("s2");
    expect(state.byKey.s1?.transcript.entries).toHaveLength(1);
    // Back to s1: its history is already there.
    state = chatsReducer(state, { type: "show", cwd: "/a", key: "s1" });
    expect(shownChat(state, "/a").transcript.entries).toHaveLength(1);
  });

  it("turns a folder's draft into the session its first message started", () => {
    let state = chatsReducer(initialChats, { type: "chat", key: draftKey("/a"), action: { type: "sending" } });
    state = chatsReducer(state, { type: "chat", key: draftKey("/a"), action: { type: "opened", session: sessionSummary({ id: "s9" }) } });
    state = chatsReducer(state, { type: "promote", cwd: "/a", sessionId: "s9" });
    expect(shownKey(state, "/a")).toBe("s9");
    expect(shownChat(state, "/a").phase).toBe("sending");
    expect(state.byKey[draftKey("/a")]).toBeUndefined();
  });

  it("does not pull the user back when they moved on before the session started", () => {
    let state = opened(initialChats, "s1");
    state = chatsReducer(state, { type: "promote", cwd: "/a", sessionId: "s9" });
    expect(shownKey(state, "/a")).toBe("s1");
    expect(state.byKey.s9).toBeDefined();
  });

  it("ignores events of a conversation it let go", () => {
    const state = chatsReducer(initialChats, {
      type: "chat",
      key: "gone",
      action: { type: "events", sessionId: "gone", batch: [event("gone", 1, { type: "turn_started", input: { text: "x" } })] },
    });
    expect(state).toBe(initialChats);
  });

  it("drops a deleted session everywhere", () => {
    let state = opened(initialChats, "s1");
    state = chatsReducer(state, { type: "drop", keys: ["s1"] });
    expect(shownKey(state, "/a")).toBe(draftKey("/a"));
    expect(state.recent).toEqual([]);
  });
});

describe("evictable", () => {
  it("lets go of the least recently shown, never a shown or running one", () => {
    let state = initialChats;
    for (const id of ["s1", "s2", "s3", "s4"]) state = opened(state, id);
    // s1 has a turn running.
    state = chatsReducer(state, {
      type: "chat",
      key: "s1",
      action: { type: "events", sessionId: "s1", batch: [event("s1", 1, { type: "turn_started", input: { text: "go" } })] },
    });
    expect(evictable(state, 2)).toEqual(["s2", "s3"].slice(0, 2));
    expect(evictable(state, 4)).toEqual([]);
    // s4 is shown: never let go even when over the limit.
    expect(evictable(state, 0)).toEqual(["s2", "s3"]);
  });
});
