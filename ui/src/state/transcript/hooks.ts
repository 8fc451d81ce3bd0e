// How a `hook_ran` event reads in the transcript: one line that says which hook did what
// ("Hook PreToolUse · ./guard.sh blocked: no rm"), and how loudly to say it.
import type { AgentEvent, HookRunSummary } from "../../gen/protocol";
import type { HookItem } from "./types";
import { t } from "../../i18n";

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
  if (run.status === "blocked" || run.decision === "block") return t("hooks:blocked");
  switch (run.status) {
    case "failed":
      return run.exit_code === undefined ? t("hooks:failed") : t("hooks:failedExit", { code: run.exit_code });
    case "timed_out":
      return t("hooks:timedOut");
    case "cancelled":
      return t("hooks:cancelled");
    default:
      if (run.decision === "allow") return t("hooks:allowed");
      if (run.decision === "ask") return t("hooks:asked");
      return t("hooks:ok");
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
        ? t("hooks:blocked")
        : item.decision === "ask"
          ? t("hooks:asked")
          : item.decision === "allow"
            ? t("hooks:allowed")
            : hookTone(item) === "failed"
              ? t("hooks:someFailed")
              : t("hooks:ok");
  // A block's reason is what matters (its command is in the unfolded details); a failure
  // names its command.
  const who =
    item.hooks.length === 1 && only
      ? why && (item.decision === "block" || item.stopped)
        ? t("hooks:eventHook", { event: item.event })
        : t("hooks:hookCommand", { event: item.event, command: only.command })
      : t("hooks:eventHooks", { count: item.hooks.length, event: item.event });
  const stopped = item.stopped && item.decision !== "block" ? t("hooks:stoppedAgent") : "";
  const headline = t("hooks:headline", { who, verb, stopped });
  return why ? t("hooks:withReason", { headline, why: firstLine(why) }) : headline;
}

/** Each hook on its own lines, for a body without markup (session-level notes). */
export function hookDetails(item: HookItem): string {
  return item.hooks
    .map((run) => {
      const head = t("hooks:detail", { command: run.command, verdict: runVerdict(run), ms: run.duration_ms, source: run.source });
      return run.message ? `${head}\n${run.message}` : head;
    })
    .join("\n\n");
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
