// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import type { HookRunSummary } from "../../../gen/protocol";
import type { HookItem, ToolItem, TurnView } from "../../../state/transcript";
import { HookLine } from "./HookLine";
import { TurnBlock } from "./TurnBlock";

afterEach(cleanup);

function run(over: Partial<HookRunSummary> = {}): HookRunSummary {
  return { command: "./guard.sh", source: "/repo/.claude/settings.json", status: "ok", exit_code: 0, duration_ms: 12, ...over };
}

function hook(over: Partial<HookItem> = {}): HookItem {
  return { kind: "hook", key: "h", event: "PreToolUse", callId: null, hooks: [run()], decision: null, reason: null, stopped: false, ...over };
}

describe("HookLine", () => {
  it("shows a block in the error tone with the hook and its reason, details folded", () => {
    const blocked = hook({
      hooks: [run({ status: "blocked", exit_code: 2, decision: "block", message: "no rm here" })],
      decision: "block",
      reason: "no rm here",
    });
    render(<HookLine item={blocked} />);
    const line = screen.getByTestId("hook-line");
    expect(line.dataset.tone).toBe("blocked");
    expect(line.className).toContain("hook--blocked");
    expect(line.textContent).toContain("PreToolUse hook blocked: no rm here");
    expect(within(line).getByTestId("hook-run").textContent).toContain("./guard.sh");
    expect(line.hasAttribute("open")).toBe(false);
    fireEvent.click(within(line).getByText(/blocked: no rm here/));
    const detail = screen.getByTestId("hook-run");
    expect(detail.textContent).toContain("/repo/.claude/settings.json");
    expect(detail.textContent).toContain("12 ms");
  });

  it("keeps a plain success quiet", () => {
    render(<HookLine item={hook({ event: "Stop" })} />);
    const line = screen.getByTestId("hook-line");
    expect(line.dataset.tone).toBe("quiet");
    expect(line.querySelector("summary")?.textContent).toBe("Hook Stop · ./guard.sh ok");
    expect(line.className).not.toContain("hook--blocked");
  });

  it("hangs a call's hooks under its card, and the turn's own hooks in order", () => {
    const tool: ToolItem = {
      kind: "tool",
      key: "a",
      callId: "c1",
      name: "exec_command",
      args: '{"cmd":"rm -rf build"}',
      view: { type: "command", command: "rm -rf build", sandboxed: true, state: { state: "pending" } },
      status: "error",
      errorKind: "policy_denied",
      output: "Error (policy_denied): a PreToolUse hook blocked this call: no rm here",
      provisional: false,
      hooks: [hook({ key: "h1", callId: "c1", decision: "block", reason: "no rm here" })],
    };
    const turn: TurnView = {
      kind: "turn",
      key: "t",
      turnId: "t",
      input: "clean up",
      images: [],
      items: [tool, { kind: "text", key: "b", text: "Understood.", provisional: false }, hook({ key: "h2", event: "Stop" })],
      status: "completed",
      usage: null,
      startedMs: 0,
      startSeq: 1,
    };
    render(<TurnBlock turn={turn} />);
    const lines = screen.getAllByTestId("hook-line");
    expect(lines.map((l) => l.dataset.event)).toEqual(["PreToolUse", "Stop"]);
    expect(lines[0]?.className).toContain("hook--attached");
    // Right after its card.
    expect(screen.getByTestId("tool-card").nextElementSibling).toBe(lines[0]);
  });
});
