// Turns the protocol's FileDiff into rows a view can lay out: each line with its old and new
// line numbers, worked out from the `@@ -a,b +c,d @@` header, and the pairing of removed
// and added lines for the side-by-side view.
import type { DiffHunk, FileDiff } from "../../gen/protocol";

export interface HunkRange {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** What follows the closing `@@`: a function name in git diffs, a file in multi-file patches. */
  section: string;
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(?: (.*))?$/;

/** The ranges of a unified-diff hunk header; null for anything else ("rename a -> b"). */
export function parseHunkHeader(header: string): HunkRange | null {
  const match = HEADER.exec(header.trim());
  if (match === null) return null;
  const [, oldStart, oldCount, newStart, newCount, section] = match;
  return {
    oldStart: Number(oldStart),
    // A missing count means one line, as in `diff -u`.
    oldCount: oldCount === undefined ? 1 : Number(oldCount),
    newStart: Number(newStart),
    newCount: newCount === undefined ? 1 : Number(newCount),
    section: section?.trim() ?? "",
  };
}

export type RowKind = "context" | "add" | "del" | "meta";

export interface DiffRow {
  kind: RowKind;
  /** 1-based line in the old file; null for an added line or a note. */
  oldLine: number | null;
  newLine: number | null;
  /** The line without its +/-/space prefix (a note keeps its whole text). */
  text: string;
}

export interface ParsedHunk {
  hunk: DiffHunk;
  range: HunkRange | null;
  /** The file this hunk belongs to (a multi-file change names it after the header). */
  path: string;
  rows: DiffRow[];
  added: number;
  removed: number;
}

export interface ParsedDiff {
  path: string;
  hunks: ParsedHunk[];
  added: number;
  removed: number;
  /** Line rows over all hunks (notes included): what decides windowing. */
  lineCount: number;
  /** The widest line number, for a gutter that does not shift while scrolling. */
  maxLineNumber: number;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Rows of one hunk, numbered from its header (no numbers when the header has no ranges). */
export function hunkRows(hunk: DiffHunk, range: HunkRange | null = parseHunkHeader(hunk.header)): DiffRow[] {
  const lines = splitLines(hunk.text);
  if (lines.length > 0 && lines[0] === hunk.header) lines.shift();
  let oldLine = range ? (range.oldCount === 0 ? range.oldStart + 1 : range.oldStart) : null;
  let newLine = range ? (range.newCount === 0 ? range.newStart + 1 : range.newStart) : null;
  const next = (line: number | null) => (line === null ? null : line + 1);
  return lines.map((line): DiffRow => {
    const sign = line[0];
    // A blank context line often loses its leading space in transit (editors, trimming).
    if (sign === " " || line === "") {
      const row: DiffRow = { kind: "context", oldLine, newLine, text: line.slice(1) };
      oldLine = next(oldLine);
      newLine = next(newLine);
      return row;
    }
    if (sign === "+") {
      const row: DiffRow = { kind: "add", oldLine: null, newLine, text: line.slice(1) };
      newLine = next(newLine);
      return row;
    }
    if (sign === "-") {
      const row: DiffRow = { kind: "del", oldLine, newLine: null, text: line.slice(1) };
      oldLine = next(oldLine);
      return row;
    }
    // "\ No newline at end of file", "rename from a": about the change, not lines of it.
    return { kind: "meta", oldLine: null, newLine: null, text: line };
  });
}

/**
 * Hunks cut out of unified text, for a diff that came without its hunk list. Indices are
 * positional; only a diff's own `hunks` carry the indices the engine accepts.
 */
export function hunksFromUnified(unified: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let current: { header: string; lines: string[]; old: number; new: number } | null = null;
  const flush = () => {
    if (current) {
      const text = current.lines.length > 0 ? `${current.lines.join("\n")}\n` : "";
      hunks.push({ index: hunks.length, header: current.header, text });
    }
    current = null;
  };
  for (const line of splitLines(unified)) {
    if (line.startsWith("@@")) {
      flush();
      const range = parseHunkHeader(line);
      // Without counts, the hunk runs until the next header or file.
      current = { header: line, lines: [], old: range?.oldCount ?? Infinity, new: range?.newCount ?? Infinity };
      continue;
    }
    if (current === null) continue;
    // Counting lines is what tells a removed "-- comment" from the next file's "--- a/x".
    const open = current.old > 0 || current.new > 0;
    if (line.startsWith("\\")) {
      current.lines.push(line);
    } else if (open && !(current.old === Infinity && isFileHeader(line))) {
      current.lines.push(line);
      if (line.startsWith("+")) current.new--;
      else if (line.startsWith("-")) current.old--;
      else {
        current.old--;
        current.new--;
      }
    } else {
      flush();
    }
  }
  flush();
  return hunks;
}

function isFileHeader(line: string): boolean {
  return line.startsWith("--- ") || line.startsWith("+++ ") || line.startsWith("diff --git ");
}

/** The file a hunk edits: a multi-file change lists its paths joined by ", " and names one per header. */
function pathOf(diffPath: string, range: HunkRange | null): string {
  if (range === null || range.section === "" || !diffPath.includes(", ")) return diffPath;
  return diffPath.split(", ").includes(range.section) ? range.section : diffPath;
}

export function parseDiff(diff: FileDiff): ParsedDiff {
  const source = diff.hunks.length > 0 ? diff.hunks : hunksFromUnified(diff.unified);
  let added = 0;
  let removed = 0;
  let lineCount = 0;
  let maxLineNumber = 0;
  const hunks = source.map((hunk): ParsedHunk => {
    const range = parseHunkHeader(hunk.header);
    const rows = hunkRows(hunk, range);
    let hunkAdded = 0;
    let hunkRemoved = 0;
    for (const row of rows) {
      if (row.kind === "add") hunkAdded++;
      else if (row.kind === "del") hunkRemoved++;
      maxLineNumber = Math.max(maxLineNumber, row.oldLine ?? 0, row.newLine ?? 0);
    }
    added += hunkAdded;
    removed += hunkRemoved;
    lineCount += rows.length;
    return { hunk, range, path: pathOf(diff.path, range), rows, added: hunkAdded, removed: hunkRemoved };
  });
  return { path: diff.path, hunks, added, removed, lineCount, maxLineNumber };
}

/** One line of the side-by-side view: the old line on the left, the new on the right. */
export type SplitRow =
  | { kind: "pair"; left: DiffRow | null; right: DiffRow | null }
  | { kind: "meta"; row: DiffRow };

/**
 * Pairs each run of removed lines with the added lines right after it, so a changed line
 * sits across from its replacement; the shorter side is padded with blanks.
 */
export function splitRows(rows: readonly DiffRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: DiffRow[] = [];
  let adds: DiffRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      out.push({ kind: "pair", left: dels[i] ?? null, right: adds[i] ?? null });
    }
    dels = [];
    adds = [];
  };
  for (const row of rows) {
    if (row.kind === "del") {
      // A removal after additions starts a new change block.
      if (adds.length > 0) flush();
      dels.push(row);
    } else if (row.kind === "add") {
      adds.push(row);
    } else {
      flush();
      out.push(row.kind === "meta" ? { kind: "meta", row } : { kind: "pair", left: row, right: row });
    }
  }
  flush();
  return out;
}
