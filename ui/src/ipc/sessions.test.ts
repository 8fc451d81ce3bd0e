import { beforeEach, describe, expect, it, vi } from "vitest";

import { CommandError } from "./errors";
import {
  interruptTurn,
  listProviders,
  listSessions,
  resolveApproval,
  resumeSession,
  sendUserTurn,
  startSession,
  subscribeSession,
} from "./sessions";

// A stand-in Channel that remembers its handler, so a test can play the Rust side.
const { invoke, FakeChannel } = vi.hoisted(() => {
  class FakeChannel<T> {
    constructor(public onmessage: (message: T) => void) {}
  }
  return { invoke: vi.fn(), FakeChannel };
});
vi.mock("@tauri-apps/api/core", () => ({ invoke, Channel: FakeChannel }));

const SUMMARY = {
  id: "s1",
  title: null,
  cwd: "/repo",
  provider: "mock",
  model: "m1",
  created_ms: 1,
  updated_ms: 2,
  last_seq: 7,
};

const PROVIDER = { name: "mock", model: "m1", api: "openai", base_url: "http://x/v1", is_current: true };

beforeEach(() => {
  invoke.mockReset();
});

describe("session commands", () => {
  it("lists providers", async () => {
    invoke.mockResolvedValue([PROVIDER]);
    await expect(listProviders()).resolves.toEqual([PROVIDER]);
    expect(invoke).toHaveBeenCalledWith("list_providers", undefined);
  });

  it("keeps a config error's code and message", async () => {
    invoke.mockRejectedValue({ code: "config", message: "config.toml:3: bad key", retryable: false });
    const failure = await listProviders().catch((raised: unknown) => raised);
    expect(failure).toBeInstanceOf(CommandError);
    expect((failure as CommandError).code).toBe("config");
    expect((failure as CommandError).message).toContain("config.toml:3");
  });

  it("starts a session with only the arguments given", async () => {
    invoke.mockResolvedValue(SUMMARY);
    await expect(startSession({ cwd: "/repo" })).resolves.toEqual(SUMMARY);
    expect(invoke).toHaveBeenCalledWith("start_session", { cwd: "/repo" });
  });

  it("passes camelCase ids that Tauri maps to snake_case parameters", async () => {
    invoke.mockResolvedValue(SUMMARY);
    await resumeSession("s1");
    expect(invoke).toHaveBeenCalledWith("resume_session", { sessionId: "s1" });
  });

  it("lists sessions of one folder or of all", async () => {
    invoke.mockResolvedValue([SUMMARY]);
    await expect(listSessions("/repo")).resolves.toEqual([SUMMARY]);
    expect(invoke).toHaveBeenLastCalledWith("list_sessions", { cwd: "/repo" });
    await listSessions();
    expect(invoke).toHaveBeenLastCalledWith("list_sessions", {});
  });

  it("rejects a session list of the wrong shape", async () => {
    invoke.mockResolvedValue([{ id: "s1" }]);
    const failure = await listSessions().catch((raised: unknown) => raised);
    expect((failure as CommandError).code).toBe("internal");
  });

  it("subscribes with a channel that delivers batches to the handler", async () => {
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

  it("submits ops in the protocol's shape", async () => {
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

  it("turns a refused op into a CommandError", async () => {
    invoke.mockRejectedValue({ code: "not_found", message: "session s1 is not open", retryable: false });
    const failure = await interruptTurn("s1").catch((raised: unknown) => raised);
    expect((failure as CommandError).code).toBe("not_found");
  });
});
