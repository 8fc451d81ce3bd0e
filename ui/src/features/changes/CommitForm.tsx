import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

import { useEscape } from "../../components/escapeStack";
import { Spinner } from "../../components/icons";
import { isImeComposing } from "../../components/ime";
import type { CommitPreview, CommitResult, SecretFlag } from "../../gen/protocol";
import { useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { type IpcError, ipc, toIpcError } from "../../ipc";

interface CommitFormProps {
  sessionId: string;
  /** A turn is running: the commit waits for it. */
  busy: boolean;
  onCancel: () => void;
  onCommitted: (result: CommitResult) => void;
}

/**
 * The commit of what is staged: why it cannot be made, if it cannot; the staged files that
 * look like secrets, which must be seen and let through; the message, typed or drafted by
 * the model and edited. Esc cancels; Ctrl+Enter commits (Enter is a new line).
 */
export function CommitForm({ sessionId, busy, onCancel, onCommitted }: CommitFormProps) {
  const t = useT("changes");
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [preview, setPreview] = useState<CommitPreview | null>(null);
  const [previewError, setPreviewError] = useState<IpcError | null>(null);
  const [previewTick, setPreviewTick] = useState(0);
  const [message, setMessage] = useState("");
  const [allowFlagged, setAllowFlagged] = useState(false);
  const [drafting, setDrafting] = useState(false);
  const [draftError, setDraftError] = useState<IpcError | null>(null);
  const [committing, setCommitting] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const shownFlags = useRef<readonly SecretFlag[]>([]);

  useEffect(() => {
    box.current?.focus();
  }, []);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const next = await ipc.commitPreview({ sessionId });
        if (!live) return;
        // A flag not seen before has not been let through.
        if (!sameFlags(shownFlags.current, next.flagged)) setAllowFlagged(false);
        shownFlags.current = next.flagged;
        setPreview(next);
        setPreviewError(null);
      } catch (raised) {
        if (live) setPreviewError(toIpcError("commit_preview", raised));
      }
    })();
    return () => {
      live = false;
    };
  }, [sessionId, previewTick]);

  // A commit on its way lands whatever the form does: it waits for the answer.
  useEscape(() => {
    if (!committing) onCancel();
  });

  const flagged = preview?.flagged ?? [];
  const ready =
    preview !== null &&
    preview.blocked === undefined &&
    message.trim() !== "" &&
    (flagged.length === 0 || allowFlagged) &&
    !drafting &&
    !committing &&
    !busy;

  const commit = async () => {
    if (!ready) return;
    setCommitting(true);
    setError(null);
    try {
      const result = await ipc.commitStaged({ sessionId, request: { message, allow_flagged: allowFlagged } });
      onCommitted(result);
    } catch (raised) {
      // The message stays, to commit again once the hook (or whatever said no) is answered.
      setError(toIpcError("commit_staged", raised));
      setCommitting(false);
      setPreviewTick((n) => n + 1);
    }
  };

  const draft = async () => {
    setDrafting(true);
    setDraftError(null);
    try {
      const text = await ipc.draftCommitMessage({ sessionId });
      setMessage(text.trim());
      box.current?.focus();
    } catch (raised) {
      setDraftError(toIpcError("draft_commit_message", raised));
    } finally {
      setDrafting(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void commit();
  };
  const keys = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // The Enter that picks an input method's candidate is the input method's.
    if (isImeComposing(event)) return;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void commit();
    }
  };

  return (
    <form className="commit__form" onSubmit={submit} data-testid="commit-form">
      {preview === null && previewError === null && (
        <p className="commit__loading">
          <Spinner className="changes__spinner" /> {t("commit.checking")}
        </p>
      )}
      {previewError && (
        <p className="form-error" role="alert">
          {previewError.message}
        </p>
      )}
      {preview?.blocked && (
        <p className="commit__notice" role="alert" data-testid="commit-blocked">
          {say(preview.blocked)}
        </p>
      )}
      {flagged.length > 0 && (
        <div className="commit__flagged" role="alert" data-testid="commit-flagged">
          <p className="commit__flagged-lead">{say({ code: "git_secrets_staged", count: flagged.length })}</p>
          <ul>
            {flagged.map((flag) => (
              <li key={`${flag.path}:${flag.line ?? ""}:${flag.looks_like}`} data-testid="commit-flag">
                <FlagText flag={flag} />
              </li>
            ))}
          </ul>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={allowFlagged}
              onChange={(event) => setAllowFlagged(event.target.checked)}
              data-testid="commit-allow-flagged"
            />
            {t("commit.allowFlagged")}
          </label>
        </div>
      )}

      <label className="field__label" htmlFor={id}>
        {t("commit.messageLabel")}
      </label>
      <textarea
        id={id}
        ref={box}
        className="input commit__message"
        rows={5}
        value={message}
        placeholder={t("commit.messagePlaceholder")}
        onChange={(event) => setMessage(event.target.value)}
        onKeyDown={keys}
        data-testid="commit-message"
      />
      {draftError && (
        <p className="form-error" role="alert" data-testid="commit-draft-error">
          {draftError.message}
        </p>
      )}
      {error && (
        <pre className="form-error commit__error" role="alert" data-testid="commit-error">
          {error.message}
        </pre>
      )}

      <div className="commit__form-actions">
        <button
          type="button"
          className="button button--small"
          disabled={drafting || committing || preview === null || preview.files.length === 0}
          onClick={() => void draft()}
          data-testid="commit-draft"
        >
          {drafting && <Spinner />}
          {t("commit.draft")}
        </button>
        <span className="commit__hint">{busy ? t("commit.wait") : t("commit.shortcut")}</span>
        <button type="button" className="button button--small button--quiet" disabled={committing} onClick={onCancel}>
          {t("common:cancel")}
        </button>
        <button type="submit" className="button button--small button--primary" disabled={!ready} data-testid="commit-submit">
          {committing && <Spinner />}
          {t("commit.submit")}
        </button>
      </div>
    </form>
  );
}

/** `src/cfg.py, line 4: an AWS access key`, or by the file's name alone. */
function FlagText({ flag }: { flag: SecretFlag }) {
  const t = useT("changes");
  const kind = t(`secretKind.${flag.looks_like}`);
  return (
    <>
      {flag.line === undefined
        ? t("commit.flagName", { path: flag.path, kind })
        : t("commit.flagLine", { path: flag.path, line: flag.line, kind })}
    </>
  );
}

function sameFlags(a: readonly SecretFlag[], b: readonly SecretFlag[]): boolean {
  const key = (f: SecretFlag) => `${f.path}:${f.line ?? ""}:${f.looks_like}`;
  return a.length === b.length && a.every((f, i) => key(f) === key(b[i]!));
}
