import type { SessionStatus } from "../../gen/protocol";
import type { TranscriptEntry } from "../../state/transcript";

/**
 * Files the session's tool calls changed so far, from the transcript's `files_changed`
 * records: distinct paths, and how many records there were (which moves whenever a tool
 * changes anything, so the changes panel knows to look again).
 */
export function transcriptChanges(entries: readonly TranscriptEntry[]): { paths: number; records: number } {
  const paths = new Set<string>();
  let records = 0;
  for (const entry of entries) {
    if (entry.kind !== "turn") continue;
    for (const item of entry.items) {
      if (item.kind !== "tool" || !item.changes) continue;
      for (const change of item.changes) {
        records++;
        paths.add(change.path);
      }
    }
  }
  return { paths: paths.size, records };
}

/**
 * The count the Changes button shows: the whole session's, from its status (a long
 * session's transcript holds only a window of it), but never fewer than the window shows,
 * which is ahead of the status for the moment between a tool's change and the status read
 * it prompts. A status of another session (just switched away from) does not count.
 */
export function changedFileCount(status: SessionStatus | null, sessionId: string | null, windowPaths: number): number {
  const whole = status !== null && status.session_id === sessionId ? status.changed_files : 0;
  return Math.max(whole, windowPaths);
}

/** The changes panel's file count, as it last listed its scope. */
export interface PanelCount {
  sessionId: string;
  files: number;
  /** `transcriptChanges(...).records` when it listed them. */
  records: number;
}

/**
 * The Changes button's count once the panel has listed the files. The status counts each
 * file a tool ever changed, so a revert in the panel never lowers it; the panel's list is
 * what is there. That count holds while the panel is open (it lists afresh whenever a tool
 * changes something) and, once closed, until a tool changes files again; otherwise the
 * status's count (`fallback`, from `changedFileCount`).
 */
export function changesButtonCount(
  fallback: number,
  panel: PanelCount | null,
  sessionId: string | null,
  records: number,
  panelOpen: boolean,
): number {
  if (panel === null || panel.sessionId !== sessionId) return fallback;
  return panelOpen || panel.records === records ? panel.files : fallback;
}
