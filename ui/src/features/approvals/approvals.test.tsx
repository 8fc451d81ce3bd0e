// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ApprovalSettings } from "../../gen/protocol";
import { setUpI18n, t } from "../../i18n";
import { modeEffect, modeName, MODES } from "../../state/approvalModes";
import { ApprovalsPage } from "./ApprovalsPage";
import { ModeControl } from "./ModeControl";
import { useDefaultApprovalMode } from "./useDefaultApprovalMode";

const { ipc } = vi.hoisted(() => ({
  ipc: {
    approvalSettings: vi.fn(),
    setDefaultApprovalMode: vi.fn(),
    setToolDisabled: vi.fn(),
    exportApprovalRules: vi.fn(),
    saveApprovalRule: vi.fn(),
    deleteApprovalRule: vi.fn(),
  },
}));
const { pickSavePath } = vi.hoisted(() => ({ pickSavePath: vi.fn() }));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc, pickSavePath }));

afterEach(cleanup);
beforeEach(() => Object.values(ipc).forEach((f) => f.mockReset()));

const SETTINGS: ApprovalSettings = {
  default_mode: "auto",
  rules_path: "/home/u/.memo/approval_rules.json",
  rules: [
    {
      id: "r1",
      decision: "allow",
      kind: "command",
      pattern: "cargo test",
      project: "/home/u/shop",
      exact: false,
      created_at: 1_790_000_000,
      last_used_at: null,
    },
  ],
  rules_error: null,
  imported: [
    {
      file: "/home/u/.claude/settings.json",
      text: "Bash(git status)",
      decision: "allow",
      effect: "Memo allows command prefixes: write Bash(git status:*) to allow it and what follows",
      applied: false,
    },
  ],
  tools: [
    { name: "read_file", disabled: false },
    { name: "webfetch", disabled: true },
  ],
};

describe("ModeControl", () => {
  it("changes to strict at once but asks before dangerous", () => {
    const onChange = vi.fn();
    render(<ModeControl mode="auto" live onChange={onChange} />);
    const select = screen.getByTestId("approval-mode-select");
    fireEvent.change(select, { target: { value: "strict" } });
    expect(onChange).toHaveBeenLastCalledWith("strict");
    fireEvent.change(select, { target: { value: "dangerous" } });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("confirm-dialog").textContent).toContain("without asking");
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.change(select, { target: { value: "dangerous" } });
    fireEvent.click(screen.getByTestId("confirm-ok"));
    expect(onChange).toHaveBeenLastCalledWith("dangerous");
  });

  it("is marked while dangerous", () => {
    render(<ModeControl mode="dangerous" live onChange={vi.fn()} />);
    expect(screen.getByTestId("approval-mode").className).toContain("mode-pill--dangerous");
  });

  it("still shows the built-in mode when config.toml cannot be read, and says why in its tooltip", async () => {
    ipc.approvalSettings.mockRejectedValue({ code: "config", message: "config.toml line 3: expected '='", retryable: false });
    function NextSessionMode() {
      const { mode, problem } = useDefaultApprovalMode("/repo");
      return <ModeControl mode={mode} live={false} onChange={vi.fn()} problem={problem} />;
    }
    render(<NextSessionMode />);
    const pill = await screen.findByTestId("approval-mode");
    expect(pill.getAttribute("data-mode")).toBe("auto");
    expect(pill.title).toContain("config.toml could not be read");
    expect(pill.title).toContain("expected '='");
  });
});

describe("ApprovalsPage", () => {
  it("lists rules, adds one and deletes one", async () => {
    ipc.approvalSettings.mockResolvedValue(SETTINGS);
    const added = {
      ...SETTINGS,
      rules: [...SETTINGS.rules, { ...SETTINGS.rules[0]!, id: "r2", decision: "deny" as const, pattern: "git push", project: null }],
    };
    ipc.saveApprovalRule.mockResolvedValue(added);
    ipc.deleteApprovalRule.mockResolvedValue({ ...added, rules: [added.rules[1]!] });
    render(<ApprovalsPage cwd="/home/u/shop" />);
    const rule = await screen.findByTestId("rule");
    expect(rule.textContent).toContain("cargo test");
    expect(rule.textContent).toContain("in shop");
    expect(rule.textContent).toContain("never used");

    fireEvent.click(screen.getByTestId("rule-new"));
    fireEvent.change(screen.getByTestId("rule-decision"), { target: { value: "deny" } });
    fireEvent.change(screen.getByTestId("rule-scope"), { target: { value: "" } });
    fireEvent.change(screen.getByTestId("rule-pattern"), { target: { value: " git push " } });
    fireEvent.click(screen.getByTestId("rule-save"));
    await waitFor(() => expect(screen.getAllByTestId("rule")).toHaveLength(2));
    expect(ipc.saveApprovalRule).toHaveBeenCalledWith({
      id: null,
      rule: { decision: "deny", kind: "command", pattern: "git push", project: null, exact: false },
    });

    fireEvent.click(screen.getAllByTestId("rule-delete")[0]!);
    await waitFor(() => expect(screen.getAllByTestId("rule")).toHaveLength(1));
    expect(ipc.deleteApprovalRule).toHaveBeenCalledWith({ id: "r1" });
  });

  it("shows other agents' entries and turns a tool off", async () => {
    ipc.approvalSettings.mockResolvedValue(SETTINGS);
    ipc.setToolDisabled.mockResolvedValue(SETTINGS);
    render(<ApprovalsPage cwd="/home/u/shop" />);
    const entry = await screen.findByTestId("imported-entry");
    expect(entry.textContent).toContain("Not applied");
    expect((screen.getByTestId("tool-webfetch") as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByTestId("tool-read_file"));
    await waitFor(() => expect(ipc.setToolDisabled).toHaveBeenCalledWith({ name: "read_file", disabled: true }));
    expect(ipc.approvalSettings).toHaveBeenLastCalledWith({ cwd: "/home/u/shop" });
  });

  it("asks before making dangerous the default, and shows a damaged rules file", async () => {
    ipc.approvalSettings.mockResolvedValue({ ...SETTINGS, rules: [], rules_error: "approval_rules.json:1:1: expected value" });
    ipc.setDefaultApprovalMode.mockResolvedValue({ ...SETTINGS, default_mode: "dangerous" });
    render(<ApprovalsPage cwd={null} />);
    expect((await screen.findByTestId("rules-file-error")).textContent).toContain("approval_rules.json:1:1");
    fireEvent.click(screen.getByTestId("default-mode-dangerous"));
    expect(ipc.setDefaultApprovalMode).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("confirm-ok"));
    await waitFor(() => expect(ipc.setDefaultApprovalMode).toHaveBeenCalledWith({ mode: "dangerous" }));
  });
  it("labels an MCP rule server · tool, its pattern in the tooltip", async () => {
    const mcp = { ...SETTINGS.rules[0]!, id: "r2", kind: "mcp" as const, pattern: "github:create_issue" };
    ipc.approvalSettings.mockResolvedValue({ ...SETTINGS, rules: [mcp] });
    render(<ApprovalsPage cwd={null} />);
    const label = await screen.findByText("github · create_issue");
    expect(label.getAttribute("title")).toBe("rule github:create_issue");
  });
  it("exports the rules to a chosen file", async () => {
    ipc.approvalSettings.mockResolvedValue(SETTINGS);
    pickSavePath.mockResolvedValue("/home/u/rules.json");
    ipc.exportApprovalRules.mockResolvedValue(1);
    render(<ApprovalsPage cwd={null} />);
    fireEvent.click(await screen.findByTestId("rules-export"));
    expect((await screen.findByTestId("rules-exported")).textContent).toBe("1 rule written to /home/u/rules.json");
    expect(ipc.exportApprovalRules).toHaveBeenCalledWith({ path: "/home/u/rules.json" });
  });
  it("saves a rule on Enter in its pattern, but not on the Enter that picks an input method's candidate", async () => {
    ipc.approvalSettings.mockResolvedValue(SETTINGS);
    ipc.saveApprovalRule.mockResolvedValue(SETTINGS);
    render(<ApprovalsPage cwd={null} />);
    fireEvent.click(await screen.findByTestId("rule-new"));
    const pattern = screen.getByTestId("rule-pattern");
    fireEvent.change(pattern, { target: { value: "docs/说明/**" } });
    fireEvent.keyDown(pattern, { key: "Enter", isComposing: true });
    fireEvent.keyDown(pattern, { key: "Enter", keyCode: 229 });
    expect(ipc.saveApprovalRule).not.toHaveBeenCalled();

    fireEvent.keyDown(pattern, { key: "Enter" });
    await waitFor(() => expect(ipc.saveApprovalRule).toHaveBeenCalledTimes(1));
    expect(ipc.saveApprovalRule.mock.calls[0]![0].rule.pattern).toBe("docs/说明/**");
  });

  it("names and explains the modes as the transcript does (state/approvalModes.ts), in either language", async () => {
    expect(modeName("auto")).toBe("Auto");
    expect(modeEffect("strict")).toBe("Every edit and command asks, every time. Kept allow rules are not used.");
    await setUpI18n("zh");
    try {
      for (const m of MODES) expect(modeName(m)).toBe(t(`approvals:mode.name.${m}`));
      expect(modeName("dangerous")).not.toBe("Dangerous");
    } finally {
      setUpI18n("en");
    }
  });

  it("speaks Chinese when asked, the mode's words included", async () => {
    ipc.approvalSettings.mockResolvedValue(SETTINGS);
    await setUpI18n("zh");
    try {
      render(<ApprovalsPage cwd="/home/u/shop" />);
      const rule = await screen.findByTestId("rule");
      expect(rule.textContent).toContain("仅限 shop · 从未使用");
      expect(screen.getByTestId("default-mode").textContent).toContain("自动");
      expect(screen.getByTestId("imported-entry").textContent).toContain("未生效：");
      cleanup();
      render(<ModeControl mode="strict" live={false} onChange={vi.fn()} />);
      expect(screen.getByTestId("approval-mode").title).toBe("严格：每次编辑和每条命令都会询问。保留的允许规则不生效。（用于下一个会话）");
    } finally {
      setUpI18n("en");
    }
  });

  it("keeps an exact command rule, marks it, and a read rule can only deny", async () => {
    const exact = { ...SETTINGS.rules[0]!, pattern: "sed -i s/a/b/ notes.txt", exact: true };
    ipc.approvalSettings.mockResolvedValue({ ...SETTINGS, rules: [exact] });
    ipc.saveApprovalRule.mockResolvedValue({ ...SETTINGS, rules: [exact] });
    render(<ApprovalsPage cwd="/home/u/shop" />);
    expect((await screen.findByTestId("rule-exact-badge")).textContent).toBe("exactly");

    fireEvent.click(screen.getByTestId("rule-new"));
    fireEvent.change(screen.getByTestId("rule-pattern"), { target: { value: "sed -i s/x/y/ a.txt" } });
    fireEvent.click(screen.getByTestId("rule-exact"));
    fireEvent.click(screen.getByTestId("rule-save"));
    await waitFor(() => expect(ipc.saveApprovalRule).toHaveBeenCalledTimes(1));
    expect(ipc.saveApprovalRule.mock.calls[0]![0].rule.exact).toBe(true);

    fireEvent.click(screen.getByTestId("rule-new"));
    fireEvent.change(screen.getByTestId("rule-kind"), { target: { value: "read" } });
    expect((screen.getByTestId("rule-decision") as HTMLSelectElement).value).toBe("deny");
    expect(screen.queryByTestId("rule-exact")).toBeNull();
  });
});
