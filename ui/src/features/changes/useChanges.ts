import { useCallback, useEffect, useRef, useState } from "react";

import type { ChangeScope, ChangesReport, FileChange } from "../../gen/protocol";
import { type CommandError, commands, toCommandError } from "../../ipc";

export interface Changes {
  report: ChangesReport | null;
  error: CommandError | null;
  /** Why the last revert was refused (kept until the next one). */
  revertError: CommandError | null;
  loading: boolean;
  reload: () => void;
  /** Reverts `hunks` of the file (all of it when null); the list is refreshed with the result. */
  revert: (file: FileChange, hunks: number[] | null) => Promise<void>;
}

/** The changes of one scope of a session, read again whenever `refreshKey` changes. */
export function useChanges(sessionId: string | null, scope: ChangeScope, refreshKey: unknown): Changes {
  const [report, setReport] = useState<ChangesReport | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [revertError, setRevertError] = useState<CommandError | null>(null);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  // Answers to an older request (another scope, an older refresh) are dropped.
  const latest = useRef(0);

  useEffect(() => {
    if (sessionId === null) {
      setReport(null);
      return;
    }
    const request = ++latest.current;
    setLoading(true);
    commands.sessionChanges({ sessionId, scope }).then(
      (next) => {
        if (request !== latest.current) return;
        setReport(next);
        setError(null);
        setLoading(false);
      },
      (raised: unknown) => {
        if (request !== latest.current) return;
        setError(toCommandError("session_changes", raised));
        setLoading(false);
      },
    );
  }, [sessionId, scope, refreshKey, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);

  const revert = useCallback(
    async (file: FileChange, hunks: number[] | null) => {
      if (sessionId === null) return;
      const request = {
        scope,
        path: file.path,
        shown_diff: file.diff?.unified ?? "",
        ...(hunks ? { hunks } : {}),
      };
      try {
        const next = await commands.revertChange({ sessionId, request });
        latest.current++;
        setReport(next);
        setRevertError(null);
      } catch (raised) {
        setRevertError(toCommandError("revert_change", raised));
        // A conflict means the list is stale: show what is there now.
        setTick((t) => t + 1);
      }
    },
    [sessionId, scope],
  );

  return { report, error, revertError, loading, reload, revert };
}
