// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { IpcError } from "../../ipc";
import { ProviderBanner } from "./ProviderBanner";

afterEach(cleanup);

const BROKEN = {
  status: "error" as const,
  error: new IpcError("list_providers", "config", "config.toml:3: expected '='", false),
};

describe("ProviderBanner", () => {
  it("names the config file in the real Memo home, and no guessed ~/.memo before it is known", () => {
    const { rerender } = render(
      <ProviderBanner providers={BROKEN} configPath="/srv/memo-data/config.toml" onReload={vi.fn()} onOpenSettings={vi.fn()} />,
    );
    expect(screen.getByTestId("config-banner").textContent).toContain("Fix /srv/memo-data/config.toml");
    rerender(<ProviderBanner providers={BROKEN} configPath={null} onReload={vi.fn()} onOpenSettings={vi.fn()} />);
    expect(screen.getByTestId("config-banner").textContent).not.toContain("~/.memo");
  });

  it("shows a path with markup-like characters as it is", () => {
    render(<ProviderBanner providers={BROKEN} configPath="/srv/<1>a&b</1>/config.toml" onReload={vi.fn()} onOpenSettings={vi.fn()} />);
    expect(screen.getByTestId("config-banner").querySelector("code")?.textContent).toBe("/srv/<1>a&b</1>/config.toml");
  });
});

const provider = (name: string, is_current: boolean) => ({ name, model: "m", api: "openai", base_url: "http://x", is_current });

describe("ProviderBanner before any message is sent", () => {
  it("shows what the engine says about config.toml and works nothing out itself", () => {
    // An unknown current_provider is the engine's error (list_providers fails with the
    // file's line); a list it did answer is taken as it is.
    const answered = { status: "ready" as const, value: [provider("local", false), provider("claude", false)] };
    render(<ProviderBanner providers={answered} configPath="/home/u/.memo/config.toml" onReload={vi.fn()} onOpenSettings={vi.fn()} />);
    expect(screen.queryByTestId("config-banner")).toBeNull();
  });
});
