// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { AgentEvent, ApprovalRequest, EventEnvelope } from "../../gen/protocol";
import { ChildSessions, ChildSessionsContext, type ChildFeedApi } from "../../state/childSessions";
import type { Schedule } from "../../state/frameQueue";
import type { SubagentView, ToolItem, TurnView } from "../../state/transcript";
import { commandView, readView, subagentCallView, toolItem } from "../../test/fixtures";
import { ResolveApprovalContext, type ResolveApproval } from "../chat/transcript/ApprovalCard";
import { ToolCard } from "../chat/transcript/ToolCard";
import { TurnBlock } from "../chat/transcript/TurnBlock";
import { SubagentsContext } from "./context";

afterEach(cleanup);

const immediately: Schedule = (callback) => {
  callback();
  return () => undefined;
};

/** Child sessions whose events the test sends; records what was subscribed. */
function childBackend() {
  const calls: string[] = [];
  const sinks = new Map<string, (batch: EventEnvelope[]) => void>();
  const api: ChildFeedApi = {
    subscribe: (id, afterSeq, onEvents) => {
      calls.push(`subscribe ${id} after ${afterSeq}`);
      sinks.set(id, onEvents);
      return Promise.resolve();
    },
    unsubscribe: (id) => {
      calls.push(`unsubscribe ${id}`);
      sinks.delete(id);
      return Promise.resolve();
    },
  };
  let seq = 0;
  const send = (id: string, events: AgentEvent[]) =>
    act(() =>
      sinks.get(id)?.(
        events.map((event) => ({ session_id: id, turn_id: "ct1", seq: ++seq, timestamp_ms: seq, event })),
      ),
    );
  return { feeds: new ChildSessions(api, { releaseDelayMs: 0, schedule: immediately }), calls, send };
}

const PARENT_EXEC: ToolItem = toolItem({ key: "p", callId: "c1", name: "exec_command", view: commandView({ command: "ls" }) });

const SPAWN_VIEW = subagentCallView({
  action: "spawn",
  task: "Review src/ for unsafe code",
  agent_type: "reviewer",
  agents: [{ agent_id: "agent-3f9a2c1b", agent_type: "reviewer", state: "running" }],
});

const SPAWN: ToolItem = toolItem({
  key: "k1",
  callId: "c1",
  name: "spawn_agent",
  status: "ok",
  output: "[text for the model]",
  agentId: "agent-3f9a2c1b",
  view: SPAWN_VIEW,
});

/** The spawn's card, as the transcript picks it by the call's view. */
const spawnCard = (tool: ToolItem) => <ToolCard tool={tool} />;

function agent(overrides: Partial<SubagentView> = {}): SubagentView {
  return {
    agentId: "agent-3f9a2c1b",
    agentType: "reviewer",
    sessionId: "child-1",
    task: "Review src/ for unsafe code",
    callId: "c1",
    state: "running",
    answer: null,
    message: null,
    pendingApprovals: [],
    ...overrides,
  };
}

function wrap(
  feeds: ChildSessions,
  agents: Record<string, SubagentView>,
  open: ((id: string) => void) | null = null,
  resolve: ResolveApproval | null = null,
) {
  return ({ children }: { children: ReactNode }) => (
    <ResolveApprovalContext.Provider value={resolve}>
      <ChildSessionsContext.Provider value={feeds}>
        <SubagentsContext.Provider value={{ agents, open }}>{children}</SubagentsContext.Provider>
      </ChildSessionsContext.Provider>
    </ResolveApprovalContext.Provider>
  );
}

describe("SubagentCard", () => {
  it("shows the agent, its task and its work live while it runs, and opens its transcript", () => {
    const backend = childBackend();
    const open = vi.fn();
    render(spawnCard(SPAWN), { wrapper: wrap(backend.feeds, { "agent-3f9a2c1b": agent() }, open) });
    const card = screen.getByTestId("subagent-card");
    expect(card.dataset.phase).toBe("running");
    expect(screen.getByTestId("subagent-type").textContent).toBe("reviewer");
    expect(card.textContent).toContain("agent-3f9a2c1b");
    expect(screen.getByTestId("subagent-task").textContent).toBe("Review src/ for unsafe code");
    expect(backend.calls).toEqual(["subscribe child-1 after 0"]);
    expect(screen.getByTestId("subagent-work").textContent).toContain("Reading its work");

    backend.send("child-1", [
      { type: "turn_started", input: { text: "Review src/ for unsafe code" } },
      { type: "tool_call_begin", call_id: "x1", name: "read_file" },
      { type: "tool_call_args_delta", call_id: "x1", delta: '{"file_path":"src/lib.rs"}' },
      { type: "tool_call_view", call_id: "x1", view: readView("src/lib.rs") },
      {
        type: "tool_call_end",
        call_id: "x1",
        name: "read_file",
        status: "ok",
        output: "fn main() {}",
        view: readView("src/lib.rs", { start_line: 1, end_line: 1 }),
      },
      { type: "tool_call_begin", call_id: "x2", name: "exec_command" },
      { type: "tool_call_args_delta", call_id: "x2", delta: '{"cmd":"cargo test"}' },
      { type: "tool_call_view", call_id: "x2", view: commandView({ command: "cargo test" }) },
      { type: "tool_call_begin", call_id: "x3", name: "grep_files" },
      { type: "text_delta", delta: "Looking at the tests" },
    ]);
    const steps = screen.getAllByTestId("subagent-step");
    // Each call's subject is its view's; one whose view has not come is its name alone.
    expect(steps.map((step) => step.textContent)).toEqual(["read_filesrc/lib.rs:1", "exec_command$ cargo test", "grep_files"]);
    expect(steps[1]?.className).toContain("--running");
    expect(screen.getByTestId("subagent-text").textContent).toBe("Looking at the tests");
    expect(screen.getByTestId("subagent-work-toggle").textContent).toBe("Work · 3 tool calls");

    fireEvent.click(screen.getByTestId("subagent-open"));
    expect(open).toHaveBeenCalledWith("agent-3f9a2c1b");
  });

  it("lets go of the child's session when the card goes", async () => {
    const backend = childBackend();
    const { unmount } = render(spawnCard(SPAWN), { wrapper: wrap(backend.feeds, { "agent-3f9a2c1b": agent() }) });
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(backend.calls).toEqual(["subscribe child-1 after 0", "unsubscribe child-1"]);
  });

  it("says when the agent waits for approval, and marks the call that waits", () => {
    const backend = childBackend();
    render(spawnCard(SPAWN), {
      wrapper: wrap(backend.feeds, { "agent-3f9a2c1b": agent({ pendingApprovals: ["r1"] }) }),
    });
    backend.send("child-1", [
      { type: "turn_started", input: { text: "task" } },
      { type: "assistant_message", text: "", tool_calls: [{ call_id: "x2", name: "exec_command", arguments: '{"cmd":"cargo test"}' }] },
      { type: "tool_call_view", call_id: "x2", view: commandView({ command: "cargo test" }) },
      { type: "approval_requested", request: { ...childRequest(), call_id: "x2" } },
    ]);
    expect(screen.getByTestId("subagent-card").dataset.phase).toBe("needs_approval");
    expect(screen.getByTestId("agent-state").textContent).toBe("needs approval");
    expect(screen.getByTestId("subagent-step").textContent).toContain("waiting for approval");
  });

  it("folds its work once finished and shows the answer", async () => {
    const backend = childBackend();
    render(spawnCard(SPAWN), {
      wrapper: wrap(backend.feeds, { "agent-3f9a2c1b": agent({ state: "finished", answer: "No **unsafe** blocks." }) }),
    });
    expect(screen.queryByTestId("subagent-work")).toBeNull();
    expect(backend.calls).toEqual([]);
    // Once the Markdown renderer has loaded (LazyMarkdown).
    await waitFor(() => expect(screen.getByTestId("subagent-answer").querySelector("strong")?.textContent).toBe("unsafe"));
    fireEvent.click(screen.getByTestId("subagent-work-toggle"));
    expect(backend.calls).toEqual(["subscribe child-1 after 0"]);
    backend.send("child-1", [
      { type: "turn_started", input: { text: "task" } },
      { type: "assistant_message", text: "", tool_calls: [{ call_id: "x1", name: "grep_files", arguments: '{"pattern":"unsafe"}' }] },
      { type: "tool_call_view", call_id: "x1", view: { type: "search", pattern: "unsafe", first: [], truncated: false } },
      { type: "assistant_message", text: "No **unsafe** blocks.", tool_calls: [] },
    ]);
    expect(screen.getByTestId("subagent-step").textContent).toBe("grep_filesunsafe");
    // Its last words are the answer shown below: not said twice.
    expect(screen.queryByTestId("subagent-text")).toBeNull();
  });

  it("shows the investigator's report as a report", async () => {
    const backend = childBackend();
    const report = {
      summary: "Sessions are stored by `Store::save`.",
      exploration_trace: ["grep save", "read store.rs"],
      relevant_locations: [{ file_path: "src/store.rs", reasoning: "Writes the rows", key_symbols: ["Store::save", "Row"] }],
    };
    const investigator = agent({ agentType: "codebase_investigator", state: "finished", answer: JSON.stringify(report, null, 2) });
    const view = { ...SPAWN_VIEW, task: "where are sessions saved?", agent_type: "codebase_investigator" };
    render(spawnCard({ ...SPAWN, view }), {
      wrapper: wrap(backend.feeds, { "agent-3f9a2c1b": investigator }),
    });
    const shown = screen.getByTestId("subagent-report");
    await waitFor(() => expect(shown.textContent).toContain("Sessions are stored by Store::save."));
    const location = within(shown).getByTestId("report-location");
    expect(location.textContent).toContain("src/store.rs");
    expect(location.textContent).toContain("Writes the rows");
    expect(location.textContent).toContain("Row");
    expect(shown.textContent).toContain("How it explored (2 steps)");
    expect(shown.textContent).not.toContain("relevant_locations");
  });

  it("says why an agent could not start", () => {
    const backend = childBackend();
    const { agentId: _started, ...notStarted } = SPAWN;
    const refused: ToolItem = {
      ...notStarted,
      status: "error",
      errorKind: "execution_failed",
      output: "4 subagents are already working, the most that may run at once",
    };
    render(spawnCard({ ...refused, view: { ...SPAWN_VIEW, agents: [] } }), { wrapper: wrap(backend.feeds, {}) });
    expect(screen.getByTestId("subagent-type").textContent).toBe("reviewer");
    expect(screen.getByTestId("subagent-task").textContent).toBe("Review src/ for unsafe code");
    expect(screen.getByTestId("subagent-card").dataset.phase).toBe("not_started");
    expect(screen.getByTestId("subagent-message").textContent).toContain("4 subagents are already working");
    expect(screen.queryByTestId("subagent-open")).toBeNull();
    expect(backend.calls).toEqual([]);
  });
});

describe("SubagentCard from the spawn's view alone", () => {
  it("says the agent is starting while the spawn runs", () => {
    const backend = childBackend();
    const { agentId: _none, ...starting } = SPAWN;
    render(spawnCard({ ...starting, status: "running", output: null, view: { ...SPAWN_VIEW, agents: [] } }), {
      wrapper: wrap(backend.feeds, {}),
    });
    expect(screen.getByTestId("subagent-card").dataset.phase).toBe("starting");
    expect(screen.getByTestId("subagent-task").textContent).toBe("Review src/ for unsafe code");
    expect(screen.queryByTestId("subagent-work")).toBeNull();
  });

  it("shows an agent the transcript has no record of as the view says it ended", async () => {
    const backend = childBackend();
    const { agentId: _none, ...unrecorded } = SPAWN;
    const view = {
      ...SPAWN_VIEW,
      agents: [{ agent_id: "agent-77aa", agent_type: "general", state: "failed" as const, message: "provider down" }],
    };
    render(spawnCard({ ...unrecorded, view }), { wrapper: wrap(backend.feeds, {}) });
    const shown = screen.getByTestId("subagent-card");
    expect(shown.dataset.agentId).toBe("agent-77aa");
    expect(shown.dataset.phase).toBe("failed");
    expect(screen.getByTestId("subagent-type").textContent).toBe("general");
    expect(screen.getByTestId("subagent-message").textContent).toBe("provider down");
    // No session to read its work from, nor to open.
    expect(screen.queryByTestId("subagent-open")).toBeNull();
    expect(backend.calls).toEqual([]);
  });
});

function childRequest(): ApprovalRequest {
  return {
    request_id: "r1",
    call_id: "c1",
    tool_name: "exec_command",
    risk: "execute",
    reason: "exec_command runs a command",
    fingerprint: "exec:cargo test",
    cwd: "/repo",
    arguments: { cmd: "cargo test" },
    command: "cargo test",
    agent: { agent_id: "agent-3f9a2c1b", agent_type: "reviewer", session_id: "child-1" },
  };
}

describe("a subagent's question in its parent's turn", () => {
  it("names the agent that asks, and leaves the parent's call of the same id alone", () => {
    const backend = childBackend();
    const turn: TurnView = {
      kind: "turn",
      key: "t",
      turnId: "t",
      input: "review",
      images: [],
      status: "running",
      usage: null,
      startedMs: 0,
      startSeq: 1,
      items: [
        // A parent exec_command call with the same id as the child's call that asks.
        PARENT_EXEC,
        { kind: "approval", key: "a", request: childRequest(), decision: null },
      ],
    };
    const resolve = vi.fn(() => Promise.resolve());
    render(<TurnBlock turn={turn} />, { wrapper: wrap(backend.feeds, {}, null, resolve) });
    expect(screen.getByTestId("approval-agent").textContent).toBe("Subagent reviewer (agent-3f9a…) wants to run cargo test");
    // A card of its own, not inside the parent's card of the same call id.
    expect(screen.getAllByTestId("approval-card")).toHaveLength(1);
    expect(within(screen.getByTestId("tool-card")).queryByTestId("approval-card")).toBeNull();
    expect(screen.getByTestId("approval-card").dataset.agentId).toBe("agent-3f9a2c1b");
    // Not "waiting for approval": the question is the child's.
    expect(screen.getByTestId("tool-status").textContent).toBe("running");
    // One agent's step is not the parent's: no "Approve all".
    expect(screen.queryByTestId("approve-step")).toBeNull();
    fireEvent.click(screen.getByText("Approve once"));
    expect(resolve).toHaveBeenCalledWith("r1", { type: "approve_once" });
  });
});
