// Folders the user opened, remembered in localStorage. Scoped by MEMO_HOME: sessions live
// there, so another home (e.g. a test's throwaway one) starts with its own list.
import { t } from "../i18n";


export interface Workspace {
  path: string;
  openedMs: number;
}

export interface WorkspacesState {
  workspaces: Workspace[];
  current: string | null;
}

export type KeyValueStore = Pick<Storage, "getItem" | "setItem">;

const MAX_WORKSPACES = 30;

export const noWorkspaces: WorkspacesState = { workspaces: [], current: null };

function storageKey(scope: string): string {
  return `memo.workspaces:${scope}`;
}

export type PathCheck = { ok: true; path: string } | { ok: false; error: string };

/** Cleans up a typed or pasted folder path; only absolute paths make sense to the engine. */
export function normalizeFolderPath(input: string): PathCheck {
  let path = input.trim();
  // Paths copied from a terminal or file manager often come quoted.
  const quoted = /^(['"])(.*)\1$/.exec(path);
  if (quoted) {
    path = (quoted[2] ?? "").trim();
  }
  if (path === "") {
    return { ok: false, error: t("workspaces:typePath") };
  }
  const absolute = path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
  if (!absolute) {
    return { ok: false, error: t("workspaces:notAbsolute", { path }) };
  }
  // "/repo/" and "/repo" are the same folder; keep roots like "/" and "C:\" intact.
  while (path.length > 1 && /[\\/]$/.test(path) && !/^[A-Za-z]:[\\/]$/.test(path)) {
    path = path.slice(0, -1);
  }
  return { ok: true, path };
}

/** Opens `path`: new folders go to the top; known ones keep their place. */
export function openWorkspace(state: WorkspacesState, path: string, nowMs: number): WorkspacesState {
  const known = state.workspaces.some((w) => w.path === path);
  const workspaces = known
    ? state.workspaces.map((w) => (w.path === path ? { ...w, openedMs: nowMs } : w))
    : [{ path, openedMs: nowMs }, ...state.workspaces].slice(0, MAX_WORKSPACES);
  return { workspaces, current: path };
}

export function closeWorkspace(state: WorkspacesState, path: string): WorkspacesState {
  return {
    workspaces: state.workspaces.filter((w) => w.path !== path),
    current: state.current === path ? null : state.current,
  };
}

function isWorkspace(value: unknown): value is Workspace {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const record = value as Record<string, unknown>;
  return typeof record.path === "string" && typeof record.openedMs === "number";
}

/** Whatever is stored; a missing or damaged entry is an empty list, never a crash. */
export function loadWorkspaces(storage: KeyValueStore, scope: string): WorkspacesState {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey(scope)) ?? "null");
    if (typeof parsed !== "object" || parsed === null) {
      return noWorkspaces;
    }
    const record = parsed as Record<string, unknown>;
    const workspaces = Array.isArray(record.workspaces) ? record.workspaces.filter(isWorkspace) : [];
    const current =
      typeof record.current === "string" && workspaces.some((w) => w.path === record.current)
        ? record.current
        : null;
    return { workspaces, current };
  } catch {
    return noWorkspaces;
  }
}

export function saveWorkspaces(storage: KeyValueStore, scope: string, state: WorkspacesState): void {
  try {
    storage.setItem(storageKey(scope), JSON.stringify(state));
  } catch {
    // Storage full or disabled: the list still works for this run.
  }
}

/** The last path segment, for labels ("/home/me/repo" -> "repo"). */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}
