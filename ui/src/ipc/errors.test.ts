import { describe, expect, it } from "vitest";

import { ERROR_CODES } from "../gen/protocol";
import { CommandError, toCommandError, type CommandErrorPayload } from "./errors";
import wireFixture from "./fixtures/command-error.json";

describe("toCommandError", () => {
  it("maps the Rust CommandError wire shape (shared fixture)", () => {
    const payload = wireFixture as CommandErrorPayload;
    expect(ERROR_CODES).toContain(payload.code);

    const error = toCommandError("app_info", payload);
    expect(error).toBeInstanceOf(CommandError);
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("engine is starting");
    expect(error.retryable).toBe(true);
    expect(error.command).toBe("app_info");
  });

  it("keeps an unknown code's message but treats it as internal", () => {
    const error = toCommandError("x", { code: "brand_new", message: "boom", retryable: true });
    expect(error.code).toBe("internal");
    expect(error.message).toBe("boom");
    expect(error.retryable).toBe(true);
  });

  it("never marks an error retryable unless the shell said so", () => {
    const error = toCommandError("x", { code: "io", message: "disk", retryable: "yes" });
    expect(error.retryable).toBe(false);
  });

  it("maps Tauri's bare string rejections to ipc errors", () => {
    const error = toCommandError("app_info", "Command app_info not allowed by ACL");
    expect(error.code).toBe("ipc");
    expect(error.message).toContain("not allowed");
    expect(error.retryable).toBe(false);
  });

  it("maps thrown Errors (no Tauri runtime) to ipc errors", () => {
    const error = toCommandError("app_info", new TypeError("window.__TAURI_INTERNALS__ is undefined"));
    expect(error.code).toBe("ipc");
    expect(error.message).toContain("__TAURI_INTERNALS__");
  });

  it("describes values of any other type", () => {
    expect(toCommandError("app_info", 42).message).toBe("app_info failed: 42");
  });

  it("passes an existing CommandError through unchanged", () => {
    const original = new CommandError("a", "not_found", "missing", false);
    expect(toCommandError("b", original)).toBe(original);
  });
});
