import { AlertIcon, RetryIcon, Spinner } from "../../../components/icons";
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

export function ErrorNotice({
  kind,
  message,
  title,
  detail,
}: {
  kind: ErrorKind;
  message: string;
  title?: string | undefined;
  /** The raw error behind the sentence, folded away. */
  detail?: string | null | undefined;
}) {
  return (
    <div className="notice notice--error" role="alert" data-testid="error-notice" data-kind={kind}>
      <AlertIcon className="notice__icon" />
      <div>
        <strong className="notice__title">{title ?? ERROR_TITLES[kind] ?? "Error"}</strong>
        <p className="notice__message">{message}</p>
        {detail && (
          <details className="notice__detail" data-testid="error-detail">
            <summary>Details</summary>
            <code>{detail}</code>
          </details>
        )}
      </div>
    </div>
  );
}

/** What a low-level failure means, in a few words; the raw text stays in the tooltip. */
export function friendlyReason(reason: string): string {
  const text = reason.toLowerCase();
  if (/connection refused|error sending request|dns|connect|unreachable|reset by peer/.test(text)) {
    return "the provider could not be reached";
  }
  if (/timed out|timeout/.test(text)) return "the provider did not answer in time";
  if (/429|rate limit|rate_limit|too many requests/.test(text)) return "the provider is rate limiting";
  if (/overloaded|529|503|502|500|server error/.test(text)) return "the provider is overloaded";
  if (/stream ended|interrupted|incomplete/.test(text)) return "the answer was cut off";
  return "the request failed";
}

/** "Retrying in 2 s…" while it is the newest thing in a running turn, history after. */
export function RetryNotice({ item, live }: { item: RetryItem; live: boolean }) {
  const delay = formatDelay(item.delayMs);
  const attempt = `attempt ${item.attempt + 1} of ${item.maxAttempts}`;
  return (
    <div className="notice notice--retry" data-testid="retry-notice" title={item.reason}>
      <RetryIcon className="notice__icon" />
      <span>
        {live ? `Retrying in ${delay}: ` : "Retried: "}
        {friendlyReason(item.reason)}
        <span className="notice__meta">
          {" "}
          ({attempt}
          {item.discardedPartial ? "; the partial answer was discarded" : ""})
        </span>
      </span>
    </div>
  );
}

/** A session-level note: a slash command's output or a compaction (with a spinner while under way). */
export function InfoNotice({ title, body, ok, busy = false }: { title: string; body: string; ok: boolean; busy?: boolean }) {
  return (
    <div
      className={`notice ${ok ? "notice--info" : "notice--error"}`}
      data-testid="info-notice"
      role={busy ? "status" : undefined}
      aria-busy={busy || undefined}
    >
      {busy && <Spinner className="notice__icon" />}
      <div>
        <strong className="notice__title">{title}</strong>
        <pre className="notice__body">{body}</pre>
      </div>
    </div>
  );
}
