import { useCallback, useEffect, useState } from "react";
import { Trans } from "react-i18next";

import { formatDateTime } from "../../format";
import type { TrustDecision } from "../../gen/protocol";
import { useT } from "../../i18n";
import { ipc, toIpcError, type IpcError } from "../../ipc";

import "./trust.css";
import { PageHeader } from "../../components/PageHeader";

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
  const t = useT("trust");
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
      <PageHeader title={t("page.title")} lead={<Trans t={t} i18nKey="page.lead" components={{ code: <code /> }} />} />
      {actionError && (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      )}
      {state.status === "loading" && <p className="settings__empty">{t("common:loading")}</p>}
      {state.status === "error" && (
        <p className="form-error" role="alert" data-testid="trust-page-error">
          {state.error.message}
        </p>
      )}
      {state.status === "ready" && state.decisions.length === 0 && (
        <p className="settings__empty" data-testid="trust-page-empty">
          {t("page.empty")}
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
                    {d.trusted ? t("page.trusted") : t("page.notTrusted")}
                  </span>{" "}
                  {t("page.since", { when: when(d.decided_at) })}
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
                title={t("page.forgetTitle")}
              >
                {t("page.forget")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
