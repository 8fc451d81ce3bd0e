import { beforeEach, describe, expect, it, vi } from "vitest";

import type { WindowSignal } from "../gen/protocol";

const { ipc, channels } = vi.hoisted(() => ({
  ipc: { subscribeWindowSignals: vi.fn() },
  channels: [] as Array<(signal: WindowSignal) => void>,
}));
vi.mock("../ipc", () => ({ ipc }));
vi.mock("@tauri-apps/api/core", () => ({
  Channel: class {
    constructor(onMessage: (signal: WindowSignal) => void) {
      channels.push(onMessage);
    }
  },
}));

describe("onWindowSignal", () => {
  beforeEach(() => {
    vi.resetModules();
    channels.length = 0;
    ipc.subscribeWindowSignals.mockReset();
  });

  it("opens one channel for every listener and hands each signal to the listeners of its kind", async () => {
    ipc.subscribeWindowSignals.mockResolvedValue(null);
    const { onWindowSignal } = await import("./windowSignals");
    const sessions = vi.fn();
    const folders = vi.fn();
    const stopSessions = onWindowSignal("open_session", sessions);
    onWindowSignal("open_requests", folders);
    expect(ipc.subscribeWindowSignals).toHaveBeenCalledTimes(1);
    expect(channels).toHaveLength(1);
    const send = channels[0] as (signal: WindowSignal) => void;

    send({ kind: "open_session", session_id: "s1" });
    send({ kind: "open_requests" });
    expect(sessions).toHaveBeenCalledWith({ kind: "open_session", session_id: "s1" });
    expect(folders).toHaveBeenCalledTimes(1);

    stopSessions();
    send({ kind: "open_session", session_id: "s2" });
    expect(sessions).toHaveBeenCalledTimes(1);
  });

  it("opens the channel again for the next listener when the shell refused it", async () => {
    ipc.subscribeWindowSignals.mockRejectedValueOnce(new Error("no")).mockResolvedValue(null);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { onWindowSignal } = await import("./windowSignals");
    onWindowSignal("open_requests", vi.fn());
    await vi.waitFor(() => expect(error).toHaveBeenCalled());
    onWindowSignal("open_requests", vi.fn());
    expect(ipc.subscribeWindowSignals).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });
});
