import { beforeEach, describe, expect, it, vi } from "vitest";

import { allFiles, pickFiles, pickFolder, pickSavePath } from "./dialog";

const { open, save } = vi.hoisted(() => ({ open: vi.fn(), save: vi.fn() }));
vi.mock("@tauri-apps/plugin-dialog", () => ({ open, save }));

beforeEach(() => {
  open.mockReset();
  save.mockReset();
});

describe("pickSavePath", () => {
  it("asks where to save a JSON file and returns the path, or null", async () => {
    save.mockResolvedValueOnce("/home/me/rules.json").mockResolvedValueOnce(null);
    await expect(pickSavePath("Export", "approval_rules.json")).resolves.toBe("/home/me/rules.json");
    expect(save).toHaveBeenCalledWith({
      title: "Export",
      defaultPath: "approval_rules.json",
      filters: [{ name: "JSON", extensions: ["json"] }],
    });
    await expect(pickSavePath("Export", "approval_rules.json")).resolves.toBeNull();
  });

  it("offers the file type it is given", async () => {
    save.mockResolvedValue("/home/me/notes.md");
    const markdown = { name: "Markdown", extensions: ["md"] };
    await expect(pickSavePath("Export session", "notes.md", markdown)).resolves.toBe("/home/me/notes.md");
    expect(save).toHaveBeenCalledWith({ title: "Export session", defaultPath: "notes.md", filters: [markdown] });
  });

  it("reports a refused dialog as a IpcError", async () => {
    save.mockImplementation(() => Promise.reject("dialog.save not allowed by ACL"));
    const failure = await pickSavePath("Export", "a.json").catch((raised: unknown) => raised);
    expect(failure).toMatchObject({ code: "ipc", command: "dialog.save" });
  });
});

describe("pickFiles", () => {
  const JSONL = { name: "Memo Code sessions", extensions: ["jsonl"] };

  it("asks for several files with the given types and returns their paths", async () => {
    open.mockResolvedValue(["/home/me/a.jsonl", "/home/me/b.jsonl"]);
    await expect(pickFiles("Import sessions", [JSONL, allFiles()])).resolves.toEqual(["/home/me/a.jsonl", "/home/me/b.jsonl"]);
    expect(open).toHaveBeenCalledWith({
      title: "Import sessions",
      multiple: true,
      directory: false,
      filters: [JSONL, { name: "All files", extensions: ["*"] }],
    });
  });

  it("takes a single path as a list of one", async () => {
    open.mockResolvedValue("/home/me/a.jsonl");
    await expect(pickFiles("Import sessions", [JSONL])).resolves.toEqual(["/home/me/a.jsonl"]);
  });

  it("returns null when the user cancels or picks nothing", async () => {
    open.mockResolvedValueOnce(null).mockResolvedValueOnce([]);
    await expect(pickFiles("Import sessions", [JSONL])).resolves.toBeNull();
    await expect(pickFiles("Import sessions", [JSONL])).resolves.toBeNull();
  });

  it("reports a refused dialog as a IpcError", async () => {
    open.mockImplementation(() => Promise.reject("dialog.open not allowed by ACL"));
    const failure = await pickFiles("Import sessions", [JSONL]).catch((raised: unknown) => raised);
    expect(failure).toMatchObject({ code: "ipc", command: "dialog.open" });
  });
});

describe("pickFolder", () => {
  it("asks for one directory and returns its path", async () => {
    open.mockResolvedValue("/home/me/project");
    await expect(pickFolder()).resolves.toBe("/home/me/project");
    expect(open).toHaveBeenCalledWith(expect.objectContaining({ directory: true, multiple: false }));
  });

  it("returns null when the user cancels", async () => {
    open.mockResolvedValue(null);
    await expect(pickFolder()).resolves.toBeNull();
  });

  it("reports a refused dialog as a IpcError", async () => {
    open.mockRejectedValue("dialog.open not allowed by ACL");
    const failure = await pickFolder().catch((raised: unknown) => raised);
    expect(failure).toMatchObject({ code: "ipc", command: "dialog.open" });
  });
});
