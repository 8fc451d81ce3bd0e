import { AlertIcon, RetryIcon, Spinner } from "../../../components/icons";
import type { ErrorKind } from "../../../gen/protocol";
import { t as translate, useT } from "../../../i18n";
import { worded, type RetryItem, type Wording } from "../../../state/transcript";
import { formatDelay } from "../format";

/** The kinds of error with a title of their own (the others are "Error"). */
const TITLED: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  "auth",
  "rate_limited",
  "overloaded",
  "context_overflow",
  "network",
  "config",
  "storage",
  "invalid_op",
]);

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
  const t = useT("transcript");
  return (
    <div className="notice notice--error" role="alert" data-testid="error-notice" data-kind={kind}>
      <AlertIcon className="notice__icon" />
      <div>
        <strong className="notice__title">{title ?? (TITLED.has(kind) ? t(`errorTitle.${kind}`) : t("errorTitle.other"))}</strong>
        <p className="notice__message">{message}</p>
        {detail && (
          <details className="notice__detail" data-testid="error-detail">
            <summary>{t("errorDetails")}</summary>
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
    return translate("transcript:reason.unreachable");
  }
  if (/timed out|timeout/.test(text)) return translate("transcript:reason.timeout");
  if (/429|rate limit|rate_limit|too many requests/.test(text)) return translate("transcript:reason.rateLimited");
  if (/overloaded|529|503|502|500|server error/.test(text)) return translate("transcript:reason.overloaded");
  if (/stream ended|interrupted|incomplete/.test(text)) return translate("transcript:reason.cutOff");
  return translate("transcript:reason.failed");
}

/** "Retrying in 2 s…" while it is the newest thing in a running turn, history after. */
export function RetryNotice({ item, live }: { item: RetryItem; live: boolean }) {
  const t = useT("transcript");
  const delay = formatDelay(item.delayMs);
  const attempt = t("retry.attempt", { n: item.attempt + 1, max: item.maxAttempts });
  const reason = friendlyReason(item.reason);
  return (
    <div className="notice notice--retry" data-testid="retry-notice" title={item.reason}>
      <RetryIcon className="notice__icon" />
      <span>
        {live ? t("retry.retrying", { delay, reason }) : t("retry.retried", { reason })}
        <span className="notice__meta">
          {item.discardedPartial ? t("retry.metaDiscarded", { attempt }) : t("retry.meta", { attempt })}
        </span>
      </span>
    </div>
  );
}

/** A session-level note: a slash command's output or a compaction (with a spinner while under way). */
export function InfoNotice({ title, body, ok, busy = false }: { title: Wording; body: Wording; ok: boolean; busy?: boolean }) {
  // Subscribed to the language so a switch re-words a note that is already shown.
  useT("transcript");
  return (
    <div
      className={`notice ${ok ? "notice--info" : "notice--error"}`}
      data-testid="info-notice"
      role={busy ? "status" : undefined}
      aria-busy={busy || undefined}
    >
      {busy && <Spinner className="notice__icon" />}
      <div>
        <strong className="notice__title">{worded(title)}</strong>
        <pre className="notice__body">{worded(body)}</pre>
      </div>
    </div>
  );
}
