// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
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
