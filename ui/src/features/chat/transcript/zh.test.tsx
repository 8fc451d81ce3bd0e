// @vitest-environment jsdom
// The transcript in Chinese: the cards read their words from the catalogs, sentences with
// markup keep it, and the page switches language without a reload.
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { ToolView } from "../../../gen/protocol";
import { setUpI18n } from "../../../i18n";
import { commandView, readView, toolItem } from "../../../test/fixtures";
import { ApprovalCard } from "./ApprovalCard";
import { ToolCard } from "./ToolCard";
import { TurnBlock } from "./TurnBlock";
import { commandVerdict, formatDuration, viewOutcome } from "./toolViews";

beforeEach(async () => {
  await setUpI18n("zh");
});

afterEach(() => {
  cleanup();
  setUpI18n("en");
});

describe("the transcript in Chinese", () => {
  it("says what a call did in Chinese", () => {
    expect(formatDuration(125_000)).toBe("2 分 5 秒");
    expect(commandVerdict(commandView({ state: { state: "exited", code: 1 }, duration_ms: 850 }))).toBe("退出码 1 · 850 毫秒");
    expect(viewOutcome(readView("a", { start_line: 1, end_line: 40, total_lines: 1200, truncated: true }))).toBe(
      "40 行（共 1,200 行） · 已截断",
    );
    expect(viewOutcome({ type: "search", pattern: "x", matches: 1, first: [], truncated: true })).toBe("1 处匹配（其余未显示）");
  });

  it("keeps the markup of a sentence that has some", () => {
    const view: ToolView = {
      type: "mcp_call",
      server: "everything",
      tool: "echo",
      arguments: "{}",
      content: [{ type: "resource_link", uri: "file:///tmp/<log>.txt", name: "log" }],
    };
    render(<ToolCard tool={toolItem({ name: "everything__echo", status: "ok", output: "", view, allowedBy: ["git status"] })} />);
    const answer = screen.getByTestId("mcp-content");
    expect(within(answer).getByText("file:///tmp/<log>.txt").tagName).toBe("CODE");
    expect(answer.textContent).toContain("链接：file:///tmp/<log>.txt（log）");
    expect(screen.getByTestId("approval-decision").textContent).toBe("已由规则 git status 允许");
    expect(screen.getByTestId("tool-status").textContent).toBe("完成");
  });

  it("changes language in place", () => {
    render(<ToolCard tool={toolItem({ name: "exec_command", view: commandView({ command: "ls" }) })} />);
    expect(screen.getByTestId("tool-card").querySelector(".tool__pending")?.textContent).toBe("等待命令结果…");
    act(() => {
      setUpI18n("en");
    });
    expect(screen.getByTestId("tool-card").querySelector(".tool__pending")?.textContent).toBe("Waiting for the command…");
  });
});

describe("an approval's rule in Chinese", () => {
  /** A command's question, asked in a tool card; `request` adds to the base request. */
  const asked = async (command: string, request: Record<string, unknown>) => {
    const { ApprovalInCard, ResolveApprovalContext } = await import("./ApprovalCard");
    const item = {
      kind: "approval" as const,
      key: "a",
      decision: null,
      request: {
        request_id: "r1",
        call_id: "c1",
        tool_name: "exec_command",
        risk: "execute" as const,
        reason: `run \`${command}\``,
        fingerprint: command,
        command,
        arguments: {},
        ...request,
      },
    };
    render(
      <ResolveApprovalContext.Provider value={() => Promise.resolve()}>
        <ApprovalInCard item={item} sameToolWaiting={0} />
      </ResolveApprovalContext.Provider>,
    );
    return screen.getByTestId("approval-rule");
  };

  it("names the rule by its patterns, not by the engine's English summary", async () => {
    const rule = await asked("git status", {
      rule_patterns: ["git status"],
      rule_summary: "run `git status` without asking",
    });
    expect(rule.textContent).not.toContain("without asking");
    expect(rule.textContent).toContain("git status");
    expect(rule.textContent).toMatch(/[\u4e00-\u9fff]/);
  });

  it("says the engine's rule phrase in Chinese, patterns as code", async () => {
    const rule = await asked("cargo test", {
      rule_patterns: ["cargo test", "sed -i s/a/b/ x"],
      rule_summary: "run `cargo test …`; exactly `sed -i s/a/b/ x` without asking",
      rule_words: {
        code: "rule_run_without_asking" as const,
        rules: [
          { code: "rule_command_prefix" as const, pattern: "cargo test" },
          { code: "rule_command_exactly" as const, pattern: "sed -i s/a/b/ x" },
        ],
      },
    });
    expect(rule.textContent).toContain("无需询问即可运行");
    expect(rule.textContent).toContain("仅 sed -i s/a/b/ x");
    expect([...rule.querySelectorAll("code")].map((c) => c.textContent)).toEqual(["cargo test …", "sed -i s/a/b/ x"]);
    expect(rule.textContent).not.toContain("without asking");
  });

  it("says why an approval was never answered", async () => {
    const { ApprovalCard } = await import("./ApprovalCard");
    render(
      <ApprovalCard
        item={{
          kind: "approval",
          key: "a",
          request: {
            request_id: "r1",
            call_id: "c1",
            tool_name: "exec_command",
            risk: "execute",
            reason: "run `ls`",
            fingerprint: "ls",
            command: "ls",
            arguments: {},
          },
          decision: { type: "unanswered", because: { code: "session_stopped_before_answer" } },
        }}
      />,
    );
    expect(screen.getByTestId("approval-decision").textContent).toBe("未回答（回答之前会话已停止）");
    expect(screen.getByTestId("approval-card").getAttribute("data-state")).toBe("denied");
  });

  it("says Rust's failures and an approval's reasons in Chinese, from their phrases", () => {
    render(
      <TurnBlock
        turn={{
          kind: "turn",
          key: "t",
          turnId: "t",
          input: "hi",
          images: [],
          status: "failed",
          usage: null,
          startedMs: 0,
          startSeq: 2,
          items: [
            {
              kind: "error",
              key: "e",
              errorKind: "network",
              message: "Could not reach 127.0.0.1:8080 — connection refused. Is the server running?",
              phrase: { code: "could_not_reach_running", target: "127.0.0.1:8080" },
            },
          ],
        }}
      />,
    );
    expect(screen.getByTestId("error-notice").textContent).toContain("无法连接 127.0.0.1:8080：连接被拒绝。服务器在运行吗？");
    cleanup();
    render(
      <ApprovalCard
        item={{
          kind: "approval",
          key: "a",
          decision: null,
          request: {
            request_id: "r",
            call_id: "c",
            tool_name: "exec_command",
            risk: "critical",
            reason: "run `git push -f origin main`; a force-push …",
            why: [{ code: "run_command", command: "git push -f origin main" }, { code: "guard_force_push_main" }],
            fingerprint: "exec:git push",
            command: "git push -f origin main",
            arguments: {},
          },
        }}
      />,
    );
    expect(screen.getByTestId("approval-card").textContent).toContain(
      "运行 `git push -f origin main`；强制推送到 main/master（或当前分支，可能就是 main）会改写共享的提交历史",
    );
  });
});
