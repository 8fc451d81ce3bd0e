import type { DiffComment } from "../../components/diff";

/** "line 4", "lines 4–7" */
function lineRange(comment: DiffComment): string {
  return comment.startLine === comment.endLine
    ? `line ${comment.startLine}`
    : `lines ${comment.startLine}–${comment.endLine}`;
}

/**
 * The message that carries review comments to the agent: each with its file and lines,
 * so the model can open exactly that spot. Lines of the old side are ones the change
 * removed, which the model cannot read in the file any more; the note says so.
 */
export function commentsMessage(comments: readonly DiffComment[]): string {
  const items = comments.map((c, i) => {
    const where = `\`${c.path}\` ${lineRange(c)}${c.side === "old" ? " (removed lines, before your change)" : ""}`;
    const text = c.text.trim().replace(/\n/g, "\n   ");
    return `${i + 1}. ${where}: ${text}`;
  });
  const heading = comments.length === 1 ? "A review comment on your changes:" : "Review comments on your changes:";
  return `${heading}\n\n${items.join("\n")}\n\nPlease address ${comments.length === 1 ? "it" : "each of them"}.`;
}
