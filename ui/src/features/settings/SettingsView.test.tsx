// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { setUpI18n } from "../../i18n";
import { SettingsView } from "./SettingsView";

const { ipc } = vi.hoisted(() => ({
  ipc: {
    providerSettings: vi.fn(async () => ({
      config_path: "/home/u/.memo/config.toml",
      revision: "1-a",
      current_provider: null,
      providers: [],
      model_profiles: [],
      warnings: [],
    })),
    listSkills: vi.fn(async () => ({ skills: [], problems: [], filtered: false, config_revision: "1-a" })),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));
// The editor page reports itself dirty at once, as if the person had typed.
vi.mock("./FileEditorPage", async () => {
  const { useEffect } = await import("react");
  return {
    FileEditorPage: ({ onDirtyChange, title }: { onDirtyChange: (dirty: boolean) => void; title: string }) => {
      useEffect(() => onDirtyChange(true), [onDirtyChange]);
      return <p data-testid="fake-editor">{title}</p>;
    },
  };
});

afterEach(cleanup);

describe("SettingsView", () => {
  it("asks before leaving unsaved text, and stays when told to", async () => {
    const onClose = vi.fn();
    render(<SettingsView cwd="/repo" onClose={onClose} onProvidersChanged={vi.fn()} />);
    expect(await screen.findByTestId("providers-page")).toBeTruthy();
    fireEvent.click(screen.getByTestId("settings-nav-soul"));
    expect((await screen.findByTestId("fake-editor")).textContent).toBe("SOUL.md");

    fireEvent.click(screen.getByTestId("settings-nav-skills"));
    expect(await screen.findByTestId("confirm-dialog")).toBeTruthy();
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(screen.getByTestId("fake-editor")).toBeTruthy();

    fireEvent.click(screen.getByTestId("settings-close"));
    fireEvent.click(await screen.findByTestId("confirm-ok"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("offers the folder's instructions only with a folder open", async () => {
    const { rerender } = render(<SettingsView cwd={null} onClose={vi.fn()} onProvidersChanged={vi.fn()} />);
    await screen.findByTestId("providers-page");
    expect(screen.queryByTestId("settings-nav-instructions")).toBeNull();
    rerender(<SettingsView cwd="/work/app" onClose={vi.fn()} onProvidersChanged={vi.fn()} />);
    expect(screen.getByTestId("settings-nav-instructions").textContent).toContain("AGENTS.md of app");
  });

  it("closes a page's dialog on Esc and leaves Settings open; the next Esc closes Settings", async () => {
    ipc.providerSettings.mockResolvedValueOnce({
      config_path: "/home/u/.memo/config.toml",
      revision: "1-a",
      current_provider: "local",
      providers: [
        {
          name: "local",
          api: "openai",
          model: "qwen",
          base_url: null,
          effective_base_url: "http://127.0.0.1:8080/v1",
          env_api_key: null,
          is_current: true,
          key: { provider: "local", source: null, required: false, keychain_error: null },
        },
      ],
      model_profiles: [],
      warnings: [],
    } as never);
    const onClose = vi.fn();
    render(<SettingsView cwd="/repo" onClose={onClose} onProvidersChanged={vi.fn()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    fireEvent.keyDown(await screen.findByTestId("confirm-cancel"), { key: "Escape" });
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    // An input method's Esc (keyCode 229: it drops the composition) leaves Settings open.
    fireEvent.keyDown(document.body, { key: "Escape", keyCode: 229 });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("names its sections in Chinese when the page is in Chinese", async () => {
    await setUpI18n("zh");
    try {
      render(<SettingsView cwd="/work/app" onClose={vi.fn()} onProvidersChanged={vi.fn()} />);
      await screen.findByTestId("providers-page");
      expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("设置");
      expect(screen.getByTestId("settings-nav-instructions").textContent).toBe("项目说明app 的 AGENTS.md");
      expect(screen.getByTestId("settings-close").textContent).toBe("完成");
      expect(document.querySelector(".settings-page__lead code")?.textContent).toBe("/home/u/.memo/config.toml");
    } finally {
      setUpI18n("en");
    }
  });
});
