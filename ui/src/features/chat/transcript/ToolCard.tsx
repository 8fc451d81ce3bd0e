import { useEffect, useRef } from "react";

import { AlertIcon, CheckIcon, Spinner } from "../../../components/icons";
import type { ToolItem, ToolProgressView } from "../../../state/transcript";
import { prettyArgs, summarizeArgs } from "../format";
import { COMMAND_TOOLS, commandLine, describeResult, parseCommandOutput } from "./commandOutput";

const STATUS_LABEL: Record<ToolItem["status"], string> = { running: "running", ok: "ok", error: "error" };

/**
 * One tool call, folded to a line; the arguments and output unfold on click. A command
 * that prints while it runs unfolds by itself to show it, and folds again when done.
 */
export function ToolCard({ tool }: { tool: ToolItem }) {
  const command = COMMAND_TOOLS.has(tool.name) ? commandLine(tool.args) : null;
  if (command !== null) return <CommandCard tool={tool} command={command} />;
  const summary = summarizeArgs(tool.args);
  const label = tool.errorKind ? tool.errorKind.replace(/_/g, " ") : STATUS_LABEL[tool.status];
  const live = liveOutputOf(tool);
  return (
    <details
      className={`tool tool--${tool.status}`}
      data-testid="tool-card"
      data-status={tool.status}
      data-tool={tool.name}
      open={live !== null ? true : undefined}
    >
      <summary className="tool__summary">
        <span className="tool__icon">
          {tool.status === "running" ? <Spinner /> : tool.status === "ok" ? <CheckIcon /> : <AlertIcon />}
        </span>
        <span className="tool__name">{tool.name}</span>
        {summary && (
          <span className="tool__args" title={summary}>
            {summary}
          </span>
        )}
        {tool.status === "running" && tool.progress && (
          <span className="tool__progress" data-testid="tool-progress">
            {formatProgress(tool.progress)}
          </span>
        )}
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
          ) : tool.output === null ? (
            <p className="tool__pending">Waiting for the result…</p>
          ) : (
            <pre className="tool__pre" data-testid="tool-output">
              {tool.output || "(empty)"}
            </pre>
          )}
        </section>
      </div>
    </details>
  );
}

/**
 * A shell command: the command line once, then what it printed, its exit code and how long
 * it took (the model-facing bookkeeping of the result stays out of sight).
 */
function CommandCard({ tool, command }: { tool: ToolItem; command: string }) {
  const live = liveOutputOf(tool);
  const result = tool.output === null ? null : parseCommandOutput(tool.output);
  const failed = tool.status === "error" || (result !== null && (result.exitCode ?? 0) !== 0) || result?.signal;
  const verdict = tool.errorKind
    ? tool.errorKind.replace(/_/g, " ")
    : result
      ? describeResult(result)
      : STATUS_LABEL[tool.status];
  const output = result ? result.output : tool.output;
  return (
    <details
      className={`tool tool--command tool--${failed ? "error" : tool.status}`}
      data-testid="tool-card"
      data-status={tool.status}
      data-tool={tool.name}
      open={live !== null ? true : undefined}
    >
      <summary className="tool__summary">
        <span className="tool__icon">
          {tool.status === "running" ? <Spinner /> : failed ? <AlertIcon /> : <CheckIcon />}
        </span>
        <span className="tool__command" title={command} data-testid="tool-command">
          <span className="tool__prompt" aria-hidden="true">
            $
          </span>
          {command}
        </span>
        <span className="tool__status" data-testid="tool-status">
          {verdict}
        </span>
      </summary>
      <div className="tool__body">
        {live !== null ? (
          <LiveOutput text={live} />
        ) : output === null ? (
          <p className="tool__pending">Waiting for the command…</p>
        ) : (
          <pre className="tool__pre" data-testid="tool-output">
            {output.trim() === "" ? "(no output)" : output}
          </pre>
        )}
      </div>
    </details>
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
