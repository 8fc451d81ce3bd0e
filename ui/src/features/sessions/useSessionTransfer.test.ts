// @vitest-environment jsdom
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ImportReport } from "../../gen/protocol";
import { sessionSummary } from "../../test/fixtures";
import { SAVED_NOTICE_MS, useSessionTransfer } from "./useSessionTransfer";

// Plain functions, each test setting what they do: a rejection is made only when called.
const { ipc } = vi.hoisted(() => ({
  ipc: {
    pickSavePath: vi.fn(),
    pickFiles: vi.fn(),
    homeFolder: vi.fn(),
    exportSession: vi.fn(),
    importSessions: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  pickSavePath: ipc.pickSavePath,
  pickFiles: ipc.pickFiles,
  homeFolder: ipc.homeFolder,
  ipc: { exportSession: ipc.exportSession, importSessions: ipc.importSessions },
}));

const SESSION = sessionSummary({ id: "s1", title: "Fix the login bug" });

beforeEach(() => {
  Object.values(ipc).forEach((f) => f.mockReset());
  ipc.homeFolder.mockImplementation(async () => "/home/me");
});
afterEach(() => vi.useRealTimers());

describe("exportAs", () => {
  it("asks where with the session's name and the format's filter, writes there, and says where", async () => {
    ipc.pickSavePath.mockImplementation(async () => "/home/me/Documents/fix-the-login-bug.md");
    ipc.exportSession.mockImplementation(async () => 2048);
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    await act(() => result.current.exportAs(SESSION, "markdown"));
    expect(ipc.pickSavePath).toHaveBeenCalledWith("Export session as Markdown", "fix-the-login-bug.md", {
      name: "Markdown",
      extensions: ["md"],
    });
    expect(ipc.exportSession).toHaveBeenCalledWith({
      sessionId: "s1",
      path: "/home/me/Documents/fix-the-login-bug.md",
      format: "markdown",
    });
    expect(result.current.notice).toEqual({
      kind: "saved",
      path: "/home/me/Documents/fix-the-login-bug.md",
      shown: "~/Documents/fix-the-login-bug.md",
    });
    expect(result.current.busy).toBeNull();
  });

  it("offers .jsonl for Memo Code", async () => {
    ipc.pickSavePath.mockImplementation(async () => "/tmp/fix-the-login-bug.jsonl");
    ipc.exportSession.mockImplementation(async () => 10);
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    await act(() => result.current.exportAs(SESSION, "memo_code_jsonl"));
    expect(ipc.pickSavePath).toHaveBeenCalledWith("Export session for Memo Code", "fix-the-login-bug.jsonl", {
      name: "Memo Code session",
      extensions: ["jsonl"],
    });
    expect(ipc.exportSession).toHaveBeenCalledWith({ sessionId: "s1", path: "/tmp/fix-the-login-bug.jsonl", format: "memo_code_jsonl" });
    expect(result.current.notice).toMatchObject({ kind: "saved", shown: "/tmp/fix-the-login-bug.jsonl" });
  });

  it("does nothing when the dialog is cancelled", async () => {
    ipc.pickSavePath.mockImplementation(async () => null);
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    await act(() => result.current.exportAs(SESSION, "markdown"));
    expect(ipc.exportSession).not.toHaveBeenCalled();
    expect(result.current.notice).toBeNull();
    expect(result.current.busy).toBeNull();
  });

  it("keeps the error's message to show", async () => {
    ipc.pickSavePath.mockImplementation(async () => "/ro/a.md");
    ipc.exportSession.mockImplementation(async () => {
      throw { code: "io", message: "could not write /ro/a.md: read-only file system", retryable: false };
    });
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    await act(() => result.current.exportAs(SESSION, "markdown"));
    expect(result.current.notice).toEqual({
      kind: "failed",
      title: "Could not export “Fix the login bug”",
      message: "could not write /ro/a.md: read-only file system",
    });
  });

  it("lets the confirmation go after a while", async () => {
    vi.useFakeTimers();
    ipc.pickSavePath.mockImplementation(async () => "/tmp/a.md");
    ipc.exportSession.mockImplementation(async () => 1);
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    await act(() => result.current.exportAs(SESSION, "markdown"));
    expect(result.current.notice?.kind).toBe("saved");
    act(() => vi.advanceTimersByTime(SAVED_NOTICE_MS));
    expect(result.current.notice).toBeNull();
  });
});

describe("importFiles", () => {
  const REPORT: ImportReport = {
    files: [{ path: "/home/me/a.jsonl", status: "new", session_id: "s9", origin_id: "o1", events: 4, skipped_lines: [] }],
    failed: [{ path: "/home/me/b.jsonl", error: "not a Memo Code session" }],
  };

  it("imports the picked files, reads the list again and keeps the report", async () => {
    ipc.pickFiles.mockImplementation(async () => ["/home/me/a.jsonl", "/home/me/b.jsonl"]);
    ipc.importSessions.mockImplementation(async () => REPORT);
    const reload = vi.fn();
    const { result } = renderHook(() => useSessionTransfer(reload));
    await act(() => result.current.importFiles());
    expect(ipc.pickFiles).toHaveBeenCalledWith("Import sessions", [
      { name: "Memo Code sessions", extensions: ["jsonl"] },
      { name: "All files", extensions: ["*"] },
    ]);
    expect(ipc.importSessions).toHaveBeenCalledWith({ paths: ["/home/me/a.jsonl", "/home/me/b.jsonl"] });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.notice).toEqual({ kind: "imported", report: REPORT });
    act(() => result.current.dismiss());
    expect(result.current.notice).toBeNull();
  });

  it("does nothing when the dialog is cancelled", async () => {
    ipc.pickFiles.mockImplementation(async () => null);
    const reload = vi.fn();
    const { result } = renderHook(() => useSessionTransfer(reload));
    await act(() => result.current.importFiles());
    expect(ipc.importSessions).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    expect(result.current.notice).toBeNull();
  });

  it("shows why when the import or the dialog fails", async () => {
    ipc.pickFiles.mockImplementation(async () => {
      throw "dialog.open not allowed by ACL";
    });
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    await act(() => result.current.importFiles());
    expect(result.current.notice).toEqual({ kind: "failed", title: "Could not import sessions", message: "dialog.open not allowed by ACL" });
  });

  it("waits while the dialog is open", async () => {
    let answer: (paths: string[] | null) => void = () => undefined;
    ipc.pickFiles.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useSessionTransfer(() => undefined));
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = result.current.importFiles();
    });
    expect(result.current.busy).toBe("import");
    await act(async () => {
      answer(null);
      await done;
    });
    await waitFor(() => expect(result.current.busy).toBeNull());
  });
});
