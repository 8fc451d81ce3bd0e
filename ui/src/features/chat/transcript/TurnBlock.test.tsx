// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { ApprovalRequest } from "../../../gen/protocol";
import type { ApprovalItem, TurnItem, TurnView } from "../../../state/transcript";
import { ApprovalCard } from "./ApprovalCard";
import { TurnBlock } from "./TurnBlock";

afterEach(cleanup);

function turn(items: TurnItem[], status: TurnView["status"] = "completed"): TurnView {
  return { kind: "turn", key: "t", turnId: "t", input: "hi", images: [], items, status, usage: null, startedMs: 0, startSeq: 2 };
}

const REQUEST: ApprovalRequest = {
  request_id: "r1",
  call_id: "c1",
  tool_name: "write_file",
  risk: "write",
  reason: "write_file has write risk",
  fingerprint: "write_file:{}",
  cwd: "/repo",
  diff: {
    path: "src/a.rs",
    unified: "--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-old\n+new\n",
    hunks: [],
  },
  arguments: { file_path: "src/a.rs" },
};

describe("TurnBlock", () => {
  it("renders model text as elements, never as HTML, as plain text until the renderer loads", async () => {
    const text = "<img src=x onerror=alert(1)> **bold**";
    render(<TurnBlock turn={turn([{ kind: "text", key: "a", text, provisional: false }])} onResolve={vi.fn()} />);
    const answer = screen.getByTestId("assistant-text");
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.textContent).toContain(text);
    await waitFor(() => expect(answer.querySelector("strong")?.textContent).toBe("bold"));
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.textContent).toContain("<img src=x onerror=alert(1)>");
  });

  it("shows tool cards with their status and a folded output", () => {
    const items: TurnItem[] = [
      {
        kind: "tool",
        key: "a",
        callId: "c1",
        name: "read_file",
        args: '{"file_path":"hello.txt"}',
        status: "ok",
        errorKind: null,
        output: "1\thello",
        provisional: false,
      },
      {
        kind: "tool",
        key: "b",
        callId: "c2",
        name: "list_dir",
        args: "{}",
        status: "error",
        errorKind: "approval_denied",
        output: "denied",
        provisional: false,
      },
    ];
    render(<TurnBlock turn={turn(items)} onResolve={vi.fn()} />);
    const [ok, failed] = screen.getAllByTestId("tool-card");
    expect(ok?.getAttribute("data-status")).toBe("ok");
    expect(ok?.textContent).toContain("hello.txt");
    expect(ok?.hasAttribute("open")).toBe(false);
    expect(within(failed as HTMLElement).getByTestId("tool-status").textContent).toBe("approval denied");
  });

  it("labels how a turn ended and what it cost", () => {
    const usage = { input_tokens: 1200, output_tokens: 30, cached_input_tokens: 0, reasoning_tokens: 0 };
    render(<TurnBlock turn={{ ...turn([], "interrupted"), usage }} onResolve={vi.fn()} />);
    expect(screen.getByTestId("turn-end").textContent).toBe("Interrupted");
    expect(screen.getByTestId("turn-usage").textContent).toBe("1,200 in · 30 out tokens");
  });

  it("says a retry is pending only while it is the newest thing in a running turn", () => {
    const retry: TurnItem = {
      kind: "retry",
      key: "r",
      attempt: 1,
      maxAttempts: 4,
      delayMs: 2000,
      reason: "overloaded",
      discardedPartial: true,
      timestampMs: 0,
    };
    const { rerender } = render(<TurnBlock turn={turn([retry], "running")} onResolve={vi.fn()} />);
    const notice = () => screen.getByTestId("retry-notice");
    expect(notice().textContent).toContain("Retrying in 2 s: the provider is overloaded (attempt 2 of 4");
    expect(notice().textContent).toContain("the partial answer was discarded");
    // The low-level reason is there for whoever wants it, not in the line.
    expect(notice().getAttribute("title")).toBe("overloaded");
    rerender(<TurnBlock turn={turn([retry], "completed")} onResolve={vi.fn()} />);
    expect(notice().textContent).toContain("Retried: the provider is overloaded");
  });

  it("folds reasoning under Thinking", () => {
    render(
      <TurnBlock
        turn={turn([{ kind: "reasoning", key: "a", text: "pondering", provisional: true }], "running")}
        onResolve={vi.fn()}
      />,
    );
    const thinking = screen.getByTestId("thinking");
    expect(thinking.tagName).toBe("DETAILS");
    expect(thinking.textContent).toContain("Thinking…");
    expect(screen.getByTestId("turn-working").textContent).toContain("Thinking…");
  });
});

describe("TurnBlock tool calls held by an approval", () => {
  it("finds the call's approval in the turn and says the call waits for it", () => {
    const tool: TurnItem = {
      kind: "tool",
      key: "a",
      callId: "c1",
      name: "write_file",
      args: '{"file_path":"src/a.rs","content":"new\\n"}',
      status: "running",
      errorKind: null,
      output: null,
      provisional: false,
    };
    const other: TurnItem = { ...tool, key: "b", callId: "c2", name: "read_file", args: "{}" };
    const approval: ApprovalItem = { kind: "approval", key: "p", request: REQUEST, decision: null };
    const { rerender } = render(<TurnBlock turn={turn([tool, other, approval], "running")} onResolve={vi.fn()} />);
    const statuses = () => screen.getAllByTestId("tool-status").map((status) => status.textContent);
    expect(statuses()).toEqual(["waiting for approval", "running"]);

    rerender(
      <TurnBlock
        turn={turn([tool, other, { ...approval, decision: { type: "approve_once" } }], "running")}
        onResolve={vi.fn()}
      />,
    );
    expect(statuses()).toEqual(["running", "running"]);
  });
});

describe("PlanCard", () => {
  it("lists the steps with their status and progress", () => {
    const plan: TurnItem = {
      kind: "plan",
      key: "p",
      explanation: null,
      steps: [
        { step: "read the loader", status: "completed" },
        { step: "rename it", status: "in_progress" },
        { step: "run tests", status: "pending" },
      ],
    };
    render(<TurnBlock turn={turn([plan], "running")} onResolve={vi.fn()} />);
    const card = screen.getByTestId("plan-card");
    expect(card.textContent).toContain("1 of 3 done");
    expect(card.querySelectorAll(".plan__step--in_progress")).toHaveLength(1);
    expect(within(card).getByLabelText("done")).toBeTruthy();
  });
});

describe("ApprovalCard", () => {
  const pending: ApprovalItem = { kind: "approval", key: "a", request: REQUEST, decision: null };

  it("shows what is asked, with the diff, and answers with the chosen decision", () => {
    const onResolve = vi.fn(async () => {});
    render(<ApprovalCard item={pending} onResolve={onResolve} />);
    const card = screen.getByTestId("approval-card");
    expect(card.textContent).toContain("write_file");
    expect(card.textContent).toContain("write_file has write risk");
    expect(card.querySelector(".risk--write")?.textContent).toBe("write");
    expect(card.querySelector(".diff__line--add")?.textContent).toContain("+new");
    expect(card.querySelector(".diff__line--del")?.textContent).toContain("-old");

    fireEvent.click(screen.getByRole("button", { name: "Approve for session" }));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_for_session" });
    // Locked until the engine confirms, so one request is not answered twice.
    expect((screen.getByRole("button", { name: "Deny" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers approve once and deny too", () => {
    const onResolve = vi.fn(async () => {});
    const { unmount } = render(<ApprovalCard item={pending} onResolve={onResolve} />);
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    unmount();
    render(<ApprovalCard item={pending} onResolve={onResolve} />);
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(onResolve.mock.calls).toEqual([
      ["r1", { type: "approve_once" }],
      ["r1", { type: "deny" }],
    ]);
  });

  it("shows a command instead of raw arguments when there is one", () => {
    const request = { ...REQUEST, diff: null, command: "cargo test", risk: "execute" as const };
    render(<ApprovalCard item={{ ...pending, request }} onResolve={vi.fn()} />);
    expect(screen.getByTestId("approval-card").textContent).toContain("$ cargo test");
  });

  it("shows the decision once resolved, without buttons", () => {
    render(
      <ApprovalCard item={{ ...pending, decision: { type: "deny", reason: "interrupted" } }} onResolve={vi.fn()} />,
    );
    expect(screen.getByTestId("approval-decision").textContent).toBe("Denied (interrupted)");
    // Only the diff's own layout toggle is left; the answer buttons are gone.
    expect(screen.queryByRole("button", { name: /Approve|Deny/ })).toBeNull();
    expect(screen.getByTestId("approval-card").getAttribute("data-state")).toBe("denied");
  });
});

describe("TurnBlock rewind", () => {
  it("offers a rewind to before the message, disabled while the agent works", () => {
    const onRewind = vi.fn();
    const done = turn([{ kind: "text", key: "a", text: "ok", provisional: false }]);
    const { rerender } = render(<TurnBlock turn={done} onResolve={vi.fn()} onRewind={onRewind} />);
    fireEvent.click(screen.getByTestId("rewind-turn"));
    expect(onRewind).toHaveBeenCalledWith(done);

    rerender(<TurnBlock turn={done} onResolve={vi.fn()} onRewind={onRewind} rewindDisabled />);
    expect((screen.getByTestId("rewind-turn") as HTMLButtonElement).disabled).toBe(true);

    rerender(<TurnBlock turn={done} onResolve={vi.fn()} />);
    expect(screen.queryByTestId("rewind-turn")).toBeNull();
  });
});


describe("TurnBlock user message", () => {
  it("cuts a very long message to its first lines, with Show all", () => {
    const log = Array.from({ length: 400 }, (_, i) => `line ${i + 1} of the log`).join("\n");
    render(<TurnBlock turn={{ ...turn([]), input: `why does this fail?\n${log}` }} onResolve={vi.fn()} />);
    const bubble = screen.getByTestId("user-message");
    expect(bubble.textContent).toContain("why does this fail?");
    expect(bubble.textContent).toContain("line 7 of the log");
    expect(bubble.textContent).not.toContain("line 8 of the log");
    fireEvent.click(screen.getByRole("button", { name: "Show all (401 lines)" }));
    expect(bubble.textContent).toContain("line 400 of the log");
    fireEvent.click(screen.getByRole("button", { name: "Show less" }));
    expect(bubble.textContent).not.toContain("line 400 of the log");
  });

  it("shows a short message whole, without a toggle", () => {
    render(<TurnBlock turn={{ ...turn([]), input: "one\ntwo\nthree" }} onResolve={vi.fn()} />);
    expect(screen.getByTestId("user-message").textContent).toBe("one\ntwo\nthree");
    expect(screen.queryByTestId("user-text-toggle")).toBeNull();
  });
});

describe("TurnBlock after a failure", () => {
  const failed = (errorKind: "network" | "auth") =>
    ({
      kind: "turn",
      key: "t",
      turnId: "t",
      input: "what changed?",
      images: [],
      items: [{ kind: "error", key: "e", errorKind, message: "network error: connection refused" }],
      status: "failed",
      usage: null,
      startedMs: 0,
      startSeq: 1,
    }) satisfies TurnView;

  it("offers Retry when trying again can help, and sends the same message", () => {
    const onRetry = vi.fn();
    const { rerender } = render(<TurnBlock turn={failed("network")} onResolve={vi.fn()} onRetry={onRetry} />);
    fireEvent.click(screen.getByTestId("retry-turn"));
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ input: "what changed?" }));
    rerender(<TurnBlock turn={failed("auth")} onResolve={vi.fn()} onRetry={onRetry} />);
    expect(screen.queryByTestId("retry-turn")).toBeNull();
  });

  it("says a network failure in a sentence, the client's words folded under Details", () => {
    const detail = "error sending request: client error (Connect): tcp connect error: Connection refused (os error 111)";
    const turn = {
      ...failed("network"),
      items: [{ kind: "error" as const, key: "e", errorKind: "network" as const, message: "Could not reach 127.0.0.1:8080 — connection refused. Is the server running?", detail }],
    };
    render(<TurnBlock turn={turn} onResolve={vi.fn()} />);
    expect(screen.getByTestId("error-notice").querySelector(".notice__message")?.textContent).toBe(
      "Could not reach 127.0.0.1:8080 — connection refused. Is the server running?",
    );
    expect(screen.getByTestId("error-detail").textContent).toContain("os error 111");
  });

  it("offers Continue on an interrupted turn, and a retried turn shows no second bubble", () => {
    const onRetry = vi.fn();
    const { rerender } = render(
      <TurnBlock turn={{ ...failed("network"), status: "interrupted", items: [] }} onResolve={vi.fn()} onRetry={onRetry} />,
    );
    expect(screen.getByTestId("retry-turn").textContent).toContain("Continue");
    rerender(<TurnBlock turn={{ ...failed("network"), retryOf: "t0", status: "running", items: [] }} onResolve={vi.fn()} />);
    expect(screen.queryByTestId("user-message")).toBeNull();
    expect(screen.getByTestId("turn-resumed").textContent).toContain("Running the message above again");
  });
});

describe("a model reading the prompt", () => {
  it("says so with the prompt's size and the time spent, until the answer starts", () => {
    const waiting = { sinceMs: Date.now() - 65_000, inputTokens: 2470, local: true };
    render(<TurnBlock turn={{ ...turn([], "running"), waiting }} onResolve={vi.fn()} />);
    const line = screen.getByTestId("reading-prompt").textContent ?? "";
    expect(line).toContain("Reading the prompt (≈2.5k tokens)… 1:05");
    expect(line).toContain("a local model reads long prompts slowly");
    cleanup();
    render(<TurnBlock turn={{ ...turn([], "running"), waiting: null }} onResolve={vi.fn()} />);
    expect(screen.queryByTestId("reading-prompt")).toBeNull();
    expect(screen.getByTestId("turn-working")).toBeTruthy();
  });
});
