import { beforeEach, describe, expect, it, vi } from "vitest";

import { getAppInfo } from "./commands";
import { CommandError } from "./errors";

// vi.mock is hoisted above the imports, so the mock fn must be hoisted with it.
const { invoke } = vi.hoisted(() => ({ invoke: vi.fn() }));
vi.mock("@tauri-apps/api/core", () => ({ invoke }));

const INFO = {
  version: "0.1.0",
  memo_home: "/tmp/memo",
  platform: "linux-x86_64",
  engine: "memo-engine 0.1.0",
};

describe("getAppInfo", () => {
  beforeEach(() => {
    invoke.mockReset();
  });

  it("calls the app_info command and returns its payload", async () => {
    invoke.mockResolvedValue(INFO);
    await expect(getAppInfo()).resolves.toEqual(INFO);
    expect(invoke).toHaveBeenCalledWith("app_info", undefined);
  });

  it("rejects a payload that does not match AppInfo", async () => {
    invoke.mockResolvedValue({ version: "0.1.0" });
    const failure = await getAppInfo().catch((raised: unknown) => raised);
    expect(failure).toBeInstanceOf(CommandError);
    expect((failure as CommandError).code).toBe("internal");
  });

  it("turns a Rust CommandError rejection into a typed CommandError", async () => {
    invoke.mockRejectedValue({ code: "config", message: "no home", retryable: false });
    const failure = await getAppInfo().catch((raised: unknown) => raised);
    if (!(failure instanceof CommandError)) {
      throw new Error(`expected a CommandError, got ${String(failure)}`);
    }
    expect([failure.code, failure.message, failure.retryable]).toEqual(["config", "no home", false]);
  });
});
