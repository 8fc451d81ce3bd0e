// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { SubagentView, ToolItem } from "../../state/transcript";
import { ToolCard } from "../chat/transcript/ToolCard";
import { SubagentsContext } from "./context";
import { parseReport, resultAgents, spawnArgs } from "./collab";

afterEach(cleanup);

function known(agentId: string, agentType: string): SubagentView {
  return { agentId, agentType, sessionId: `s-${agentId}`, task: "", callId: null, state: "finished", answer: null, message: null, pendingApprovals: [] };
}

const AGENTS = { "agent-aaaa1111": known("agent-aaaa1111", "reviewer"), "agent-bbbb2222": known("agent-bbbb2222", "general") };

function wrapper(open: ((id: string) => void) | null = null) {
  return ({ children }: { children: ReactNode }) => (
    <SubagentsContext.Provider value={{ agents: AGENTS, open }}>{children}</SubagentsContext.Provider>
  );
}

function call(name: string, args: object, output: string | null, status: ToolItem["status"] = "ok"): ToolItem {
  return { kind: "tool", key: name, callId: "c9", name, args: JSON.stringify(args), status, errorKind: status === "error" ? "execution_failed" : null, output, provisional: false };
}

const WAITED = JSON.stringify({
  agents: [
    { agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "finished", answer: "No `unsafe` problems found." },
    { agent_id: "agent-bbbb2222", agent_type: "general", state: "failed", message: "provider down" },
  ],
  timed_out: false,
});

describe("collab tool cards", () => {
  it("shows what wait returned: each agent with its state and answer, not the JSON", () => {
    const open = vi.fn();
    render(<ToolCard tool={call("wait", { ids: ["agent-aaaa1111", "agent-bbbb2222"] }, WAITED)} />, { wrapper: wrapper(open) });
    const card = screen.getByTestId("collab-card");
    expect(card.textContent).toContain("for reviewer (agent-aaaa…), general (agent-bbbb…)");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("all done");
    expect(card.textContent).not.toContain('"agent_id"');
    const [first, second] = screen.getAllByTestId("collab-agent");
    expect(within(first as HTMLElement).getByTestId("agent-state").textContent).toBe("finished");
    expect(within(first as HTMLElement).getByTestId("collab-answer").textContent).toBe("No unsafe problems found.");
    expect(within(second as HTMLElement).getByTestId("agent-state").textContent).toBe("failed");
    expect(second?.textContent).toContain("provider down");
    fireEvent.click(within(first as HTMLElement).getByText("Open"));
    expect(open).toHaveBeenCalledWith("agent-aaaa1111");
  });

  it("says a wait timed out, and how many were done", () => {
    const output = JSON.stringify({
      agents: [
        { agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "finished", answer: "ok" },
        { agent_id: "agent-bbbb2222", agent_type: "general", state: "running" },
      ],
      timed_out: true,
    });
    render(<ToolCard tool={call("wait", {}, output)} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").textContent).toContain("for every subagent");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("timed out · 1 of 2 done");
  });

  it("shows a waiting wait as such", () => {
    render(<ToolCard tool={call("wait", { ids: ["agent-aaaa1111"] }, null, "running")} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-outcome").textContent).toBe("waiting");
    expect(screen.queryByTestId("collab-agent")).toBeNull();
  });

  it("unfolds a long answer, and reads a report by its summary", () => {
    const report = JSON.stringify({ summary: "Saved in store.rs.", exploration_trace: [], relevant_locations: [{ file_path: "src/store.rs", reasoning: "here", key_symbols: [] }] });
    const output = JSON.stringify({ agents: [{ agent_id: "agent-aaaa1111", agent_type: "codebase_investigator", state: "finished", answer: report }], timed_out: false });
    render(<ToolCard tool={call("wait", {}, output)} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-answer").textContent).toBe("Saved in store.rs.");
    fireEvent.click(screen.getByText("Show the whole answer"));
    expect(screen.getByTestId("report-location").textContent).toContain("src/store.rs");
  });

  it("shows send_input's message and close_agent's agent", () => {
    const status = JSON.stringify({ agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "running" });
    render(<ToolCard tool={call("send_input", { id: "agent-aaaa1111", message: "Also check the tests." }, status)} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").textContent).toContain("to reviewer (agent-aaaa…)");
    expect(screen.getByTestId("collab-card").textContent).toContain("Also check the tests.");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("sent");
    cleanup();
    render(<ToolCard tool={call("close_agent", { id: "agent-bbbb2222" }, status)} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").textContent).toContain("general (agent-bbbb…)");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("closed");
  });

  it("shows a refused call's reason", () => {
    render(<ToolCard tool={call("send_input", { id: "agent-x", message: "more" }, "there is no subagent agent-x", "error")} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-outcome").textContent).toBe("execution failed");
    expect(screen.getByTestId("collab-card").textContent).toContain("there is no subagent agent-x");
  });

  it("lists list_agents' agents", () => {
    const output = JSON.stringify({ agents: [{ agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "closed" }] });
    render(<ToolCard tool={call("list_agents", {}, output)} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").textContent).toContain("1 subagent");
    expect(screen.getByTestId("agent-state").textContent).toBe("closed");
  });
});

describe("collab parsing", () => {
  it("reads spawn arguments even when cut off", () => {
    expect(spawnArgs('{"message":"look","agent_type":" reviewer "}')).toEqual({ task: "look", agentType: "reviewer" });
    expect(spawnArgs('{"message":"lo')).toEqual({ task: "", agentType: "general" });
    // While the arguments stream, the fields already complete are read.
    expect(spawnArgs('{"agent_type":"reviewer","message":"check \\"a\\" and b')).toEqual({ task: "", agentType: "reviewer" });
    expect(spawnArgs('{"message":"check \\"a\\"","agent_ty')).toEqual({ task: 'check "a"', agentType: "general" });
  });

  it("reads a fenced report and rejects prose", () => {
    const fenced = '```json\n{"summary":"s","exploration_trace":["a"],"relevant_locations":[]}\n```';
    expect(parseReport(fenced)).toEqual({ summary: "s", explorationTrace: ["a"], locations: [] });
    expect(parseReport("I found it in store.rs")).toBeNull();
    expect(parseReport('{"summary": "cut sho')).toBeNull();
  });

  it("reads an error text as no agents", () => {
    expect(resultAgents("there is no subagent x")).toBeNull();
  });
});
