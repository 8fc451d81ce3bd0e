import { describe, expect, it } from "vitest";

import type { SessionStatus } from "../../gen/protocol";
import { changedFileCount } from "./transcriptChanges";

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
