import { useEffect, useState } from "react";

import { useDialogKeys } from "../../components/useDialogKeys";

import { Spinner } from "../../components/icons";
import type { RestoreAction, RestoreMode, RestoreReport, SessionSummary } from "../../gen/protocol";
import { type IpcError, ipc, toIpcError } from "../../ipc";

/** What will happen (preview) and what happened (after), per file. */
const ACTION_LABEL: Record<RestoreAction, [string, string]> = {
  write: ["will get its earlier content back", "restored"],
  delete: ["will be deleted (the agent created it)", "deleted (the agent created it)"],
  // The reason (changed or deleted since) is the item's detail: said once.
  conflict: ["will be kept as it is now", "kept as it is now"],
  not_restorable: ["cannot be restored", "not restored"],
  unchanged: ["already as it was", "already as it was"],
};

const MODE_LABEL: Record<RestoreMode, string> = {
  code: "Restore code",
  conversation: "Restore conversation",
  both: "Restore both",
};

interface RestoreDialogProps {
  sessionId: string;
  /** Restore to just after this session event. */
  toSeq: number;
  title: string;
  /** The ways offered (rewinding a message offers all three; reverting a turn only code). */
  modes: RestoreMode[];
  /** A conversation was restored: open it, with `message` back in the composer. */
  onConversation: (session: SessionSummary, message: string | null) => void;
  /** The code was restored (to refresh the changes panel). */
  onCodeRestored?: (() => void) | undefined;
  onClose: () => void;
}

/**
 * Restoring to an earlier point: which files would change (conflicts shown, each can be
 * overwritten on purpose), then code, conversation or both; a code restore can be undone.
 */
export function RestoreDialog(props: RestoreDialogProps) {
  const { sessionId, toSeq, modes, onClose } = props;
  const [preview, setPreview] = useState<RestoreReport | null>(null);
  const [done, setDone] = useState<RestoreReport | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [working, setWorking] = useState(false);
  const [overwrite, setOverwrite] = useState<ReadonlySet<string>>(new Set());
  const cancel = useDialogKeys(onClose);

  useEffect(() => {
    let live = true;
    ipc.previewRestore({ sessionId, toSeq }).then(
      (report) => live && setPreview(report),
      (raised: unknown) => live && setError(toIpcError("preview_restore", raised)),
    );
    return () => {
      live = false;
    };
  }, [sessionId, toSeq]);

  const restore = async (mode: RestoreMode) => {
    setWorking(true);
    setError(null);
    try {
      const report = await ipc.restoreSession({ sessionId, toSeq, mode, overwrite: [...overwrite] });
      if (mode !== "conversation") props.onCodeRestored?.();
      if (report.session) {
        props.onConversation(report.session, report.message ?? null);
        onClose();
        return;
      }
      setDone(report);
    } catch (raised) {
      setError(toIpcError("restore_session", raised));
    } finally {
      setWorking(false);
    }
  };

  const undo = async () => {
    if (done?.undo_checkpoint === undefined) return;
    setWorking(true);
    try {
      await ipc.undoRestore({ sessionId, checkpoint: done.undo_checkpoint, overwrite: [] });
      props.onCodeRestored?.();
      onClose();
    } catch (raised) {
      setError(toIpcError("undo_restore", raised));
    } finally {
      setWorking(false);
    }
  };

  const shown = done ?? preview;
  const files = shown?.files.filter((f) => f.action !== "unchanged") ?? [];
  const toggle = (path: string) =>
    setOverwrite((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <div
        className="dialog restore"
        role="dialog"
        aria-modal="true"
        aria-labelledby="restore-title"
        data-testid="restore-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="restore-title" className="dialog__title">
          {done ? doneTitle(done.files) : props.title}
        </h2>
        {shown === null && !error && (
          <p className="dialog__message">
            <Spinner /> Looking at the files…
          </p>
        )}
        {shown !== null && files.length === 0 && (
          <p className="dialog__message">
            {done ? "Nothing needed restoring." : "The agent changed no file after this point: restoring code changes nothing."}
          </p>
        )}
        {files.length > 0 && (
          <>
            <p className="dialog__message">
              {done
                ? "What happened to each file:"
                : "Restoring code puts back only the files the agent changed after this point:"}
            </p>
            <ul className="restore__files">
              {files.map((f) => (
                <li key={f.path} className={`restore__file restore__file--${f.action}`} data-testid="restore-file" data-action={f.action}>
                  <code className="restore__path">{f.path}</code>
                  <span className="restore__action">{ACTION_LABEL[f.action][done ? 1 : 0]}</span>
                  {f.detail && <span className="restore__detail">{f.detail}</span>}
                  {!done && f.action === "conflict" && (
                    <label className="restore__overwrite">
                      <input type="checkbox" checked={overwrite.has(f.path)} onChange={() => toggle(f.path)} />
                      overwrite anyway
                    </label>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error.message}
          </p>
        )}
        <div className="dialog__actions">
          <button ref={cancel} type="button" className="button" onClick={onClose}>
            {done ? "Close" : "Cancel"}
          </button>
          {done ? (
            done.undo_checkpoint !== undefined && (
              <button type="button" className="button" disabled={working} onClick={() => void undo()} data-testid="undo-restore">
                Undo
              </button>
            )
          ) : (
            modes.map((mode, i) => (
              <button
                key={mode}
                type="button"
                className={`button${i === modes.length - 1 ? " button--primary" : ""}`}
                disabled={working || (preview === null && mode !== "conversation")}
                onClick={() => void restore(mode)}
                data-testid={`restore-${mode}`}
              >
                {MODE_LABEL[mode]}
              </button>
            ))
          )}
        </div>
      </div>
    </div>
  );
}

/** What a finished restore did, in its title: never "restored" when nothing was. */
function doneTitle(files: readonly { action: RestoreAction }[]): string {
  const changed = files.filter((f) => f.action === "write" || f.action === "delete").length;
  if (changed === 0) return "Nothing was restored";
  return changed === 1 ? "1 file restored" : `${changed} files restored`;
}
