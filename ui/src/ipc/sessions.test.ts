import { beforeEach, describe, expect, it, vi } from "vitest";

import { CALL_NAMES } from "../gen/ipc";
import { sessionSummary } from "../test/fixtures";
import { IpcError } from "./errors";
import { ipc } from "./invoke";
import { interruptTurn, resolveApproval, sendUserTurn, subscribeSession } from "./sessions";

// A stand-in Channel that remembers its handler, so a test can play the Rust side.
const { invoke, FakeChannel } = vi.hoisted(() => {
  class FakeChannel<T> {
    constructor(public onmessage: (message: T) => void) {}
  }
  return { invoke: vi.fn(), FakeChannel };
});
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: FakeChannel }));

const SUMMARY = sessionSummary({ last_seq: 7 });

beforeEach(() => {
  invoke.mockReset();
});

describe("generated command bindings", () => {
  it("have one function per Rust command, each calling that command", async () => {
    invoke.mockResolvedValue(null);
    const names = Object.keys(ipc);
    expect(names).toHaveLength(CALL_NAMES.length);
    for (const name of CALL_NAMES) {
      const camel = name.replace(/_(.)/g, (_, c: string) => c.toUpperCase()) as keyof typeof ipc;
      expect(typeof ipc[camel]).toBe("function");
    }
    await ipc.appInfo();
    expect(invoke).toHaveBeenLastCalledWith("app_info", {});
  });

  it("pass camelCase arguments that Tauri maps to the snake_case parameters", async () => {
    invoke.mockResolvedValue(SUMMARY);
    await ipc.resumeSession({ sessionId: "s1" });
    expect(invoke).toHaveBeenLastCalledWith("resume_session", { sessionId: "s1" });
    await ipc.startSession({ cwd: "/repo" });
    expect(invoke).toHaveBeenLastCalledWith("start_session", { cwd: "/repo" });
    await ipc.rewindSession({ sessionId: "s1", turnSeq: 12 });
    expect(invoke).toHaveBeenLastCalledWith("rewind_session", { sessionId: "s1", turnSeq: 12 });
  });

  it("turn a Rust IpcError rejection into a typed IpcError naming the command", async () => {
    invoke.mockRejectedValue({ code: "config", message: "config.toml:3: bad key", retryable: false });
    const failure = await ipc.listProviders().catch((raised: unknown) => raised);
    expect(failure).toBeInstanceOf(IpcError);
    expect((failure as IpcError).code).toBe("config");
    expect((failure as IpcError).command).toBe("list_providers");
    expect((failure as IpcError).message).toContain("config.toml:3");
  });
});

describe("session helpers", () => {
  it("subscribe with a channel that delivers batches to the handler", async () => {
    invoke.mockResolvedValue(null);
    const batches: unknown[] = [];
    await subscribeSession("s1", 4, (batch) => batches.push(batch));
    const [command, args] = invoke.mock.calls[0] as [string, Record<string, unknown>];
    expect(command).toBe("subscribe_session");
    expect(args.sessionId).toBe("s1");
    expect(args.afterSeq).toBe(4);
    const channel = args.onEvents as InstanceType<typeof FakeChannel<unknown[]>>;
    channel.onmessage([{ seq: 5 }]);
    expect(batches).toEqual([[{ seq: 5 }]]);
  });

  it("submit ops in the protocol's shape", async () => {
    invoke.mockResolvedValue(null);
    await sendUserTurn("s1", "hi");
    expect(invoke).toHaveBeenLastCalledWith("submit_op", {
      sessionId: "s1",
      op: { type: "user_turn", input: { text: "hi" } },
    });
    await interruptTurn("s1");
    expect(invoke).toHaveBeenLastCalledWith("submit_op", { sessionId: "s1", op: { type: "interrupt" } });
    await resolveApproval("s1", "r1", { type: "deny", reason: "no" });
    expect(invoke).toHaveBeenLastCalledWith("submit_op", {
      sessionId: "s1",
      op: { type: "resolve_approval", request_id: "r1", decision: { type: "deny", reason: "no" } },
    });
  });

  it("turn a refused op into a IpcError", async () => {
    invoke.mockRejectedValue({ code: "not_found", message: "session s1 is not open", retryable: false });
    const failure = await interruptTurn("s1").catch((raised: unknown) => raised);
    expect((failure as IpcError).code).toBe("not_found");
  });
});
