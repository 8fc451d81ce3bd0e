// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { PluginInfo, PluginsPage as PluginsList } from "../../gen/protocol";
import { IpcError } from "../../ipc";
import { PluginsPage } from "./PluginsPage";

const { ipc, pickFolder } = vi.hoisted(() => ({
  ipc: {
    listPlugins: vi.fn(),
    installPlugin: vi.fn(),
    setPluginEnabled: vi.fn(),
    removePlugin: vi.fn(),
  },
  pickFolder: vi.fn(),
}));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc, pickFolder }));

afterEach(cleanup);
beforeEach(() => {
  Object.values(ipc).forEach((f) => f.mockReset());
  pickFolder.mockReset();
});

const DEMO: PluginInfo = {
  name: "memo-demo",
  version: "1.2.0",
  description: "A demo plugin",
  author: "Memo tests",
  source_kind: "folder",
  source: "/src/memo-demo",
  path: "/home/u/.memo/plugins/memo-demo",
  enabled: true,
  installed_at_ms: 1,
  commands: [{ name: "memo-demo:greet", description: "Greet someone", path: "/p/commands/greet.md" }],
  skills: [{ name: "memo-demo:release-notes", description: "Writes release notes", path: "/p/skills/release-notes/SKILL.md" }],
  agents: [{ name: "memo-demo:reviewer", description: "Reviews diffs", path: "/p/agents/reviewer.md" }],
  hooks: [{ event: "UserPromptSubmit", matcher: "", command: "sh context.sh" }],
  mcp_servers: [{ name: "memo-demo_notes", transport: "stdio", target: "node /p/server.mjs" }],
  problems: [],
};

const EMPTY: PluginsList = { plugins: [], dir: "/home/u/.memo/plugins" };
const ONE: PluginsList = { plugins: [DEMO], dir: EMPTY.dir };

describe("PluginsPage", () => {
  it("lists each plugin with its namespaced parts and what it brings", async () => {
    ipc.listPlugins.mockResolvedValue(ONE);
    render(<PluginsPage />);
    const card = await screen.findByTestId("plugin");
    expect(card.dataset.name).toBe("memo-demo");
    expect(within(card).getByText("1.2.0")).toBeTruthy();
    expect(within(card).getByTestId("plugin-source").textContent).toBe("/src/memo-demo");
    expect(within(card).getByTestId("plugin-summary").textContent).toBe("1 command · 1 skill · 1 agent · 1 hook · 1 MCP server");
    expect(within(card).getByText("/memo-demo:greet")).toBeTruthy();
    expect(within(card).getByText("memo-demo:release-notes")).toBeTruthy();
    expect(within(card).getByText("memo-demo:reviewer")).toBeTruthy();
    expect(within(card).getByText("UserPromptSubmit")).toBeTruthy();
    expect(within(card).getByText("memo-demo_notes")).toBeTruthy();
    expect(screen.queryByTestId("plugin-problems")).toBeNull();
  });

  it("shows a plugin Claude Code installed as managed there: a switch, no Remove", async () => {
    const claude: PluginInfo = {
      ...DEMO,
      name: "hello-cc",
      source_kind: "claude_code",
      source: "hello-cc@team-market",
      path: "/home/u/.claude/plugins/cache/team-market/hello-cc/0.3.0",
    };
    ipc.listPlugins.mockResolvedValue({ ...ONE, plugins: [claude] });
    ipc.setPluginEnabled.mockResolvedValue({ ...ONE, plugins: [{ ...claude, enabled: false }] });
    render(<PluginsPage />);
    const card = await screen.findByTestId("plugin");
    expect(within(card).getByText("Claude Code")).toBeTruthy();
    expect(within(card).getByTestId("plugin-source").textContent).toBe("hello-cc@team-market");
    expect(within(card).queryByTestId("plugin-remove")).toBeNull();
    expect(within(card).getByTestId("plugin-managed").textContent).toBe("Managed by Claude Code");
    fireEvent.click(within(card).getByTestId("plugin-enabled"));
    await waitFor(() => expect(ipc.setPluginEnabled).toHaveBeenCalledWith({ name: "hello-cc", enabled: false }));
    expect(within(card).queryByTestId("plugin-folder")).toBeNull();
  });

  it("says which folder a plugin Claude Code installed for one project is for, beside its user-wide install", async () => {
    const claude: PluginInfo = { ...DEMO, name: "fmt", source_kind: "claude_code", source: "fmt@mkt", path: "/c/fmt" };
    ipc.listPlugins.mockResolvedValue({ ...ONE, plugins: [claude, { ...claude, path: "/c/fmt-local", for_folder: "/home/u/shop" }] });
    render(<PluginsPage />);
    await screen.findAllByTestId("plugin");
    const cards = screen.getAllByTestId("plugin");
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).queryByTestId("plugin-folder")).toBeNull();
    expect(within(cards[1] as HTMLElement).getByTestId("plugin-folder").textContent).toBe("for /home/u/shop only");
  });

  it("says where plugins go when none is installed, and shows a plugin's problems", async () => {
    ipc.listPlugins.mockResolvedValue(EMPTY);
    render(<PluginsPage />);
    expect((await screen.findByTestId("plugins-empty")).textContent).toContain("/home/u/.memo/plugins");
    cleanup();
    ipc.listPlugins.mockResolvedValue({ ...ONE, plugins: [{ ...DEMO, problems: ["plugin.json: invalid JSON"] }] });
    render(<PluginsPage />);
    expect((await screen.findByTestId("plugin-problems")).textContent).toContain("invalid JSON");
  });

  it("installs from a typed or picked folder, or a git URL", async () => {
    ipc.listPlugins.mockResolvedValue(EMPTY);
    ipc.installPlugin.mockResolvedValue(ONE);
    pickFolder.mockResolvedValue("/picked/plugin");
    render(<PluginsPage />);
    await screen.findByTestId("plugins-empty");
    const submit = screen.getByTestId("plugin-install-submit") as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.click(screen.getByTestId("plugin-browse"));
    await waitFor(() => expect((screen.getByTestId("plugin-source-input") as HTMLInputElement).value).toBe("/picked/plugin"));
    fireEvent.click(submit);
    await screen.findByTestId("plugin");
    expect(ipc.installPlugin).toHaveBeenCalledWith({ source: { type: "folder", path: "/picked/plugin" }, replace: false });

    fireEvent.click(screen.getByTestId("plugin-source-git"));
    expect(screen.queryByTestId("plugin-browse")).toBeNull();
    fireEvent.change(screen.getByTestId("plugin-source-input"), { target: { value: " https://example.com/p.git " } });
    fireEvent.click(screen.getByTestId("plugin-install-submit"));
    await waitFor(() =>
      expect(ipc.installPlugin).toHaveBeenLastCalledWith({ source: { type: "git", url: "https://example.com/p.git" }, replace: false }),
    );
  });

  it("shows an install error inline, and offers to replace on a name clash", async () => {
    ipc.listPlugins.mockResolvedValue(ONE);
    ipc.installPlugin
      .mockRejectedValueOnce(new IpcError("install_plugin", "invalid_input", "/x: not a Claude Code plugin (no .claude-plugin/plugin.json)", false))
      .mockRejectedValueOnce(new IpcError("install_plugin", "conflict", 'a plugin named "memo-demo" is already installed', false))
      .mockResolvedValueOnce(ONE);
    render(<PluginsPage />);
    await screen.findByTestId("plugin");
    fireEvent.change(screen.getByTestId("plugin-source-input"), { target: { value: "/x" } });
    fireEvent.click(screen.getByTestId("plugin-install-submit"));
    const error = await screen.findByTestId("plugin-install-error");
    expect(error.textContent).toContain("not a Claude Code plugin");
    expect(screen.queryByTestId("plugin-replace")).toBeNull();

    fireEvent.click(screen.getByTestId("plugin-install-submit"));
    fireEvent.click(await screen.findByTestId("plugin-replace"));
    await waitFor(() => expect(ipc.installPlugin).toHaveBeenLastCalledWith({ source: { type: "folder", path: "/x" }, replace: true }));
    await waitFor(() => expect(screen.queryByTestId("plugin-install-error")).toBeNull());
  });

  it("switches a plugin off and removes one only after confirming", async () => {
    ipc.listPlugins.mockResolvedValue(ONE);
    ipc.setPluginEnabled.mockResolvedValue({ ...ONE, plugins: [{ ...DEMO, enabled: false }] });
    ipc.removePlugin.mockResolvedValue(EMPTY);
    render(<PluginsPage />);
    const card = await screen.findByTestId("plugin");
    fireEvent.click(within(card).getByTestId("plugin-enabled"));
    await waitFor(() => expect(screen.getByTestId("plugin").dataset.enabled).toBe("false"));
    expect(ipc.setPluginEnabled).toHaveBeenCalledWith({ name: "memo-demo", enabled: false });

    fireEvent.click(screen.getByTestId("plugin-remove"));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.textContent).toContain("/src/memo-demo");
    fireEvent.click(within(dialog).getByText("Keep it"));
    expect(ipc.removePlugin).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("plugin-remove"));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByText("Remove"));
    await screen.findByTestId("plugins-empty");
    expect(ipc.removePlugin).toHaveBeenCalledWith({ name: "memo-demo" });
  });

  it("reports a failed switch without losing the list", async () => {
    ipc.listPlugins.mockResolvedValue(ONE);
    ipc.setPluginEnabled.mockRejectedValue(new IpcError("set_plugin_enabled", "config", "installed.json: unreadable", false));
    render(<PluginsPage />);
    fireEvent.click(within(await screen.findByTestId("plugin")).getByTestId("plugin-enabled"));
    expect((await screen.findByTestId("plugins-error")).textContent).toContain("installed.json: unreadable");
    expect(screen.getByTestId("plugin")).toBeTruthy();
  });
});
