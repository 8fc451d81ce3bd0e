// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { CommandError } from "../../ipc";
import { ProviderBanner } from "./ProviderBanner";

afterEach(cleanup);

const BROKEN = {
  status: "error" as const,
  error: new CommandError("list_providers", "config", "config.toml:3: expected '='", false),
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
});

const provider = (name: string, is_current: boolean) => ({ name, model: "m", api: "openai", base_url: "http://x", is_current });

describe("ProviderBanner before any message is sent", () => {
  it("says config.toml names a current provider it does not define (sessions could not start)", () => {
    const onOpenSettings = vi.fn();
    const broken = { status: "ready" as const, value: [provider("local", false), provider("claude", false)] };
    render(<ProviderBanner providers={broken} configPath="/home/u/.memo/config.toml" onReload={vi.fn()} onOpenSettings={onOpenSettings} />);
    expect(screen.getByTestId("config-error").textContent).toContain("current_provider names a provider the file does not define");
    expect(screen.getByTestId("config-banner").textContent).toContain("/home/u/.memo/config.toml");
    fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    expect(onOpenSettings).toHaveBeenCalled();
  });

  it("shows nothing once a provider is current again", () => {
    const fine = { status: "ready" as const, value: [provider("local", true), provider("claude", false)] };
    render(<ProviderBanner providers={fine} configPath={null} onReload={vi.fn()} onOpenSettings={vi.fn()} />);
    expect(screen.queryByTestId("config-banner")).toBeNull();
  });
});
