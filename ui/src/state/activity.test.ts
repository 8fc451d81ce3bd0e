import { describe, expect, it } from "vitest";

import { pendingApproval, sessionActivity } from "../test/fixtures";
import { activeSessions, badgeOf, emptyActivity, markSeen, noticesBetween, receive, sessionsWaiting } from "./activity";

describe("activity view", () => {
  it("counts a session new to the window as read, then unread once a turn ends out of sight", () => {
    let view = receive(emptyActivity, [sessionActivity({ turns_ended: 3 })]);
    expect(badgeOf(view, "s1")).toBeNull();
    view = receive(view, [sessionActivity({ state: "running", turns_ended: 3 })]);
    expect(badgeOf(view, "s1")).toBe("running");
    view = receive(view, [sessionActivity({ turns_ended: 4, last_outcome: "completed" })]);
    expect(badgeOf(view, "s1")).toBe("unread");
    expect(activeSessions(view).map((a) => a.session_id)).toEqual(["s1"]);
    view = markSeen(view, "s1");
    expect(badgeOf(view, "s1")).toBeNull();
    expect(activeSessions(view)).toEqual([]);
  });

  it("says failed for a turn that failed, waiting above everything", () => {
    let view = receive(emptyActivity, [sessionActivity()]);
    view = receive(view, [sessionActivity({ turns_ended: 1, last_outcome: "failed" })]);
    expect(badgeOf(view, "s1")).toBe("failed");
    view = receive(view, [sessionActivity({ state: "waiting", turns_ended: 1, approvals: [pendingApproval()] })]);
    expect(badgeOf(view, "s1")).toBe("waiting");
    expect(sessionsWaiting(view)).toBe(1);
    expect(badgeOf(view, "unknown")).toBeNull();
  });

  it("forgets sessions that left the board", () => {
    let view = receive(emptyActivity, [sessionActivity(), sessionActivity({ session_id: "s2" })]);
    view = receive(view, [sessionActivity({ session_id: "s2" })]);
    expect([...view.byId.keys()]).toEqual(["s2"]);
    expect(Object.keys(view.seen)).toEqual(["s2"]);
  });
});

describe("noticesBetween", () => {
  const before = receive(emptyActivity, [sessionActivity({ state: "running" })]);
  const asking = receive(before, [
    sessionActivity({ state: "waiting", approvals: [pendingApproval({ summary: "rm -rf build" })] }),
  ]);

  it("tells about a new approval when the session is not in front", () => {
    expect(noticesBetween(before, asking, "other", true)).toEqual([
      { sessionId: "s1", title: "Approval needed", body: "“fix the build” wants to run: rm -rf build" },
    ]);
  });

  it("tells about the session in front only when the window has no focus", () => {
    expect(noticesBetween(before, asking, "s1", true)).toEqual([]);
    expect(noticesBetween(before, asking, "s1", false)).toHaveLength(1);
  });

  it("tells once: the same approval in the next snapshot is not news", () => {
    expect(noticesBetween(asking, receive(asking, [...asking.byId.values()]), null, false)).toEqual([]);
  });

  it("tells about a finished or failed turn", () => {
    const done = receive(before, [sessionActivity({ turns_ended: 1, last_outcome: "completed" })]);
    expect(noticesBetween(before, done, null, false)[0]?.title).toBe("Session finished");
    const failed = receive(before, [
      sessionActivity({ turns_ended: 1, last_outcome: "failed", last_error: "401 unauthorized" }),
    ]);
    expect(noticesBetween(before, failed, null, false)[0]).toMatchObject({
      title: "Session failed",
      body: "“fix the build”: 401 unauthorized",
    });
  });

  it("says nothing about sessions it saw appear", () => {
    const appeared = receive(emptyActivity, [sessionActivity({ state: "waiting", approvals: [pendingApproval()] })]);
    expect(noticesBetween(emptyActivity, appeared, null, false)).toEqual([]);
  });
});
