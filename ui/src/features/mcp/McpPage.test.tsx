// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { McpServerCheck, McpServerInfo, McpSettingsPage } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { McpPage } from "./McpPage";

const { ipc } = vi.hoisted(() => ({
  ipc: {
    mcpSettings: vi.fn(),
    checkMcpServers: vi.fn(),
    saveMcpServer: vi.fn(),
    removeMcpServer: vi.fn(),
    setMcpServerEnabled: vi.fn(),
    setMcpToolEnabled: vi.fn(),
    mcpLogin: vi.fn(),
    restartMcpServer: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));

afterEach(cleanup);
beforeEach(() => Object.values(ipc).forEach((f) => f.mockReset()));

const OURS: McpServerInfo = {
  name: "everything",
  source: "memo",
  source_path: "/home/u/.memo/config.toml",
  source_label: "config.toml",
  transport: "stdio",
  command: "node",
  args: ["index.js"],
  url: null,
  env: [{ name: "API_KEY", in_keychain: true, missing: false }],
  headers: [],
  enabled: true,
  excluded_tools: [],
  included_tools: null,
  blocked: false,
};

const PROJECT: McpServerInfo = {
  ...OURS,
  name: "proj",
  source: "claude",
  source_path: "/home/u/shop/.mcp.json",
  source_label: "~/shop/.mcp.json",
  env: [],
  blocked: true,
};

const PAGE: McpSettingsPage = {
  config_path: "/home/u/.memo/config.toml",
  folder: "/home/u/shop",
  trust: "unasked",
  servers: [OURS, PROJECT],
  active_list: false,
  problems: [],
};

const CHECK: McpServerCheck = {
  name: "everything",
  state: "ready",
  message: null,
  stderr_tail: null,
  tools: [
    { name: "echo", description: "Echoes", enabled: true },
    { name: "get-sum", description: "Adds", enabled: true },
  ],
  prompts: [{ name: "simple", description: null }],
  resources: [{ uri: "demo://1", name: "Resource 1" }],
};

describe("McpPage", () => {
  it("lists servers with their source, checks one and turns a tool off", async () => {
    ipc.mcpSettings.mockResolvedValue(PAGE);
    ipc.checkMcpServers.mockResolvedValue([CHECK]);
    ipc.setMcpToolEnabled.mockResolvedValue({ ...PAGE, servers: [{ ...OURS, excluded_tools: ["echo"] }, PROJECT] });
    render(<McpPage cwd="/home/u/shop" />);
    const cards = await screen.findAllByTestId("mcp-server");
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText("config.toml")).toBeTruthy();
    expect(within(cards[0]!).getByText("keychain")).toBeTruthy();
    expect(within(cards[1]!).getByText("~/shop/.mcp.json")).toBeTruthy();
    expect(screen.getByTestId("mcp-untrusted").textContent).toContain("shop is not trusted");
    // The untrusted folder's server cannot be checked or edited here.
    expect((within(cards[1]!).getByTestId("mcp-check") as HTMLButtonElement).disabled).toBe(true);
    expect(within(cards[1]!).queryByTestId("mcp-edit")).toBeNull();

    fireEvent.click(within(cards[0]!).getByTestId("mcp-check"));
    await waitFor(() => expect(within(cards[0]!).getByTestId("mcp-state").textContent).toBe("Ready · 2 tools"));
    expect(ipc.checkMcpServers).toHaveBeenCalledWith({ cwd: "/home/u/shop", names: ["everything"] });
    expect(within(cards[0]!).getByText("/everything:simple")).toBeTruthy();
    expect(within(cards[0]!).getByText("Resource 1")).toBeTruthy();
    // Spelled as on the approval card; what the model calls it, in the tooltip.
    expect(within(cards[0]!).getByText("everything · echo").getAttribute("title")).toBe("called as everything__echo");

    const echo = within(cards[0]!).getAllByTestId("mcp-tool").find((t) => t.getAttribute("data-name") === "echo") as HTMLInputElement;
    fireEvent.click(echo);
    await waitFor(() => expect(ipc.setMcpToolEnabled).toHaveBeenCalledWith({ server: "everything", tool: "echo", enabled: false, cwd: "/home/u/shop" }));
    await waitFor(() => expect(echo.checked).toBe(false));
    expect(within(cards[0]!).getByText("1 of 2 on")).toBeTruthy();
  });

  it("says what Add server still needs while it is off", async () => {
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [] });
    render(<McpPage cwd={null} />);
    await screen.findByTestId("mcp-empty");
    fireEvent.click(screen.getByTestId("mcp-add"));
    const save = screen.getByTestId("mcp-save") as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.title).toBe("To save, enter a name and a command.");
    expect(screen.getByTestId("mcp-form-missing").textContent).toBe("To save, enter a name and a command.");
    fireEvent.change(screen.getByTestId("mcp-name"), { target: { value: "everything" } });
    expect(screen.getByTestId("mcp-form-missing").textContent).toBe("To save, enter a command.");
    fireEvent.change(screen.getByTestId("mcp-command"), { target: { value: "node" } });
    expect(save.disabled).toBe(false);
    expect(screen.queryByTestId("mcp-form-missing")).toBeNull();
  });

  it("adds a server with its env value and turns servers off", async () => {
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [] });
    ipc.saveMcpServer.mockResolvedValue({ ...PAGE, servers: [OURS] });
    ipc.setMcpServerEnabled.mockResolvedValue({ ...PAGE, servers: [{ ...OURS, enabled: false }], active_list: true });
    render(<McpPage cwd={null} />);
    await screen.findByTestId("mcp-empty");
    fireEvent.click(screen.getByTestId("mcp-add"));
    fireEvent.change(screen.getByTestId("mcp-name"), { target: { value: "everything" } });
    fireEvent.change(screen.getByTestId("mcp-command"), { target: { value: "node" } });
    fireEvent.change(screen.getByTestId("mcp-args"), { target: { value: "index.js\n\n" } });
    fireEvent.click(screen.getByTestId("mcp-value-add"));
    fireEvent.change(screen.getByTestId("mcp-value-name"), { target: { value: "API_KEY" } });
    fireEvent.change(screen.getByTestId("mcp-value-value"), { target: { value: "sk-1" } });
    fireEvent.click(screen.getByTestId("mcp-save"));
    await waitFor(() =>
      expect(ipc.saveMcpServer).toHaveBeenCalledWith({
        server: { name: "everything", transport: "stdio", command: "node", args: ["index.js"], env: [{ name: "API_KEY", value: "sk-1" }], url: "", headers: [] },
        editing: false,
        cwd: null,
      }),
    );
    await waitFor(() => expect(screen.queryByTestId("mcp-form")).toBeNull());

    fireEvent.click(screen.getByTestId("mcp-enabled"));
    await waitFor(() => expect(ipc.setMcpServerEnabled).toHaveBeenCalledWith({ name: "everything", enabled: false, cwd: null }));
    await waitFor(() => expect((screen.getByTestId("mcp-enabled") as HTMLInputElement).checked).toBe(false));
    expect(screen.getByText("active_mcp_servers")).toBeTruthy();
  });

  it("keeps a stored value when editing unless one is typed, and reports a refusal", async () => {
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [OURS] });
    ipc.saveMcpServer.mockRejectedValue({ code: "invalid_input", message: "enter a value for the environment variable X", retryable: false });
    render(<McpPage cwd={null} />);
    fireEvent.click(await screen.findByTestId("mcp-edit"));
    expect((screen.getByTestId("mcp-name") as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId("mcp-value-value") as HTMLInputElement).placeholder).toContain("keychain");
    fireEvent.click(screen.getByTestId("mcp-save"));
    await waitFor(() => expect(ipc.saveMcpServer).toHaveBeenCalled());
    expect(ipc.saveMcpServer.mock.calls[0]![0].server.env).toEqual([{ name: "API_KEY", value: null }]);
    expect(ipc.saveMcpServer.mock.calls[0]![0].editing).toBe(true);
    expect((await screen.findByTestId("mcp-error")).textContent).toContain("enter a value");
    expect(screen.getByTestId("mcp-form")).toBeTruthy();
  });
  it("signs in to an HTTP server that needs it, then checks it again", async () => {
    const remote: McpServerInfo = { ...OURS, name: "remote", transport: "streamable_http", command: null, args: [], url: "https://mcp.example.com/mcp", env: [] };
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [remote] });
    ipc.checkMcpServers
      .mockResolvedValueOnce([{ ...CHECK, name: "remote", state: "needs_login", tools: [] }])
      .mockResolvedValueOnce([{ ...CHECK, name: "remote" }]);
    ipc.mcpLogin.mockResolvedValue(undefined);
    render(<McpPage cwd="/home/u/shop" />);
    const card = await screen.findByTestId("mcp-server");
    fireEvent.click(within(card).getByTestId("mcp-check"));
    await waitFor(() => expect(within(card).getByTestId("mcp-state").dataset.state).toBe("needs_login"));
    fireEvent.click(within(card).getByTestId("mcp-login"));
    await waitFor(() => expect(ipc.mcpLogin).toHaveBeenCalledWith({ cwd: "/home/u/shop", name: "remote" }));
    await waitFor(() => expect(within(card).getByTestId("mcp-state").dataset.state).toBe("ready"));
  });

  it("offers no sign-in for servers that run on this machine", async () => {
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [OURS] });
    render(<McpPage cwd={null} />);
    const card = await screen.findByTestId("mcp-server");
    expect(within(card).queryByTestId("mcp-login")).toBeNull();
  });
  it("saves on Enter in a field, but not on the Enter that picks an input method's candidate", async () => {
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [] });
    ipc.saveMcpServer.mockResolvedValue({ ...PAGE, servers: [OURS] });
    render(<McpPage cwd={null} />);
    await screen.findByTestId("mcp-empty");
    fireEvent.click(screen.getByTestId("mcp-add"));
    const name = screen.getByTestId("mcp-name");
    // Nothing to save yet: Enter does nothing, as with the disabled button.
    fireEvent.keyDown(name, { key: "Enter" });
    fireEvent.change(name, { target: { value: "文件" } });
    fireEvent.change(screen.getByTestId("mcp-command"), { target: { value: "node" } });
    fireEvent.keyDown(name, { key: "Enter", isComposing: true });
    fireEvent.keyDown(name, { key: "Enter", keyCode: 229 });
    expect(ipc.saveMcpServer).not.toHaveBeenCalled();
    expect(screen.getByTestId("mcp-form")).toBeTruthy();

    fireEvent.keyDown(name, { key: "Enter" });
    await waitFor(() => expect(ipc.saveMcpServer).toHaveBeenCalledTimes(1));
    expect(ipc.saveMcpServer.mock.calls[0]![0].server).toMatchObject({ name: "文件", command: "node" });
  });

  it("speaks Chinese when asked", async () => {
    ipc.mcpSettings.mockResolvedValue(PAGE);
    ipc.restartMcpServer.mockResolvedValue(2);
    await setUpI18n("zh");
    try {
      render(<McpPage cwd="/home/u/shop" />);
      const cards = await screen.findAllByTestId("mcp-server");
      expect(screen.getByText("MCP 服务器")).toBeTruthy();
      expect(screen.getByTestId("mcp-untrusted").textContent).toBe("shop 未受信任，因此它自己的文件中声明的服务器只会列出，不会启动。");
      fireEvent.click(within(cards[0]!).getByTestId("mcp-restart"));
      expect((await screen.findByTestId("mcp-notice")).textContent).toBe("已在 2 个打开的对话中重启 everything。");
    } finally {
      setUpI18n("en");
    }
  });

  it("restarts a server in the open conversations and says how many", async () => {
    ipc.mcpSettings.mockResolvedValue({ ...PAGE, servers: [OURS] });
    ipc.restartMcpServer.mockResolvedValueOnce(2).mockResolvedValueOnce(0);
    render(<McpPage cwd={null} />);
    const card = await screen.findByTestId("mcp-server");
    fireEvent.click(within(card).getByTestId("mcp-restart"));
    expect((await screen.findByTestId("mcp-notice")).textContent).toBe("everything restarted in 2 open conversations.");
    fireEvent.click(within(card).getByTestId("mcp-restart"));
    await waitFor(() => expect(screen.getByTestId("mcp-notice").textContent).toContain("No open conversation uses everything"));
  });
});
