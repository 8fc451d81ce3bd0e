import { useCallback, useEffect, useRef, useState } from "react";

import type { CommitResult, GitChange, GitFile, GitStatus } from "../../gen/protocol";
import { useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { type IpcError, ipc, toIpcError } from "../../ipc";
import { CommitForm } from "./CommitForm";
import { PushActions } from "./PushActions";

/** How the files are grouped, in this order. */
type Group = "staged" | "unstaged" | "untracked" | "conflicted";
const GROUPS: readonly Group[] = ["staged", "unstaged", "untracked", "conflicted"];

const CHANGE_LETTER: Record<GitChange, string> = { added: "A", modified: "M", deleted: "D", renamed: "R", type_changed: "T" };

/** Whether the file belongs in the group: a partly staged file is in Staged and Not staged both. */
function inGroup(file: GitFile, group: Group): boolean {
  switch (group) {
    case "staged":
      return file.staged !== undefined && !file.conflicted;
    case "unstaged":
      return file.unstaged !== undefined && !file.conflicted && !file.untracked;
    case "untracked":
      return file.untracked && !file.conflicted;
    case "conflicted":
      return file.conflicted;
  }
}

/** The change a row of the group shows: the index's side in Staged, the folder's otherwise. */
function changeIn(file: GitFile, group: Group): GitChange | undefined {
  if (group === "staged") return file.staged;
  if (group === "unstaged") return file.unstaged;
  return undefined;
}

interface CommitBoxProps {
  sessionId: string;
  /** A turn is running: the commit waits (the agent may still stage or change files). */
  busy: boolean;
  /** The panel's list: read the status again whenever it changes (a keep stages hunks). */
  refreshKey: unknown;
  /** Something here changed what the panel lists (staged, committed): it reads it again. */
  onChanged: () => void;
}

/**
 * The repository under the changes panel: its branch, what is staged and what is not, the
 * commit of what is staged, the push and the pull request.
 */
export function CommitBox({ sessionId, busy, refreshKey, onChanged }: CommitBoxProps) {
  const t = useT("changes");
  const [status, setStatus] = useState<GitStatus | null>(null);
  const [statusError, setStatusError] = useState<IpcError | null>(null);
  const [stageError, setStageError] = useState<IpcError | null>(null);
  const [working, setWorking] = useState<string | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [committed, setCommitted] = useState<CommitResult | null>(null);
  const [tick, setTick] = useState(0);
  // Answers to an older read (the list changed again meanwhile) are dropped.
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    void (async () => {
      try {
        const next = await ipc.gitStatus({ sessionId });
        if (request !== latest.current) return;
        setStatus(next);
        setStatusError(null);
      } catch (raised) {
        if (request === latest.current) setStatusError(toIpcError("git_status", raised));
      }
    })();
  }, [sessionId, refreshKey, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);

  const stage = async (file: GitFile, unstage: boolean) => {
    setWorking(`${file.path}:${unstage ? "unstage" : "stage"}`);
    try {
      const next = await ipc.gitStage({ sessionId, request: { path: file.path, unstage } });
      latest.current++;
      setStatus(next);
      setStageError(null);
      // The panel's kept hunks are what the index holds.
      onChanged();
    } catch (raised) {
      setStageError(toIpcError("git_stage", raised));
      reload();
    } finally {
      setWorking(null);
    }
  };

  const files = status?.files ?? [];
  const staged = files.some((f) => inGroup(f, "staged"));
  // Said here, in the window's words, before the form would say it.
  const notices = [
    ...(status?.operation
      ? [say({ code: "git_operation_in_progress", operation: t(`git.operation.${status.operation}`) })]
      : []),
    ...(status && !status.identity ? [say({ code: "git_no_identity" })] : []),
  ];
  const canOpen = status !== null && staged && notices.length === 0 && working === null;

  return (
    <section className="commit" aria-label={t("git.label")} data-testid="commit-box">
      <header className="commit__head">
        <h3 className="commit__title">{t("git.title")}</h3>
        {status && <BranchLine status={status} />}
      </header>

      {statusError && (
        <p className="form-error" role="alert" data-testid="git-status-error">
          {statusError.message}
        </p>
      )}
      {notices.map((notice) => (
        <p key={notice} className="commit__notice" role="status" data-testid="git-notice">
          {notice}
        </p>
      ))}
      {status && files.length === 0 && <p className="commit__clean">{t("git.clean")}</p>}

      {GROUPS.map((group) => {
        const rows = files.filter((f) => inGroup(f, group));
        if (rows.length === 0) return null;
        return (
          <div key={group} className="commit__group" data-testid={`git-group-${group}`}>
            <h4 className="commit__group-title">
              {t(`git.group.${group}`)} <span className="commit__count">{rows.length}</span>
            </h4>
            <ul className="commit__files">
              {rows.map((file) => (
                <GitFileRow
                  key={file.path}
                  file={file}
                  group={group}
                  disabled={working !== null}
                  onStage={(unstage) => void stage(file, unstage)}
                />
              ))}
            </ul>
          </div>
        );
      })}
      {stageError && (
        <p className="form-error" role="alert" data-testid="git-stage-error">
          {stageError.message}
        </p>
      )}

      {committed && (
        <p className="commit__result" role="status" data-testid="commit-result">
          {t("commit.done", { commit: committed.commit, summary: committed.summary })}
        </p>
      )}
      {formOpen ? (
        <CommitForm
          sessionId={sessionId}
          busy={busy}
          onCancel={() => setFormOpen(false)}
          onCommitted={(result) => {
            setCommitted(result);
            setFormOpen(false);
            reload();
            onChanged();
          }}
        />
      ) : (
        <div className="commit__actions">
          <button
            type="button"
            className="button button--primary button--small"
            disabled={!canOpen}
            title={status !== null && !staged ? t("commit.nothingStaged") : undefined}
            onClick={() => {
              setCommitted(null);
              setFormOpen(true);
            }}
            data-testid="commit-open"
          >
            {t("commit.open")}
          </button>
        </div>
      )}

      {status && <PushActions sessionId={sessionId} status={status} onPushed={reload} />}
    </section>
  );
}

/** `main → origin/main · 2 ahead, 1 behind`, or the detached HEAD. */
function BranchLine({ status }: { status: GitStatus }) {
  const t = useT("changes");
  const counts = [
    ...(status.ahead > 0 ? [t("git.ahead", { count: status.ahead })] : []),
    ...(status.behind > 0 ? [t("git.behind", { count: status.behind })] : []),
  ];
  return (
    <p className="commit__branch" data-testid="git-branch">
      <span className="commit__branch-name">{status.branch ?? t("git.detached")}</span>
      {status.upstream ? (
        <span className="commit__upstream" data-testid="git-upstream">
          {t("git.upstream", { upstream: status.upstream })}
          {counts.length > 0 && ` · ${counts.join(t("git.countSeparator"))}`}
          {counts.length === 0 && ` · ${t("git.upToDate")}`}
        </span>
      ) : (
        status.branch !== undefined && <span className="commit__upstream">{t("git.noUpstream")}</span>
      )}
    </p>
  );
}

function GitFileRow({
  file,
  group,
  disabled,
  onStage,
}: {
  file: GitFile;
  group: Group;
  disabled: boolean;
  onStage: (unstage: boolean) => void;
}) {
  const t = useT("changes");
  const change = changeIn(file, group);
  const path = file.renamed_from && group === "staged" ? t("git.renamed", { from: file.renamed_from, to: file.path }) : file.path;
  return (
    <li className="commit__file" data-testid="git-file" data-path={file.path} data-group={group}>
      <span className={`commit__change${change ? ` commit__change--${change}` : ""}`} title={change ? t(`git.change.${change}`) : undefined}>
        {change ? CHANGE_LETTER[change] : ""}
      </span>
      <span className="commit__path" title={path}>
        {path}
      </span>
      {group === "staged" ? (
        <button
          type="button"
          className="button button--small button--quiet"
          disabled={disabled}
          onClick={() => onStage(true)}
          data-testid="git-unstage-file"
        >
          {t("git.unstage")}
        </button>
      ) : (
        <button
          type="button"
          className="button button--small button--quiet"
          disabled={disabled}
          title={group === "conflicted" ? t("git.stageResolvedTitle") : undefined}
          onClick={() => onStage(false)}
          data-testid="git-stage-file"
        >
          {t("git.stage")}
        </button>
      )}
    </li>
  );
}
