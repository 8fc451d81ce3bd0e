// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { activeSessions, emptyActivity, receive } from "../../state/activity";
import { pendingApproval, sessionActivity } from "../../test/fixtures";
import { ActiveList } from "./ActiveList";

afterEach(cleanup);

function view() {
  let v = receive(emptyActivity, [
    sessionActivity({ session_id: "done", label: "write docs", cwd: "/work/docs" }),
    sessionActivity({ session_id: "ask", label: "clean up", cwd: "/work/app" }),
    sessionActivity({ session_id: "quiet", label: "nothing new" }),
  ]);
  v = receive(v, [
    sessionActivity({ session_id: "done", label: "write docs", cwd: "/work/docs", turns_ended: 1, last_outcome: "completed", updated_ms: 9 }),
    sessionActivity({
      session_id: "ask",
      label: "clean up",
      cwd: "/work/app",
      state: "waiting",
      approvals: [pendingApproval({ request_id: "r7", summary: "rm -rf build" })],
    }),
    sessionActivity({ session_id: "quiet", label: "nothing new" }),
  ]);
  return v;
}

describe("ActiveList", () => {
  it("says Running in words beside the running ring, unlike a finished unread session", () => {
    let v = receive(emptyActivity, [
      sessionActivity({ session_id: "run", label: "long build", state: "running", updated_ms: 5 }),
      sessionActivity({ session_id: "done", label: "write docs" }),
    ]);
    v = receive(v, [
      sessionActivity({ session_id: "run", label: "long build", state: "running", updated_ms: 5 }),
      sessionActivity({ session_id: "done", label: "write docs", turns_ended: 1, last_outcome: "completed", updated_ms: 9 }),
    ]);
    render(<ActiveList activity={v} sessions={activeSessions(v)} shownId={null} onOpen={vi.fn()} onDecide={vi.fn()} />);
    const [running, unread] = screen.getAllByTestId("active-row");
    expect(running?.dataset.session).toBe("run");
    expect(within(running!).getByTestId("active-state").textContent).toContain("Running");
    const ring = within(running!).getByTestId("session-status");
    expect(ring.getAttribute("title")).toBe("Running");
    expect(within(running!).getByRole("button").textContent).toContain("Running");
    expect(within(unread!).getByTestId("active-state").textContent).toContain("Finished");
    expect(within(unread!).getByTestId("session-status").getAttribute("title")).not.toBe("Running");
  });

  it("names a worktree session by its repository and branch", () => {
    const v = receive(emptyActivity, [
      sessionActivity({ session_id: "wt", label: "fix login", state: "running", cwd: "/home/me/.memo/worktrees/app-3f9a1c2e" }),
    ]);
    const placeOf = (cwd: string) => (cwd.includes("/worktrees/") ? "app · fix-login" : cwd);
    render(
      <ActiveList activity={v} sessions={activeSessions(v)} shownId={null} onOpen={vi.fn()} onDecide={vi.fn()} placeOf={placeOf} />,
    );
    const row = screen.getByTestId("active-row");
    expect(row.textContent).toContain("app · fix-login");
    expect(row.textContent).not.toContain("3f9a1c2e");
  });

  it("lists sessions with something to say, waiting first, with their folder", () => {
    const v = view();
    render(<ActiveList activity={v} sessions={activeSessions(v)} shownId={null} onOpen={vi.fn()} onDecide={vi.fn()} />);
    const rows = screen.getAllByTestId("active-row");
    expect(rows.map((r) => r.dataset.session)).toEqual(["ask", "done"]);
    expect(rows[0]?.textContent).toContain("app");
    expect(rows[0]?.textContent).toContain("rm -rf build");
    expect(rows[1]?.querySelector("[data-state]")?.getAttribute("data-state")).toBe("unread");
  });

  it("says which subagent asks a relayed question", () => {
    const v = receive(emptyActivity, [
      sessionActivity({
        session_id: "parent",
        label: "split the work",
        state: "waiting",
        approvals: [
          pendingApproval({
            request_id: "r9",
            summary: "cargo test",
            agent: { agent_id: "agent-1a2b3c4d", agent_type: "reviewer", session_id: "child" },
          }),
          pendingApproval({ request_id: "r10", summary: "ls" }),
        ],
      }),
    ]);
    render(<ActiveList activity={v} sessions={activeSessions(v)} shownId={null} onOpen={vi.fn()} onDecide={vi.fn()} />);
    const labels = screen.getAllByTestId("active-approval-agent");
    expect(labels).toHaveLength(1);
    expect(labels[0]?.textContent).toBe("Subagent reviewer asks");
    expect(labels[0]?.closest("[data-testid=active-approval]")?.textContent).toContain("cargo test");
  });

  it("approves or denies right here, and opens the session on a click", async () => {
    const v = view();
    const onDecide = vi.fn().mockResolvedValue(undefined);
    const onOpen = vi.fn();
    render(<ActiveList activity={v} sessions={activeSessions(v)} shownId={null} onOpen={onOpen} onDecide={onDecide} />);
    fireEvent.click(screen.getByTestId("sidebar-approve"));
    await waitFor(() => expect(onDecide).toHaveBeenCalledWith("ask", "r7", true));
    fireEvent.click(screen.getByTestId("sidebar-deny"));
    await waitFor(() => expect(onDecide).toHaveBeenCalledWith("ask", "r7", false));
    fireEvent.click(screen.getAllByTestId("active-open")[1] as HTMLElement);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ session_id: "done" }));
  });

  it("says why an answer did not go through", async () => {
    const v = view();
    const onDecide = vi.fn().mockRejectedValue(new Error("session s1 is not open"));
    render(<ActiveList activity={v} sessions={activeSessions(v)} shownId={null} onOpen={vi.fn()} onDecide={onDecide} />);
    fireEvent.click(screen.getByTestId("sidebar-approve"));
    expect((await screen.findByRole("alert")).textContent).toContain("not open");
  });

  it("shows nothing when no session has anything to say", () => {
    const { container } = render(<ActiveList activity={emptyActivity} sessions={[]} shownId={null} onOpen={vi.fn()} onDecide={vi.fn()} />);
    expect(container.innerHTML).toBe("");
  });
});
