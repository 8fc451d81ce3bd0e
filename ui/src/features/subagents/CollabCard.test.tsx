// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { AgentLine, SubagentView as SubagentCallView } from "../../gen/protocol";
import type { SubagentView, ToolItem } from "../../state/transcript";
import { subagentCallView, toolItem } from "../../test/fixtures";
import { ToolCard } from "../chat/transcript/ToolCard";
import { parseReport } from "./agents";
import { SubagentsContext } from "./context";

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

/** A collab call with its view; the output is what the model was sent, never read. */
function call(
  view: Partial<SubagentCallView> & Pick<SubagentCallView, "action">,
  status: ToolItem["status"] = "ok",
  output: string | null = status === "running" ? null : "[text for the model]",
): ToolItem {
  return toolItem({
    name: "collab_tool",
    status,
    errorKind: status === "error" ? "execution_failed" : null,
    output,
    view: subagentCallView(view),
  });
}

const A: AgentLine = { agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "finished", answer: "No `unsafe` problems found." };
const B: AgentLine = { agent_id: "agent-bbbb2222", agent_type: "general", state: "failed", message: "provider down" };

describe("collab tool cards", () => {
  it("shows what a wait found from its view: each agent with its state and answer", () => {
    const open = vi.fn();
    render(<ToolCard tool={call({ action: "wait_for", agents: [A, B] })} />, { wrapper: wrapper(open) });
    const card = screen.getByTestId("collab-card");
    expect(card.dataset.action).toBe("wait_for");
    expect(card.querySelector(".tool__name")?.textContent).toBe("wait for");
    expect(card.querySelector(".collab__subject")?.textContent).toBe("reviewer (agent-aaaa…), general (agent-bbbb…)");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("all done");
    expect(card.textContent).not.toContain("[text for the model]");
    const [first, second] = screen.getAllByTestId("collab-agent");
    expect(within(first as HTMLElement).getByTestId("agent-state").textContent).toBe("finished");
    expect(within(first as HTMLElement).getByTestId("collab-answer").textContent).toBe("No unsafe problems found.");
    expect(within(second as HTMLElement).getByTestId("agent-state").textContent).toBe("failed");
    expect(second?.textContent).toContain("provider down");
    fireEvent.click(within(first as HTMLElement).getByText("Open"));
    expect(open).toHaveBeenCalledWith("agent-aaaa1111");
  });

  it("says a wait timed out, and how many were done", () => {
    const running: AgentLine = { agent_id: "agent-bbbb2222", agent_type: "general", state: "running" };
    render(<ToolCard tool={call({ action: "wait_for", agents: [A, running], timed_out: true })} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-outcome").textContent).toBe("timed out · 1 of 2 done");
    expect(screen.getAllByTestId("collab-agent").map((row) => within(row).getByTestId("agent-state").textContent)).toEqual([
      "finished",
      "running",
    ]);
  });

  it("shows a waiting wait as such, for every subagent when it names none", () => {
    const { unmount } = render(<ToolCard tool={call({ action: "wait_for", agents: [] }, "running")} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").querySelector(".collab__subject")?.textContent).toBe("every subagent");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("waiting");
    unmount();
    render(<ToolCard tool={call({ action: "wait_for", agents: [{ agent_id: "agent-aaaa1111" }] }, "running")} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-outcome").textContent).toBe("waiting");
    expect(screen.queryByTestId("collab-agent")).toBeNull();
  });

  it("unfolds a long answer, and reads a report by its summary", () => {
    const report = JSON.stringify({ summary: "Saved in store.rs.", exploration_trace: [], relevant_locations: [{ file_path: "src/store.rs", reasoning: "here", key_symbols: [] }] });
    const line: AgentLine = { agent_id: "agent-aaaa1111", agent_type: "codebase_investigator", state: "finished", answer: report };
    render(<ToolCard tool={call({ action: "wait_for", agents: [line] })} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-answer").textContent).toBe("Saved in store.rs.");
    fireEvent.click(screen.getByText("Show the whole answer"));
    expect(screen.getByTestId("report-location").textContent).toContain("src/store.rs");
  });

  it("shows what was sent to an agent, and which agent was closed", () => {
    const to = { agent_id: "agent-aaaa1111", state: "running" as const };
    render(<ToolCard tool={call({ action: "send", task: "Also check the tests.", agents: [to] })} />, { wrapper: wrapper() });
    const card = screen.getByTestId("collab-card");
    expect(card.querySelector(".tool__name")?.textContent).toBe("send input");
    expect(card.querySelector(".collab__subject")?.textContent).toBe("to reviewer (agent-aaaa…)");
    expect(card.querySelector(".collab__message")?.textContent).toBe("Also check the tests.");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("sent");
    // Who got it is said in the headline: no agent rows.
    expect(screen.queryByTestId("collab-agent")).toBeNull();
    cleanup();
    render(<ToolCard tool={call({ action: "close", agents: [{ agent_id: "agent-bbbb2222", state: "closed" }] })} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").querySelector(".collab__subject")?.textContent).toBe("general (agent-bbbb…)");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("closed");
  });

  it("names an agent this transcript never saw start by its id", () => {
    render(<ToolCard tool={call({ action: "close", agents: [{ agent_id: "agent-zzzz9999" }] }, "running")} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-card").querySelector(".collab__subject")?.textContent).toBe("agent-zzzz9999");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("closing");
  });

  it("shows a refused call's reason", () => {
    const refused = call({ action: "send", task: "more", agents: [{ agent_id: "agent-x" }] }, "error", "there is no subagent agent-x");
    render(<ToolCard tool={refused} />, { wrapper: wrapper() });
    expect(screen.getByTestId("collab-outcome").textContent).toBe("execution failed");
    expect(screen.getByTestId("collab-card").className).toContain("tool--error");
    expect(screen.getByTestId("collab-card").querySelector(".collab__error")?.textContent).toBe("there is no subagent agent-x");
  });

  it("lists a listing's agents", () => {
    render(<ToolCard tool={call({ action: "list", agents: [{ agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "closed" }] })} />, {
      wrapper: wrapper(),
    });
    expect(screen.getByTestId("collab-card").querySelector(".collab__subject")?.textContent).toBe("1 subagent");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("listed");
    expect(screen.getByTestId("agent-state").textContent).toBe("closed");
  });
});

describe("the investigator's report", () => {
  it("reads a fenced report and rejects prose", () => {
    const fenced = '```json\n{"summary":"s","exploration_trace":["a"],"relevant_locations":[]}\n```';
    expect(parseReport(fenced)).toEqual({ summary: "s", explorationTrace: ["a"], locations: [] });
    expect(parseReport("I found it in store.rs")).toBeNull();
    expect(parseReport('{"summary": "cut sho')).toBeNull();
    expect(parseReport('{"exploration_trace": []}')).toBeNull();
  });

  it("keeps the locations it can read", () => {
    const answer = JSON.stringify({
      summary: "s",
      relevant_locations: [{ file_path: "a.rs", reasoning: "r", key_symbols: ["f", 3] }, { reasoning: "no path" }, "junk"],
    });
    expect(parseReport(answer)?.locations).toEqual([{ filePath: "a.rs", reasoning: "r", keySymbols: ["f"] }]);
  });
});
