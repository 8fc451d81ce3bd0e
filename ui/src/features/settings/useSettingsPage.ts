import { useCallback, useState } from "react";

import { toIpcError } from "../../ipc";

export interface SettingsPageState<T> {
  /** The page as the last successful command returned it; null until the first. */
  page: T | null;
  /** The last failure, as one line; cleared by the next success. */
  error: string | null;
  setError: (error: string | null) => void;
  /** Runs a command that answers with the whole page; true when it succeeded. */
  run: (what: string, action: () => Promise<T>) => Promise<boolean>;
}

/**
 * What a settings page whose every command answers with the page afresh keeps: the page,
 * and the last error in place of the page's own when a command fails.
 */
export function useSettingsPage<T>(): SettingsPageState<T> {
  const [page, setPage] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (what: string, action: () => Promise<T>) => {
    try {
      setPage(await action());
      setError(null);
      return true;
    } catch (raised) {
      setError(toIpcError(what, raised).message);
      return false;
    }
  }, []);
  return { page, error, setError, run };
}
