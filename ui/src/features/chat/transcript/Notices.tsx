import { AlertIcon, RetryIcon } from "../../../components/icons";
import type { ErrorKind } from "../../../gen/protocol";
import type { RetryItem } from "../../../state/transcript";
import { formatDelay } from "../format";

const ERROR_TITLES: Partial<Record<ErrorKind, string>> = {
  auth: "Authentication failed",
  rate_limited: "Rate limited",
  overloaded: "The provider is overloaded",
  context_overflow: "The conversation is too long for the model",
  network: "Network error",
  config: "Configuration error",
  storage: "Could not save the session",
  invalid_op: "Not possible right now",
};

export function ErrorNotice({ kind, message, title }: { kind: ErrorKind; message: string; title?: string | undefined }) {
  return (
    <div className="notice notice--error" role="alert" data-testid="error-notice" data-kind={kind}>
      <AlertIcon className="notice__icon" />
      <div>
        <strong className="notice__title">{title ?? ERROR_TITLES[kind] ?? "Error"}</strong>
        <p className="notice__message">{message}</p>
      </div>
    </div>
  );
}

/** "Retrying in 2 s…" while it is the newest thing in a running turn, history after. */
export function RetryNotice({ item, live }: { item: RetryItem; live: boolean }) {
  const delay = formatDelay(item.delayMs);
  const attempt = `attempt ${item.attempt} of ${item.maxAttempts}`;
  return (
    <div className="notice notice--retry" data-testid="retry-notice">
      <RetryIcon className="notice__icon" />
      <span>
        {live ? `Retrying in ${delay}… ` : `Retried after ${delay} `}
        <span className="notice__meta">
          ({attempt}
          {item.discardedPartial ? ", partial answer discarded" : ""}) — {item.reason}
        </span>
      </span>
    </div>
  );
}

/** A session-level note: a slash command's output or a compaction. */
export function InfoNotice({ title, body, ok }: { title: string; body: string; ok: boolean }) {
  return (
    <div className={`notice ${ok ? "notice--info" : "notice--error"}`} data-testid="info-notice">
      <div>
        <strong className="notice__title">{title}</strong>
        <pre className="notice__body">{body}</pre>
      </div>
    </div>
  );
}
