// Small display formatters shared by the transcript and the sidebar.
import type { JsonValue, TokenUsage } from "../../gen/protocol";
import { formatCount } from "../../format";
import { t } from "../../i18n";

const MAX_SUMMARY = 90;

/** Argument keys that say what a call is about, in order of preference. */
const SUBJECT_KEYS = ["command", "file_path", "path", "pattern", "query", "url", "dir", "directory"];

function clip(text: string, max = MAX_SUMMARY): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function scalar(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? `[${value.length}]` : "{…}";
}

/**
 * One line for a tool card: the subject (file, command, …) when there is one, otherwise
 * `key: value` pairs. Raw text when the model's arguments are not a JSON object.
 */
export function summarizeArgs(raw: string | JsonValue): string {
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return "";
    try {
      value = JSON.parse(raw);
    } catch {
      return clip(raw);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return clip(typeof raw === "string" ? raw : JSON.stringify(raw));
  }
  const record = value as Record<string, JsonValue>;
  const subject = SUBJECT_KEYS.find((key) => typeof record[key] === "string");
  const rest = Object.entries(record).filter(([key]) => key !== subject);
  const parts = rest.map(([key, item]) => `${key}: ${scalar(item)}`);
  if (subject !== undefined) {
    return clip([record[subject] as string, ...parts].join(" · "));
  }
  return clip(parts.join(", "));
}

/** Pretty JSON for the expanded view; the raw text when it does not parse. */
export function prettyArgs(raw: string | JsonValue): string {
  try {
    const value: unknown = typeof raw === "string" ? JSON.parse(raw) : raw;
    return JSON.stringify(value, null, 2);
  } catch {
    return typeof raw === "string" ? raw : String(raw);
  }
}

/** "12,345 in · 67 out · 5 reasoning tokens", in the current language. */
export function formatUsage(usage: TokenUsage): string {
  const parts = [
    t("chat:usage.input", { tokens: formatCount(usage.input_tokens) }),
    t("chat:usage.output", { tokens: formatCount(usage.output_tokens) }),
  ];
  if (usage.cached_input_tokens > 0) parts.push(t("chat:usage.cached", { tokens: formatCount(usage.cached_input_tokens) }));
  if (usage.reasoning_tokens > 0) parts.push(t("chat:usage.reasoning", { tokens: formatCount(usage.reasoning_tokens) }));
  return t("chat:usage.total", { parts: parts.join(" · ") });
}

/** "2 s", "1.5 s", "250 ms". */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
