import type { ExportFormat, ImportReport, ImportStatus, SessionSummary } from "../../gen/protocol";
import { t } from "../../i18n";
import type { FileFilter } from "../../ipc";

const EXTENSION: Record<ExportFormat, string> = { markdown: "md", memo_code_jsonl: "jsonl" };

/** What each export is for, as the menu, the save dialog and the file name need it (in the current language). */
export function exportFormat(format: ExportFormat): { item: string; dialogTitle: string; extension: string; filter: FileFilter } {
  const extension = EXTENSION[format];
  switch (format) {
    case "markdown":
      return {
        item: t("sessions:transfer.exportMarkdown"),
        dialogTitle: t("sessions:transfer.exportMarkdownTitle"),
        extension,
        filter: { name: "Markdown", extensions: [extension] },
      };
    case "memo_code_jsonl":
      return {
        item: t("sessions:transfer.exportJsonl"),
        dialogTitle: t("sessions:transfer.exportJsonlTitle"),
        extension,
        filter: { name: t("sessions:transfer.jsonlFilter"), extensions: [extension] },
      };
  }
}

/** What Import offers first; "All files" after it, for a log saved under another name. */
export function importFilter(): FileFilter {
  return { name: t("sessions:transfer.importFilter"), extensions: ["jsonl"] };
}

/** Long enough to recognise a title, short enough for a file list's column. */
const MAX_STEM = 60;

// Names Windows keeps for devices whatever the extension ("con.md" cannot be created).
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** `text` as a lowercase, hyphen-joined file name stem: letters and digits of any script. */
function slug(text: string): string {
  const words = text
    // Accents come off Latin letters ("Café" is "cafe"), so the name types on any keyboard;
    // other scripts keep their marks, which are part of how their words are spelled.
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFC")
    .toLowerCase()
    // Everything else (slashes, colons, quotes, dots, spaces, emoji, control characters)
    // separates words: none of it is safe in a file name on every system.
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word !== "");
  let stem = "";
  for (const word of words) {
    const next = stem === "" ? word : `${stem}-${word}`;
    if (next.length > MAX_STEM) {
      // A first word longer than the limit is cut; otherwise whole words only.
      if (stem === "") stem = [...word].slice(0, MAX_STEM).join("");
      break;
    }
    stem = next;
  }
  return RESERVED.test(stem) ? `${stem}-session` : stem;
}

/**
 * The name the save dialog suggests for a session: its title, else its first message (what
 * the list calls it), made safe for a file name ("Fix the login bug!" is
 * fix-the-login-bug.md); the session id when neither leaves a letter or digit.
 */
export function exportFileName(session: Pick<SessionSummary, "id" | "title" | "preview">, format: ExportFormat): string {
  const stem = slug(session.title ?? "") || slug(session.preview ?? "") || slug(session.id) || "session";
  return `${stem}.${EXTENSION[format]}`;
}

/** The last part of a path, on any system. */
export function fileName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/** "2 new, 1 unchanged": the statuses a report has, in a fixed order, none that are zero. */
export function importCounts(report: ImportReport): string {
  const order: ImportStatus[] = ["new", "updated", "unchanged", "empty"];
  return order
    .map((status) => [status, report.files.filter((f) => f.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => t(`sessions:transfer.count.${status}`, { n: count }))
    .join(t("sessions:transfer.separator"));
}

/** The headline of an import's result. */
export function importHeadline(report: ImportReport): string {
  const read = report.files.length;
  const failed = report.failed.length;
  if (read === 0) {
    if (failed === 0) return t("sessions:transfer.nothing");
    return t("sessions:transfer.failedAll", { count: failed });
  }
  return t("sessions:transfer.headline", { count: read, counts: importCounts(report) });
}

/** A skipped line, said where it is: the file's name when several files were read. */
export interface SkippedLineNote {
  file: string;
  line: number;
  reason: string;
}

/** Every skipped line, file by file, and how many in all. */
export function skippedLines(report: ImportReport): { total: number; first: SkippedLineNote[] } {
  const all = report.files.flatMap((f) => f.skipped_lines.map((s) => ({ file: fileName(f.path), line: s.line, reason: s.reason })));
  return { total: all.length, first: all.slice(0, 3) };
}
