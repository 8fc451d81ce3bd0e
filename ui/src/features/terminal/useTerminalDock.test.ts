// @vitest-environment jsdom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { useTerminalDock } from "./useTerminalDock";

vi.mock("../../ipc", () => ({ ipc: { terminalCloseGroup: vi.fn(async () => undefined) } }));

afterEach(cleanup);

const toggleKey = (init: KeyboardEventInit = {}) =>
  act(() => {
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "`", code: "Backquote", ctrlKey: true, bubbles: true, cancelable: true, ...init }));
  });

describe("useTerminalDock", () => {
  it("shows and hides the panel on Ctrl+`, but leaves a key of an input method's composition alone", () => {
    const { result } = renderHook(() => useTerminalDock("/work/a"));
    expect(result.current.open).toBe(false);
    toggleKey({ isComposing: true });
    toggleKey({ keyCode: 229 });
    expect(result.current.open).toBe(false);
    toggleKey();
    expect(result.current.open).toBe(true);
    expect(result.current.folders).toEqual(["/work/a"]);
    toggleKey();
    expect(result.current.open).toBe(false);
  });
});
