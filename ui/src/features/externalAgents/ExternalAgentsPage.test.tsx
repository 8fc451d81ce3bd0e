// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ExternalAgentsPage as Page } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { ExternalAgentsPage } from "./ExternalAgentsPage";

const { ipc } = vi.hoisted(() => ({
  ipc: {
    externalAgentsPage: vi.fn(),
    saveExternalAgent: vi.fn(),
    removeExternalAgent: vi.fn(),
    checkExternalAgent: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));

afterEach(cleanup);
beforeEach(async () => {
  Object.values(ipc).forEach((f) => f.mockReset());
  await setUpI18n("en");
});

const CLAUDE = {
  id: "claude-code",
  label: "Claude Code",
  command: "claude-code-acp",
  args: [],
  secrets: ["ANTHROPIC_API_KEY"],
  install: "npm install -g @zed-industries/claude-code-acp",
};
const EMPTY: Page = { agents: [], presets: [CLAUDE], config_path: "/h/.memo/config.toml" };
const ADDED: Page = {
  ...EMPTY,
  agents: [
    {
      name: "claude-code",
      command: "claude-code-acp",
      args: [],
      env: [],
      secrets: [{ name: "ANTHROPIC_API_KEY", stored: true }],
      found: false,
      offer_mcp_servers: true,
      preset: "claude-code",
    },
  ],
};

describe("Settings → External agents", () => {
  it("adds a preset with its key, shows its install command, never installs it", async () => {
    ipc.externalAgentsPage.mockResolvedValue(EMPTY);
    ipc.saveExternalAgent.mockResolvedValue(ADDED);
    render(<ExternalAgentsPage />);
    fireEvent.click(await screen.findByTestId("external-agent-preset-claude-code"));
    expect(screen.getByTestId("external-agent-install").textContent).toContain(CLAUDE.install);
    expect((screen.getByTestId("external-agent-command") as HTMLInputElement).value).toBe("claude-code-acp");
    fireEvent.change(screen.getByTestId("external-agent-secret-value"), { target: { value: "sk-ant-1" } });
    fireEvent.click(screen.getByTestId("external-agent-save"));
    await waitFor(() => expect(ipc.saveExternalAgent).toHaveBeenCalled());
    expect(ipc.saveExternalAgent.mock.calls[0]![0]).toEqual({
      input: {
        name: "claude-code",
        command: "claude-code-acp",
        args: [],
        env: [],
        secrets: [{ name: "ANTHROPIC_API_KEY", value: "sk-ant-1" }],
        offer_mcp_servers: true,
      },
      editing: false,
    });
    const card = await screen.findByTestId("external-agent");
    expect(within(card).getByTestId("external-agent-missing").textContent).toBe("Not installed");
    expect(card.textContent).toContain(CLAUDE.install);
    expect(card.textContent).toContain("in the keychain");
  });

  it("keeps a stored secret when its field is left empty, and says what a check found", async () => {
    ipc.externalAgentsPage.mockResolvedValue(ADDED);
    ipc.saveExternalAgent.mockResolvedValue(ADDED);
    ipc.checkExternalAgent.mockResolvedValue({
      name: "claude-code",
      ok: false,
      auth_methods: [],
      error: "could not start `claude-code-acp`: No such file or directory (os error 2)",
      elapsed_ms: 3,
    });
    render(<ExternalAgentsPage />);
    fireEvent.click(await screen.findByTestId("external-agent-check-button"));
    const check = await screen.findByTestId("external-agent-check");
    expect(check.getAttribute("data-ok")).toBe("false");
    expect(check.textContent).toContain("No such file or directory");
    fireEvent.click(screen.getByTestId("external-agent-edit"));
    // Memo's MCP servers, offered until unticked.
    const offer = screen.getByTestId("external-agent-offer-mcp") as HTMLInputElement;
    expect(offer.checked).toBe(true);
    fireEvent.click(offer);
    fireEvent.click(screen.getByTestId("external-agent-save"));
    await waitFor(() => expect(ipc.saveExternalAgent).toHaveBeenCalled());
    expect(ipc.saveExternalAgent.mock.calls[0]![0].input.secrets).toEqual([{ name: "ANTHROPIC_API_KEY" }]);
    expect(ipc.saveExternalAgent.mock.calls[0]![0].input.offer_mcp_servers).toBe(false);
    expect(ipc.saveExternalAgent.mock.calls[0]![0].editing).toBe(true);
  });

  it("asks before removing one", async () => {
    ipc.externalAgentsPage.mockResolvedValue(ADDED);
    ipc.removeExternalAgent.mockResolvedValue(EMPTY);
    render(<ExternalAgentsPage />);
    fireEvent.click(await screen.findByTestId("external-agent-remove"));
    expect(ipc.removeExternalAgent).not.toHaveBeenCalled();
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(ipc.removeExternalAgent).toHaveBeenCalledWith({ name: "claude-code" }));
    expect(await screen.findByTestId("external-agents-empty")).toBeTruthy();
  });
});
