// How a `hook_ran` event reads in the transcript: one line that says which hook did what
// ("Hook PreToolUse · ./guard.sh blocked: no rm"), and how loudly to say it.
import type { AgentEvent, HookRunSummary } from "../../gen/protocol";
import type { HookItem } from "./types";

type HookRan = Extract<AgentEvent, { type: "hook_ran" }>;

export function hookItem(event: HookRan, key: string): HookItem {
  return {
    kind: "hook",
    key,
    event: event.event,
    callId: event.call_id ?? null,
    hooks: event.hooks,
    decision: event.decision ?? null,
    reason: event.reason ?? null,
    stopped: event.stopped,
  };
}

/**
 * `blocked`: a hook stopped something (a call, a prompt, the end of a turn) or the agent;
 * `failed`: a hook failed or timed out (shown, otherwise ignored); `info`: it decided
 * something or said something; `quiet`: it ran and said nothing.
 */
export type HookTone = "blocked" | "failed" | "info" | "quiet";

export function hookTone(item: HookItem): HookTone {
  if (item.decision === "block" || item.stopped || item.hooks.some((h) => h.status === "blocked")) return "blocked";
  if (item.hooks.some((h) => h.status === "failed" || h.status === "timed_out")) return "failed";
  if (item.decision !== null || item.hooks.some((h) => h.message)) return "info";
  return "quiet";
}

/** What one hook did, in a word or two. */
export function runVerdict(run: HookRunSummary): string {
  if (run.status === "blocked" || run.decision === "block") return "blocked";
  switch (run.status) {
    case "failed":
      return run.exit_code === undefined ? "failed" : `failed (exit ${run.exit_code})`;
    case "timed_out":
      return "timed out";
    case "cancelled":
      return "cancelled";
    default:
      if (run.decision === "allow") return "allowed";
      if (run.decision === "ask") return "asked";
      return "ok";
  }
}

/** "Hook PreToolUse · ./guard.sh blocked: no rm"; several hooks are counted. */
export function hookHeadline(item: HookItem): string {
  const [only] = item.hooks;
  const why = item.reason ?? (item.hooks.length === 1 ? (only?.message ?? null) : null);
  const verb =
    item.hooks.length === 1 && only
      ? runVerdict(only)
      : item.decision === "block" || item.stopped
        ? "blocked"
        : item.decision === "ask"
          ? "asked"
          : item.decision === "allow"
            ? "allowed"
            : hookTone(item) === "failed"
              ? "some failed"
              : "ok";
  // A block's reason is what matters (its command is in the unfolded details); a failure
  // names its command.
  const who =
    item.hooks.length === 1 && only
      ? why && (item.decision === "block" || item.stopped)
        ? `${item.event} hook`
        : `Hook ${item.event} · ${only.command}`
      : `${item.hooks.length} ${item.event} hooks`;
  const stopped = item.stopped && item.decision !== "block" ? " (stopped the agent)" : "";
  return `${who} ${verb}${stopped}${why ? `: ${firstLine(why)}` : ""}`;
}

/** Each hook on its own lines, for a body without markup (session-level notes). */
export function hookDetails(item: HookItem): string {
  return item.hooks
    .map((run) => {
      const head = `${run.command} — ${runVerdict(run)}, ${run.duration_ms} ms (${run.source})`;
      return run.message ? `${head}\n${run.message}` : head;
    })
    .join("\n\n");
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
