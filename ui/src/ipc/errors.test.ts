import { describe, expect, it } from "vitest";

import { ERROR_CODES } from "../gen/protocol";
import { IpcError, toIpcError, type IpcErrorPayload } from "./errors";
import wireFixture from "./fixtures/ipc-error.json";

describe("toIpcError", () => {
  it("maps the Rust IpcError wire shape (shared fixture)", () => {
    const payload = wireFixture as IpcErrorPayload;
    expect(ERROR_CODES).toContain(payload.code);

    const error = toIpcError("app_info", payload);
    expect(error).toBeInstanceOf(IpcError);
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("engine is starting");
    expect(error.retryable).toBe(true);
    expect(error.command).toBe("app_info");
  });

  it("keeps an unknown code's message but treats it as internal", () => {
    const error = toIpcError("x", { code: "brand_new", message: "boom", retryable: true });
    expect(error.code).toBe("internal");
    expect(error.message).toBe("boom");
    expect(error.retryable).toBe(true);
  });

  it("never marks an error retryable unless the shell said so", () => {
    const error = toIpcError("x", { code: "io", message: "disk", retryable: "yes" });
    expect(error.retryable).toBe(false);
  });

  it("maps Tauri's bare string rejections to ipc errors", () => {
    const error = toIpcError("app_info", "Command app_info not allowed by ACL");
    expect(error.code).toBe("ipc");
    expect(error.message).toContain("not allowed");
    expect(error.retryable).toBe(false);
  });

  it("maps thrown Errors (no Tauri runtime) to ipc errors", () => {
    const error = toIpcError("app_info", new TypeError("window.__TAURI_INTERNALS__ is undefined"));
    expect(error.code).toBe("ipc");
    expect(error.message).toContain("__TAURI_INTERNALS__");
  });

  it("describes values of any other type", () => {
    expect(toIpcError("app_info", 42).message).toBe("app_info failed: 42");
  });

  it("passes an existing IpcError through unchanged", () => {
    const original = new IpcError("a", "not_found", "missing", false);
    expect(toIpcError("b", original)).toBe(original);
  });
});
