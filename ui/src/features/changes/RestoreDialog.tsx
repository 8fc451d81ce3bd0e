import { useEffect, useState } from "react";

import { useDialogKeys } from "../../components/useDialogKeys";

import { Spinner } from "../../components/icons";
import type { RestoreAction, RestoreMode, RestoreReport, SessionSummary } from "../../gen/protocol";
import { useT } from "../../i18n";
import { type IpcError, ipc, toIpcError } from "../../ipc";

// What will happen (preview, `restore.action.*`) and what happened (after, `restore.done.*`)
// to each file, by its action; for a conflict the reason (changed or deleted since) is the
// item's detail: said once. Each mode's button is `restore.mode.*`.

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
  const t = useT("changes");
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
          {done ? doneTitle(done.files, t) : props.title}
        </h2>
        {shown === null && !error && (
          <p className="dialog__message">
            <Spinner /> {t("restore.looking")}
          </p>
        )}
        {shown !== null && files.length === 0 && (
          <p className="dialog__message">
            {done ? t("restore.nothingDone") : t("restore.nothingToDo")}
          </p>
        )}
        {files.length > 0 && (
          <>
            <p className="dialog__message">
              {done ? t("restore.whatHappened") : t("restore.whatWillHappen")}
            </p>
            <ul className="restore__files">
              {files.map((f) => (
                <li key={f.path} className={`restore__file restore__file--${f.action}`} data-testid="restore-file" data-action={f.action}>
                  <code className="restore__path">{f.path}</code>
                  <span className="restore__action">{t(`restore.${done ? "done" : "action"}.${f.action}`)}</span>
                  {f.detail && <span className="restore__detail">{f.detail}</span>}
                  {!done && f.action === "conflict" && (
                    <label className="restore__overwrite">
                      <input type="checkbox" checked={overwrite.has(f.path)} onChange={() => toggle(f.path)} />
                      {t("restore.overwrite")}
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
            {done ? t("common:close") : t("common:cancel")}
          </button>
          {done ? (
            done.undo_checkpoint !== undefined && (
              <button type="button" className="button" disabled={working} onClick={() => void undo()} data-testid="undo-restore">
                {t("restore.undo")}
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
                {t(`restore.mode.${mode}`)}
              </button>
            ))
          )}
        </div>
      </div>
    </div>
  );
}

/** What a finished restore did, in its title: never "restored" when nothing was. */
function doneTitle(files: readonly { action: RestoreAction }[], t: ReturnType<typeof useT>): string {
  const changed = files.filter((f) => f.action === "write" || f.action === "delete").length;
  if (changed === 0) return t("restore.nothingRestored");
  return t("restore.restored", { count: changed });
}
