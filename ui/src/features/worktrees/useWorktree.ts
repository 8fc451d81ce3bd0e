import { useCallback, useEffect, useRef, useState } from "react";

import type { KeptBranch, WorktreeDiff, WorktreeDiscard, WorktreeMerge, WorktreeStatus } from "../../gen/protocol";
import { type IpcError, ipc, toIpcError } from "../../ipc";

/** Which of a worktree's actions is running. */
export type WorktreeAction = "merge" | "keep" | "discard" | "forget";

export interface Worktree {
  status: WorktreeStatus | null;
  diff: WorktreeDiff | null;
  /** Why reading the status or the diff failed. */
  error: IpcError | null;
  /** Why the last action was refused (kept until the next one starts). */
  actionError: IpcError | null;
  loading: boolean;
  running: WorktreeAction | null;
  reload: () => void;
  /** Reads the status afresh and returns it (the discard dialog lists what it says now). */
  refresh: () => Promise<WorktreeStatus | null>;
  merge: (message: string) => Promise<WorktreeMerge | null>;
  keepBranch: (message: string) => Promise<KeptBranch | null>;
  discard: (confirm: string[] | null) => Promise<WorktreeDiscard | null>;
  forget: () => Promise<boolean>;
}

/**
 * A worktree's status and diff, read again whenever `refreshKey` changes (a turn ended),
 * and its actions. An action's refusal lands in `actionError` and the status is read
 * again, since a refusal usually means the worktree or the main checkout changed.
 */
export function useWorktree(worktreeId: string, refreshKey: unknown): Worktree {
  const [status, setStatus] = useState<WorktreeStatus | null>(null);
  const [diff, setDiff] = useState<WorktreeDiff | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [actionError, setActionError] = useState<IpcError | null>(null);
  const [loading, setLoading] = useState(false);
  const [running, setRunning] = useState<WorktreeAction | null>(null);
  const [tick, setTick] = useState(0);
  // Answers to an older read (another worktree, an older refresh) are dropped.
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    setLoading(true);
    ipc.worktreeStatus({ worktreeId }).then(
      (next) => {
        if (request !== latest.current) return;
        setStatus(next);
        setError(null);
        // A missing folder has no diff to read.
        if (next.worktree.state !== "ready") {
          setDiff(null);
          setLoading(false);
          return;
        }
        ipc.worktreeDiff({ worktreeId }).then(
          (d) => {
            if (request !== latest.current) return;
            setDiff(d);
            setLoading(false);
          },
          (raised: unknown) => {
            if (request !== latest.current) return;
            setError(toIpcError("worktree_diff", raised));
            setLoading(false);
          },
        );
      },
      (raised: unknown) => {
        if (request !== latest.current) return;
        setError(toIpcError("worktree_status", raised));
        setLoading(false);
      },
    );
  }, [worktreeId, refreshKey, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);

  const refresh = useCallback(async () => {
    // Supersedes a read still in flight, whose older answer must not land after this one.
    const request = ++latest.current;
    try {
      const next = await ipc.worktreeStatus({ worktreeId });
      if (request === latest.current) {
        setStatus(next);
        // It may have superseded the first read, which then never says it is done.
        setLoading(false);
      }
      return next;
    } catch (raised) {
      if (request === latest.current) {
        setError(toIpcError("worktree_status", raised));
        setLoading(false);
      }
      return null;
    }
  }, [worktreeId]);

  const act = useCallback(
    async <T>(action: WorktreeAction, command: string, call: () => Promise<T>): Promise<T | null> => {
      setRunning(action);
      setActionError(null);
      try {
        const result = await call();
        // After a merge the worktree is still there (clean, merged); after the others it
        // is gone, and reading it again would only report that.
        if (action === "merge") reload();
        return result;
      } catch (raised) {
        setActionError(toIpcError(command, raised));
        reload();
        return null;
      } finally {
        setRunning(null);
      }
    },
    [reload],
  );

  const merge = useCallback(
    (message: string) => act("merge", "merge_worktree", () => ipc.mergeWorktree({ worktreeId, message })),
    [act, worktreeId],
  );
  const keepBranch = useCallback(
    (message: string) => act("keep", "keep_worktree_branch", () => ipc.keepWorktreeBranch({ worktreeId, message })),
    [act, worktreeId],
  );
  const discard = useCallback(
    (confirm: string[] | null) =>
      act("discard", "discard_worktree", () => ipc.discardWorktree({ worktreeId, confirm })),
    [act, worktreeId],
  );
  const forget = useCallback(
    async () => (await act("forget", "forget_worktree", () => ipc.forgetWorktree({ worktreeId }).then(() => true))) ?? false,
    [act, worktreeId],
  );

  return { status, diff, error, actionError, loading, running, reload, refresh, merge, keepBranch, discard, forget };
}
