import { formatCount } from "../../format";
import type { SessionStatus } from "../../gen/protocol";
import { useT } from "../../i18n";

/** "12.3k", "128k", "1.2M": token counts short enough for the header. */
export function shortTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) {
    const k = tokens / 1000;
    return `${k < 10 ? k.toFixed(1).replace(/\.0$/, "") : Math.round(k)}k`;
  }
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

interface ContextMeterProps {
  status: SessionStatus;
  onOpen: () => void;
  open: boolean;
  /** An external agent's session: the figures are the agent's, and there is no prompt
   * of Memo's to inspect. */
  agent?: string | undefined;
}

/**
 * Context used of the model's window as a small bar (amber from the compaction threshold
 * minus ten points, red past it) and the session's cost; a click opens the prompt
 * inspector. For an external agent's session, the agent's own figures, not clickable.
 */
export function ContextMeter({ status, onOpen, open, agent }: ContextMeterProps) {
  const t = useT("context");
  const share = status.context_window > 0 ? status.used_tokens / status.context_window : 0;
  const percent = Math.min(100, Math.round(share * 100));
  const level = percent >= status.compact_at_percent ? "full" : percent >= status.compact_at_percent - 10 ? "high" : "ok";
  const cost = status.cost_usd === null ? null : formatCost(status.cost_usd);
  const fill = {
    used: formatCount(status.used_tokens),
    window: formatCount(status.context_window),
    percent,
    compactAt: status.compact_at_percent,
  };
  const title =
    agent !== undefined
      ? t("meter.titleAgent", { ...fill, agent }) + (cost === null ? "" : t("meter.titleAgentCost", { cost }))
      : cost === null
        ? t("meter.titleNoPrice", fill)
        : t("meter.titleWithCost", { ...fill, calls: status.calls, cost });
  const body = (
    <>
      <span className="context-meter__bar" aria-hidden="true">
        <span className="context-meter__fill" style={{ width: `${Math.max(percent, 2)}%` }} />
      </span>
      <span className="context-meter__text">
        {shortTokens(status.used_tokens)} / {shortTokens(status.context_window)}
      </span>
      {cost !== null && (
        <span className="context-meter__cost" data-testid="context-cost">
          {cost}
        </span>
      )}
    </>
  );
  if (agent !== undefined) {
    // The agent compacts its own context: no amber or red at Memo's threshold, and no
    // prompt of Memo's to open.
    return (
      <span
        className="context-meter context-meter--ok context-meter--agent"
        title={title}
        role="img"
        aria-label={t("meter.labelAgent", { percent, agent })}
        data-testid="context-meter"
        data-percent={percent}
      >
        {body}
      </span>
    );
  }
  return (
    <button
      type="button"
      className={`context-meter context-meter--${level}${open ? " context-meter--open" : ""}`}
      onClick={onOpen}
      title={title}
      aria-label={t("meter.label", { percent })}
      aria-expanded={open}
      data-testid="context-meter"
      data-percent={percent}
    >
      {body}
    </button>
  );
}
