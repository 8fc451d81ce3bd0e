import { useEffect, useMemo, useRef, useState, type SyntheticEvent } from "react";

import { DiffStats, DiffView, parseDiff, type HunkState } from "../../../components/diff";
import { AlertIcon, CheckIcon, ShieldIcon, Spinner } from "../../../components/icons";
import type { FileChange, FileDiff, ReviewDecision } from "../../../gen/protocol";
import { toolCalledAs, toolLabel } from "../../../state/toolNames";
import type { ApprovalItem, ToolItem, ToolProgressView } from "../../../state/transcript";
import { prettyArgs, summarizeArgs } from "../format";
import { hunkOutcome } from "./ApprovalCard";
import { COMMAND_TOOLS, commandLine, describeResult, parseCommandOutput } from "./commandOutput";
import { changeTotals, diffsFromArgs, FILE_TOOLS } from "./fileEdits";
import { ToolHooks } from "./HookLine";
import { useWatchCommand } from "../../terminal/watch";
import { COLLAB_TOOLS, SPAWN_TOOL } from "../../subagents/collab";
import { CollabCard } from "../../subagents/CollabCard";
import { SubagentCard } from "../../subagents/SubagentCard";
import { formatBytes, type ShownOutput, useShownOutput } from "./wholeOutput";

const STATUS_LABEL: Record<ToolItem["status"], string> = { running: "running", ok: "ok", error: "error" };

const WAITING_LABEL = "waiting for approval";

interface ToolCardProps {
  tool: ToolItem;
  /** The approval this call asked for, if any (found in the same turn by call id). */
  approval?: ApprovalItem | undefined;
}

/** A call held until the user answers its approval is not running yet. */
function isWaiting(tool: ToolItem, approval: ApprovalItem | undefined): boolean {
  return tool.status === "running" && approval !== undefined && approval.decision === null;
}

function StatusIcon({ tool, waiting, failed }: { tool: ToolItem; waiting: boolean; failed: boolean }) {
  if (waiting) return <ShieldIcon />;
  if (tool.status === "running") return <Spinner />;
  return failed ? <AlertIcon /> : <CheckIcon />;
}

function statusLabel(tool: ToolItem, waiting: boolean): string {
  if (waiting) return WAITING_LABEL;
  return tool.errorKind ? tool.errorKind.replace(/_/g, " ") : STATUS_LABEL[tool.status];
}

/**
 * One tool call, folded to a line; the arguments and output unfold on click. A command
 * that prints while it runs unfolds by itself to show it, and folds again when done.
 * File tools show their change as a diff rather than their arguments.
 */
export function ToolCard({ tool, approval }: ToolCardProps) {
  const card = <ToolCardBody tool={tool} approval={approval} />;
  if (!tool.hooks || tool.hooks.length === 0) return card;
  // The call's hooks sit right under it, visible while the card is folded: a block is
  // why the call did not run.
  return (
    <>
      {card}
      <ToolHooks hooks={tool.hooks} />
    </>
  );
}

function ToolCardBody({ tool, approval }: ToolCardProps) {
  // The subagent tools say what they did to which agent; their JSON is for the model.
  if (tool.name === SPAWN_TOOL) return <SubagentCard tool={tool} />;
  if (COLLAB_TOOLS.has(tool.name)) return <CollabCard tool={tool} />;
  const waiting = isWaiting(tool, approval);
  const command = COMMAND_TOOLS.has(tool.name) ? commandLine(tool.args) : null;
  if (command !== null) return <CommandCard tool={tool} command={command} waiting={waiting} />;
  if (FILE_TOOLS.has(tool.name)) return <FileToolCard tool={tool} approval={approval} waiting={waiting} />;
  return <PlainToolCard tool={tool} waiting={waiting} />;
}

/** Any other tool: its arguments and its output. */
function PlainToolCard({ tool, waiting }: { tool: ToolItem; waiting: boolean }) {
  const summary = summarizeArgs(tool.args);
  const label = statusLabel(tool, waiting);
  const live = liveOutputOf(tool);
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  return (
    <details
      className={`tool tool--${waiting ? "waiting" : tool.status}`}
      data-testid="tool-card"
      data-status={tool.status}
      data-tool={tool.name}
      open={live !== null ? true : undefined}
      onToggle={onToggle}
    >
      <summary className="tool__summary">
        <span className="tool__icon">
          <StatusIcon tool={tool} waiting={waiting} failed={tool.status === "error"} />
        </span>
        <span className="tool__name" title={toolCalledAs(tool.name)}>
          {toolLabel(tool.name)}
        </span>
        {summary && (
          <span className="tool__args" title={summary}>
            {summary}
          </span>
        )}
        <ChangeTotals changes={tool.changes} />
        {tool.status === "running" && tool.progress && (
          <span className="tool__progress" data-testid="tool-progress">
            {formatProgress(tool.progress)}
          </span>
        )}
        <RepairedMark repairs={tool.repairs} />
        <span className="tool__status" data-testid="tool-status">
          {label}
        </span>
      </summary>
      <div className="tool__body">
        {tool.args.trim() !== "" && (
          <section>
            <h4 className="tool__label">Arguments</h4>
            <pre className="tool__pre">{prettyArgs(tool.args)}</pre>
          </section>
        )}
        <section>
          <h4 className="tool__label">Output</h4>
          {live !== null ? (
            <LiveOutput text={live} />
          ) : shown.text === null ? (
            <p className="tool__pending">{waiting ? "Waiting for your approval…" : "Waiting for the result…"}</p>
          ) : (
            <>
              <pre className="tool__pre" data-testid="tool-output">
                {shown.text || "(empty)"}
              </pre>
              <PartialNote shown={shown} />
            </>
          )}
        </section>
        {tool.changes && tool.changes.length > 0 && <ChangedFiles changes={tool.changes} />}
        <RepairsNote repairs={tool.repairs} />
      </div>
    </details>
  );
}

/**
 * A shell command: the command line once, then what it printed, its exit code and how long
 * it took (the model-facing bookkeeping of the result stays out of sight).
 */
function CommandCard({ tool, command, waiting }: { tool: ToolItem; command: string; waiting: boolean }) {
  const live = liveOutputOf(tool);
  const watch = useWatchCommand();
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const result = shown.text === null ? null : parseCommandOutput(shown.text);
  const failed =
    tool.status === "error" || (result !== null && (result.exitCode ?? 0) !== 0) || Boolean(result?.signal);
  const verdict = waiting
    ? WAITING_LABEL
    : tool.errorKind
      ? tool.errorKind.replace(/_/g, " ")
      : result
        ? describeResult(result)
        : STATUS_LABEL[tool.status];
  const output = result ? result.output : shown.text;
  return (
    <details
      className={`tool tool--command tool--${waiting ? "waiting" : failed ? "error" : tool.status}`}
      data-testid="tool-card"
      data-status={tool.status}
      data-tool={tool.name}
      open={live !== null ? true : undefined}
      onToggle={onToggle}
    >
      <summary className="tool__summary">
        <span className="tool__icon">
          <StatusIcon tool={tool} waiting={waiting} failed={failed} />
        </span>
        <span className="tool__command" title={command} data-testid="tool-command">
          <span className="tool__prompt" aria-hidden="true">
            $
          </span>
          {command}
        </span>
        <ChangeTotals changes={tool.changes} />
        <RepairedMark repairs={tool.repairs} />
        {watch !== null && tool.status === "running" && !waiting && (
          <button
            type="button"
            className="tool__watch"
            onClick={(event) => {
              // In the summary: open the terminal panel, not fold the card.
              event.preventDefault();
              event.stopPropagation();
              watch(tool.callId, command);
            }}
            title="Watch its output live in the terminal panel (read-only)"
            data-testid="watch-command"
          >
            Watch in terminal
          </button>
        )}
        <span className="tool__status" data-testid="tool-status">
          {verdict}
        </span>
      </summary>
      <div className="tool__body">
        {live !== null ? (
          <LiveOutput text={live} />
        ) : output === null ? (
          <p className="tool__pending">{waiting ? "Waiting for your approval…" : "Waiting for the command…"}</p>
        ) : (
          <>
            <pre className="tool__pre" data-testid="tool-output">
              {output.trim() === "" ? "(no output)" : output}
            </pre>
            <PartialNote shown={shown} />
          </>
        )}
        {tool.changes && tool.changes.length > 0 && <ChangedFiles changes={tool.changes} />}
        <RepairsNote repairs={tool.repairs} />
      </div>
    </details>
  );
}

/**
 * What Memo fixed in the model's arguments before the call ran (a small model's slip:
 * a mode left out, a number sent as a string). Folded, the card only hints at it.
 */
function RepairedMark({ repairs }: { repairs: readonly string[] | undefined }) {
  if (!repairs || repairs.length === 0) return null;
  return (
    <span className="tool__repaired" title={`Arguments repaired: ${repairs.join("; ")}`} data-testid="tool-repaired">
      repaired
    </span>
  );
}

/** The repairs in full, below what the call did. */
function RepairsNote({ repairs }: { repairs: readonly string[] | undefined }) {
  if (!repairs || repairs.length === 0) return null;
  return (
    <section className="tool__repairs" data-testid="tool-repairs">
      <h4 className="tool__repairs-title">Arguments repaired</h4>
      <ul className="tool__repairs-list">
        {repairs.map((repair, index) => (
          <li key={index}>{repair}</li>
        ))}
      </ul>
    </section>
  );
}

/** Under the start of a long output: the whole is on its way, or could not be read. */
function PartialNote({ shown }: { shown: ShownOutput }) {
  if (!shown.partial || shown.fullLength === null) return null;
  const size = formatBytes(shown.fullLength);
  if (shown.error !== null) {
    return (
      <p className="tool__partial tool__partial--error" data-testid="tool-output-partial" role="alert">
        Only the start is shown: the whole output ({size}) could not be read: {shown.error}{" "}
        <button type="button" className="tool__partial-retry" onClick={shown.retry}>
          Try again
        </button>
      </p>
    );
  }
  return (
    <p className="tool__partial" data-testid="tool-output-partial">
      {shown.loading ? `Reading the whole output (${size})…` : `The start of ${size} of output.`}
    </p>
  );
}

/** What a call printed so far, while it runs and has no result yet. */
function liveOutputOf(tool: ToolItem): string | null {
  return tool.status === "running" && tool.output === null && tool.liveOutput ? tool.liveOutput : null;
}

/** A running command's output so far, kept scrolled to its newest line. */
function LiveOutput({ text }: { text: string }) {
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

/** Whether a `<details>` is open, so what it hides (diffs) is only built once someone looks. */
function useDetailsOpen(): [boolean, (event: SyntheticEvent<HTMLDetailsElement>) => void] {
  const [open, setOpen] = useState(false);
  return [open, (event) => setOpen(event.currentTarget.open)];
}

/** Where a file tool's diff comes from; see ./fileEdits. */
type FileSource =
  | { kind: "changes"; changes: FileChange[] }
  | { kind: "approval"; diff: FileDiff; decision: ReviewDecision | null }
  | { kind: "args"; diffs: FileDiff[] };

function fileSource(tool: ToolItem, approval: ApprovalItem | undefined): FileSource | null {
  if (tool.changes && tool.changes.length > 0) return { kind: "changes", changes: tool.changes };
  if (approval?.request.diff) return { kind: "approval", diff: approval.request.diff, decision: approval.decision };
  const diffs = diffsFromArgs(tool.name, tool.args);
  return diffs && diffs.length > 0 ? { kind: "args", diffs } : null;
}

function sourcePaths(source: FileSource): string[] {
  switch (source.kind) {
    case "changes":
      return source.changes.map((change) => change.path);
    case "approval":
      return [source.diff.path];
    case "args":
      return source.diffs.map((diff) => diff.path);
  }
}

function sourceTotals(source: FileSource): { added: number; removed: number } {
  if (source.kind === "changes") return changeTotals(source.changes);
  const diffs = source.kind === "approval" ? [source.diff] : source.diffs;
  return diffs.map(parseDiff).reduce(
    (sum, parsed) => ({ added: sum.added + parsed.added, removed: sum.removed + parsed.removed }),
    { added: 0, removed: 0 },
  );
}

/** The file a call is about while its arguments still stream in (not yet valid JSON). */
function streamingPath(args: string): string | null {
  const match = /"file_path"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(args);
  if (!match?.[1]) return null;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return match[1];
  }
}

function describePaths(paths: readonly string[]): string {
  const unique = [...new Set(paths)];
  const [first] = unique;
  if (first === undefined) return "";
  return unique.length > 1 ? `${first} +${unique.length - 1} more` : first;
}

/**
 * `apply_patch` and `write_file`: the change as a diff (what landed on disk when the engine
 * reported it, else what was proposed), the result below, the raw arguments folded away.
 */
function FileToolCard({ tool, approval, waiting }: { tool: ToolItem; approval: ApprovalItem | undefined; waiting: boolean }) {
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const source = useMemo(() => fileSource(tool, approval), [tool, approval]);
  const totals = useMemo(() => (source ? sourceTotals(source) : null), [source]);
  const subject = source ? describePaths(sourcePaths(source)) : (streamingPath(tool.args) ?? summarizeArgs(tool.args));
  const label = statusLabel(tool, waiting);
  return (
    <details
      className={`tool tool--file tool--${waiting ? "waiting" : tool.status}`}
      data-testid="tool-card"
      data-status={tool.status}
      data-tool={tool.name}
      onToggle={onToggle}
    >
      <summary className="tool__summary">
        <span className="tool__icon">
          <StatusIcon tool={tool} waiting={waiting} failed={tool.status === "error"} />
        </span>
        <span className="tool__name" title={toolCalledAs(tool.name)}>
          {toolLabel(tool.name)}
        </span>
        {subject && (
          <span className="tool__args" title={subject}>
            {subject}
          </span>
        )}
        {totals && (totals.added > 0 || totals.removed > 0) && <DiffStats added={totals.added} removed={totals.removed} />}
        <RepairedMark repairs={tool.repairs} />
        <span className="tool__status" data-testid="tool-status">
          {label}
        </span>
      </summary>
      {open && (
        <div className="tool__body">
          {source === null ? (
            tool.args.trim() !== "" && <pre className="tool__pre">{prettyArgs(tool.args)}</pre>
          ) : (
            <FileSourceView source={source} />
          )}
          {shown.text === null ? (
            <p className="tool__pending">{waiting ? "Waiting for your approval…" : "Waiting for the result…"}</p>
          ) : (
            shown.text.trim() !== "" && (
              <section>
                <h4 className="tool__label">{tool.status === "error" ? "Error" : "Result"}</h4>
                <pre className="tool__pre" data-testid="tool-output">
                  {shown.text}
                </pre>
                <PartialNote shown={shown} />
              </section>
            )
          )}
          {source !== null && tool.args.trim() !== "" && (
            <details className="tool__raw" data-testid="tool-arguments">
              <summary>Arguments</summary>
              <pre className="tool__pre">{prettyArgs(tool.args)}</pre>
            </details>
          )}
          <RepairsNote repairs={tool.repairs} />
        </div>
      )}
    </details>
  );
}

function FileSourceView({ source }: { source: FileSource }) {
  switch (source.kind) {
    case "changes":
      return (
        <div className="tool__diffs">
          {source.changes.map((change, index) => (
            <ChangeDiff key={`${change.path}-${index}`} change={change} />
          ))}
        </div>
      );
    case "approval": {
      const { decision } = source;
      // A partial approval shows which hunks were left out. One made edit by edit marks
      // none: a hunk of the whole file can hold an edit taken and one refused.
      const byEdit = decision?.type === "approve_once" && decision.accepted_edits != null;
      const hunkState =
        decision === null || byEdit ? undefined : (index: number): HunkState => hunkOutcome(decision, index);
      return (
        <div className="tool__diffs">
          <DiffView diff={source.diff} hunkState={hunkState} />
        </div>
      );
    }
    case "args":
      return (
        <div className="tool__diffs">
          {source.diffs.map((diff, index) => (
            <DiffView key={`${diff.path}-${index}`} diff={diff} />
          ))}
        </div>
      );
  }
}

const KIND_LABELS: Partial<Record<FileChange["kind"], string>> = { created: "new file", deleted: "deleted" };

function KindBadge({ change }: { change: FileChange }) {
  const label = KIND_LABELS[change.kind];
  return label ? <span className={`tool__file-kind tool__file-kind--${change.kind}`}>{label}</span> : null;
}

/** One file as the engine saw it change; some changes come without a diff to show. */
function ChangeDiff({ change }: { change: FileChange }) {
  if (change.diff) return <DiffView diff={change.diff} toolbar={<KindBadge change={change} />} />;
  return (
    <p className="tool__no-diff">
      <span className="tool__no-diff-path">{change.path}</span>
      <KindBadge change={change} />
      <span>{change.binary ? "Binary file: no text diff." : "Too large to show here."}</span>
    </p>
  );
}

/** The folded card's hint that the call changed files, with what "Changed N files" says on hover. */
function ChangeTotals({ changes }: { changes: readonly FileChange[] | undefined }) {
  if (!changes || changes.length === 0) return null;
  const { added, removed } = changeTotals(changes);
  const files = `Changed ${changes.length} ${changes.length === 1 ? "file" : "files"}`;
  return (
    <span className="tool__change-totals" title={files} data-testid="tool-change-totals">
      <DiffStats added={added} removed={removed} />
    </span>
  );
}

/** Files a tool that is not a file tool changed (a `sed -i`, an MCP tool), each unfolding to its diff. */
function ChangedFiles({ changes }: { changes: readonly FileChange[] }) {
  return (
    <section className="tool__changes" data-testid="tool-changes">
      <h4 className="tool__label">
        Changed {changes.length} {changes.length === 1 ? "file" : "files"}
      </h4>
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
