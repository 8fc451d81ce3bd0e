// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ProviderChange, ProviderSettingsPage } from "../../gen/protocol";
import { ProvidersPage } from "./ProvidersPage";
import { useProviderSettings } from "./useProviderSettings";

/**
 * config.toml as the backend sees it: a save succeeds only with the file's revision
 * (else `conflict`, as update_providers does). Plain functions, no rejected mocks.
 */
const disk = vi.hoisted(() => ({
  page: null as unknown as ProviderSettingsPage,
  saves: [] as { change: ProviderChange; revision: string }[],
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ipc: {
    providerSettings: async () => disk.page,
    updateProviders: async (args: { change: ProviderChange; revision: string }) => {
      disk.saves.push(args);
      if (args.revision !== disk.page.revision) {
        throw { code: "conflict", message: "config.toml changed on disk since it was read", retryable: false };
      }
      const change = args.change;
      if (change.type === "save") {
        const providers = disk.page.providers.map((p) =>
          p.name === change.original ? { ...p, ...change.provider, effective_base_url: change.provider.base_url ?? "" } : p,
        );
        disk.page = { ...disk.page, providers, revision: `${disk.page.revision}+` };
      }
      return disk.page;
    },
  },
}));

const LOCAL = {
  name: "local",
  api: "openai",
  model: "qwen",
  base_url: "http://127.0.0.1:8080/v1",
  effective_base_url: "http://127.0.0.1:8080/v1",
  env_api_key: null,
  is_current: true,
  key: { provider: "local", source: null, required: false, keychain_error: null },
};

const PAGE: ProviderSettingsPage = {
  config_path: "/home/u/.memo/config.toml",
  revision: "r1",
  current_provider: "local",
  providers: [LOCAL],
  model_profiles: [],
  warnings: [],
};

/** Someone (an editor, the agent) changes config.toml while Settings is open. */
function changeOnDisk(patch: Partial<typeof LOCAL>, revision: string) {
  disk.page = { ...disk.page, revision, providers: disk.page.providers.map((p) => ({ ...p, ...patch })) };
}

function Settings() {
  return <ProvidersPage controller={useProviderSettings()} />;
}

beforeEach(() => {
  disk.page = PAGE;
  disk.saves.length = 0;
});
afterEach(cleanup);

async function openEdit() {
  fireEvent.click(await screen.findByTestId("provider-edit"));
  return screen.findByTestId("provider-form");
}

describe("Settings → Providers after config.toml changed on disk", () => {
  it("reads the file again when a form opens, so its save uses the current revision", async () => {
    render(<Settings />);
    await screen.findByTestId("provider-edit");
    changeOnDisk({ model: "qwen-2" }, "r2");
    await openEdit();
    // The form starts from the file as it is now, not the page read when Settings opened.
    expect((screen.getByTestId("provider-model") as HTMLInputElement).value).toBe("qwen-2");
    fireEvent.change(screen.getByTestId("provider-model"), { target: { value: "qwen-3" } });
    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(screen.queryByTestId("provider-form")).toBeNull());
    expect(disk.saves.map((s) => s.revision)).toEqual(["r2"]);
    expect(screen.queryByTestId("provider-form-error")).toBeNull();
  });

  it("offers Reload on a conflict, which reads the new revision and keeps what was typed", async () => {
    render(<Settings />);
    await openEdit();
    fireEvent.change(screen.getByTestId("provider-model"), { target: { value: "mine" } });
    // The file changes while the form is open: the base URL there, nothing the person typed.
    changeOnDisk({ base_url: "http://127.0.0.1:9090/v1" }, "r2");
    fireEvent.click(screen.getByTestId("provider-save"));
    expect((await screen.findByTestId("provider-form-error")).textContent).toContain("changed on disk");

    fireEvent.click(screen.getByTestId("provider-form-reload"));
    await waitFor(() => expect(screen.queryByTestId("provider-form-error")).toBeNull());
    // Typed: kept. Untouched: the file's new value, said so rather than silently.
    expect((screen.getByTestId("provider-model") as HTMLInputElement).value).toBe("mine");
    expect((screen.getByTestId("provider-base-url") as HTMLInputElement).value).toBe("http://127.0.0.1:9090/v1");
    expect(screen.getByTestId("provider-form-notice").textContent).toContain("Base URL");

    fireEvent.click(screen.getByTestId("provider-save"));
    await waitFor(() => expect(screen.queryByTestId("provider-form")).toBeNull());
    expect(disk.saves.map((s) => s.revision)).toEqual(["r1", "r2"]);
    expect(disk.saves[1]?.change).toMatchObject({
      type: "save",
      provider: { model: "mine", base_url: "http://127.0.0.1:9090/v1" },
    });
  });

  it("names a field both the person and the file changed, and keeps the person's", async () => {
    render(<Settings />);
    await openEdit();
    fireEvent.change(screen.getByTestId("provider-model"), { target: { value: "mine" } });
    changeOnDisk({ model: "theirs" }, "r2");
    fireEvent.click(screen.getByTestId("provider-save"));
    fireEvent.click(await screen.findByTestId("provider-form-reload"));
    expect((await screen.findByTestId("provider-form-notice")).textContent).toMatch(/Model changed there too.*keeps what you typed/);
    expect((screen.getByTestId("provider-model") as HTMLInputElement).value).toBe("mine");
  });

  it("says so when the provider being edited left the file, instead of dropping the form silently", async () => {
    render(<Settings />);
    await openEdit();
    fireEvent.change(screen.getByTestId("provider-model"), { target: { value: "mine" } });
    changeOnDisk({ name: "renamed" }, "r2");
    fireEvent.click(screen.getByTestId("provider-save"));
    fireEvent.click(await screen.findByTestId("provider-form-reload"));
    expect((await screen.findByTestId("providers-lost")).textContent).toContain("local is no longer in config.toml");
  });
});
