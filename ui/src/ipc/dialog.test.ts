import { beforeEach, describe, expect, it, vi } from "vitest";

import { pickFolder } from "./dialog";

const { open } = vi.hoisted(() => ({ open: vi.fn() }));
vi.mock("@tauri-apps/plugin-dialog", () => ({ open }));

beforeEach(() => {
  open.mockReset();
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
