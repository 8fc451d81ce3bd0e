import { useCallback, useEffect, useState } from "react";

import type { ExportFormat, ImportReport, SessionSummary } from "../../gen/protocol";
import { t } from "../../i18n";
import { allFiles, ipc, homeFolder, pickFiles, pickSavePath, toIpcError, withTilde } from "../../ipc";
import { sessionLabel } from "./label";
import { exportFileName, exportFormat, importFilter } from "./sessionFiles";

/** What the last export or import left to say, under the session list. */
export type TransferNotice =
  | { kind: "saved"; path: string; shown: string }
  | { kind: "failed"; title: string; message: string }
  | { kind: "imported"; report: ImportReport };

export interface SessionTransfer {
  notice: TransferNotice | null;
  /** A dialog or a write is under way: its buttons wait. */
  busy: "export" | "import" | null;
  /** Asks where, then writes the session there; a cancelled dialog does nothing. */
  exportAs: (session: SessionSummary, format: ExportFormat) => Promise<void>;
  /** Asks for Memo Code JSONL files, imports them, and keeps the report to show. */
  importFiles: () => Promise<void>;
  dismiss: () => void;
}

/** A confirmation is read at a glance; a report or an error stays until dismissed. */
export const SAVED_NOTICE_MS = 8000;

/** Export and import of sessions; `onImported` reads the session list again. */
export function useSessionTransfer(onImported: () => void): SessionTransfer {
  const [notice, setNotice] = useState<TransferNotice | null>(null);
  const [busy, setBusy] = useState<SessionTransfer["busy"]>(null);

  useEffect(() => {
    if (notice?.kind !== "saved") return;
    const timer = setTimeout(() => setNotice((current) => (current === notice ? null : current)), SAVED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const exportAs = useCallback(async (session: SessionSummary, format: ExportFormat) => {
    const { dialogTitle, filter } = exportFormat(format);
    setBusy("export");
    try {
      const path = await pickSavePath(dialogTitle, exportFileName(session, format), filter);
      if (path === null) return;
      await ipc.exportSession({ sessionId: session.id, path, format });
      setNotice({ kind: "saved", path, shown: withTilde(path, await homeFolder()) });
    } catch (raised) {
      setNotice({
        kind: "failed",
        title: t("sessions:transfer.exportFailed", { label: sessionLabel(session) }),
        message: toIpcError("export_session", raised).message,
      });
    } finally {
      setBusy(null);
    }
  }, []);

  const importFiles = useCallback(async () => {
    setBusy("import");
    try {
      const paths = await pickFiles(t("sessions:transfer.importTitle"), [importFilter(), allFiles()]);
      if (paths === null) return;
      const report = await ipc.importSessions({ paths });
      setNotice({ kind: "imported", report });
      onImported();
    } catch (raised) {
      setNotice({ kind: "failed", title: t("sessions:transfer.importFailed"), message: toIpcError("import_sessions", raised).message });
    } finally {
      setBusy(null);
    }
  }, [onImported]);

  const dismiss = useCallback(() => setNotice(null), []);

  return { notice, busy, exportAs, importFiles, dismiss };
}
