// Unified or side by side: one choice for every diff on screen, kept across restarts.
import { useCallback, useSyncExternalStore } from "react";
import { pageStorage } from "../../state/pageStorage";

export type DiffViewMode = "unified" | "split";

const STORAGE_KEY = "memo.diff.view";

const listeners = new Set<() => void>();
let current: DiffViewMode | null = null;


function read(): DiffViewMode {
  if (current === null) {
    current = pageStorage()?.getItem(STORAGE_KEY) === "split" ? "split" : "unified";
  }
  return current;
}

export function setDiffViewMode(mode: DiffViewMode): void {
  current = mode;
  try {
    pageStorage()?.setItem(STORAGE_KEY, mode);
  } catch {
    // Full or refused storage: the choice holds until the app restarts.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets the cached choice so the next read goes to storage again (tests start clean). */
export function resetDiffViewMode(): void {
  current = null;
}

export function useDiffViewMode(): [DiffViewMode, (mode: DiffViewMode) => void] {
  const mode = useSyncExternalStore(subscribe, read, read);
  const set = useCallback((next: DiffViewMode) => setDiffViewMode(next), []);
  return [mode, set];
}
