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
