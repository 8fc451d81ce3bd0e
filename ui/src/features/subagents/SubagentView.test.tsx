// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { AgentEvent, ApprovalRequest, EventEnvelope } from "../../gen/protocol";
import { ChildSessions, ChildSessionsContext, type ChildFeedApi } from "../../state/childSessions";
import { applyBatch, emptyTranscript, type SubagentView as Agent } from "../../state/transcript";
import { commandView } from "../../test/fixtures";
import { ResolveApprovalContext, type ResolveApproval } from "../chat/transcript/ApprovalCard";
import { Transcript } from "../chat/transcript/Transcript";
import { SubagentView } from "./SubagentView";

afterEach(cleanup);

function backend(resolve: ResolveApproval | null = null) {
  let sink: ((batch: EventEnvelope[]) => void) | null = null;
  const api: ChildFeedApi = {
    subscribe: (_id, _after, onEvents) => {
      sink = onEvents;
      return Promise.resolve();
    },
    unsubscribe: () => Promise.resolve(),
  };
  const feeds = new ChildSessions(api, {
    releaseDelayMs: 0,
    schedule: (callback) => {
      callback();
      return () => undefined;
    },
  });
  let seq = 0;
  const send = (events: AgentEvent[]) =>
    act(() => sink?.(events.map((event) => ({ session_id: "child-1", turn_id: "ct1", seq: ++seq, timestamp_ms: seq, event }))));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ResolveApprovalContext.Provider value={resolve}>
      <ChildSessionsContext.Provider value={feeds}>{children}</ChildSessionsContext.Provider>
    </ResolveApprovalContext.Provider>
  );
  return { send, wrapper };
}

const AGENT: Agent = {
  agentId: "agent-3f9a2c1b",
  agentType: "reviewer",
  sessionId: "child-1",
  task: "Review src/",
  callId: "c1",
  state: "running",
  answer: null,
  message: null,
  pendingApprovals: [],
};

/** The child's question as its own log has it. */
const QUESTION: ApprovalRequest = {
  request_id: "r1",
  call_id: "x1",
  tool_name: "exec_command",
  risk: "execute",
  reason: "exec_command runs a command",
  fingerprint: "exec:cargo test",
  cwd: "/repo",
  arguments: { cmd: "cargo test" },
  command: "cargo test",
};

/** The same question relayed to the parent's log, naming the agent that asks. */
const RELAYED: ApprovalRequest = { ...QUESTION, agent: { agent_id: "agent-3f9a2c1b", agent_type: "reviewer", session_id: "child-1" } };

describe("SubagentView", () => {
  it("shows the child's transcript read-only under a header that leads back", () => {
    const onResolve = vi.fn(() => Promise.resolve());
    const child = backend(onResolve);
    const onBack = vi.fn();
    render(<SubagentView agent={AGENT} parentTitle="Fix the build" onBack={onBack} />, { wrapper: child.wrapper });
    expect(screen.getByTestId("subagent-title").textContent).toBe("Subagent reviewer · agent-3f9a2c1b");
    expect(screen.getByText("Loading its transcript…")).toBeTruthy();
    child.send([
      { type: "turn_started", input: { text: "Review src/" } },
      { type: "assistant_message", text: "", tool_calls: [{ call_id: "x1", name: "exec_command", arguments: '{"cmd":"cargo test"}' }] },
      { type: "tool_call_view", call_id: "x1", view: commandView({ command: "cargo test" }) },
      { type: "approval_requested", request: QUESTION },
    ]);
    expect(screen.getByTestId("user-message").textContent).toBe("Review src/");
    expect(screen.getByTestId("tool-command").textContent).toBe("$cargo test");
    expect(screen.queryByRole("textbox")).toBeNull();

    // Its question is in its call's card, answered through the parent (the resolver the
    // chat provides), like in the parent.
    const question = within(screen.getByTestId("tool-card")).getByTestId("approval-card");
    fireEvent.click(within(question).getByText("Approve once"));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "approve_once" });

    fireEvent.click(screen.getByTestId("subagent-back"));
    expect(onBack).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByTestId("subagent-view"), { key: "Escape" });
    expect(onBack).toHaveBeenCalledTimes(2);
  });

  it("adds the investigator's report after its transcript", () => {
    const child = backend();
    const report = JSON.stringify({ summary: "It is in store.rs.", exploration_trace: [], relevant_locations: [] });
    const finished = { ...AGENT, agentType: "codebase_investigator", state: "finished" as const, answer: report };
    render(<SubagentView agent={finished} parentTitle="x" onBack={vi.fn()} />, { wrapper: child.wrapper });
    child.send([
      { type: "turn_started", input: { text: "where?" } },
      { type: "assistant_message", text: "", tool_calls: [{ call_id: "x1", name: "complete_task", arguments: report }] },
    ]);
    expect(screen.getByTestId("subagent-report").textContent).toContain("It is in store.rs.");
  });
});

describe("Transcript", () => {
  it("shows a subagent's question that came after the turn ended, answerable", () => {
    const envelope = (seq: number, turn: string | null, event: AgentEvent): EventEnvelope => ({
      session_id: "parent",
      turn_id: turn,
      seq,
      timestamp_ms: seq,
      event,
    });
    const usage = { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 };
    const transcript = applyBatch(emptyTranscript, [
      envelope(1, "t1", { type: "turn_started", input: { text: "start one" } }),
      envelope(2, "t1", { type: "turn_ended", reason: "completed", usage }),
      envelope(3, null, { type: "approval_requested", request: RELAYED }),
    ]);
    const onResolve = vi.fn(() => Promise.resolve());
    render(
      <ResolveApprovalContext.Provider value={onResolve}>
        <Transcript transcript={transcript} />
      </ResolveApprovalContext.Provider>,
    );
    expect(screen.getByTestId("approval-agent").textContent).toContain("Subagent reviewer");
    fireEvent.click(screen.getByText("Deny"));
    expect(onResolve).toHaveBeenCalledWith("r1", { type: "deny" });
  });
});
