// @vitest-environment jsdom
// The subagent cards in Chinese, from the catalogs.
import { cleanup, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { AgentLine } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import type { SubagentView } from "../../state/transcript";
import { subagentCallView, toolItem } from "../../test/fixtures";
import { ToolCard } from "../chat/transcript/ToolCard";
import { SubagentsContext } from "./context";

beforeEach(async () => {
  await setUpI18n("zh");
});

afterEach(() => {
  cleanup();
  setUpI18n("en");
});

const REVIEWER: SubagentView = {
  agentId: "agent-aaaa1111",
  agentType: "reviewer",
  sessionId: "s-a",
  task: "",
  callId: null,
  state: "finished",
  answer: null,
  message: null,
  pendingApprovals: [],
};

function wrapper({ children }: { children: ReactNode }) {
  return <SubagentsContext.Provider value={{ agents: { [REVIEWER.agentId]: REVIEWER }, open: () => {} }}>{children}</SubagentsContext.Provider>;
}

describe("the subagent cards in Chinese", () => {
  it("say what a wait found", () => {
    const lines: AgentLine[] = [
      { agent_id: "agent-aaaa1111", agent_type: "reviewer", state: "finished", answer: "ok" },
      { agent_id: "agent-bbbb2222", agent_type: "general", state: "running" },
    ];
    const view = subagentCallView({ action: "wait_for", agents: lines, timed_out: true });
    render(<ToolCard tool={toolItem({ name: "wait", status: "ok", output: "", view })} />, { wrapper });
    const card = screen.getByTestId("collab-card");
    expect(card.querySelector(".tool__name")?.textContent).toBe("等待");
    expect(card.querySelector(".collab__subject")?.textContent).toBe("reviewer（agent-aaaa…）、agent-bbbb2222");
    expect(screen.getByTestId("collab-outcome").textContent).toBe("已超时 · 已完成 1/2");
    const [first, second] = screen.getAllByTestId("collab-agent");
    expect(within(first as HTMLElement).getByTestId("agent-state").textContent).toBe("已完成");
    expect(within(first as HTMLElement).getByRole("button").textContent).toBe("打开");
    expect(within(second as HTMLElement).getByTestId("agent-state").textContent).toBe("运行中");
  });
});
