import { memo, useMemo, useState } from "react";

import { RetryIcon, RewindIcon, Spinner } from "../../../components/icons";
import { useT } from "../../../i18n";
import { say } from "../../../i18n/phrase";
import { ReadingPrompt } from "./ReadingPrompt";
import type { ApprovalItem, TurnItem, TurnView } from "../../../state/transcript";
import { formatUsage } from "../format";
import { imageUrl } from "../images";
import { Markdown } from "../markdown/LazyMarkdown";
import { ApprovalCard } from "./ApprovalCard";
import { HookLine } from "./HookLine";
import { ErrorNotice, InfoNotice, RetryNotice } from "./Notices";
import { PlanCard } from "./PlanCard";
import { ToolCard, type CardApproval } from "./ToolCard";

/** The ends a turn's footer names (in the catalog's `turn.end`). */
const END_KEYS: Partial<Record<TurnView["status"], string>> = {
  interrupted: "turn.end.interrupted",
  step_limit: "turn.end.stepLimit",
  failed: "turn.end.failed",
};

interface TurnBlockProps {
  turn: TurnView;
  onRewind?: ((turn: TurnView) => void) | undefined;
  rewindDisabled?: boolean;
  /** Sends a failed turn's message again. */
  onRetry?: ((turn: TurnView) => void) | undefined;
}

/** A user's message longer than this is shown cut, with "Show all". */
const SHORT_LINES = 8;
const SHORT_CHARS = 800;

/** The start of a long message (its first lines), or null when it is short enough to show. */
export function shortText(text: string): string | null {
  const lines = text.split("\n");
  if (lines.length <= SHORT_LINES && text.length <= SHORT_CHARS) return null;
  return `${lines.slice(0, SHORT_LINES).join("\n").slice(0, SHORT_CHARS).trimEnd()}…`;
}

/**
 * The user's text; a long one (a pasted log) cut to its first lines until asked for, so
 * one message never fills the screen (nor lays out 200 KB of text while scrolled past).
 */
function UserText({ text }: { text: string }) {
  const t = useT("transcript");
  const [open, setOpen] = useState(false);
  const short = useMemo(() => shortText(text), [text]);
  if (short === null) return <>{text}</>;
  const lines = text.split("\n").length;
  return (
    <>
      <span data-testid="user-text">{open ? text : short}</span>
      <button
        type="button"
        className="bubble__more"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="user-text-toggle"
      >
        {open ? t("common:showLess") : t("turn.showAll", { n: lines.toLocaleString("en-US") })}
      </button>
    </>
  );
}

/** Failures that trying again can fix; a refused key or a broken config cannot. */
const RETRYABLE = new Set(["network", "overloaded", "rate_limited", "provider", "internal"]);

/** Whether a failed turn is worth a Retry button (an interrupted or stopped one offers
 *  Continue: see `retryLabel`). */
export function canRetry(turn: TurnView): boolean {
  if (turn.status === "interrupted" || turn.status === "step_limit") return true;
  if (turn.status !== "failed") return false;
  const error = [...turn.items].reverse().find((item) => item.kind === "error");
  return error === undefined || (error.kind === "error" && RETRYABLE.has(error.errorKind));
}

/** One exchange: the user's message, then everything the agent did for it. */
export const TurnBlock = memo(function TurnBlock({
  turn,
  onRewind,
  rewindDisabled = false,
  onRetry,
}: TurnBlockProps) {
  const t = useT("transcript");
  const running = turn.status === "running";
  const last = turn.items[turn.items.length - 1];
  const endKey = END_KEYS[turn.status];
  const endLabel = endKey === undefined ? undefined : t(endKey);
  // An external agent that does not report its tokens: no "0 in · 0 out" line.
  const counted = turn.usage !== null && (turn.usage.input_tokens > 0 || turn.usage.output_tokens > 0);
  // An approval is answered inside its call's card; one whose call has no card here (a
  // subagent's relayed question names the child's call) keeps a card of its own.
  const approvals = useMemo(() => approvalsByCall(turn.items), [turn.items]);
  const pendingApproval = [...approvals.values()].some((approval) => approval.item.decision === null);
  // A streaming text block already shows progress, a question waits for an answer;
  // otherwise (an answered question too: the call it held runs now) say that work goes on.
  const waitsOnQuestion = pendingApproval || (last?.kind === "approval" && last.decision === null);
  const showWorking = running && !(last?.kind === "text" && last.provisional) && !waitsOnQuestion;

  return (
    <article className="turn" data-testid="turn" data-status={turn.status} data-start-seq={turn.startSeq}>
      {turn.retryOf ? (
        <div className="turn__resumed" data-testid="turn-resumed">
          <RetryIcon className="button__icon" /> {t("turn.resumed")}
        </div>
      ) : (
      <div className="turn__user">
        {onRewind && (
          <button
            type="button"
            className="icon-button turn__rewind"
            title={t("turn.rewindTitle")}
            aria-label={t("turn.rewind")}
            data-testid="rewind-turn"
            disabled={rewindDisabled}
            onClick={() => onRewind(turn)}
          >
            <RewindIcon />
          </button>
        )}
        <div className="bubble" data-testid="user-message">
          {turn.images.length > 0 && (
            <div className="bubble__images" data-testid="user-images">
              {turn.images.map((image, index) => (
                <img key={index} src={imageUrl(image)} alt={image.name ?? t("turn.image")} className="bubble__image" />
              ))}
            </div>
          )}
          <UserText text={turn.input} />
        </div>
      </div>
      )}
      {turn.items.map((item) =>
        item.kind === "approval" && approvals.has(item.request.call_id) && item.request.agent === undefined ? null : (
          <TurnItemView
            key={item.key}
            item={item}
            live={running && item === last}
            approval={item.kind === "tool" ? approvals.get(item.callId) : undefined}
          />
        ),
      )}
      {showWorking && running && turn.waiting ? (
        <ReadingPrompt waiting={turn.waiting} />
      ) : showWorking && (
        <div className="turn__working" data-testid="turn-working">
          <Spinner /> {last?.kind === "reasoning" ? t("turn.thinking") : t("turn.working")}
        </div>
      )}
      {(endLabel || counted) && !running && (
        <footer className="turn__footer">
          {endLabel && (
            <span className={`turn__end turn__end--${turn.status}`} data-testid="turn-end">
              {endLabel}
            </span>
          )}
          {counted && turn.usage && <span data-testid="turn-usage">{formatUsage(turn.usage)}</span>}
          {onRetry && canRetry(turn) && (
            <button
              type="button"
              className="button button--small turn__retry"
              onClick={() => onRetry(turn)}
              disabled={rewindDisabled}
              data-testid="retry-turn"
            >
              <RetryIcon className="button__icon" /> {turn.status === "failed" ? t("turn.retry") : t("turn.continue")}
            </button>
          )}
        </footer>
      )}
    </article>
  );
});

/** This turn's approvals by the call that asked, for the calls that have a card here. */
function approvalsByCall(items: readonly TurnItem[]): Map<string, CardApproval> {
  const calls = new Set(items.flatMap((item) => (item.kind === "tool" ? [item.callId] : [])));
  const byCall = new Map<string, CardApproval>();
  for (const item of items) {
    // A subagent's relayed question names the child's call, not one of this turn's.
    if (item.kind !== "approval" || item.request.agent !== undefined || !calls.has(item.request.call_id)) continue;
    byCall.set(item.request.call_id, { item, sameToolWaiting: waitingCallsLike(items, item) });
  }
  return byCall;
}

/** Other calls of the request's tool that have not run yet: the rest of its step. */
function waitingCallsLike(items: readonly TurnItem[], approval: ApprovalItem): number {
  const { tool_name: name, call_id: callId } = approval.request;
  return items.filter((i) => i.kind === "tool" && i.name === name && i.status === "running" && i.callId !== callId).length;
}

function TurnItemView({ item, live, approval }: { item: TurnItem; live: boolean; approval: CardApproval | undefined }) {
  const t = useT("transcript");
  switch (item.kind) {
    case "text":
      return (
        <div className={`answer${item.provisional ? " answer--streaming" : ""}`} data-testid="assistant-text">
          <Markdown text={item.text} />
        </div>
      );
    case "reasoning":
      return (
        <details className="thinking" data-testid="thinking">
          <summary>{item.provisional ? t("turn.thinking") : t("turn.thought")}</summary>
          <div className="thinking__body">{item.text}</div>
        </details>
      );
    case "tool":
      return <ToolCard tool={item} approval={approval} />;
    case "approval":
      return <ApprovalCard item={item} />;
    case "retry":
      return <RetryNotice item={item} live={live} />;
    case "plan":
      return <PlanCard plan={item} />;
    case "error":
      return <ErrorNotice kind={item.errorKind} message={item.phrase ? say(item.phrase) : item.message} detail={item.detail} />;
    case "hook":
      return <HookLine item={item} />;
    case "info":
      return <InfoNotice title={item.title} body={item.body} ok={item.ok} busy={item.busy === true} />;
  }
}
