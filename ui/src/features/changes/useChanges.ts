import { useCallback, useEffect, useRef, useState } from "react";

import type { ChangeScope, ChangesReport, FileChange, KeepRequest, RestoreReport, RevertRequest } from "../../gen/protocol";
import { t } from "../../i18n";
import { type IpcError, ipc, toIpcError } from "../../ipc";

/** A revert that wrote nothing: it would drop lines someone changed after the agent's edit. */
export interface HeldRevert {
  path: string;
  /** The engine's sentence, naming the lines. */
  message: string;
  /** The request as sent, to send again with `force`. */
  request: RevertRequest;
  /** How the Undo will name what the revert did ("Reverted a.txt", "Deleted a.txt"). */
  verb: RevertVerb;
}

/** What a revert did to its file: put it back, or deleted the file the agent created. */
export type RevertVerb = "reverted" | "deleted";

/**
 * The Undo offered after a revert that wrote: `offered` until used; `working` while it
 * runs; `conflict` when the file changed since (nothing was written, "Undo anyway" can
 * overwrite); `done` once it says what became of the file.
 */
export interface RevertUndo {
  /** One per revert, so a new revert's offer is told from the last one's. */
  id: number;
  path: string;
  checkpoint: number;
  phase: "offered" | "working" | "conflict" | "done";
  /** What to say: what the revert did, then what the undo did. */
  message: string;
  /** Why the undo did not go as asked (a conflict's reason, a failure). */
  detail: string | null;
}

export interface Changes {
  report: ChangesReport | null;
  error: IpcError | null;
  /** Why the last revert was refused (kept until the next one). */
  revertError: IpcError | null;
  /** Why the last keep, or mark as reviewed, was refused (kept until the next one). */
  keepError: IpcError | null;
  loading: boolean;
  reload: () => void;
  /** Reverts `hunks` of the file (all of it when null); the list is refreshed with the result. */
  revert: (file: FileChange, hunks: number[] | null) => Promise<void>;
  /**
   * Keeps `hunks` of the file (all of it when null), or takes the keep back (`undo`): in
   * git, staged or unstaged; elsewhere, marked in Memo's store. The list is refreshed.
   */
  keep: (file: FileChange, hunks: number[] | null, undo: boolean) => Promise<void>;
  /** Marks the file reviewed as it is shown (or not any more); the list is refreshed. */
  markReviewed: (file: FileChange, reviewed: boolean) => Promise<void>;
  /** The last revert, held back until the person says to go ahead or not. */
  heldBack: HeldRevert | null;
  /** Sends the held-back revert again, forced. */
  revertAnyway: () => Promise<void>;
  cancelHeldBack: () => void;
  /** The last revert's Undo, while it is offered or says how it went. */
  undo: RevertUndo | null;
  /** Undoes the last revert; `overwrite` puts the file back even though it changed since. */
  undoRevert: (overwrite: boolean) => Promise<void>;
  dismissUndo: () => void;
}

/** What an undo did to its file, in words. */
function undone(path: string, report: RestoreReport): Pick<RevertUndo, "phase" | "message" | "detail"> {
  const item = report.files.find((f) => f.path === path) ?? report.files[0];
  const detail = item?.detail ?? null;
  switch (item?.action) {
    case "write":
      return { phase: "done", message: t("changes:undo.back", { path }), detail: null };
    case "delete":
      // The revert put back a file the agent had deleted (or had not made): gone again.
      return { phase: "done", message: t("changes:undo.goneAgain", { path }), detail: null };
    case "conflict":
      return { phase: "conflict", message: t("changes:undo.conflict", { path }), detail };
    case "not_restorable":
      return { phase: "done", message: t("changes:undo.notRestorable", { path }), detail };
    case "unchanged":
      return { phase: "done", message: t("changes:undo.unchanged", { path }), detail: null };
    case undefined:
      return { phase: "done", message: t("changes:undo.notInCheckpoint", { path }), detail: null };
  }
}

/** The changes of one scope of a session, read again whenever `refreshKey` changes. */
export function useChanges(sessionId: string | null, scope: ChangeScope, refreshKey: unknown): Changes {
  const [report, setReport] = useState<ChangesReport | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [revertError, setRevertError] = useState<IpcError | null>(null);
  const [keepError, setKeepError] = useState<IpcError | null>(null);
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const [heldBack, setHeldBack] = useState<HeldRevert | null>(null);
  const [undo, setUndo] = useState<RevertUndo | null>(null);
  // Answers to an older request (another scope, an older refresh) are dropped.
  const latest = useRef(0);
  const reverts = useRef(0);

  useEffect(() => {
    if (sessionId === null) {
      setReport(null);
      return;
    }
    const request = ++latest.current;
    setLoading(true);
    ipc.sessionChanges({ sessionId, scope }).then(
      (next) => {
        if (request !== latest.current) return;
        setReport(next);
        setError(null);
        setLoading(false);
      },
      (raised: unknown) => {
        if (request !== latest.current) return;
        setError(toIpcError("session_changes", raised));
        setLoading(false);
      },
    );
  }, [sessionId, scope, refreshKey, tick]);

  // A held-back question is about a file of this list; another list (or session) drops it.
  useEffect(() => {
    setHeldBack(null);
  }, [sessionId, scope]);
  // An Undo is of this session's file, whichever list shows it.
  useEffect(() => {
    setUndo(null);
  }, [sessionId]);

  const reload = useCallback(() => setTick((t) => t + 1), []);

  const send = useCallback(
    async (request: RevertRequest, verb: RevertVerb) => {
      if (sessionId === null) return;
      // A new revert ends the last one's offer: its Undo would no longer be the latest.
      setUndo(null);
      try {
        const result = await ipc.revertChange({ sessionId, request });
        latest.current++;
        setReport(result.changes);
        setRevertError(null);
        // A question held back stays until this answer (its buttons wait meanwhile).
        setHeldBack(
          result.held_back ? { path: result.held_back.path, message: result.held_back.message, request, verb } : null,
        );
        if (result.held_back === undefined && result.undo_checkpoint !== undefined) {
          setUndo({
            id: ++reverts.current,
            path: request.path,
            checkpoint: result.undo_checkpoint,
            phase: "offered",
            message: t(`changes:undo.${verb}`, { path: request.path }),
            detail: null,
          });
        }
      } catch (raised) {
        setHeldBack(null);
        setRevertError(toIpcError("revert_change", raised));
        // A conflict means the list is stale: show what is there now.
        setTick((t) => t + 1);
      }
    },
    [sessionId],
  );

  const revert = useCallback(
    (file: FileChange, hunks: number[] | null) =>
      send(
        {
          scope,
          path: file.path,
          shown_diff: file.diff?.unified ?? "",
          ...(hunks ? { hunks } : {}),
        },
        // Reverting the whole of a file the agent created removes it.
        hunks === null && file.kind === "created" ? "deleted" : "reverted",
      ),
    [send, scope],
  );

  // A keep or a review mark answers with the list afresh, like a revert.
  const mark = useCallback(async (command: string, call: () => Promise<ChangesReport>) => {
    try {
      const next = await call();
      latest.current++;
      setReport(next);
      setKeepError(null);
    } catch (raised) {
      setKeepError(toIpcError(command, raised));
      // Refused because the file changed since it was shown: show what is there now.
      setTick((t) => t + 1);
    }
  }, []);

  const keep = useCallback(
    async (file: FileChange, hunks: number[] | null, undo: boolean) => {
      if (sessionId === null) return;
      const request: KeepRequest = {
        scope,
        path: file.path,
        shown_diff: file.diff?.unified ?? "",
        ...(hunks ? { hunks } : {}),
        ...(undo ? { undo: true } : {}),
      };
      await mark("keep_change", () => ipc.keepChange({ sessionId, request }));
    },
    [mark, scope, sessionId],
  );

  const markReviewed = useCallback(
    async (file: FileChange, reviewed: boolean) => {
      if (sessionId === null) return;
      await mark("mark_reviewed", () =>
        ipc.markReviewed({ sessionId, request: { scope, path: file.path, shown_diff: file.diff?.unified ?? "", reviewed } }),
      );
    },
    [mark, scope, sessionId],
  );

  const revertAnyway = useCallback(async () => {
    if (heldBack === null) return;
    await send({ ...heldBack.request, force: true }, heldBack.verb);
  }, [heldBack, send]);

  const cancelHeldBack = useCallback(() => setHeldBack(null), []);

  const undoRevert = useCallback(
    async (overwrite: boolean) => {
      if (sessionId === null || undo === null || undo.phase === "working") return;
      const offer = undo;
      // Only this offer's answer may change the toast: a revert since has its own.
      const settle = (next: Pick<RevertUndo, "phase" | "message" | "detail">) =>
        setUndo((current) => (current?.id === offer.id ? { ...offer, ...next } : current));
      settle({ phase: "working", message: offer.message, detail: null });
      try {
        const restored = await ipc.undoRevert({ sessionId, checkpoint: offer.checkpoint, path: offer.path, overwrite });
        settle(undone(offer.path, restored));
      } catch (raised) {
        settle({ phase: "done", message: t("changes:undo.failed", { path: offer.path }), detail: toIpcError("undo_revert", raised).message });
      }
      setTick((t) => t + 1);
    },
    [sessionId, undo],
  );

  const dismissUndo = useCallback(() => setUndo(null), []);

  return { report, error, revertError, keepError, loading, reload, revert, keep, markReviewed, heldBack, revertAnyway, cancelHeldBack, undo, undoRevert, dismissUndo };
}
