// Memo's worktrees as the window groups them: a worktree session belongs to the folder
// (repository) it was made from, not to the worktree's own folder under Memo's home.
import type { SessionSummary, WorktreeInfo } from "../../gen/protocol";
import { folderName } from "../../state/workspaces";

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** The worktree `path` is in, if it is in one of Memo's. */
export function worktreeAt(worktrees: readonly WorktreeInfo[], path: string): WorktreeInfo | null {
  return worktrees.find((w) => inside(path, w.path)) ?? null;
}

/** The folder to show `path` under: its worktree's repository, else itself. */
export function folderFor(worktrees: readonly WorktreeInfo[], path: string): string {
  return worktreeAt(worktrees, path)?.repo_root ?? path;
}

/** The worktree a session works in: the one that records it, else the one its folder is in. */
export function worktreeOf(worktrees: readonly WorktreeInfo[], session: SessionSummary | null): WorktreeInfo | null {
  if (session === null) return null;
  return worktrees.find((w) => w.session_id === session.id) ?? worktreeAt(worktrees, session.cwd);
}

/** The worktrees made from folder `cwd` (the repository's root or a folder in it). */
export function worktreesOf(worktrees: readonly WorktreeInfo[], cwd: string | null): WorktreeInfo[] {
  if (cwd === null) return [];
  return worktrees.filter((w) => inside(cwd, w.repo_root) || inside(w.repo_root, cwd));
}

/** A worktree's branch as the sidebar shows it: `memo/fix-login` → `fix-login`. */
export function branchLabel(worktree: WorktreeInfo): string {
  return worktree.branch.replace(/^memo\//, "");
}

/**
 * Where a session works, in words: its folder's name, or for a worktree session its
 * repository's and its branch (the worktree's own folder is named by a hash).
 */
export function placeName(worktrees: readonly WorktreeInfo[], path: string): string {
  const worktree = worktreeAt(worktrees, path);
  return worktree === null ? folderName(path) : `${folderName(worktree.repo_root)} · ${branchLabel(worktree)}`;
}
