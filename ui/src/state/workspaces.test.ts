import { describe, expect, it } from "vitest";

import {
  closeWorkspace,
  folderName,
  loadWorkspaces,
  noWorkspaces,
  normalizeFolderPath,
  openWorkspace,
  saveWorkspaces,
  type KeyValueStore,
} from "./workspaces";

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

describe("normalizeFolderPath", () => {
  it("trims whitespace, quotes and trailing slashes", () => {
    expect(normalizeFolderPath("  '/home/me/repo/'  ")).toEqual({ ok: true, path: "/home/me/repo" });
    expect(normalizeFolderPath("/")).toEqual({ ok: true, path: "/" });
    expect(normalizeFolderPath("C:\\code\\")).toEqual({ ok: true, path: "C:\\code" });
  });

  it("refuses empty and relative paths with a reason", () => {
    expect(normalizeFolderPath("   ")).toMatchObject({ ok: false });
    const relative = normalizeFolderPath("repo");
    expect(relative.ok).toBe(false);
    expect(!relative.ok && relative.error).toContain("absolute");
  });
});

describe("workspaces", () => {
  it("puts new folders first, keeps known ones in place, and tracks the current one", () => {
    let state = openWorkspace(noWorkspaces, "/a", 1);
    state = openWorkspace(state, "/b", 2);
    state = openWorkspace(state, "/a", 3);
    expect(state.workspaces.map((w) => w.path)).toEqual(["/b", "/a"]);
    expect(state.current).toBe("/a");
    expect(state.workspaces[1]?.openedMs).toBe(3);
  });

  it("closing the current folder leaves none current", () => {
    const state = closeWorkspace(openWorkspace(noWorkspaces, "/a", 1), "/a");
    expect(state).toEqual({ workspaces: [], current: null });
  });

  it("round-trips through storage, separately per memo home", () => {
    const storage = memoryStore();
    const state = openWorkspace(noWorkspaces, "/a", 1);
    saveWorkspaces(storage, "/home/me/.memo", state);
    expect(loadWorkspaces(storage, "/home/me/.memo")).toEqual(state);
    expect(loadWorkspaces(storage, "/tmp/other-home")).toEqual(noWorkspaces);
  });

  it("survives damaged storage", () => {
    const storage = memoryStore({
      "memo.workspaces:h": '{"workspaces":[{"path":"/ok","openedMs":1},{"path":3}],"current":"/gone"}',
      "memo.workspaces:broken": "{not json",
    });
    expect(loadWorkspaces(storage, "h")).toEqual({ workspaces: [{ path: "/ok", openedMs: 1 }], current: null });
    expect(loadWorkspaces(storage, "broken")).toEqual(noWorkspaces);
  });

  it("names a folder by its last segment", () => {
    expect(folderName("/home/me/repo")).toBe("repo");
    expect(folderName("C:\\code\\app")).toBe("app");
    expect(folderName("/")).toBe("/");
  });
});
