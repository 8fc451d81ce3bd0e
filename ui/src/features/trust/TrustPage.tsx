import { useCallback, useEffect, useState } from "react";

import { formatDateTime } from "../../format";
import type { TrustDecision } from "../../gen/protocol";
import { ipc, toIpcError, type IpcError } from "../../ipc";

import "./trust.css";

type PageState =
  | { status: "loading" }
  | { status: "ready"; decisions: TrustDecision[] }
  | { status: "error"; error: IpcError };

function when(seconds: number): string {
  return formatDateTime(seconds * 1000);
}

/**
 * Settings → Trusted folders: every folder a decision was made about, with what it would
 * start. Forgetting one makes the folder ask again the next time it is opened.
 */
export function TrustPage() {
  const [state, setState] = useState<PageState>({ status: "loading" });
  const [actionError, setActionError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setState({ status: "ready", decisions: await ipc.trustDecisions() });
    } catch (raised) {
      setState({ status: "error", error: toIpcError("trust_decisions", raised) });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const forget = async (folder: string) => {
    setActionError(null);
    try {
      await ipc.forgetWorkspaceTrust({ folder });
    } catch (raised) {
      setActionError(toIpcError("forget_workspace_trust", raised).message);
    }
    await load();
  };

  return (
    <div className="settings-page" data-testid="trust-page">
      <header className="settings-page__header">
        <div>
          <h2 className="settings-page__title">Trusted folders</h2>
          <p className="settings-page__lead">
            A project's own files can start programs (<code>.mcp.json</code>, Gemini's and Cursor's settings, Claude Code
            hooks), let the agent act without asking (allow rules) or replace its instructions (<code>.memo/SYSTEM.md</code>).
            Memo uses them only in folders you trusted, and asks again when they change.
          </p>
        </div>
      </header>
      {actionError && (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      )}
      {state.status === "loading" && <p className="settings__empty">Loading…</p>}
      {state.status === "error" && (
        <p className="form-error" role="alert" data-testid="trust-page-error">
          {state.error.message}
        </p>
      )}
      {state.status === "ready" && state.decisions.length === 0 && (
        <p className="settings__empty" data-testid="trust-page-empty">
          No decisions yet. When you open a folder whose project files start programs, Memo asks first.
        </p>
      )}
      {state.status === "ready" && state.decisions.length > 0 && (
        <ul className="trust-page__list">
          {state.decisions.map((d) => (
            <li key={d.folder} className="trust-page__item" data-testid="trust-decision">
              <div className="trust-page__body">
                <span className="trust-page__folder">{d.folder}</span>
                <span className="trust-page__meta">
                  <span className={`badge ${d.trusted ? "badge--accent" : "badge--warn"}`}>
                    {d.trusted ? "Trusted" : "Not trusted"}
                  </span>{" "}
                  since {when(d.decided_at)}
                </span>
                {d.items.length > 0 && (
                  <ul className="trust-page__items">
                    {d.items.map((item) => (
                      <li key={item}>
                        <code>{item}</code>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              <button
                type="button"
                className="button"
                onClick={() => void forget(d.folder)}
                data-testid="trust-forget"
                title="Forget this decision: the folder asks again when next opened"
              >
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
