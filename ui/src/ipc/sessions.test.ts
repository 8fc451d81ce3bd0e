import { beforeEach, describe, expect, it, vi } from "vitest";

import { CommandError } from "./errors";
import { deleteApiKey, keyStatus, setApiKey } from "./keys";
import {
  deleteSession,
  interruptTurn,
  listProviders,
  listSessions,
  renameSession,
  resolveApproval,
  resumeSession,
  rewindSession,
  searchSessions,
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

describe("session management commands", () => {
  it("renames, deletes and rewinds with the Rust argument names", async () => {
    invoke.mockResolvedValueOnce({ ...SUMMARY, title: "New title" });
    await expect(renameSession("s1", "New title")).resolves.toMatchObject({ title: "New title" });
    expect(invoke).toHaveBeenLastCalledWith("rename_session", { sessionId: "s1", title: "New title" });

    invoke.mockResolvedValueOnce(null);
    await expect(deleteSession("s1")).resolves.toBeUndefined();
    expect(invoke).toHaveBeenLastCalledWith("delete_session", { sessionId: "s1" });

    invoke.mockResolvedValueOnce({ session: { ...SUMMARY, id: "s2" }, text: "again" });
    await expect(rewindSession("s1", 12)).resolves.toEqual({ session: { ...SUMMARY, id: "s2" }, text: "again" });
    expect(invoke).toHaveBeenLastCalledWith("rewind_session", { sessionId: "s1", turnSeq: 12 });
  });

  it("refuses a rewind answer of the wrong shape instead of passing it on", async () => {
    invoke.mockResolvedValueOnce({ session: SUMMARY });
    const failure = await rewindSession("s1", 3).catch((raised: unknown) => raised);
    expect(failure).toBeInstanceOf(CommandError);
    expect((failure as CommandError).message).toContain("rewind_session returned an unexpected payload");
  });
});

describe("session search command", () => {
  it("searches with or without a folder and checks each result", async () => {
    const hit = { session: SUMMARY, seq: 3, role: "user", snippet: "a \uE000b\uE001", timestamp_ms: 5 };
    invoke.mockResolvedValueOnce([hit]);
    await expect(searchSessions("b", "/repo")).resolves.toEqual([hit]);
    expect(invoke).toHaveBeenLastCalledWith("search_sessions", { query: "b", cwd: "/repo" });
    invoke.mockResolvedValueOnce([]);
    await searchSessions("b");
    expect(invoke).toHaveBeenLastCalledWith("search_sessions", { query: "b" });
    invoke.mockResolvedValueOnce([{ ...hit, seq: "3" }]);
    await expect(searchSessions("b")).rejects.toThrow("search_sessions returned an unexpected payload");
  });
});

describe("API key commands", () => {
  it("send the provider (and the key only to set_api_key) and check the status shape", async () => {
    const status = { provider: "deepseek", source: "OS keychain", required: true, keychain_error: null };
    invoke.mockResolvedValueOnce(status);
    await expect(setApiKey("deepseek", "sk-1")).resolves.toEqual(status);
    expect(invoke).toHaveBeenLastCalledWith("set_api_key", { provider: "deepseek", key: "sk-1" });
    invoke.mockResolvedValueOnce({ ...status, source: null });
    await deleteApiKey("deepseek");
    expect(invoke).toHaveBeenLastCalledWith("delete_api_key", { provider: "deepseek" });
    invoke.mockResolvedValueOnce({ provider: "deepseek", required: "yes" });
    await expect(keyStatus("deepseek")).rejects.toThrow("key_status returned an unexpected payload");
  });
});

