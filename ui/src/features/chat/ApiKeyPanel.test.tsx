// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { KeyStatus } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { ApiKeyPanel, type KeyActions } from "./ApiKeyPanel";

afterEach(cleanup);

const NONE: KeyStatus = { provider: "deepseek", source: null, required: true, keychain_error: null };
const STORED: KeyStatus = { ...NONE, source: "OS keychain" };

function actions(overrides: Partial<KeyActions> = {}): KeyActions {
  return {
    status: vi.fn(async () => NONE),
    save: vi.fn(async () => STORED),
    remove: vi.fn(async () => NONE),
    ...overrides,
  };
}

describe("ApiKeyPanel", () => {
  it("says where the key comes from, stores a pasted one and closes", async () => {
    const a = actions();
    const onClose = vi.fn();
    render(<ApiKeyPanel provider="deepseek" actions={a} onClose={onClose} />);
    expect((await screen.findByTestId("api-key-status")).textContent).toBe("No key is stored yet.");
    const input = screen.getByTestId("api-key-input") as HTMLInputElement;
    expect(input.type).toBe("password");
    fireEvent.change(input, { target: { value: "sk-123" } });
    fireEvent.click(screen.getByRole("button", { name: "Save to keychain" }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(a.save).toHaveBeenCalledWith("deepseek", "sk-123");
  });

  it("keeps the panel open with the reason when the keychain refuses", async () => {
    const a = actions({ save: vi.fn(async () => Promise.reject(new Error("the keychain is locked"))) });
    const onClose = vi.fn();
    render(<ApiKeyPanel provider="deepseek" actions={a} onClose={onClose} />);
    fireEvent.change(screen.getByTestId("api-key-input"), { target: { value: "sk-1" } });
    fireEvent.submit(screen.getByTestId("api-key-input"));
    expect((await screen.findByTestId("api-key-error")).textContent).toBe("the keychain is locked");
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByTestId("api-key-input") as HTMLInputElement).value).toBe("sk-1");
  });

  it("offers to remove a stored key, and explains env keys and local servers", async () => {
    const a = actions({ status: vi.fn(async () => STORED) });
    const { rerender } = render(<ApiKeyPanel provider="deepseek" actions={a} onClose={vi.fn()} />);
    fireEvent.click(await screen.findByRole("button", { name: "Remove stored key" }));
    await waitFor(() => expect(screen.getByTestId("api-key-status").textContent).toBe("No key is stored yet."));
    expect(a.remove).toHaveBeenCalledWith("deepseek");

    const env = actions({ status: vi.fn(async () => ({ ...NONE, source: "environment variable DEEPSEEK_API_KEY" })) });
    rerender(<ApiKeyPanel key="env" provider="deepseek" actions={env} onClose={vi.fn()} />);
    expect((await screen.findByText("The key comes from the environment variable DEEPSEEK_API_KEY.")).textContent).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Remove stored key" })).toBeNull();

    const local = actions({ status: vi.fn(async () => ({ ...NONE, required: false })) });
    rerender(<ApiKeyPanel key="local" provider="ollama" actions={local} onClose={vi.fn()} />);
    expect(await screen.findByText("This provider runs on this machine and needs no key.")).toBeTruthy();
  });
});

describe("ApiKeyPanel in Chinese", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("names where the engine found the key in Chinese", async () => {
    await setUpI18n("zh");
    const env = actions({ status: vi.fn(async () => ({ ...NONE, source: "environment variable DEEPSEEK_API_KEY" })) });
    const { rerender } = render(<ApiKeyPanel provider="deepseek" actions={env} onClose={vi.fn()} />);
    expect((await screen.findByTestId("api-key-status")).textContent).toBe("密钥来自环境变量 DEEPSEEK_API_KEY。");
    expect(screen.getByTestId("api-key-panel").getAttribute("aria-label")).toBe("deepseek 的 API 密钥");

    rerender(<ApiKeyPanel key="stored" provider="deepseek" actions={actions({ status: vi.fn(async () => STORED) })} onClose={vi.fn()} />);
    expect((await screen.findByRole("button", { name: "移除已保存的密钥" })).textContent).toBeTruthy();
    expect(screen.getByTestId("api-key-status").textContent).toBe("密钥来自系统钥匙串。");
  });
});
