// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { PromptReport, SessionStatus } from "../../gen/protocol";
import { ContextMeter, formatCost, shortTokens } from "./ContextMeter";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PromptInspector } from "./PromptInspector";
import { stepKeyOf } from "./useSessionStatus";
import { setUpI18n } from "../../i18n";

const { ipc } = vi.hoisted(() => ({ ipc: { promptLayers: vi.fn() } }));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));

afterEach(cleanup);

const STATUS: SessionStatus = {
  session_id: "s1",
  context_window: 128_000,
  used_tokens: 12_345,
  compact_at_percent: 90,
  cost_usd: 0.0421,
  approval_mode: null,
  calls: 3,
  changed_files: 0,
};

describe("ContextMeter", () => {
  it("shows used of window, the cost, and warms up towards compaction", () => {
    const onOpen = vi.fn();
    const { rerender } = render(<ContextMeter status={STATUS} open={false} onOpen={onOpen} />);
    const meter = screen.getByTestId("context-meter");
    expect(meter.textContent).toBe("12k / 128k$0.04");
    expect(meter.getAttribute("data-percent")).toBe("10");
    expect(meter.className).toContain("context-meter--ok");
    fireEvent.click(meter);
    expect(onOpen).toHaveBeenCalled();
    rerender(<ContextMeter status={{ ...STATUS, used_tokens: 110_000 }} open={false} onOpen={onOpen} />);
    expect(screen.getByTestId("context-meter").className).toContain("context-meter--high");
    rerender(<ContextMeter status={{ ...STATUS, used_tokens: 120_000, cost_usd: null }} open onOpen={onOpen} />);
    expect(screen.getByTestId("context-meter").className).toContain("context-meter--full");
    expect(screen.queryByTestId("context-cost")).toBeNull();
  });

  it("shows an external agent's own figures, without Memo's threshold and not as a way into the inspector", () => {
    const onOpen = vi.fn();
    render(<ContextMeter status={{ ...STATUS, used_tokens: 120_000 }} open={false} onOpen={onOpen} agent="Memo" />);
    const meter = screen.getByTestId("context-meter");
    expect(meter.tagName).toBe("SPAN");
    expect(meter.textContent).toBe("120k / 128k$0.04");
    expect(meter.className).toContain("context-meter--ok");
    expect(meter.getAttribute("title")).toContain("Memo");
    expect(meter.getAttribute("title")).toContain("$0.04");
    fireEvent.click(meter);
    expect(onOpen).not.toHaveBeenCalled();
  });

  it("formats tokens and cost compactly", () => {
    expect([shortTokens(950), shortTokens(1500), shortTokens(64_000), shortTokens(1_200_000)]).toEqual([
      "950",
      "1.5k",
      "64k",
      "1.2M",
    ]);
    expect([formatCost(0), formatCost(0.00123), formatCost(1.5)]).toEqual(["$0", "$0.0012", "$1.50"]);
  });

  it("changes its refresh key per model call, not per streamed token", () => {
    const turn = (usage: number | null, status = "running"): { kind: string } & Record<string, unknown> => ({
      kind: "turn",
      status,
      usage: usage === null ? null : { input_tokens: usage, output_tokens: 1 },
      items: [{ kind: "text", text: "a" }],
    });
    const a = stepKeyOf([turn(null)], "m");
    const longer = turn(null);
    longer.items = [{ kind: "text", text: "ab" }];
    expect(stepKeyOf([longer], "m")).toBe(a);
    expect(stepKeyOf([turn(100)], "m")).not.toBe(a);
    expect(stepKeyOf([turn(null)], "other")).not.toBe(a);
  });
});

describe("PromptInspector", () => {
  it("lists each layer with its sources and tokens, and shows its text on demand", async () => {
    const report: PromptReport = {
      cwd: "/repo",
      workspace_root: "/repo",
      model: "m1",
      token_counter: "estimate:bytes",
      layers: [
        {
          kind: "soul",
          title: "SOUL.md",
          sources: [{ path: "/home/u/.memo/SOUL.md", status: "loaded", chars: 40, tokens: 10 }],
          content: "Answer like a pirate.",
          chars: 40,
          tokens: 10,
        },
      ],
      system_chars: 40,
      system_tokens: 10,
      total_tokens: 1510,
      problems: [{ path: "/repo/.agents/skills/x/SKILL.md", message: "skill skipped: no front matter" }],
    };
    ipc.promptLayers.mockResolvedValue(report);
    render(<PromptInspector sessionId="s1" cwd="/repo" refreshKey="k" onClose={vi.fn()} />);
    const layer = await screen.findByTestId("prompt-layer");
    expect(layer.textContent).toContain("SOUL.md");
    expect(layer.textContent).toContain("/home/u/.memo/SOUL.md");
    // Cut from the left in a right-to-left box, the path sits in a left-to-right isolate
    // (else its slashes are drawn at the wrong end), the whole of it in the tooltip.
    const path = layer.querySelector(".inspector__source-path") as HTMLElement;
    expect(path.querySelector("bdi[dir=ltr]")?.textContent).toBe("/home/u/.memo/SOUL.md");
    expect(path.title).toBe("/home/u/.memo/SOUL.md");
    expect(layer.textContent).toContain("Answer like a pirate.");
    expect(screen.getByTestId("prompt-total").textContent).toContain("1.5k");
    expect(screen.getByText(/no front matter/)).toBeTruthy();
    expect(ipc.promptLayers).toHaveBeenCalledWith({ sessionId: "s1", cwd: "/repo" });
  });

  it("titles each layer in the window's language from its kind, the tools by their count", async () => {
    const layer = (kind: "base" | "tool_definitions", tool_count?: number) => ({
      kind,
      title: "English title from the engine",
      sources: [],
      content: "",
      chars: 0,
      tokens: 0,
      ...(tool_count === undefined ? {} : { tool_count }),
    });
    ipc.promptLayers.mockResolvedValue({
      cwd: "/repo",
      workspace_root: "/repo",
      model: "m1",
      token_counter: "estimate:bytes",
      layers: [layer("base"), layer("tool_definitions", 0)],
      system_chars: 0,
      system_tokens: 0,
      total_tokens: 0,
      problems: [],
    } satisfies PromptReport);
    await setUpI18n("zh");
    try {
      render(<PromptInspector sessionId="s1" cwd="/repo" refreshKey="k" onClose={vi.fn()} />);
      await screen.findAllByTestId("prompt-layer");
      const titles = [...document.querySelectorAll(".inspector__layer-title")].map((t) => t.textContent);
      expect(titles).toEqual(["基础指令", "工具定义（0 个工具，以 JSON 发送）"]);
    } finally {
      await setUpI18n("en");
    }
  });

  it("says which hooks replaced the last turn's system prompt, and shows that text", async () => {
    ipc.promptLayers.mockResolvedValue({
      cwd: "/repo", workspace_root: "/repo", model: "m1", token_counter: "estimate:bytes",
      layers: [], system_chars: 0, system_tokens: 0, total_tokens: 0, problems: [],
      turn_override: {
        turn_id: "t1",
        changed_by: [
          { command: "./policy.sh", file: "/home/u/.claude/settings.json" },
          { command: "./sign.sh", file: "/home/u/.memo/config.toml" },
        ],
        content: "BASE\nTEAM POLICY",
        chars: 16,
      },
    } satisfies PromptReport);
    render(<PromptInspector sessionId="s1" cwd="/repo" refreshKey="k" onClose={vi.fn()} />);
    const override = await screen.findByTestId("prompt-override");
    const hooks = screen.getAllByTestId("prompt-override-hook").map((li) => li.textContent);
    expect(hooks).toEqual(["./policy.sh/home/u/.claude/settings.json", "./sign.sh/home/u/.memo/config.toml"]);
    expect(override.textContent).toContain("for that turn only");
    expect(override.textContent).toContain("TEAM POLICY");
  });

  it("shows no hook section when the last turn used the session's own prompt", async () => {
    ipc.promptLayers.mockResolvedValue({
      cwd: "/repo", workspace_root: "/repo", model: "m1", token_counter: "estimate:bytes",
      layers: [], system_chars: 0, system_tokens: 0, total_tokens: 0, problems: [],
    });
    render(<PromptInspector sessionId="s1" cwd="/repo" refreshKey="k" onClose={vi.fn()} />);
    await screen.findByTestId("prompt-total");
    expect(screen.queryByTestId("prompt-override")).toBeNull();
  });

  it("closes on Esc, after a dialog opened over it has closed first", async () => {
    ipc.promptLayers.mockResolvedValue({
      cwd: "/repo", workspace_root: "/repo", model: "m1", token_counter: "estimate:bytes",
      layers: [], system_chars: 0, system_tokens: 0, total_tokens: 0, problems: [],
    });
    const onClose = vi.fn();
    const onCancel = vi.fn();
    const { rerender } = render(<PromptInspector sessionId="s1" cwd="/repo" refreshKey="k" onClose={onClose} />);
    fireEvent.keyDown(window, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);

    const withDialog = (open: boolean) => (
      <>
        <PromptInspector sessionId="s1" cwd="/repo" refreshKey="k" onClose={onClose} />
        {open && <ConfirmDialog title="Sure?" message="" confirmLabel="Yes" onConfirm={vi.fn()} onCancel={onCancel} />}
      </>
    );
    rerender(withDialog(true));
    fireEvent.keyDown(screen.getByTestId("confirm-cancel"), { key: "Escape" });
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(withDialog(false));
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
