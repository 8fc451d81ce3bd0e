// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ImportReport, SessionSummary } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { SessionList } from "./SessionList";
import { sessionSummary } from "../../test/fixtures";
import { useSheets } from "../../test/styles";

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

afterEach(cleanup);
beforeEach(() => {
  Object.values(ipc).forEach((f) => f.mockReset());
  ipc.homeFolder.mockImplementation(async () => "/home/u");
});

const SESSIONS: SessionSummary[] = [
  sessionSummary({ id: "s1", title: "Fix the parser", cwd: "/w", updated_ms: 2, last_seq: 9 }),
  sessionSummary({ id: "s2", title: "Write docs", cwd: "/w", last_seq: 4 }),
];

function setup(overrides: Partial<Parameters<typeof SessionList>[0]> = {}) {
  const props = {
    folderOpen: true,
    sessions: { status: "ready" as const, value: SESSIONS },
    activeId: "s1",
    onOpen: vi.fn(),
    onNew: vi.fn(),
    onRename: vi.fn(async () => undefined),
    onDelete: vi.fn(async () => undefined),
    ...overrides,
  };
  render(<SessionList {...props} />);
  return props;
}

describe("SessionList rename", () => {
  it("edits the title in place and saves on Enter", async () => {
    const props = setup();
    fireEvent.click(screen.getAllByTestId("session-rename")[1] as HTMLElement);
    const input = screen.getByTestId("session-rename-input") as HTMLInputElement;
    expect(input.value).toBe("Write docs");
    fireEvent.change(input, { target: { value: "Write the README" } });
    fireEvent.submit(input);
    await waitFor(() => expect(screen.queryByTestId("session-rename-input")).toBeNull());
    expect(props.onRename).toHaveBeenCalledWith(SESSIONS[1], "Write the README");
  });

  it("keeps the field and shows why when the rename is refused; Esc cancels", async () => {
    const props = setup({ onRename: vi.fn(async () => Promise.reject(new Error("a session title cannot be empty"))) });
    fireEvent.click(screen.getAllByTestId("session-rename")[0] as HTMLElement);
    const input = screen.getByTestId("session-rename-input") as HTMLInputElement;
    fireEvent.change(input, { target: { value: "   " } });
    fireEvent.submit(input);
    await screen.findByText("a session title cannot be empty");
    expect(screen.getByTestId("session-rename-input")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("session-rename-input")).toBeNull();
    expect(screen.queryByTestId("session-action-error")).toBeNull();
    expect(props.onOpen).not.toHaveBeenCalled();
  });

  it("leaves Esc to an input method while it composes: the rename stays, and the next Esc cancels", () => {
    setup();
    fireEvent.click(screen.getAllByTestId("session-rename")[0] as HTMLElement);
    const input = screen.getByTestId("session-rename-input");
    fireEvent.keyDown(input, { key: "Escape", isComposing: true });
    expect(screen.getByTestId("session-rename-input")).toBe(input);
    fireEvent.keyDown(input, { key: "Escape", keyCode: 229 });
    expect(screen.getByTestId("session-rename-input")).toBe(input);
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("session-rename-input")).toBeNull();
  });

  it("does not call the backend when the title did not change", () => {
    const props = setup();
    fireEvent.click(screen.getAllByTestId("session-rename")[0] as HTMLElement);
    fireEvent.submit(screen.getByTestId("session-rename-input"));
    expect(props.onRename).not.toHaveBeenCalled();
    expect(screen.queryByTestId("session-rename-input")).toBeNull();
  });
});

describe("SessionList delete", () => {
  it("asks first, and deletes only on confirmation", async () => {
    const props = setup();
    fireEvent.click(screen.getAllByTestId("session-delete")[0] as HTMLElement);
    const confirm = screen.getByTestId("session-delete-confirm");
    expect(confirm.textContent).toContain("Fix the parser");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(props.onDelete).not.toHaveBeenCalled();
    expect(screen.queryByTestId("session-delete-confirm")).toBeNull();

    fireEvent.click(screen.getAllByTestId("session-delete")[0] as HTMLElement);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(props.onDelete).toHaveBeenCalledWith(SESSIONS[0]));
    await waitFor(() => expect(screen.queryByTestId("session-delete-confirm")).toBeNull());
  });
});

describe("SessionList export", () => {
  const openMenu = (row: number) => fireEvent.click(screen.getAllByTestId("session-menu")[row] as HTMLElement);

  it("offers both exports in the row's menu, and writes Markdown where the dialog says", async () => {
    ipc.pickSavePath.mockImplementation(async () => "/home/u/Documents/fix-the-parser.md");
    ipc.exportSession.mockImplementation(async () => 512);
    setup();
    openMenu(0);
    const items = screen.getAllByRole("menuitem").map((item) => item.textContent);
    expect(items).toEqual(["Export as Markdown…", "Export for Memo Code (.jsonl)…"]);
    fireEvent.click(screen.getByTestId("session-export-markdown"));
    expect(screen.queryByRole("menu")).toBeNull();
    expect((await screen.findByTestId("export-saved")).textContent).toBe("Saved to ~/Documents/fix-the-parser.md");
    expect(ipc.pickSavePath).toHaveBeenCalledWith("Export session as Markdown", "fix-the-parser.md", {
      name: "Markdown",
      extensions: ["md"],
    });
    expect(ipc.exportSession).toHaveBeenCalledWith({ sessionId: "s1", path: "/home/u/Documents/fix-the-parser.md", format: "markdown" });
  });

  it("exports for Memo Code as .jsonl", async () => {
    ipc.pickSavePath.mockImplementation(async () => "/tmp/write-docs.jsonl");
    ipc.exportSession.mockImplementation(async () => 80);
    setup();
    openMenu(1);
    fireEvent.click(screen.getByTestId("session-export-memo_code_jsonl"));
    await screen.findByTestId("export-saved");
    expect(ipc.pickSavePath).toHaveBeenCalledWith("Export session for Memo Code", "write-docs.jsonl", {
      name: "Memo Code session",
      extensions: ["jsonl"],
    });
    expect(ipc.exportSession).toHaveBeenCalledWith({ sessionId: "s2", path: "/tmp/write-docs.jsonl", format: "memo_code_jsonl" });
  });

  it("does nothing when the save dialog is cancelled", async () => {
    ipc.pickSavePath.mockImplementation(async () => null);
    setup();
    openMenu(0);
    fireEvent.click(screen.getByTestId("session-export-markdown"));
    await waitFor(() => expect(ipc.pickSavePath).toHaveBeenCalledTimes(1));
    // Let the cancelled export settle before checking that it wrote nothing.
    await act(async () => undefined);
    expect(ipc.exportSession).not.toHaveBeenCalled();
    expect(screen.queryByTestId("export-saved")).toBeNull();
    expect(screen.queryByTestId("transfer-error")).toBeNull();
  });

  it("shows the error when the export fails", async () => {
    ipc.pickSavePath.mockImplementation(async () => "/ro/fix-the-parser.md");
    ipc.exportSession.mockImplementation(async () => {
      throw { code: "io", message: "permission denied: /ro/fix-the-parser.md", retryable: false };
    });
    setup();
    openMenu(0);
    fireEvent.click(screen.getByTestId("session-export-markdown"));
    const error = await screen.findByTestId("transfer-error");
    expect(error.textContent).toContain("Could not export “Fix the parser”");
    expect(error.textContent).toContain("permission denied: /ro/fix-the-parser.md");
    fireEvent.click(screen.getByTestId("transfer-dismiss"));
    expect(screen.queryByTestId("transfer-error")).toBeNull();
  });

  it("moves through the menu with the arrows; Esc closes it and gives the focus back", () => {
    setup();
    openMenu(0);
    const [markdown, jsonl] = screen.getAllByRole("menuitem");
    expect(document.activeElement).toBe(markdown);
    fireEvent.keyDown(markdown as HTMLElement, { key: "ArrowDown" });
    expect(document.activeElement).toBe(jsonl);
    fireEvent.keyDown(jsonl as HTMLElement, { key: "ArrowDown" });
    expect(document.activeElement).toBe(markdown);
    fireEvent.keyDown(markdown as HTMLElement, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(screen.getAllByTestId("session-menu")[0]);
    expect(ipc.pickSavePath).not.toHaveBeenCalled();
  });

  it("keeps the row's buttons shown while its menu is open, and draws the menu over the list", () => {
    const removeSheets = useSheets(import.meta.url, "../../styles/app.css", "./sidebar.css");
    try {
      setup({ activeId: null });
      const [first, second] = screen.getAllByTestId("session-menu");
      expect(getComputedStyle(first as HTMLElement).display).toBe("none");
      openMenu(0);
      // Not only while the focus is in the row: the window may lose it with the menu open.
      (document.activeElement as HTMLElement).blur();
      expect(getComputedStyle(first as HTMLElement).display).toBe("grid");
      expect(getComputedStyle(second as HTMLElement).display).toBe("none");
      expect(getComputedStyle(screen.getByRole("menu")).position).toBe("absolute");
    } finally {
      removeSheets();
    }
  });

  it("closes the menu on a click elsewhere", () => {
    setup();
    openMenu(0);
    expect(screen.getAllByTestId("session-row")[0]?.className).toContain("nav-item--menu");
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole("menu")).toBeNull();
    expect(screen.getAllByTestId("session-row")[0]?.className).not.toContain("nav-item--menu");
  });
});

describe("SessionList import", () => {
  const REPORT: ImportReport = {
    files: [
      {
        path: "/home/u/logs/docs.jsonl",
        status: "new",
        session_id: "s2",
        origin_id: "o2",
        events: 30,
        skipped_lines: [
          { line: 4, reason: "not JSON" },
          { line: 7, reason: "unknown record type \"x\"" },
        ],
      },
      { path: "/home/u/logs/old.jsonl", status: "unchanged", session_id: "s7", origin_id: "o7", events: 9, skipped_lines: [] },
      { path: "/home/u/logs/blank.jsonl", status: "empty", session_id: null, origin_id: "o8", events: 0, skipped_lines: [] },
    ],
    failed: [{ path: "/home/u/logs/photo.png", error: "line 1 is not JSON" }],
  };

  it("imports the picked files, reads the list again, and shows what happened", async () => {
    const paths = REPORT.files.map((f) => f.path).concat("/home/u/logs/photo.png");
    ipc.pickFiles.mockImplementation(async () => paths);
    ipc.importSessions.mockImplementation(async () => REPORT);
    const onImported = vi.fn();
    const props = setup({ onImported });
    fireEvent.click(screen.getByTestId("import-sessions"));
    const report = await screen.findByTestId("import-report");
    expect(ipc.importSessions).toHaveBeenCalledWith({ paths });
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("import-headline").textContent).toBe("Imported 3 files: 1 new, 1 unchanged, 1 empty");
    const failures = screen.getAllByTestId("import-failure");
    expect(failures.map((f) => f.textContent)).toEqual(["photo.png: line 1 is not JSON"]);
    expect(failures[0]?.getAttribute("title")).toBe("/home/u/logs/photo.png");
    const skipped = screen.getByTestId("import-skipped").textContent ?? "";
    expect(skipped).toContain("2 lines skipped");
    expect(skipped).toContain("docs.jsonl line 4: not JSON");
    expect(report.textContent).toContain('unknown record type "x"');

    // The new session is in this folder's list: it opens from the report.
    fireEvent.click(screen.getByTestId("import-open"));
    expect(props.onOpen).toHaveBeenCalledWith(SESSIONS[1]);
    expect(screen.queryByTestId("import-report")).toBeNull();
  });

  it("shows a report whose every file failed as an error", async () => {
    ipc.pickFiles.mockImplementation(async () => ["/a.jsonl", "/b.jsonl"]);
    ipc.importSessions.mockImplementation(async () => ({
      files: [],
      failed: [
        { path: "/a.jsonl", error: "no such file" },
        { path: "/b.jsonl", error: "not a Memo Code session" },
      ],
    }));
    setup({ onImported: vi.fn() });
    fireEvent.click(screen.getByTestId("import-sessions"));
    const report = await screen.findByTestId("import-report");
    expect(report.className).toContain("transfer-notice--error");
    expect(screen.getByTestId("import-headline").textContent).toBe("Could not import the 2 files");
    expect(screen.getAllByTestId("import-failure").map((f) => f.textContent)).toEqual([
      "a.jsonl: no such file",
      "b.jsonl: not a Memo Code session",
    ]);
    expect(screen.queryByTestId("import-open")).toBeNull();
  });

  it("calls nothing when the open dialog is cancelled", async () => {
    ipc.pickFiles.mockImplementation(async () => null);
    const onImported = vi.fn();
    setup({ onImported });
    fireEvent.click(screen.getByTestId("import-sessions"));
    await waitFor(() => expect(ipc.pickFiles).toHaveBeenCalledTimes(1));
    await waitFor(() => expect((screen.getByTestId("import-sessions") as HTMLButtonElement).disabled).toBe(false));
    expect(ipc.importSessions).not.toHaveBeenCalled();
    expect(onImported).not.toHaveBeenCalled();
    expect(screen.queryByTestId("import-report")).toBeNull();
  });

  it("is offered before a folder is open", () => {
    setup({ folderOpen: false });
    expect(screen.getByTestId("import-sessions")).toBeTruthy();
    expect(screen.queryByTestId("new-session")).toBeNull();
  });
});

describe("SessionList search box", () => {
  const search = vi.fn(async () => []);

  it("clears on Esc, but not on the Esc that ends an input method's composition", () => {
    setup({ search });
    const box = screen.getByTestId("session-search") as HTMLInputElement;
    fireEvent.change(box, { target: { value: "pars" } });
    fireEvent.keyDown(box, { key: "Escape", isComposing: true });
    expect(box.value).toBe("pars");
    fireEvent.keyDown(box, { key: "Escape" });
    expect(box.value).toBe("");
  });
});

describe("SessionList in Chinese", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("reads from the Chinese catalog", async () => {
    await setUpI18n("zh");
    setup({ search: vi.fn(async () => []) });
    expect(screen.getByRole("heading").textContent).toBe("会话");
    expect(screen.getByTestId("session-search").getAttribute("placeholder")).toBe("搜索对话");
    expect(screen.getAllByTestId("session-rename")[0]?.getAttribute("aria-label")).toBe("重命名 Fix the parser");
  });
});
