// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { useSheets } from "../../test/styles";
import { ModeControl } from "../approvals/ModeControl";
import { ChatHeader } from "./ChatHeader";
import { sessionSummary } from "../../test/fixtures";

afterEach(cleanup);

describe("ChatHeader MCP servers", () => {
  it("shows each server with its state", () => {
    render(
      <ChatHeader
        cwd="/repo"
        session={null}
        providers={{ status: "loading" }}
        mcp={[
          { name: "everything", status: "ready", tools: 13, message: null },
          { name: "broken", status: "failed", tools: 0, message: "the server exited with code 3" },
        ]}
      />,
    );
    const [ready, failed] = screen.getAllByTestId("mcp-server");
    expect(ready?.textContent).toBe("everything13 tools");
    expect(failed?.getAttribute("data-status")).toBe("failed");
    expect(failed?.getAttribute("title")).toBe("the server exited with code 3");
  });

  it("shows nothing without servers", () => {
    render(<ChatHeader cwd="/repo" session={null} providers={{ status: "loading" }} />);
    expect(screen.queryByTestId("mcp-server")).toBeNull();
  });
});

describe("ChatHeader model choice", () => {
  const PROVIDERS = {
    status: "ready" as const,
    value: [
      { name: "deepseek", model: "deepseek-chat", api: "openai", base_url: "https://api.deepseek.com", is_current: true },
      { name: "claude", model: "claude-sonnet-4-5", api: "anthropic", base_url: "https://api.anthropic.com", is_current: false },
    ],
  };
  const SESSION = sessionSummary({ provider: "claude", model: "claude-sonnet-4-5", last_seq: 3 });

  it("lets a new session pick any configured provider, starting from the current one", () => {
    const choose = vi.fn();
    const { rerender } = render(
      <ChatHeader cwd="/repo" session={null} providers={PROVIDERS} nextProvider={null} onChooseProvider={choose} />,
    );
    const select = screen.getByTestId("model-select") as HTMLSelectElement;
    expect(select.value).toBe("deepseek");
    expect([...select.options].map((o) => o.textContent)).toEqual(["deepseek · deepseek-chat", "claude · claude-sonnet-4-5"]);
    fireEvent.change(select, { target: { value: "claude" } });
    expect(choose).toHaveBeenCalledWith("claude");
    rerender(<ChatHeader cwd="/repo" session={null} providers={PROVIDERS} nextProvider="claude" onChooseProvider={choose} />);
    expect((screen.getByTestId("model-select") as HTMLSelectElement).value).toBe("claude");
  });

  it("shows a started session's own model, not a picker", () => {
    render(<ChatHeader cwd="/repo" session={SESSION} providers={PROVIDERS} nextProvider="deepseek" onChooseProvider={vi.fn()} />);
    expect(screen.queryByTestId("model-select")).toBeNull();
    expect(screen.getByTestId("chat-model").textContent).toBe("claudeclaude-sonnet-4-5");
  });

  it("keeps the plain pill when there is only one provider", () => {
    const one = { status: "ready" as const, value: [PROVIDERS.value[0]!] };
    render(<ChatHeader cwd="/repo" session={null} providers={one} nextProvider={null} onChooseProvider={vi.fn()} />);
    expect(screen.queryByTestId("model-select")).toBeNull();
    expect(screen.getByTestId("chat-model").textContent).toBe("deepseekdeepseek-chat");
  });
});

describe("ChatHeader model of an open session", () => {
  const PROVIDERS = {
    status: "ready" as const,
    value: [
      { name: "fast", model: "m1", api: "openai", base_url: "http://127.0.0.1:1/v1", is_current: true },
      { name: "deep", model: "m2", api: "anthropic", base_url: "https://api.anthropic.com", is_current: false },
    ],
  };

  it("switches the session to another provider, and not while a turn runs", () => {
    const onSwitch = vi.fn();
    const session = sessionSummary({ provider: "fast", model: "m1" });
    const { rerender } = render(
      <ChatHeader cwd="/repo" session={session} providers={PROVIDERS} onSwitchModel={onSwitch} />,
    );
    const select = screen.getByTestId("session-model-select") as HTMLSelectElement;
    expect(select.options).toHaveLength(2);
    fireEvent.change(select, { target: { value: "deep\u0000m2" } });
    expect(onSwitch).toHaveBeenCalledWith("deep");
    rerender(<ChatHeader cwd="/repo" session={session} providers={PROVIDERS} onSwitchModel={onSwitch} busy />);
    expect((screen.getByTestId("session-model-select") as HTMLSelectElement).disabled).toBe(true);
  });

  it("keeps a model switched to by name as its own choice", () => {
    const session = sessionSummary({ provider: "fast", model: "m9" });
    render(<ChatHeader cwd="/repo" session={session} providers={PROVIDERS} onSwitchModel={vi.fn()} />);
    const select = screen.getByTestId("session-model-select") as HTMLSelectElement;
    expect(select.options).toHaveLength(3);
    expect(select.value).toBe("fast\u0000m9");
  });
});

describe("ChatHeader when crowded", () => {
  const PROVIDERS = {
    status: "ready" as const,
    value: [
      { name: "deepseek", model: "deepseek-chat", api: "openai", base_url: "https://api.deepseek.com", is_current: true },
      { name: "claude", model: "claude-sonnet-4-5", api: "anthropic", base_url: "https://api.anthropic.com", is_current: false },
    ],
  };
  const MCP = [{ name: "everything", status: "ready" as const, tools: 13, message: null }];

  // jsdom lays nothing out: a 480px header whose folder name (200px wide) gets 40px while
  // the pills show their words, and all it needs once they are icons.
  let restore: () => void = () => undefined;
  beforeEach(() => {
    const client = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientWidth");
    const scroll = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "scrollWidth");
    const crowded = (el: HTMLElement) => el.closest(".chat__header")?.classList.contains("chat__header--icons") !== true;
    Object.defineProperty(HTMLElement.prototype, "clientWidth", {
      configurable: true,
      get(this: HTMLElement) {
        if (this.classList.contains("chat__header")) return 480;
        if (this.classList.contains("chat__title")) return crowded(this) ? 40 : 200;
        return 0;
      },
    });
    Object.defineProperty(HTMLElement.prototype, "scrollWidth", {
      configurable: true,
      get(this: HTMLElement) {
        if (this.classList.contains("chat__header")) return 480;
        if (this.classList.contains("chat__title")) return 200;
        return 0;
      },
    });
    // jsdom defines both on Element: the HTMLElement ones are removed again, or put back.
    restore = () => {
      for (const [name, own] of [["clientWidth", client], ["scrollWidth", scroll]] as const) {
        if (own) Object.defineProperty(HTMLElement.prototype, name, own);
        else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
      }
    };
  });
  afterEach(() => restore());

  it("shows the pickers as icons with tooltips and keeps the folder's name, its path in the tooltip", () => {
    render(
      <ChatHeader
        cwd="/home/me/projects/shop-backend"
        session={null}
        providers={PROVIDERS}
        mcp={MCP}
        nextProvider={null}
        onChooseProvider={vi.fn()}
        mode={<ModeControl mode="strict" live={false} onChange={vi.fn()} />}
      />,
    );
    const title = screen.getByTestId("chat-title");
    expect(title.textContent).toBe("shop-backend");
    expect(title.title).toBe("/home/me/projects/shop-backend");

    const select = screen.getByTestId("model-select");
    const pill = select.closest("label")!;
    expect(pill.className).toContain("model-pill--icon");
    expect(pill.title).toContain("deepseek · deepseek-chat");
    expect(select.className).toContain("model-pill__select--over");

    const mode = screen.getByTestId("approval-mode");
    expect(mode.querySelector(".mode-pill__name")).toBeNull();
    expect(mode.title).toMatch(/^Strict/);

    const server = screen.getByTestId("mcp-server");
    expect(server.textContent).toBe("");
    expect(server.getAttribute("aria-label")).toBe("MCP server everything: 13 tools");
    expect(server.title).toContain("everything");
  });

  it("keeps the folder's name in the narrowest conversation (a drawer open beside it)", () => {
    const removeSheets = useSheets(import.meta.url, "./chat.css");
    try {
      render(
        <section className="chat chat--compact chat--tight">
          <ChatHeader cwd="/home/me/shop" session={null} providers={PROVIDERS} mcp={MCP} onChooseProvider={vi.fn()} />
        </section>,
      );
      const title = screen.getByTestId("chat-title");
      expect(getComputedStyle(title.parentElement!).display).not.toBe("none");
      expect(getComputedStyle(title).display).not.toBe("none");
      expect(getComputedStyle(title).textOverflow).toBe("ellipsis");
    } finally {
      removeSheets();
    }
  });

  it("keeps the words while the folder's name fits", () => {
    restore();
    render(<ChatHeader cwd="/repo" session={null} providers={PROVIDERS} mcp={MCP} onChooseProvider={vi.fn()} />);
    expect(screen.getByTestId("model-select").closest("label")!.className).not.toContain("model-pill--icon");
    expect(screen.getByTestId("mcp-server").textContent).toBe("everything13 tools");
  });
});

describe("ChatHeader external agents", () => {
  const ONE = {
    status: "ready" as const,
    value: [{ name: "deepseek", model: "deepseek-chat", api: "openai", base_url: "https://api.deepseek.com", is_current: true }],
  };

  it("offers config.toml's external agents for a new session, beside the providers", () => {
    const choose = vi.fn();
    const { rerender } = render(
      <ChatHeader cwd="/repo" session={null} providers={ONE} onChooseProvider={choose} externalAgents={["claude-code", "gemini"]} />,
    );
    const select = screen.getByTestId("model-select") as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["deepseek", "acp:claude-code", "acp:gemini"]);
    expect(screen.getByTestId("external-agent-options").getAttribute("label")).toBe("External agents");
    fireEvent.change(select, { target: { value: "acp:gemini" } });
    expect(choose).toHaveBeenCalledWith("acp:gemini");
    rerender(
      <ChatHeader cwd="/repo" session={null} providers={ONE} nextProvider="acp:gemini" onChooseProvider={choose} externalAgents={["claude-code", "gemini"]} />,
    );
    expect((screen.getByTestId("model-select") as HTMLSelectElement).value).toBe("acp:gemini");
  });

  it("names an external agent's session by the agent, with no model switch", () => {
    const session = sessionSummary({ provider: "acp:claude-code", model: "Claude Code 0.16.2" });
    render(<ChatHeader cwd="/repo" session={session} providers={ONE} onSwitchModel={vi.fn()} externalAgents={["claude-code"]} />);
    expect(screen.queryByTestId("session-model-select")).toBeNull();
    const pill = screen.getByTestId("chat-model");
    expect(pill.textContent).toBe("claude-codeClaude Code 0.16.2");
    expect(pill.getAttribute("title")).toContain("external agent");
  });
});

describe("ChatHeader external agent settings", () => {
  const ONE = { status: "ready" as const, value: [] };
  const SETTINGS = [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      current: "default",
      choices: [
        { value: "default", name: "Default", description: "Prompts for approval" },
        { value: "plan", name: "Plan", description: "Read-only mode" },
      ],
    },
    { id: "model", name: "Model", category: "model", current: "gone-model", choices: [{ value: "pro", name: "gemini-2.5-pro" }] },
  ];

  it("offers each of the agent's own settings as it words them, and sends a pick", () => {
    const pick = vi.fn();
    const session = sessionSummary({ provider: "acp:gemini", model: "Gemini CLI 0.61.0" });
    render(<ChatHeader cwd="/repo" session={session} providers={ONE} agentSettings={SETTINGS} onSetAgentSetting={pick} />);
    const mode = screen.getByTestId("agent-setting-mode") as HTMLSelectElement;
    expect(mode.value).toBe("default");
    expect([...mode.options].map((o) => o.textContent)).toEqual(["Default", "Plan"]);
    expect(mode.getAttribute("aria-label")).toBe("gemini's Mode");
    expect(mode.closest("label")?.getAttribute("title")).toContain("Prompts for approval");
    // A current value it no longer lists is still shown as it is, not as another one.
    const model = screen.getByTestId("agent-setting-model") as HTMLSelectElement;
    expect(model.value).toBe("gone-model");
    fireEvent.change(mode, { target: { value: "plan" } });
    expect(pick).toHaveBeenCalledWith("mode", "plan");
    // The menu shows what the agent said, not the pick, until it answers.
    expect((screen.getByTestId("agent-setting-mode") as HTMLSelectElement).value).toBe("default");
  });

  it("shows none for Memo's own sessions or an agent that offers none", () => {
    const own = sessionSummary({ provider: "deepseek", model: "deepseek-chat" });
    const { rerender } = render(<ChatHeader cwd="/repo" session={own} providers={ONE} agentSettings={SETTINGS} onSetAgentSetting={vi.fn()} />);
    expect(screen.queryByTestId("agent-settings")).toBeNull();
    const external = sessionSummary({ provider: "acp:gemini", model: "Gemini CLI" });
    rerender(<ChatHeader cwd="/repo" session={external} providers={ONE} agentSettings={[]} onSetAgentSetting={vi.fn()} />);
    expect(screen.queryByTestId("agent-settings")).toBeNull();
  });
});
