import { useCallback, useEffect, useRef, useState } from "react";

import type { WorkspaceTrustReport } from "../../gen/protocol";
import { ipc, toIpcError, type IpcError } from "../../ipc";

export interface WorkspaceTrust {
  /** What the open folder's project files would start; null until read. */
  report: WorkspaceTrustReport | null;
  error: IpcError | null;
  /** The prompt is showing (asked on open, or reopened from the banner). */
  prompting: boolean;
  saving: boolean;
  decide: (trusted: boolean) => Promise<void>;
  /** Closes the prompt without deciding: nothing starts, and the next open asks again. */
  dismiss: () => void;
  review: () => void;
}

/**
 * The open folder's trust: read when the folder opens (and when the window regains focus,
 * since .mcp.json may have changed meanwhile); the prompt opens by itself when the folder
 * would start something nobody agreed to.
 */
export function useWorkspaceTrust(cwd: string | null): WorkspaceTrust {
  const [report, setReport] = useState<WorkspaceTrustReport | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [prompting, setPrompting] = useState(false);
  const [saving, setSaving] = useState(false);
  // Folders whose prompt was closed without a decision, so focus does not reopen it.
  const dismissed = useRef(new Set<string>());
  const generation = useRef(0);

  const load = useCallback(async () => {
    const gen = ++generation.current;
    if (cwd === null) {
      setReport(null);
      setPrompting(false);
      return;
    }
    try {
      const next = await ipc.workspaceTrust({ cwd });
      if (gen !== generation.current) return;
      setReport(next);
      setError(null);
      if (next.needs_decision && !dismissed.current.has(cwd)) setPrompting(true);
    } catch (raised) {
      if (gen === generation.current) setError(toIpcError("workspace_trust", raised));
    }
  }, [cwd]);

  useEffect(() => {
    setPrompting(false);
    void load();
  }, [load]);

  useEffect(() => {
    const onFocus = () => void load();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [load]);

  const decide = useCallback(
    async (trusted: boolean) => {
      if (cwd === null) return;
      setSaving(true);
      try {
        setReport(await ipc.setWorkspaceTrust({ cwd, trusted }));
        setError(null);
        setPrompting(false);
      } catch (raised) {
        setError(toIpcError("set_workspace_trust", raised));
      } finally {
        setSaving(false);
      }
    },
    [cwd],
  );

  const dismiss = useCallback(() => {
    if (cwd !== null) dismissed.current.add(cwd);
    setPrompting(false);
  }, [cwd]);

  const review = useCallback(() => setPrompting(true), []);

  return { report, error, prompting, saving, decide, dismiss, review };
}
