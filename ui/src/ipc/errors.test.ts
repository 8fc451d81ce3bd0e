import { describe, expect, it } from "vitest";

import { ERROR_CODES } from "../gen/protocol";
import { IpcError, toIpcError, type IpcErrorPayload } from "./errors";
import { setUpI18n } from "../i18n";
import wireFixture from "./fixtures/ipc-error.json";
import phraseFixture from "./fixtures/ipc-error-phrase.json";

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

  it("words a failure Rust said as a phrase in the window's language (shared fixture)", async () => {
    expect(toIpcError("check_folder", phraseFixture).message).toBe("No such folder: /home/me/projcet");
    await setUpI18n("zh");
    try {
      const error = toIpcError("check_folder", phraseFixture);
      expect(error.message).toBe("文件夹不存在：/home/me/projcet");
      expect(error.phrase).toEqual({ code: "folder_missing", path: "/home/me/projcet" });
      expect(error.code).toBe("invalid_input");
    } finally {
      await setUpI18n("en");
    }
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
