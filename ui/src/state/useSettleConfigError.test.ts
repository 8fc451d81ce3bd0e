// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import type { ProviderSummary } from "../gen/protocol";
import { IpcError } from "../ipc";
import type { Loadable } from "./useLoadable";
import { useSettleConfigError } from "./useSettleConfigError";

const provider = (is_current: boolean): ProviderSummary => ({ name: "local", model: "m", api: "openai", base_url: "http://x", is_current });
const fine = (): Loadable<ProviderSummary[]> => ({ status: "ready", value: [provider(true)] });
const unreadable = (): Loadable<ProviderSummary[]> => ({
  status: "error",
  error: new IpcError("list_providers", "config", "config.toml:3: expected '='", false),
});
const sendFailed = new IpcError("start_session", "config", "unknown provider 'openai' in config.toml", false);

function setup(error: IpcError | null, providers: Loadable<ProviderSummary[]>) {
  const recheck = vi.fn();
  const dismiss = vi.fn();
  const hook = renderHook(({ e, p }) => useSettleConfigError(e, p, recheck, dismiss), { initialProps: { e: error, p: providers } });
  return { recheck, dismiss, show: (p: Loadable<ProviderSummary[]>) => hook.rerender({ e: error, p }) };
}

describe("a failure about config.toml", () => {
  it("checks the file again at once, and goes by itself once a check finds it fixed", () => {
    // The file broke while the window had the focus: the last check still said fine.
    const { recheck, dismiss, show } = setup(sendFailed, fine());
    expect(recheck).toHaveBeenCalledTimes(1);
    show(unreadable()); // the re-check: broken (the engine's error, in the banner)
    expect(dismiss).not.toHaveBeenCalled();
    show(fine()); // fixed, read again on focus or after a save in Settings
    expect(dismiss).toHaveBeenCalledTimes(1);
  });

  it("goes once an unreadable file reads again", () => {
    const { dismiss, show } = setup(sendFailed, unreadable());
    show(unreadable());
    show(fine());
    expect(dismiss).toHaveBeenCalledTimes(1);
  });

  it("stays when no check ever found the file broken (a problem only a session sees)", () => {
    const { dismiss, show } = setup(sendFailed, fine());
    show(fine());
    show(fine());
    expect(dismiss).not.toHaveBeenCalled();
  });

  it("leaves other failures alone", () => {
    const { recheck, dismiss, show } = setup(new IpcError("send_message", "io", "disk full", false), unreadable());
    show(fine());
    expect(recheck).not.toHaveBeenCalled();
    expect(dismiss).not.toHaveBeenCalled();
  });
});
