// @vitest-environment jsdom
import { act, renderHook, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { SessionActivity } from "../gen/protocol";
import { sessionActivity } from "../test/fixtures";
import { useActivity } from "./useActivity";

const { ipc, channels } = vi.hoisted(() => ({
  ipc: { subscribeActivity: vi.fn(), setWaitingCount: vi.fn(), notifySession: vi.fn() },
  channels: [] as Array<(snapshot: SessionActivity[]) => void>,
}));
vi.mock("../ipc", () => ({ ipc }));
vi.mock("./windowSignals", () => ({ onWindowSignal: () => () => undefined }));
vi.mock("@tauri-apps/api/core", () => ({
  Channel: class {
    constructor(onMessage: (snapshot: SessionActivity[]) => void) {
      channels.push(onMessage);
    }
  },
}));

describe("useActivity", () => {
  beforeEach(() => {
    channels.length = 0;
    ipc.subscribeActivity.mockReset();
    ipc.setWaitingCount.mockResolvedValue(null);
    ipc.notifySession.mockResolvedValue(true);
  });

  it("shows the list the channel sends first, then each change", async () => {
    ipc.subscribeActivity.mockResolvedValue(null);
    const { result } = renderHook(() => useActivity("home", null, () => undefined));
    await waitFor(() => expect(channels).toHaveLength(1));
    act(() => channels[0]?.([sessionActivity({ state: "running" })]));
    expect(result.current.byId.get("s1")?.state).toBe("running");
    act(() => channels[0]?.([sessionActivity({ state: "idle", turns_ended: 1 })]));
    expect(result.current.byId.get("s1")?.state).toBe("idle");
  });
});
