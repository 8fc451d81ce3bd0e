import { describe, expect, it } from "vitest";

import type { SessionStatus } from "../../gen/protocol";
import { changedFileCount, changesButtonCount } from "./transcriptChanges";

function status(sessionId: string, changedFiles: number): SessionStatus {
  return {
    session_id: sessionId,
    context_window: 128_000,
    used_tokens: 0,
    compact_at_percent: 80,
    cost_usd: null,
    calls: 0,
    approval_mode: null,
    changed_files: changedFiles,
  };
}

describe("the Changes button's count", () => {
  it("is the whole session's, though the transcript holds only its end", () => {
    expect(changedFileCount(status("s1", 40), "s1", 3)).toBe(40);
  });

  it("is the window's while the status lags behind a change just made", () => {
    expect(changedFileCount(status("s1", 2), "s1", 3)).toBe(3);
  });

  it("ignores the status of the session just switched away from, and a missing one", () => {
    expect(changedFileCount(status("s0", 40), "s1", 1)).toBe(1);
    expect(changedFileCount(null, "s1", 0)).toBe(0);
  });
});

describe("the Changes button's count after the panel listed the files", () => {
  // The status still counts a file the panel reverted: it counts each file a tool ever changed.
  const listed = { sessionId: "s1", files: 1, records: 4 };

  it("is the panel's, which a revert or an undo lowers or raises", () => {
    expect(changesButtonCount(2, listed, "s1", 4, true)).toBe(1);
    expect(changesButtonCount(2, { ...listed, files: 2 }, "s1", 4, true)).toBe(2);
  });

  it("stays the panel's once it is closed, until a tool changes files again", () => {
    expect(changesButtonCount(2, listed, "s1", 4, false)).toBe(1);
    expect(changesButtonCount(3, listed, "s1", 5, false)).toBe(3);
    // Open, the panel lists the new change itself: its count follows.
    expect(changesButtonCount(3, listed, "s1", 5, true)).toBe(1);
  });

  it("is the status's before the panel listed anything, and for another session", () => {
    expect(changesButtonCount(2, null, "s1", 4, true)).toBe(2);
    expect(changesButtonCount(2, listed, "s2", 4, true)).toBe(2);
  });
});
