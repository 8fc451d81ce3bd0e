import { beforeEach, describe, expect, it, vi } from "vitest";

import { forgetHomeFolder, homeFolder, withTilde } from "./paths";

const { homeDir } = vi.hoisted(() => ({ homeDir: vi.fn() }));
vi.mock("@tauri-apps/api/path", () => ({ homeDir }));

beforeEach(() => {
  homeDir.mockReset();
  forgetHomeFolder();
});

describe("withTilde", () => {
  it("writes the home folder as ~", () => {
    expect(withTilde("/home/me/Documents/a.md", "/home/me")).toBe("~/Documents/a.md");
    expect(withTilde("/home/me/Documents/a.md", "/home/me/")).toBe("~/Documents/a.md");
    expect(withTilde("C:\\Users\\me\\Documents\\a.md", "C:\\Users\\me")).toBe("~\\Documents\\a.md");
  });

  it("leaves paths outside home, or a sibling that starts the same, as they are", () => {
    expect(withTilde("/tmp/a.md", "/home/me")).toBe("/tmp/a.md");
    expect(withTilde("/home/me2/a.md", "/home/me")).toBe("/home/me2/a.md");
    expect(withTilde("/home/me/a.md", null)).toBe("/home/me/a.md");
    expect(withTilde("/a.md", "/")).toBe("/a.md");
  });
});

describe("homeFolder", () => {
  it("asks once", async () => {
    homeDir.mockResolvedValue("/home/me");
    await expect(homeFolder()).resolves.toBe("/home/me");
    await expect(homeFolder()).resolves.toBe("/home/me");
    expect(homeDir).toHaveBeenCalledTimes(1);
  });

  it("is null when it cannot be asked", async () => {
    homeDir.mockImplementation(() => Promise.reject(new TypeError("no Tauri here")));
    await expect(homeFolder()).resolves.toBeNull();
  });
});
