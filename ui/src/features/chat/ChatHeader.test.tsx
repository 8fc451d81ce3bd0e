// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

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
