// The pieces every tool card is made of: the folded line's icon and marks, the output
// with its "only the start" note, the files a call changed. Each card (./ToolCard and the
// cards beside it) puts them around what its view says.
import { useEffect, useRef, useState, type ReactNode, type SyntheticEvent } from "react";
import { Trans } from "react-i18next";

import { DiffStats, DiffView } from "../../../components/diff";
import { AlertIcon, CheckIcon, ShieldIcon, Spinner } from "../../../components/icons";
import type { FileChange } from "../../../gen/protocol";
import { t as translate, useT } from "../../../i18n";
import type { ApprovalItem, ToolItem, ToolProgressView } from "../../../state/transcript";
import { ApprovalInCard } from "./ApprovalCard";
import { formatBytes, type ShownOutput } from "./wholeOutput";

/** "waiting for approval", in the current language. */
export function waitingLabel(): string {
  return translate("transcript:status.waiting");
}

const STATUS_KEYS: Record<ToolItem["status"], string> = { running: "common:running", ok: "common:ok", error: "common:error" };

/** "timed out", "approval denied": a tool's error kind in words (an unknown kind as it is named). */
export function toolErrorLabel(kind: string): string {
  return translate(`transcript:toolError.${kind}`, { defaultValue: kind.replace(/_/g, " ") });
}

/** What a card needs of its call's approval, found in the same turn by call id. */
export interface CardApproval {
  item: ApprovalItem;
  /** Other calls of the same tool waiting in this step: one answer can cover them all. */
  sameToolWaiting: number;
}

/** A call held until the user answers its approval is not running yet. */
export function isWaiting(tool: ToolItem, approval: CardApproval | undefined): boolean {
  return tool.status === "running" && approval !== undefined && approval.item.decision === null;
}

/** "waiting for approval", "denied", "running", "ok". */
export function statusLabel(tool: ToolItem, waiting: boolean): string {
  if (waiting) return waitingLabel();
  return tool.errorKind ? toolErrorLabel(tool.errorKind) : translate(STATUS_KEYS[tool.status]);
}

export function StatusIcon({ tool, waiting, failed }: { tool: ToolItem; waiting: boolean; failed: boolean }) {
  if (waiting) return <ShieldIcon />;
  if (tool.status === "running") return <Spinner />;
  return failed ? <AlertIcon /> : <CheckIcon />;
}

/** Whether a `<details>` is open, so what it hides (diffs, whole outputs) is only built once someone looks. */
export function useDetailsOpen(): [boolean, (event: SyntheticEvent<HTMLDetailsElement>) => void] {
  const [open, setOpen] = useState(false);
  return [open, (event) => setOpen(event.currentTarget.open)];
}

/**
 * The card around a call: its folded line (`summary`), unfolding to `children`. Held open
 * while the call prints (`live`) or waits for an answer, folded again after.
 */
export function CardFrame({
  tool,
  variant,
  waiting,
  failed,
  live,
  onToggle,
  summary,
  status,
  children,
}: {
  tool: ToolItem;
  variant: string;
  waiting: boolean;
  failed: boolean;
  live: boolean;
  onToggle: (event: SyntheticEvent<HTMLDetailsElement>) => void;
  summary: ReactNode;
  status: string;
  children: ReactNode;
}) {
  return (
    <details
      className={`tool tool--${variant} tool--${waiting ? "waiting" : failed ? "error" : tool.status}`}
      data-testid="tool-card"
      data-status={tool.status}
      data-tool={tool.name}
      data-view={tool.view?.type ?? "none"}
      open={live || waiting ? true : undefined}
      onToggle={onToggle}
    >
      <summary className="tool__summary">
        <span className="tool__icon">
          <StatusIcon tool={tool} waiting={waiting} failed={failed} />
        </span>
        {summary}
        <RepairedMark repairs={tool.repairs} />
        <span className="tool__status" data-testid="tool-status">
          {status}
        </span>
      </summary>
      <div className="tool__body">
        {children}
        <RepairsNote repairs={tool.repairs} />
      </div>
    </details>
  );
}

/** The folded line's name of the call and what it is about. */
export function CardTitle({ label, title, subject }: { label: ReactNode; title?: string | undefined; subject: string }) {
  return (
    <>
      <span className="tool__name" title={title}>
        {label}
      </span>
      {subject && (
        <span className="tool__args" title={subject}>
          {subject}
        </span>
      )}
    </>
  );
}

/** The approval a card holds, where it happened: after what the call is, before what it did. */
export function CardApprovalPart({ tool, approval }: { tool: ToolItem; approval: CardApproval | undefined }) {
  const t = useT("transcript");
  if (approval !== undefined) return <ApprovalInCard item={approval.item} sameToolWaiting={approval.sameToolWaiting} />;
  const rules = tool.allowedBy ?? [];
  if (rules.length === 0) return null;
  // It would have asked; the person's kept rules let it run.
  return (
    <p className="approval__decision approval__decision--rule" data-testid="approval-decision">
      <Trans
        t={t}
        i18nKey="card.allowedBy"
        count={rules.length}
        components={{
          rules: (
            <>
              {rules.map((rule, index) => (
                <span key={rule}>
                  {index > 0 && t("listSeparator")}
                  <code>{rule}</code>
                </span>
              ))}
            </>
          ),
        }}
      />
    </p>
  );
}

/**
 * What Memo fixed in the model's arguments before the call ran (a small model's slip:
 * a mode left out, a number sent as a string). Folded, the card only hints at it.
 */
function RepairedMark({ repairs }: { repairs: readonly string[] | undefined }) {
  const t = useT("transcript");
  if (!repairs || repairs.length === 0) return null;
  return (
    <span
      className="tool__repaired"
      title={t("card.repairedTitle", { repairs: repairs.join(t("clauseSeparator")) })}
      data-testid="tool-repaired"
    >
      {t("card.repaired")}
    </span>
  );
}

/** The repairs in full, below what the call did. */
function RepairsNote({ repairs }: { repairs: readonly string[] | undefined }) {
  const t = useT("transcript");
  if (!repairs || repairs.length === 0) return null;
  return (
    <section className="tool__repairs" data-testid="tool-repairs">
      <h4 className="tool__repairs-title">{t("card.repairsHeading")}</h4>
      <ul className="tool__repairs-list">
        {repairs.map((repair, index) => (
          <li key={index}>{repair}</li>
        ))}
      </ul>
    </section>
  );
}

/** Under the start of a long output: the whole is on its way, or could not be read. */
export function PartialNote({ shown }: { shown: ShownOutput }) {
  const t = useT("transcript");
  if (!shown.partial || shown.fullLength === null) return null;
  const size = formatBytes(shown.fullLength);
  if (shown.error !== null) {
    return (
      <p className="tool__partial tool__partial--error" data-testid="tool-output-partial" role="alert">
        {t("card.partialError", { size, error: shown.error })}{" "}
        <button type="button" className="tool__partial-retry" onClick={shown.retry}>
          {t("common:retry")}
        </button>
      </p>
    );
  }
  return (
    <p className="tool__partial" data-testid="tool-output-partial">
      {shown.loading ? t("card.partialLoading", { size }) : t("card.partialStart", { size })}
    </p>
  );
}

/** What a call printed so far, while it runs and has no result yet. */
export function liveOutputOf(tool: ToolItem): string | null {
  return tool.status === "running" && tool.output === null && tool.liveOutput ? tool.liveOutput : null;
}

/** A running command's output so far, kept scrolled to its newest line. */
export function LiveOutput({ text }: { text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const pre = ref.current;
    if (pre) pre.scrollTop = pre.scrollHeight;
  }, [text]);
  return (
    <pre className="tool__pre tool__pre--live" data-testid="tool-live-output" ref={ref} aria-live="polite">
      {text}
    </pre>
  );
}

/** "2/5 · copying files", "40%", or just the count when the total is unknown. */
export function formatProgress(p: ToolProgressView): string {
  const amount =
    p.total !== null && p.total > 0
      ? Number.isInteger(p.progress) && Number.isInteger(p.total)
        ? `${p.progress}/${p.total}`
        : `${Math.round((p.progress / p.total) * 100)}%`
      : `${p.progress}`;
  return p.message ? `${amount} · ${p.message}` : amount;
}

/** Lines added and removed over a call's file changes. */
export function changeTotals(changes: readonly FileChange[]): { added: number; removed: number } {
  return changes.reduce(
    (sum, change) => ({ added: sum.added + change.added, removed: sum.removed + change.removed }),
    { added: 0, removed: 0 },
  );
}

const KIND_KEYS: Partial<Record<FileChange["kind"], string>> = { created: "fileKind.new", deleted: "fileKind.deleted" };

function KindBadge({ change }: { change: FileChange }) {
  const t = useT("transcript");
  const key = KIND_KEYS[change.kind];
  const label = key === undefined ? null : t(key);
  return label ? <span className={`tool__file-kind tool__file-kind--${change.kind}`}>{label}</span> : null;
}

/** One file as the engine saw it change; some changes come without a diff to show. */
export function ChangeDiff({ change }: { change: FileChange }) {
  const t = useT("transcript");
  if (change.diff) return <DiffView diff={change.diff} toolbar={<KindBadge change={change} />} />;
  return (
    <p className="tool__no-diff">
      <span className="tool__no-diff-path">{change.path}</span>
      <KindBadge change={change} />
      <span>{change.binary ? t("card.binary") : t("card.tooLarge")}</span>
    </p>
  );
}

/** The folded card's hint that the call changed files, with what "Changed N files" says on hover. */
export function ChangeTotals({ changes }: { changes: readonly FileChange[] | undefined }) {
  const t = useT("transcript");
  if (!changes || changes.length === 0) return null;
  const { added, removed } = changeTotals(changes);
  const files = t("card.changedFiles", { count: changes.length });
  return (
    <span className="tool__change-totals" title={files} data-testid="tool-change-totals">
      <DiffStats added={added} removed={removed} />
    </span>
  );
}

/** Files a call that is not an edit changed (a `sed -i`, an MCP tool), each unfolding to its diff. */
export function ChangedFiles({ changes }: { changes: readonly FileChange[] | undefined }) {
  const t = useT("transcript");
  if (!changes || changes.length === 0) return null;
  return (
    <section className="tool__changes" data-testid="tool-changes">
      <h4 className="tool__label">{t("card.changedFiles", { count: changes.length })}</h4>
      <ul className="tool__change-list">
        {changes.map((change, index) => (
          <li key={`${change.path}-${index}`}>
            <ChangedFile change={change} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ChangedFile({ change }: { change: FileChange }) {
  const [open, onToggle] = useDetailsOpen();
  return (
    <details className="tool__change" data-testid="changed-file" onToggle={onToggle}>
      <summary className="tool__change-summary">
        <span className="tool__change-path" title={change.path}>
          {change.path}
        </span>
        <KindBadge change={change} />
        {!change.binary && <DiffStats added={change.added} removed={change.removed} />}
      </summary>
      {open && <ChangeDiff change={change} />}
    </details>
  );
}

/** The call's output under a heading, with the note when only its start is here. */
export function OutputSection({
  heading,
  text,
  shown,
  waiting,
  empty,
}: {
  heading: string | null;
  text: string | null;
  shown: ShownOutput;
  waiting: boolean;
  empty: string;
}) {
  const t = useT("transcript");
  return (
    <section>
      {heading !== null && <h4 className="tool__label">{heading}</h4>}
      {text === null ? (
        <p className="tool__pending">{waiting ? t("card.waitingApproval") : t("card.waitingResult")}</p>
      ) : (
        <>
          <pre className="tool__pre" data-testid="tool-output">
            {text.trim() === "" ? empty : text}
          </pre>
          <PartialNote shown={shown} />
        </>
      )}
    </section>
  );
}
