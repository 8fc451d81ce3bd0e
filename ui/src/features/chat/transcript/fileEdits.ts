// What a file tool changed, as diffs for its card. The best source wins: the files the engine
// saw change on disk (`files_changed`), else the diff its approval showed, else a diff
// rebuilt from the call's own arguments (no line numbers then: only the disk knows them).
import type { FileChange, FileDiff, JsonValue } from "../../../gen/protocol";

/** Built-in tools that write files (their `NAME` in src-tauri/crates/tools). */
export const FILE_TOOLS: ReadonlySet<string> = new Set(["apply_patch", "write_file"]);

interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

function lines(text: string): string[] {
  if (text === "") return [];
  const split = text.split("\n");
  if (split[split.length - 1] === "") split.pop();
  return split;
}

function hunkText(prefixed: string[]): string {
  return prefixed.length > 0 ? `${prefixed.join("\n")}\n` : "";
}

/**
 * One replacement as a hunk: lines both sides share at the start and end stay as context,
 * the middle reads as removed then added (what a person would call the change).
 */
function editLines(edit: Edit): string[] {
  const before = lines(edit.old_string);
  const after = lines(edit.new_string);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++;
  }
  return [
    ...before.slice(0, head).map((line) => ` ${line}`),
    ...before.slice(head, before.length - tail).map((line) => `-${line}`),
    ...after.slice(head, after.length - tail).map((line) => `+${line}`),
    ...before.slice(before.length - tail).map((line) => ` ${line}`),
  ];
}

/** `old_string`/`new_string` replacements in one file, a hunk each. */
export function editsDiff(path: string, edits: readonly Edit[]): FileDiff {
  return {
    path,
    unified: "",
    hunks: edits.map((edit, index) => {
      const which = edits.length > 1 ? `Edit ${index + 1} of ${edits.length}` : "Edit";
      return {
        index,
        header: edit.replace_all ? `${which} · every occurrence` : which,
        text: hunkText(editLines(edit)),
      };
    }),
  };
}

/** A whole new content: every line added, numbered from 1. */
export function contentDiff(path: string, content: string): FileDiff {
  const added = lines(content);
  return {
    path,
    unified: "",
    hunks: [{ index: 0, header: `@@ -0,0 +1,${added.length} @@`, text: hunkText(added.map((line) => `+${line}`)) }],
  };
}

const BEGIN = "*** Begin Patch";
const FILE_MARK = /^\*\*\* (Add|Delete|Update) File: (.*)$/;
const MOVE = "*** Move to: ";

/**
 * A `*** Begin Patch` text as a diff per file, its lines as written: `@@` anchors start
 * hunks, markers such as `*** End of File` stay visible as notes. Null when it is not one.
 */
export function patchDiffs(patch: string): FileDiff[] | null {
  const all = lines(patch.replace(/\r\n/g, "\n"));
  if (all[0]?.trim() !== BEGIN) return null;
  const files: { path: string; kind: string; hunks: { header: string; lines: string[] }[] }[] = [];
  for (const line of all.slice(1)) {
    const file = FILE_MARK.exec(line);
    const current = files[files.length - 1];
    if (file) {
      const [, kind = "Update", path = ""] = file;
      files.push({ path: path.trim(), kind, hunks: [] });
    } else if (line.trim() === "*** End Patch") {
      break;
    } else if (current === undefined) {
      continue;
    } else if (line.startsWith(MOVE)) {
      current.path = `${current.path} → ${line.slice(MOVE.length).trim()}`;
    } else if (line.startsWith("@@")) {
      current.hunks.push({ header: line, lines: [] });
    } else {
      const hunk = current.hunks[current.hunks.length - 1];
      if (hunk) hunk.lines.push(line);
      else current.hunks.push({ header: "@@", lines: [line] });
    }
  }
  if (files.length === 0) return null;
  return files.map(({ path, kind, hunks }) => {
    if (kind === "Delete") return { path, unified: "", hunks: [{ index: 0, header: "File deleted", text: "" }] };
    if (kind === "Add") {
      // A new file's lines are all additions, so they can be numbered.
      const added = hunks.flatMap((hunk) => hunk.lines);
      return {
        path,
        unified: "",
        hunks: [{ index: 0, header: `@@ -0,0 +1,${added.length} @@`, text: hunkText(added) }],
      };
    }
    return {
      path,
      unified: "",
      hunks: hunks.map((hunk, index) => ({ index, header: hunk.header, text: hunkText(hunk.lines) })),
    };
  });
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEdit(value: JsonValue): value is JsonValue & Edit {
  return isRecord(value) && typeof value.old_string === "string" && typeof value.new_string === "string";
}

/** The change a file tool's arguments describe; null while they stream in or if they make no sense. */
export function diffsFromArgs(tool: string, args: string): FileDiff[] | null {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const path = typeof value.file_path === "string" ? value.file_path : null;
  if (tool === "write_file") {
    return path !== null && typeof value.content === "string" ? [contentDiff(path, value.content)] : null;
  }
  if (tool !== "apply_patch") return null;
  const patch = value.input ?? value.patch;
  if (typeof patch === "string") return patchDiffs(patch);
  if (path === null) return null;
  if (Array.isArray(value.edits)) {
    return value.edits.every(isEdit) ? [editsDiff(path, value.edits)] : null;
  }
  if (typeof value.old_string === "string" && typeof value.new_string === "string") {
    const replaceAll = value.replace_all === true;
    return [editsDiff(path, [{ old_string: value.old_string, new_string: value.new_string, replace_all: replaceAll }])];
  }
  return null;
}

/** Lines added and removed over a call's file changes. */
export function changeTotals(changes: readonly FileChange[]): { added: number; removed: number } {
  return changes.reduce(
    (sum, change) => ({ added: sum.added + change.added, removed: sum.removed + change.removed }),
    { added: 0, removed: 0 },
  );
}
