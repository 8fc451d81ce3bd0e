// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { ProviderSettingsPage } from "../../gen/protocol";
import { useSheets } from "../../test/styles";
import { ProvidersPage } from "./ProvidersPage";
import type { ProviderSettingsController } from "./useProviderSettings";

const { ipc } = vi.hoisted(() => ({ ipc: { deleteApiKey: vi.fn(async () => ({})) } }));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));

afterEach(cleanup);

const PAGE: ProviderSettingsPage = {
  config_path: "/home/u/.memo/config.toml",
  revision: "10-ab",
  current_provider: "local",
  providers: [
    {
      name: "local",
      api: "openai",
      model: "qwen",
      base_url: "http://127.0.0.1:8080/v1",
      effective_base_url: "http://127.0.0.1:8080/v1",
      env_api_key: null,
      is_current: true,
      key: { provider: "local", source: null, required: false, keychain_error: null },
    },
    {
      name: "claude",
      api: "anthropic",
      model: "claude-sonnet-4-5",
      base_url: null,
      effective_base_url: "https://api.anthropic.com",
      env_api_key: "ANTHROPIC_API_KEY",
      is_current: false,
      key: { provider: "claude", source: "OS keychain", required: true, keychain_error: null },
    },
  ],
  model_profiles: [],
  warnings: [],
};

function controller(overrides: Partial<ProviderSettingsController> = {}): ProviderSettingsController {
  return {
    state: { status: "ready", page: PAGE },
    reload: vi.fn(async () => true),
    save: vi.fn(async () => ({ keyError: null })),
    change: vi.fn(async () => undefined),
    ...overrides,
  };
}

describe("ProvidersPage", () => {
  it("keeps a long name and model on one line, cut with an ellipsis, the whole in a tooltip", () => {
    const remove = useSheets(import.meta.url, "settings.css");
    const name = "my-very-long-provider-name-for-the-company-proxy-in-frankfurt";
    const model = "accounts/fireworks/models/llama-v3p1-405b-instruct-long-context";
    const [first, second] = PAGE.providers;
    const page = { ...PAGE, providers: [{ ...first!, name, model }, second!] };
    render(<ProvidersPage controller={controller({ state: { status: "ready", page } })} />);
    const row = screen.getAllByTestId("provider-row")[0]!;
    for (const text of [name, model]) {
      const shown = within(row).getByTitle(text);
      expect(shown.textContent).toBe(text);
      const css = getComputedStyle(shown);
      expect([css.whiteSpace, css.overflow, css.textOverflow]).toEqual(["nowrap", "hidden", "ellipsis"]);
    }
    remove();
  });

  it("lists providers with where their key comes from, and makes one current", async () => {
    const c = controller();
    render(<ProvidersPage controller={c} />);
    const rows = screen.getAllByTestId("provider-row");
    expect(rows.map((r) => r.getAttribute("data-name"))).toEqual(["local", "claude"]);
    expect(rows[0]?.textContent).toContain("No key needed (this machine)");
    expect(rows[1]?.textContent).toContain("Key: OS keychain");
    fireEvent.click(screen.getByRole("button", { name: "Use for new sessions" }));
    await waitFor(() => expect(c.change).toHaveBeenCalledWith({ type: "make_current", name: "claude" }));
  });

  it("removes a provider and its stored key only after asking", async () => {
    const c = controller();
    render(<ProvidersPage controller={c} />);
    fireEvent.click(screen.getAllByRole("button", { name: "Remove" })[1] as HTMLElement);
    expect(c.change).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByTestId("confirm-ok"));
    await waitFor(() => expect(c.change).toHaveBeenCalledWith({ type: "remove", name: "claude" }));
    expect(ipc.deleteApiKey).toHaveBeenCalledWith({ provider: "claude" });
  });

  it("shows a conflict and reads the file again", async () => {
    const c = controller({
      change: vi.fn(async () => Promise.reject({ code: "conflict", message: "config.toml changed on disk", retryable: false })),
    });
    render(<ProvidersPage controller={c} />);
    fireEvent.click(screen.getByRole("button", { name: "Use for new sessions" }));
    expect((await screen.findByTestId("providers-error")).textContent).toContain("changed on disk");
    expect(c.reload).toHaveBeenCalled();
  });

  it("says a broken config.toml must be fixed first and never offers to overwrite it", () => {
    const error = { code: "config", message: "config.toml:4:9: providers.x[0].model: expected a string" };
    render(<ProvidersPage controller={controller({ state: { status: "error", error: error as never } })} />);
    expect(screen.getByTestId("settings-config-error").textContent).toContain("config.toml:4:9");
    expect(screen.queryByTestId("provider-add")).toBeNull();
  });
  it("shows what config.toml says in a form worth changing, with where", async () => {
    const warning = '/home/u/.memo/config.toml:3:1: [model_profiles.qwen2.5-coder-1.5b] is read by TOML as nested tables';
    render(<ProvidersPage controller={controller({ state: { status: "ready", page: { ...PAGE, warnings: [warning] } } })} />);
    expect((await screen.findByTestId("providers-warning")).textContent).toBe(warning);
  });
});
