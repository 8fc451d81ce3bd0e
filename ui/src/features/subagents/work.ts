// A subagent's work as its card shows it: the last few things it did, one line each (a
// tool call with its subject, what it is writing now), and how many came before.
import type { TranscriptState, TurnItem } from "../../state/transcript";
import { viewLabel, viewSubject } from "../chat/transcript/toolViews";

/** Lines a card shows at most; the whole is one click away ("Open"). */
export const MAX_WORK_STEPS = 6;
/** Characters of the answer being written that a line keeps (its end, the newest part). */
const TEXT_TAIL_CHARS = 220;

export type WorkStep =
  | { kind: "tool"; key: string; name: string; subject: string; status: "running" | "waiting" | "ok" | "error" }
  | { kind: "text"; key: string; text: string; streaming: boolean }
  | { kind: "input"; key: string; text: string }
  | { kind: "error"; key: string; text: string };

export interface WorkSummary {
  /** The newest steps, oldest first. */
  steps: WorkStep[];
  /** Steps before those. */
  earlier: number;
  toolCalls: number;
}

function tail(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > TEXT_TAIL_CHARS ? `…${line.slice(line.length - TEXT_TAIL_CHARS + 1)}` : line;
}

export function summarizeWork(transcript: TranscriptState, max: number = MAX_WORK_STEPS): WorkSummary {
  const all: WorkStep[] = [];
  let toolCalls = 0;
  let turnIndex = 0;
  for (const entry of transcript.entries) {
    if (entry.kind !== "turn") continue;
    // The first message is the task (the card shows it); later ones came by send_input.
    if (turnIndex++ > 0 && entry.input.trim() !== "") all.push({ kind: "input", key: entry.key, text: tail(entry.input) });
    const waiting = new Set(
      entry.items.flatMap((item) => (item.kind === "approval" && item.decision === null ? [item.request.call_id] : [])),
    );
    for (const item of entry.items) {
      const step = stepOf(item, waiting);
      if (step === null) continue;
      if (step.kind === "tool") toolCalls++;
      all.push(step);
    }
  }
  const earlier = Math.max(0, all.length - max);
  return { steps: all.slice(earlier), earlier, toolCalls };
}

function stepOf(item: TurnItem, waiting: ReadonlySet<string>): WorkStep | null {
  switch (item.kind) {
    case "tool": {
      const status = item.status === "running" && waiting.has(item.callId) ? "waiting" : item.status;
      // Until its view comes (the arguments still stream in), a call is its name alone.
      const subject = item.view ? viewSubject(item.view) : "";
      return { kind: "tool", key: item.key, name: viewLabel(item.view, item.name), subject, status };
    }
    case "text":
      return item.text.trim() === "" ? null : { kind: "text", key: item.key, text: tail(item.text), streaming: item.provisional };
    case "error":
      return { kind: "error", key: item.key, text: tail(item.message) };
    default:
      // Reasoning, plans, hooks, retries: the whole transcript has them.
      return null;
  }
}
