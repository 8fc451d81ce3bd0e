// @vitest-environment jsdom
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { HistoryPage } from "../gen/protocol";
import { USAGE, eventAt as at, pagedTurn, sessionSummary } from "../test/fixtures";
import { useChat } from "./useChat";

const { ipc, sendUserTurn, subscribeSession } = vi.hoisted(() => ({
  ipc: { resumeSession: vi.fn(), historyPage: vi.fn(), unsubscribeSession: vi.fn(), startSession: vi.fn(), startExternalSession: vi.fn() },
  sendUserTurn: vi.fn(),
  subscribeSession: vi.fn(),
}));
vi.mock("../ipc", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ipc,
  sendUserTurn,
  subscribeSession,
}));

// A long session (paged): turn k takes seqs 3k+1..3k+3; its last turn, 1000, runs and waits
// for an approval (3001, 3002).
const LAST_SEQ = 3002;
const HIT: HistoryPage = {
  events: Array.from({ length: 10 }, (_, i) => 10 + i).flatMap(pagedTurn),
  from_seq: 31,
  to_seq: 60,
  has_more: true,
  has_after: true,
};
const END: HistoryPage = {
  events: [
    at(3001, 1000, { type: "turn_started", input: { text: "question 1000" } }),
    at(3002, 1000, {
      type: "approval_requested",
      request: {
        request_id: "r1",
        call_id: "c1",
        tool_name: "write_file",
        risk: "write",
        reason: "write_file has write risk",
        fingerprint: "write_file:{}",
        cwd: "/repo",
        arguments: { file_path: "a.txt" },
      },
    }),
  ],
  from_seq: 3001,
  to_seq: LAST_SEQ,
  has_more: true,
  has_after: false,
};

beforeEach(() => {
  for (const f of [...Object.values(ipc), sendUserTurn, subscribeSession]) f.mockReset();
  ipc.resumeSession.mockResolvedValue(sessionSummary({ id: "s1", last_seq: LAST_SEQ }));
  ipc.historyPage.mockImplementation(({ fromSeq }: { fromSeq: number | null }) =>
    Promise.resolve(fromSeq === null ? END : HIT),
  );
  ipc.unsubscribeSession.mockResolvedValue(undefined);
  subscribeSession.mockResolvedValue(undefined);
  sendUserTurn.mockResolvedValue(undefined);
});
afterEach(() => vi.clearAllMocks());

describe("useChat with a window far from the session's end", () => {
  it("shows the turn running at the end, and keeps a message it cannot send in the composer", async () => {
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    // A search hit in turn 10 while turn 1000 runs.
    act(() => result.current.openSession({ id: "s1" }, 31));
    await waitFor(() => expect(result.current.state.transcript.entries).toHaveLength(10));
    expect(result.current.state.history?.after).toBe(true);
    expect(ipc.historyPage).toHaveBeenCalledWith({ sessionId: "s1", beforeSeq: null, turns: 1, fromSeq: null });
    // Stop, not Send; the controls a turn locks stay locked.
    expect(result.current.running?.input).toBe("question 1000");

    // Sent anyway (a retry, review comments): refused here, so the composer keeps it.
    let sent: boolean | undefined;
    await act(async () => {
      sent = await result.current.send("and also this");
    });
    expect(sent).toBe(false);
    expect(sendUserTurn).not.toHaveBeenCalled();
    expect(result.current.state.error?.command).toBe("send");
    expect(result.current.state.phase).toBe("idle");
  });

  it("drops what a let-go subscription still delivers while the session is read again at a hit", async () => {
    const callbacks: ((batch: unknown[]) => void)[] = [];
    subscribeSession.mockImplementation((_id: string, _after: number, onBatch: (batch: unknown[]) => void) => {
      callbacks.push(onBatch);
      return Promise.resolve(undefined);
    });
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    // Open at its end, where turn 1000 waits: one subscription.
    act(() => result.current.openSession({ id: "s1" }));
    await waitFor(() => expect(callbacks).toHaveLength(1));
    expect(result.current.state.transcript.entries).toHaveLength(1);

    // A hit far back: the session is let go and read again from there. Before its page
    // arrives, the first subscription still delivers the running turn's end and a new turn.
    let hitPage: (page: HistoryPage) => void = () => undefined;
    ipc.historyPage.mockImplementation(({ fromSeq }: { fromSeq: number | null }) =>
      fromSeq === null ? Promise.resolve(END) : new Promise<HistoryPage>((resolve) => (hitPage = resolve)),
    );
    act(() => result.current.openSession({ id: "s1" }, 31));
    await waitFor(() => expect(ipc.historyPage).toHaveBeenCalledWith(expect.objectContaining({ fromSeq: 31 })));
    await act(async () => {
      callbacks[0]?.([
        at(3003, 1000, { type: "turn_ended", reason: "completed", usage: USAGE }),
        at(3004, 1001, { type: "turn_started", input: { text: "question 1001" } }),
      ]);
      // Past the frame queue's longest wait: whatever was let through has been applied.
      await new Promise((r) => setTimeout(r, 250));
    });
    await act(async () => hitPage(HIT));
    await waitFor(() => expect(callbacks).toHaveLength(2));
    // The window around the hit, short of the end; nothing of the old feed in it.
    expect(result.current.state.history?.after).toBe(true);
    expect(result.current.state.transcript.entries).toHaveLength(10);
    expect(JSON.stringify(result.current.state.transcript)).not.toContain("question 1001");
  });
});

describe("useChat's mode for the next session", () => {
  it("starts one session in the mode picked for it, and the next new one in the default", async () => {
    ipc.startSession
      .mockResolvedValueOnce(sessionSummary({ id: "s1" }))
      .mockResolvedValueOnce(sessionSummary({ id: "s2" }));
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    act(() => result.current.setApprovalMode("strict"));
    expect(result.current.nextApprovalMode).toBe("strict");
    await act(async () => {
      await result.current.send("first");
    });
    expect(ipc.startSession).toHaveBeenLastCalledWith({ cwd: "/repo", provider: null, approvalMode: "strict" });
    // Used up by the session it was picked for.
    expect(result.current.nextApprovalMode).toBeNull();

    act(() => result.current.newSession());
    await act(async () => {
      await result.current.send("second");
    });
    expect(ipc.startSession).toHaveBeenLastCalledWith({ cwd: "/repo", provider: null, approvalMode: null });
  });

  it("drops a mode picked in a draft when New session is pressed", () => {
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    act(() => result.current.setApprovalMode("strict"));
    act(() => result.current.newSession());
    expect(result.current.nextApprovalMode).toBeNull();
  });

  it("uses the mode up when a worktree session started with it is opened", () => {
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    act(() => result.current.setApprovalMode("strict"));
    act(() => result.current.openStarted(sessionSummary({ id: "w1" })));
    expect(result.current.nextApprovalMode).toBeNull();
  });
});

describe("useChat with a session another program runs", () => {
  it("shows its stored history to read, under the sentence naming the program", async () => {
    const held = {
      code: "conflict",
      message: "This session is running in another Memo program (memo-cli acp, process 42)",
      retryable: false,
      phrase: { code: "session_held_elsewhere", program: "memo-cli acp", pid: "42" },
    };
    ipc.resumeSession.mockRejectedValue(held);
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    act(() => result.current.openSession(sessionSummary({ id: "s1", last_seq: LAST_SEQ })));
    await waitFor(() => expect(result.current.state.error?.code).toBe("conflict"));
    expect(result.current.state.transcript.entries.length).toBeGreaterThan(0);
    expect(result.current.state.session?.id).toBe("s1");
    // Read, not attached: nothing live is asked of a session this window does not run.
    expect(subscribeSession).not.toHaveBeenCalled();
  });

  it("shows only the error for another failure", async () => {
    ipc.resumeSession.mockRejectedValue({ code: "io", message: "disk", retryable: false });
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    act(() => result.current.openSession(sessionSummary({ id: "s1", last_seq: LAST_SEQ })));
    await waitFor(() => expect(result.current.state.error?.code).toBe("io"));
    expect(ipc.historyPage).not.toHaveBeenCalled();
  });
});

describe("useChat's new session on an external agent", () => {
  it("starts it through the external-agent call, not as a provider's", async () => {
    ipc.startExternalSession.mockResolvedValueOnce(sessionSummary({ id: "x1", provider: "acp:claude-code" }));
    const { result } = renderHook(() => useChat("/repo", () => undefined));
    act(() => result.current.chooseProvider("acp:claude-code"));
    await act(async () => {
      await result.current.send("hello");
    });
    expect(ipc.startExternalSession).toHaveBeenCalledWith({ cwd: "/repo", agent: "claude-code", approvalMode: null });
    expect(ipc.startSession).not.toHaveBeenCalled();
  });
});
