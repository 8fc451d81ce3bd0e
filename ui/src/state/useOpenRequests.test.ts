// @vitest-environment jsdom
import { renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { useOpenRequests } from "./useOpenRequests";

const { ipc, listeners } = vi.hoisted(() => ({
  ipc: { takeOpenRequests: vi.fn() },
  listeners: new Map<string, () => void>(),
}));
vi.mock("../ipc", () => ({ ipc }));
vi.mock("./windowSignals", () => ({
  onWindowSignal: vi.fn((kind: string, handler: () => void) => {
    listeners.set(kind, handler);
    return () => listeners.delete(kind);
  }),
}));

describe("useOpenRequests", () => {
  it("opens the launch folder once ready, then each folder a second launch hands over", async () => {
    ipc.takeOpenRequests.mockResolvedValueOnce(["/work/app"]).mockResolvedValueOnce(["/work/other"]);
    const open = vi.fn();
    const { rerender, unmount } = renderHook(({ ready }) => useOpenRequests(ready ? open : null), {
      initialProps: { ready: false },
    });
    expect(ipc.takeOpenRequests).not.toHaveBeenCalled();
    rerender({ ready: true });
    await waitFor(() => expect(open).toHaveBeenCalledWith("/work/app"));
    await waitFor(() => expect(listeners.has("open_requests")).toBe(true));
    listeners.get("open_requests")?.();
    await waitFor(() => expect(open).toHaveBeenCalledWith("/work/other"));
    unmount();
    await waitFor(() => expect(listeners.size).toBe(0));
  });
});
