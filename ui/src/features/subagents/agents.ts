// What the subagent cards share (an agent's short id), and the investigator's report. The report is the
// agent's own answer (what it handed in), not a tool's output: it is read here, leniently,
// because the answer is model text that may not be the JSON it was asked for.

/** The investigator answers with a structured report instead of prose. */
export const INVESTIGATOR = "codebase_investigator";

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

function jsonObject(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringField(record: Record<string, unknown>, key: string): string | null {
  const value = record[key];
  return typeof value === "string" ? value : null;
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
