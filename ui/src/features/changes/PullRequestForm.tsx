import { openUrl } from "@tauri-apps/plugin-opener";
import { useEffect, useId, useState, type MouseEvent, type ReactNode } from "react";

import { useEscape } from "../../components/escapeStack";
import { Spinner } from "../../components/icons";
import type { PullRequestPlan, PullRequestResult } from "../../gen/protocol";
import { useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { type IpcError, ipc, toIpcError } from "../../ipc";
import { shellLine } from "./shell";

/**
 * The plan's command with the title and body as edited: the plan's argv holds the drafted
 * ones, where the title and the body go (found from the end, the title not in the body's place).
 */
export function commandWith(plan: PullRequestPlan, title: string, body: string): string[] {
  const bodyAt = plan.command.lastIndexOf(plan.body);
  let titleAt = -1;
  plan.command.forEach((word, at) => {
    if (word === plan.title && at !== bodyAt) titleAt = at;
  });
  return plan.command.map((word, at) => (at === bodyAt ? body : at === titleAt ? title : word));
}

/** A link the system's browser opens: the app's own webview never navigates away. */
function ExternalLink({ url, testId, children }: { url: string; testId: string; children: ReactNode }) {
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    openUrl(url).catch((error: unknown) => console.error(`Could not open ${url}:`, error));
  };
  return (
    <a className="commit__link" href={url} rel="noreferrer" title={url} onClick={open} onAuxClick={(event) => event.preventDefault()} data-testid={testId}>
      {children}
    </a>
  );
}

/**
 * The pull request of the session's branch: a title and body drafted by the model, to edit;
 * then the forge's CLI opens it (the command shown first), or its page does.
 */
export function PullRequestForm({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const t = useT("changes");
  const titleId = useId();
  const bodyId = useId();
  const [plan, setPlan] = useState<PullRequestPlan | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<IpcError | null>(null);
  const [result, setResult] = useState<PullRequestResult | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const next = await ipc.draftPullRequest({ sessionId });
        if (!live) return;
        setPlan(next);
        setTitle(next.title);
        setBody(next.body);
      } catch (raised) {
        if (live) setError(toIpcError("draft_pull_request", raised));
      }
    })();
    return () => {
      live = false;
    };
  }, [sessionId]);

  useEscape(() => {
    if (!creating) onClose();
  });

  const create = async () => {
    setCreating(true);
    setCreateError(null);
    try {
      setResult(await ipc.openPullRequest({ sessionId, request: { title, body } }));
    } catch (raised) {
      setCreateError(toIpcError("open_pull_request", raised));
    } finally {
      setCreating(false);
    }
  };

  const cli = plan !== null && plan.command.length > 0;

  return (
    <div className="commit__form commit__pr" data-testid="pr-form">
      {plan === null && error === null && (
        <p className="commit__loading" data-testid="pr-drafting">
          <Spinner className="changes__spinner" /> {t("pr.drafting")}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert" data-testid="pr-error">
          {error.message}
        </p>
      )}
      {plan && (
        <>
          <label className="field__label" htmlFor={titleId}>
            {t("pr.titleLabel")}
          </label>
          <input
            id={titleId}
            className="input"
            value={title}
            disabled={result !== null}
            onChange={(event) => setTitle(event.target.value)}
            data-testid="pr-title"
          />
          <label className="field__label" htmlFor={bodyId}>
            {t("pr.bodyLabel")}
          </label>
          <textarea
            id={bodyId}
            className="input commit__message"
            rows={8}
            value={body}
            disabled={result !== null}
            onChange={(event) => setBody(event.target.value)}
            data-testid="pr-body"
          />
          {cli ? (
            <>
              <p className="commit__hint">{t("pr.commandLead")}</p>
              <code className="commit__command" data-testid="pr-command">
                {shellLine(commandWith(plan, title, body))}
              </code>
            </>
          ) : plan.compare_url ? (
            <p className="commit__hint" data-testid="pr-no-cli">
              {t("pr.noCli")}{" "}
              <ExternalLink url={plan.compare_url} testId="pr-compare">
                {t("pr.compare")}
              </ExternalLink>
            </p>
          ) : (
            <p className="commit__notice" data-testid="pr-no-forge">
              {say({ code: "git_no_forge" })}
            </p>
          )}
        </>
      )}
      {createError && (
        <pre className="form-error commit__error" role="alert" data-testid="pr-create-error">
          {createError.message}
        </pre>
      )}
      {result && (
        <p className="commit__result" role="status" data-testid="pr-result">
          {result.url ? (
            <>
              {t("pr.created")}{" "}
              <ExternalLink url={result.url} testId="pr-url">
                {result.url}
              </ExternalLink>
            </>
          ) : (
            t("pr.createdNoUrl")
          )}
        </p>
      )}
      {result && !result.url && result.output !== "" && <pre className="commit__output-text">{result.output}</pre>}
      <div className="commit__form-actions">
        <button type="button" className="button button--small button--quiet" disabled={creating} onClick={onClose}>
          {result ? t("common:close") : t("common:cancel")}
        </button>
        {cli && result === null && (
          <button
            type="button"
            className="button button--small button--primary"
            disabled={creating || title.trim() === ""}
            onClick={() => void create()}
            data-testid="pr-create"
          >
            {creating && <Spinner />}
            {t("pr.create")}
          </button>
        )}
      </div>
    </div>
  );
}
