// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { useWindowReturn } from "./useWindowReturn";

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}

describe("coming back to the window", () => {
  it("re-checks on the focus and when the window shows again, not when it hides", () => {
    const onReturn = vi.fn();
    const { unmount } = renderHook(() => useWindowReturn(onReturn));
    window.dispatchEvent(new Event("focus"));
    expect(onReturn).toHaveBeenCalledTimes(1);
    setVisibility("hidden");
    expect(onReturn).toHaveBeenCalledTimes(1);
    setVisibility("visible");
    expect(onReturn).toHaveBeenCalledTimes(2);
    unmount();
    window.dispatchEvent(new Event("focus"));
    setVisibility("visible");
    expect(onReturn).toHaveBeenCalledTimes(2);
  });
});
