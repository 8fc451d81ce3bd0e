// What the cards say about a tool call, read from its typed view (memo-protocol's
// `ToolView`, filled by the tool in Rust). Nothing here reads a call's arguments or the
// text written for the model: the view is the meaning, the output only what it printed.
import { parseDiff } from "../../../components/diff";
import type { CommandView, FileEditView, OutputRange, ToolView } from "../../../gen/protocol";
import { t } from "../../../i18n";
import { summarizeArgs } from "../format";
import { formatBytes } from "./wholeOutput";

/** "850 ms", "1.2 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return t("transcript:duration.ms", { n: Math.round(ms) });
  const seconds = ms / 1000;
  if (seconds < 60) return t("transcript:duration.seconds", { n: seconds.toFixed(1) });
  const minutes = Math.floor(seconds / 60);
  return t("transcript:duration.minutes", { minutes, seconds: Math.round(seconds - minutes * 60) });
}

/** "exit 0 · 1.2 s", "killed by SIGTERM · 30 s", "still running · 10 s"; null before it ran. */
export function commandVerdict(view: CommandView): string | null {
  const parts: string[] = [];
  switch (view.state.state) {
    case "pending":
      return null;
    case "running":
      parts.push(t("transcript:verdict.running"));
      break;
    case "exited":
      parts.push(t("transcript:verdict.exited", { code: view.state.code }));
      break;
    case "killed":
      parts.push(t("transcript:verdict.killed", { signal: view.state.signal }));
      break;
  }
  if (view.duration_ms !== undefined) parts.push(formatDuration(view.duration_ms));
  return parts.join(" · ");
}

/** A command that ended badly: a non-zero exit or a signal. */
export function commandFailed(view: CommandView): boolean {
  return (view.state.state === "exited" && view.state.code !== 0) || view.state.state === "killed";
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * What a command printed: the byte range the view names in the call's stored output. A
 * window sent only the start of a long output gets what of the range it has.
 */
export function printedOutput(text: string, range: OutputRange | undefined): string {
  if (range === undefined) return text;
  const bytes = encoder.encode(text);
  const start = Math.min(range.start, bytes.length);
  return decoder.decode(bytes.subarray(start, Math.min(range.end, bytes.length)));
}

/** The files an edit touches, each once, as the call names them. */
export function editedPaths(view: FileEditView): string[] {
  return [...new Set(view.files.map((file) => (file.change.kind === "move" ? `${file.change.from} → ${file.path}` : file.path)))];
}

/**
 * Lines added and removed over an edit's diffs (those it has): of a change a person took
 * only part of, the hunks written.
 */
export function editTotals(view: FileEditView): { added: number; removed: number } {
  return view.files.reduce(
    (sum, file) => {
      if (!file.diff) return sum;
      const applied = file.applied_hunks;
      const diff = applied === undefined ? file.diff : { ...file.diff, hunks: file.diff.hunks.filter((hunk) => applied.includes(hunk.index)) };
      const parsed = parseDiff(diff);
      return { added: sum.added + parsed.added, removed: sum.removed + parsed.removed };
    },
    { added: 0, removed: 0 },
  );
}

/** "a.rs", "a.rs +2 more". */
export function describePaths(paths: readonly string[]): string {
  const [first] = paths;
  if (first === undefined) return "";
  return paths.length > 1 ? t("transcript:subject.morePaths", { first, n: paths.length - 1 }) : first;
}

function lineRange(start: number | undefined, end: number | undefined): string {
  if (start === undefined) return "";
  return end === undefined || end === start ? `:${start}` : `:${start}–${end}`;
}

/** A catalog's plural sentence of `count` things, the number as written before ("1,200"). */
function counted(key: string, count: number, values: Record<string, unknown> = {}): string {
  return t(key, { count, n: count.toLocaleString("en-US"), ...values });
}

/** The one line a folded card (or a subagent's work list) says a call is about. */
export function viewSubject(view: ToolView): string {
  switch (view.type) {
    case "command":
      return view.stdin !== undefined ? `stdin → ${view.command}` : `$ ${view.command}`;
    case "file_edit":
      return describePaths(editedPaths(view));
    case "read":
      return `${view.path}${lineRange(view.start_line, view.end_line)}`;
    case "search":
      return view.scope ? t("transcript:subject.searchIn", { pattern: view.pattern, scope: view.scope }) : view.pattern;
    case "list":
      return view.path;
    case "fetch":
      return view.url;
    case "plan":
      return counted("transcript:subject.steps", view.steps.length);
    case "subagent":
      return view.task ?? view.agents.map((agent) => agent.agent_id).join(t("transcript:listSeparator"));
    case "mcp_call":
      return summarizeArgs(view.arguments);
    case "memory":
      return view.fact ?? "";
    case "other":
      return summarizeArgs(view.arguments);
  }
}

/** What came of a call, when its view knows more than "ok" (shown beside the status). */
export function viewOutcome(view: ToolView): string | null {
  switch (view.type) {
    case "command":
      return commandVerdict(view);
    case "read": {
      if (view.start_line === undefined) return null;
      const lines = (view.end_line ?? view.start_line) - view.start_line + 1;
      const read =
        view.total_lines !== undefined
          ? counted("transcript:outcome.linesOf", lines, { total: view.total_lines.toLocaleString("en-US") })
          : counted("transcript:outcome.lines", lines);
      return view.truncated ? `${read} · ${t("transcript:outcome.cutShort")}` : read;
    }
    case "search":
      if (view.matches === undefined) return null;
      return moreNotShown(counted("transcript:outcome.matches", view.matches), view.truncated);
    case "list":
      if (view.entries === undefined) return null;
      return moreNotShown(counted("transcript:outcome.entries", view.entries), view.truncated);
    case "fetch": {
      if (view.status === undefined) return null;
      const parts = [`HTTP ${view.status}`];
      if (view.bytes !== undefined) parts.push(formatBytes(view.bytes));
      if (view.content_type) parts.push(view.content_type);
      return parts.join(" · ");
    }
    default:
      return null;
  }
}

/** "12 matches", or "12 matches (more not shown)" when the tool stopped counting there. */
function moreNotShown(what: string, truncated: boolean): string {
  return truncated ? t("transcript:outcome.moreNotShown", { what }) : what;
}

/** The label a card's header gives the call: an MCP tool as `server · tool`, else its name. */
export function viewLabel(view: ToolView | null | undefined, name: string): string {
  if (view?.type === "mcp_call") return `${view.server} · ${view.tool}`;
  return name;
}
