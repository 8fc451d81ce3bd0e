import { beforeEach, describe, expect, it, vi } from "vitest";

import { pickFolder, pickSavePath } from "./dialog";

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
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ defaultPath: "approval_rules.json" }));
    await expect(pickSavePath("Export", "approval_rules.json")).resolves.toBeNull();
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

  it("reports a refused dialog as a CommandError", async () => {
    open.mockRejectedValue("dialog.open not allowed by ACL");
    const failure = await pickFolder().catch((raised: unknown) => raised);
    expect(failure).toMatchObject({ code: "ipc", command: "dialog.open" });
  });
});
