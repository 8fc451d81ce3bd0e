import { useState } from "react";

import { Spinner } from "../../components/icons";
import { useDialogKeys } from "../../components/useDialogKeys";
import type { GitStatus, Phrase, PushRequest } from "../../gen/protocol";
import { useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { type IpcError, ipc, toIpcError } from "../../ipc";
import { PullRequestForm } from "./PullRequestForm";

/** Where a push went, or would go: a remote and the branch there. */
interface Target {
  remote: string;
  branch: string;
}

/** What the last push answered, as this box shows it. */
type Outcome =
  | { type: "pushed"; remote: string; branch: string }
  | { type: "choose_remote"; branch: string; remotes: string[] }
  | { type: "rejected"; reason: Phrase; output: string; target: Target };

/** The remote offered first for a branch without an upstream. */
function firstChoice(remotes: readonly string[]): string {
  return remotes.includes("origin") ? "origin" : (remotes[0] ?? "");
}

/**
 * The push of the session's branch (asking which remote when it has no upstream, a force
 * push only after a question naming where), then the pull request.
 */
export function PushActions({ sessionId, status, onPushed }: { sessionId: string; status: GitStatus; onPushed: () => void }) {
  const t = useT("changes");
  const [pushing, setPushing] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [remote, setRemote] = useState("");
  const [askForce, setAskForce] = useState(false);
  const [prOpen, setPrOpen] = useState(false);

  const push = async (request: PushRequest) => {
    setPushing(true);
    setError(null);
    setAskForce(false);
    try {
      const result = await ipc.pushBranch({ sessionId, request });
      switch (result.type) {
        case "pushed":
          setOutcome({ type: "pushed", remote: result.remote, branch: result.branch });
          onPushed();
          break;
        case "choose_remote":
          setOutcome({ type: "choose_remote", branch: result.branch, remotes: result.remotes });
          setRemote(firstChoice(result.remotes));
          break;
        case "rejected":
          setOutcome({ type: "rejected", reason: result.reason, output: result.output, target: { remote: result.remote, branch: result.branch } });
          break;
      }
    } catch (raised) {
      setError(toIpcError("push_branch", raised));
    } finally {
      setPushing(false);
    }
  };

  // Something to push: commits the upstream lacks, or a branch with commits and no upstream.
  const canPush = status.branch !== undefined && status.head !== undefined && (status.upstream === undefined || status.ahead > 0);
  // A pull request of what the remote has: pushed, with nothing new since (a branch this
  // box just pushed may not show its new upstream until the status is read again).
  const canOpenPr =
    status.branch !== undefined && (status.upstream !== undefined ? status.ahead === 0 : outcome?.type === "pushed");
  // Only a remote that moved on is answered by a force push (with lease); the other
  // refusals (a protected branch, a sign-in, a stale lease) would refuse it the same.
  const force = outcome?.type === "rejected" && outcome.reason.code === "git_push_behind" ? outcome.target : null;

  return (
    <div className="commit__push" data-testid="push-box">
      {(canPush || canOpenPr) && (
        <div className="commit__actions">
          {canPush && (
            <button
              type="button"
              className="button button--small"
              disabled={pushing}
              title={status.upstream ? t("push.toUpstream", { upstream: status.upstream }) : undefined}
              onClick={() => void push({ force: false })}
              data-testid="push-branch"
            >
              {pushing && <Spinner />}
              {t("push.push")}
            </button>
          )}
          {canOpenPr && !prOpen && (
            <button type="button" className="button button--small" onClick={() => setPrOpen(true)} data-testid="pr-open">
              {t("pr.open")}
            </button>
          )}
        </div>
      )}

      {error && (
        <p className="form-error" role="alert" data-testid="push-error">
          {error.message}
        </p>
      )}

      {outcome?.type === "pushed" && (
        <p className="commit__result" role="status" data-testid="push-result">
          {t("push.pushed", { remote: outcome.remote, branch: outcome.branch })}
        </p>
      )}

      {outcome?.type === "choose_remote" && (
        <div className="commit__choose" data-testid="push-choose">
          {outcome.remotes.length === 0 ? (
            <p className="commit__notice" role="alert" data-testid="push-no-remote">
              {say({ code: "git_no_remote" })}
            </p>
          ) : (
            <>
              <label className="commit__choose-label">
                {t("push.chooseRemote", { branch: outcome.branch })}
                <select className="input commit__select" value={remote} onChange={(event) => setRemote(event.target.value)} data-testid="push-remote">
                  {outcome.remotes.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
              <span className="commit__choose-actions">
                <button type="button" className="button button--small button--quiet" disabled={pushing} onClick={() => setOutcome(null)}>
                  {t("common:cancel")}
                </button>
                <button
                  type="button"
                  className="button button--small button--primary"
                  disabled={pushing || remote === ""}
                  onClick={() => void push({ remote, force: false })}
                  data-testid="push-confirm"
                >
                  {t("push.setUpstream")}
                </button>
              </span>
            </>
          )}
        </div>
      )}

      {outcome?.type === "rejected" && (
        <div className="commit__rejected">
          <p className="form-error" role="alert" data-testid="push-rejected">
            {say(outcome.reason)}
          </p>
          {outcome.output !== "" && (
            <details className="commit__output" data-testid="push-output">
              <summary>{t("push.output")}</summary>
              <pre>{outcome.output}</pre>
            </details>
          )}
          {force !== null && !askForce && (
            <button type="button" className="button button--small button--danger" disabled={pushing} onClick={() => setAskForce(true)} data-testid="push-force">
              {t("push.force")}
            </button>
          )}
          {force !== null && askForce && (
            <ForceQuestion
              target={force}
              working={pushing}
              onForce={() => void push({ remote: force.remote, force: true })}
              onCancel={() => setAskForce(false)}
            />
          )}
        </div>
      )}

      {prOpen && <PullRequestForm sessionId={sessionId} onClose={() => setPrOpen(false)} />}
    </div>
  );
}

/** "Force-push to origin/main? What is there now is replaced." Cancel has the focus; Esc cancels. */
function ForceQuestion({ target, working, onForce, onCancel }: { target: Target; working: boolean; onForce: () => void; onCancel: () => void }) {
  const t = useT("changes");
  const cancel = useDialogKeys(onCancel);
  return (
    <div className="changes__held" role="group" data-testid="push-force-question">
      <p className="changes__held-message" role="alert">
        {t("push.forceQuestion", { remote: target.remote, branch: target.branch })}
      </p>
      <div className="changes__held-actions">
        <button type="button" className="button button--small button--danger" disabled={working} onClick={onForce} data-testid="push-force-confirm">
          {working && <Spinner />}
          {t("push.forceGo", { remote: target.remote, branch: target.branch })}
        </button>
        <button ref={cancel} type="button" className="button button--small" disabled={working} onClick={onCancel}>
          {t("common:cancel")}
        </button>
      </div>
    </div>
  );
}
