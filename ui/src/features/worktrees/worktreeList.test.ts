import { describe, expect, it } from "vitest";

import type { WorktreeInfo } from "../../gen/protocol";
import { sessionSummary } from "../../test/fixtures";
import { folderFor, placeName, worktreeOf, worktreesOf } from "./worktreeList";

const wt = (id: string, over: Partial<WorktreeInfo> = {}): WorktreeInfo => ({
  id,
  repo_root: "/code/app",
  path: `/home/me/.memo/worktrees/app-${id}`,
  session_cwd: `/home/me/.memo/worktrees/app-${id}`,
  branch: `memo/${id}`,
  base_branch: "main",
  base_commit: "abc",
  created_ms: 1,
  state: "ready",
  ...over,
});

describe("worktree grouping", () => {
  const all = [wt("a1", { session_id: "s1" }), wt("b2", { repo_root: "/code/other" })];

  it("puts a worktree's folder under its repository", () => {
    expect(folderFor(all, "/home/me/.memo/worktrees/app-a1/src")).toBe("/code/app");
    expect(folderFor(all, "/home/me/.memo/worktrees/app-a10")).toBe("/home/me/.memo/worktrees/app-a10");
    expect(folderFor(all, "/code/app")).toBe("/code/app");
  });

  it("finds a session's worktree by its record or by its folder (a fork)", () => {
    expect(worktreeOf(all, sessionSummary({ id: "s1", cwd: "/anywhere" }))?.id).toBe("a1");
    expect(worktreeOf(all, sessionSummary({ id: "fork", cwd: "/home/me/.memo/worktrees/app-b2" }))?.id).toBe("b2");
    expect(worktreeOf(all, sessionSummary({ id: "x", cwd: "/code/app" }))).toBeNull();
    expect(worktreeOf(all, null)).toBeNull();
  });

  it("lists the worktrees of a repository, opened at its root or in a subfolder", () => {
    expect(worktreesOf(all, "/code/app").map((w) => w.id)).toEqual(["a1"]);
    expect(worktreesOf(all, "/code/app/src").map((w) => w.id)).toEqual(["a1"]);
    expect(worktreesOf(all, "/code")).toHaveLength(2);
    expect(worktreesOf(all, "/code/application")).toEqual([]);
    expect(worktreesOf(all, null)).toEqual([]);
  });
});

describe("placeName", () => {
  it("names a worktree session's place by its repository and branch, not the worktree folder's hash", () => {
    const all = [wt("a1", { branch: "memo/fix-login" })];
    expect(placeName(all, "/home/me/.memo/worktrees/app-a1")).toBe("app · fix-login");
    expect(placeName(all, "/home/me/.memo/worktrees/app-a1/src")).toBe("app · fix-login");
    expect(placeName(all, "/code/shop")).toBe("shop");
  });
});

