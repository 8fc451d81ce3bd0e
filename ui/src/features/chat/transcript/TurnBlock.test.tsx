// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { ReactNode } from "react";

import type { ApprovalRequest } from "../../../gen/protocol";
import type { ApprovalItem, ToolItem, TurnItem, TurnView } from "../../../state/transcript";
import { commandView, fileEditView, readView, toolItem } from "../../../test/fixtures";
import { ApprovalCard, ResolveApprovalContext, type ResolveApproval } from "./ApprovalCard";
import { TurnBlock } from "./TurnBlock";

afterEach(cleanup);

/** Render options putting `resolve` where the cards read how to answer. */
function withResolve(resolve: ResolveApproval) {
  return {
    wrapper: ({ children }: { children: ReactNode }) => (
      <ResolveApprovalContext.Provider value={resolve}>{children}</ResolveApprovalContext.Provider>
    ),
  };
}

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
    render(<TurnBlock turn={turn([{ kind: "text", key: "a", text, provisional: false }])} />);
    const answer = screen.getByTestId("assistant-text");
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.textContent).toContain(text);
    await waitFor(() => expect(answer.querySelector("strong")?.textContent).toBe("bold"));
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.textContent).toContain("<img src=x onerror=alert(1)>");
  });

  it("shows tool cards with their status and a folded output", () => {
    const items: TurnItem[] = [
      toolItem({ key: "a", callId: "c1", name: "read_file", status: "ok", output: "1\thello", view: readView("hello.txt") }),
      toolItem({ key: "b", callId: "c2", name: "list_dir", status: "error", errorKind: "approval_denied", output: "denied" }),
    ];
    render(<TurnBlock turn={turn(items)} />);
    const [ok, failed] = screen.getAllByTestId("tool-card");
    expect(ok?.getAttribute("data-status")).toBe("ok");
    expect(ok?.dataset.view).toBe("read");
    expect(ok?.textContent).toContain("hello.txt");
    expect(ok?.hasAttribute("open")).toBe(false);
    expect(within(failed as HTMLElement).getByTestId("tool-status").textContent).toBe("approval denied");
  });

  it("labels how a turn ended and what it cost", () => {
    const usage = { input_tokens: 1200, output_tokens: 30, cached_input_tokens: 0, reasoning_tokens: 0 };
    render(<TurnBlock turn={{ ...turn([], "interrupted"), usage }} />);
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
    const { rerender } = render(<TurnBlock turn={turn([retry], "running")} />);
    const notice = () => screen.getByTestId("retry-notice");
    expect(notice().textContent).toContain("Retrying in 2 s: the provider is overloaded (attempt 2 of 4");
    expect(notice().textContent).toContain("the partial answer was discarded");
    // The low-level reason is there for whoever wants it, not in the line.
    expect(notice().getAttribute("title")).toBe("overloaded");
    rerender(<TurnBlock turn={turn([retry], "completed")} />);
    expect(notice().textContent).toContain("Retried: the provider is overloaded");
  });

  it("folds reasoning under Thinking", () => {
    render(
      <TurnBlock
        turn={turn([{ kind: "reasoning", key: "a", text: "pondering", provisional: true }], "running")}
      />,
    );
    const thinking = screen.getByTestId("thinking");
    expect(thinking.tagName).toBe("DETAILS");
    expect(thinking.textContent).toContain("Thinking…");
    expect(screen.getByTestId("turn-working").textContent).toContain("Thinking…");
  });
});

describe("TurnBlock tool calls held by an approval", () => {
  const WRITE: ToolItem = toolItem({
    key: "a",
    callId: "c1",
    name: "write_file",
    view: fileEditView({ path: "src/a.rs", change: { kind: "modify" }, diff: REQUEST.diff! }),
  });
  const READ: ToolItem = toolItem({ key: "b", callId: "c2", name: "read_file", view: readView("b.rs") });
  const approval: ApprovalItem = { kind: "approval", key: "p", request: REQUEST, decision: null };

  it("answers the approval inside its call's card, with no second card, and says the call waits", () => {
    const resolve = vi.fn(() => Promise.resolve());
    const { rerender } = render(<TurnBlock turn={turn([WRITE, READ, approval], "running")} />, withResolve(resolve));
    const statuses = () => screen.getAllByTestId("tool-status").map((status) => status.textContent);
    expect(statuses()).toEqual(["waiting for approval", "running"]);
    const [write, read] = screen.getAllByTestId("tool-card");
    expect(screen.getAllByTestId("approval-card")).toHaveLength(1);
    const question = within(write as HTMLElement).getByTestId("approval-card");
    expect(question.dataset.state).toBe("pending");
    expect(within(read as HTMLElement).queryByTestId("approval-card")).toBeNull();
    // The question is what the turn waits on: no "Working…" under it.
    expect(screen.queryByTestId("turn-working")).toBeNull();
    fireEvent.click(within(question).getByRole("button", { name: "Approve once" }));
    expect(resolve).toHaveBeenCalledWith("r1", { type: "approve_once" });

    rerender(<TurnBlock turn={turn([WRITE, READ, { ...approval, decision: { type: "approve_once" } }], "running")} />);
    expect(statuses()).toEqual(["running", "running"]);
    expect(screen.getAllByTestId("approval-card")).toHaveLength(1);
    expect(within(screen.getAllByTestId("tool-card")[0] as HTMLElement).getByTestId("approval-card").dataset.state).toBe("approved");
    expect(screen.getByTestId("turn-working")).toBeTruthy();
  });

  it("offers to approve the step's other calls of the same tool, counting only those still to run", () => {
    const resolve = vi.fn(() => Promise.resolve());
    const exec = (n: number, status: ToolItem["status"] = "running") =>
      toolItem({ key: `e${n}`, callId: `e${n}`, name: "exec_command", status, output: status === "ok" ? "" : null, view: commandView({ command: `step ${n}` }) });
    const request: ApprovalRequest = { ...REQUEST, call_id: "e1", tool_name: "exec_command", risk: "execute", diff: null, command: "step 1" };
    const items = [exec(0, "ok"), exec(1), exec(2), exec(3), READ, { ...approval, request }];
    render(<TurnBlock turn={turn(items, "running")} />, withResolve(resolve));
    const cards = screen.getAllByTestId("tool-card");
    const all = within(cards[1] as HTMLElement).getByTestId("approve-step");
    expect(all.textContent).toBe("Approve all 3");
    fireEvent.click(all);
    expect(resolve).toHaveBeenCalledWith("r1", { type: "approve_step" });
  });

  it("keeps a card of its own for an approval whose call has no card in the turn", () => {
    const elsewhere: ApprovalItem = { ...approval, request: { ...REQUEST, call_id: "gone" } };
    render(<TurnBlock turn={turn([READ, elsewhere], "running")} />, withResolve(vi.fn(() => Promise.resolve())));
    const question = screen.getByTestId("approval-card");
    expect(within(screen.getByTestId("tool-card")).queryByTestId("approval-card")).toBeNull();
    expect(question.querySelector(".approval__title")?.textContent).toBe("Allow write_file?");
    expect(screen.getByTestId("tool-status").textContent).toBe("running");
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
    render(<TurnBlock turn={turn([plan], "running")} />);
    const card = screen.getByTestId("plan-card");
    expect(card.textContent).toContain("1 of 3 done");
    expect(card.querySelectorAll(".plan__step--in_progress")).toHaveLength(1);
    expect(within(card).getByLabelText("done")).toBeTruthy();
  });
});

describe("ApprovalCard on its own", () => {
  const pending: ApprovalItem = { kind: "approval", key: "a", request: REQUEST, decision: null };

  it("shows what is asked, with the diff, and answers with the chosen decision", () => {
    const onResolve = vi.fn(async () => {});
    render(<ApprovalCard item={pending} />, withResolve(onResolve));
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
    const { unmount } = render(<ApprovalCard item={pending} />, withResolve(onResolve));
    fireEvent.click(screen.getByRole("button", { name: "Approve once" }));
    unmount();
    render(<ApprovalCard item={pending} />, withResolve(onResolve));
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(onResolve.mock.calls).toEqual([
      ["r1", { type: "approve_once" }],
      ["r1", { type: "deny" }],
    ]);
  });

  it("shows a command instead of raw arguments when there is one", () => {
    const request = { ...REQUEST, diff: null, command: "cargo test", risk: "execute" as const };
    render(<ApprovalCard item={{ ...pending, request }} />);
    expect(screen.getByTestId("approval-card").textContent).toContain("$ cargo test");
  });

  it("shows the decision once resolved, without buttons", () => {
    render(
      <ApprovalCard item={{ ...pending, decision: { type: "deny", reason: "interrupted" } }} />,
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
    const { rerender } = render(<TurnBlock turn={done} onRewind={onRewind} />);
    fireEvent.click(screen.getByTestId("rewind-turn"));
    expect(onRewind).toHaveBeenCalledWith(done);

    rerender(<TurnBlock turn={done} onRewind={onRewind} rewindDisabled />);
    expect((screen.getByTestId("rewind-turn") as HTMLButtonElement).disabled).toBe(true);

    rerender(<TurnBlock turn={done} />);
    expect(screen.queryByTestId("rewind-turn")).toBeNull();
  });
});


describe("TurnBlock user message", () => {
  it("cuts a very long message to its first lines, with Show all", () => {
    const log = Array.from({ length: 400 }, (_, i) => `line ${i + 1} of the log`).join("\n");
    render(<TurnBlock turn={{ ...turn([]), input: `why does this fail?\n${log}` }} />);
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
    render(<TurnBlock turn={{ ...turn([]), input: "one\ntwo\nthree" }} />);
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
    const { rerender } = render(<TurnBlock turn={failed("network")} onRetry={onRetry} />);
    fireEvent.click(screen.getByTestId("retry-turn"));
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ input: "what changed?" }));
    rerender(<TurnBlock turn={failed("auth")} onRetry={onRetry} />);
    expect(screen.queryByTestId("retry-turn")).toBeNull();
  });

  it("says a network failure in a sentence, the client's words folded under Details", () => {
    const detail = "error sending request: client error (Connect): tcp connect error: Connection refused (os error 111)";
    const turn = {
      ...failed("network"),
      items: [{ kind: "error" as const, key: "e", errorKind: "network" as const, message: "Could not reach 127.0.0.1:8080 — connection refused. Is the server running?", detail }],
    };
    render(<TurnBlock turn={turn} />);
    expect(screen.getByTestId("error-notice").querySelector(".notice__message")?.textContent).toBe(
      "Could not reach 127.0.0.1:8080 — connection refused. Is the server running?",
    );
    expect(screen.getByTestId("error-detail").textContent).toContain("os error 111");
  });

  it("offers Continue on an interrupted turn, and a retried turn shows no second bubble", () => {
    const onRetry = vi.fn();
    const { rerender } = render(
      <TurnBlock turn={{ ...failed("network"), status: "interrupted", items: [] }} onRetry={onRetry} />,
    );
    expect(screen.getByTestId("retry-turn").textContent).toContain("Continue");
    rerender(<TurnBlock turn={{ ...failed("network"), retryOf: "t0", status: "running", items: [] }} />);
    expect(screen.queryByTestId("user-message")).toBeNull();
    expect(screen.getByTestId("turn-resumed").textContent).toContain("Running the message above again");
  });
});

describe("a model reading the prompt", () => {
  it("says so with the prompt's size and the time spent, until the answer starts", () => {
    const waiting = { sinceMs: Date.now() - 65_000, inputTokens: 2470, local: true };
    render(<TurnBlock turn={{ ...turn([], "running"), waiting }} />);
    const line = screen.getByTestId("reading-prompt").textContent ?? "";
    expect(line).toContain("Reading the prompt (≈2.5k tokens)… 1:05");
    expect(line).toContain("a local model reads long prompts slowly");
    cleanup();
    render(<TurnBlock turn={{ ...turn([], "running"), waiting: null }} />);
    expect(screen.queryByTestId("reading-prompt")).toBeNull();
    expect(screen.getByTestId("turn-working")).toBeTruthy();
  });
});
