// What the collab tools' arguments and JSON results say, read leniently: a model's
// arguments may be cut off mid-stream, and a result may be an error message instead.
import type { SubagentState } from "../../gen/protocol";

/** The tools a parent uses to work with its subagents (`spawn_agent` has its own card). */
export const COLLAB_TOOLS: ReadonlySet<string> = new Set(["send_input", "wait", "close_agent", "list_agents"]);

export const SPAWN_TOOL = "spawn_agent";

/** The investigator answers with a structured report instead of prose. */
export const INVESTIGATOR = "codebase_investigator";

const STATES: ReadonlySet<string> = new Set<SubagentState>(["running", "finished", "failed", "interrupted", "closed"]);

/** A JSON object's fields, or null for anything else (an error text, a cut-off stream). */
export function jsonObject(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringField(record: Record<string, unknown> | null, key: string): string | null {
  const value = record?.[key];
  return typeof value === "string" ? value : null;
}

/**
 * A string field of arguments that may still be streaming (not yet valid JSON): its value
 * once the closing quote has arrived.
 */
function streamedField(args: string, key: string): string | null {
  const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(args);
  if (!match?.[1]) return null;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return null;
  }
}

/** What `spawn_agent` was asked: the task and the agent type (default `general`). */
export function spawnArgs(args: string): { task: string; agentType: string } {
  const record = jsonObject(args);
  const field = (key: string) => (record !== null ? stringField(record, key) : streamedField(args, key));
  return { task: field("message") ?? "", agentType: field("agent_type")?.trim() || "general" };
}

/** One agent as `wait`, `send_input`, `close_agent` and `list_agents` report it. */
export interface AgentStatus {
  agentId: string;
  agentType: string | null;
  state: SubagentState | null;
  answer: string | null;
  message: string | null;
}

function agentStatus(value: unknown): AgentStatus | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  const agentId = stringField(record, "agent_id");
  if (agentId === null) return null;
  const state = stringField(record, "state");
  return {
    agentId,
    agentType: stringField(record, "agent_type"),
    state: state !== null && STATES.has(state) ? (state as SubagentState) : null,
    answer: stringField(record, "answer"),
    message: stringField(record, "message"),
  };
}

/** The agents a result lists (`wait`, `list_agents`), or the one it is about. */
export function resultAgents(output: string | null): AgentStatus[] | null {
  const record = jsonObject(output);
  if (record === null) return null;
  if (Array.isArray(record.agents)) {
    return record.agents.map(agentStatus).filter((status): status is AgentStatus => status !== null);
  }
  const one = agentStatus(record);
  return one === null ? null : [one];
}

/** Whether a `wait` came back before every agent it waited for was done. */
export function waitTimedOut(output: string | null): boolean {
  return jsonObject(output)?.timed_out === true;
}

/** The agent ids a collab call names (`id`, or `wait`'s `ids`). */
export function argumentIds(args: string): string[] {
  const record = jsonObject(args);
  const one = stringField(record, "id");
  if (one !== null) return [one];
  const many = record?.ids;
  return Array.isArray(many) ? many.filter((id): id is string => typeof id === "string") : [];
}

export interface ReportLocation {
  filePath: string;
  reasoning: string;
  keySymbols: string[];
}

/** The codebase investigator's structured report. */
export interface InvestigatorReport {
  summary: string;
  explorationTrace: string[];
  locations: ReportLocation[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * The report in an investigator's answer; null when the answer is not one (it stopped
 * before reporting, or the logged answer was cut short: then it is shown as text).
 */
export function parseReport(answer: string | null): InvestigatorReport | null {
  // A model may wrap the JSON in a fenced block.
  const unfenced = answer?.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n```$/, "$1") ?? null;
  const record = jsonObject(unfenced);
  if (record === null) return null;
  const summary = stringField(record, "summary");
  if (summary === null) return null;
  const locations = Array.isArray(record.relevant_locations)
    ? record.relevant_locations.flatMap((value): ReportLocation[] => {
        if (typeof value !== "object" || value === null) return [];
        const location = value as Record<string, unknown>;
        const filePath = stringField(location, "file_path");
        if (filePath === null) return [];
        return [{ filePath, reasoning: stringField(location, "reasoning") ?? "", keySymbols: strings(location.key_symbols) }];
      })
    : [];
  return { summary, explorationTrace: strings(record.exploration_trace), locations };
}

/** `agent-3f9a…`: enough to tell agents apart in a sentence; the whole id is in the title. */
export function shortAgentId(agentId: string): string {
  return agentId.length > 10 ? `${agentId.slice(0, 10)}…` : agentId;
}

export const STATE_LABELS: Record<SubagentState, string> = {
  running: "running",
  finished: "finished",
  failed: "failed",
  interrupted: "interrupted",
  closed: "closed",
};
